import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/errors.js';
import { MAX_LIMIT, MAX_QUERY_CHARS, SearchIndex } from '../../src/search/index.js';
import { domainsOf, longestInputSeen, op } from './helpers.js';

const OPS = [
  op({ name: 'issues_create', operationId: 'issues/create', domain: 'issues', method: 'post', path: '/repos/{owner}/{repo}/issues', summary: 'Create an issue' }, ['owner', 'repo', 'title']),
  op({ name: 'issues_get', operationId: 'issues/get', domain: 'issues', path: '/repos/{owner}/{repo}/issues/{issue_number}', summary: 'Get an issue' }, ['owner', 'repo', 'issue_number']),
  op({ name: 'issues_list-for-repo', operationId: 'issues/list-for-repo', domain: 'issues', path: '/repos/{owner}/{repo}/issues', summary: 'List repository issues' }),
  op({ name: 'issues_delete-label', operationId: 'issues/delete-label', domain: 'issues', method: 'delete', path: '/repos/{owner}/{repo}/labels/{name}', summary: 'Delete a label' }),
  op({ name: 'repos_list-webhooks', operationId: 'repos/list-webhooks', domain: 'repos', path: '/repos/{owner}/{repo}/hooks', summary: 'List repository webhooks' }),
  op({ name: 'orgs_list-webhooks', operationId: 'orgs/list-webhooks', domain: 'orgs', path: '/orgs/{org}/hooks', summary: 'List organization webhooks' }),
  op({ name: 'enterprise_list-webhooks', operationId: 'enterprise/list-webhooks', domain: 'enterprise', path: '/enterprises/{enterprise}/hooks', summary: 'List enterprise webhooks' }),
  op({ name: 'repos_old-list-hooks', operationId: 'repos/old-list-hooks', domain: 'repos', path: '/repos/{owner}/{repo}/old-hooks', summary: 'List repository webhooks', deprecated: true }),
  op({ name: 'PostCustomersCustomerSources', domain: 'customers', method: 'post', path: '/v1/customers/{customer}/sources', summary: 'Create a card or bank account source for a customer' }),
  op({ name: 'GetCustomers', domain: 'customers', path: '/v1/customers', summary: 'Returns a list of your customers' }),
  op({ name: 'GetCustomersCustomer', domain: 'customers', path: '/v1/customers/{customer}', summary: 'Retrieves a Customer object' }),
];
const index = SearchIndex.build(OPS, domainsOf(OPS));
const names = (q: string, o = {}): string[] => index.search(q, o).results.map((h) => h.name);

describe('SearchIndex ranking', () => {
  it('ranks by meaning of verbs and nouns, with synonyms and abbreviations', () => {
    expect(names('open a new issue')[0]).toBe('issues_create');
    expect(names('remove a label')[0]).toBe('issues_delete-label');
    expect(names('list customers')[0]).toBe('GetCustomers');
    expect(names('fetch one customer')[0]).toBe('GetCustomersCustomer');
  });

  it('splits identifiers so a camelCase operationId is found by its words', () => {
    expect(names('customer sources')[0]).toBe('PostCustomersCustomerSources');
  });

  it('exact name, operationId and METHOD /path rank that operation first with score 1', () => {
    for (const q of ['issues_get', 'issues/get', 'GET /repos/{owner}/{repo}/issues/{issue_number}', 'get /repos/octo/hello/issues/42']) {
      const r = index.search(q);
      expect(r.results[0]?.name, q).toBe('issues_get');
      expect(r.results[0]?.score, q).toBe(1);
    }
    expect(names('PostCustomersCustomerSources')[0]).toBe('PostCustomersCustomerSources');
  });

  it('an exact name misspelt is the name the typos unit reads it as (one reading for one meaning)', () => {
    // operationIds that are sentences (Trakt's "Create personal list") are named by what an agent types
    const sentences = [
      op({ name: 'Create_personal_list', operationId: 'Create personal list', domain: 'users', method: 'post', path: '/users/{id}/lists', summary: 'Create personal list' }),
      op({ name: 'Update_personal_list', operationId: 'Update personal list', domain: 'users', method: 'put', path: '/users/{id}/lists/{list_id}', summary: 'Update personal list' }),
    ];
    const lists = SearchIndex.build(sentences, domainsOf(sentences));
    for (const q of ['create personal list', 'creeate personal list', 'create pesronal list']) {
      const r = lists.search(q, { explain: true });
      expect(r.results[0]?.score, q).toBe(1);
      expect(r.results[0]?.explain?.exact, q).toBe(true);
    }
    // a correction that names nothing exactly stays a search
    expect(lists.search('creeate personal lists', { explain: true }).results[0]?.explain?.exact).toBeUndefined();
  });

  it('orders near-duplicates by the scope words of the query, most general first without one', () => {
    // scopes are read off the catalog (scopes.ts): roots that repeat each other's nested paths; the repository has
    // the most operations, so without a scope word its twin comes first; each scope owns its collections' items
    const nested = ['hooks', 'secrets', 'variables', 'runners', 'rulesets'];
    const scoped = [...OPS, ...[['repos', '/repos/{owner}/{repo}', 'repository'], ['orgs', '/orgs/{org}', 'organization'], ['enterprise', '/enterprises/{enterprise}', 'enterprise']]
      .flatMap(([prefix, path, word]) => nested.slice(1).flatMap((n) => [
        op({ name: `${prefix}_list-${n}`, domain: prefix!, path: `${path}/${n}`, summary: `List ${word} ${n}` }),
        op({ name: `${prefix}_delete-${n}`, domain: prefix!, method: 'delete', path: `${path}/${n}/{id}`, summary: `Delete one of the ${word} ${n}` }),
      ]))];
    const s = SearchIndex.build(scoped, domainsOf(scoped));
    const first = (q: string): string | undefined => s.search(q).results[0]?.name;
    expect(first('list organization webhooks')).toBe('orgs_list-webhooks');
    expect(first('list org hooks')).toBe('orgs_list-webhooks');
    expect(first('list enterprise webhooks')).toBe('enterprise_list-webhooks');
    expect(first('list webhooks')).toBe('repos_list-webhooks');
    expect(first('list runners')).toBe('repos_list-runners');
    expect(first('list the runners of an org')).toBe('orgs_list-runners');
  });

  it('with "all"/"whole"/"across" prefers the operation that spans everything; without, the scoped one', () => {
    const ops = [
      op({ name: 'listNamespacedPod', path: '/namespaces/{namespace}/pods', summary: 'list objects of kind Pod' }),
      op({ name: 'listPodForAllNamespaces', path: '/pods', summary: 'list objects of kind Pod' }),
    ];
    const small = SearchIndex.build(ops, domainsOf(ops));
    expect(small.search('list pods in the whole cluster').results[0]?.name).toBe('listPodForAllNamespaces');
    expect(small.search('list pods in a namespace').results[0]?.name).toBe('listNamespacedPod');
  });

  it('reads a singular word after an item as an action, so "send" creates in the collection', () => {
    const ops = [
      op({ name: 'approve_a_wire_transfer', method: 'post', path: '/wire_transfers/{id}/approve', summary: 'Approve a Wire Transfer' }),
      op({ name: 'create_a_wire_transfer', method: 'post', path: '/wire_transfers', summary: 'Create a Wire Transfer' }),
      op({ name: 'list_wire_transfers', path: '/wire_transfers', summary: 'List Wire Transfers' }),
    ];
    const small = SearchIndex.build(ops, domainsOf(ops));
    expect(small.search('send a wire to a vendor').results[0]?.name).toBe('create_a_wire_transfer');
    expect(small.search('approve a wire').results[0]?.name).toBe('approve_a_wire_transfer');
  });

  it('ranks a deprecated operation below its replacement', () => {
    const r = names('list repository webhooks');
    expect(r.indexOf('repos_list-webhooks')).toBeLessThan(r.indexOf('repos_old-list-hooks'));
  });

  it('the deprecated flag alone moves an otherwise identical operation below its twin', () => {
    const twin = (name: string, deprecated: boolean) =>
      op({ name, domain: 'hooks', path: `/repos/{owner}/{repo}/${name}`, summary: 'List repository webhooks', deprecated });
    const order = (deprecated: boolean) => {
      const ops = [twin('hooks_a', deprecated), twin('hooks_b', false)];
      return SearchIndex.build(ops, domainsOf(ops)).search('list repository webhooks').results.map((h) => h.name);
    };
    // Identical twins tie and hooks_a comes first; deprecating hooks_a is the only change, and it must flip them.
    expect(order(false)).toEqual(['hooks_a', 'hooks_b']);
    expect(order(true)).toEqual(['hooks_b', 'hooks_a']);
  });

  it('stop words carry no weight: fillers around a request do not change the ranking', () => {
    for (const [plain, padded] of [
      ['create issue', 'how do I create an issue'],
      ['list customers', 'the list of the customers'],
    ] as const) {
      expect(names(padded).slice(0, 3)).toEqual(names(plain).slice(0, 3));
    }
    expect(index.search('the a an of to').results).toEqual([]);
  });

  it('returns scores in 0..1, best first, and hits with summary and required params', () => {
    const r = index.search('create issue');
    expect(r.results[0]).toEqual({ name: 'issues_create', domain: 'issues', summary: 'Create an issue', requiredParams: ['owner', 'repo', 'title'], score: expect.any(Number) });
    for (const h of r.results) expect(h.score).toBeGreaterThanOrEqual(0);
    for (const h of r.results) expect(h.score).toBeLessThanOrEqual(1);
    const scores = r.results.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('finds a misspelled word (fuzzy only for words the index does not know)', () => {
    expect(names('custmers list')[0]).toBe('GetCustomers');
  });
});

describe('SearchIndex options', () => {
  it('filters by domain', () => {
    const r = index.search('list webhooks', { domain: 'orgs' });
    expect(r.results.map((h) => h.name)).toEqual(['orgs_list-webhooks']);
    expect(r.total).toBe(1);
  });

  it('browses a domain in stable name order with an empty query, paged', () => {
    const all = index.search('', { domain: 'issues', limit: 50 });
    expect(all.total).toBe(4);
    expect(all.results.map((h) => h.name)).toEqual(['issues_create', 'issues_delete-label', 'issues_get', 'issues_list-for-repo']);
    const page2 = index.search('  ', { domain: 'issues', limit: 2, offset: 2 });
    expect(page2.results.map((h) => h.name)).toEqual(['issues_get', 'issues_list-for-repo']);
    expect(page2.total).toBe(4);
    expect(index.search('', { domain: 'issues', limit: 2, offset: 4 }).results).toEqual([]);
  });

  it('pages ranked results without overlap and caps the page size', () => {
    const full = names('list', { limit: 50 });
    const pages = [...names('list', { limit: 2 }), ...names('list', { limit: 2, offset: 2 })];
    expect(pages).toEqual(full.slice(0, 4));
    expect(index.search('list', { limit: 10_000 }).results.length).toBeLessThanOrEqual(MAX_LIMIT);
    expect(index.search('list', { limit: -3 }).results.length).toBeGreaterThan(0);
  });

  it('rejects an unknown domain with UNKNOWN_DOMAIN and a suggestion', () => {
    try {
      index.search('x', { domain: 'issue' });
      expect.unreachable();
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('UNKNOWN_DOMAIN');
      expect((err as Error).message).toContain('"issues"');
      expect((err as Error).message).toContain('list_domains');
    }
  });
});

describe('keywords explain an operation for the precision signal', () => {
  // Figshare's shape: a public and a private twin with one summary; the agent's keyword says which
  const twins = [
    op({ name: 'article_files', domain: 'articles', path: '/articles/{article_id}/files', summary: 'List article files' }),
    op({ name: 'private_article_files_list', domain: 'articles', path: '/account/articles/{article_id}/files', summary: 'List article files' }),
  ];
  const ix = SearchIndex.build(twins, domainsOf(twins));
  const precision = (name: string, keywords?: string[]) =>
    ix.search('list article files', { keywords, explain: true }).results.find((r) => r.name === name)?.explain?.signals.find((x) => x.name === 'precision')?.factor ?? 1;

  it('"private" explains the private twin\'s name, so it ranks first; without it the plainer name does', () => {
    expect(ix.search('list article files').results[0]?.name).toBe('article_files');
    expect(precision('private_article_files_list')).toBeLessThan(1);
    expect(precision('private_article_files_list', ['private'])).toBeGreaterThan(precision('private_article_files_list'));
    expect(ix.search('list article files', { keywords: ['private'] }).results[0]?.name).toBe('private_article_files_list');
    // left off, keywords explain nothing: the private twin's name keeps its unexplained word
    const off = SearchIndex.build(twins, domainsOf(twins), { keywordPrecision: false });
    const offFactor = off.search('list article files', { keywords: ['private'], explain: true }).results
      .find((r) => r.name === 'private_article_files_list')?.explain?.signals.find((x) => x.name === 'precision')?.factor;
    expect(offFactor).toBe(precision('private_article_files_list'));
    expect(precision('private_article_files_list', ['private'])).toBe(1);
  });
});

describe('hostile and empty queries (RELIABILITY K1, K4)', () => {
  it.each([
    ['1 MB', 'issue '.repeat(180_000)],
    ['regex metacharacters', '(.*)+[a-z]{1,99}\\1 ^$ |||'.repeat(500)],
    ['emoji', '🎉🚀💥 '.repeat(10_000)],
    ['control characters', '\u0000\u0007\u202e issue'],
    ['many distinct words', Array.from({ length: 5000 }, (_, k) => `w${k}`).join(' ')],
  ])('%s: bounded work (only the first MAX_QUERY_CHARS characters are read), capped results', (_label, q) => {
    // What a wall-clock limit approximated, proven without a clock: every string and regular-expression operation
    // of the search sees at most the first MAX_QUERY_CHARS characters (beyond the truncation itself), and the
    // answer to the whole query is the answer to that prefix, so the work cannot grow with the input. The time is
    // `npm run bench`'s (scripts/bench/budgets.mjs and search.mjs, "hostile" lines, target K1 < 100 ms).
    const longest = longestInputSeen(() => {
      index.search(q, { limit: 1000 });
      index.suggest(q);
    });
    expect(longest).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    const searched = index.search(q, { limit: 1000 });
    expect(searched).toEqual(index.search(q.slice(0, MAX_QUERY_CHARS), { limit: 1000 }));
    expect(searched.results.length).toBeLessThanOrEqual(MAX_LIMIT);
    expect(index.suggest(q)).toEqual(index.suggest(q.slice(0, MAX_QUERY_CHARS)));
  });

  it('indexes and finds words that are Object.prototype members (constructor, __proto__, toString)', () => {
    const ops = [
      op({ name: 'factories/get-constructor', path: '/factories/{id}/constructor', summary: 'Get the constructor of a factory' }),
      op({ name: 'objects/to-string', path: '/objects/{id}/string', summary: 'toString hasOwnProperty valueOf __proto__ prototype' }),
      op({ name: 'objects/list', path: '/objects', summary: 'List objects' }),
    ];
    const small = SearchIndex.build(ops, domainsOf(ops));
    expect(small.search('constructor').results[0]?.name).toBe('factories/get-constructor');
    expect(small.search('constructor hasOwnProperty').results.map((h) => h.name)).toContain('objects/to-string');
    for (const q of ['__proto__', 'toString', 'valueOf', 'prototype', 'constructor of my objects']) {
      expect(small.search(q).results.length).toBeGreaterThan(0);
      expect(small.suggest(q)).toBeDefined();
    }
  });

  it('is deterministic: same order across builds and calls, ties broken by name', () => {
    const other = SearchIndex.build([...OPS].reverse(), domainsOf(OPS));
    for (const q of ['list', 'webhooks', 'customer', 'get']) {
      expect(other.search(q, { limit: 50 })).toEqual(index.search(q, { limit: 50 }));
    }
    const tied = SearchIndex.build(
      [op({ name: 'b_thing', path: '/b', summary: 'Thing' }), op({ name: 'a_thing', path: '/a', summary: 'Thing' })],
      domainsOf([op({ name: 'x', path: '/x' })]),
    );
    expect(tied.search('thing').results.map((h) => h.name)).toEqual(['a_thing', 'b_thing']);
  });

  it('empty results come with suggestions: domains and a spelling fix or close names', () => {
    expect(index.search('zzzqqq').total).toBe(0);
    expect(index.suggest('webhoks for my org').didYouMean).toContain('webhooks for my org');
    expect(index.suggest('issues_gte').didYouMean).toContain('issues_get');
    // a correction is offered only where it finds something: webhooks are not in the customers domain
    expect(index.suggest('webhoks for my org', { domain: 'customers' }).didYouMean).toEqual([]);
    expect(index.suggest('webhoks for my org', { domain: 'orgs' }).didYouMean).toEqual(['webhooks for my org']);
    expect(index.suggest('customers please').domains).toEqual(['customers']);
    expect(index.suggest('')).toEqual({ domains: [], didYouMean: [] });
    // vocabulary words are not typos even when this catalog never uses them
    expect(index.suggest('look at customers').didYouMean).toEqual([]);
    // upsert (update or create) is API vocabulary, not a slip of the English "upset"
    expect(index.search('upsert customers', { explain: true }).reading?.units.find((u) => u.unit === 'typos')).toBeUndefined();
    expect(index.suggest('upsert customers').didYouMean).toEqual([]);
  });
});
