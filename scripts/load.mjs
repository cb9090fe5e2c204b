// Load test of the Streamable HTTP server, loopback only and bounded: starts `serve --http` on a free port with the
// per-session rate limit disabled (API_CATALOG_RATE_LIMIT=0: we measure the server, not the limiter), opens N
// concurrent MCP sessions with raw fetch and makes M calls each mixing search_tools, describe_tools and
// execute_tool with dry_run (no upstream is contacted). Prints errors, latency percentiles, throughput and RSS.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: node scripts/load.mjs [--sessions 100] [--calls 100] [--json]
  Needs a build (npm run build). Loopback only; no upstream request is made (execute_tool runs with dry_run).`;

function parseArgs(argv) {
  const o = { sessions: 100, calls: 100, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--sessions' || a === '--calls') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error(`load: ${a} must be an integer 1..10000`);
      o[a.slice(2)] = n;
    } else if (a === '--json') o.json = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`load: unknown option ${JSON.stringify(a)}\n${USAGE}`);
  }
  return o;
}

const freePort = () =>
  new Promise((res, rej) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on('error', rej);
  });

/** RSS and peak RSS (VmHWM) of a process in MB, from /proc (Linux); undefined elsewhere. */
function memOf(pid) {
  try {
    const st = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(st)?.[1] ?? NaN);
    return { rssMB: Math.round(kb('VmRSS') / 1024), peakMB: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return { rssMB: undefined, peakMB: undefined };
  }
}

// Operations with known required arguments on the embedded GitHub catalog (dry_run builds the request only).
const OPS = [
  ['issues_create', { owner: 'octo', repo: 'hello', title: 'Load test' }],
  ['repos_get', { owner: 'octo', repo: 'hello' }],
  ['pulls_get', { owner: 'octo', repo: 'hello', pull_number: 7 }],
  ['users_get-by-username', { username: 'octocat' }],
  ['issues_list-for-repo', { owner: 'octo', repo: 'hello', state: 'open' }],
  ['search_repos', { q: 'language:typescript stars:>100' }],
];
const QUERIES = ['create an issue', 'list pull requests', 'get a repository', 'star a repo', 'add a label to an issue', 'list workflow runs', 'delete a branch', 'search code', 'get the authenticated user', 'merge a pull request'];

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err.message);
    return 2;
  }
  const cli = join(root, 'dist', 'cli', 'index.js');
  if (!existsSync(cli)) {
    console.error('load: dist/cli/index.js is missing; run `npm run build` first');
    return 2;
  }
  const port = await freePort();
  const canary = `CANARY-${randomBytes(8).toString('hex')}`;
  const server = spawn(process.execPath, [cli, 'serve', '--http', '--port', String(port)], {
    env: { ...process.env, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_MAX_SESSIONS: String(Math.max(1000, opts.sessions * 2)), API_CATALOG_LOG_LEVEL: 'warn', GITHUB_TOKEN: canary },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serverOut = '';
  server.stdout.on('data', (c) => (serverOut += c));
  server.stderr.on('data', (c) => (serverOut += c));
  const url = `http://127.0.0.1:${port}/mcp`;
  try {
    for (let i = 0; ; i++) {
      try {
        await fetch(url, { method: 'GET' });
        break;
      } catch {
        if (i > 150 || server.exitCode !== null) throw new Error(`load: the server did not start on ${url}:\n${serverOut}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const memStart = memOf(server.pid);

    const errors = new Map(); // kind -> count (+ first example)
    const addError = (kind, example) => {
      const e = errors.get(kind) ?? { n: 0, example };
      e.n++;
      errors.set(kind, e);
    };
    const lat = { search_tools: [], describe_tools: [], execute_tool: [], initialize: [] };

    /** One JSON-RPC POST; returns the response message (JSON or the first SSE data event). */
    const rpc = async (session, body) => {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (session.id) {
        headers['mcp-session-id'] = session.id;
        headers['mcp-protocol-version'] = session.protocol;
      }
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status === 202) return { status: 202, headers: res.headers };
      if (res.status !== 200) throw Object.assign(new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`), { kind: `http ${res.status}` });
      let msg;
      if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
        const line = text.split('\n').find((l) => l.startsWith('data:'));
        msg = line ? JSON.parse(line.slice(5)) : undefined;
      } else msg = JSON.parse(text);
      if (!msg) throw Object.assign(new Error('empty response'), { kind: 'empty response' });
      if (msg.error) throw Object.assign(new Error(`JSON-RPC ${msg.error.code}: ${msg.error.message}`), { kind: `rpc ${msg.error.code}` });
      return { status: 200, headers: res.headers, msg };
    };

    const runSession = async (s) => {
      const session = { id: undefined, protocol: '2025-06-18', next: 1 };
      let t = performance.now();
      const init = await rpc(session, { jsonrpc: '2.0', id: session.next++, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'load', version: '1' } } });
      lat.initialize.push(performance.now() - t);
      session.id = init.headers.get('mcp-session-id');
      session.protocol = init.msg.result.protocolVersion;
      await rpc(session, { jsonrpc: '2.0', method: 'notifications/initialized' });
      const described = [];
      for (let i = 0; i < opts.calls; i++) {
        // 40% search, 30% describe, 30% dry-run execute (of an operation described earlier in this session).
        const slot = i % 10;
        let tool;
        let args;
        if (slot < 4) {
          tool = 'search_tools';
          args = { query: QUERIES[(s + i) % QUERIES.length], limit: 5 };
        } else if (slot < 7 || described.length === 0) {
          tool = 'describe_tools';
          const op = OPS[(s + i) % OPS.length];
          args = { tool_names: [op[0]] };
          described.push(op);
        } else {
          tool = 'execute_tool';
          const op = described[(s + i) % described.length];
          args = { tool_name: op[0], args: op[1], dry_run: true };
        }
        t = performance.now();
        try {
          const r = await rpc(session, { jsonrpc: '2.0', id: session.next++, method: 'tools/call', params: { name: tool, arguments: args } });
          lat[tool].push(performance.now() - t);
          if (r.msg.result?.isError) addError(`${tool} isError ${r.msg.result.structuredContent?.error?.code ?? ''}`, JSON.stringify(r.msg.result.structuredContent ?? r.msg.result).slice(0, 300));
          else if (r.msg.result?.structuredContent?.success !== true) addError(`${tool} unexpected result`, JSON.stringify(r.msg.result).slice(0, 300));
        } catch (err) {
          lat[tool].push(performance.now() - t);
          addError(`${tool} ${err.kind ?? 'exception'}`, err.message);
        }
      }
      const del = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session.id, 'mcp-protocol-version': session.protocol } });
      await del.text();
    };

    console.error(`load: ${opts.sessions} concurrent sessions x ${opts.calls} calls against ${url} (rate limit off) …`);
    const t0 = performance.now();
    let memPeakDuring = memStart.rssMB ?? 0;
    const sampler = setInterval(() => (memPeakDuring = Math.max(memPeakDuring, memOf(server.pid).rssMB ?? 0)), 100);
    const settled = await Promise.allSettled(Array.from({ length: opts.sessions }, (_, s) => runSession(s)));
    clearInterval(sampler);
    const wallMs = performance.now() - t0;
    for (const r of settled) if (r.status === 'rejected') addError(`session ${r.reason?.kind ?? 'exception'}`, String(r.reason?.message ?? r.reason));
    const memEnd = memOf(server.pid);
    await new Promise((r) => setTimeout(r, 1000));
    const memAfterIdle = memOf(server.pid);

    const pctl = (xs, p) => {
      if (xs.length === 0) return NaN;
      const s = [...xs].sort((a, b) => a - b);
      return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
    };
    const all = [...lat.search_tools, ...lat.describe_tools, ...lat.execute_tool];
    const totalErrors = [...errors.values()].reduce((a, e) => a + e.n, 0);
    const rows = [['calls', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms']];
    for (const [k, xs] of [['all tool calls', all], ...Object.entries(lat)]) rows.push([k, String(xs.length), ...[50, 90, 99, 100].map((p) => pctl(xs, p).toFixed(1))]);
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      sessions: opts.sessions,
      callsPerSession: opts.calls,
      toolCalls: all.length,
      errors: totalErrors,
      errorKinds: Object.fromEntries([...errors].map(([k, v]) => [k, v])),
      wallSeconds: +(wallMs / 1000).toFixed(2),
      callsPerSecond: Math.round(all.length / (wallMs / 1000)),
      latencyMs: Object.fromEntries(Object.entries({ all, ...lat }).map(([k, xs]) => [k, { p50: +pctl(xs, 50).toFixed(1), p90: +pctl(xs, 90).toFixed(1), p99: +pctl(xs, 99).toFixed(1), max: +pctl(xs, 100).toFixed(1) }])),
      serverRssMB: { start: memStart.rssMB, peakDuring: memPeakDuring, end: memEnd.rssMB, afterSessionsClosed: memAfterIdle.rssMB, vmHWM: memAfterIdle.peakMB },
      canaryInServerOutput: serverOut.includes(canary),
    };
    mkdirSync(join(root, '.cache', 'load'), { recursive: true });
    writeFileSync(join(root, '.cache', 'load', 'result.json'), JSON.stringify(result, null, 2) + '\n');
    if (opts.json) console.log(JSON.stringify(result, null, 2));
    else {
      const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
      for (const r of rows) console.log(r.map((v, c) => (c === 0 ? v.padEnd(w[c]) : v.padStart(w[c]))).join('  '));
      console.log(`\n${result.toolCalls} tool calls in ${result.wallSeconds} s (${result.callsPerSecond}/s), ${totalErrors} errors`);
      for (const [k, v] of errors) console.log(`  error ${k}: ${v.n} (e.g. ${v.example})`);
      console.log(`server RSS MB: start ${result.serverRssMB.start}, peak during ${result.serverRssMB.peakDuring}, end ${result.serverRssMB.end}, 1 s after sessions closed ${result.serverRssMB.afterSessionsClosed} (VmHWM ${result.serverRssMB.vmHWM})`);
      if (result.canaryInServerOutput) console.log('CANARY: the server printed the GITHUB_TOKEN canary');
    }
    return totalErrors === 0 && !result.canaryInServerOutput ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
  }
}

process.exitCode = await main();
