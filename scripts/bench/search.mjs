#!/usr/bin/env node
// Search benchmark (prints, never asserts): index build time vs loading a MiniSearch snapshot, memory, search latency
// p50/p99 on the GitHub catalog in-process, and search_tools over stdio (the latency an agent's client sees, with its
// tail). Run after `npm run build`: node scripts/bench/search.mjs [registry dir] [--stdio-only] [--rounds N]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--stdio-only', '--rounds']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// SEARCH_BENCH_DIST=<dir> measures another build (e.g. an A/B copy) instead of dist/
const dist = process.env.SEARCH_BENCH_DIST ?? join(root, 'dist');
const { loadCatalog, defaultCatalogDir } = await import(join(dist, 'registry/catalog.js'));
const { SearchIndex } = await import(join(dist, 'search/index.js'));

const ms = (x) => `${x.toFixed(2)} ms`;
const mb = (x) => `${(x / 1024 / 1024).toFixed(1)} MB`;

let t = performance.now();
const args = process.argv.slice(2);
const stdioOnly = args.includes('--stdio-only');
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 5;
const catalogArg = args.find((a, k) => !a.startsWith('--') && args[k - 1] !== '--rounds');
if (!stdioOnly) await inProcess();

async function inProcess() {
const catalog = loadCatalog(catalogArg ?? defaultCatalogDir());
const loadMs = performance.now() - t;
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const builds = [];
let index;
for (let k = 0; k < 5; k++) {
  t = performance.now();
  index = SearchIndex.build(catalog.operations, catalog.meta.domains);
  builds.push(performance.now() - t);
}
global.gc?.();
const heapAfter = process.memoryUsage().heapUsed;
builds.sort((a, b) => a - b);

// the snapshot alternative: MiniSearch's own JSON of the same fields (what a snapshot would restore)
const fields = ['name', 'summary', 'path', 'domain', 'tags', 'params', 'description'];
const plain = new MiniSearch({ idField: 'id', fields });
plain.addAll(catalog.operations.map((o, id) => ({ id, name: o.name, summary: o.summary, path: o.path, domain: o.domain, tags: o.tags.join(' '), params: Object.keys(o.inputSchema.properties).join(' '), description: o.description })));
const snapshot = JSON.stringify(plain);
const loads = [];
for (let k = 0; k < 5; k++) {
  t = performance.now();
  MiniSearch.loadJSON(snapshot, { idField: 'id', fields });
  loads.push(performance.now() - t);
}
loads.sort((a, b) => a - b);
const addAlls = [];
for (let k = 0; k < 5; k++) {
  t = performance.now();
  const m = new MiniSearch({ idField: 'id', fields });
  m.addAll(catalog.operations.map((o, id) => ({ id, name: o.name, summary: o.summary, path: o.path, domain: o.domain, tags: o.tags.join(' '), params: Object.keys(o.inputSchema.properties).join(' '), description: o.description })));
  addAlls.push(performance.now() - t);
}
addAlls.sort((a, b) => a - b);

const queries = [];
for (const file of [join(root, 'test', 'fixtures', 'eval', 'queries-dev.jsonl'), join(root, 'test', 'fixtures', 'search', 'queries-holdout.jsonl')]) {
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) {
      const q = JSON.parse(line);
      if (q.catalog === catalog.meta.name) queries.push(q.query);
    }
  } catch { /* optional */ }
}
if (queries.length === 0) queries.push('create an issue', 'list pull requests', 'delete a workflow run');

// cold: the first search of each query on a fresh index (term cache empty)
const fresh = SearchIndex.build(catalog.operations, catalog.meta.domains);
const cold = queries.map((q) => { const s = performance.now(); fresh.search(q); return performance.now() - s; }).sort((a, b) => a - b);
for (let k = 0; k < 3; k++) for (const q of queries) index.search(q);
const times = [];
for (let k = 0; k < 50; k++) for (const q of queries) { const s = performance.now(); index.search(q); times.push(performance.now() - s); }
times.sort((a, b) => a - b);
const pct = (arr, p) => arr[Math.min(arr.length - 1, Math.floor(arr.length * p))];

console.log(`catalog            ${catalog.meta.name}: ${catalog.operations.length} operations, ${catalog.meta.domains.length} domains`);
console.log(`registry load      ${ms(loadMs)}`);
console.log(`index build        median ${ms(builds[2])} (min ${ms(builds[0])}, 5 runs); heap +${mb(heapAfter - heapBefore)} for 5 indexes${global.gc ? '' : ' (run with --expose-gc for a cleaner number)'}`);
console.log(`  plain MiniSearch addAll ${ms(addAlls[2])} vs loadJSON snapshot ${ms(loads[2])} (${mb(snapshot.length)} JSON)`);
console.log(`search warm        p50 ${ms(pct(times, 0.5))}  p99 ${ms(pct(times, 0.99))}  (${times.length} searches, ${queries.length} distinct queries)`);
// what a search costs the processor, not the clock: the process's CPU time per search (every thread: the collector's
// helpers and the compiler too) over every set's requests and their typos, so a busy machine does not move it
{
  const { readQuerySets } = await import(join(dist, 'search/gate-files.js'));
  const { typoQueries } = await import(join(dist, 'search/gate.js'));
  const all = readQuerySets(root).flatMap(({ queries }) => [...queries, ...typoQueries(queries)]).map((q) => [q.query, q.keywords]);
  for (const [q, keywords] of all) index.search(q, { limit: 8, keywords });
  // and the young collections during them: a search whose objects outlive it makes each one copy them (a closure per
  // search kept every reading alive until stop 41: 6.7 ms pauses, not 0.6; notes/SEARCH-ROUNDS.md)
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  const young = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) young.push(e.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpu = [];
  for (let r = 0; r < 3; r++) {
    for (const [k, [q, keywords]] of all.entries()) {
      // Node reports each collection to the observer from the event loop: a loop that never yields loses most of them
      if (k % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      const c = process.cpuUsage();
      index.search(q, { limit: 8, keywords });
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100)); // the observer's last entries
  observer.disconnect();
  cpu.sort((a, b) => a - b);
  young.sort((a, b) => a - b);
  console.log(`search CPU time    p50 ${ms(pct(cpu, 0.5))}  p99 ${ms(pct(cpu, 0.99))}  p99.9 ${ms(pct(cpu, 0.999))}  max ${ms(Math.max(...cpu))}  (${cpu.length} searches: every set's requests and typos, 3 rounds after one)`);
  console.log(`  young GC         ${young.length} scavenges during them, pause p50 ${ms(pct(young, 0.5) || 0)}  max ${ms(Math.max(0, ...young))}`);
}
console.log(`search cold        p50 ${ms(pct(cold, 0.5))}  p99 ${ms(pct(cold, 0.99))}  (first search of each query on a fresh index)`);
for (const [label, q] of [['1 MB query', 'x'.repeat(1 << 20)], ['regex metacharacters', '(.*)+'.repeat(1000)], ['emoji', '🎉'.repeat(10000)], ['32 common words', 'get list create delete update repository organization user '.repeat(4)]]) {
  const s = performance.now();
  index.search(q);
  console.log(`hostile            ${label.padEnd(22)} ${ms(performance.now() - s)}`);
}
console.log(`rss                ${mb(process.memoryUsage().rss)}`);
}

// search_tools over stdio, as an agent's client sees it: the round trip of every call, its tail, and which
// requests sit in it. The requests: every query of the repository's sets (test/fixtures/search, test/fixtures/eval)
// sent to the embedded GitHub catalog, short agent calls and long requests in people's words alike, with their
// keywords; each with typos too (src/search/gate.ts). The first round is reported apart (every typo is new to the
// server then, and first calls compile code); the calls start a second after tools/list, as an agent's would. The
// server runs with --trace-gc: each collection it reports is counted against the call in flight, so the tail says
// how much of it is the collector; the machine's load is printed beside it, because on a busy machine the rest of
// the tail is the scheduler (the in-process CPU time above is what the search itself costs).
{
  const { startStdio, pct: nearest } = await import('./lib/common.mjs');
  const { readQuerySets } = await import(join(dist, 'search/gate-files.js'));
  const { typoQueries } = await import(join(dist, 'search/gate.js'));
  const { loadavg } = await import('node:os');
  const calls = [];
  for (const { queries } of readQuerySets(root)) {
    for (const q of [...queries, ...typoQueries(queries)]) calls.push({ query: q.query, ...(q.keywords ? { keywords: q.keywords } : {}), limit: 8 });
  }
  const loadStart = loadavg()[0];
  const observer = join(root, 'scripts', 'bench', 'lib', 'gc-observer.mjs');
  const s = await startStdio(process.execPath, ['--import', pathToFileURL(observer).href, join(root, 'dist', 'cli', 'index.js'), 'serve'], { env: { API_CATALOG_LOG_LEVEL: 'error', API_CATALOG_RATE_LIMIT: '0' } });
  // collections the server reports (gc-observer.mjs): kind, start (epoch ms), pause
  let pending = '';
  const gcs = [];
  s.transport.stderr?.on('data', (d) => {
    pending += d.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) {
      const m = /^gc (\w+) ([0-9.]+) ([0-9.]+)$/.exec(l);
      if (m) gcs.push({ kind: m[1], at: Number(m[2]), ms: Number(m[3]) });
    }
  });
  // an agent thinks before its first search: the server restores its index and warms it in that idle time
  await new Promise((r) => setTimeout(r, 1000));
  const times = [];
  const first = [];
  const slow = new Map();
  const later = []; // the later rounds' calls: wall time and window (epoch ms)
  try {
    for (let r = 0; r < rounds; r++) {
      for (const args of calls) {
        const t0 = performance.now();
        const res = await s.client.callTool({ name: 'search_tools', arguments: args });
        const t1 = performance.now();
        if (res.isError) throw new Error(`search_tools failed for ${JSON.stringify(args.query)}: ${JSON.stringify(res.content).slice(0, 300)}`);
        (r === 0 ? first : times).push(t1 - t0);
        if (r > 0) {
          later.push({ ms: t1 - t0, from: performance.timeOrigin + t0, to: performance.timeOrigin + t1 });
          slow.set(args.query, Math.max(slow.get(args.query) ?? 0, t1 - t0));
        }
      }
    }
    // the observer reports a collection after it: wait for the last ones
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    await s.close();
  }
  // each collection against the call whose window holds its start
  const from = later.length > 0 ? later[0].from : Infinity;
  const gcLater = gcs.filter((g) => g.at >= from);
  let k = 0;
  for (const g of gcLater) {
    while (k < later.length && later[k].to < g.at) k++;
    if (k < later.length && later[k].from <= g.at) (later[k].gc ??= []).push(g);
    else g.between = true;
  }
  const loadEnd = loadavg()[0];
  const line = (label, xs) => console.log(`${label.padEnd(18)} p50 ${ms(nearest(xs, 0.5))}  p99 ${ms(nearest(xs, 0.99))}  p99.9 ${ms(nearest(xs, 0.999))}  max ${ms(Math.max(...xs))}  (${xs.length} calls)`);
  console.log(`stdio search_tools  GitHub, ${calls.length} requests (every set's queries and their typos, keywords as sent), ${rounds} rounds; load average ${loadStart.toFixed(2)} -> ${loadEnd.toFixed(2)} on ${(await import('node:os')).availableParallelism()} cores`);
  line('  first round', first);
  line('  later rounds', times);
  // the collector in the later rounds: how many calls it paused, for how long, and how much of the tail it is
  const paused = later.filter((c) => c.gc !== undefined);
  const clean = later.filter((c) => c.gc === undefined).map((c) => c.ms);
  const p99 = nearest(times, 0.99);
  const tail = later.filter((c) => c.ms >= p99);
  const kinds = [...new Set(gcLater.map((g) => g.kind))].map((kind) => `${gcLater.filter((g) => g.kind === kind).length} ${kind}`).join(', ') || 'none';
  const pauses = gcLater.map((g) => g.ms);
  console.log(`  collector        ${kinds} in the later rounds (pause p50 ${ms(nearest(pauses, 0.5) || 0)}, max ${ms(Math.max(0, ...pauses))}; ${gcLater.filter((g) => g.between).length} between calls); ${paused.length} calls paused (${(100 * paused.length / Math.max(1, later.length)).toFixed(1)}%), ${tail.filter((c) => c.gc !== undefined).length} of the ${tail.length} at or above p99`);
  line('  later, no GC', clean);
  console.log(`  slowest requests (worst call after the first round): ${[...slow].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([q, t]) => `${ms(t)} ${JSON.stringify(q.slice(0, 60))}`).join('; ')}`);
}
