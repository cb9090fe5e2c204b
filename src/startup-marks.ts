// Start-up marks for `API_CATALOG_STARTUP_TRACE=1` (what `npm run bench` reports as "where start-up goes").
//
// Not performance.mark: the first touch of the global `performance` loads node:perf_hooks (about 2 ms), and these
// marks are taken on every start, before the first tools/list answer. A mark here is one hrtime reading; the
// trace, printed after start-up, converts them to milliseconds since the process started (performance.now()'s
// origin).

const taken = new Map<string, bigint>();

/** Records when start-up reached `name` (the first time only: a mark is a start-up milestone, not a counter). */
export function mark(name: string): void {
  if (!taken.has(name)) taken.set(name, process.hrtime.bigint());
}

/** True once `name` was marked. */
export function marked(name: string): boolean {
  return taken.has(name);
}

/** Every mark, in milliseconds since the process started. Loads node:perf_hooks: call it after start-up. */
export function markTimes(): Record<string, number> {
  const nowHr = process.hrtime.bigint();
  const nowMs = performance.now();
  const out: Record<string, number> = {};
  for (const [name, at] of taken) out[name] = nowMs - Number(nowHr - at) / 1e6;
  return out;
}
