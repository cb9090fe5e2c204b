// The head-noun signal (src/search/signals.ts `head-noun`): the last word of the request's object is the thing
// acted on ("add nodebalancer backend *node*"), so an operation whose resource ends in that noun (`.../nodes`)
// ranks above one that only has it somewhere in its path (`/nodebalancers`). Analysis on both sides, then ranking.
import { describe, expect, it } from 'vitest';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import { resourceHead } from '../../src/search/features.js';
import { SearchIndex } from '../../src/search/index.js';
import { Lexicon } from '../../src/search/lexicon.js';
import { analyzeQuery } from '../../src/search/units.js';
import { LEARNED_WEIGHTS } from '../../src/search/weights.js';
import { domainsOf, op } from './helpers.js';

// Linode's shape (for analysis and the snapshot): a NodeBalancer has configs, a config has backend nodes
const OPS = [
  op({ name: 'createNodeBalancer', domain: 'nodebalancers', method: 'post', path: '/nodebalancers', summary: 'NodeBalancer Create' }),
  op({ name: 'getNodeBalancer', domain: 'nodebalancers', path: '/nodebalancers/{nodeBalancerId}', summary: 'NodeBalancer View' }),
  op({ name: 'createNodeBalancerConfig', domain: 'nodebalancers', method: 'post', path: '/nodebalancers/{nodeBalancerId}/configs', summary: 'Config Create' }),
  op({ name: 'createNodeBalancerNode', domain: 'nodebalancers', method: 'post', path: '/nodebalancers/{nodeBalancerId}/configs/{configId}/nodes', summary: 'Node Create' }),
  op({ name: 'getNodeBalancerNodes', domain: 'nodebalancers', path: '/nodebalancers/{nodeBalancerId}/configs/{configId}/nodes', summary: 'Nodes List' }),
];

const names = (index: SearchIndex, query: string): string[] => index.search(query).results.map((r) => r.name);

describe('the head noun of an operation\'s resource', () => {
  it('is the last word of the last plain path segment', () => {
    expect(resourceHead('/nodebalancers/{id}/configs/{configId}/nodes')).toBe('nodes');
    expect(resourceHead('/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers')).toBe('reviewers');
    expect(resourceHead('/files/{file_id}')).toBe('files');
    expect(resourceHead('/v2/customers')).toBe('customers');
  });

  it('skips a trailing action: the resource acted on is the one before', () => {
    expect(resourceHead('/invoices/{id}/send')).toBe('invoices');
    expect(resourceHead('/users.list')).toBe('users');
    expect(resourceHead('/pipelines/{id}/retry')).toBe('pipelines');
  });

  it('leaves out a format suffix: /admin/badges.json is about badges', () => {
    expect(resourceHead('/admin/badges.json')).toBe('badges');
    expect(resourceHead('/2010-04-01/Accounts/{AccountSid}/Calls.json')).toBe('calls');
    expect(resourceHead('/c/{id}/topics.xml')).toBe('topics');
    expect(resourceHead('/user-badges/{username}.json')).toBe('badges');
  });

  it('is a plural before a preposition, as in a request ("list pads of author")', () => {
    expect(resourceHead('/listPadsOfAuthor')).toBe('pads');
    expect(resourceHead('/listAuthorsOfPad')).toBe('authors');
    expect(resourceHead('/Tokens/Rewards/GetRewardsForUser/{membershipId}/')).toBe('rewards');
    expect(resourceHead('/{realm}/roles-by-id/{role-id}')).toBe('roles');
    // not a singular before it (`oneToManyNatRules` is about rules), nor a verb (`/users/AuthenticateByName`)
    expect(resourceHead('/networks/{id}/oneToManyNatRules')).toBe('rules');
    expect(resourceHead('/Users/AuthenticateByName')).toBe('name');
  });

  it('is undefined for the root', () => {
    expect(resourceHead('/')).toBeUndefined();
    expect(resourceHead('/{id}')).toBeUndefined();
  });
});

describe('the head noun of a request\'s object', () => {
  const lex = new Lexicon('porter');
  for (const o of OPS) lex.addProse(o.summary);
  lex.finish();
  // the words as typed (this lexicon knows only the NodeBalancer words, so the typos unit would read others as them)
  const read = (q: string) => analyzeQuery(q, lex, OPS.length, { familyWeight: 0.4, readObject: false, disabledUnits: ['typos'] });
  const head = (q: string): string | undefined => read(q).head;

  it('is the object\'s last word, before the first preposition after it', () => {
    expect(head('add nodebalancer backend node')).toBe('node');
    // a compound's parts (the lexicon adds them after it) do not replace it as the head
    expect(read('create nodebalancer').words).toEqual(['create', 'nodebalancer', 'node', 'balancer']);
    expect(head('create nodebalancer')).toBe('nodebalancer');
    expect(head('list board cards')).toBe('cards');
    expect(head('show me the older versions of logo.png')).toBe('versions');
    expect(head('move the Design folder into Archive')).toBe('folder');
  });

  it('ends before a participle that starts what is said of the object ("movies directed by ...")', () => {
    expect(head('list the movies directed by Sofia Coppola')).toBe('movies');
    expect(head('show files shared with the design team')).toBe('files');
    expect(head('download the PDF attached to the invoice email')).toBe('pdf');
    // a short -ed word is no participle
    expect(head('list the feed for a node')).toBe('feed');
  });

  it('is never an adverb made of an adjective ("currently", "recently"); -ly nouns stay nouns', () => {
    expect(head('show a node recently directed by Ann')).toBe('node');
    expect(head('list the nodes currently on the config')).toBe('nodes');
    expect(head('show the family')).toBe('family');
    expect(head('order a supply')).toBe('supply');
  });

  it('is never a value the request carries: an id, a year, a number', () => {
    expect(head('delete the old trailer node, id Xk02bLm8')).toBe('node');
    expect(head('cancel node 4Fz9kQ01')).toBe('node');
    expect(head('which cards are due by March 1')).toBe('cards');
    expect(head('show board cards 2024')).toBe('cards');
  });

  it('skips action, scope and question words; only the lead step counts', () => {
    expect(head('what webhooks')).toBe('webhooks');
    expect(head('create a playlist and then add songs to it')).toBe('playlist');
    expect(head('create')).toBeUndefined();
  });

  it('in a question, is the noun after which/what/how many, not the verb after its auxiliary', () => {
    expect(head('which boards do I have?')).toBe('boards');
    expect(head('what cards are assigned to me?')).toBe('cards');
    expect(head('what DNS entries do we have for example.com?')).toBe('entries');
    expect(head('how many people are watching right now?')).toBe('people');
    // no noun before the auxiliary: the object is read as before
    expect(head('what is in the Projects folder?')).toBe('folder');
  });

  it('is a scope word only when the object has no other noun; never the caller\'s own words', () => {
    expect(head('delete user')).toBe('user');
    expect(head('get the organization')).toBe('organization');
    expect(head('list repository webhooks')).toBe('webhooks');
    expect(head('list teams in an enterprise')).toBe('teams');
    expect(head('show me my repos')).toBe('repos');
    expect(head('show me')).toBeUndefined();
  });

  it('goes into the query plan with its family, as index terms', () => {
    const plan = analyzeQuery('delete the server', lex, OPS.length, { familyWeight: 0.4, readObject: false });
    // `server` is in the family `server instance machine vm`
    expect(plan.headTerms).toEqual(expect.arrayContaining(['server', 'instanc']));
    expect(analyzeQuery('create', lex, OPS.length, { familyWeight: 0.4, readObject: false }).headTerms).toEqual([]);
  });
});

describe('ranking with the head noun', () => {
  // the committed GitHub registry: "publish a new release" — `repos/generate-release-notes` ("Generate release
  // notes content for a release") holds more of the words; the request's object is a release
  const catalog = loadCatalog(defaultCatalogDir());
  // the signal on its own: every learned weight 1 (weights.ts), so its factor is headBoost itself
  const index = SearchIndex.build(catalog.operations, catalog.meta.domains, { signalWeights: {} });
  const off = SearchIndex.build(catalog.operations, catalog.meta.domains, { headBoost: 1, signalWeights: {} });

  it('puts the operation on the request\'s head noun first', () => {
    expect(names(index, 'publish a new release')[0]).toBe('repos_create-release');
    // without the signal the operation on release *notes* wins
    expect(names(off, 'publish a new release')[0]).toBe('repos_generate-release-notes');
  });

  it('shows its factor in explain only on operations whose resource ends in the head noun', () => {
    const { results } = index.search('publish a new release', { explain: true });
    const factor = (name: string): number | undefined =>
      results.find((r) => r.name === name)?.explain?.signals.find((s) => s.name === 'head-noun')?.factor;
    expect(factor('repos_create-release')).toBe(1.1);
    expect(factor('repos_generate-release-notes')).toBe(1);
  });

  it('a scope word that is the whole object is the head: "delete user" favours the users over a user\'s signatures', () => {
    const ops = [
      op({ name: 'deleteUsers', domain: 'users', method: 'delete', path: '/accounts/{accountId}/users', summary: 'Closes one or more users' }),
      op({ name: 'deleteUserSignature', domain: 'users', method: 'delete', path: '/accounts/{accountId}/users/{userId}/signatures/{signatureId}', summary: 'Removes a signature of the user' }),
    ];
    const { results } = SearchIndex.build(ops, domainsOf(ops), { signalWeights: {} }).search('delete user', { explain: true });
    const factor = (name: string): number | undefined =>
      results.find((r) => r.name === name)?.explain?.signals.find((x) => x.name === 'head-noun')?.factor;
    expect(factor('deleteUsers')).toBe(1.1);
    expect(factor('deleteUserSignature')).toBe(1);
  });

  it('an identifier compound\'s head is its last part: "create credit memo" is about /creditmemos', () => {
    const ops = [
      op({ name: 'createCreditMemo', domain: 'memos', method: 'post', path: '/v1/creditmemos', summary: 'Create a credit memo from a charge' }),
      op({ name: 'emailCreditMemo', domain: 'memos', method: 'post', path: '/v1/creditmemos/{id}/emails', summary: 'Email a credit memo' }),
    ];
    const { results } = SearchIndex.build(ops, domainsOf(ops), { signalWeights: {} }).search('create credit memo', { explain: true });
    const factor = (name: string): number | undefined =>
      results.find((r) => r.name === name)?.explain?.signals.find((x) => x.name === 'head-noun')?.factor;
    expect(factor('createCreditMemo')).toBe(1.1);
    expect(factor('emailCreditMemo')).toBe(1);
  });

  it('a name with a preposition is about the plural before it: "list pads of author" is /listPadsOfAuthor, not /listAuthorsOfPad', () => {
    const ops = [
      op({ name: 'listPadsOfAuthor', domain: 'author', path: '/listPadsOfAuthor', summary: 'returns an array of all pads this author contributed to' }),
      op({ name: 'listAuthorsOfPad', domain: 'pad', path: '/listAuthorsOfPad', summary: 'returns an array of authors who contributed to this pad' }),
    ];
    const index = SearchIndex.build(ops, domainsOf(ops), { signalWeights: {} });
    const factor = (q: string, name: string): number | undefined =>
      index.search(q, { explain: true }).results.find((r) => r.name === name)?.explain?.signals.find((x) => x.name === 'head-noun')?.factor;
    expect(factor('list pads of author', 'listPadsOfAuthor')).toBe(1.1);
    expect(factor('list pads of author', 'listAuthorsOfPad')).toBe(1);
    expect(factor('list authors of pad', 'listAuthorsOfPad')).toBe(1.1);
    expect(factor('list authors of pad', 'listPadsOfAuthor')).toBe(1);
  });

  it('a restored snapshot reads the same head nouns', () => {
    const small = SearchIndex.build(OPS, domainsOf(OPS));
    const restored = SearchIndex.fromSnapshot(small.toSnapshot(), OPS, domainsOf(OPS));
    for (const q of ['add nodebalancer backend node', 'list nodes of a config', 'create nodebalancer']) {
      const { results } = restored.search(q, { explain: true });
      expect(results).toEqual(small.search(q, { explain: true }).results);
      // with the learned weights, as served: the factor is headBoost to the head-noun weight
      const factor = 1.1 ** (LEARNED_WEIGHTS['head-noun'] ?? 1);
      expect(results.some((r) => r.explain?.signals.some((x) => x.name === 'head-noun' && x.factor === factor))).toBe(true);
    }
  });
});
