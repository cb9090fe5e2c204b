// Stage 4b, ranking: applies the re-ranking signals to every retrieved candidate, normalizes (best = its coverage),
// filters by domain (with the paths the domain reaches, widen.ts) or by a set of domains, puts an exact name first
// and keeps the best k in name order for ties (K4). Optionally explains each kept hit (per-signal factors).
// Allocation-free per candidate; prints nothing.
import type { Features } from './features.js';
import type { Candidates } from './lexical.js';
import { SIGNALS, type Prepared, type Signal, type SignalContext } from './signals.js';

/** Why a hit ranks where it does: the retrieval score and each active signal's factor (`--explain`). */
export interface HitExplanation {
  /** BM25+ sum over the query's concepts (lexical retrieval). */
  retrieval: number;
  /** The power the retrieval score is raised to before the factors multiply (learned; absent when 1). */
  retrievalWeight?: number;
  /** idf-weighted share of the query's concepts the operation matches (0..1). */
  coverage: number;
  /** Factor of every signal that had an opinion on this query, in the order they multiply (learned weight applied). */
  signals: Array<{ name: string; factor: number }>;
  /** retrieval^retrievalWeight x all factors, before normalization. */
  reranked: number;
  /** Set when the query names this operation exactly (it ranks first with score 1). */
  exact?: boolean;
}

export interface Ranked {
  i: number;
  score: number;
  explain?: HitExplanation;
}

/** Largest page end (offset + limit) kept in a bounded insertion list; deeper pages sort all matches once. */
const TOP_K_LIST = 512;

/**
 * The best `k` (document, score) pairs offered, best first: higher score, then lower document number. A sorted
 * list with insertion: an offer below the current k-th costs one compare, so a pass over n matches is O(n + k²)
 * in the worst case and O(n) in practice. Beyond {@link TOP_K_LIST} everything is kept and sorted once. The ranker
 * keeps its lists and `reset`s them for each search: the bounded lists are typed arrays, so choosing leaves no
 * garbage (the search's latency tail is the collector's); only `sorted` allocates, the page it returns.
 */
export class TopK {
  /** The bounded list, best first: `count` entries. */
  readonly ids = new Uint32Array(TOP_K_LIST);
  readonly scores = new Float64Array(TOP_K_LIST);
  count = 0;
  /** Every offer, when k is past the bounded list. */
  private readonly allIds: number[] = [];
  private readonly allScores: number[] = [];
  private k = 0;

  constructor(k = 0) {
    this.reset(k);
  }

  reset(k: number): void {
    this.k = k;
    this.count = 0;
    this.allIds.length = 0;
    this.allScores.length = 0;
  }

  offer(i: number, score: number): void {
    if (this.k > TOP_K_LIST) {
      this.allIds.push(i);
      this.allScores.push(score);
      return;
    }
    const { ids, scores } = this;
    let at = this.count;
    if (at >= this.k) {
      const ls = scores[at - 1] as number;
      if (score < ls || (score === ls && i > (ids[at - 1] as number))) return;
    }
    while (at > 0) {
      const ps = scores[at - 1] as number;
      if (ps > score || (ps === score && (ids[at - 1] as number) < i)) break;
      at--;
    }
    // insert at `at` by shifting the ones below it down (the last one falls off a full list)
    let j = this.count;
    if (j < this.k) this.count++;
    else j--;
    for (; j > at; j--) {
      ids[j] = ids[j - 1] as number;
      scores[j] = scores[j - 1] as number;
    }
    ids[at] = i;
    scores[at] = score;
  }

  sorted(): Ranked[] {
    if (this.k <= TOP_K_LIST) {
      const out: Ranked[] = [];
      for (let j = 0; j < this.count; j++) out.push({ i: this.ids[j] as number, score: this.scores[j] as number });
      return out;
    }
    const out = this.allIds.map((i, n) => ({ i, score: this.allScores[n] as number }));
    return out.sort((a, b) => b.score - a.score || a.i - b.i);
  }
}

export interface RankRequest {
  ctx: SignalContext;
  /** Signals to apply (SIGNALS minus ablated ones); empty = plain BM25 sum. */
  signals: readonly Signal[];
  /** Learned weights by signal name, and the retrieval score's as `retrieval` (absent: 1). */
  weights?: Readonly<Record<string, number>>;
  k: number;
  /** Domain code to keep (-1: all; -2: a domain with no operations). */
  domainCode: number;
  /**
   * Domain codes to keep (`inSet[code] === 1`), with `domainCode` -1: a group of domains ranked as the unscoped search
   * ranks them (same scores, same order), the other domains' operations left out; no reach.
   */
  inSet?: Uint8Array;
  /** Document named exactly by the query. */
  exactIndex: number | undefined;
  explain: boolean;
  /**
   * Documents outside the domain that still rank (`mask[i] === 1`: their path names the domain's resource, see
   * widen.ts), their scores times `factor`.
   */
  reach?: { mask: Uint8Array; factor: number };
  /** More candidates than this: costly signals only where they can matter (see {@link prune}); absent: never. */
  pruneAbove?: number;
}

/** How many documents are scored exactly first, by upper bound, to set the bar the others must reach to be scored. */
const SEEDS = 32;
/** Rounding room in an upper bound: its factors multiply in another order than the score's (a few ulps). */
const SLACK = 1 + 1e-9;

// the ranker's lists, reset for each search (one search at a time: ranking is synchronous)
const seedsAll = new TopK();
const seedsIn = new TopK();
const inTop = new TopK();
const page = new TopK();

/** Adds the listed documents not yet marked exact to `finish` from `count` on, marking them; the new count. */
function take(list: TopK, exact: Uint8Array, finish: Uint32Array, count: number): number {
  for (let j = 0; j < list.count; j++) {
    const i = list.ids[j] as number;
    if (exact[i] === 0) {
      exact[i] = 1;
      finish[count++] = i;
    }
  }
  return count;
}

/** The factor a document's score gets in the top k: 1 in the domain asked for, reach.factor reached by its path, 0 outside. */
function scopeFactor(req: RankRequest, domain: Uint32Array, i: number): number {
  const { domainCode, reach, inSet } = req;
  if (inSet !== undefined) return inSet[domain[i] as number] === 1 ? 1 : 0;
  if (domainCode === -1 || domain[i] === domainCode) return 1;
  return reach !== undefined && reach.mask[i] === 1 ? reach.factor : 0;
}

/**
 * Pruning, for large candidate sets: the signals before the first costly one (Prepared.bound) are applied to every
 * candidate, as always. Each candidate's upper bound is that partial score times every later cheap factor and every
 * costly bound. The SEEDS best bounds (overall, and in the domain asked for) are scored exactly; they set the bar:
 * the best score so far, and the k-th best in the domain. The remaining signals are then applied, in their order, only
 * to the candidates whose bound reaches the bar; the rest can be neither the best score (which normalizes) nor in the
 * top k. Their scores are left partial and `exact` stays 0. Every kept document's score is computed by the same
 * multiplications in the same order as without pruning, so the ranking is bit-identical (test/search/pruning.test.ts).
 * Returns how many candidates were scored exactly, or -1 (nothing applied past the base scores) when no signal is
 * costly, a bound is not finite, or the page is deeper than the bounded lists.
 */
function prune(req: RankRequest, prepared: readonly Prepared[]): number {
  const { ctx, k, exactIndex } = req;
  let first = -1;
  for (let q = 0; q < prepared.length && first < 0; q++) if ((prepared[q] as Prepared).bound !== undefined) first = q;
  if (first < 0 || Math.max(SEEDS, k) > TOP_K_LIST) return -1;
  let bounds = SLACK;
  for (let q = first; q < prepared.length; q++) bounds *= (prepared[q] as Prepared).bound ?? 1;
  if (!Number.isFinite(bounds)) return -1;
  const c = ctx.candidates;
  const { matched, final, bound: ub, exact, finish } = c;
  const domain = ctx.features.domain;
  const n = c.matchedCount;
  for (let q = 0; q < first; q++) (prepared[q] as Prepared).apply(final, matched, n);
  for (let m = 0; m < n; m++) {
    const i = matched[m] as number;
    ub[i] = final[i] as number;
  }
  for (let q = first + 1; q < prepared.length; q++) {
    const p = prepared[q] as Prepared;
    if (p.bound === undefined) p.apply(ub, matched, n);
  }
  seedsAll.reset(SEEDS);
  seedsIn.reset(Math.max(SEEDS, k));
  for (let m = 0; m < n; m++) {
    const i = matched[m] as number;
    const b = (ub[i] as number) * bounds;
    ub[i] = b;
    seedsAll.offer(i, b);
    const f = scopeFactor(req, domain, i);
    if (f > 0) seedsIn.offer(i, b * f);
  }
  // score the seeds (and the exact name, whose explanation shows its score) exactly
  let count = take(seedsAll, exact, finish, 0);
  count = take(seedsIn, exact, finish, count);
  if (exactIndex !== undefined && c.isMatched[exactIndex] === 1 && exact[exactIndex] === 0) {
    exact[exactIndex] = 1;
    finish[count++] = exactIndex;
  }
  for (let q = first; q < prepared.length; q++) (prepared[q] as Prepared).apply(final, finish, count);
  // the bar: the best exact score, and the k-th best exact score in the domain (0 while fewer than k)
  let best = 0;
  inTop.reset(k);
  for (let m = 0; m < count; m++) {
    const i = finish[m] as number;
    const s = final[i] as number;
    if (s > best) best = s;
    const f = scopeFactor(req, domain, i);
    if (f > 0) inTop.offer(i, s * f);
  }
  const kth = inTop.count >= k ? (inTop.scores[inTop.count - 1] as number) : 0;
  // then every other candidate whose bound reaches the bar (the seeds are done: the list starts again)
  const seeded = count;
  let more = 0;
  for (let m = 0; m < n; m++) {
    const i = matched[m] as number;
    if (exact[i] === 1) continue;
    const b = ub[i] as number;
    const f = scopeFactor(req, domain, i);
    if (b >= best || (f > 0 && b * f * SLACK >= kth)) {
      exact[i] = 1;
      finish[more++] = i;
    }
  }
  for (let q = first; q < prepared.length; q++) (prepared[q] as Prepared).apply(final, finish, more);
  return seeded + more;
}

/** The signals minus those named in `disabled` (ablation measurements). */
export function activeSignals(disabled: readonly string[], rerank: boolean): Signal[] {
  return rerank ? SIGNALS.filter((s) => !disabled.includes(s.name)) : [];
}

/**
 * Re-ranks the candidates and keeps the best k. Scores are divided by the best score and multiplied by the best
 * operation's coverage, so they are in 0..1 and a weak best match does not claim 1.0; an exact name gets 1.
 * Also returns that confidence (the best operation's coverage). Does not clear the candidates.
 */
export function rankCandidates(req: RankRequest): { total: number; top: Ranked[]; confidence: number; best: number; scored?: number } {
  const { ctx, k, domainCode, exactIndex, reach, inSet } = req;
  const weights = req.signals.length > 0 ? (req.weights ?? {}) : {};
  const c: Candidates = ctx.candidates;
  const f: Features = ctx.features;
  const names: string[] = [];
  const prepared: Prepared[] = [];
  for (const s of req.signals) {
    // each factor raised to the signal's learned weight (weights.ts) by the signal itself
    const p = s.prepare(ctx, weights[s.name] ?? 1);
    if (p) {
      names.push(s.name);
      prepared.push(p);
    }
  }
  const { scores, coverage, final, matched } = c;
  const n = c.matchedCount;
  // pass 1: the re-ranked score of every match: the retrieval score (to its learned power) times each signal's
  // factor, one signal at a time over all candidates (each document's factors still multiply in SIGNALS order:
  // bit-identical scores)
  const rw = weights.retrieval ?? 1;
  for (let m = 0; m < n; m++) {
    const i = matched[m] as number;
    const s = scores[i] as number;
    final[i] = rw === 1 ? s : rw === 0.5 ? Math.sqrt(s) : s ** rw;
  }
  const scored = n > (req.pruneAbove ?? Infinity) ? prune(req, prepared) : -1;
  const pruned = scored >= 0;
  if (!pruned) for (const p of prepared) p.apply(final, matched, n);
  // the best score and the confidence (coverage of the best); a pruned document cannot be it
  let max = 0;
  let confidence = 0;
  for (let m = 0; m < n; m++) {
    const i = matched[m] as number;
    if (pruned && c.exact[i] === 0) continue;
    const s = final[i] as number;
    if (s > max) {
      max = s;
      confidence = coverage[i] as number;
    } else if (s === max) confidence = Math.max(confidence, coverage[i] as number);
  }
  // pass 2: normalize, filter by domain, count, and keep the best k (docs are numbered in name order, so the
  // document number is the name tie-break, K4); an exact name match outranks everything (1.0001, shown as 1)
  const conf = Math.min(1, confidence);
  const top = page;
  top.reset(k);
  let total = 0;
  let exactSeen = false;
  for (let m = 0; m < c.matchedCount; m++) {
    const i = matched[m] as number;
    let factor = 1;
    if (inSet !== undefined && inSet[f.domain[i] as number] !== 1) continue;
    if (domainCode !== -1 && f.domain[i] !== domainCode) {
      if (reach === undefined || reach.mask[i] !== 1) continue;
      factor = reach.factor;
    }
    total++;
    if (i === exactIndex) {
      exactSeen = true;
      top.offer(i, 1.0001);
    } else if (!pruned || c.exact[i] === 1) top.offer(i, max > 0 ? ((final[i] as number) / max) * conf * factor : 0);
  }
  const exactIn = exactIndex !== undefined && (domainCode === -1 || f.domain[exactIndex] === domainCode) && (inSet === undefined || inSet[f.domain[exactIndex] as number] === 1);
  if (exactIn && !exactSeen) {
    total++;
    top.offer(exactIndex, 1.0001);
  }
  const out = top.sorted();
  for (const r of out) {
    r.score = Math.min(1, r.score);
    if (req.explain) {
      const explain: HitExplanation = {
        retrieval: scores[r.i] as number,
        ...(rw !== 1 ? { retrievalWeight: rw } : {}),
        coverage: coverage[r.i] as number,
        signals: names.map((name, q) => ({ name, factor: (prepared[q] as Prepared).factor(r.i) })),
        reranked: final[r.i] as number,
      };
      // outside the domain it was asked for (reached by its path): the factor applied after normalizing, shown
      // and counted like the others (the retrieval score times every factor is still the re-ranked score)
      if (reach !== undefined && domainCode !== -1 && f.domain[r.i] !== domainCode) {
        explain.signals.push({ name: 'domain-reach', factor: reach.factor });
        explain.reranked *= reach.factor;
      }
      if (r.i === exactIndex) explain.exact = true;
      r.explain = explain;
    }
  }
  return { total, top: out, confidence: conf, best: max, ...(pruned ? { scored } : {}) };
}
