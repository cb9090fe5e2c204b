// A spec cut short (the first half of a YAML file: the shared `components` / `definitions` at its end are gone,
// while the operations' `$ref`s still point into them) is refused with one line and exit 1, and the registry it
// would replace stays byte-identical. The rule (src/importer/load.ts): refs into a top-level section the spec lacks
// altogether that break at least half of its operations. A spec with a few broken refs still imports (the affected
// operations are skipped with warnings).
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
