// What the contributor-tooling audit found in `eval` and `suggest-overlay` (defects 4, 9, 10, 11, 12, 15): sets of
// one file name kept apart, --compare honouring --json and refusing search flags, cached imports re-imported after
// an importer change, suggest-overlay searching as agents do, a stale --out removed, and eval's input checks.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importerBuild, run as evalRun, setNames } from '../../src/cli/eval.js';
import { parseSuggestQueries, run as suggestRun, suggestKeywords } from '../../src/cli/suggest-overlay.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { packageRoot } from '../../src/registry/catalog.js';
import { compareRuns, parseQueryFile, parseSavedRun, type SavedRun } from '../../src/search/eval.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const TINY = join(packageRoot(), 'test', 'fixtures', 'search', 'registry', 'tiny');
const SHOP_SPEC = join(packageRoot(), 'test', 'fixtures', 'overlays', 'shop.yaml');
const jsonl = (lines: object[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

describe('eval: two sets with one file name (defect 4)', () => {
  it('names each set with as many folders as tell it apart, and --compare lines up both', async () => {
    const dir = tempDir('ac-eval-sets-');
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'a', 'q.jsonl'), jsonl([{ catalog: 'tiny', query: 'create an issue', expect: ['issues/create'] }]));
    writeFileSync(join(dir, 'b', 'q.jsonl'), jsonl([{ catalog: 'tiny', query: 'list customers', expect: ['GetCustomers'] }, { catalog: 'tiny', query: 'delete a label', expect: ['issues/delete-label'] }]));
    const run = join(dir, 'run.json');
    // the same file twice (another spelling) is one set
    const saved = await runCaptured(evalRun, [join(dir, 'a', 'q.jsonl'), join(dir, 'b', 'q.jsonl'), `${dir}/a/./q.jsonl`, '--registry', TINY, '--save', run]);
    expect(saved.code).toBe(0);
    expect(parseSavedRun(readFileSync(run, 'utf8'), run).sets.map((s) => [s.set, s.metrics.queries])).toEqual([['a/q', 1], ['b/q', 2]]);
    const compared = await runCaptured(evalRun, ['--compare', run, run]);
    expect(compared.stdout).toMatch(/\na\/q +1 /);
    expect(compared.stdout).toMatch(/\nb\/q +2 /);
    expect(compared.stdout).toMatch(/\nmean \(2 sets\) +3 /);
  });

  it('setNames adds folders only where names repeat', () => {
    expect(setNames(['x/queries-a.jsonl', 'y/queries-b.jsonl'])).toEqual(['queries-a', 'queries-b']);
    expect(setNames(['/r/x/a/q.jsonl', '/r/y/a/q.jsonl', '/r/z/q.jsonl'])).toEqual(['x/a/q', 'y/a/q', 'z/q']);
    expect(setNames(['/x/q.jsonl', '/y/x/q.jsonl'])).toEqual(['x/q', 'y/x/q']);
  });

  it('refuses a saved run that names two sets alike, instead of dropping one', async () => {
    const m = { queries: 1, recallAt1: 1, recallAt5: 1, mrr: 1 };
    const set = (file: string) => ({ set: 'q', file, metrics: m, catalogs: {}, queries: [] });
    const old: SavedRun = { format: 'api-catalog-eval/1', created: 'x', settings: { keywords: 'append', domain: 'use' }, sets: [set('a/q.jsonl'), set('b/q.jsonl')], mean: m, pooled: m };
    const file = join(tempDir('ac-eval-old-'), 'old.json');
    writeFileSync(file, JSON.stringify(old));
    await expect(runCaptured(evalRun, ['--compare', file, file])).rejects.toThrow(
      `eval: ${file}: two sets are both named "q" (a/q.jsonl and b/q.jsonl), so they cannot be told apart; an older api-catalog named a set after its file name alone: run the eval again with --save`,
    );
    expect(() => compareRuns(old, old)).toThrow(/the before run has two sets named "q" \(a\/q\.jsonl and b\/q\.jsonl\)/);
  });
});

describe('eval --compare: --json is honoured, search flags are refused (defect 9)', () => {
  let run = '';
  beforeAll(async () => {
    const dir = tempDir('ac-eval-cmp-');
    const q = join(dir, 'queries-x.jsonl');
    writeFileSync(q, jsonl([{ catalog: 'tiny', query: 'create an issue', expect: ['issues/create'] }]));
    run = join(dir, 'run.json');
    expect((await runCaptured(evalRun, [q, '--registry', TINY, '--save', run])).code).toBe(0);
  });

  it('prints the comparison as JSON', async () => {
    const r = await runCaptured(evalRun, ['--compare', run, run, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { before: unknown; after: unknown; comparison: { rows: unknown[]; common: number; changes: unknown[]; mrrDelta: { point: number } } };
    expect(out.before).toEqual({ file: run, settings: { keywords: 'append', domain: 'use' } });
    expect(out.after).toEqual(out.before);
    expect(out.comparison).toMatchObject({ common: 1, changes: [], mrrDelta: { point: 0 } });
    expect(out.comparison.rows).toEqual([{ set: 'queries-x', before: { queries: 1, recallAt1: 1, recallAt5: 1, mrr: 1 }, after: { queries: 1, recallAt1: 1, recallAt5: 1, mrr: 1 } }]);
  });

  it('refuses the flags of a search, before any work, naming them (exit 2)', async () => {
    const out = join(tempDir('ac-eval-cmp-save-'), 'x.json');
    const r = await runCaptured(evalRun, ['--compare', run, run, '--save', out, '--misses', '--keywords', 'auto']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('api-catalog eval: --compare compares two saved runs without searching, so --keywords, --save, --misses do not apply; drop them (--json applies)\n');
    expect(existsSync(out)).toBe(false);
    for (const flag of [['--registry', TINY], ['--spec', 'x=y.json'], ['--domain', 'use'], ['--baseline', run], ['--fusion', 'rrf']]) {
      const one = await runCaptured(evalRun, ['--compare', run, run, ...flag]);
      expect(one.code).toBe(2);
      expect(one.stderr).toContain(`so ${flag[0]} does not apply; drop it (--json applies)`);
    }
  });
});

describe('eval: a cached import is imported again when the importer build changed (defect 10)', () => {
  // eval imports into the package's .cache/registry: a catalog name of this process's own, removed afterwards
  const name = `evalcache-${process.pid}`;
  const cached = join(packageRoot(), '.cache', 'registry', name);
  const dir = tempDir('ac-eval-cache-');
  const queries = join(dir, 'q.jsonl');
  const args = [queries, '--spec', `${name}=${SHOP_SPEC}`];
  const ordersFile = join(cached, 'operations', 'orders.json');
  // stands in for what an older importer made: the refund operation now reads like the query
  const tamper = (): void => writeFileSync(ordersFile, readFileSync(ordersFile, 'utf8').replace('"summary": "Refund an order"', '"summary": "give the money back"'));
  afterAll(() => rmSync(cached, { recursive: true, force: true }));

  it('records the importer build, trusts the cache while it matches, re-imports (saying why) when it does not', async () => {
    rmSync(cached, { recursive: true, force: true });
    writeFileSync(queries, jsonl([{ catalog: name, query: 'give the money back', expect: ['orders/refund'] }, { catalog: name, query: 'list orders', expect: ['orders/list'] }]));
    const first = await runCaptured(evalRun, args);
    expect(first.stderr).toBe(`eval: importing ${name} from ${SHOP_SPEC} into ${cached}\n`);
    const fresh = first.stdout;
    expect(fresh).toMatch(/overall +2 {2}0\.500 /);
    expect(importerBuild()).toMatch(/^\d+\.\d+\.\d+.*\+[0-9a-f]{16}$/);
    expect(JSON.parse(readFileSync(join(cached, 'imported-by.json'), 'utf8'))).toEqual({ importer: importerBuild() });

    const again = await runCaptured(evalRun, args);
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(fresh);

    tamper();
    writeFileSync(join(cached, 'imported-by.json'), JSON.stringify({ importer: '0.0.1+0000000000000000' }));
    const other = await runCaptured(evalRun, args);
    expect(other.stderr).toBe(
      `eval: re-importing ${name} from ${SHOP_SPEC} into ${cached}: another importer build made it (0.0.1+0000000000000000; this one is ${importerBuild()})\n`,
    );
    expect(other.stdout).toBe(fresh);

    // a cache from before the importer build was recorded is imported again too
    tamper();
    rmSync(join(cached, 'imported-by.json'));
    const older = await runCaptured(evalRun, args);
    expect(older.stderr).toBe(`eval: re-importing ${name} from ${SHOP_SPEC} into ${cached}: it records no importer build (an older eval imported it)\n`);
    expect(older.stdout).toBe(fresh);

    // without a spec to import it from, it is measured as it is, with a warning
    rmSync(join(cached, 'imported-by.json'));
    const nospec = await runCaptured(evalRun, [queries]);
    expect(nospec.stderr).toBe(
      `eval: warning: ${cached} may be stale: it records no importer build (an older eval imported it), and no spec is found to import it again (pass --spec ${name}=<file>); measuring it as it is\n`,
    );
  });
});

describe('suggest-overlay searches as agents do, and --out never keeps an older overlay (defects 11, 12)', () => {
  let reg = '';
  let dir = '';
  beforeAll(async () => {
    dir = tempDir('ac-suggest-audit-');
    writeRegistry(await importSpec(SHOP_SPEC), dir);
    reg = join(dir, 'shop');
  });

  it("uses an agent-style line's keywords and domain filter, as eval and search_tools do", () => {
    const lines = [
      { catalog: 'shop', query: 'a chargeback', keywords: ['refund'], expect: ['orders/refund'] }, // found through its keyword
      { catalog: 'shop', query: 'list orders', domain: 'customers', expect: ['orders/list'] }, // not in the domain the agent picked
    ];
    const queries = parseSuggestQueries(jsonl(lines), 'q.jsonl');
    expect(queries).toEqual([
      { line: 1, query: 'a chargeback', keywords: ['refund'], expect: ['orders/refund'], catalog: 'shop' },
      { line: 2, query: 'list orders', domain: 'customers', expect: ['orders/list'], catalog: 'shop' },
    ]);
    const report = suggestKeywords(loadCatalogSet([reg]), queries);
    expect(report.hits).toBe(1);
    expect(report.misses.map((m) => [m.line, m.rank])).toEqual([[2, null]]);
    expect(() => parseSuggestQueries('{"query":"x","expect":["a"],"domain":""}\n', 'q.jsonl')).toThrow(/q\.jsonl:1 needs .*"domain" \(a non-empty string\)/);
    expect(() => parseSuggestQueries('{"query":"x","expect":["a"],"keywords":"refund"}\n', 'q.jsonl')).toThrow(/q\.jsonl:1 needs .*"keywords" \(an array of strings\)/);
  });

  it('names the file and line of a domain the catalog lacks, in the words of the command line', async () => {
    const q = join(dir, 'bad-domain.jsonl');
    writeFileSync(q, jsonl([{ query: 'list orders', expect: ['orders/list'] }, { query: 'list orders', domain: 'order', expect: ['orders/list'] }]));
    const r = await runCaptured(suggestRun, ['--queries', q, '--registry', reg]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`api-catalog suggest-overlay: ${q}:2: unknown domain "order"; did you mean "orders"?; run \`api-catalog domains --registry ${reg}\` for the valid names\n`);
  });

  it('removes an older --out file when there is nothing to suggest, and says so', async () => {
    const out = join(dir, 'ov.yaml');
    writeFileSync(join(dir, 'miss.jsonl'), jsonl([{ query: 'a chargeback', expect: ['orders/refund'] }]));
    writeFileSync(join(dir, 'hit.jsonl'), jsonl([{ query: 'list orders', expect: ['orders/list'] }]));
    expect((await runCaptured(suggestRun, ['--queries', join(dir, 'miss.jsonl'), '--registry', reg, '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^# Suggested by `api-catalog suggest-overlay` from 1 missed query\./);
    const none = await runCaptured(suggestRun, ['--queries', join(dir, 'hit.jsonl'), '--registry', reg, '--out', out]);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain(`nothing to suggest; removed the older ${out} (its suggestions are not this run's)\n`);
    expect(existsSync(out)).toBe(false);
    // nothing there before: nothing to remove, nothing said about it
    const again = await runCaptured(suggestRun, ['--queries', join(dir, 'hit.jsonl'), '--registry', reg, '--out', out]);
    expect(again.stderr).toMatch(/nothing to suggest\n$/);
  });
});

describe('eval input checks (defect 15)', () => {
  it('refuses a blank query naming file:line', async () => {
    expect(() => parseQueryFile('{"catalog":"tiny","query":"ok","expect":["a"]}\n{"catalog":"tiny","query":"  ","expect":["a"]}\n', 'q.jsonl')).toThrow(
      'eval: q.jsonl:2: "query" is blank; give the words a user or an agent would search with',
    );
    const file = join(tempDir('ac-eval-blank-'), 'q.jsonl');
    writeFileSync(file, jsonl([{ catalog: 'tiny', query: '', expect: ['issues/create'] }]));
    await expect(runCaptured(evalRun, [file, '--registry', TINY])).rejects.toThrow(`eval: ${file}:1: "query" is blank`);
  });

  it("words an unknown domain as the CLI does, at file:line, pointing to the catalog's domains", async () => {
    const file = join(tempDir('ac-eval-domain-'), 'q.jsonl');
    writeFileSync(file, jsonl([{ catalog: 'tiny', query: 'create issue', expect: ['issues/create'] }, { catalog: 'tiny', query: 'x', domain: 'isues', expect: ['a'] }]));
    await expect(runCaptured(evalRun, [file, '--registry', TINY])).rejects.toThrow(
      `eval: ${file}:2 (tiny): unknown domain "isues"; did you mean "issues"?; run \`api-catalog domains --registry test/fixtures/search/registry/tiny\` for the valid names`,
    );
  });
});
