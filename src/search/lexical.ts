// Stage 2, the lexical retriever: BM25+ over weighted operation fields (MiniSearch, or a snapshot's posting table),
// queried one concept at a time; per-term hits are query-independent typed arrays, and a retrieval accumulates
// each matched document's BM25 sum and concept coverage into reused buffers. No ranking rules; prints nothing.
import { createRequire } from 'node:module';
import type MiniSearch from 'minisearch';
import type { DomainInfo, Operation } from '../types.js';
import { BoundedMap } from './bounded-map.js';
import { nestedFieldNames } from './fields.js';
import { METHOD_CODES, SHAPE_COLLECTION, type Features } from './features.js';
import { MAX_INDEX_WORDS, type Lexicon } from './lexicon.js';
import type { Concept } from './query.js';
import { stripNoise } from './text.js';

export type IndexField = 'name' | 'summary' | 'path' | 'domain' | 'tags' | 'params' | 'description' | 'domainText' | 'keywords' | 'returns' | 'implied';
// `keywords`, `returns` and `implied` last: an operation without them scores exactly as before they existed (BM25+
// is per field). `returns` holds the success response body's top-level field names (what an operation gives back:
// `failure_reason`, `storage_quota`): a low-weight field that answers requests phrased by the data they want.
// `implied` holds the verb an operation's REST shape implies when its words may not say it: `list` for a GET on
// a collection path (Xero's "Retrieves sales invoices" is GET /Invoices), so "list invoices" finds it.
export const FIELDS: IndexField[] = ['name', 'summary', 'path', 'domain', 'tags', 'params', 'description', 'domainText', 'keywords', 'returns', 'implied'];
/**
 * A term matched in these fields counts for title coverage (keywords are curated words for the operation; the
 * implied verb is what the title would say: `Retrieves sales invoices` on GET /Invoices lists them).
 */
const TITLE_FIELDS: ReadonlySet<string> = new Set(['name', 'summary', 'keywords', 'implied']);
/** TermHits.title flags. */
export const HIT_TITLE = 1;
export const HIT_ONLY_RETURNS = 2;
/**
 * How much a term found only among an operation's response field names counts toward its coverage (the share of
 * the query it explains): nothing; its BM25+ score (at the field's low boost) still counts. A response field says
 * what data comes back, weaker evidence of what the operation does than its own words: with any coverage credit
 * GitHub's "list open PRs" ranked the pull-request *stacks* (response fields `open`, `pull_requests`) above
 * pulls/list. Measured: docs/notes/SEARCH-ROUNDS.md.
 */
export const RETURNS_COVERAGE = 0;
/** Cached term lookups; cleared when full (a bound, not an LRU: the common terms come right back). */
const HIT_CACHE_SIZE = 4096;

export interface TermHits {
  ids: Uint32Array;
  scores: Float64Array;
  /** Bit flags: HIT_TITLE when the term is in the document's title (name, operationId, summary), HIT_ONLY_RETURNS
   * when it is found only among the response's field names. */
  title: Uint8Array;
}

const EMPTY_HITS: TermHits = { ids: new Uint32Array(0), scores: new Float64Array(0), title: new Uint8Array(0) };

/**
 * Per-document accumulators of one query, reused across queries (typed arrays sized once per index): only the
 * matched documents are touched and they are zeroed again by `clear`, so a query allocates nothing per document.
 */
export class Candidates {
  /** BM25+ sum over the query's concepts (the retrieval score). */
  readonly scores: Float64Array;
  /** idf-weighted share of the query's concepts the document matches (a family match counts its weight). */
  readonly coverage: Float64Array;
  /** The same, counted only for terms in the title (name, operationId, summary). */
  readonly titleCoverage: Float64Array;
  /** The re-ranked score (written by the ranker). */
  readonly final: Float64Array;
  readonly best: Float64Array;
  readonly bestTitle: Float64Array;
  readonly isMatched: Uint8Array;
  /** 1 while a document is in `touched` (one concept's documents, each once). */
  readonly isTouched: Uint8Array;
  /** Matched document numbers, `matchedCount` of them; `touched` is scratch for one concept. */
  readonly matched: Uint32Array;
  readonly touched: Uint32Array;
  matchedCount = 0;
  /** Scratch of the ranker's pruning (rank.ts): each candidate's upper bound, 1 once its score is exact, the documents to finish. */
  readonly bound: Float64Array;
  readonly exact: Uint8Array;
  readonly finish: Uint32Array;

  constructor(n: number) {
    this.scores = new Float64Array(n);
    this.coverage = new Float64Array(n);
    this.titleCoverage = new Float64Array(n);
    this.final = new Float64Array(n);
    this.best = new Float64Array(n);
    this.bestTitle = new Float64Array(n);
    this.isMatched = new Uint8Array(n);
    this.isTouched = new Uint8Array(n);
    this.matched = new Uint32Array(n);
    this.touched = new Uint32Array(n);
    this.bound = new Float64Array(n);
    this.exact = new Uint8Array(n);
    this.finish = new Uint32Array(n);
  }

  /** Zeroes what the last query wrote. */
  clear(): void {
    for (let m = 0; m < this.matchedCount; m++) {
      const i = this.matched[m] as number;
      this.scores[i] = 0;
      this.coverage[i] = 0;
      this.titleCoverage[i] = 0;
      this.final[i] = 0;
      this.isMatched[i] = 0;
      this.exact[i] = 0;
    }
    this.matchedCount = 0;
  }
}

const GET = METHOD_CODES.indexOf('get');

/** The fields of one operation (document `id`) as MiniSearch indexes them. */
function record(op: Operation, id: number, f: Features, descriptionWords: number, domainText: string): Record<string, unknown> {
  return {
    id,
    name: op.name === op.operationId ? op.name : `${op.name} ${op.operationId}`,
    summary: stripNoise(op.summary),
    path: op.path,
    domain: op.domain,
    tags: op.tags.join(' '),
    params: [...Object.keys(op.inputSchema.properties), ...nestedFieldNames(op.inputSchema)].join(' '),
    description: stripNoise(op.description).split(/\s+/).slice(0, descriptionWords).join(' '),
    domainText,
    keywords: (op.keywords ?? []).join(' '),
    returns: (op.response?.fields ?? []).join(' '),
    // the method and REST shape the features already read (the rest-shape signal reads the same)
    implied: f.method[id] === GET && f.shape[id] === SHAPE_COLLECTION ? 'list' : '',
  };
}

/** A posting table: every index term's hits as one CSR block (what a snapshot stores). */
export interface PostingTable {
  /** Terms in table order; term k's hits are `ids/scores/title[start[k] .. start[k + 1] - 1]`. */
  terms: readonly string[];
  start: Uint32Array;
  ids: Uint32Array;
  scores: Float64Array;
  title: Uint8Array;
}

/**
 * MiniSearch, loaded on first build: an index restored from a snapshot (every server start with an imported
 * registry) never needs it, and loading it costs every spawn a few ms. Synchronous (builds are), through Node's
 * require of the package's CommonJS build.
 */
let miniSearchClass: typeof MiniSearch | undefined;
function miniSearch(): typeof MiniSearch {
  return (miniSearchClass ??= createRequire(import.meta.url)('minisearch') as typeof MiniSearch);
}

export class LexicalRetriever {
  private readonly hitCache = new BoundedMap<string, TermHits>(HIT_CACHE_SIZE);
  /** Term -> its row in `table` (index restored from a snapshot: no MiniSearch). */
  private readonly rows: Map<string, number> | undefined;

  private constructor(
    private readonly ms: MiniSearch<Record<string, unknown>> | undefined,
    private readonly table: PostingTable | undefined,
    private readonly features: Features,
    private readonly termIds: ReadonlyMap<string, number>,
    private readonly boosts: Record<IndexField, number>,
  ) {
    this.rows = table === undefined ? undefined : new Map(table.terms.map((t, k) => [t, k]));
  }

  /**
   * Indexes the operations (in document-number order) with MiniSearch, counting each document's words and
   * terms into the lexicon on the way (one tokenization).
   */
  static build(
    docs: readonly Operation[], domains: readonly DomainInfo[], lex: Lexicon, features: Features,
    termIds: ReadonlyMap<string, number>, boosts: Record<IndexField, number>, descriptionWords: number,
  ): LexicalRetriever {
    const domainText = new Map(domains.map((d) => [d.name, d.description]));
    let words = new Set<string>();
    let terms = new Set<string>();
    const ms = new (miniSearch())<Record<string, unknown>>({
      idField: 'id',
      fields: FIELDS,
      storeFields: [],
      tokenize: (text) => lex.words(text, MAX_INDEX_WORDS),
      processTerm: (term) => {
        const out = lex.analyze(term);
        // while building, collect the document's words and terms for the lexicon's frequencies
        words.add(term);
        for (const t of out) terms.add(t);
        return out.length === 0 ? null : out;
      },
      searchOptions: { tokenize: (text) => [text], processTerm: (term) => term },
    });
    // one document at a time (no array of all index records): add it, then count its words and terms
    docs.forEach((op, id) => {
      words = new Set<string>();
      terms = new Set<string>();
      ms.add(record(op, id, features, descriptionWords, domainText.get(op.domain) ?? ''));
      lex.countDocument(words, terms);
    });
    return new LexicalRetriever(ms, undefined, features, termIds, boosts);
  }

  /**
   * Every term's hits (`terms`: all index terms, e.g. the lexicon's document-frequency keys), exactly as
   * {@link termHits} computes them: restored with {@link fromPostings}, an index needs no MiniSearch.
   */
  postings(terms: readonly string[]): PostingTable {
    const start = new Uint32Array(terms.length + 1);
    const parts: TermHits[] = [];
    let total = 0;
    terms.forEach((t, k) => {
      const h = this.table === undefined ? this.compute(t) : this.termHits(t);
      parts.push(h);
      total += h.ids.length;
      start[k + 1] = total;
    });
    const ids = new Uint32Array(total);
    const scores = new Float64Array(total);
    const title = new Uint8Array(total);
    parts.forEach((h, k) => {
      const at = start[k] as number;
      ids.set(h.ids, at);
      scores.set(h.scores, at);
      title.set(h.title, at);
    });
    return { terms, start, ids, scores, title };
  }

  static fromPostings(table: PostingTable, features: Features, termIds: ReadonlyMap<string, number>, boosts: Record<IndexField, number>): LexicalRetriever {
    return new LexicalRetriever(undefined, table, features, termIds, boosts);
  }

  /**
   * Documents matching one index term, with their BM25+ score over the boosted fields and whether the
   * term is in the title. Query-independent, so cached (typos are corrected before, in query analysis).
   */
  termHits(term: string): TermHits {
    const table = this.table;
    if (table !== undefined) {
      const row = this.rows?.get(term);
      if (row === undefined) return EMPTY_HITS;
      const a = table.start[row] as number;
      const b = table.start[row + 1] as number;
      return { ids: table.ids.subarray(a, b), scores: table.scores.subarray(a, b), title: table.title.subarray(a, b) };
    }
    const cached = this.hitCache.get(term);
    if (cached) return cached;
    return this.hitCache.remember(term, this.compute(term));
  }

  private compute(term: string): TermHits {
    const results = (this.ms as MiniSearch<Record<string, unknown>>).search(term, { boost: this.boosts });
    const hits: TermHits = {
      ids: new Uint32Array(results.length), scores: new Float64Array(results.length), title: new Uint8Array(results.length),
    };
    const f = this.features;
    for (let k = 0; k < results.length; k++) {
      const r = results[k] as (typeof results)[number];
      const i = r.id as number;
      hits.ids[k] = i;
      hits.scores[k] = r.score;
      let title = false;
      let onlyReturns = true;
      for (const t in r.match) {
        const fields = r.match[t] ?? [];
        if (fields.some((x) => x !== 'returns')) onlyReturns = false;
        const id = this.termIds.get(t);
        if (!title && ((id !== undefined && f.titleIds.subarray(f.titleStart[i], f.titleStart[i + 1]).includes(id)) || fields.some((x) => TITLE_FIELDS.has(x)))) {
          title = true;
        }
      }
      hits.title[k] = (title ? HIT_TITLE : 0) | (onlyReturns ? HIT_ONLY_RETURNS : 0);
    }
    return hits;
  }

  /**
   * Marks in `marks` the documents that have `term` only among their response's field names (what they return, not
   * what they are): the ids marked, for clearing.
   */
  markReturnsOnly(term: string, marks: Uint8Array): number[] {
    const out: number[] = [];
    const table = this.table;
    const row = table === undefined ? undefined : (this.rows as Map<string, number>).get(term);
    if (table !== undefined && row === undefined) return out;
    const hits = table === undefined ? this.termHits(term) : table;
    const from = row === undefined ? 0 : (table as PostingTable).start[row] as number;
    const to = row === undefined ? hits.ids.length : (table as PostingTable).start[row + 1] as number;
    for (let h = from; h < to; h++) {
      if (((hits.title[h] as number) & HIT_ONLY_RETURNS) === 0) continue;
      const i = hits.ids[h] as number;
      if (marks[i] === 0) {
        marks[i] = 1;
        out.push(i);
      }
    }
    return out;
  }

  /**
   * Accumulates the concepts into `c`: every document matching any term of any concept is matched; its score
   * is the weighted BM25+ sum, its coverage the idf-weighted share of concepts matched by their best reading.
   */
  retrieve(concepts: readonly Concept[], c: Candidates): void {
    const { scores, coverage, titleCoverage, best, bestTitle, isMatched, isTouched, matched, touched } = c;
    let matchedCount = c.matchedCount;
    // coverage is the share of the *query's* concepts matched: the agent's keywords are alternatives that add to it
    // (standing in for a query word the API does not use) but are not part of the whole, so a missing keyword costs
    // nothing. In the whole, one rare keyword ("history" beside "list payments account") held a third of the weight,
    // and the operation matching every word of the query lost to one on notification *histories*. Measured in
    // docs/notes/SEARCH-ROUNDS.md (round 8).
    const table = this.table;
    let totalIdf = 0;
    for (const x of concepts) if (!x.keyword) totalIdf += x.idf * x.weight;
    totalIdf ||= 1;
    for (const concept of concepts) {
      const weight = concept.idf * concept.weight;
      let touchedCount = 0;
      for (const [term, w] of concept.terms) {
        // a restored index reads its posting table in place (no views, no cache: a search's terms cost no garbage
        // and no long-lived objects for the collector to copy); a built one its cached hits
        const row = table === undefined ? undefined : (this.rows as Map<string, number>).get(term);
        if (table !== undefined && row === undefined) continue;
        const hits = table === undefined ? this.termHits(term) : table;
        const from = row === undefined ? 0 : (table as PostingTable).start[row] as number;
        const to = row === undefined ? hits.ids.length : (table as PostingTable).start[row + 1] as number;
        const ww = w * concept.weight;
        for (let h = from; h < to; h++) {
          const i = hits.ids[h] as number;
          // each document once per concept, however many of its terms hit it: a hit that leaves best at 0 (a
          // response field only) must not list it again, or `touched` overflows and stale bests leak into the
          // next query's coverage
          if (isTouched[i] === 0) {
            isTouched[i] = 1;
            touched[touchedCount++] = i;
          }
          if (isMatched[i] === 0) {
            isMatched[i] = 1;
            matched[matchedCount++] = i;
          }
          scores[i] = (scores[i] as number) + ww * (hits.scores[h] as number);
          // coverage counts the best reading that matched: the word itself 1, a family member less
          const flags = hits.title[h] as number;
          best[i] = Math.max(best[i] as number, flags & HIT_ONLY_RETURNS ? w * RETURNS_COVERAGE : w);
          if (flags & HIT_TITLE) bestTitle[i] = Math.max(bestTitle[i] as number, w);
        }
      }
      for (let m = 0; m < touchedCount; m++) {
        const i = touched[m] as number;
        // at most 1: a keyword adds to a share, it does not make an operation cover more than the whole query
        coverage[i] = Math.min(1, (coverage[i] as number) + ((best[i] as number) * weight) / totalIdf);
        titleCoverage[i] = Math.min(1, (titleCoverage[i] as number) + ((bestTitle[i] as number) * weight) / totalIdf);
        best[i] = 0;
        bestTitle[i] = 0;
        isTouched[i] = 0;
      }
    }
    c.matchedCount = matchedCount;
  }
}
