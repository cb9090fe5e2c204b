// SearchOptions.domains: a search kept to a set of domains (search_tools' group: a catalog's name, a prefix of
// list_domains' map) ranks in one pass what search_tools used to get by paging the unscoped ranking and keeping the
// group's domains. Both must agree exactly: the same hits (names, scores, summaries, order) and the same total, on
// every page. Here on the GitHub registry (47 domains, 1,223 operations), against that paging as it was
// (src/server/core/search.ts before SearchOptions.domains), for broad queries (pruned rankings), exact names, typos,
// keywords, empty queries and queries that match nothing.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import { DEFAULT_TUNING, MAX_LIMIT, SearchIndex, type SearchHit } from '../../src/search/index.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** The unscoped ranking, every page of it, as the old group search read it (one search per MAX_LIMIT). */
function unscopedPages(index: SearchIndex, query: string, keywords: readonly string[] | undefined): SearchHit[] {
  const hits: SearchHit[] = [];
  for (let at = 0; ; at += MAX_LIMIT) {
    const page = index.search(query, { limit: MAX_LIMIT, offset: at, ...(keywords ? { keywords } : {}) });
    hits.push(...page.results);
    if (page.results.length < MAX_LIMIT || at + MAX_LIMIT >= page.total) return hits;
  }
}

describe('a search in a set of domains is the unscoped search less the other domains', () => {
  const catalog = loadCatalog(defaultCatalogDir());
  const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
  const all = catalog.meta.domains.map((d) => d.name);
  const groups: Array<[string, readonly string[]]> = [
    ['code-*', all.filter((d) => d.startsWith('code-'))],
    ['enterprise-*', all.filter((d) => d.startsWith('enterprise-'))],
    ['repos', ['repos']],
    ['repos+issues+pulls', ['repos', 'issues', 'pulls']],
    ['every other domain', all.filter((_, k) => k % 2 === 0)],
    ['all domains', all],
    ['none', []],
  ];
  const devQueries = readFileSync(join(ROOT, 'test/fixtures/eval/queries-dev.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { catalog: string; query: string }).filter((q) => q.catalog === 'github').map((q) => q.query).slice(0, 20);
  const cases: Array<[string, readonly string[] | undefined]> = [
    ...['list', 'get', 'delete', 'create a repository', 'update the settings', 'list issues for a repository', 'secret'].map((q): [string, undefined] => [q, undefined]),
    // exact names (the exact operation ranks first, or is left out with its domain), typos, keywords
    ['issues/create', undefined], ['POST /repos/{owner}/{repo}/pulls', undefined], ['code-scanning/list-alerts-for-repo', undefined],
    ['cretae an isue', undefined], ['lsit webhooks', undefined],
    ['list', ['hooks', 'webhooks']], ['delete a team', ['squad']],
    // empty queries: browse, or keywords alone (which rank when they match in any domain)
    ['', undefined], ['', ['webhook']], ['', ['enterprise']], ['', ['zzqqxv']],
    // nothing matches
    ['zzqqxv wwyyk', undefined],
    ...devQueries.map((q): [string, undefined] => [q, undefined]),
  ];
  const pages: Array<[number, number]> = [[0, 8], [0, 25], [3, 7], [8, 8], [49, 2], [50, 50], [97, 25], [480, 50]];

  it('the same hits, scores, order and total on every page', { timeout: 120_000 }, () => {
    const differences: string[] = [];
    let compared = 0;
    let nonEmpty = 0;
    for (const [query, keywords] of cases) {
      const unscoped = unscopedPages(index, query, keywords);
      for (const [label, group] of groups) {
        const members = new Set(group);
        const expected = unscoped.filter((h) => members.has(h.domain));
        if (expected.length > 0) nonEmpty++;
        // every page listed, and the last ones of this group's answer
        const ends: Array<[number, number]> = [[Math.max(0, expected.length - 3), 10], [expected.length, 10]];
        for (const [offset, limit] of [...pages, ...ends]) {
          const got = index.search(query, { domains: members, limit, offset, ...(keywords ? { keywords } : {}) });
          compared++;
          const want = { total: expected.length, results: expected.slice(offset, offset + limit) };
          if (JSON.stringify({ total: got.total, results: got.results }) !== JSON.stringify(want) && differences.length < 10) {
            differences.push(`${JSON.stringify(query)} ${JSON.stringify(keywords ?? [])} in ${label} at ${offset}+${limit}: ${got.total} vs ${want.total}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBe(cases.length * groups.length * (pages.length + 2));
    // the comparison is worth something only where the groups found something
    expect(nonEmpty).toBeGreaterThan(cases.length * 3);
  });

  it('the set is kept by the ranker itself, pruning included', () => {
    // a broad query over a large group: more candidates than pruneAbove, and the costly signals skipped for most
    const repos = index.search('create a repository', { domains: ['repos', 'orgs', 'actions'], limit: 8, explain: true });
    expect(repos.results).toHaveLength(8);
    expect(repos.results.every((h) => ['repos', 'orgs', 'actions'].includes(h.domain))).toBe(true);
    expect(repos.pruning?.candidates).toBeGreaterThan(DEFAULT_TUNING.pruneAbove);
    expect(repos.pruning?.scored).toBeLessThan((repos.pruning?.candidates ?? 0) / 4);
    const plain = index.withQueryTuning({ pruneAbove: Infinity }).search('create a repository', { domains: ['repos', 'orgs', 'actions'], limit: 8, explain: true });
    expect(plain.results).toEqual(repos.results);
    expect(plain.total).toBe(repos.total);
  });

  it('a set of one domain is strict: what the domain reaches (SearchOptions.domain) is not in it', () => {
    // copilot's paths name the copilot-spaces domain's resource (widen.ts)
    const one = index.search('list members', { domain: 'copilot', limit: 25 });
    const set = index.search('list members', { domains: ['copilot'], limit: 25 });
    expect(one.results.some((h) => h.domain === 'copilot-spaces')).toBe(true);
    expect(set.results.length).toBeGreaterThan(0);
    expect(set.results.every((h) => h.domain === 'copilot')).toBe(true);
  });

  it('refuses an unknown name in the set, and domain with domains', () => {
    const unknown = (() => {
      try {
        index.search('list', { domains: ['repos', 'repoz'] });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(unknown).toBeInstanceOf(AppError);
    expect((unknown as AppError).code).toBe('UNKNOWN_DOMAIN');
    expect((unknown as AppError).message).toContain('"repoz"');
    expect(() => index.search('list', { domain: 'repos', domains: ['repos'] })).toThrow(/either domain or domains/);
  });

  it('suggestions in a set offer only corrections that find something there', () => {
    const s = index.suggest('cretae relase', { domains: ['repos'] });
    for (const q of s.didYouMean) expect(index.search(q, { domains: ['repos'], limit: 1 }).total, q).toBeGreaterThan(0);
    expect(index.suggest('cretae relase', { domains: [] }).didYouMean).toEqual([]);
  });
});
