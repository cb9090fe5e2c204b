#!/usr/bin/env node
// Time and memory of the built server on the GitHub catalog: cold start (spawn -> first tools/list answer over
// stdio) with a breakdown of where it goes, RSS after start and after N searches, search p50/p99 in-process and
// over stdio, execute overhead vs a raw fetch to a local server. Run alone: node scripts/bench/server.mjs [--quick]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI, DIST, ROOT, dist, evalQueries, median, pct, progress, round, rssOf, startStdio } from './lib/common.mjs';
import { startUpstream } from './lib/upstream.mjs';

const MB = 1024 * 1024;

/** Where cold start goes: one fresh process per run, timings from process start (performance.now()). */
const BREAKDOWN_CHILD = `
const t = [['node start', performance.now()]];
const { loadCatalog, defaultCatalogDir } = await import(${JSON.stringify(`${DIST}/registry/catalog.js`)});
const srv = await import(${JSON.stringify(`${DIST}/server/index.js`)});
t.push(['import modules (SDK, Ajv, MiniSearch, ...)', performance.now()]);
const catalog = loadCatalog(defaultCatalogDir());
t.push(['read + parse registry JSON', performance.now()]);
const set = srv.buildCatalogSet([catalog]);
t.push(['buildCatalogSet (names, domains)', performance.now()]);
const { server } = srv.createServer({ catalogs: set, settings: { baseUrls: {}, readOnly: false } });
t.push(['createServer', performance.now()]);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
const [a, b] = InMemoryTransport.createLinkedPair();
t.push(['(bench client import, not counted)', performance.now()]);
await server.connect(a);
const client = new Client({ name: 'b', version: '0' });
await client.connect(b);
await client.listTools();
t.push(['initialize + tools/list (in memory)', performance.now()]);
void set.index;
t.push(['search index build (deferred: runs after the first tools/list)', performance.now()]);
const out = { 'node start': t[0][1] }; for (let i = 1; i < t.length; i++) out[t[i][0]] = t[i][1] - t[i - 1][1];
out.heapMB = process.memoryUsage().heapUsed / ${MB};
out.rssMB = process.memoryUsage().rss / ${MB};
process.stdout.write(JSON.stringify(out));
`;

/** Cold-start breakdown: median per phase over `runs` fresh processes. */
export function coldStartBreakdown(runs = 3) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', BREAKDOWN_CHILD], { encoding: 'utf8', cwd: ROOT });
    if (r.status !== 0) throw new Error(`bench: cold-start breakdown failed: ${r.stderr}`);
    samples.push(JSON.parse(r.stdout));
  }
  const out = {};
  for (const k of Object.keys(samples[0])) out[k] = round(median(samples.map((s) => s[k])), 1);
  return out;
}

/**
 * Spawns `api-catalog serve` (stdio) `runs` times: spawn -> first tools/list answer, RSS right after, and
 * spawn -> first search_tools result sent immediately after tools/list (the worst case: no think time, so it
 * waits for the search index that the server builds right after answering tools/list).
 */
export async function coldStart(runs = 5) {
  const starts = [];
  const firstSearch = [];
  const rss = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const s = await startStdio(process.execPath, [CLI, 'serve'], { env: { API_CATALOG_LOG_LEVEL: 'error' } });
    starts.push(s.startMs);
    rss.push(rssOf(s.pid) ?? NaN);
    await s.client.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
    firstSearch.push(performance.now() - t0);
    await s.close();
  }
  // The floor: spawning a Node process that does nothing, on this machine, now.
  const bare = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    bare.push(performance.now() - t0);
  }
  return { runs, medianMs: round(median(starts), 1), firstSearchMedianMs: round(median(firstSearch), 1), bareNodeMs: round(median(bare), 1), minMs: round(Math.min(...starts), 1), samplesMs: starts.map((x) => round(x, 1)), rssAfterStartMB: round(median(rss) / MB, 1) };
}

/** search_tools over stdio: p50/p99 per call, then RSS after `count` searches. */
export async function stdioSearch(count = 10_000) {
  const s = await startStdio(process.execPath, [CLI, 'serve'], { env: { API_CATALOG_LOG_LEVEL: 'error', API_CATALOG_RATE_LIMIT: '0' } });
  try {
    const queries = evalQueries('github');
    const rssStart = rssOf(s.pid);
    const times = [];
    let failures = 0;
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const r = await s.client.callTool({ name: 'search_tools', arguments: { query: queries[i % queries.length], limit: 8 } });
      times.push(performance.now() - t0);
      if (r.isError) failures++;
      if ((i + 1) % 2500 === 0) progress(`stdio searches ${i + 1}/${count}`);
    }
    return {
      count,
      failures,
      p50Ms: round(pct(times, 0.5), 3),
      p99Ms: round(pct(times, 0.99), 3),
      rssAfterStartMB: round(rssStart / MB, 1),
      rssAfterSearchesMB: round(rssOf(s.pid) / MB, 1),
    };
  } finally {
    await s.close();
  }
}

/** SearchIndex.search in-process on GitHub: warm p50/p99 over the eval queries (rounds x queries). */
export async function inProcessSearch(rounds = 50) {
  const { loadCatalog, defaultCatalogDir } = await dist('registry/catalog.js');
  const { SearchIndex } = await dist('search/index.js');
  const catalog = loadCatalog(defaultCatalogDir());
  const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
  const queries = evalQueries('github');
  const cold = queries.map((q) => { const t0 = performance.now(); index.search(q, { limit: 8 }); return performance.now() - t0; });
  const times = [];
  const cpu = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const c = process.cpuUsage();
      const t0 = performance.now();
      index.search(q, { limit: 8 });
      times.push(performance.now() - t0);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
    }
  }
  return {
    searches: times.length, queries: queries.length, p50Ms: round(pct(times, 0.5), 3), p99Ms: round(pct(times, 0.99), 3),
    cpuP50Ms: round(pct(cpu, 0.5), 3), cpuP99Ms: round(pct(cpu, 0.99), 3), coldP50Ms: round(pct(cold, 0.5), 3), coldP99Ms: round(pct(cold, 0.99), 3) };
}

/**
 * Execute overhead: executeOperation(repos_get) vs a raw fetch of the same URL on a local server, interleaved,
 * `n` each after a warm-up; plus execute_tool through a real MCP client (in-memory) for the whole server path.
 */
export async function executeOverhead(n = 2000) {
  const { loadCatalogSet } = await dist('server/index.js');
  const { executeOperation } = await dist('execution/index.js');
  const { connectInMemory } = await import('./tokens.mjs');
  const set = loadCatalogSet([]);
  const upstream = await startUpstream();
  try {
    const op = set.byName.get('repos_get').op;
    const args = { owner: 'octocat', repo: 'hello-world' };
    const config = { catalog: set.catalogs[0].meta, baseUrl: upstream.url, env: {} };
    const url = `${upstream.url}/repos/octocat/hello-world`;
    const raw = async () => { const r = await fetch(url, { headers: { accept: 'application/json' } }); return r.json(); };
    const ours = async () => {
      const out = await executeOperation(op, args, config);
      if (!out.ok) throw new Error(`bench: executeOperation failed: ${out.code} ${out.message}`);
    };
    for (let i = 0; i < 200; i++) { await raw(); await ours(); }
    const tRaw = [];
    const tOurs = [];
    for (let i = 0; i < n; i++) {
      let t0 = performance.now(); await raw(); tRaw.push(performance.now() - t0);
      t0 = performance.now(); await ours(); tOurs.push(performance.now() - t0);
    }
    // The whole server path: execute_tool through the SDK client (validation, envelope, JSON-RPC in memory).
    const { client, close } = await connectInMemory(set, upstream.url);
    const tMcp = [];
    try {
      await client.callTool({ name: 'describe_tools', arguments: { tool_names: ['repos_get'] } });
      const call = () => client.callTool({ name: 'execute_tool', arguments: { tool_name: 'repos_get', args } });
      for (let i = 0; i < 100; i++) await call();
      for (let i = 0; i < Math.min(n, 1000); i++) { const t0 = performance.now(); const r = await call(); tMcp.push(performance.now() - t0); if (r.isError) throw new Error(`bench: execute_tool failed: ${JSON.stringify(r.content)}`); }
    } finally {
      await close();
    }
    const rawP50 = pct(tRaw, 0.5);
    return {
      n,
      rawFetchP50Ms: round(rawP50, 3),
      executeOperationP50Ms: round(pct(tOurs, 0.5), 3),
      overheadP50Ms: round(pct(tOurs, 0.5) - rawP50, 3),
      executeOperationP99Ms: round(pct(tOurs, 0.99), 3),
      rawFetchP99Ms: round(pct(tRaw, 0.99), 3),
      mcpExecuteToolP50Ms: round(pct(tMcp, 0.5), 3),
      mcpOverheadP50Ms: round(pct(tMcp, 0.5) - rawP50, 3),
    };
  } finally {
    await upstream.close();
  }
}

/** All server measurements. `quick`: fewer runs and searches. */
export async function runServer({ quick = false } = {}) {
  progress('server: cold start (stdio) ...');
  const cold = await coldStart(quick ? 3 : 5);
  progress(`server: cold start median ${cold.medianMs} ms; breakdown ...`);
  const breakdown = coldStartBreakdown(quick ? 1 : 3);
  progress('server: in-process search ...');
  const searchInProcess = await inProcessSearch(quick ? 10 : 50);
  progress('server: stdio searches ...');
  const searchStdio = await stdioSearch(quick ? 2000 : 10_000);
  progress('server: execute overhead ...');
  const execute = await executeOverhead(quick ? 500 : 2000);
  return { coldStart: cold, coldStartBreakdown: breakdown, searchInProcess, searchStdio, execute };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await runServer({ quick: process.argv.includes('--quick') }), null, 2));
}
