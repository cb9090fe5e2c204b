// The search-quality gate (docs/SEARCH.md, "The gate"): every query set of the repository, held-out ones included,
// searched as an agent calls it and (sets with domains) without the domain, against the committed baseline
// test/fixtures/search/gate/baseline.jsonl. A run fails when its MRR@10 drops by more than one query's worth, and all
// runs together when their mean change is below zero beyond query-sampling noise; the message names the queries
// that moved. Catalogs come from test/fixtures/search/catalogs (npm run search:fixtures) or committed registries.
// A deliberate trade is recorded with `npm run search:baseline`, whose diff shows every moved query.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkOverall, checkRun, gateRuns, measureRun, parseBaseline, type GateResult, type RunCheck } from '../../src/search/gate.js';
import { BASELINE_FILE, readGateCatalog, readQuerySets } from '../../src/search/gate-files.js';
import { SearchIndex } from '../../src/search/index.js';
import type { Operation } from '../../src/types.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = readQuerySets(REPO_ROOT).flatMap((s) => gateRuns(s.set, s.queries));
const baseline = parseBaseline(readFileSync(join(REPO_ROOT, BASELINE_FILE), 'utf8'));
const indexes = new Map<string, { index: SearchIndex; operations: readonly Operation[] }>();
function indexFor(catalog: string): { index: SearchIndex; operations: readonly Operation[] } {
  let have = indexes.get(catalog);
  if (have === undefined) {
    const { operations, domains } = readGateCatalog(REPO_ROOT, catalog);
    have = { index: SearchIndex.build(operations, domains), operations };
    indexes.set(catalog, have);
  }
  return have;
}
const results: GateResult[] = [];
const checks: RunCheck[] = [];

describe('search-quality gate: every query set against test/fixtures/search/gate/baseline.jsonl', () => {
  test('the gate measures every set of test/fixtures/search and test/fixtures/eval, and the baseline has every run', () => {
    const sets = new Set(runs.map((r) => r.set));
    for (const s of ['queries-dev', 'queries-natural', 'queries-natural-agent', 'queries-typos', 'queries-zoom-agent']) expect(sets).toContain(s);
    expect(runs.map((r) => r.name)).toContain('queries-natural-agent (no domain)');
    expect([...baseline.keys()].sort()).toEqual(runs.map((r) => r.name).sort());
  });

  test.each(runs.map((r) => [r.name, r] as const))('%s: MRR@10 holds', (_name, run) => {
    const result = measureRun(run, indexFor);
    const check = checkRun(result, baseline.get(run.name));
    results.push(result);
    checks.push(check);
    expect(check.failure, check.failure).toBeUndefined();
  });

  test('all runs together: no loss beyond query-sampling noise', () => {
    expect(checks.length).toBe(runs.length);
    const overall = checkOverall(checks, baseline, results);
    expect(overall.failure, overall.failure).toBeUndefined();
  });
});
