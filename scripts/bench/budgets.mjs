#!/usr/bin/env node
// Time budgets of the reliability checklist (../shared/docs/RELIABILITY.md), measured and compared with their
// targets. The tests prove each behaviour without a clock (so a busy machine cannot fail them); the numbers live
// here. Prints one line per budget: measured, target, ok/OVER. Never exits non-zero for a number over its target
// (a loaded machine says nothing about the code); run it on a quiet one. `npm run build` first.
// Usage: node scripts/bench/budgets.mjs [--only E3,K1,...] [--runs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, DIST, FIXTURES, median } from './lib/common.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--only', '--runs']);

const args = process.argv.slice(2);
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : undefined;
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 5;
const want = (id) => only === undefined || only.has(id);
const imp = (rel) => import(join(DIST, rel));
const results = [];

/** One budget line: the median of the runs against the target. */
function report(id, what, times, targetMs) {
  const m = median(times);
  const ok = m <= targetMs;
  results.push({ id, what, medianMs: Math.round(m * 100) / 100, maxMs: Math.round(Math.max(...times) * 100) / 100, targetMs, ok });
  console.log(`${id.padEnd(4)} ${what.padEnd(62)} median ${m.toFixed(1).padStart(8)} ms  max ${Math.max(...times).toFixed(1).padStart(8)} ms  target <= ${targetMs} ms  ${ok ? 'ok' : 'OVER'}`);
}

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function repeat(fn) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await timed(fn));
  return times;
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// E3: a catastrophic pattern validates in linear time (RE2), 40 and 5,000 characters.
if (want('E3')) {
  const { createAjv } = await imp('schema/ajv.js');
  const validate = createAjv().compile({ type: 'string', pattern: '^(a+)+$' });
  report('E3', '^(a+)+$ on 40 a + "!"', await repeat(() => validate(`${'a'.repeat(40)}!`)), 50);
  report('E3', '^(a+)+$ on 5,000 a + "!"', await repeat(() => validate(`${'a'.repeat(5000)}!`)), 250);
}

// K1: hostile queries on the embedded GitHub catalog (in process).
if (want('K1')) {
  const { loadCatalog, defaultCatalogDir } = await imp('registry/catalog.js');
  const { SearchIndex } = await imp('search/index.js');
  const catalog = loadCatalog(defaultCatalogDir());
  const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
  for (const [label, q] of [['1 MB query', 'x'.repeat(1 << 20)], ['regex metacharacters', '(.*)+'.repeat(200_000)], ['emoji', '🎉'.repeat(100_000)], ['empty', ''], ['1 MB words', 'create issue '.repeat(90_000)]]) {
    index.search(q);
    report('K1', `search_tools ${label} (GitHub, in process)`, await repeat(() => index.search(q)), 100);
  }
}

// I3: connection refused is a fast error (no retry, no back-off).
if (want('I3')) {
  const { send, DEFAULTS } = await imp('execution/http.js');
  const port = await freePort();
  const req = { method: 'GET', url: `http://127.0.0.1:${port}/x`, headers: {}, redactor: { string: (s) => s } };
  report('I3', 'connection refused -> UPSTREAM_UNREACHABLE', await repeat(() => send(req, { ...DEFAULTS, maxBytes: DEFAULTS.maxResponseBytes }).catch(() => undefined)), 1000);
}

// The entity model of test/importer/entity-model.test.ts: 60 entities referencing each other, 120 operations.
if (want('IMP')) {
  const { importSpec } = await imp('importer/index.js');
  const schemas = {};
  const paths = {};
  for (let i = 0; i < 60; i++) {
    const properties = { id: { type: 'string', readOnly: true, description: 'Server-assigned identifier.' } };
    for (let f = 0; f < 40; f++) properties[`field${f}`] = { type: 'string', maxLength: 200, description: `Field ${f} of entity ${i}, documented at some length as generated specs do.` };
    for (let k = 1; k <= 5; k++) properties[`nav${k}`] = { $ref: `#/components/schemas/Entity${(i + k * 7) % 60}` };
    properties.children = { type: 'array', items: { $ref: `#/components/schemas/Entity${(i + 1) % 60}` } };
    schemas[`Entity${i}`] = { type: 'object', required: ['field0'], properties };
    paths[`/entities${i}`] = {
      post: { operationId: `createEntity${i}`, requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/Entity${i}` } } } }, responses: { 201: { description: 'Created' } } },
      get: { operationId: `listEntities${i}`, parameters: [{ name: 'top', in: 'query', schema: { type: 'integer', minimum: 1 } }], responses: { 200: { description: 'OK' } } },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-budgets-'));
  const file = join(dir, 'entities.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'Entity model', version: '1' }, paths, components: { schemas } }));
  try {
    report('IMP', 'import of the 60-entity model (120 operations)', await repeat(() => importSpec(file)), 15_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// C5 and I13 over stdio: a spawned `serve` on the petstore fixture, an upstream that never answers.
if (want('C5') || want('I13')) {
  const pending = new Map();
  const upstream = createServer((req, res) => {
    const cb = pending.get(req.url);
    res.on('close', () => cb?.closed?.());
    cb?.arrived?.();
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${upstream.address().port}`;
  const serve = () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--registry', join(FIXTURES, 'registry', 'petstore')], {
      env: { ...process.env, PETSTORE_BASE_URL: base, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_LOG_LEVEL: 'error' },
    });
    let buf = '';
    const waiters = [];
    const lines = [];
    child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
      for (const w of waiters.splice(0)) w();
    });
    const send = (m) => child.stdin.write(JSON.stringify(m) + '\n');
    const response = async (id) => {
      for (;;) {
        const hit = lines.find((m) => m.id === id);
        if (hit) return hit;
        await new Promise((r) => waiters.push(r));
      }
    };
    const exited = new Promise((r) => child.on('exit', r));
    return { child, send, response, exited };
  };
  const open = async () => {
    const p = serve();
    p.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    await p.response(1);
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return p;
  };
  const stalledCall = async (p, petId) => {
    const arrived = new Promise((r) => pending.set(`/pets/${petId}`, { arrived: r, closed: () => pending.get(`/pets/${petId}`)?.onClosed?.() }));
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'describe_tools', arguments: { tool_names: ['pets.get'] } } });
    await p.response(2);
    p.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId } } } });
    await arrived;
    // wrapped, so that awaiting stalledCall waits for the request to arrive, not for it to be aborted
    return { aborted: new Promise((r) => (pending.get(`/pets/${petId}`).onClosed = r)) };
  };
  if (want('C5')) {
    const idle = [];
    const busy = [];
    for (let i = 0; i < runs; i++) {
      const p = await open();
      idle.push(await timed(async () => {
        p.child.stdin.end();
        await p.exited;
      }));
      const q = await open();
      const { aborted } = await stalledCall(q, 100 + i);
      busy.push(await timed(async () => {
        q.child.stdin.end();
        await Promise.all([q.exited, aborted]);
      }));
    }
    report('C5', 'stdin EOF -> exit (idle)', idle, 1000);
    report('C5', 'stdin EOF -> exit and upstream aborted (a call in flight)', busy, 1000);
  }
  if (want('I13')) {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const p = await open();
      const { aborted } = await stalledCall(p, 200 + i);
      times.push(await timed(async () => {
        p.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'bench' } });
        await aborted;
      }));
      p.child.stdin.end();
      await p.exited;
    }
    report('I13', 'notifications/cancelled -> upstream request aborted (stdio)', times, 1000);
  }
  upstream.closeAllConnections();
  upstream.close();
}

// B6: Redis stopped or hung mid-session -> STATE_UNAVAILABLE.
if (want('B6')) {
  const which = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (which.status !== 0) console.log('B6   (skipped: redis-server is not installed)');
  else {
    const { RedisStateStore } = await imp('state/redis.js');
    const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'));
    const port = await freePort();
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    const store = new RedisStateStore(`redis://127.0.0.1:${port}/0`);
    try {
      if (!(await store.waitUntilReady(10_000))) throw new Error('redis-server did not come up');
      const key = { principal: 'bench', session: 's' };
      await store.authorize(key, [{ name: 'x', fingerprint: 'f' }], 60_000);
      const hung = [];
      for (let i = 0; i < Math.min(runs, 3); i++) {
        redis.kill('SIGSTOP');
        hung.push(await timed(() => store.authorizedFingerprint(key, 'x').catch(() => undefined)));
        redis.kill('SIGCONT');
        const until = Date.now() + 10_000;
        while (Date.now() < until && (await store.authorizedFingerprint(key, 'x').catch(() => undefined)) !== 'f') await new Promise((r) => setTimeout(r, 100));
      }
      report('B6', 'Redis hung (SIGSTOP) -> STATE_UNAVAILABLE', hung, 2000);
      redis.kill('SIGKILL');
      await new Promise((r) => redis.once('exit', r));
      report('B6', 'Redis stopped -> STATE_UNAVAILABLE', await repeat(() => store.authorizedFingerprint(key, 'x').catch(() => undefined)), 2000);
    } finally {
      await store.close();
      if (redis.exitCode === null) redis.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' / ')}; ${results.filter((r) => !r.ok).length} of ${results.length} over target`);
if (process.env.BUDGETS_JSON) writeFileSync(process.env.BUDGETS_JSON, JSON.stringify(results, null, 2));
