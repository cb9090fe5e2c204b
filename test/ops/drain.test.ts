// Graceful drain with real processes and real signals (RELIABILITY O1-O5): SIGTERM during an upstream call lets the
// call finish (both eras) while new requests get 503 + Retry-After + Connection: close and /readyz turns 503 at
// once; a metrics scrape during the drain answers; a second SIGTERM exits at once; a call longer than
// --shutdown-grace is cancelled at the end and the process still exits 0; over stdio new requests are refused and
// the call in flight finishes; a forced exit still writes the audit line of every call it abandons. Needs
// `npm run build`.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ERAS, builtCli, fixtureRegistry, REPO_ROOT } from '../helpers/mcp.js';
import { callTool, modernCall, openSession } from '../helpers/mcp-raw.js';
import { rawHttp } from '../helpers/raw-http.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { events, holdRoute, until } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up?.close();
});

const ARGS = ['--registry', fixtureRegistry('petstore'), '--no-require-describe'];
const env = () => ({ PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_LOG_LEVEL: 'info' });

/** Starts execute_tool pets.get (petId) in `era` against the replica; resolves with its envelope. */
function execute(r: Replica, era: 'modern' | 'legacy', petId: number): Promise<{ status: number; envelope?: any }> {
  const args = { tool_name: 'pets.get', args: { petId } };
  if (era === 'modern') return modernCall(r.url, 'execute_tool', args);
  return openSession(r.url).then((s) => callTool(r.url, s, 'execute_tool', args));
}

const readyz = async (r: Replica) => {
  const res = await fetch(`http://127.0.0.1:${r.port}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe.each(ERAS)('%s client: SIGTERM while execute_tool is upstream', (era) => {
  test('O1-O3: the call finishes and succeeds; meanwhile /readyz is 503, new requests get 503 Retry-After + Connection: close, /metrics answers; exit 0, nothing cancelled', async () => {
    const path = `/pets/${era === 'modern' ? 101 : 102}`;
    const hold = holdRoute(up, path);
    const r = await startReplica(ARGS, env());
    try {
      const pending = execute(r, era, era === 'modern' ? 101 : 102);
      await hold.waitArrived();
      r.child.kill('SIGTERM');
      // Unready at once: the first evaluation after the signal says why.
      await until(async () => (await readyz(r)).status === 503, '/readyz 503');
      const ready = await readyz(r);
      expect(ready.body.status).toBe('unready');
      expect(ready.body.reasons.join(' ')).toMatch(/draining/);
      expect((await fetch(`http://127.0.0.1:${r.port}/healthz`)).status).toBe(200);
      // New work is refused as "not processed": a balancer may retry it elsewhere.
      const refused = await rawHttp(r.port, 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body).error.message).toMatch(/shutting down; nothing was processed/);
      // A metrics scrape during the drain: the drain and the call in flight are visible.
      const scrape = await fetch(`http://127.0.0.1:${r.port}/metrics`);
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      expect(text).toMatch(/^api_catalog_draining 1$/m);
      expect(text).toMatch(/^api_catalog_requests_in_flight 1$/m);
      expect(text).toMatch(/^api_catalog_ready 0$/m);
      expect(text).toMatch(/^api_catalog_http_refused_total\{reason="draining"\} 1$/m);
      // The process waits for the call.
      expect(r.child.exitCode).toBeNull();
      hold.release();
      const result = await pending;
      expect(result.status).toBe(200);
      expect(result.envelope.success, JSON.stringify(result.envelope)).toBe(true);
      expect(result.envelope.value.data).toEqual({ id: 1, ok: true });
      expect(await r.exited).toEqual({ code: 0, signal: null });
      expect(up.hits(path).map((q) => q.aborted)).toEqual([false]);
      const log = r.stderr();
      expect(events(log, 'shutdown')).toHaveLength(1);
      expect(events(log, 'readiness_changed').map((e) => e.ready)).toEqual([false]);
      expect(events(log, 'exit')[0]).toMatchObject({ reason: 'shutdown', drained: true, abandoned: 0, code: 0 });
    } finally {
      hold.release();
      await r.kill();
    }
  });
});

test('O4: a second SIGTERM exits at once (143) and says what it abandons', async () => {
  const hold = holdRoute(up, '/pets/103');
  const r = await startReplica(ARGS, env());
  try {
    const pending = execute(r, 'modern', 103).catch((err: unknown) => err);
    await hold.waitArrived();
    r.child.kill('SIGTERM');
    await until(() => events(r.stderr(), 'shutdown').length === 1, 'the first signal to be handled');
    r.child.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 143, signal: null });
    expect(events(r.stderr(), 'shutdown_forced')[0]).toMatchObject({ signal: 'SIGTERM', abandoned: 1 });
    // The client sees its connection end (no answer), never a hang.
    expect(await pending).toBeInstanceOf(Error);
  } finally {
    hold.release();
    await r.kill();
  }
});

test('O4: a forced exit writes, before it exits, an ABANDONED audit line for each execute_tool in flight (both eras)', async () => {
  const dir = tempDir('ac-drain-audit-');
  const auditFile = join(dir, 'audit.log');
  const holdModern = holdRoute(up, '/pets/106');
  const holdLegacy = holdRoute(up, '/pets/107');
  const r = await startReplica([...ARGS, '--audit-log', auditFile], env());
  try {
    const calls = [execute(r, 'modern', 106).catch((err: unknown) => err), execute(r, 'legacy', 107).catch((err: unknown) => err)];
    await holdModern.waitArrived();
    await holdLegacy.waitArrived();
    r.child.kill('SIGTERM');
    await until(() => events(r.stderr(), 'shutdown').length === 1, 'the first signal to be handled');
    r.child.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 143, signal: null });
    await Promise.all(calls);
    // Read after the exit: what is in the file was written before it (synchronous appends).
    const lines = readFileSync(auditFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, any>);
    const byEra = Object.fromEntries(lines.map((l) => [l.era, l])) as Record<string, Record<string, any>>;
    expect(lines).toHaveLength(2);
    for (const era of ['modern', 'legacy']) {
      expect(byEra[era]).toMatchObject({ type: 'audit', principal: 'anonymous', tool: 'pets.get', catalog: 'petstore', method: 'GET', path: '/pets/{petId}', outcome: 'ABANDONED', dispatched: true, dry_run: false });
      expect(byEra[era]).not.toHaveProperty('upstream_status');
    }
    // a legacy call names its session (a tag), a 2026-07-28 one has none
    expect(typeof byEra.legacy?.session).toBe('string');
    expect(byEra.modern).not.toHaveProperty('session');
  } finally {
    holdModern.release();
    holdLegacy.release();
    await r.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('O5: a call longer than --shutdown-grace is cancelled when the grace ends; the process exits 0 and logs it', async () => {
  const hold = holdRoute(up, '/pets/104');
  const r = await startReplica([...ARGS, '--shutdown-grace', '1'], env());
  try {
    const pending = execute(r, 'modern', 104).catch((err: unknown) => err);
    await hold.waitArrived();
    r.child.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 0, signal: null });
    expect(events(r.stderr(), 'drain_timeout')[0]).toMatchObject({ graceMs: 1000, abandoned: 1 });
    // Its audit line (on the log stream: no --audit-log) says it was cut off after going upstream.
    expect(events(r.stderr(), 'audit')).toEqual([expect.objectContaining({ tool: 'pets.get', outcome: 'CANCELLED', dispatched: true })]);
    await pending;
    // The upstream request was cancelled (C6), not left running.
    await until(() => up.hits('/pets/104')[0]?.aborted === true, 'the upstream request to be aborted');
  } finally {
    hold.release();
    await r.kill();
  }
});

test('O6: stdio: SIGTERM refuses new requests, the call in flight finishes, then exit 0', async () => {
  const hold = holdRoute(up, '/pets/105');
  const child = spawn(process.execPath, [builtCli(), 'serve', ...ARGS], { cwd: REPO_ROOT, env: { ...process.env, ...env() }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
  const answer = (id: number) => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as any).find((m) => m.id === id);
  try {
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'drain', version: '1' } } });
    await until(() => answer(1) !== undefined, 'initialize');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 105 } } } });
    await hold.waitArrived();
    child.kill('SIGTERM');
    await until(() => events(err, 'shutdown').length === 1, 'the signal to be handled');
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'pet' } } });
    await until(() => answer(3) !== undefined, 'the refusal of a request sent during the drain');
    expect(answer(3).error.message).toMatch(/shutting down; this request was not processed/);
    expect(answer(2)).toBeUndefined();
    hold.release();
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(answer(2).result.structuredContent).toMatchObject({ success: true, value: { status: 200, data: { id: 1, ok: true } } });
    expect(up.hits('/pets/105').map((q) => q.aborted)).toEqual([false]);
  } finally {
    hold.release();
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
