// Preloaded into a benchmarked server (`node --import <this> ...`, scripts/bench/search.mjs): reports every garbage
// collection on stderr as `gc <kind> <start, epoch ms> <pause ms>`, so the client can count each pause against the
// call it fell in. V8's own --trace-gc writes to stdout, which is the MCP channel of a stdio server.
import { PerformanceObserver, constants } from 'node:perf_hooks';

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const origin = performance.timeOrigin;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    process.stderr.write(`gc ${KINDS[e.detail?.kind] ?? 'other'} ${(origin + e.startTime).toFixed(3)} ${e.duration.toFixed(3)}\n`);
  }
}).observe({ entryTypes: ['gc'] });
