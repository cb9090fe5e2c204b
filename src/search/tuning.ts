// The ranking knobs of a search index and their defaults (the measured best, docs/SEARCH.md): which are fixed
// when an index is built (a snapshot built with others is refused) and which apply per query, with the learned
// signal weights of the build in use (semantic.ts). Types and constants; reads nothing.
import type { IndexField } from './lexical.js';
import { rankingWeights } from './semantic.js';
import type { StemMode } from './text.js';
import { LEARNED_WEIGHTS } from './weights.js';

/** Ranking knobs. Defaults are the measured best (docs/SEARCH.md); exposed for measurement only. */
export interface SearchTuning {
  stem: StemMode;
  boosts: Record<IndexField, number>;
  /** Weight of a family member relative to the query word itself. */
  familyWeight: number;
  /**
   * Weight of a word's mined alternatives (words/mined.json, the `mined` unit); 0: off. The similar resource words
   * alone moved nothing on the tuning sets (one up, two down at 0.2 and 0.4); with the aligned names beside them, at
   * 0.3 the tuning sets gain (agent calls .976 -> .978 MRR; 5 queries up, 2 down) and no held-out set loses (docs/SEARCH.md).
   */
  minedWeight: number;
  /** Analysis units (units.ts, by name) left out, for ablation measurements (`typos`, `families`, ...). */
  disabledUnits: readonly string[];
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
   * Measured and off (1): it helped GitLab/Kubernetes/holdout but cost Square and Slack (docs/notes/SEARCH-ROUNDS.md).
   */
  primaryBoost: number;
  /**
   * Factor for an operation whose resource's head noun (`nodes` in `/nodebalancers/{id}/configs/{c}/nodes`) is the
   * head noun of the request's object ("add nodebalancer backend node"). Measured in docs/notes/SEARCH-ROUNDS.md; 1 = off.
   */
  headBoost: number;
  /**
   * Factor for an operation whose summary the query says word for word (titles.ts, the `exact-title` signal). Chosen
   * on the tuning sets: 1.2 gained 2 agent calls, 1.5 and 2 the same 5, nothing down (docs/SEARCH.md); 1 = off.
   */
  exactTitleBoost: number;
  /**
   * A request of at least this many concepts of its own (the agent's keywords aside) counts the share of it an
   * operation covers linearly, not squared (signals.ts, LONG_REQUEST_COVERAGE_POWER): a sentence in the user's words
   * carries more than the operation it asks for. Chosen on the tuning sets at 5 (4 to 7 measured the same; 3 moved
   * agent calls); a query-time knob, Infinity turns it off.
   */
  longRequestConcepts: number;
  /**
   * How `SearchOptions.keywords` join the query: `concept` one low-weight concept of alternatives, `concepts`
   * one low-weight concept per keyword term, `fuse` a second retrieval fused by reciprocal rank.
   */
  keywordMode: 'concept' | 'concepts' | 'fuse';
  /** Weight of the keywords (the query's own words weigh 1). */
  keywordWeight: number;
  /**
   * Keyword terms also explain an operation's name for the precision signal: an agent's "private" explains
   * `private_article_files_list` beside its public twin. On since stop 33 (off when 280 agent calls could not tell).
   */
  keywordPrecision: boolean;
  /**
   * With a domain, operations of other domains whose path names the domain's resource rank too, their scores
   * times this factor (0: the domain is a strict filter). widen.ts; measured in docs/notes/SEARCH-ROUNDS.md.
   */
  domainReach: number;
  /**
   * Each re-ranking signal's factor raised to this weight, by signal name, and the BM25 score's as `retrieval`
   * (absent: 1); `coverage-power` is the power of the covered share inside the coverage factor (absent: 2).
   * Learned by `npm run learn` from the tuning query sets (weights.ts, docs/SEARCH.md).
   */
  signalWeights: Readonly<Record<string, number>>;
  /**
   * Above this many candidates the ranker computes a costly signal (precision) only for the documents that can still
   * reach the best k (rank.ts, "pruning"); the ranking is the same either way (test/search/pruning.test.ts). Below it
   * one pass over every candidate is cheaper than choosing. A query-time knob: Infinity turns pruning off.
   */
  pruneAbove: number;
}

/** The defaults, with the built-in learned weights. */
export const DEFAULT_TUNING: SearchTuning = {
  stem: 'porter',
  boosts: { name: 3, summary: 3, path: 1.5, domain: 1, tags: 1, params: 0.5, description: 0.7, domainText: 0.3, keywords: 3, returns: 0.25, implied: 0.5 },
  familyWeight: 0.4,
  minedWeight: 0.3,
  disabledUnits: [],
  descriptionWords: 120,
  rerank: true,
  disabledSignals: [],
  precisionWeight: 0.7,
  namePrecisionShare: 0.5,
  primaryBoost: 1,
  headBoost: 1.1,
  exactTitleBoost: 1.5,
  longRequestConcepts: 5,
  keywordMode: 'concepts',
  keywordWeight: 0.5,
  keywordPrecision: true,
  domainReach: 0.8,
  signalWeights: LEARNED_WEIGHTS,
  pruneAbove: 256,
};

/** The defaults with the learned weights of the build in use (built in, or API_CATALOG_SEMANTIC_DIR's). */
export function defaultTuning(): SearchTuning {
  return { ...DEFAULT_TUNING, signalWeights: rankingWeights().weights };
}

/**
 * The first knob fixed when an index is built (stemming, field boosts, description words) on which `tuning`
 * differs from this build's defaults, or undefined. A snapshot from a build that weighed the fields otherwise
 * (same layout) would rank differently from a fresh build: refused, so the server rebuilds and `import` rewrites it.
 */
export function changedBuildKnob(tuning: SearchTuning): string | undefined {
  if (tuning.stem !== DEFAULT_TUNING.stem) return `stemming ${tuning.stem}`;
  if (tuning.descriptionWords !== DEFAULT_TUNING.descriptionWords) return `description words ${tuning.descriptionWords}`;
  const fields = new Set([...Object.keys(tuning.boosts ?? {}), ...Object.keys(DEFAULT_TUNING.boosts)]);
  for (const f of fields) {
    const a = (tuning.boosts as Record<string, number | undefined> | undefined)?.[f];
    const b = (DEFAULT_TUNING.boosts as Record<string, number | undefined>)[f];
    if (a !== b) return `boost of ${f}: ${a ?? 'none'}, this build ${b ?? 'none'}`;
  }
  return undefined;
}
