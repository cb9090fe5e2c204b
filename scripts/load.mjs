// Load test of the Streamable HTTP server, loopback only and bounded: starts `serve --http` on a free port with the
// rate limits disabled (API_CATALOG_RATE_LIMIT=0, API_CATALOG_READ_RATE_LIMIT=0: we measure the server, not the
// limiter), opens N concurrent MCP sessions with raw fetch and makes M calls each mixing search_tools,
// describe_tools and execute_tool with dry_run (no upstream is contacted). Prints errors, latency percentiles,
// throughput and RSS. With --replicas 2 it starts its own redis-server, two replicas with --state and a
// round-robin balancer from deploy/ (nginx or HAProxy), and with --kill-after it kills one replica mid-run;
// --url points it at a running deployment instead; --compare runs the single process first, then the replicas.
// --era modern speaks MCP 2026-07-28 instead (no initialize, no session: every request carries its _meta envelope
// and the Mcp-Method / Mcp-Name headers; execute_tool passes the handle its describe returned).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: node scripts/load.mjs [--sessions 100] [--calls 100] [--json]
         [--replicas 2 [--balancer nginx|haproxy] [--kill-after <seconds>]] [--compare] [--url <mcp url>] [--era legacy|modern]
  Needs a build (npm run build). Loopback only; no upstream request is made (execute_tool runs with dry_run).
  --replicas n     start redis-server, n replicas (serve --http --state redis://...) and a round-robin balancer
                   generated from deploy/nginx.conf or deploy/haproxy.cfg (needs redis-server and nginx/haproxy)
  --kill-after s   kill -9 the first replica s seconds into the run; reports the calls that failed and whether
                   every session went on afterwards
  --compare        run the single process first, then the replicas, and print both
  --url u          load an already running deployment at u (no processes started; no RSS)
  --era e          legacy (default: initialize, one MCP session per simulated client) or modern (2026-07-28:
                   stateless requests; "sessions" are then concurrent clients)`;

function parseArgs(argv) {
  const o = { sessions: 100, calls: 100, json: false, replicas: 1, balancer: 'nginx', killAfter: undefined, compare: false, url: undefined, era: 'legacy' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--sessions' || a === '--calls') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error(`load: ${a} must be an integer 1..10000`);
      o[a.slice(2)] = n;
    } else if (a === '--replicas') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error('load: --replicas must be an integer 1..8');
      o.replicas = n;
    } else if (a === '--kill-after') {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n <= 0) throw new Error('load: --kill-after must be a number of seconds > 0');
      o.killAfter = n;
    } else if (a === '--balancer') {
      o.balancer = argv[++i];
      if (o.balancer !== 'nginx' && o.balancer !== 'haproxy') throw new Error('load: --balancer must be nginx or haproxy');
    } else if (a === '--url') {
      o.url = argv[++i];
      if (!/^https?:\/\//.test(o.url ?? '')) throw new Error('load: --url must be an http(s) URL of an MCP endpoint');
    } else if (a === '--era') {
      o.era = argv[++i];
      if (o.era !== 'legacy' && o.era !== 'modern') throw new Error('load: --era must be legacy or modern');
    } else if (a === '--compare') o.compare = true;
    else if (a === '--json') o.json = true;
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

const cli = join(root, 'dist', 'cli', 'index.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A child process whose output is kept (last 20 kB) for error messages and the canary check. */
function start(cmd, args, env = {}) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { child, out: '' };
  const keep = (c) => (proc.out = (proc.out + c).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  proc.exited = new Promise((r) => child.once('exit', r));
  proc.stop = async (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    await proc.exited;
    clearTimeout(force);
  };
  return proc;
}

async function waitFor(url, proc, what, okStatus = () => true) {
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(url);
      await res.text();
      if (okStatus(res.status)) return;
    } catch {
      // not up yet
    }
    if (i > 300 || (proc && proc.child.exitCode !== null)) throw new Error(`load: ${what} did not start on ${url}:\n${proc?.out ?? ''}`);
    await sleep(100);
  }
}

function binary(name) {
  const r = spawnSync('sh', ['-c', `command -v ${name} || ls /usr/sbin/${name} /usr/bin/${name} 2>/dev/null | head -1`], { encoding: 'utf8' });
  const path = r.stdout.trim().split('\n')[0];
  if (!path) throw new Error(`load: ${name} is not installed (apt-get install ${name})`);
  return path;
}

/** deploy/nginx.conf or deploy/haproxy.cfg with our ports (the same rewrite as test/helpers/balancer.ts). */
function balancerConfig(kind, listenPort, ports) {
  if (kind === 'nginx') {
    let t = readFileSync(join(root, 'deploy', 'nginx.conf'), 'utf8').replace(/listen 127\.0\.0\.1:8080;/, `listen 127.0.0.1:${listenPort};`);
    const m = /( *)server 127\.0\.0\.1:3001 ([^\n]*)\n *server 127\.0\.0\.1:3002 [^\n]*\n/.exec(t);
    if (!m) throw new Error('load: deploy/nginx.conf upstream lines changed');
    return t.replace(m[0], ports.map((p) => `${m[1]}server 127.0.0.1:${p} ${m[2]}\n`).join(''));
  }
  let t = readFileSync(join(root, 'deploy', 'haproxy.cfg'), 'utf8').replace(/bind 127\.0\.0\.1:8080/, `bind 127.0.0.1:${listenPort}`);
  const block = /( *)server r1 127\.0\.0\.1:3001 ([^\n]*)\n *server r2 127\.0\.0\.1:3002 [^\n]*\n/g;
  if (!block.test(t)) throw new Error('load: deploy/haproxy.cfg server lines changed');
  return t.replace(block, (_all, indent, params) => ports.map((p, i) => `${indent}server r${i + 1} 127.0.0.1:${p} ${params.replace('/r1', `/r${i + 1}`)}\n`).join(''));
}

const serverEnv = (opts, canary) => ({
  API_CATALOG_RATE_LIMIT: '0',
  API_CATALOG_READ_RATE_LIMIT: '0',
  API_CATALOG_MAX_SESSIONS: String(Math.max(1000, opts.sessions * 2)),
  API_CATALOG_LOG_LEVEL: 'warn',
  GITHUB_TOKEN: canary,
});

/** One process, as before: returns { url, pids, outputs, stop }. */
async function deploySingle(opts, canary) {
  const port = await freePort();
  const server = start(process.execPath, [cli, 'serve', '--http', '--port', String(port)], serverEnv(opts, canary));
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(url, server, 'the server');
  return { url, procs: [server], replicas: [server], stop: () => server.stop() };
}

/** redis-server + n replicas with --state + a round-robin balancer. */
async function deployReplicas(opts, canary) {
  const dir = mkdtempSync(join(tmpdir(), 'ac-load-'));
  const redisPort = await freePort();
  const redis = start(binary('redis-server'), ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]);
  const procs = [redis];
  const stop = async () => {
    for (const p of procs.slice().reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const state = `redis://127.0.0.1:${redisPort}/0`;
    const replicas = [];
    for (let i = 0; i < opts.replicas; i++) {
      const port = await freePort();
      const r = start(process.execPath, [cli, 'serve', '--http', '--port', String(port), '--allow-host', '127.0.0.1'], { ...serverEnv(opts, canary), API_CATALOG_STATE: state });
      r.port = port;
      procs.push(r);
      replicas.push(r);
    }
    for (const r of replicas) await waitFor(`http://127.0.0.1:${r.port}/readyz`, r, 'a replica', (s) => s === 200);
    const lbPort = await freePort();
    let lb;
    if (opts.balancer === 'nginx') {
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      writeFileSync(join(dir, 'nginx.conf'), balancerConfig('nginx', lbPort, replicas.map((r) => r.port)));
      lb = start(binary('nginx'), ['-c', join(dir, 'nginx.conf'), '-p', dir + '/']);
    } else {
      writeFileSync(join(dir, 'haproxy.cfg'), balancerConfig('haproxy', lbPort, replicas.map((r) => r.port)));
      lb = start(binary('haproxy'), ['-f', join(dir, 'haproxy.cfg'), '-db']);
    }
    procs.push(lb);
    const url = `http://127.0.0.1:${lbPort}/mcp`;
    await waitFor(`http://127.0.0.1:${lbPort}/healthz`, lb, 'the balancer', (s) => s === 200);
    return { url, procs, replicas, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const pctl = (xs, p) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** Runs the sessions against `url`; kills `victim` after killAfter seconds when given. */
async function runLoad(url, opts, deployment, label) {
  const pids = (deployment?.replicas ?? []).map((r) => r.child.pid);
  const rss = () => pids.reduce((a, pid) => a + (Number.isFinite(memOf(pid).rssMB) ? memOf(pid).rssMB : 0), 0);
  const memStart = rss();
  const errors = new Map(); // kind -> count (+ first example)
  const addError = (kind, example) => {
    const e = errors.get(kind) ?? { n: 0, example };
    e.n++;
    errors.set(kind, e);
  };
  const lat = { search_tools: [], describe_tools: [], execute_tool: [], initialize: [] };
  let killedAt;
  // When the killed process was gone: until then its kernel socket still accepts connections, so calls sent
  // between the signal and the exit are in flight on the dying replica.
  let exitedAt;
  let callsInFlightAtKill = 0;
  let inFlight = 0;
  const failuresAfterKill = [];
  const sessionsOkAfterKill = new Set();
  const sessionsAtKill = new Set();
  const active = new Set();

  const modern = opts.era === 'modern';
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'load', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  /** One JSON-RPC POST; returns the response message (JSON or the first SSE data event). */
  const rpc = async (session, body) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (modern) {
      // 2026-07-28: the envelope in params._meta and the standard headers, on every request.
      body = { ...body, params: { ...body.params, _meta: META } };
      headers['mcp-protocol-version'] = '2026-07-28';
      headers['mcp-method'] = body.method;
      if (body.method === 'tools/call') headers['mcp-name'] = body.params.name;
    } else if (session.id) {
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
    if (!modern) {
      const init = await rpc(session, { jsonrpc: '2.0', id: session.next++, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'load', version: '1' } } });
      lat.initialize.push(performance.now() - t);
      session.id = init.headers.get('mcp-session-id');
      session.protocol = init.msg.result.protocolVersion;
      await rpc(session, { jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    active.add(s);
    const described = [];
    let pendingDescribe;
    for (let i = 0; i < opts.calls; i++) {
      pendingDescribe = undefined;
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
        pendingDescribe = op;
      } else {
        tool = 'execute_tool';
        const op = described[(s + i) % described.length];
        args = { tool_name: op[0], args: op[1], dry_run: true, ...(op[2] !== undefined ? { handle: op[2] } : {}) };
      }
      t = performance.now();
      const startedBeforeKill = killedAt === undefined;
      inFlight++;
      try {
        const r = await rpc(session, { jsonrpc: '2.0', id: session.next++, method: 'tools/call', params: { name: tool, arguments: args } });
        lat[tool].push(performance.now() - t);
        if (r.msg.result?.isError) addError(`${tool} isError ${r.msg.result.structuredContent?.error?.code ?? ''}`, JSON.stringify(r.msg.result.structuredContent ?? r.msg.result).slice(0, 300));
        else if (r.msg.result?.structuredContent?.success !== true) addError(`${tool} unexpected result`, JSON.stringify(r.msg.result).slice(0, 300));
        else {
          // Only a describe that succeeded authorizes a later execute (2026-07-28: through the handle it returned).
          if (pendingDescribe) described.push([...pendingDescribe, r.msg.result.structuredContent.value.tools[0].example?.handle]);
          if (killedAt !== undefined && !startedBeforeKill) sessionsOkAfterKill.add(s);
        }
      } catch (err) {
        lat[tool].push(performance.now() - t);
        const kind = err.kind ?? `exception ${err.cause?.code ?? err.cause?.message ?? err.message}`.slice(0, 60);
        addError(`${tool} ${kind}`, err.message);
        if (killedAt !== undefined) failuresAfterKill.push({ session: s, startedBeforeKill, startedMsAfterKill: Math.round(t - killedAt), failedMsAfterKill: Math.round(performance.now() - killedAt), startedAfterExit: exitedAt !== undefined && t > exitedAt, kind });
      } finally {
        inFlight--;
      }
    }
    active.delete(s);
    if (modern) return;
    const del = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session.id, 'mcp-protocol-version': session.protocol } });
    await del.text();
  };

  console.error(`load: ${label}: ${opts.sessions} concurrent ${modern ? '2026-07-28 clients' : 'sessions'} x ${opts.calls} calls against ${url} (rate limits off) …`);
  const t0 = performance.now();
  let memPeakDuring = memStart;
  const sampler = setInterval(() => (memPeakDuring = Math.max(memPeakDuring, rss())), 100);
  let killTimer;
  if (opts.killAfter !== undefined && deployment && deployment.replicas.length > 1) {
    killTimer = setTimeout(() => {
      killedAt = performance.now();
      callsInFlightAtKill = inFlight;
      for (const s of active) sessionsAtKill.add(s);
      deployment.replicas[0].child.once('exit', () => (exitedAt = performance.now()));
      deployment.replicas[0].child.kill('SIGKILL');
      console.error(`load: killed replica 1 (pid ${deployment.replicas[0].child.pid}) with ${inFlight} calls in flight`);
    }, opts.killAfter * 1000);
  }
  const settled = await Promise.allSettled(Array.from({ length: opts.sessions }, (_, s) => runSession(s)));
  clearTimeout(killTimer);
  clearInterval(sampler);
  const wallMs = performance.now() - t0;
  for (const r of settled) if (r.status === 'rejected') addError(`session ${r.reason?.kind ?? 'exception'}`, String(r.reason?.message ?? r.reason));
  const memEnd = rss();
  await sleep(1000);
  const memAfterIdle = rss();

  const all = [...lat.search_tools, ...lat.describe_tools, ...lat.execute_tool];
  const totalErrors = [...errors.values()].reduce((a, e) => a + e.n, 0);
  const result = {
    label,
    era: opts.era,
    date: new Date().toISOString(),
    node: process.version,
    url,
    replicas: deployment?.replicas.length,
    sessions: opts.sessions,
    callsPerSession: opts.calls,
    toolCalls: all.length,
    errors: totalErrors,
    errorKinds: Object.fromEntries([...errors].map(([k, v]) => [k, v])),
    wallSeconds: +(wallMs / 1000).toFixed(2),
    callsPerSecond: Math.round(all.length / (wallMs / 1000)),
    latencyMs: Object.fromEntries(Object.entries({ all, ...lat }).map(([k, xs]) => [k, { p50: +pctl(xs, 50).toFixed(1), p90: +pctl(xs, 90).toFixed(1), p99: +pctl(xs, 99).toFixed(1), max: +pctl(xs, 100).toFixed(1) }])),
    serverRssMB: deployment ? { start: memStart, peakDuring: memPeakDuring, end: memEnd, afterSessionsClosed: memAfterIdle } : undefined,
  };
  if (killedAt !== undefined) {
    result.kill = {
      afterSeconds: opts.killAfter,
      callsInFlightAtKill,
      failedCalls: failuresAfterKill.length,
      failedCallsStartedBeforeKill: failuresAfterKill.filter((f) => f.startedBeforeKill).length,
      failedCallsStartedAfterKill: failuresAfterKill.filter((f) => !f.startedBeforeKill).length,
      processExitedMsAfterSignal: exitedAt !== undefined ? Math.round(exitedAt - killedAt) : undefined,
      failedCallsStartedAfterExit: failuresAfterKill.filter((f) => f.startedAfterExit).length,
      failures: failuresAfterKill.slice(0, 50),
      failureKinds: Object.fromEntries(Object.entries(failuresAfterKill.reduce((a, f) => ((a[f.kind] = (a[f.kind] ?? 0) + 1), a), {}))),
      sessionsActiveAtKill: sessionsAtKill.size,
      sessionsActiveAtKillThatContinued: [...sessionsAtKill].filter((s) => sessionsOkAfterKill.has(s)).length,
      sessionsFailed: settled.filter((r) => r.status === 'rejected').length,
    };
  }
  return { result, errors };
}

function print(result, errors) {
  const rows = [['calls', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms']];
  for (const [k, v] of Object.entries(result.latencyMs)) {
    const n = k === 'all' ? result.toolCalls : undefined;
    rows.push([k === 'all' ? 'all tool calls' : k, String(n ?? ''), String(v.p50), String(v.p90), String(v.p99), String(v.max)]);
  }
  console.log(`\n== ${result.label} (${result.url})`);
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((v, c) => (c === 0 ? v.padEnd(w[c]) : v.padStart(w[c]))).join('  '));
  console.log(`\n${result.toolCalls} tool calls in ${result.wallSeconds} s (${result.callsPerSecond}/s), ${result.errors} errors`);
  for (const [k, v] of errors) console.log(`  error ${k}: ${v.n} (e.g. ${v.example})`);
  if (result.serverRssMB) console.log(`server RSS MB (sum over ${result.replicas} process(es)): start ${result.serverRssMB.start}, peak during ${result.serverRssMB.peakDuring}, end ${result.serverRssMB.end}, 1 s after sessions closed ${result.serverRssMB.afterSessionsClosed}`);
  if (result.kill) console.log(`kill -9 of replica 1 after ${result.kill.afterSeconds} s: ${result.kill.callsInFlightAtKill} calls in flight; ${result.kill.failedCalls} calls failed (${result.kill.failedCallsStartedBeforeKill} started before the kill, ${result.kill.failedCallsStartedAfterKill} after the signal, ${result.kill.failedCallsStartedAfterExit} after the process was gone ${result.kill.processExitedMsAfterSignal} ms later: ${JSON.stringify(result.kill.failureKinds)}); ${result.kill.sessionsActiveAtKillThatContinued}/${result.kill.sessionsActiveAtKill} sessions active at the kill went on; ${result.kill.sessionsFailed} sessions failed`);
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err.message);
    return 2;
  }
  if (!opts.url && !existsSync(cli)) {
    console.error('load: dist/cli/index.js is missing; run `npm run build` first');
    return 2;
  }
  const canary = `CANARY-${randomBytes(8).toString('hex')}`;
  const runs = [];
  const era = opts.era === 'modern' ? ', 2026-07-28' : '';
  const plans = opts.url ? [[`deployment at --url${era}`, null]] : opts.compare ? [[`single process${era}`, 'single'], [`${opts.replicas} replicas + Redis + ${opts.balancer}${era}`, 'replicas']] : [[opts.replicas > 1 ? `${opts.replicas} replicas + Redis + ${opts.balancer}${era}` : `single process${era}`, opts.replicas > 1 ? 'replicas' : 'single']];
  if (opts.compare && opts.replicas < 2) opts.replicas = 2;
  let ok = true;
  for (const [label, kind] of plans) {
    const deployment = kind === 'single' ? await deploySingle(opts, canary) : kind === 'replicas' ? await deployReplicas(opts, canary) : null;
    try {
      const { result, errors } = await runLoad(opts.url ?? deployment.url, { ...opts, killAfter: kind === 'replicas' ? opts.killAfter : undefined }, deployment, label);
      result.canaryInServerOutput = deployment ? deployment.procs.some((p) => p.out.includes(canary)) : false;
      runs.push(result);
      if (!opts.json) print(result, errors);
      if (result.canaryInServerOutput) console.log('CANARY: a server printed the GITHUB_TOKEN canary');
      // With a kill, failures of calls in flight are expected; everything else must succeed.
      const allowed = result.kill ? result.kill.failedCalls : 0;
      if (result.errors > allowed || result.canaryInServerOutput || (result.kill && result.kill.sessionsFailed > 0)) ok = false;
    } finally {
      await deployment?.stop();
    }
  }
  mkdirSync(join(root, '.cache', 'load'), { recursive: true });
  // result.json keeps its single-run shape for scripts/bench.mjs; several runs are all in runs.json.
  writeFileSync(join(root, '.cache', 'load', 'result.json'), JSON.stringify(runs[0], null, 2) + '\n');
  writeFileSync(join(root, '.cache', 'load', 'runs.json'), JSON.stringify(runs, null, 2) + '\n');
  if (opts.json) console.log(JSON.stringify(runs.length === 1 ? runs[0] : runs, null, 2));
  return ok ? 0 : 1;
}

process.exitCode = await main();
