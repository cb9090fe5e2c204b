// search_tools with a group as `domain` (a catalog's name, a prefix of list_domains' map), served with GitHub's
// 1,223 operations beside two small catalogs: the group is ranked by the index in one search
// (SearchOptions.domains), and what the agent sees on every page is what paging the unscoped search_tools and
// keeping the group's domains gives (names, summaries, scores, order, total). Before, search_tools paged the
// unscoped ranking itself, one ranking per 50 of the whole set's matches, on every group search. Through a real
// SDK client.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { call, catalogs, connectInMemory, fixtureRegistry, REPO_ROOT, type Connected } from '../helpers/mcp.js';
import { underPrefix } from '../../src/server/core/domain-map.js';
import type { CatalogSet } from '../../src/server/core/catalogs.js';
import { join } from 'node:path';

type Result = { name: string; domain: string; summary: string; score: number };

let set: CatalogSet;
let c: Connected;
beforeAll(async () => {
  set = catalogs(join(REPO_ROOT, 'registry', 'github'), fixtureRegistry('petstore'), fixtureRegistry('zoo'));
  c = await connectInMemory({ catalogs: set });
});
afterAll(async () => {
  await c.close();
});

/** Every page of the unscoped search_tools (25 a page): the whole ranking as the agent can read it. */
async function unscoped(query: string, keywords?: string[]): Promise<Result[]> {
  const hits: Result[] = [];
  for (let offset = 0; ; offset += 25) {
    const page = await call(c.client, 'search_tools', { query, limit: 25, offset, ...(keywords ? { keywords } : {}) });
    expect(page.success, JSON.stringify(page.error)).toBe(true);
    hits.push(...(page.value.results as Result[]));
    if ((page.value.results as Result[]).length < 25 || offset + 25 >= (page.value.total as number)) return hits;
  }
}

describe('a group searched by the index: every page as paging the unscoped search gives it', () => {
  const groups = ['github', 'petstore', 'zoo', 'github.code', 'github.enterprise'];
  test.each([
    ['list', undefined],
    ['create a repository', undefined],
    ['delete a pet', undefined],
    ['issues/create', undefined],
    ['list', ['hooks']],
  ] as Array<[string, string[] | undefined]>)('%s %j', { timeout: 120_000 }, async (query, keywords) => {
    const all = await unscoped(query, keywords);
    for (const group of groups) {
      const expected = all.filter((r) => underPrefix(r.domain, group));
      for (const [offset, limit] of [[0, 8], [0, 25], [8, 8], [30, 25], [Math.max(0, expected.length - 2), 25]] as const) {
        const got = await call(c.client, 'search_tools', { query, domain: group, limit, offset, ...(keywords ? { keywords } : {}) });
        expect(got.success, `${query} in ${group}: ${JSON.stringify(got.error)}`).toBe(true);
        expect(got.value.total, `${query} in ${group} at ${offset}`).toBe(expected.length);
        expect(got.value.results, `${query} in ${group} at ${offset}`).toEqual(expected.slice(offset, offset + limit));
      }
    }
  });

  test('a group search ranks once, whatever the whole set matches', async () => {
    const all = await call(c.client, 'search_tools', { query: 'list', limit: 1 });
    expect(all.value.total, 'the unscoped ranking has many pages').toBeGreaterThan(250);
    const search = vi.spyOn(set.index, 'search');
    try {
      for (const group of ['petstore', 'github', 'github.code']) {
        search.mockClear();
        const got = await call(c.client, 'search_tools', { query: 'list', domain: group, offset: 20 });
        expect(got.success, JSON.stringify(got.error)).toBe(true);
        expect(search, group).toHaveBeenCalledTimes(1);
      }
    } finally {
      search.mockRestore();
    }
  });
});
