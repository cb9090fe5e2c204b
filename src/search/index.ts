// The search index behind `search_tools`, as a pipeline: analysis (lexicon.ts, features.ts, query.ts) -> lexical
// retrieval (lexical.ts) -> fusion (fusion.ts) -> re-ranking signals (signals.ts, rank.ts). This file wires the
// stages, checks options and shapes hits. Deterministic, offline, bounded cost for any input. Prints nothing.
import { AppError } from '../errors.js';
import { suggestNames } from '../registry/catalog.js';
import type { DomainInfo, Operation } from '../types.js';
import { computeFeatures, pathKey, type FeatureTables } from './features.js';
import { Candidates, LexicalRetriever, type IndexField } from './lexical.js';
import { Lexicon } from './lexicon.js';
import { analyzeQuery, MAX_QUERY_CHARS, queryWords } from './query.js';
import { activeSignals, rankCandidates, type HitExplanation, type Ranked } from './rank.js';
import type { SignalContext } from './signals.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot.js';
import { stripNoise, type StemMode } from './text.js';

export { swapsNeighbours } from './lexicon.js';
export { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from './query.js';
export type { HitExplanation } from './rank.js';
export { SIGNALS } from './signals.js';

export interface SearchOptions {
  /** Only operations of this domain. Unknown domain: AppError UNKNOWN_DOMAIN. */
  domain?: string;
  /** Page size; default 10, at most {@link MAX_LIMIT}. */
  limit?: number;
  /** Results to skip; default 0. */
  offset?: number;
  /** Attach each hit's retrieval score and per-signal factors (`SearchHit.explain`). */
  explain?: boolean;
}
export interface SearchHit {
  name: string;
  domain: string;
  summary: string;
  requiredParams: string[];
  /** Relevance, 0..1 (1 = exact name match or the best possible match). */
  score: number;
  /** With `explain: true`: why the hit ranks here. */
  explain?: HitExplanation;
}
export interface SearchResult {
  results: SearchHit[];
  /** Number of matching operations (before paging). */
  total: number;
}

/** Largest page. */
export const MAX_LIMIT = 50;
const DEFAULT_LIMIT = 10;

/** Ranking knobs. Defaults are the measured best (docs/SEARCH.md); exposed for measurement only. */
export interface SearchTuning {
  stem: StemMode;
  boosts: Record<IndexField, number>;
  /** Weight of a family member relative to the query word itself. */
  familyWeight: number;
  /** Read query words the index does not know as the closest word it knows (typos). */
  fuzzyUnknown: boolean;
  /** Words of the description that are indexed (long descriptions are mostly noise). */
  descriptionWords: number;
  /** Use the re-ranking signals (off = plain BM25 sum over concepts). */
  rerank: boolean;
  /** Signals (by name, see SIGNALS) left out, for ablation measurements. */
  disabledSignals: readonly string[];
  /** How much the share of an operation's title words that the query explains counts (0..1). */
  precisionWeight: number;
  /** Share of the precision signal read from the name alone (rest: name + summary). */
  namePrecisionShare: number;
  /**
   * Factor for an operation whose primary resource (last plain path segment) the request's object names.
   * Measured and off (1): it helped GitLab/Kubernetes/holdout but cost Square and Slack (docs/SEARCH.md).
   */
  primaryBoost: number;
}

export const DEFAULT_TUNING: SearchTuning = {
  stem: 'porter',
  boosts: { name: 3, summary: 3, path: 1.5, domain: 1, tags: 1, params: 0.5, description: 0.7, domainText: 0.3 },
  familyWeight: 0.4,
  fuzzyUnknown: true,
  descriptionWords: 120,
  rerank: true,
  disabledSignals: [],
  precisionWeight: 0.7,
  namePrecisionShare: 0.5,
  primaryBoost: 1,
};

const METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The built stages of an index (what a snapshot restores). */
export interface IndexParts {
  docs: readonly Operation[];
  domains: readonly DomainInfo[];
  tuning: SearchTuning;
  lexicon: Lexicon;
  tables: FeatureTables;
  retriever: LexicalRetriever;
}

/** Operations in name order: a document's number is its place in that order. */
function nameOrder(operations: readonly Operation[]): Operation[] {
  return [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export class SearchIndex {
  private readonly docs: readonly Operation[];
  private readonly domains: readonly DomainInfo[];
  private readonly domainNames: Set<string>;
  private readonly domainCodes: Map<string, number>;
  private readonly tuning: SearchTuning;
  private readonly lexicon: Lexicon;
  private readonly tables: FeatureTables;
  private readonly retriever: LexicalRetriever;
  private readonly candidates: Candidates;
  /** `queryMarks[id]` is 1 while a query holds title/name term `id`; `objectMarks` likewise for its object. */
  private readonly queryMarks: Uint8Array;
  private readonly objectMarks: Uint8Array;

  private constructor(parts: IndexParts) {
    this.docs = parts.docs;
    this.domains = parts.domains;
    this.domainNames = new Set(parts.domains.map((d) => d.name));
    this.tuning = parts.tuning;
    this.lexicon = parts.lexicon;
    this.tables = parts.tables;
    this.retriever = parts.retriever;
    this.domainCodes = new Map(parts.tables.domainList.map((d, k) => [d, k]));
    this.candidates = new Candidates(parts.docs.length);
    this.queryMarks = new Uint8Array(parts.tables.termIds.size);
    this.objectMarks = new Uint8Array(parts.tables.termIds.size);
  }

  /**
   * Builds the index over a catalog's operations. `tuning` is for measurement only; the server uses the
   * defaults. Cost: ~linear in the text size (see docs/SEARCH.md for GitHub's numbers).
   */
  static build(operations: readonly Operation[], domains: readonly DomainInfo[], tuning: Partial<SearchTuning> = {}): SearchIndex {
    const t: SearchTuning = { ...DEFAULT_TUNING, ...tuning };
    const docs = nameOrder(operations);
    const lexicon = new Lexicon(t.stem);
    for (const op of docs) lexicon.addProse(`${op.summary} ${stripNoise(op.description)}`);
    for (const d of domains) lexicon.addProse(d.description);
    const tables = computeFeatures(docs, lexicon);
    const retriever = LexicalRetriever.build(docs, domains, lexicon, tables.features, tables.termIds, t.boosts, t.descriptionWords);
    lexicon.finish();
    return new SearchIndex({ docs, domains, tuning: t, lexicon, tables, retriever });
  }

  /**
   * The built index as bytes (binary layout, see snapshot.ts): restored by {@link fromSnapshot} with the same
   * operations and domains, it ranks every query exactly as this index does, without re-analyzing the catalog.
   */
  toSnapshot(): Uint8Array {
    return encodeSnapshot({
      docs: this.docs, domains: this.domains, tuning: this.tuning, lexicon: this.lexicon, tables: this.tables, retriever: this.retriever,
    });
  }

  /**
   * An index restored from {@link toSnapshot}'s bytes. `operations`/`domains` must be the catalog it was built
   * from: a different operation list is AppError REGISTRY_STALE, damaged bytes REGISTRY_INVALID.
   */
  static fromSnapshot(bytes: Uint8Array, operations: readonly Operation[], domains: readonly DomainInfo[]): SearchIndex {
    return new SearchIndex(decodeSnapshot(bytes, nameOrder(operations), domains));
  }

  /** Number of indexed operations. */
  get size(): number {
    return this.docs.length;
  }

  /**
   * Ranked operations for a request in the user's words. An exact operation name, operationId or
   * `METHOD /path` ranks that operation first. Empty query with `domain`: browse the domain in name order.
   * Never throws for any query text; throws AppError UNKNOWN_DOMAIN for an unknown `domain`.
   */
  search(query: string, options: SearchOptions = {}): SearchResult {
    const domain = options.domain;
    if (domain !== undefined && domain !== '' && !this.domainNames.has(domain)) {
      const close = suggestNames(domain, [...this.domainNames]);
      throw new AppError(
        'UNKNOWN_DOMAIN',
        `search: unknown domain ${JSON.stringify(domain.slice(0, 100))}` +
          (close.length > 0 ? `; did you mean ${close.map((c) => JSON.stringify(c)).join(', ')}?` : '') +
          '; call list_domains for the valid names',
        { details: { domain: domain.slice(0, 100), suggestions: close } },
      );
    }
    const limit = Math.min(Math.max(Math.floor(options.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT) || DEFAULT_LIMIT;
    const offset = Math.min(Math.max(Math.floor(options.offset ?? 0), 0), this.docs.length) || 0;
    const inDomain = (i: number): boolean => !domain || this.docs[i]?.domain === domain;

    const ranked = this.rank(query, offset + limit, domain || undefined, options.explain === true);
    if (ranked.total === 0 && query.trim() === '') {
      const all: number[] = [];
      this.docs.forEach((_, i) => {
        if (inDomain(i)) all.push(i);
      });
      return { total: all.length, results: all.slice(offset, offset + limit).map((i) => this.hit({ i, score: 1 })) };
    }
    return { total: ranked.total, results: ranked.top.slice(offset, offset + limit).map((r) => this.hit(r)) };
  }

  private hit(r: Ranked): SearchHit {
    const op = this.docs[r.i] as Operation;
    const hit: SearchHit = {
      name: op.name,
      domain: op.domain,
      summary: op.summary,
      requiredParams: [...(op.inputSchema.required ?? [])],
      score: Math.round(r.score * 1000) / 1000,
    };
    if (r.explain) hit.explain = r.explain;
    return hit;
  }

  /**
   * The best `k` matching documents of `domain` (all domains when undefined), best first, scores 0..1, ties
   * broken by name (K4), and how many documents match in all. The pipeline: analyze the query, retrieve
   * (lexical), re-rank every candidate with the signals, keep the best k.
   */
  private rank(query: string, k: number, domain: string | undefined, explain: boolean): { total: number; top: Ranked[] } {
    const trimmed = query.slice(0, MAX_QUERY_CHARS).trim();
    if (trimmed === '') return { total: 0, top: [] };
    const exactIndex = this.exactMatch(trimmed);
    const t = this.tuning;
    const signals = activeSignals(t.disabledSignals, t.rerank);
    const readObject = t.primaryBoost !== 1 && signals.some((s) => s.name === 'primary-resource');
    const plan = analyzeQuery(trimmed, this.lexicon, this.docs.length, { familyWeight: t.familyWeight, fuzzyUnknown: t.fuzzyUnknown, readObject });
    this.retriever.retrieve(plan.concepts, this.candidates);
    const { queryMarks, objectMarks } = this;
    const termIds = this.tables.termIds;
    const marked: number[] = [];
    for (const term of plan.queryTerms) {
      const id = termIds.get(term);
      if (id !== undefined) {
        queryMarks[id] = 1;
        marked.push(id);
      }
    }
    const objectIds: number[] = [];
    for (const term of plan.objectTerms) {
      const id = termIds.get(term);
      if (id !== undefined && objectMarks[id] === 0) {
        objectMarks[id] = 1;
        objectIds.push(id);
      }
    }
    const ctx: SignalContext = {
      plan, features: this.tables.features, candidates: this.candidates, queryMarks, objectMarks, objectCount: objectIds.length,
      tuning: { precisionWeight: t.precisionWeight, namePrecisionShare: t.namePrecisionShare, primaryBoost: t.primaryBoost },
    };
    const domainCode = domain === undefined ? -1 : (this.domainCodes.get(domain) ?? -2);
    try {
      const { total, top } = rankCandidates({ ctx, signals, k, domainCode, exactIndex, explain });
      return { total, top };
    } finally {
      for (const id of marked) queryMarks[id] = 0;
      for (const id of objectIds) objectMarks[id] = 0;
      this.candidates.clear();
    }
  }

  /** The operation named exactly by the query (name, operationId or `METHOD /path`), if any. */
  private exactMatch(query: string): number | undefined {
    const exact = this.tables.exact;
    const q = query.toLowerCase();
    const direct = exact.get(q);
    if (direct !== undefined) return direct;
    const m = /^([a-z]+)\s+(\/\S*)$/.exec(q);
    if (m && METHODS.has(m[1] as string)) {
      const path = (m[2] as string).split('?')[0] as string;
      const byTemplate = exact.get(pathKey(m[1] as string, path));
      if (byTemplate !== undefined) return byTemplate;
      // a concrete path (`GET /repos/octo/hello/issues`): match segment by segment against templates
      const segs = path.split('/');
      for (let i = 0; i < this.docs.length; i++) {
        const op = this.docs[i] as Operation;
        if (op.method !== m[1]) continue;
        const tsegs = op.path.toLowerCase().split('/');
        if (tsegs.length === segs.length && tsegs.every((t, k) => t === segs[k] || (t.startsWith('{') && segs[k] !== ''))) {
          return i;
        }
      }
    }
    return undefined;
  }

  /**
   * Help for "no results": domains whose name or description share words with the query, and
   * spelling corrections (the query with unknown words replaced by the closest indexed word) or, for
   * a name-like query, the closest operation names.
   */
  suggest(query: string): { domains: string[]; didYouMean: string[] } {
    const lex = this.lexicon;
    const words = queryWords(query.trim(), lex);
    const terms = new Set(words.flatMap((w) => lex.analyze(w)));
    const domains: Array<{ name: string; hits: number }> = [];
    for (const d of this.domains) {
      const dterms = new Set(lex.terms(`${d.name} ${d.description}`));
      let hits = 0;
      for (const t of terms) if (dterms.has(t)) hits++;
      if (hits > 0) domains.push({ name: d.name, hits });
    }
    domains.sort((a, b) => b.hits - a.hits || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const didYouMean: string[] = [];
    const trimmed = query.trim().slice(0, 128);
    if (trimmed !== '' && !/\s/.test(trimmed)) {
      didYouMean.push(...suggestNames(trimmed, this.docs.map((op) => op.name)));
    }
    const corrected = words.map((w) => lex.correct(w));
    if (corrected.some((c, k) => c !== words[k])) {
      const text = corrected.join(' ');
      if (!didYouMean.includes(text)) didYouMean.push(text);
    }
    return { domains: domains.slice(0, 5).map((d) => d.name), didYouMean: didYouMean.slice(0, 5) };
  }
}
