// The scaling mechanics of SearchIndex.rank: the bounded best-k list, the deep-page full sort, domain totals and
// the per-query buffers that are reused across searches must give the same ranking as reading everything.
import { describe, expect, it } from 'vitest';
import { MAX_LIMIT, SearchIndex } from '../../src/search/index.js';
import { domainsOf, lookalikeOperations } from './helpers.js';

const OPS = lookalikeOperations();
const index = SearchIndex.build(OPS, domainsOf(OPS));

/** Every result of a query, read page by page (each page is its own search). */
function allPages(query: string, domain?: string): Array<{ name: string; score: number }> {
  const out: Array<{ name: string; score: number }> = [];
  for (let offset = 0; ; offset += MAX_LIMIT) {
    const page = index.search(query, { limit: MAX_LIMIT, offset, ...(domain ? { domain } : {}) });
    out.push(...page.results.map((h) => ({ name: h.name, score: h.score })));
    if (page.results.length < MAX_LIMIT) return out;
  }
}

describe('SearchIndex at scale: best-k selection', () => {
  const queries = ['list webhooks', 'get a customer', 'delete', 'update the secret of an org', 'issue label', 'teams'];

  it('pages read in the bounded list (offset + limit <= 512) and the full sort (deeper) form one ordering', () => {
    for (const q of queries) {
      const pages = allPages(q);
      const total = index.search(q).total;
      expect(pages.length, q).toBe(total);
      expect(total, q).toBeGreaterThan(100);
      expect(new Set(pages.map((p) => p.name)).size, q).toBe(total);
      // best first, ties by name (K4)
      for (let k = 1; k < pages.length; k++) {
        const [a, b] = [pages[k - 1], pages[k]] as [{ name: string; score: number }, { name: string; score: number }];
        expect(a.score > b.score || (a.score === b.score), q).toBe(true);
      }
      // a page straddling the bounded/full-sort boundary agrees with the pages around it
      const straddle = index.search(q, { limit: 50, offset: 480 }).results.map((h) => h.name);
      expect(straddle, q).toEqual(pages.slice(480, 530).map((p) => p.name));
      const first = index.search(q, { limit: 8 }).results.map((h) => h.name);
      expect(first, q).toEqual(pages.slice(0, 8).map((p) => p.name));
    }
  });

  it('a domain filter keeps the same relative order and counts only that domain', () => {
    for (const q of queries) {
      const all = allPages(q);
      const inDomain = allPages(q, 'webhooks');
      const expected = all.filter((p) => p.name.startsWith('webhooks_')).map((p) => p.name);
      expect(inDomain.map((p) => p.name), q).toEqual(expected);
      expect(index.search(q, { domain: 'webhooks' }).total, q).toBe(expected.length);
    }
  });

  it('reused buffers leave nothing behind: the same query gives the same answer after other queries', () => {
    const before = queries.map((q) => JSON.stringify(index.search(q, { limit: 20 })));
    for (const q of [...queries].reverse()) index.search(q, { limit: 50, offset: 600 });
    index.search('webhooks_list-1-0');
    expect(queries.map((q) => JSON.stringify(index.search(q, { limit: 20 })))).toEqual(before);
  });

  it('an exact name outside the domain is not counted; inside it is first', () => {
    const r = index.search('webhooks_get-0-1', { domain: 'webhooks' });
    expect(r.results[0]?.name).toBe('webhooks_get-0-1');
    expect(r.results[0]?.score).toBe(1);
    const other = index.search('webhooks_get-0-1', { domain: 'issues' });
    expect(other.results.map((h) => h.name)).not.toContain('webhooks_get-0-1');
  });
});
