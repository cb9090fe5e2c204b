// One reading for one meaning: a request with typos that the typo corrector reads back as the spelt words reads and
// ranks exactly like the spelt request — same words, method, shape, scopes, head noun, same operations with the
// same scores. Checked over every query set of the repository with generated typos (src/search/gate.ts, `typo`):
// one in each word a person could mistype (the verb the method is read from, the head noun, a scope word, the
// rest), and one in every such word at once. The cases: Stripe "cancle a subscripton", "refnd a payement".
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { searchRequest } from '../../src/search/eval.js';
import { MAX_TYPOS, typableTokens, withTypos } from '../../src/search/gate.js';
import { readGateCatalog, readQuerySets } from '../../src/search/gate-files.js';
import { SearchIndex, type SearchResult } from '../../src/search/index.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const indexes = new Map<string, SearchIndex>();
function indexFor(catalog: string): SearchIndex {
  let index = indexes.get(catalog);
  if (index === undefined) {
    const { operations, domains } = readGateCatalog(REPO_ROOT, catalog);
    index = SearchIndex.build(operations, domains);
    indexes.set(catalog, index);
  }
  return index;
}

/** The reading without the typos unit's note, and the ranking (names and scores). */
function outcome(r: SearchResult): { reading: unknown; ranking: string[] } {
  const { units, ...reading } = r.reading ?? { units: [] };
  return { reading: { ...reading, units: units.filter((u) => u.unit !== 'typos') }, ranking: r.results.map((h) => `${h.name} ${h.score}`) };
}

/** Every word as read: the lead step, the words an agent appended, a later step. */
const wordsOf = (o: { reading: unknown }): string => {
  const r = o.reading as { words: string; appended?: string; laterStep?: string };
  return JSON.stringify([r.words, r.appended, r.laterStep]);
};

describe('typos: a corrected request reads and ranks exactly like the spelt one', () => {
  it('the issue\'s Stripe requests', () => {
    const stripe = indexFor('stripe');
    for (const [typed, spelt] of [['cancle a subscripton', 'cancel a subscription'], ['refnd a payement', 'refund a payment']] as const) {
      const a = stripe.search(typed, { explain: true });
      expect(a.reading?.units.find((u) => u.unit === 'typos')?.reading, typed).toBeDefined();
      expect(outcome(a), typed).toEqual(outcome(stripe.search(spelt, { explain: true })));
    }
    // the method is read from the corrected verb: cancel asks for POST or DELETE, and Stripe's cancel is a DELETE
    expect(stripe.search('cancle a subscripton', { explain: true }).reading?.methods).toEqual(['post', 'delete']);
    expect(stripe.search('cancle a subscripton').results[0]?.name).toBe('DeleteSubscriptionsSubscriptionExposedId');
  });

  // ~3,000 searches with explain: seconds on a quiet machine, over a minute on a loaded one. So the test yields to the
  // event loop between queries (a worker blocked for a minute misses vitest's own RPC deadline: "Timeout calling
  // onTaskUpdate") and has a generous limit (it waits for the CPU; nothing here is judged by the clock).
  it('over every query set, with a typo in each word a person could mistype, and in all of them at once', async () => {
    let variants = 0;
    let readBack = 0;
    const differ: string[] = [];
    for (const { set, queries } of readQuerySets(REPO_ROOT)) {
      for (const q of queries) {
        await new Promise<void>((r) => setImmediate(r));
        const index = indexFor(q.catalog);
        const { text, options } = searchRequest(q, { keywords: 'option', useDomain: true });
        const spelt = outcome(index.search(text, { ...options, explain: true }));
        const tokens = typableTokens(q.query);
        const picks = tokens.map((k) => [k]);
        if (tokens.length > 1) picks.push(tokens.slice(0, MAX_TYPOS));
        for (const at of picks) {
          const typed = withTypos(q.query, at);
          variants++;
          const got = outcome(index.search(typed, { ...options, explain: true }));
          // only where the corrector read every typo back (a typo may be another word, or a common English one)
          if (wordsOf(got) !== wordsOf(spelt)) continue;
          readBack++;
          if (JSON.stringify(got) !== JSON.stringify(spelt)) differ.push(`${set}:${q.line} ${JSON.stringify(typed)} vs ${JSON.stringify(q.query)}`);
        }
      }
    }
    expect(differ, differ.slice(0, 10).join('\n')).toEqual([]);
    // most generated typos are read back (the rest make another word or lose the first letters' neighbourhood)
    expect(variants).toBeGreaterThan(3000);
    expect(readBack / variants).toBeGreaterThan(0.85);
  }, 300_000);
});
