// Bounded-time assertions for robustness checks (ReDoS, hostile queries): the fastest of a few runs, so a
// 2-core machine busy with other test files cannot fail a check whose point is "no catastrophic algorithm"
// (which is slow on every run). Performance targets belong in `npm run bench`, not here.

/** The fastest of `runs` timed calls of `fn`, in milliseconds, and the last result. */
export function fastestMs<T>(fn: () => T, runs = 3): { ms: number; result: T } {
  let best = Infinity;
  let result!: T;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = fn();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, result };
}
