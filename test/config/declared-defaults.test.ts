// A default the server applies is declared in the option table (src/config/options.ts), so `serve --help`, the
// option table in docs/CONFIGURATION.md and docs/config.schema.json show it instead of "-": maxResponseBytes' 5 MiB
// was applied in the executor (DEFAULTS.maxResponseBytes) and only named in the help text. An option whose help
// states a numeric default must declare one.
import { describe, expect, test } from 'vitest';
import { SERVE_OPTIONS, configJsonSchema, optionsHelp, resolveServerConfig, type OptionSpec } from '../../src/config.js';
import { optionsMarkdown } from '../../src/config/options.js';
import { DEFAULTS } from '../../src/execution/http.js';

const OPTIONS = SERVE_OPTIONS as readonly OptionSpec[];

/** The option's row of docs/CONFIGURATION.md's table: its last cell is the default. */
function markdownDefault(o: OptionSpec): string | undefined {
  const help = o.help.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const row = optionsMarkdown()
    .split('\n')
    .find((line) => line.startsWith(`| ${help}`));
  return row?.split('|').at(-2)?.trim();
}

describe('declared defaults', () => {
  const max = OPTIONS.find((o) => o.name === 'maxResponseBytes')!;

  test("maxResponseBytes: the executor's default, declared; resolved when nothing sets it", () => {
    expect(max.default).toBe(DEFAULTS.maxResponseBytes);
    expect(resolveServerConfig({}, {}).options.maxResponseBytes).toBe(5 * 1024 * 1024);
    expect(resolveServerConfig({}, {}).maxResponseBytes).toBe(5 * 1024 * 1024);
    expect(resolveServerConfig({}, { API_CATALOG_MAX_RESPONSE_BYTES: '2048' }).maxResponseBytes).toBe(2048);
  });

  test('maxResponseBytes: --help, the option table and the JSON Schema show it', () => {
    expect(markdownDefault(max)).toBe('5242880');
    const help = optionsHelp().split('\n');
    const at = help.findIndex((l) => l.includes(max.help));
    expect(help[at + 1]).toMatch(/API_CATALOG_MAX_RESPONSE_BYTES, serve\.maxResponseBytes; default: 5242880$/);
    const serve = (configJsonSchema() as { properties: { serve: { properties: Record<string, { default?: unknown }> } } }).properties.serve;
    expect(serve.properties.maxResponseBytes?.default).toBe(5242880);
  });

  test('an option whose help states a numeric default declares one (the table never says "-" for it)', () => {
    const undeclared = OPTIONS.filter((o) => /\bdefault:?\s+\d/i.test(o.help) && markdownDefault(o) === '-').map((o) => o.name);
    expect(undeclared).toEqual([]);
    for (const o of OPTIONS) expect(markdownDefault(o), o.name).toBeDefined();
  });
});
