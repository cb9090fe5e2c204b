// list_domains with a `prefix` under which no domain lies: the suggestions start with the names that begin with what
// the agent typed (a truncated word), not a name a few edits away. The first-hour audit: {"prefix":"act"} on GitHub
// suggested "git", while "actions" is the completion. Through a real SDK client, in both protocol eras.
import { afterEach, describe, expect, test } from 'vitest';
import { defaultCatalogDir } from '../../src/registry/catalog.js';
import { suggestNames } from '../../src/registry/suggest.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe.each(ERAS)('%s era', (era: Era) => {
  test('GitHub: "act" suggests actions first; "action" too; "activ" suggests activity', async () => {
    const c = await connectInMemory({ catalogs: catalogs(defaultCatalogDir()) }, { era });
    open.push(c);
    for (const [prefix, first] of [['act', 'actions'], ['action', 'actions'], ['activ', 'activity']] as const) {
      const r = await call(c.client, 'list_domains', { prefix });
      expect(r.error?.code, prefix).toBe('INVALID_ARGUMENTS');
      const suggestions = r.error?.details.suggestions as string[];
      expect(suggestions[0], `${prefix}: ${JSON.stringify(suggestions)}`).toBe(first);
      expect(new Set(suggestions).size, 'no name twice').toBe(suggestions.length);
      // the suggestion is a prefix that works
      const ok = await call(c.client, 'list_domains', { prefix: suggestions[0] as string });
      expect(ok.success, JSON.stringify(ok.error)).toBe(true);
    }
  });

  test('several catalogs: the completion is found with or without the catalog prefix', async () => {
    const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore'), fixtureRegistry('zoo')) }, { era });
    open.push(c);
    const local = await call(c.client, 'list_domains', { prefix: 'sto' });
    expect(local.error?.details.suggestions[0]).toBe('petstore.store');
    const full = await call(c.client, 'list_domains', { prefix: 'zoo.keep' });
    expect(full.error?.details.suggestions[0]).toBe('zoo.keepers');
  });
});

describe('suggestNames with completions', () => {
  const names = ['git', 'actions', 'activity', 'reactions', 'interactions', 'apps'];
  test('names that begin with the query come first, shortest first; without the option, edit distance decides as before', () => {
    expect(suggestNames('act', names, 3, { completions: true })).toEqual(['actions', 'activity', 'git']);
    expect(suggestNames('act', names)).toEqual(['git']);
    expect(suggestNames('ACT', names, 3, { completions: true })[0]).toBe('actions');
    // an exact match still comes first
    expect(suggestNames('apps', [...names, 'apps-installations'], 3, { completions: true })[0]).toBe('apps');
    // a candidate listed twice (a group prefix that is also a domain) is suggested once
    expect(suggestNames('act', ['actions', 'actions', 'activity'], 3, { completions: true })).toEqual(['actions', 'activity']);
  });
});
