#!/usr/bin/env node
// Time and memory of the built server on the GitHub catalog: cold start (spawn -> first tools/list answer and
// first search over stdio, beside the peer) with the server's own trace of where it goes, RSS after start and after N searches, search p50/p99 in-process and
// over stdio, execute overhead vs a raw fetch to a local server. Run alone: node scripts/bench/server.mjs [--quick] [--cold-only [--no-peer]]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI, DIST, ROOT, dist, evalQueries, median, pct, progress, round, rssOf, startStdio } from './lib/common.mjs';
import { startUpstream } from './lib/upstream.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--quick', '--cold-only', '--no-peer']);

const MB = 1024 * 1024;

/**
 * Where start-up goes, from the built server itself: with API_CATALOG_STARTUP_TRACE=1, `serve` prints its
 * start-up marks (src/startup-marks.ts; ms since the process started) once the search index is ready. Phases in
 * start order.
 */
export const STARTUP_PHASES = [
  ['node start (bootstrap)', null, 'node-bootstrap'],
  ['load the CLI entry (bundle)', 'node-bootstrap', 'cli'],
  ['load serve + catalog modules (the search engine loads after tools/list)', 'cli', 'serve-module'],
  ['config + catalog.json (operations are read later)', 'serve-module', 'catalogs'],
  ['load MCP SDK + stdio transport, connect', 'catalogs', 'connected'],
  ['initialize + tools/list (client round trips)', 'connected', 'tools-list'],
  ['after tools/list: load the search engine, check the registry + restore the search snapshot (no operation is parsed)', 'tools-list', 'index-ready'],
];

/** Reads the startup_trace line from a served process's stderr (waits up to `timeoutMs`). */
async function startupTrace(s, timeoutMs = 30_000) {
  const t0 = Date.now();
  for (;;) {
    const line = s.stderrText().split('\n').find((l) => l.includes('"startup_trace"'));
    if (line) return JSON.parse(line);
    if (Date.now() - t0 > timeoutMs) throw new Error(`bench: no startup_trace line from serve:\n${s.stderrText().slice(-1000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Phase durations (ms) from one trace's marks. */
function phasesOf(trace) {
  const m = trace.marks;
  const out = {};
  // (a loaded machine can finish the idle warm-up before the first tools/list: that phase is then 0)
  for (const [label, from, to] of STARTUP_PHASES) out[label] = from === null ? m[to] : Math.max(0, m[to] - m[from]);
  return out;
}

/**
 * Spawns `api-catalog serve` (stdio, GitHub catalog) `runs` times, interleaved in the same loop with the peer
 * (dynamic mode, same spec) and with `node -e 0`, so that the three share the machine's load: spawn -> first
 * tools/list answer, RSS right after, spawn -> first search_tools result sent immediately after tools/list (no
 * think time: the worst case for the index), and the server's own start-up trace.
 */
export async function coldStart(runs = 5, { peer = true } = {}) {
  const starts = [];
  const firstSearch = [];
  const rss = [];
  const rssAfterSearch = [];
  const traces = [];
  const peerStarts = [];
  const bare = [];
  let upstream;
  let startPeer;
  if (peer) {
    try {
      ({ startPeer } = await import('./peer.mjs'));
      upstream = await startUpstream();
    } catch (e) {
      progress(`server: peer not measured beside us (${e.message.split('\n')[0]})`);
    }
  }
  try {
    for (let i = 0; i < runs; i++) {
      // The floor: spawning a Node process that does nothing, on this machine, now.
      let t0 = performance.now();
      spawnSync(process.execPath, ['-e', '0']);
      bare.push(performance.now() - t0);
      t0 = performance.now();
      const s = await startStdio(process.execPath, [CLI, 'serve'], { env: { API_CATALOG_LOG_LEVEL: 'error', API_CATALOG_STARTUP_TRACE: '1' } });
      starts.push(s.startMs);
      rss.push(rssOf(s.pid) ?? NaN);
      const r = await s.client.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
      firstSearch.push(performance.now() - t0);
      if (r.isError) throw new Error(`bench: first search failed: ${JSON.stringify(r.content)}`);
      traces.push(await startupTrace(s));
      rssAfterSearch.push(rssOf(s.pid) ?? NaN);
      await s.close();
      if (startPeer && upstream) {
        const p = await startPeer('dynamic', upstream.url);
        peerStarts.push(p.startMs);
        await p.close();
      }
    }
  } finally {
    await upstream?.close();
  }
  const phases = {};
  for (const [label] of STARTUP_PHASES) phases[label] = round(median(traces.map((t) => phasesOf(t)[label])), 1);
  const peerMedianMs = peerStarts.length ? round(median(peerStarts), 1) : null;
  const medianMs = round(median(starts), 1);
  return {
    runs, medianMs, firstSearchMedianMs: round(median(firstSearch), 1), bareNodeMs: round(median(bare), 1), minMs: round(Math.min(...starts), 1),
    samplesMs: starts.map((x) => round(x, 1)), rssAfterStartMB: round(median(rss) / MB, 1), rssAfterFirstSearchMB: round(median(rssAfterSearch) / MB, 1),
    peerDynamicMedianMs: peerMedianMs, peerRatio: peerMedianMs ? round(medianMs / peerMedianMs, 3) : null,
    cpuToIndexReadyMs: round(median(traces.map((t) => t.cpuMs ?? NaN)), 0),
    phases, index: { kinds: [...new Set(traces.map((t) => t.index?.kind))].join(', '), reasons: [...new Set(traces.map((t) => t.index?.reason).filter(Boolean))].join(', '), medianMs: round(median(traces.map((t) => t.index?.ms ?? NaN)), 1) },
  };
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
  progress('server: cold start (stdio, beside the peer and node -e 0) ...');
  const cold = await coldStart(quick ? 3 : 7);
  progress(`server: cold start median ${cold.medianMs} ms (peer ${cold.peerDynamicMedianMs} ms), first search ${cold.firstSearchMedianMs} ms`);
  const breakdown = cold.phases;
  progress('server: in-process search ...');
  const searchInProcess = await inProcessSearch(quick ? 10 : 50);
  progress('server: stdio searches ...');
  const searchStdio = await stdioSearch(quick ? 2000 : 10_000);
  progress('server: execute overhead ...');
  const execute = await executeOverhead(quick ? 500 : 2000);
  return { coldStart: cold, coldStartBreakdown: breakdown, searchInProcess, searchStdio, execute };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --cold-only: just the start-up measurement (beside the peer unless --no-peer)
  if (process.argv.includes('--cold-only')) console.log(JSON.stringify(await coldStart(process.argv.includes('--quick') ? 3 : 7, { peer: !process.argv.includes('--no-peer') }), null, 2));
  else console.log(JSON.stringify(await runServer({ quick: process.argv.includes('--quick') }), null, 2));
}
