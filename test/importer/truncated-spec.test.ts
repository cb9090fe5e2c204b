// A spec cut short (the first half of a YAML file: the shared `components` / `definitions` at its end are gone,
// while the operations' `$ref`s still point into them) is refused with one line and exit 1, and the registry it
// would replace stays byte-identical. The rule (src/importer/load.ts): refs into a top-level section the spec lacks
// altogether that break at least half of its operations, or, in a text that ends mid-line, refs naming five or more
// entries the section the file ends in lacks. A spec with a few broken refs still imports (the affected operations are skipped with warnings).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SPECS = join(REPO_ROOT, 'test', 'fixtures', 'specs');

function cli(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [builtCli(), 'import', ...args], { cwd, encoding: 'utf8', env: { ...process.env, INIT_CWD: '' } });
}

/** The fixture as YAML with `section` moved to the end, and that text cut just before it (what a cut-off download leaves). */
function wholeAndCut(fixture: string, section: string): { whole: string; cut: string } {
  const doc = parse(readFileSync(join(SPECS, fixture), 'utf8')) as Record<string, unknown>;
  const { [section]: moved, ...rest } = doc;
  const whole = stringify({ ...rest, [section]: moved });
  const at = whole.indexOf(`\n${section}:`);
  expect(at).toBeGreaterThan(0);
  return { whole, cut: whole.slice(0, at + 1) };
}

describe('a truncated spec', () => {
  // the audit's case: LaunchDarkly as YAML, cut where its components begin
  for (const [fixture, section] of [['oas30.yaml', 'components'], ['../real-specs/launchdarkly.json', 'components']] as const) {
    test(`${fixture} without its ${section}: refused, exit 1, the registry untouched`, { timeout: 60_000 }, () => {
      const dir = tempDir('ac-trunc-');
      const { whole, cut } = wholeAndCut(fixture, section);
      writeFileSync(join(dir, 'api.yaml'), whole);
      writeFileSync(join(dir, 'api-cut.yaml'), cut);
      const first = cli(dir, 'api.yaml', '--name', 'api', '--out', 'reg');
      expect(first.status, first.stderr).toBe(0);
      const before = treeSnapshot(join(dir, 'reg'));

      const r = cli(dir, 'api-cut.yaml', '--name', 'api', '--out', 'reg');
      expect(r.status).toBe(1);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('api-catalog'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(new RegExp(`^api-catalog import: api-cut\\.yaml looks cut short: \\d+ \\$ref\\(s\\) in \\d+ of its \\d+ operations point into #/${section}, which it does not have at all \\(first at #/paths/.+\\); check that the whole file was saved or downloaded$`));
      expect(r.stdout).toBe('');
      expect(treeSnapshot(join(dir, 'reg'))).toEqual(before);
    });
  }

  // the cut inside the section: LaunchDarkly's schemas end after the first third of them
  test('launchdarkly cut inside components.schemas: refused, naming how many entries the section lacks', { timeout: 60_000 }, () => {
    const dir = tempDir('ac-trunc-');
    const doc = JSON.parse(readFileSync(join(SPECS, '../real-specs/launchdarkly.json'), 'utf8')) as Record<string, any>;
    const { components, ...rest } = doc;
    const { schemas, ...others } = components as Record<string, unknown>;
    const whole = stringify({ ...rest, components: { ...others, schemas } });
    const names = Object.keys(schemas as object);
    const at = whole.indexOf(`\n    ${names[Math.floor(names.length / 3)]}:`, whole.indexOf('\n  schemas:'));
    expect(at).toBeGreaterThan(0);
    // cut inside a line with a value (a download stops anywhere), two characters before its end
    const value = /\n +[A-Za-z]+: [^\n]{4,}\n/g;
    value.lastIndex = at;
    const line = value.exec(whole)!;
    writeFileSync(join(dir, 'api-cut.yaml'), whole.slice(0, line.index + line[0].length - 3));
    // the same text up to the line before: a spec with many broken refs that ends its lines imports (RELIABILITY D12)
    writeFileSync(join(dir, 'api-lines.yaml'), whole.slice(0, line.index + 1));
    expect(cli(dir, 'api-lines.yaml', '--name', 'api', '--out', 'reg').status).toBe(0);
    const r = cli(dir, 'api-cut.yaml', '--name', 'api', '--out', 'reg');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^api-catalog import: api-cut\.yaml looks cut short: it ends mid-line inside #\/components\/schemas, and \d+ \$ref\(s\) name \d+ entries it does not have \(first at #\/.+\); check that the whole file was saved or downloaded$/m);
  });

  // stray refs, not a cut: one missing schema every operation names, or five missing entries of a section the
  // file does not end in; they import with warnings
  const stray = (names: string[], after: Record<string, unknown>): string => {
    const ops = Object.fromEntries(names.map((n, k) => [`/things${k}`, { get: { operationId: `getThing${k}`, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${n}` } } } } } } }]));
    return stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: ops, components: { schemas: { Other: { type: 'object' } }, ...after } });
  };
  for (const [label, text] of [
    ['one missing schema every operation names', stray(['Thing', 'Thing', 'Thing', 'Thing', 'Thing', 'Thing'], {})],
    ['five missing schemas in a section before the end', stray(['A', 'B', 'C', 'D', 'E', 'Other'], { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } })],
  ] as const) {
    test(`${label}: imports with warnings`, () => {
      const dir = tempDir('ac-trunc-');
      writeFileSync(join(dir, 'stray.yaml'), text);
      const r = cli(dir, 'stray.yaml', '--out', 'reg');
      expect(r.stderr).not.toMatch(/cut short/);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toMatch(/REF_BROKEN|OPERATION_SKIPPED/);
    });
  }

  // a few stray refs, into a section the spec has (coverage-refs.yaml) or even one it lacks (path-params.yaml,
  // one operation of four): warnings, those operations skipped, the rest imported
  for (const fixture of ['coverage-refs.yaml', 'path-params.yaml']) {
    test(`a few broken refs still import without --strict (${fixture})`, () => {
      const dir = tempDir('ac-trunc-');
      const r = cli(dir, join(SPECS, fixture), '--out', 'reg');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/REF_BROKEN|OPERATION_SKIPPED/);
    });
  }
});
