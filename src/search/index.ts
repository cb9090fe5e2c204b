// The search index behind `search_tools`, as a pipeline: analysis (lexicon.ts, features.ts, query.ts,
// sentence.ts) -> lexical retrieval (lexical.ts) -> fusion (fusion.ts) -> re-ranking signals (signals.ts,
// rank.ts). This file wires the stages (a query's scratch marks: marks.ts), checks options and shapes hits. Deterministic, offline, bounded cost for
// any input. Prints nothing.
import { AppError } from '../errors.js';
import type { DomainInfo, Operation } from '../types.js';
import { DocCards } from './cards.js';
import { DomainFilter, type Scope } from './domain-filter.js';
import { computeFeatures, resourceHeadTerms, type FeatureTables } from './features.js';
import { Candidates, LexicalRetriever } from './lexical.js';
import { reciprocalRankFusion } from './fusion.js';
import { Lexicon } from './lexicon.js';
import { MAX_QUERY_CHARS, readingOf, type QueryReading } from './query.js';
import { suggestFor } from './suggest.js';
import { analyzeQuery } from './units.js';
import { activeSignals, rankCandidates, type HitExplanation, type Ranked } from './rank.js';
import { COVERAGE_POWER, DEFAULT_COVERAGE_POWER, type SignalContext } from './signals.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot.js';
import { changedBuildKnob, defaultTuning, type SearchTuning } from './tuning.js';
import { DomainReach } from './widen.js';
import { stripNoise } from './text.js';
import { summaryKey, titleDocs, titleKey } from './titles.js';
import { loadEnglish } from './english.js';
import { QueryMarks } from './marks.js';

export { swapsNeighbours } from './lexicon.js';
export { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from './query.js';
export type { HitExplanation } from './rank.js';
export type { QueryReading } from './query.js';
export { SIGNALS } from './signals.js';
export { DEFAULT_TUNING, type SearchTuning } from './tuning.js';

export interface SearchOptions {
  /**
   * This domain's operations, and a little lower those of other domains whose path names its resource
   * (`tuning.domainReach`; an empty query browses the domain alone). Unknown domain: AppError UNKNOWN_DOMAIN.
   */
  domain?: string;
  /**
   * Only these domains' operations (a group of domains: a catalog's, a prefix's), each ranked and scored as the
   * search without a domain ranks it, so the answer is the unscoped one less the other domains' (no reach); `total`
   * counts the set's matches. An empty query browses the set in name order (when nothing at all matches: keywords
   * alone can match). Not with `domain`; an unknown name: AppError UNKNOWN_DOMAIN.
   */
  domains?: ReadonlySet<string> | readonly string[];
  /** Page size; default 10, at most {@link MAX_LIMIT}. */
  limit?: number;
  /** Results to skip; default 0. */
  offset?: number;
  /** Attach each hit's retrieval score and per-signal factors (`SearchHit.explain`). */
  explain?: boolean;
  /**
   * Words the API may use for the same thing (synonyms, the resource's likely names). They widen recall at a
   * lower weight than the query's own words, so they never dilute it (docs/SEARCH.md, "keywords").
   */
  keywords?: readonly string[];
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
  /** With `explain: true`: how the query was read. */
  reading?: QueryReading;
  /** With `explain: true`: what the retrieval score and each signal that ranked read, with the weights in use. */
  signals?: Array<{ name: string; reads: string }>;
  /**
   * With `explain: true`, when the ranker pruned (rank.ts): of the `candidates`, how many it `scored` with every
   * signal; the others could not reach the page, so the costly signals skipped them. The ranking is the same.
   */
  pruning?: { candidates: number; scored: number };
}

/** Largest page. */
export const MAX_LIMIT = 50;
export { MAX_KEYWORDS } from './query.js';
/**
 * Below this best score an answer is a weak match. The best score is the share of the query's concepts the best
 * operation covers, so this is also "low coverage". Measured (docs/notes/SEARCH-ROUNDS.md): on the tuning sets in the user's
 * words, queries under 0.4 have R@1 0.43 (0.68 above); on agent-style sets 4% fall under it, R@1 0.33 there.
 */
export const LOW_CONFIDENCE_SCORE = 0.4;
const DEFAULT_LIMIT = 10;
/** What {@link SearchIndex.warm} searches: an agent's call with keywords, a request in people's words with typos, a
 * question, a multi-step request, a literal value, and explain. Generic English, no API's words. */
const WARM_UP: ReadonlyArray<[string, SearchOptions]> = [
  ['list items', { keywords: ['entries', 'records'] }],
  ['cancle the subscripton for my acount and then email bob@example.com', {}],
  ['which files do we have in the shared folder?', { limit: 25 }],
  ['get item', { explain: true }],
];

/** The built stages of an index (what a snapshot restores). */
export interface IndexParts {
  /** What answers show of each document (name order); the operations themselves stay out of the index. */
  cards: DocCards;
  domains: readonly DomainInfo[];
  tuning: SearchTuning;
  lexicon: Lexicon;
  tables: FeatureTables;
  retriever: LexicalRetriever;
}


/** The best documents of a search, how many matched, and (explain) how the query was read. */
interface RankedPage {
  total: number;
  /** How many documents match in all domains (the unscoped total). */
  all: number;
  top: Ranked[];
  reading?: QueryReading;
  pruning?: { candidates: number; scored: number };
}

/** Operations in name order: a document's number is its place in that order. */
function nameOrder(operations: readonly Operation[]): Operation[] {
  return [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export class SearchIndex {
  private readonly cards: DocCards;
  private readonly domains: readonly DomainInfo[];
  /** Which documents a search keeps (domain-filter.ts). */
  private readonly filter: DomainFilter;
  private readonly tuning: SearchTuning;
  private readonly lexicon: Lexicon;
  private readonly tables: FeatureTables;
  private readonly retriever: LexicalRetriever;
  private readonly candidates: Candidates;
  /** The terms and documents one query holds, for the signals (marks.ts). */
  private readonly marks: QueryMarks;
  /** The index terms that are some operation's resource head, built on first use. */
  private headTermSet: ReadonlySet<string> | undefined;
  /** Operations a domain reaches beyond itself (widen.ts). */
  private readonly reach: DomainReach;

  private constructor(parts: IndexParts) {
    this.cards = parts.cards;
    this.domains = parts.domains;
    this.tuning = parts.tuning;
    this.lexicon = parts.lexicon;
    this.tables = parts.tables;
    this.retriever = parts.retriever;
    this.filter = new DomainFilter(parts.domains, parts.tables.domainList, parts.tables.features.domain);
    this.candidates = new Candidates(parts.cards.length);
    this.marks = new QueryMarks(parts.tables.termIds.size, parts.cards.length);
    const { features, domainList } = parts.tables;
    this.reach = new DomainReach(parts.cards, parts.lexicon, (i) => domainList[features.domain[i] as number] as string);
  }

  /**
   * Builds the index over a catalog's operations. `tuning` is for measurement only; the server uses the
   * defaults. Cost: ~linear in the text size (see docs/notes/SEARCH-ROUNDS.md for GitHub's numbers).
   */
  static build(operations: readonly Operation[], domains: readonly DomainInfo[], tuning: Partial<SearchTuning> = {}): SearchIndex {
    // the learned weights of the build in use (semantic.ts: built in, or API_CATALOG_SEMANTIC_DIR)
    const t: SearchTuning = { ...defaultTuning(), ...tuning };
    const docs = nameOrder(operations);
    const lexicon = new Lexicon(t.stem);
    for (const op of docs) lexicon.addProse(`${op.summary} ${stripNoise(op.description)}${op.keywords ? ` ${op.keywords.join(' ')}` : ''}`);
    for (const d of domains) lexicon.addProse(d.description);
    const tables = computeFeatures(docs, lexicon);
    const retriever = LexicalRetriever.build(docs, domains, lexicon, tables.features, tables.termIds, t.boosts, t.descriptionWords);
    lexicon.finish();
    return new SearchIndex({ cards: DocCards.fromOperations(docs), domains, tuning: t, lexicon, tables, retriever });
  }

  /**
   * The built index as bytes (binary layout, see snapshot.ts): restored by {@link fromSnapshot} with the same
   * operations and domains, it ranks every query exactly as this index does, without re-analyzing the catalog.
   */
  toSnapshot(): Uint8Array {
    return encodeSnapshot({
      cards: this.cards, domains: this.domains, tuning: this.tuning, lexicon: this.lexicon, tables: this.tables, retriever: this.retriever,
    });
  }

  /**
   * An index restored from {@link toSnapshot}'s bytes, for the catalog it was built from. `operations`, when
   * given, are checked against the documents the snapshot holds (different ones: AppError REGISTRY_STALE); when
   * not, the caller vouches for them (a server checks the registry's content hash, so a search never has to read
   * the operations). Damaged bytes: REGISTRY_INVALID.
   */
  static fromSnapshot(bytes: Uint8Array, operations: readonly Operation[] | undefined, domains: readonly DomainInfo[]): SearchIndex {
    const parts = decodeSnapshot(bytes, domains);
    const knob = changedBuildKnob(parts.tuning);
    if (knob !== undefined) {
      throw new AppError('REGISTRY_STALE', `search snapshot: built with other index settings than this build's (${knob}); re-import the catalog`);
    }
    if (operations !== undefined && !parts.cards.equals(DocCards.fromOperations(nameOrder(operations)))) {
      throw new AppError('REGISTRY_STALE', 'search snapshot: built from other operations than the catalog being loaded; re-import the catalog');
    }
    // build-time knobs are this build's (checked above), and query-time knobs are this build's defaults too: a
    // snapshot written by an older build must rank as a fresh build of this one would, not with the old weights
    return new SearchIndex({ ...parts, tuning: defaultTuning() });
  }

  /**
   * Readies what a first search would otherwise pay for (the English word lists the typo reading loads on first use,
   * and compiled code for every stage: a few searches of each kind, results thrown away). Call in idle time, e.g.
   * after the index is restored; a search never needs it. About 30-60 ms.
   */
  warm(): void {
    try {
      loadEnglish();
      const domain = this.domains[0]?.name;
      for (const [query, options] of WARM_UP) {
        this.search(query, options);
        if (domain !== undefined) this.search(query, { ...options, domain });
      }
    } catch {
      // nothing a later search needs: it reports its own errors
    }
  }

  /**
   * The same index ranking with other query-time knobs (units or signals left out, the mined weight...): for
   * measurements (ablations, learning), without building it again. Build-time knobs are this index's.
   */
  withQueryTuning(tuning: Partial<Pick<SearchTuning, 'disabledUnits' | 'disabledSignals' | 'minedWeight' | 'familyWeight' | 'signalWeights' | 'rerank' | 'pruneAbove'>>): SearchIndex {
    return new SearchIndex({
      cards: this.cards, domains: this.domains, tuning: { ...this.tuning, ...tuning }, lexicon: this.lexicon, tables: this.tables, retriever: this.retriever,
    });
  }

  /** Number of indexed operations. */
  get size(): number {
    return this.cards.length;
  }

  /** Names of all indexed operations, in name order. */
  names(): string[] {
    return this.cards.names();
  }

  /** The domain of the operation named `name`, or undefined when the index has no such operation. */
  domainOf(name: string): string | undefined {
    const i = this.cards.indexOf(name);
    return i < 0 ? undefined : this.cards.domain(i);
  }

  /**
   * Ranked operations for a request in the user's words. An exact operation name, operationId or
   * `METHOD /path` ranks that operation first. Empty query with `domain`: browse the domain in name order.
   * Never throws for any query text; throws AppError UNKNOWN_DOMAIN for an unknown `domain` or `domains` name.
   */
  search(query: string, options: SearchOptions = {}): SearchResult {
    const scope = this.filter.scope(options.domain, options.domains);
    const limit = Math.min(Math.max(Math.floor(options.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT) || DEFAULT_LIMIT;
    const offset = Math.min(Math.max(Math.floor(options.offset ?? 0), 0), this.cards.length) || 0;

    const keywords = (options.keywords ?? []).filter((k) => typeof k === 'string' && k.trim() !== '');
    const ranked = keywords.length > 0 && this.tuning.keywordMode === 'fuse' && query.trim() !== ''
      ? this.fused(query, keywords, offset + limit, scope, options.explain === true)
      : this.rank(query, offset + limit, scope, options.explain === true, keywords);
    // browse when nothing matches (a set: nothing in any domain, as the unscoped search, which browses, would say)
    if ((scope.inSet ? ranked.all : ranked.total) === 0 && query.trim() === '') {
      const all: number[] = [];
      for (let i = 0; i < this.cards.length; i++) if (this.filter.keeps(scope, i)) all.push(i);
      return { total: all.length, results: all.slice(offset, offset + limit).map((i) => this.hit({ i, score: 1 })) };
    }
    const results = ranked.top.slice(offset, offset + limit).map((r) => this.hit(r));
    return {
      total: ranked.total, results, ...(ranked.reading ? { reading: ranked.reading, signals: this.signalsRead() } : {}), ...(ranked.pruning ? { pruning: ranked.pruning } : {}),
    };
  }

  /** The retrieval score and each active signal, as they read with this index's weights and knobs (explain). */
  signalsRead(): Array<{ name: string; reads: string }> {
    const t = this.tuning;
    const w = t.signalWeights;
    const tuning = {
      precisionWeight: t.precisionWeight, namePrecisionShare: t.namePrecisionShare, primaryBoost: t.primaryBoost, headBoost: t.headBoost, exactTitleBoost: t.exactTitleBoost,
      coveragePower: w[COVERAGE_POWER] ?? DEFAULT_COVERAGE_POWER, longRequestConcepts: t.longRequestConcepts,
    };
    const retrieval = w.retrieval ?? 1;
    return [
      { name: 'retrieval', reads: `BM25+ over the weighted fields, summed over the query's concepts${retrieval === 1 ? '' : `, ^${retrieval} (learned)`}` },
      ...activeSignals(t.disabledSignals, t.rerank).map((s) => ({ name: s.name, reads: s.reads(w[s.name] ?? 1, tuning) })),
    ];
  }

  private hit(r: Ranked): SearchHit {
    const card = this.cards.at(r.i);
    const hit: SearchHit = {
      name: card.name,
      domain: card.domain,
      summary: card.summary,
      requiredParams: card.requiredParams,
      score: Math.round(r.score * 1000) / 1000,
    };
    if (r.explain) hit.explain = r.explain;
    return hit;
  }

  /** Keywords as a second retrieval fused by reciprocal rank with the query's (tuning.keywordMode `fuse`). */
  private fused(query: string, keywords: readonly string[], k: number, scope: Scope, explain: boolean): RankedPage {
    const depth = Math.max(k, 50);
    const main = this.rank(query, depth, scope, explain);
    const alt = this.rank(keywords.join(' '), depth, scope, false);
    const fused = reciprocalRankFusion([{ ids: main.top.map((r) => r.i), weight: 1 }, { ids: alt.top.map((r) => r.i), weight: this.tuning.keywordWeight }]);
    const byDoc = new Map(main.top.map((r) => [r.i, r]));
    const best = fused[0]?.score ?? 1;
    const conf = main.top[0]?.score ?? 0;
    const top = fused.slice(0, k).map((f) => ({ ...(byDoc.get(f.i) ?? { i: f.i }), score: (f.score / best) * conf }));
    return { total: Math.max(main.total, alt.total), all: Math.max(main.all, alt.all), top, ...(main.reading ? { reading: main.reading } : {}), ...(main.pruning ? { pruning: main.pruning } : {}) };
  }

  /**
   * The best `k` matching documents of the scope (its domain, its set of domains, or all), best first, scores 0..1,
   * ties broken by name (K4), and how many documents match in it and in all. The pipeline: analyze the query,
   * retrieve (lexical), re-rank every candidate with the signals, keep the best k.
   */
  private rank(query: string, k: number, scope: Scope, explain: boolean, keywords: readonly string[] = []): RankedPage {
    const { domain, inSet } = scope;
    const trimmed = query.slice(0, MAX_QUERY_CHARS).trim();
    if (trimmed === '' && keywords.length === 0) return { total: 0, all: 0, top: [] };
    const t = this.tuning;
    const signals = activeSignals(t.disabledSignals, t.rerank);
    const readObject = t.primaryBoost !== 1 && signals.some((s) => s.name === 'primary-resource');
    const plan = analyzeQuery(trimmed, this.lexicon, this.cards.length, {
      familyWeight: t.familyWeight, minedWeight: t.minedWeight, disabledUnits: t.disabledUnits, readObject,
      keywordMode: t.keywordMode === 'concepts' ? 'concepts' : 'concept', keywordWeight: t.keywordWeight, keywordPrecision: t.keywordPrecision,
    }, keywords, this.tables.scopes, explain);
    // an exact name, as typed or as the typos unit spelt it ("creeate personal list" names "Create personal list")
    const exactIndex = this.cards.match(trimmed) ?? (plan.corrected !== undefined ? this.cards.match(plan.corrected) : undefined);
    this.retriever.retrieve(plan.concepts, this.candidates);
    const marked = this.marks.mark(plan, this.tables.termIds, (m) => this.markReturns(plan.headTerms[0], m), (m) => this.markTitles(plan.words, m));
    const ctx: SignalContext = {
      plan, features: this.tables.features, scopes: this.tables.scopes, candidates: this.candidates, ...marked,
      tuning: {
        precisionWeight: t.precisionWeight, namePrecisionShare: t.namePrecisionShare, primaryBoost: t.primaryBoost, headBoost: t.headBoost, exactTitleBoost: t.exactTitleBoost,
        coveragePower: t.signalWeights[COVERAGE_POWER] ?? DEFAULT_COVERAGE_POWER, longRequestConcepts: t.longRequestConcepts,
      },
    };
    const domainCode = scope.code;
    const reached = domain !== undefined && t.domainReach > 0 ? this.reach.mark(domain) : undefined;
    const reach = reached && { mask: reached.mask, factor: t.domainReach };
    try {
      const { total, top, scored } = rankCandidates({
        ctx, signals, weights: t.signalWeights, k, domainCode, exactIndex, explain, pruneAbove: t.pruneAbove, ...(reach ? { reach } : {}), ...(inSet ? { inSet } : {}),
      });
      const pruning = explain && scored !== undefined ? { pruning: { candidates: this.candidates.matchedCount, scored } } : {};
      const all = this.candidates.matchedCount + (exactIndex !== undefined && this.candidates.isMatched[exactIndex] !== 1 ? 1 : 0);
      return { total, all, top, ...(explain ? { reading: readingOf(plan) } : {}), ...pruning };
    } finally {
      this.marks.clear();
      reached?.clear();
      this.candidates.clear();
    }
  }

  /** Marks in `marks` the operations whose summary the query's words say (titles.ts): the ids marked, for clearing. */
  private markTitles(words: readonly string[], marks: Uint8Array): readonly number[] {
    if (this.tuning.exactTitleBoost === 1) return [];
    const lexicon = this.lexicon;
    const docs = titleDocs(this.tables.features, titleKey(words, lexicon), (i) => summaryKey(this.cards.at(i).summary, lexicon));
    for (const i of docs) marks[i] = 1;
    return docs;
  }

  /** Marks in `marks` the operations whose response has the request's head noun as a datum (features.ts, returnsDatum). */
  private markReturns(head: string | undefined, marks: Uint8Array): number[] {
    this.headTermSet ??= resourceHeadTerms(this.tables);
    return head === undefined || this.headTermSet.has(head) ? [] : this.retriever.markReturnsOnly(head, marks);
  }

  /**
   * Help for "no results": domains whose name or description share words with the query, and spelling
   * corrections or, for a name-like query, the closest operation names (suggest.ts). Only corrections that find
   * something (in `domain` or `domains` when given) are offered: one that finds nothing too sends the caller around in a circle.
   */
  suggest(query: string, options: Pick<SearchOptions, 'domain' | 'domains'> = {}): { domains: string[]; didYouMean: string[] } {
    const s = suggestFor(query, this.lexicon, this.domains, () => this.cards.names());
    const scope = { ...(options.domain !== undefined ? { domain: options.domain } : {}), ...(options.domains !== undefined ? { domains: options.domains } : {}) };
    return { ...s, didYouMean: s.didYouMean.filter((q) => this.search(q, { ...scope, limit: 1 }).total > 0) };
  }

  /** The domains {@link suggest} offers, without its corrections (a weak match's "browse" hint). */
  suggestDomains(query: string): string[] {
    return suggestFor(query, this.lexicon, this.domains, () => []).domains;
  }
}
