// Scopes read off a catalog's own paths (src/search/scopes.ts): roots that repeat each other's nested paths, the
// caller's own scope, which operations are narrow, and the query words that name a scope. No API's names in the code.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/registry/catalog.js';
import { readGateCatalog } from '../../src/search/gate-files.js';
import { MAX_KEYWORDS, SearchIndex } from '../../src/search/index.js';
import { Lexicon } from '../../src/search/lexicon.js';
import { CALLER, deriveScopes, scopeNamedBy, SCOPE_SHARED_PATHS } from '../../src/search/scopes.js';
import { domainsOf, op } from './helpers.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Each operation's scope name and narrow flag, by name. */
function scoped(ops: Parameters<typeof deriveScopes>[0]): Record<string, string> {
  const lex = new Lexicon('porter');
  const { table, codes, narrow } = deriveScopes(ops, lex);
  return Object.fromEntries(ops.map((o, i) => [o.name, codes[i] === 0 ? '-' : `${table.names[(codes[i] as number) - 1]}${narrow[i] ? ' narrow' : ''}`]));
}

describe('scopes read off the catalog', () => {
  const nested = ['hooks', 'secrets', 'variables', 'runners', 'rulesets'];
  // each nested collection with its items (`/orgs/{org}/hooks/{hook_id}`): what a scope owns
  const under = (prefix: string, path: string, n = nested) =>
    n.flatMap((x) => [op({ name: `${prefix}-${x}`, path: `${path}/${x}` }), op({ name: `${prefix}-${x}-item`, path: `${path}/${x}/{id}` })]);

  it(`a root is a scope when it repeats ${SCOPE_SHARED_PATHS} nested paths of another; the one with most operations is the widest`, () => {
    const ops = [...under('repo', '/repos/{o}/{r}', [...nested, 'issues', 'pulls']), ...under('org', '/orgs/{org}'), ...under('hook', '/hooks/{id}', ['deliveries'])];
    const s = scoped(ops);
    expect(s['repo-hooks']).toBe('repos');
    expect(s['org-hooks']).toBe('orgs narrow');
    // a path only the repository has is not narrow; a root that repeats nothing is no scope
    expect(s['repo-issues']).toBe('repos');
    expect(s['hook-deliveries']).toBe('-');
    // fewer shared paths: a sub-resource many resources have, no scope
    expect(scoped([...under('repo', '/repos/{o}/{r}', nested.slice(0, SCOPE_SHARED_PATHS - 1)), ...under('org', '/orgs/{org}', nested.slice(0, SCOPE_SHARED_PATHS - 1))])['org-hooks']).toBe('-');
  });

  it('the caller: /me/... paths, summaries about the authenticated user, and a singular root beside its plural with a parameter', () => {
    const ops = [
      ...under('user', '/users/{username}'), ...under('org', '/orgs/{org}'),
      op({ name: 'my-hooks', path: '/user/hooks' }), op({ name: 'me-videos', path: '/me/videos' }),
      op({ name: 'self', path: '/accounts/{id}/keys', summary: 'List keys of the authenticated user' }),
      op({ name: 'user-by-id', path: '/user/{account_id}' }),
    ];
    const s = scoped(ops);
    expect([s['my-hooks'], s['me-videos'], s['self']]).toEqual([CALLER, CALLER, CALLER]);
    // the caller's twin under another scope is narrow: without a scope word, the caller's own comes first
    expect(s['user-hooks']).toBe('users narrow');
    // /user/{account_id} takes a parameter: in the users scope, not the caller's
    expect(s['user-by-id']).toBe('users');
  });

  it('/account/... is the caller\'s own account; /account/{id} names another', () => {
    const s = scoped([
      op({ name: 'my-collections', path: '/account/collections' }), op({ name: 'public-collections', path: '/collections' }),
      op({ name: 'versioned', path: '/v2/account/keys' }), op({ name: 'someone', path: '/account/{account_id}/keys' }),
    ]);
    expect([s['my-collections'], s['versioned']]).toEqual([CALLER, CALLER]);
    expect([s['public-collections'], s['someone']]).toEqual(['-', '-']);
  });

  it('a scope owns what it repeats: read-only facets two kinds of item share make neither a scope; a setting to change does', () => {
    const facets = ['images', 'credits', 'reviews', 'keywords', 'videos', 'similar'];
    const read = (prefix: string, path: string) => facets.map((x) => op({ name: `${prefix}-${x}`, path: `${path}/${x}` }));
    const s = scoped([...read('movie', '/movie/{movie_id}'), ...read('tv', '/tv/{tv_id}')]);
    expect([s['movie-images'], s['tv-images']]).toEqual(['-', '-']);
    const settings = (prefix: string, path: string) => [...read(prefix, path), op({ name: `${prefix}-settings`, method: 'patch', path: `${path}/settings` })];
    const t = scoped([...settings('user', '/users/{user_id}'), ...settings('account', '/accounts/{account_id}'), op({ name: 'user-extra', path: '/users/{user_id}/extra' })]);
    expect(t['user-settings']).toBe('users');
    expect(t['account-settings']).toBe('accounts narrow');
  });

  it('an action root is no scope: /search/... repeats nested paths without being a resource', () => {
    const ops = [...under('repo', '/repos/{o}/{r}'), ...under('org', '/orgs/{org}'), ...under('search', '/search')];
    expect(scoped(ops)['search-hooks']).toBe('-');
  });

  it('GitHub\'s scopes come from its paths: repository, organization, enterprise, team, user, the caller', () => {
    const c = loadCatalog(join(REPO_ROOT, 'registry', 'github'));
    const index = SearchIndex.build(c.operations, c.meta.domains);
    const search = (q: string): string | undefined => index.search(q).results[0]?.name;
    const reading = (q: string): string[] | undefined => index.search(q, { explain: true }).reading?.scopes;
    expect(reading('list repository webhooks')).toEqual(['repos']);
    expect(reading('list org webhooks')).toEqual(['orgs']);
    expect(reading('list my repos')).toEqual(['me']);
    expect(search('list webhooks')).toBe('repos_list-webhooks');
    expect(search('list organization webhooks')).toBe('orgs_list-webhooks');
    expect(search('list my repositories')).toBe('repos_list-for-authenticated-user');
    expect(reading('create an enterprise team')).toEqual(['enterprises']);
  });

  it('the agent\'s keywords name a scope too, but not the thing acted on, the caller or a field name', () => {
    const c = loadCatalog(join(REPO_ROOT, 'registry', 'github'));
    const index = SearchIndex.build(c.operations, c.meta.domains);
    const read = (q: string, keywords: string[]) => index.search(q, { keywords, explain: true, limit: 3 });
    const org = read('list webhooks', ['organization', 'hooks']);
    expect(org.reading?.scopes).toEqual(['orgs']);
    expect(org.results[0]?.name).toBe('orgs_list-webhooks');
    expect(read('list webhooks', ['hooks']).results[0]?.name).toBe('repos_list-webhooks');
    // "repo" is what "create repository" acts on; "me" has no sentence to read it in; "idOrg" is a field's name
    expect(read('create repository', ['new repo', 'private']).reading?.scopes ?? []).toEqual([]);
    expect(read('list webhooks', ['me']).reading?.scopes ?? []).toEqual([]);
    expect(read('list webhooks', ['idOrg']).reading?.scopes ?? []).toEqual([]);
    // read within the keywords' bounds (K1): a scope named past the MAX_KEYWORDS-th keyword is not read
    const filler = Array.from({ length: MAX_KEYWORDS }, () => 'hooks');
    expect(read('list webhooks', [...filler.slice(1), 'organization']).reading?.scopes).toEqual(['orgs']);
    expect(read('list webhooks', [...filler, 'organization']).reading?.scopes ?? []).toEqual([]);
  });

  it('Stripe\'s /v1/account beside /v1/accounts/{account} is the caller\'s own account', () => {
    const { operations, domains } = readGateCatalog(REPO_ROOT, 'stripe');
    const index = SearchIndex.build(operations, domains);
    const r = index.search('retrieve my account', { explain: true, limit: 10 });
    expect(r.reading?.scopes).toEqual([CALLER]);
    const scope = (name: string): number | undefined => r.results.find((h) => h.name === name)?.explain?.signals.find((x) => x.name === 'scope')?.factor;
    expect(scope('GetAccount')).toBeGreaterThan(1);
    expect(scope('GetAccountsAccount') ?? 1).toBe(1);
  });

  it('a word names a scope when it analyzes to the scope\'s root; the caller\'s words name the caller', () => {
    const lex = new Lexicon('porter');
    const table = { names: [CALLER, 'repos', 'orgs'], keys: ['', 'repositori', 'organ'] };
    expect(['repo', 'repository', 'repos', 'org', 'organizations', 'my', 'issue'].map((w) => scopeNamedBy(table, lex, w)))
      .toEqual(['repos', 'repos', 'repos', 'orgs', 'orgs', CALLER, undefined]);
    void domainsOf;
  });
});
