import { describe, expect, test } from 'vitest';
import { defaultCatalogDir, loadCatalog, suggestNames } from '../../src/registry/catalog.js';

describe('suggestNames ("did you mean")', () => {
  const names = loadCatalog(defaultCatalogDir()).operations.map((o) => o.name);

  test.each([
    ['isues_create', 'issues_create'],
    ['ISSUES_CREATE', 'issues_create'],
    ['pulls_lst', 'pulls_list'],
    ['repos_get', 'repos_get'],
  ])('%s -> %s first', (query, expected) => {
    expect(suggestNames(query, names)[0]).toBe(expected);
  });

  test.each([['qqqq wwww'], ['zzzzzzzz'], ['x']])('nothing close to %j: no suggestion rather than a far-fetched one', (query) => {
    expect(suggestNames(query, names)).toEqual([]);
  });

  test('at most `max`, ties in name order', () => {
    expect(suggestNames('repos_get', names, 2)).toHaveLength(2);
    expect(suggestNames('a', ['b', 'c'], 3)).toEqual(['b', 'c']);
  });
});
