// The search-quality gate's own rules (src/search/gate.ts, src/search/fixtures.ts): when a run fails and what its
// message names, the baseline's text form, and that a catalog's search fixture indexes exactly like the catalog.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { loadCatalog } from '../../src/registry/catalog.js';
import { fixtureOperations, toFixture } from '../../src/search/fixtures.js';
import { checkOverall, checkRun, formatBaseline, parseBaseline, type GateQuery, type GateResult } from '../../src/search/gate.js';
import { SearchIndex } from '../../src/search/index.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** n queries at rank 1, with `ranks` overriding the first ones. */
function run(name: string, n: number, ranks: Array<number | null> = []): GateResult {
  const queries: GateQuery[] = [];
  for (let k = 0; k < n; k++) queries.push({ line: k + 1, query: `query ${k + 1}`, rank: k < ranks.length ? (ranks[k] as number | null) : 1 });
  return { run: name, queries };
}

describe('search-quality gate', () => {
  test('a run that keeps its ranks passes and moved nothing', () => {
    const c = checkRun(run('s', 28), run('s', 28).queries);
    expect(c.failure).toBeUndefined();
    expect(c.moved).toEqual([]);
  });

  test('a run may lose one query\'s worth of MRR (1/n), not more; the message names the queries that moved', () => {
    // one query from first to out of the top 10: exactly 1/28
    const one = checkRun(run('s', 28, [null]), run('s', 28).queries);
    expect(one.failure).toBeUndefined();
    expect(one.moved).toEqual([{ line: 1, query: 'query 1', before: 1, after: null }]);
    // that and one more from first to second: beyond it
    const two = checkRun(run('s', 28, [null, 2]), run('s', 28).queries);
    expect(two.failure).toMatch(/^s: MRR@10 1\.000 -> 0\.946/);
    expect(two.failure).toContain('line 1 "query 1": 1 -> -');
    expect(two.failure).toContain('line 2 "query 2": 1 -> 2');
    expect(two.failure).toContain('npm run search:baseline');
    // gains never fail
    expect(checkRun(run('s', 28), run('s', 28, [null, null, 3]).queries).failure).toBeUndefined();
  });

  test('a run without a baseline, or whose set was edited, fails and says how to record a new baseline', () => {
    expect(checkRun(run('s', 3), undefined).failure).toMatch(/no baseline; record one with `npm run search:baseline`/);
    const edited = run('s', 3);
    edited.queries[1] = { line: 2, query: 'another request', rank: 1 };
    expect(checkRun(edited, run('s', 3).queries).failure).toMatch(/not the baseline's/);
    expect(checkRun(run('s', 4), run('s', 3).queries).failure).toMatch(/not the baseline's/);
  });

  test('all runs together fail on many small losses that each stay within their run\'s margin', () => {
    const baseline = new Map<string, GateQuery[]>();
    const results: GateResult[] = [];
    for (let k = 0; k < 30; k++) {
      baseline.set(`s${k}`, run(`s${k}`, 28).queries);
      results.push(run(`s${k}`, 28, [2]));
    }
    const checks = results.map((r) => checkRun(r, baseline.get(r.run)));
    expect(checks.every((c) => c.failure === undefined)).toBe(true);
    const overall = checkOverall(checks, baseline, results);
    expect(overall.hi).toBeLessThan(0);
    expect(overall.failure).toContain('s0  line 1 "query 1": 1 -> 2');
    // unchanged runs: no failure
    const same = [...baseline].map(([name, q]) => ({ run: name, queries: q }));
    expect(checkOverall(same.map((r) => checkRun(r, baseline.get(r.run))), baseline, same).failure).toBeUndefined();
  });

  test('the baseline file: one JSON line per run and per query, read back to the same ranks', () => {
    const text = formatBaseline([run('b', 2, [3]), run('a', 1, [null])]);
    expect(text.split('\n')[0]).toBe('{"run":"a","queries":1,"r1":0,"r5":0,"mrr":0}');
    expect(text).toContain('{"run":"b","line":1,"rank":3,"query":"query 1"}\n');
    const back = parseBaseline(text);
    expect(back.get('a')).toEqual(run('a', 1, [null]).queries);
    expect(back.get('b')).toEqual(run('b', 2, [3]).queries);
    expect(() => parseBaseline('{"run":"a","line":1}\n')).toThrow(/line 1 needs "line", "rank" and "query"/);
    expect(() => parseBaseline('nope\n')).toThrow(/line 1 is not JSON/);
  });

  test('a catalog\'s search fixture builds the same index as the catalog itself (GitHub, byte for byte)', () => {
    const c = loadCatalog(join(REPO_ROOT, 'registry', 'github'));
    const fixture = toFixture('github', { spec: 'openapi/github.json', sha256: 'x', title: 'GitHub', version: '1' }, c.meta.domains, c.operations);
    const a = SearchIndex.build(c.operations, c.meta.domains).toSnapshot();
    const b = SearchIndex.build(fixtureOperations(JSON.parse(JSON.stringify(fixture))), fixture.domains).toSnapshot();
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
  });
});
