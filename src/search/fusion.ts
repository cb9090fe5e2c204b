// Stage 3, fusion: combines ranked lists from several retrievals (the query, the agent's keywords, an optional
// dense retriever) by reciprocal rank, so no list's score scale dominates. Pure functions on document numbers;
// deterministic (ties by document number = name order, K4); prints nothing.

/** One ranked list to fuse: document numbers best first, and how much this list counts. */
export interface RankedList {
  ids: readonly number[];
  weight: number;
}

/** The reciprocal-rank constant: 60 is the usual choice (Cormack et al. 2009); smaller favours list heads. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: score(d) = sum over lists of weight / (k + rank(d)), rank 1-based. Returns document
 * numbers with their fused scores, best first, ties by lower document number.
 */
export function reciprocalRankFusion(lists: readonly RankedList[], k = RRF_K): Array<{ i: number; score: number }> {
  const fused = new Map<number, number>();
  for (const list of lists) {
    list.ids.forEach((i, r) => fused.set(i, (fused.get(i) ?? 0) + list.weight / (k + r + 1)));
  }
  return [...fused].map(([i, score]) => ({ i, score })).sort((a, b) => b.score - a.score || a.i - b.i);
}
