#!/usr/bin/env node
// Search benchmark (prints, never asserts): index build time vs loading a MiniSearch snapshot, memory,
// and search latency p50/p99 on the GitHub catalog. Run after `npm run build`: node scripts/bench/search.mjs
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
const catalog = loadCatalog(process.argv[2] ?? defaultCatalogDir());
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
for (const file of [join(root, '..', 'shared', 'eval', 'queries-dev.jsonl'), join(root, 'test', 'fixtures', 'search', 'queries-holdout.jsonl')]) {
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
