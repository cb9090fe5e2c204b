#!/usr/bin/env node
// Rolling restart under load (issue 25 item 1): redis-server, 2 replicas (`serve --http --state ... --require-state`)
// of the petstore fixture behind nginx or HAProxy with the config in deploy/, a fake upstream that answers after 150 ms, and
// clients of both eras (raw Streamable HTTP: legacy sessions and 2026-07-28 requests) looping search -> describe ->
// execute_tool. After a few seconds each replica in turn gets SIGTERM, drains, exits, and starts again on its port.
// Reports calls, errors, upstream requests cancelled (must be 0), exit codes, drain and restart times.
// Run alone (after npm run build): node scripts/bench/rolling.mjs [--balancer nginx|haproxy] [--clients N] [--json]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, FIXTURES, ROOT, round } from './lib/common.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--balancer', '--clients', '--json']);

const argv = process.argv.slice(2);
const ci = argv.indexOf('--clients');
const PER_ERA = ci >= 0 ? Number(argv[ci + 1]) : 10;
const bi = argv.indexOf('--balancer');
const BALANCER = bi >= 0 ? argv[bi + 1] : 'nginx';
if (BALANCER !== 'nginx' && BALANCER !== 'haproxy') throw new Error('rolling: --balancer must be nginx or haproxy');
const UPSTREAM_MS = 150;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => new Promise((resolve) => { const s = netServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
const bin = (name) => spawnSync('sh', ['-c', `command -v ${name} || ls /usr/sbin/${name} /usr/bin/${name} 2>/dev/null | head -1`], { encoding: 'utf8' }).stdout.trim().split('\n')[0] || (() => { throw new Error(`rolling: ${name} is not installed`); })();

function start(cmd, args, env = {}) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const p = { child, out: '' };
  const keep = (c) => (p.out = (p.out + c).slice(-50_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  p.exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return p;
}
async function waitReady(url, proc) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(url);
      await res.text();
      if (res.status === 200) return;
    } catch { /* not yet */ }
    if (proc.child.exitCode !== null) break;
    await sleep(50);
  }
  throw new Error(`rolling: ${url} never became ready:\n${proc.out.slice(-2000)}`);
}

// The upstream: answers after UPSTREAM_MS; counts requests and the ones whose client went away (cancelled).
const upstream = { requests: 0, cancelled: 0 };
const up = createServer((req, res) => {
  upstream.requests++;
  req.resume();
  const t = setTimeout(() => res.end(JSON.stringify({ id: 1, name: 'Rex' })), UPSTREAM_MS);
  res.once('close', () => {
    if (!res.writableFinished) {
      clearTimeout(t);
      upstream.cancelled++;
    }
  });
});
await new Promise((r) => up.listen(0, '127.0.0.1', r));
const upUrl = `http://127.0.0.1:${up.address().port}`;

const dir = mkdtempSync(join(tmpdir(), 'ac-rolling-'));
const procs = [];
const result = { balancer: BALANCER, clientsPerEra: PER_ERA, calls: 0, executes: 0, errors: 0, errorKinds: {}, upstreamRequests: 0, cancelledUpstream: 0, exits: [], drainMs: [], restartToReadyMs: [] };
try {
  const redisPort = await freePort();
  procs.push(start(bin('redis-server'), ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]));
  const env = { API_CATALOG_STATE: `redis://127.0.0.1:${redisPort}/0`, PETSTORE_BASE_URL: upUrl, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_READ_RATE_LIMIT: '0', API_CATALOG_LOG_LEVEL: 'warn' };
  const args = (port) => [CLI, 'serve', '--http', '--port', String(port), '--registry', join(FIXTURES, 'registry', 'petstore'), '--allow-host', '127.0.0.1', '--require-state', '--shutdown-grace', '20'];
  const ports = [await freePort(), await freePort()];
  const replicas = ports.map((p) => start(process.execPath, args(p), env));
  procs.push(...replicas);
  for (const [i, r] of replicas.entries()) await waitReady(`http://127.0.0.1:${ports[i]}/readyz`, r);
  const lbPort = await freePort();
  if (BALANCER === 'nginx') {
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    let conf = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8').replace(/listen 127\.0\.0\.1:8080;/, `listen 127.0.0.1:${lbPort};`);
    const m = /( *)server 127\.0\.0\.1:3001 ([^\n]*)\n *server 127\.0\.0\.1:3002 [^\n]*\n/.exec(conf);
    conf = conf.replace(m[0], ports.map((p) => `${m[1]}server 127.0.0.1:${p} ${m[2]}\n`).join(''));
    writeFileSync(join(dir, 'nginx.conf'), conf);
    procs.push(start(bin('nginx'), ['-c', join(dir, 'nginx.conf'), '-p', dir + '/']));
  } else {
    // Every backend's server lines (the read backend tracks the main one's).
    let conf = readFileSync(join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8').replace(/bind 127\.0\.0\.1:8080/, `bind 127.0.0.1:${lbPort}`);
    const block = /( *)server r1 127\.0\.0\.1:3001 ([^\n]*)\n *server r2 127\.0\.0\.1:3002 [^\n]*\n/g;
    conf = conf.replace(block, (_a, indent, params) => ports.map((p, i) => `${indent}server r${i + 1} 127.0.0.1:${p} ${params.replace('/r1', `/r${i + 1}`)}\n`).join(''));
    writeFileSync(join(dir, 'haproxy.cfg'), conf);
    procs.push(start(bin('haproxy'), ['-f', join(dir, 'haproxy.cfg'), '-db']));
  }
  const url = `http://127.0.0.1:${lbPort}/mcp`;
  for (let i = 0; i < 100; i++) {
    try { await (await fetch(`http://127.0.0.1:${lbPort}/readyz`)).text(); break; } catch { await sleep(50); }
  }

  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'rolling', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const fail = (kind) => { result.errors++; result.errorKinds[kind] = (result.errorKinds[kind] ?? 0) + 1; };
  async function rpc(session, body) {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (session === 'modern') {
      body = { ...body, params: { ...body.params, _meta: META } };
      Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': body.method, ...(body.params.name ? { 'mcp-name': body.params.name } : {}) });
    } else if (session?.id) Object.assign(headers, { 'mcp-session-id': session.id, 'mcp-protocol-version': session.protocol });
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status === 202) return { res };
    if (res.status !== 200) throw Object.assign(new Error(text.slice(0, 200)), { kind: `http ${res.status}` });
    const line = (res.headers.get('content-type') ?? '').includes('text/event-stream') ? text.split('\n').find((l) => l.startsWith('data:'))?.slice(5) : text;
    return { res, msg: JSON.parse(line) };
  }
  let stop = false;
  let id = 1;
  async function client(era, n) {
    let session = 'modern';
    try {
      if (era === 'legacy') {
        const init = await rpc(undefined, { jsonrpc: '2.0', id: id++, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rolling', version: '1' } } });
        session = { id: init.res.headers.get('mcp-session-id'), protocol: init.msg.result.protocolVersion };
        await rpc(session, { jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      for (let i = 0; !stop; i++) {
        const tool = async (name, args) => {
          result.calls++;
          try {
            const r = await rpc(session, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
            const env = r.msg?.result?.structuredContent;
            if (!env?.success) fail(env?.error?.code ?? `rpc ${r.msg?.error?.code}`);
            return env;
          } catch (e) {
            fail(e.kind ?? `network: ${e.cause?.code ?? e.message.slice(0, 40)}`);
            return undefined;
          }
        };
        await tool('search_tools', { query: 'get a pet' });
        const d = await tool('describe_tools', { tool_names: ['pets.get'] });
        const handle = d?.value?.tools?.[0]?.example?.handle;
        const x = await tool('execute_tool', { tool_name: 'pets.get', args: { petId: n * 10000 + i + 1 }, ...(handle ? { handle } : {}) });
        if (x?.success) result.executes++;
      }
    } catch (e) {
      fail(`client: ${e.kind ?? e.message.slice(0, 60)}`);
    }
  }
  const loops = ['legacy', 'modern'].flatMap((era) => Array.from({ length: PER_ERA }, (_, n) => client(era, n + (era === 'modern' ? 500 : 0))));
  await sleep(2000);
  for (const i of [0, 1]) {
    const t0 = performance.now();
    replicas[i].child.kill('SIGTERM');
    const exit = await replicas[i].exited;
    result.exits.push(exit.code);
    result.drainMs.push(round(performance.now() - t0, 0));
    const t1 = performance.now();
    replicas[i] = start(process.execPath, args(ports[i]), env);
    procs.push(replicas[i]);
    await waitReady(`http://127.0.0.1:${ports[i]}/readyz`, replicas[i]);
    result.restartToReadyMs.push(round(performance.now() - t1, 0));
    await sleep(2000);
  }
  stop = true;
  await Promise.all(loops);
  result.upstreamRequests = upstream.requests;
  result.cancelledUpstream = upstream.cancelled;
} finally {
  for (const p of procs.reverse()) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all(procs.map((p) => p.exited));
  up.close();
  rmSync(dir, { recursive: true, force: true });
}
if (argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`rolling restart behind ${BALANCER} (deploy/${BALANCER === 'nginx' ? 'nginx.conf' : 'haproxy.cfg'}), 2 replicas + Redis, ${PER_ERA} legacy + ${PER_ERA} modern clients, upstream ${UPSTREAM_MS} ms`);
  console.log(`calls ${result.calls}, execute_tool ok ${result.executes}, errors ${result.errors}${result.errors ? ` ${JSON.stringify(result.errorKinds)}` : ''}`);
  console.log(`upstream requests ${result.upstreamRequests} (= execute_tool ok: ${result.upstreamRequests === result.executes}), cancelled upstream requests ${result.cancelledUpstream}`);
  console.log(`replica exits ${result.exits.join(', ')}; SIGTERM -> exit ${result.drainMs.join(' / ')} ms; start -> ready ${result.restartToReadyMs.join(' / ')} ms`);
}
process.exit(result.errors === 0 && result.cancelledUpstream === 0 && result.exits.every((c) => c === 0) ? 0 : 1);
