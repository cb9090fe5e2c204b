// A default the server applies is declared in the option table (src/config/options.ts), so `serve --help`, the
// option table in docs/CONFIGURATION.md and docs/config.schema.json show it instead of "-": maxResponseBytes' 5 MiB
// was applied in the executor (DEFAULTS.maxResponseBytes) and only named in the help text. An option whose help
// names a default must declare one, and "-" is left only to options whose absence turns their feature off: a default
// the code computes (the HTTP read limit, the index cache folder, the public URL, the state store) is named in the
// option's `shownDefault`, and checked here against what the code does.
import { describe, expect, test } from 'vitest';
import { SERVE_OPTIONS, configJsonSchema, optionsHelp, parseConfigFile, resolveServerConfig, type OptionSpec } from '../../src/config.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { optionsMarkdown, shownDefault } from '../../src/config/options.js';
import { DEFAULTS } from '../../src/execution/http.js';
import { defaultIndexCacheDir } from '../../src/server/core/index-cache.js';
import { HTTP_READ_RATE_LIMIT } from '../../src/config/options.js';
import { createServer, type ServerDeps } from '../../src/server/create-server.js';
import type { RateLimits } from '../../src/server/session.js';
import { serveHttp } from '../../src/server/transports/http.js';
import { describeStateStore, openStateStore } from '../../src/state/index.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

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

  test('an option whose help names a default declares one (the table never says "-" for it)', () => {
    const undeclared = OPTIONS.filter((o) => /\bdefault\b/i.test(o.help) && markdownDefault(o) === '-').map((o) => o.name);
    expect(undeclared).toEqual([]);
    for (const o of OPTIONS) expect(markdownDefault(o), o.name).toBeDefined();
  });

  test('"-" only where unset means off: a default the code computes is named (shownDefault), in help, table and schema', () => {
    // A new option without `default` fails here until it names what the code does without it (shownDefault) or is
    // added below as one whose absence turns its feature off.
    const UNSET_MEANS_OFF = ['configPath', 'searchLog', 'embeddingsUrl', 'embeddingsModel', 'authToken', 'tokensFile', 'oauthIssuer'];
    expect(OPTIONS.filter((o) => markdownDefault(o) === '-').map((o) => o.name)).toEqual(UNSET_MEANS_OFF);
    for (const name of ['readRateLimitPerMinute', 'indexCache', 'publicUrl', 'stateUrl']) {
      const o = OPTIONS.find((x) => x.name === name)!;
      expect(o.default, name).toBeUndefined();
      expect(markdownDefault(o), name).toBe(shownDefault(o).replace(/</g, '&lt;').replace(/>/g, '&gt;'));
      // --help says it once, on the default line, not again in the help text
      expect(o.help, name).not.toMatch(/\bdefault\b/i);
      const help = optionsHelp().split('\n');
      expect(help[help.findIndex((l) => l.includes(o.help)) + 1], name).toMatch(new RegExp(`default: ${shownDefault(o).replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')}$`));
      if (o.file !== undefined) {
        const schema = configJsonSchema() as { properties: { serve: { properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> } } };
        const [, a, b] = o.file.split('.');
        const node = b === undefined ? schema.properties.serve.properties[a!] : schema.properties.serve.properties[a!]?.properties?.[b];
        expect(node?.description, name).toContain(`Default: ${shownDefault(o)}.`);
      }
    }
  });
});

describe('computed defaults: what the table says is what the code does', () => {
  const shown = (name: string): string => shownDefault(OPTIONS.find((o) => o.name === name)!);

  /** A real server's applied limits: serveHttp's handle (its sessions' deps), and a stdio/in-memory server's session. */
  async function appliedLimits(deps: Partial<ServerDeps> = {}): Promise<{ http: RateLimits; stdio: RateLimits }> {
    const base = { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: true, env: {} }, ...deps };
    const srv = await serveHttp(base, { port: 0 });
    try {
      const { session } = createServer(base);
      return { http: srv.limits, stdio: { executePerMinute: session.limit('execute'), readPerMinute: session.limit('read'), confirmPerMinute: session.limit('confirm') } };
    } finally {
      await srv.close();
    }
  }

  test('readRateLimitPerMinute: unset in the config; 600 applied by a real serveHttp, unlimited by a stdio (in-memory) server', async () => {
    expect(resolveServerConfig({}, {}).readRateLimitPerMinute).toBeUndefined();
    expect(resolveServerConfig({ http: true }, {}).readRateLimitPerMinute).toBeUndefined();
    expect(shown('readRateLimitPerMinute')).toBe(`unlimited over stdio, ${HTTP_READ_RATE_LIMIT} over HTTP`);
    const { http, stdio } = await appliedLimits();
    expect(http.readPerMinute).toBe(HTTP_READ_RATE_LIMIT);
    expect(stdio.readPerMinute).toBe(0);
    // and what a read limit the operator gives becomes, on both
    const given = await appliedLimits({ readRateLimitPerMinute: 7 });
    expect([given.http.readPerMinute, given.stdio.readPerMinute]).toEqual([7, 7]);
  });

  test('confirmRateLimitPerMinute: the declared default (10) is what a real serveHttp and a stdio server apply; flag, env and file set it; 0 disables', async () => {
    const o = OPTIONS.find((x) => x.name === 'confirmRateLimitPerMinute')!;
    expect(o.default).toBe(10);
    expect(resolveServerConfig({}, {}).confirmRateLimitPerMinute).toBe(10);
    const { http, stdio } = await appliedLimits();
    expect([http.confirmPerMinute, stdio.confirmPerMinute]).toEqual([o.default, o.default]);
    // the CLI passes the resolved value (src/cli/serve.ts): flag, env, config file
    expect(resolveServerConfig({ confirmRateLimit: '0' }, {}).confirmRateLimitPerMinute).toBe(0);
    expect(resolveServerConfig({}, { API_CATALOG_CONFIRM_RATE_LIMIT: '3' }).confirmRateLimitPerMinute).toBe(3);
    expect(resolveServerConfig({}, {}, parseConfigFile(JSON.stringify({ serve: { confirmRateLimitPerMinute: 4 } }), 'c.json')).confirmRateLimitPerMinute).toBe(4);
    expect(() => resolveServerConfig({}, { API_CATALOG_CONFIRM_RATE_LIMIT: '-1' })).toThrow(/must be an integer >= 0/);
    const off = await appliedLimits({ confirmRateLimitPerMinute: 0 });
    expect([off.http.confirmPerMinute, off.stdio.confirmPerMinute]).toEqual([0, 0]);
  });

  test("indexCache: api-catalog/index in the user's cache folder", () => {
    expect(resolveServerConfig({}, {}).indexCache).toBeUndefined();
    expect(shown('indexCache')).toMatch(/^api-catalog\/index in the user cache folder \(~\/\.cache, or \$XDG_CACHE_HOME, on Linux\)$/);
    if (process.platform !== 'linux') return;
    const saved = process.env.XDG_CACHE_HOME;
    try {
      delete process.env.XDG_CACHE_HOME;
      expect(defaultIndexCacheDir()).toBe(join(homedir(), '.cache', 'api-catalog', 'index'));
      const xdg = tempDir('xdg-cache');
      process.env.XDG_CACHE_HOME = xdg;
      expect(defaultIndexCacheDir()).toBe(join(xdg, 'api-catalog', 'index'));
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });

  test('publicUrl: the OAuth audience of a real server started without one is http://<host>:<port>/mcp', async () => {
    expect(shown('publicUrl')).toBe('http://<host>:<port>/mcp, from the listen address');
    // the issuer is not reached at start (its keys are fetched for the first token)
    const srv = await serveHttp({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: true, env: {} } }, { port: 0, oauth: { issuer: 'https://issuer.example' } });
    try {
      const expected = shown('publicUrl').split(',')[0]!.replace('<host>', srv.host).replace('<port>', String(srv.port));
      expect(srv.resource).toBe(expected);
    } finally {
      await srv.close();
    }
  });

  test('stateUrl: in memory, not shared', async () => {
    expect(resolveServerConfig({ http: true }, {}).stateUrl).toBeUndefined();
    const store = await openStateStore(undefined);
    expect(store.shared).toBe(false);
    expect(describeStateStore(undefined)).toBe('memory');
    expect(shown('stateUrl')).toBe('in memory, this process only');
  });
});
