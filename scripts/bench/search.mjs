#!/usr/bin/env node
// Search benchmark (prints, never asserts): index build time vs loading a MiniSearch snapshot, memory, search latency
// p50/p99 on the GitHub catalog in-process, and search_tools over stdio (the latency an agent's client sees, with its
// tail). Run after `npm run build`: node scripts/bench/search.mjs [registry dir] [--stdio-only] [--rounds N]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';

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
// server then, and first calls compile code); the calls start a second after tools/list, as an agent's would.
{
  const { startStdio, pct: nearest } = await import('./lib/common.mjs');
  const { readQuerySets } = await import(join(dist, 'search/gate-files.js'));
  const { typoQueries } = await import(join(dist, 'search/gate.js'));
  const calls = [];
  for (const { queries } of readQuerySets(root)) {
    for (const q of [...queries, ...typoQueries(queries)]) calls.push({ query: q.query, ...(q.keywords ? { keywords: q.keywords } : {}), limit: 8 });
  }
  const s = await startStdio(process.execPath, [join(root, 'dist', 'cli', 'index.js'), 'serve'], { env: { API_CATALOG_LOG_LEVEL: 'error', API_CATALOG_RATE_LIMIT: '0' } });
  // an agent thinks before its first search: the server restores its index and warms it in that idle time
  await new Promise((r) => setTimeout(r, 1000));
  const times = [];
  const first = [];
  const slow = new Map();
  try {
    for (let r = 0; r < rounds; r++) {
      for (const args of calls) {
        const t0 = performance.now();
        const res = await s.client.callTool({ name: 'search_tools', arguments: args });
        const ms = performance.now() - t0;
        if (res.isError) throw new Error(`search_tools failed for ${JSON.stringify(args.query)}: ${JSON.stringify(res.content).slice(0, 300)}`);
        (r === 0 ? first : times).push(ms);
        if (r > 0) slow.set(args.query, Math.max(slow.get(args.query) ?? 0, ms));
      }
    }
  } finally {
    await s.close();
  }
  const line = (label, xs) => console.log(`${label.padEnd(18)} p50 ${ms(nearest(xs, 0.5))}  p99 ${ms(nearest(xs, 0.99))}  p99.9 ${ms(nearest(xs, 0.999))}  max ${ms(Math.max(...xs))}  (${xs.length} calls)`);
  console.log(`stdio search_tools  GitHub, ${calls.length} requests (every set's queries and their typos, keywords as sent), ${rounds} rounds`);
  line('  first round', first);
  line('  later rounds', times);
  console.log(`  slowest requests (worst call after the first round): ${[...slow].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([q, t]) => `${ms(t)} ${JSON.stringify(q.slice(0, 60))}`).join('; ')}`);
}
