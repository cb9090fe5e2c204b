// Each stage of the search pipeline on its own (analysis, features, lexical retrieval, signals, ranking) and the
// explain mode that shows how they combine, on a small catalog and on the committed GitHub registry.
import { describe, expect, it } from 'vitest';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import { DocCards } from '../../src/search/cards.js';
import { computeFeatures, SHAPE_COLLECTION, SHAPE_ITEM, FLAG_DEPRECATED, shapeOf } from '../../src/search/features.js';
import { DEFAULT_TUNING, SearchIndex, SIGNALS } from '../../src/search/index.js';
import { READ_DELETE_FACTOR } from '../../src/search/signals.js';
import { Candidates, HIT_ONLY_RETURNS, LexicalRetriever } from '../../src/search/lexical.js';
import { Lexicon } from '../../src/search/lexicon.js';
import { analyzeQuery } from '../../src/search/units.js';
import { laterStepStart } from '../../src/search/sentence.js';
import { LEARNED_WEIGHTS } from '../../src/search/weights.js';
import { domainsOf, op } from './helpers.js';

const OPS = [
  op({ name: 'issues_create', operationId: 'issues/create', domain: 'issues', method: 'post', path: '/repos/{owner}/{repo}/issues', summary: 'Create an issue' }),
  op({ name: 'issues_get', operationId: 'issues/get', domain: 'issues', path: '/repos/{owner}/{repo}/issues/{issue_number}', summary: 'Get an issue' }),
  op({ name: 'issues_list-for-repo', operationId: 'issues/list-for-repo', domain: 'issues', path: '/repos/{owner}/{repo}/issues', summary: 'List repository issues' }),
  op({ name: 'orgs_list-webhooks', operationId: 'orgs/list-webhooks', domain: 'orgs', path: '/orgs/{org}/hooks', summary: 'List organization webhooks', deprecated: true }),
  op({ name: 'invoiceitems_list', operationId: 'invoiceitems/list', domain: 'billing', path: '/invoiceitems', summary: 'List the items of an invoice' }),
];

function lexiconOf(ops = OPS): Lexicon {
  const lex = new Lexicon('porter');
  for (const o of ops) lex.addProse(`${o.summary} ${o.description}`);
  return lex;
}

describe('analysis', () => {
  it('the index-time chain splits identifiers and compounds, rewrites abbreviations, drops stop words, stems', () => {
    const lex = lexiconOf();
    expect(lex.terms('listRepoIssues of the org')).toEqual(['list', 'repositori', 'issu', 'organ']);
    // `invoiceitems` is not a prose word, its parts are: indexed as itself and as its parts
    expect(lex.words('invoiceitems', 10)).toEqual(['invoiceitems', 'invoice', 'items']);
  });

  it('query analysis reads concepts with families, the lead step, method, shape and scope', () => {
    const index = SearchIndex.build(OPS, domainsOf(OPS));
    expect(index.size).toBe(OPS.length);
    const lex = lexiconOf();
    lex.countDocument(new Set(['create', 'issue']), new Set(['creat', 'issu']));
    lex.finish();
    // the catalog's scopes: here the repository is one (scopes.ts derives them; see scopes.test.ts)
    const scopes = { names: ['me', 'repos'], keys: ['', 'repositori'] };
    const plan = analyzeQuery('add a new issue to my repo and then delete it', lex, OPS.length, { familyWeight: 0.4, readObject: true }, [], scopes);
    // add + new are one concept (one family); `issue` another; the later step weighs 0.3
    const add = plan.concepts.find((c) => c.terms.has('add'));
    expect(add?.terms.get('add')).toBe(1);
    expect(add?.terms.get('new')).toBe(1);
    expect(add?.terms.get('creat')).toBe(0.4);
    expect(plan.concepts.find((c) => c.terms.has('delet'))?.weight).toBe(0.3);
    expect(plan.methods).toEqual(['post', 'put']);
    expect(plan.shape).toBe('collection');
    expect([...plan.scopes].sort()).toEqual(['me', 'repos']);
    expect(plan.objectTerms).toContain('issu');
    expect(laterStepStart(['find', 'songs', 'and', 'add', 'them'])).toBe(2);
  });

  it('a request that opens with a question word asks to read, whatever verb follows', () => {
    const lex = lexiconOf();
    lex.finish();
    const methods = (q: string): unknown => analyzeQuery(q, lex, OPS.length, { familyWeight: 0.4, readObject: true }).methods;
    expect(methods('what webhooks do we have set up?')).toEqual(['get']);
    expect(methods('which issues are open')).toEqual(['get']);
    expect(methods('update a webhook')).toEqual(['patch', 'put', 'post']);
    // only as the first word: here "when" joins two clauses of an imperative
    expect(methods('create an issue when a build fails')).toEqual(['post', 'put']);
  });

  it('a verb that changes something asks for a change, also in an agent\'s call without an article', () => {
    const lex = lexiconOf();
    lex.finish();
    const methods = (q: string): unknown => analyzeQuery(q, lex, OPS.length, { familyWeight: 0.4, readObject: true }).methods;
    expect(methods('restore trashed file')).toEqual(['post', 'put', 'patch']);
    expect(methods('reopen issue')).toEqual(['post', 'put', 'patch']);
    expect(methods('move the card to Done')).toEqual(['post', 'put', 'patch']);
    // "get rid of" is deleting, not reading
    expect(methods('get rid of the old label')).toEqual(['delete']);
    // a verb the vocabulary does not know says nothing without an article after it ("frobnicate the widget" does)
    expect(methods('frobnicate widget')).toBeUndefined();
    expect(methods('frobnicate the widget')).toEqual(['post', 'put', 'patch']);
  });

  it('features: method, REST shape, flags and term lists per operation', () => {
    const lex = lexiconOf();
    const sorted = [...OPS].sort((a, b) => (a.name < b.name ? -1 : 1));
    const { features: f } = computeFeatures(sorted, lex);
    const at = (name: string): number => sorted.findIndex((o) => o.name === name);
    expect(f.shape[at('issues_get')]).toBe(SHAPE_ITEM);
    expect(f.shape[at('issues_create')]).toBe(SHAPE_COLLECTION);
    expect(f.flags[at('orgs_list-webhooks')]! & FLAG_DEPRECATED).toBe(FLAG_DEPRECATED);
  });

  it('cards: what answers show, restored from their stored parts, with the exact-name table and name lookup', () => {
    const sorted = [...OPS].sort((a, b) => (a.name < b.name ? -1 : 1));
    const cards = DocCards.fromOperations(sorted);
    const at = (name: string): number => sorted.findIndex((o) => o.name === name);
    const parts = cards.encode();
    const restored = DocCards.restore(parts, sorted.length);
    expect(restored?.equals(cards)).toBe(true);
    expect(DocCards.restore({ ...parts, bytes: parts.bytes.subarray(1) }, sorted.length)).toBeUndefined();
    expect(DocCards.restore(parts, sorted.length + 1)).toBeUndefined();
    expect(DocCards.restore({ ...parts, exactDoc: parts.exactDoc.map(() => sorted.length) }, sorted.length)).toBeUndefined();
    const op = sorted[at('issues_get')]!;
    expect(restored!.at(at('issues_get'))).toEqual({
      name: op.name, operationId: op.operationId, method: op.method, path: op.path, domain: op.domain, summary: op.summary,
      requiredParams: op.inputSchema.required ?? [],
    });
    expect(cards.exact('get /repos/{}/{}/issues/{}')).toBe(at('issues_get'));
    expect(restored!.exact(op.operationId.toLowerCase())).toBe(at('issues_get'));
    expect(cards.exact(op.name.toLowerCase())).toBe(at('issues_get'));
    expect(cards.exact('issues_get ')).toBeUndefined();
    // every key of every operation finds the first operation (in name order) that has it
    for (const o of sorted) {
      for (const key of [o.name.toLowerCase(), o.operationId.toLowerCase()]) {
        expect(cards.exact(key)).toBe(sorted.findIndex((p) => p.name.toLowerCase() === key || p.operationId.toLowerCase() === key));
      }
    }
    for (const o of sorted) expect(cards.indexOf(o.name)).toBe(at(o.name));
    expect(cards.indexOf('no_such-operation')).toBe(-1);
    expect(cards.names()).toEqual(sorted.map((o) => o.name));
    // a different operation list gives different cards
    expect(DocCards.fromOperations(sorted.slice(1)).equals(cards)).toBe(false);
  });
});

describe('a reading holds no function made for its search', () => {
  // A closure made per search and stored in the reading kept every reading alive past its search: each young
  // collection copied ~2.5 MB of finished searches (docs/notes/SEARCH-ROUNDS.md, stop 41). Every function a
  // reading carries is the same object from one search to the next: the lexicon's, or a module's.
  it('every function-valued field is shared by readings of different queries, every unit on', () => {
    const lex = lexiconOf();
    const tuning = { familyWeight: 0.4, readObject: true, minedWeight: 0.3 };
    const a = analyzeQuery('cancel the subscription for my account', lex, OPS.length, tuning, ['stop']) as unknown as Record<string, unknown>;
    const b = analyzeQuery('list every issue of the org, then email bob', lex, OPS.length, tuning) as unknown as Record<string, unknown>;
    const functions = Object.keys(a).filter((k) => typeof a[k] === 'function');
    expect(functions).toEqual(expect.arrayContaining(['family', 'leadFamily', 'mined']));
    for (const k of functions) expect(b[k], k).toBe(a[k]);
  });
});

describe('lexical retrieval', () => {
  it('accumulates BM25+ and coverage per matched document into reused buffers, and clears them', () => {
    const lex = lexiconOf();
    const sorted = [...OPS].sort((a, b) => (a.name < b.name ? -1 : 1));
    const tables = computeFeatures(sorted, lex);
    const r = LexicalRetriever.build(sorted, domainsOf(OPS), lex, tables.features, tables.termIds, DEFAULT_TUNING.boosts, 120);
    lex.finish();
    const plan = analyzeQuery('list issues', lex, sorted.length, { familyWeight: 0.4, readObject: false });
    const c = new Candidates(sorted.length);
    r.retrieve(plan.concepts, c);
    const matched = [...c.matched.subarray(0, c.matchedCount)].map((i) => sorted[i]!.name).sort();
    expect(matched).toContain('issues_list-for-repo');
    const best = sorted.findIndex((o) => o.name === 'issues_list-for-repo');
    expect(c.coverage[best]).toBeCloseTo(1, 5);
    expect(c.scores[best]).toBeGreaterThan(0);
    c.clear();
    expect(c.matchedCount).toBe(0);
    expect(c.scores.every((x) => x === 0) && c.coverage.every((x) => x === 0)).toBe(true);
    // an agent's keyword the operation lacks costs it no coverage, however rare (high idf) the keyword is
    const withKw = analyzeQuery('list issues', lex, sorted.length, { familyWeight: 0.4, readObject: false, keywordMode: 'concepts', keywordWeight: 0.5 }, ['zyzzyva']);
    expect(withKw.concepts.filter((x) => x.keyword)).toHaveLength(1);
    r.retrieve(withKw.concepts, c);
    expect(c.coverage[best]).toBeCloseTo(1, 5);
    c.clear();
    // ...and one it has stands in for a query word it lacks: "list bugs" (no operation says bug) with keyword issue
    const alone = analyzeQuery('list bugs', lex, sorted.length, { familyWeight: 0.4, disabledUnits: ['typos'], readObject: false });
    r.retrieve(alone.concepts, c);
    const without = c.coverage[best] as number;
    c.clear();
    const stand = analyzeQuery('list bugs', lex, sorted.length, { familyWeight: 0.4, disabledUnits: ['typos'], readObject: false, keywordMode: 'concepts', keywordWeight: 0.5 }, ['issue']);
    r.retrieve(stand.concepts, c);
    expect(without).toBeLessThan(1);
    expect(c.coverage[best]).toBeGreaterThan(without);
    expect(c.coverage[best]).toBeLessThanOrEqual(1);
    c.clear();
    // postings restored from a table give the same hits as MiniSearch
    const table = r.postings(['issu', 'list', 'nothing']);
    const restored = LexicalRetriever.fromPostings(table, tables.features, tables.termIds, DEFAULT_TUNING.boosts);
    for (const t of ['issu', 'list', 'nothing', 'absent']) {
      expect([...restored.termHits(t).scores]).toEqual([...r.termHits(t).scores]);
      expect([...restored.termHits(t).ids]).toEqual([...r.termHits(t).ids]);
    }
  });
});

describe('response fields (what an operation returns)', () => {
  const ops = [
    op({ name: 'suppressions_list', domain: 'suppressions', path: '/suppression/bounces', summary: 'Retrieve all bounces', response: { status: '200', description: 'OK', fields: ['email', 'created', 'reason', 'status'] } }),
    op({ name: 'messages_get', domain: 'messages', path: '/messages/{msg_id}', summary: 'Retrieve a message', response: { status: '200', description: 'OK', fields: ['msg_id', 'subject', 'opens_count', 'clicks_count'] } }),
    op({ name: 'stats_get', domain: 'stats', path: '/stats', summary: 'Retrieve global statistics about opens' }),
  ];

  it('finds an operation by a field its success response carries', () => {
    const index = SearchIndex.build(ops, domainsOf(ops));
    // "clicks" is only in messages_get's response fields
    expect(index.search('clicks').results.map((r) => r.name)).toEqual(['messages_get']);
    expect(DEFAULT_TUNING.boosts.returns).toBe(0.25);
  });

  it('adds to the retrieval score but not to coverage: the operation\'s own words explain the query', () => {
    // the retrieval stage's effect, every learned weight 1 (the learned ones make retrieval count less)
    const index = SearchIndex.build(ops, domainsOf(ops), { signalWeights: {} });
    // "opens": stats_get's summary vs messages_get's response field opens_count
    const results = index.search('opens').results;
    expect(results.map((r) => r.name).slice(0, 2)).toEqual(['stats_get', 'messages_get']);
    expect(results[1]!.score).toBeLessThan(0.4); // no coverage from a response field alone: a weak match
    const lex = lexiconOf(ops);
    const sorted = [...ops].sort((x, y) => (x.name < y.name ? -1 : 1));
    const tables = computeFeatures(sorted, lex);
    const r = LexicalRetriever.build(sorted, domainsOf(ops), lex, tables.features, tables.termIds, DEFAULT_TUNING.boosts, 120);
    lex.finish();
    const c = new Candidates(sorted.length);
    r.retrieve(analyzeQuery('opens', lex, sorted.length, { familyWeight: 0.4, readObject: false }).concepts, c);
    const at = (name: string): number => sorted.findIndex((o) => o.name === name);
    expect(c.coverage[at('stats_get')]).toBeCloseTo(1, 5);
    expect(c.coverage[at('messages_get')]).toBe(0);
    expect(c.scores[at('messages_get')]).toBeGreaterThan(0);
    // the flag survives a snapshot's posting table
    const restored = LexicalRetriever.fromPostings(r.postings(['open']), tables.features, tables.termIds, DEFAULT_TUNING.boosts);
    expect([...restored.termHits('open').title]).toEqual([...r.termHits('open').title]);
    expect([...r.termHits('open').title].some((f) => (f & HIT_ONLY_RETURNS) !== 0)).toBe(true);
  });

  it('a concept whose terms hit many operations only in their response fields leaves nothing behind for the next query', () => {
    // eight operations return fields alpha, beta, gamma: one concept of those three terms lists each of them
    // once however many terms hit it (not three times, which overflowed the scratch list and left stale state)
    const records = Array.from({ length: 8 }, (_, k) =>
      op({ name: `records_get-${k}`, domain: 'records', path: `/records${k}/{id}`, summary: `Retrieve record ${k}`, response: { status: '200', description: 'OK', fields: ['alpha', 'beta', 'gamma'] } }),
    );
    const all = [...records, op({ name: 'widgets_create', domain: 'widgets', method: 'post', path: '/widgets', summary: 'Create a gamma widget' })];
    const lex = lexiconOf(all);
    const sorted = [...all].sort((x, y) => (x.name < y.name ? -1 : 1));
    const tables = computeFeatures(sorted, lex);
    const r = LexicalRetriever.build(sorted, domainsOf(all), lex, tables.features, tables.termIds, DEFAULT_TUNING.boosts, 120);
    lex.finish();
    const widget = sorted.findIndex((o) => o.name === 'widgets_create');
    const c = new Candidates(sorted.length);
    const gamma = { terms: new Map([['gamma', 1]]), idf: 1, weight: 1 };
    r.retrieve([gamma], c);
    const fresh = c.coverage[widget] as number;
    expect(fresh).toBeCloseTo(1, 5);
    c.clear();
    r.retrieve([{ terms: new Map([['alpha', 1], ['beta', 1], ['gamma', 1]]), idf: 1, weight: 1 }], c);
    expect(c.coverage[widget]).toBeCloseTo(1, 5);
    c.clear();
    r.retrieve([gamma], c);
    expect(c.coverage[widget]).toBeCloseTo(fresh, 9);
    expect([...c.best].every((b) => b === 0)).toBe(true);
  });
});

describe('the verb a REST shape implies', () => {
  it('a GET on a collection path is a list, even when its words say "retrieves"', () => {
    const ops = [
      op({ name: 'getInvoices', domain: 'accounting', path: '/Invoices', summary: 'Retrieves sales invoices or purchase bills' }),
      op({ name: 'getInvoiceHistory', domain: 'accounting', path: '/Invoices/{InvoiceID}/History', summary: 'Retrieves history records for a specific invoice' }),
      op({ name: 'createInvoices', domain: 'accounting', method: 'put', path: '/Invoices', summary: 'Creates one or more sales invoices' }),
      op({ name: 'getInvoice', domain: 'accounting', path: '/Invoices/{InvoiceID}', summary: 'Retrieves a specific sales invoice' }),
    ];
    const index = SearchIndex.build(ops, domainsOf(ops));
    const coverage = (name: string): number | undefined =>
      index.search('list invoices', { explain: true }).results.find((r) => r.name === name)?.explain?.coverage;
    // the GET collection covers both words of the query; the create on the same path and the item only "invoices"
    expect(coverage('getInvoices')).toBeCloseTo(1, 5);
    expect(coverage('createInvoices')).toBeLessThan(0.5);
    expect(coverage('getInvoice')).toBeLessThan(0.5);
    expect(DEFAULT_TUNING.boosts.implied).toBe(0.5);
    // and in its title: the implied verb is what the title would say
    const titleFactor = (name: string): number | undefined =>
      index.search('list invoices', { explain: true }).results.find((r) => r.name === name)?.explain?.signals.find((x) => x.name === 'title-coverage')?.factor;
    expect(titleFactor('getInvoices')).toBeCloseTo(2, 5);
    expect(titleFactor('getInvoiceHistory')).toBeLessThan(2);
  });

  it('a collection after a version prefix is a collection at the root (`/api/v1/blocks`)', () => {
    expect(shapeOf('/api/v1/blocks')).toBe('collection');
    expect(shapeOf('/rest/api/3/project')).toBe('collection');
    expect(shapeOf('/api/v1/accounts/{id}')).toBe('item');
    // without a version the segments all count: two plain ones in a row end in an action or a part
    expect(shapeOf('/api/blocks/export')).toBe('other');
    expect(shapeOf('/api/v1/lists/{id}/accounts')).toBe('collection');
    const ops = [
      op({ name: 'get_api_v1_blocks', domain: 'blocks', path: '/api/v1/blocks', summary: 'Get blocked users' }),
      op({ name: 'get_api_v1_lists_id_accounts', domain: 'lists', path: '/api/v1/lists/{id}/accounts', summary: 'View accounts in List' }),
    ];
    const index = SearchIndex.build(ops, domainsOf(ops));
    const shape = index.search('list blocked accounts', { explain: true }).results.find((r) => r.name === 'get_api_v1_blocks')?.explain?.signals.find((x) => x.name === 'rest-shape');
    expect(shape?.factor).toBeGreaterThan(1);
  });
});

describe('signals and explain', () => {
  it('every signal has a unique name and says what it reads, with the factors of the weights in use', () => {
    const names = SIGNALS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const tuning = { precisionWeight: 0.7, namePrecisionShare: 0.5, primaryBoost: 1, headBoost: 1.1, coveragePower: 2, exactTitleBoost: 1.5, longRequestConcepts: 5 };
    for (const s of SIGNALS) expect(s.reads(1, tuning).length).toBeGreaterThan(10);
    const method = SIGNALS.find((s) => s.name === 'method')!;
    expect(method.reads(1, tuning)).toContain('x1.15 when it fits, x0.9 when not');
    // a learned weight raises every factor to it: 1.15^4 = 1.749
    expect(method.reads(4, tuning)).toContain('x1.749 when it fits, x0.656 when not, x0.063 a DELETE for a read (learned weight 4)');
    // a search with explain carries them as the index ranks: its learned weights
    const index = SearchIndex.build(OPS, domainsOf(OPS), { signalWeights: { method: 2, retrieval: 0.5 } });
    const read = index.search('list issues', { explain: true }).signals;
    expect(read?.find((x) => x.name === 'method')?.reads).toContain(`x${(1.15 ** 2).toFixed(3).replace(/0+$/, '')} when it fits`);
    expect(read?.find((x) => x.name === 'retrieval')?.reads).toContain('^0.5');
    expect(index.search('list issues').signals).toBeUndefined();
  });

  it('explain: the retrieval score times every factor is the re-ranked score, and scores follow it', () => {
    const c = loadCatalog(defaultCatalogDir());
    // every learned weight 1 (weights.ts): the factors are the signals' own; the next test weighs them
    const index = SearchIndex.build(c.operations, c.meta.domains, { signalWeights: {} });
    const plain = index.search('list repository webhooks', { limit: 8 });
    const explained = index.search('list repository webhooks', { limit: 8, explain: true });
    expect(explained.results.map((h) => [h.name, h.score])).toEqual(plain.results.map((h) => [h.name, h.score]));
    expect(plain.results[0]?.explain).toBeUndefined();
    const best = explained.results[0]!.explain!;
    for (const h of explained.results) {
      const e = h.explain!;
      const product = e.signals.reduce((s, x) => s * x.factor, e.retrieval);
      expect(product).toBeCloseTo(e.reranked, 9);
      expect(h.score).toBeCloseTo(Math.min(1, (e.reranked / best.reranked) * best.coverage), 3);
      expect(e.signals.map((s) => s.name)).toEqual(expect.arrayContaining(['coverage', 'precision', 'method', 'scope']));
    }
    expect(explained.results[0]?.name).toBe('repos_list-webhooks');
    // reading never deletes: a DELETE among the hits of a read request gets READ_DELETE_FACTOR, other methods 0.9
    const methodOf = new Map(c.operations.map((o) => [o.name, o.method]));
    const wide = index.search('list repository webhooks', { limit: 50, explain: true }).results;
    const factorOf = (m: string): number[] => wide.filter((h) => methodOf.get(h.name) === m).map((h) => h.explain!.signals.find((x) => x.name === 'method')!.factor);
    expect(factorOf('delete').length).toBeGreaterThan(0);
    expect(new Set(factorOf('delete'))).toEqual(new Set([READ_DELETE_FACTOR]));
    expect(new Set(factorOf('post'))).toEqual(new Set([0.9]));
    expect(best.signals.find((s) => s.name === 'method')?.factor).toBe(1.15);
    // an exact name is marked as such
    const exact = index.search('repos/list-webhooks', { explain: true }).results[0]!;
    expect(exact.score).toBe(1);
    expect(exact.explain?.exact).toBe(true);
  });

  it('learned weights: the retrieval score and each factor are raised to their weights, and explain adds up', () => {
    const c = loadCatalog(defaultCatalogDir());
    const raw = SearchIndex.build(c.operations, c.meta.domains, { signalWeights: {} });
    const weights = { retrieval: 0.5, method: 3, 'head-noun': 2 };
    const weighted = SearchIndex.build(c.operations, c.meta.domains, { signalWeights: weights });
    const plain = new Map(raw.search('list repository webhooks', { limit: 20, explain: true }).results.map((h) => [h.name, h.explain!]));
    const hits = weighted.search('list repository webhooks', { limit: 20, explain: true }).results;
    let compared = 0;
    for (const h of hits) {
      const e = h.explain!;
      expect(e.retrievalWeight).toBe(0.5);
      expect(e.signals.reduce((p, s) => p * s.factor, e.retrieval ** 0.5)).toBeCloseTo(e.reranked, 9);
      const r = plain.get(h.name);
      if (!r) continue;
      compared++;
      expect(e.retrieval).toBe(r.retrieval);
      for (const s of e.signals) {
        const rawFactor = r.signals.find((x) => x.name === s.name)!.factor;
        expect(s.factor).toBeCloseTo(rawFactor ** ((weights as Record<string, number>)[s.name] ?? 1), 12);
      }
    }
    expect(compared).toBeGreaterThan(5);
    expect(plain.values().next().value?.retrievalWeight).toBeUndefined();
    // coverage-power reshapes the coverage factor: 0.25 + 0.75 cov^p (p = 2 unless learned)
    const linear = SearchIndex.build(c.operations, c.meta.domains, { signalWeights: { 'coverage-power': 1 } });
    const partial = (idx: SearchIndex): Array<{ cov: number; f: number }> => idx.search('list repository webhooks for my team', { limit: 20, explain: true }).results
      .map((h) => ({ cov: h.explain!.coverage, f: h.explain!.signals.find((x) => x.name === 'coverage')!.factor }))
      .filter((x) => x.cov > 0 && x.cov < 1);
    expect(partial(linear).length).toBeGreaterThan(0);
    for (const { cov, f } of partial(linear)) expect(f).toBeCloseTo(0.25 + 0.75 * cov, 12);
    for (const { cov, f } of partial(raw)) expect(f).toBeCloseTo(0.25 + 0.75 * cov * cov, 12);
    // the served default is the learned set
    expect(DEFAULT_TUNING.signalWeights).toBe(LEARNED_WEIGHTS);
  });

  it('a disabled signal is left out (ablation) and changes the ranking where it mattered', () => {
    const ops = [
      op({ name: 'old_list', path: '/old/issues', summary: 'List issues' , deprecated: true }),
      op({ name: 'new_list', path: '/new/issues', summary: 'List issues' }),
    ];
    // without the deprecated signal the tie is broken by name (new_list < old_list); with it, too — so flip names
    const ops2 = [
      op({ name: 'a_list', path: '/a/issues', summary: 'List issues', deprecated: true }),
      op({ name: 'b_list', path: '/b/issues', summary: 'List issues' }),
    ];
    expect(SearchIndex.build(ops2, domainsOf(ops2)).search('list issues').results[0]?.name).toBe('b_list');
    const ablated = SearchIndex.build(ops2, domainsOf(ops2), { disabledSignals: ['deprecated'] });
    expect(ablated.search('list issues').results[0]?.name).toBe('a_list');
    expect(ablated.search('list issues', { explain: true }).results[0]?.explain?.signals.some((s) => s.name === 'deprecated')).toBe(false);
    expect(SearchIndex.build(ops, domainsOf(ops)).search('list issues').results[0]?.name).toBe('new_list');
  });
});

describe('Operation.keywords (x-api-catalog-keywords)', () => {
  const base = [
    op({ name: 'users_block', path: '/user/blocks/{username}', method: 'put', summary: 'Block a user' }),
    op({ name: 'users_follow', path: '/user/following/{username}', method: 'put', summary: 'Follow a user' }),
    op({ name: 'users_list-followers', path: '/user/followers', summary: 'List followers of the authenticated user' }),
  ];
  it('are searchable like the summary, and count as title words', () => {
    const plain = SearchIndex.build(base, domainsOf(base));
    expect(plain.search('mute').total).toBe(0);
    const curated = base.map((o) => (o.name === 'users_block' ? { ...o, keywords: ['mute', 'ignore', 'silence'] } : o));
    const index = SearchIndex.build(curated, domainsOf(curated));
    const top = index.search('mute someone', { explain: true }).results[0];
    expect(top?.name).toBe('users_block');
    expect(top?.explain?.signals.find((s) => s.name === 'title-coverage')?.factor).toBeGreaterThan(1);
  });

  it('absent or empty keywords change no ranking', () => {
    const c = loadCatalog(defaultCatalogDir());
    const ops = c.operations.slice(0, 300);
    const a = SearchIndex.build(ops, c.meta.domains);
    const b = SearchIndex.build(ops.map((o) => ({ ...o, keywords: [] })), c.meta.domains);
    for (const q of ['list issues', 'create a webhook for my org', 'delete a secret', 'get the license']) {
      expect(b.search(q, { limit: 10 })).toEqual(a.search(q, { limit: 10 }));
    }
  });
});

describe('noun families: a person\'s word for what the API names otherwise', () => {
  // a cloud API's own words: instances, volumes, invoices, regions
  const ops = [
    op({ name: 'instances_create', domain: 'instances', method: 'post', path: '/instances', summary: 'Create an instance' }),
    op({ name: 'instances_list', domain: 'instances', path: '/instances', summary: 'List instances' }),
    op({ name: 'volumes_attach', domain: 'volumes', method: 'post', path: '/volumes/{id}/attach', summary: 'Attach a volume' }),
    op({ name: 'networks_attach', domain: 'networks', method: 'post', path: '/networks/{id}/attach', summary: 'Attach a network' }),
    op({ name: 'invoices_list', domain: 'account', path: '/account/invoices', summary: 'List invoices' }),
    op({ name: 'regions_list', domain: 'regions', path: '/regions', summary: 'List regions' }),
    op({ name: 'images_create', domain: 'images', method: 'post', path: '/images', summary: 'Create an image' }),
  ];
  const index = SearchIndex.build(ops, domainsOf(ops));
  const first = (q: string): string | undefined => index.search(q).results[0]?.name;

  it.each([
    ['create a new server', 'instances_create'],
    ['which machines do we have', 'instances_list'],
    ['show me our past bills', 'invoices_list'],
    ['which zones are there', 'regions_list'],
  ])('%s -> %s', (q, name) => {
    expect(first(q)).toBe(name);
  });

  it('"disk" tells the volume apart from the other thing one attaches', () => {
    const results = index.search('attach the disk').results;
    expect(results[0]?.name).toBe('volumes_attach');
    expect(results[0]!.score).toBeGreaterThan(results.find((r) => r.name === 'networks_attach')?.score ?? 0);
  });

  it('a family member counts less than the word itself', () => {
    const [hit] = index.search('list instances').results;
    const viaFamily = index.search('list servers').results;
    expect(hit?.name).toBe('instances_list');
    expect(viaFamily[0]?.name).toBe('instances_list');
    // "servers" explains instances_list, not the other lists, but less than "instances" would
    expect(viaFamily[0]!.score).toBeGreaterThan(viaFamily.find((r) => r.name === 'regions_list')?.score ?? 0);
    expect(viaFamily[0]!.score).toBeLessThan(hit!.score);
  });
});
