// The collector setting of a long-running server (serve). V8 "pretenures" an allocation site, allocating its objects
// straight in the old generation, once a scavenge finds most of the site's young objects alive. Per-search objects
// (a query's words and concepts) meet that test by accident after a few hundred searches; from then on every
// search leaves garbage in the old generation, whose dead objects keep young ones alive through the next
// scavenges, and each scavenge copies and promotes ~1 MB: 4 ms pauses instead of 1 and a heap that grows until a
// full collection. A server's long-lived data is built once at start, so pretenuring buys it nothing.
// Measured with `node scripts/bench/search.mjs` and the stdio loop of scripts/bench/server.mjs (docs/SEARCH.md,
// "Latency"): the server's scavenge pauses p50 2.6 -> 1.5 ms, 4 -> 1 ms in process, search_tools p99 0.5-1 ms lower.
import { setFlagsFromString } from 'node:v8';

/** Turns allocation-site pretenuring off for this process (V8 reads the flag at each scavenge). */
export function tuneCollectorForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
