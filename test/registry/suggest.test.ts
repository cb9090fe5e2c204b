import { describe, expect, test } from 'vitest';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import { suggestNames } from '../../src/registry/suggest.js';

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

  // A name that means the same thing (the catalog prefix left out, the same words in another order) comes before
  // a loose edit-distance match (the agent audit's examples).
  test('the same words in another order: create-issue -> issues_create first', () => {
    expect(suggestNames('create-issue', names)[0]).toBe('issues_create');
    expect(suggestNames('createIssue', names)[0]).toBe('issues_create');
  });

  // Vimeo's and SendGrid's domains as a multi-catalog set names them (`<catalog>.<domain>`).
  const vimeo = ['albums-essentials', 'categories-essentials', 'channels-essentials', 'likes-essentials', 'tags-essentials', 'users-essentials', 'videos-comments', 'videos-essentials', 'videos-tags', 'videos-upload'];
  const sendgrid = ['alerts', 'api-keys', 'bounces-api', 'spam-reports-api', 'stats', 'webhooks'];
  const domains = [...vimeo.map((d) => `vimeo.${d}`), ...sendgrid.map((d) => `sendgrid.${d}`)];

  test.each([
    ['videos-essentials', 'vimeo.videos-essentials'], // the prefix left out (was: vimeo.tags-essentials, likes, users)
    ['VIDEOS-ESSENTIALS', 'vimeo.videos-essentials'],
    ['alerts', 'sendgrid.alerts'],
    ['sendgrid.alert', 'sendgrid.alerts'], // a plural ending is the same word
    ['vimeo.essentials-videos', 'vimeo.videos-essentials'], // the same words in another order
    ['upload-videos', 'vimeo.videos-upload'],
  ])('multi-catalog domains: %s -> %s first', (query, expected) => {
    expect(suggestNames(query, domains)[0]).toBe(expected);
  });

  test('a prefixed name where the candidates have none, and one of another catalog, are the same name', () => {
    expect(suggestNames('github.issues_create', names)[0]).toBe('issues_create');
    expect(suggestNames('stripe.getEnvironment', ['launchdarkly.getEnvironments', 'launchdarkly.getEnvironment', 'launchdarkly.getProject'])[0]).toBe('launchdarkly.getEnvironment');
  });

  test('a fragment of one word of a longer name is not a suggestion (the audit: "repo" -> sendgrid.spam-reports-api)', () => {
    expect(suggestNames('repo', domains)).toEqual([]);
    // a whole word still is (a plural ending is the same word)
    expect(suggestNames('webhook', domains)).toEqual(['sendgrid.webhooks']);
  });

  test('a name holding every word of the query ranks before an edit-distance match', () => {
    // was: gists_get-comment and gists_fork first, close in edits but another thing
    expect(suggestNames('issue-comment', names)[0]).toBe('issues_get-comment');
    expect(suggestNames('list-forks', names).slice(0, 2)).toEqual(['gists_list-forks', 'repos_list-forks']);
    expect(suggestNames('create-issue', names)).toContain('orgs_create-issue-type');
  });
});
