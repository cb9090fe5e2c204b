// search_tools' `domain` takes a group of list_domains' map as well as a domain: with several catalogs served
// together, a catalog's name keeps a search inside that API (the audit: {"query":"list customers","domain":"stripe"}
// was refused with UNKNOWN_DOMAIN "is a group of 60 domains", although docs/DESIGN.md said a group's prefix is
// answered as a group). The group ranks as one search: its results are the unscoped search's, in the same order and
// with the same scores, less those of other domains. Through a real SDK client, in both protocol eras.
import { afterEach, describe, expect, test } from 'vitest';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

type Result = { name: string; domain: string; score: number };

async function connect(era: Era): Promise<Connected> {
  const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore'), fixtureRegistry('zoo')) }, { era });
  open.push(c);
  return c;
}

describe.each(ERAS)('%s era', (era: Era) => {
  test('a catalog name as domain searches only that catalog, ranked as the unscoped search ranks it', async () => {
    const c = await connect(era);
    for (const [query, catalog] of [['list', 'zoo'], ['list', 'petstore'], ['pet', 'petstore'], ['pet', 'zoo'], ['create a pet', 'zoo']] as const) {
      const all = await call(c.client, 'search_tools', { query, limit: 25 });
      expect(all.success, JSON.stringify(all.error)).toBe(true);
      const outside = (all.value.results as Result[]).filter((r) => !r.domain.startsWith(`${catalog}.`));
      expect(outside.length, `${query}: the unscoped search also finds other catalogs' operations`).toBeGreaterThan(0);

      const scoped = await call(c.client, 'search_tools', { query, domain: catalog, limit: 25 });
      expect(scoped.success, `${query} in ${catalog}: ${JSON.stringify(scoped.error)}`).toBe(true);
      const results = scoped.value.results as Result[];
      expect(results.length, `${query} in ${catalog}`).toBeGreaterThan(0);
      for (const r of results) expect(r.domain.startsWith(`${catalog}.`), `${r.name} is in ${r.domain}`).toBe(true);
      // one search over the group: the unscoped ranking (names, order, scores) less the other catalogs'
      const expected = (all.value.results as Result[]).filter((r) => r.domain.startsWith(`${catalog}.`));
      expect(results.map((r) => [r.name, r.score])).toEqual(expected.map((r) => [r.name, r.score]));
      expect(scoped.value.total, `${query} in ${catalog}: total counts the group's matches`).toBe(expected.length);
    }
  });

  test('a group with no query browses its domains in name order, paged', async () => {
    const c = await connect(era);
    const all = await call(c.client, 'search_tools', { domain: 'petstore', limit: 25 });
    expect(all.success, JSON.stringify(all.error)).toBe(true);
    const names = (all.value.results as Result[]).map((r) => r.name);
    expect(names).toEqual([
      'petstore.pets.create',
      'petstore.pets.delete',
      'petstore.pets.get',
      'petstore.pets.list',
      'petstore.store.inventory',
      'petstore.store.orders.place',
    ]);
    expect(all.value.total).toBe(6);
    const second = await call(c.client, 'search_tools', { domain: 'petstore', limit: 2, offset: 2 });
    expect((second.value.results as Result[]).map((r) => r.name)).toEqual(names.slice(2, 4));
    expect(second.value.total).toBe(6);
    expect(second.value.hint).toContain('offset 4');
    const past = await call(c.client, 'search_tools', { domain: 'petstore', offset: 6 });
    expect(past.value.results).toEqual([]);
    expect(past.value.hint).toContain('there are 6 in all');
  });

  test('a query the group does not match: no results, and only corrections that find something there', async () => {
    const c = await connect(era);
    const r = await call(c.client, 'search_tools', { query: 'keepers', domain: 'petstore' });
    expect(r.success, JSON.stringify(r.error)).toBe(true);
    expect(r.value.results).toEqual([]);
    expect(r.value.total).toBe(0);
    expect(r.value.hint).toContain('No operation matched');
    for (const q of r.value.suggestions.didYouMean as string[]) {
      const again = await call(c.client, 'search_tools', { query: q, domain: 'petstore' });
      expect(again.value.total, q).toBeGreaterThan(0);
    }
  });

  test('a domain stays a domain; a name that is neither a domain nor a group is still refused with suggestions', async () => {
    const c = await connect(era);
    const domain = await call(c.client, 'search_tools', { domain: 'zoo.keepers' });
    expect((domain.value.results as Result[]).map((r) => r.name)).toEqual(['zoo.keepers.list']);
    // `pet` is no group: a group's prefix ends where a name's word does (petstore.…)
    for (const name of ['pet', 'zoo.keep', 'nothing']) {
      const r = await call(c.client, 'search_tools', { query: 'list', domain: name });
      expect(r.error?.code, name).toBe('UNKNOWN_DOMAIN');
      expect(r.error?.message, name).toContain(`no domain named "${name}"`);
    }
  });

  test("the tool's schema says a domain may be a group prefix", async () => {
    const c = await connect(era);
    const tools = await c.client.listTools();
    const search = tools.tools.find((t) => t.name === 'search_tools');
    const domain = (search?.inputSchema.properties as Record<string, { description?: string }>).domain;
    expect(domain?.description).toMatch(/group prefix/);
  });
});
