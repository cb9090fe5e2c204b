// The ranker's pruning (src/search/rank.ts, `prune`): above `pruneAbove` candidates, the costly precision signal is
// computed only for the documents whose upper bound can still reach the best k. It must change nothing: every
// query of every set in the repository, as the gate searches it, ranks bit-identically with pruning forced on every
// query (pruneAbove 0) and with pruning off (Infinity); so do deep pages, domain filters and explanations.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gateRuns, measureRun } from '../../src/search/gate.js';
import { readGateCatalog, readQuerySets } from '../../src/search/gate-files.js';
import { DEFAULT_TUNING } from '../../src/search/tuning.js';
import { MAX_LIMIT, SearchIndex } from '../../src/search/index.js';
import type { Searcher } from '../../src/search/eval.js';
import { domainsOf, lookalikeOperations } from './helpers.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

type Options = Parameters<SearchIndex['search']>[1];
interface Comparing extends Searcher {
  searches: number;
  /** Searches explained (every 20th, and every explain the caller asks for) and those whose ranker left some out. */
  explained: number;
  prunedSome: number;
}

/** A searcher that asks both rankers, keeps every disagreement, and answers with the pruned one. */
function comparing(index: SearchIndex, differences: string[]): Comparing {
  const pruned = index.withQueryTuning({ pruneAbove: 0 });
  const plain = index.withQueryTuning({ pruneAbove: Infinity });
  const self: Comparing = {
    searches: 0,
    explained: 0,
    prunedSome: 0,
    search: (query: string, options: Options = {}) => {
      const explain = options.explain === true || self.searches % 20 === 0;
      self.searches++;
      const { pruning, ...a } = pruned.search(query, { ...options, explain });
      const b = plain.search(query, { ...options, explain });
      expect(b.pruning).toBeUndefined();
      if (JSON.stringify(a) !== JSON.stringify(b) && differences.length < 10) differences.push(`${query} ${JSON.stringify(options)}`);
      if (explain && a.total > 0) {
        self.explained++;
        if (pruning !== undefined && pruning.scored < pruning.candidates) self.prunedSome++;
      }
      return a;
    },
  };
  return self;
}

describe('pruning in the ranker changes no ranking', () => {
  it('is on by default for large candidate sets', () => {
    expect(DEFAULT_TUNING.pruneAbove).toBeGreaterThan(0);
    expect(Number.isFinite(DEFAULT_TUNING.pruneAbove)).toBe(true);
  });

  it('every query of every set in the repository, with and without its domain: the same results and scores', { timeout: 300_000 }, () => {
    const differences: string[] = [];
    const indexes = new Map<string, { index: Comparing; operations: ReturnType<typeof readGateCatalog>['operations'] }>();
    // typo runs read the same queries through the typos unit: the spelt ones are enough here
    const runs = readQuerySets(REPO_ROOT).flatMap((s) => gateRuns(s.set, s.queries)).filter((r) => !r.name.includes('(typos)'));
    for (const run of runs) {
      measureRun(run, (catalog) => {
        let have = indexes.get(catalog);
        if (have === undefined) {
          const { operations, domains } = readGateCatalog(REPO_ROOT, catalog);
          have = { index: comparing(SearchIndex.build(operations, domains), differences), operations };
          indexes.set(catalog, have);
        }
        return have;
      });
    }
    const sum = (f: (c: Comparing) => number): number => [...indexes.values()].reduce((n, c) => n + f(c.index), 0);
    expect(indexes.size).toBeGreaterThan(50);
    expect(sum((c) => c.searches)).toBeGreaterThan(5_000);
    expect(differences).toEqual([]);
    // the comparison is worth something only where the ranker did leave candidates out: most searches
    expect(sum((c) => c.prunedSome)).toBeGreaterThan(sum((c) => c.explained) / 2);
  });

  const OPS = lookalikeOperations();
  const index = SearchIndex.build(OPS, domainsOf(OPS));
  const queries = ['list webhooks', 'get a customer', 'delete', 'update the secret of an org', 'issue label', 'teams', 'issues_list-0-0', 'create a job runner for the user'];

  it('deep pages, domain filters (and the paths a domain reaches) and explanations, on 800 look-alike operations', () => {
    const differences: string[] = [];
    const both = comparing(index, differences);
    for (const q of queries) {
      for (const options of [{}, { limit: 1 }, { limit: MAX_LIMIT, offset: 480 }, { limit: 10, explain: true }, { domain: 'webhooks' }, { domain: 'teams', limit: 30, explain: true }]) {
        const page = both.search(q, options);
        if (options.limit === undefined && !('domain' in options)) expect(page.total, q).toBeGreaterThan(0);
      }
    }
    expect(both.searches).toBe(queries.length * 6);
    expect(differences).toEqual([]);
    expect(both.prunedSome).toBeGreaterThan(both.explained / 2);
  });

  it('explain says how many candidates every signal scored, only when the ranker pruned', () => {
    const pruned = index.search('list webhooks', { limit: 5, explain: true });
    expect(pruned.pruning?.candidates).toBeGreaterThan(DEFAULT_TUNING.pruneAbove);
    expect(pruned.pruning?.scored).toBeGreaterThanOrEqual(5);
    expect(pruned.pruning?.scored).toBeLessThan((pruned.pruning?.candidates ?? 0) / 4);
    expect(index.search('list webhooks', { limit: 5 }).pruning).toBeUndefined();
    expect(index.withQueryTuning({ pruneAbove: Infinity }).search('list webhooks', { limit: 5, explain: true }).pruning).toBeUndefined();
  });
});
