// The fitting half of `npm run learn` (scripts/learn-weights.mjs), apart so tests can run it on small data: given,
// per query, its candidates' retrieval scores and signal factors (explain output, every weight 1), the weights
// that maximize MRR@10 when a candidate's score is retrieval^w0 x factor1^w1 x ... (a weighted sum of logs).
// Coordinate ascent over a fixed grid, in a fixed order, strict improvements only: the same data gives the same
// weights on every machine.

/** The grid each weight is chosen from. */
export const GRID = [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8];
/** Passes over the free weights (each pass tries every grid value for each weight in turn). */
export const PASSES = 3;

/**
 * Rank (1-based) of the first relevant candidate under `weights`, or null. A candidate is
 * `{ rel, exact, retrieval, signals: { name: factor } }`; an exact name match stays first, ties keep the order given.
 * `shapes` maps a weight that is not a factor's power to how it recomputes factors: `(candidate, value) => ({ name:
 * factor })` (the coverage factor's inner power, for one).
 */
export function rankUnder(candidates, weights, shapes = {}) {
  const rw = weights.retrieval ?? 1;
  const reshaped = Object.keys(shapes).filter((name) => weights[name] !== undefined);
  const scored = candidates.map((c, k) => {
    let v = c.exact ? Infinity : rw * Math.log(Math.max(c.retrieval, 1e-12));
    let signals = c.signals;
    for (const name of reshaped) signals = { ...signals, ...shapes[name](c, weights[name]) };
    if (!c.exact) for (const [name, factor] of Object.entries(signals)) v += (weights[name] ?? 1) * Math.log(Math.max(factor, 1e-12));
    return { k, v, rel: c.rel };
  });
  scored.sort((a, b) => b.v - a.v || a.k - b.k);
  const at = scored.findIndex((s) => s.rel);
  return at < 0 ? null : at + 1;
}

/** R@1, R@5 and MRR@10 of `queries` (each `{ candidates }`) under `weights` (and `shapes`, see rankUnder). */
export function metricsUnder(queries, weights, shapes = {}) {
  let r1 = 0;
  let r5 = 0;
  let rr = 0;
  for (const q of queries) {
    const rank = rankUnder(q.candidates, weights, shapes);
    if (rank === 1) r1++;
    if (rank !== null && rank <= 5) r5++;
    if (rank !== null && rank <= 10) rr += 1 / rank;
  }
  const n = Math.max(1, queries.length);
  return { n: queries.length, r1: r1 / n, r5: r5 / n, mrr: rr / n };
}

/**
 * The weights of `free` (names: `retrieval` or a signal's) that maximize the sum over `groups` (arrays of queries,
 * e.g. the user's words and agent calls, each counting once whatever its size) of MRR@10; the others stay 1.
 * `caps` bounds a weight from above (by name); `shapes` as in rankUnder; `defaults` a weight's neutral value where it
 * is not 1 (a shape's own default), which it starts from and which is left out of the result.
 * `log(line)` receives one line per pass.
 */
export function fitWeights(groups, free, { grid = GRID, passes = PASSES, caps = {}, shapes = {}, defaults = {}, log = () => {} } = {}) {
  const objective = (w) => groups.reduce((sum, g) => sum + metricsUnder(g, w, shapes).mrr, 0);
  const weights = {};
  let current = objective(weights);
  for (let pass = 1; pass <= passes; pass++) {
    let moved = false;
    for (const name of free) {
      let bestValue = weights[name] ?? defaults[name] ?? 1;
      let bestScore = current;
      for (const value of grid) {
        if (value > (caps[name] ?? Infinity)) continue;
        const score = objective({ ...weights, [name]: value });
        if (score > bestScore + 1e-12) {
          bestScore = score;
          bestValue = value;
        }
      }
      if (bestValue !== (weights[name] ?? defaults[name] ?? 1)) moved = true;
      weights[name] = bestValue;
      current = bestScore;
    }
    log(`pass ${pass}: ${JSON.stringify(weights)} objective ${current.toFixed(4)}`);
    if (!moved) break;
  }
  for (const name of Object.keys(weights)) if (weights[name] === (defaults[name] ?? 1)) delete weights[name];
  return weights;
}
