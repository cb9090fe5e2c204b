// Two in-process HTTP servers ("replicas") on one real redis-server. 2026-07-28 requests: a describe handle and a
// confirmation's signed state made on one replica are honoured on the other (the generated signing key is shared
// through Redis) and by their principal only; stored results are read anywhere by their principal only; rate
// limits per principal. Legacy sessions: any replica serves any session,
// sessions are bound to principals (B4), DELETE removes every Redis key (A16), TTLs (B5), Redis down or hung
// -> "state store unavailable" fast and fail closed, /readyz unready, recovery without restart (B6), no
// replay across sessions (B9), one transport per replica and session (B11), forged/tampered/expired/foreign
// session ids refused (B12), rate limits per principal across replicas (A23). The spawned-process version
// behind nginx/HAProxy is test/replicas/replicas.test.ts.
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { serveHttp, type AuthenticatedRequest, type HttpHandle } from '../../src/server/transports/http.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { callTool, deleteSession, modernCall, modernRpc, openSession, rpc } from '../helpers/mcp-raw.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { until } from '../helpers/timing.js';

let redis: TestRedis;
let up: Upstream;
let a: HttpHandle;
let b: HttpHandle;
let storeA: RedisStateStore;
let storeB: RedisStateStore;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

/**
 * Stands in for the authentication step (static token, OAuth): it runs before session handling and sets
 * req.principal. Here a test header names the principal, so two principals can meet on one server.
 */
function principalFromTestHeader(srv: HttpHandle): void {
  srv.server.prependListener('request', (req: IncomingMessage) => {
    const p = req.headers['x-test-principal'];
    if (typeof p === 'string') (req as AuthenticatedRequest).principal = { id: p };
  });
}

async function replica(store: RedisStateStore, ttlMs = 600_000, rate = 0, set = catalogs(fixtureRegistry('petstore'))): Promise<HttpHandle> {
  const srv = await serveHttp(
    {
      catalogs: set,
      settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
      rateLimitPerMinute: rate,
      sessionTtlMs: ttlMs,
      state: store,
    },
    { port: 0 },
  );
  principalFromTestHeader(srv);
  return srv;
}

/** A private petstore set whose pets.create documents an Idempotency-Key header, as Stripe-like specs do. */
function idempotentPetstore(): ReturnType<typeof loadCatalogSet> {
  const set = loadCatalogSet([fixtureRegistry('petstore')]);
  const entry = set.byName.get('pets.create')!;
  const op = structuredClone(entry.op);
  op.idempotencyHeader = 'Idempotency-Key';
  op.inputSchema.properties['Idempotency-Key'] = { type: 'string' };
  op.bindings.push({ arg: 'Idempotency-Key', in: 'header', name: 'Idempotency-Key', required: false });
  entry.op = op;
  return set;
}

/** POST /pets on the upstream waits until the returned function is called, then answers 201 with `body`. */
function holdPets(body: string): () => void {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  up.route('/pets', {
    kind: 'handler',
    handle: (_req, res) => {
      void held.then(() => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(body);
      });
    },
  });
  return release;
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  redis = await startRedis();
  up = await startUpstream();
  storeA = new RedisStateStore(redis.url);
  storeB = new RedisStateStore(redis.url);
  expect(await storeA.waitUntilReady(5000)).toBe(true);
  expect(await storeB.waitUntilReady(5000)).toBe(true);
  a = await replica(storeA);
  b = await replica(storeB);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await a?.close();
  await b?.close();
  await storeA?.close();
  await storeB?.close();
  await up?.close();
  await redis?.close();
});
afterEach(() => up.clear());

const P1 = { 'x-test-principal': 'user-1' };
const P2 = { 'x-test-principal': 'user-2' };

/** describe_tools in the 2026-07-28 era; the handle of the one operation. */
async function modernHandle(url: string, name: string, headers: Record<string, string>): Promise<string> {
  const d = await modernCall(url, 'describe_tools', { tool_names: [name] }, { headers });
  return d.envelope.value.tools[0].example.handle as string;
}

describe('2026-07-28 requests, two replicas, one Redis: nothing is a session', () => {
  test('describe on A, execute on B with the handle (the signing key is shared through Redis); no session is created', async () => {
    const before = [a.sessionCount(), b.sessionCount()];
    const handle = await modernHandle(a.url, 'pets.get', P1);
    const e = await modernCall(b.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 }, handle }, { headers: P1 });
    expect(e.envelope).toMatchObject({ success: true, value: { status: 200 } });
    expect(up.requests).toHaveLength(1);
    expect([a.sessionCount(), b.sessionCount()]).toEqual(before);
    expect(Number(await redis.command('EXISTS', 'ac:secret:signing-key'))).toBe(1);
  });

  test('B4 in the modern era: one principal\'s handle does not authorize another principal (0 upstream)', async () => {
    const handle = await modernHandle(a.url, 'pets.get', P1);
    const stolen = await modernCall(b.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle }, { headers: P2 });
    expect(stolen.envelope.error.code).toBe('TOOL_DESCRIPTION_REQUIRED');
    expect(stolen.envelope.error.details.reason).toBe('mismatch');
    expect(JSON.stringify(stolen.envelope)).not.toContain(handle.split('.')[1] as string);
    expect(up.requests).toHaveLength(0);
  });

  test('a destructive call confirmed through MRTR: input_required on A, the retry with the answer on B; tampered or foreign state is refused', async () => {
    const handle = await modernHandle(a.url, 'pets.delete', P1);
    const call = { tool_name: 'pets.delete', args: { petId: 4 }, handle };
    const elicit = { elicitation: {} };
    const asked = await modernCall(a.url, 'execute_tool', call, { headers: P1, capabilities: elicit });
    expect(asked.result.resultType).toBe('input_required');
    expect(asked.result.inputRequests.confirm).toMatchObject({ method: 'elicitation/create', params: { message: 'Allow the destructive API call pets.delete (DELETE /pets/4)?' } });
    const state = asked.result.requestState as string;
    expect(up.requests).toHaveLength(0);
    // Another principal echoing the state, a tampered state, and the state of another call: refused, nothing sent.
    const accept = { confirm: { action: 'accept', content: { confirm: true } } };
    const theirs = await modernHandle(b.url, 'pets.delete', P2);
    const foreign = await modernCall(b.url, 'execute_tool', { ...call, handle: theirs }, { headers: P2, capabilities: elicit, inputResponses: accept, requestState: state });
    expect(foreign.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(foreign.envelope.error.message).toMatch(/issued to another caller/);
    const tampered = await modernCall(b.url, 'execute_tool', call, { headers: P1, capabilities: elicit, inputResponses: accept, requestState: state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA') });
    expect(tampered.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(tampered.envelope.error.message).toMatch(/not valid/);
    const otherCall = await modernCall(b.url, 'execute_tool', { ...call, args: { petId: 5 } }, { headers: P1, capabilities: elicit, inputResponses: accept, requestState: state });
    expect(otherCall.envelope.error.message).toMatch(/another call/);
    expect(up.requests).toHaveLength(0);
    // Declined: a clear envelope, nothing sent. Accepted on the other replica: the call runs once.
    const declined = await modernCall(b.url, 'execute_tool', call, { headers: P1, capabilities: elicit, inputResponses: { confirm: { action: 'decline' } }, requestState: state });
    expect(declined.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(declined.envelope.instruction).toMatch(/Do not retry/);
    const done = await modernCall(b.url, 'execute_tool', call, { headers: P1, capabilities: elicit, inputResponses: accept, requestState: state });
    expect(done.envelope.success, JSON.stringify(done.msg)).toBe(true);
    expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/4']);
  });

  test('a client that declared no elicitation gets CONFIRMATION_REQUIRED with the fix, never input_required (-32021)', async () => {
    const handle = await modernHandle(a.url, 'pets.delete', P1);
    const r = await modernCall(a.url, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 4 }, handle }, { headers: P1 });
    expect(r.status).toBe(200);
    expect(r.result.resultType).toBe('complete');
    expect(r.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(r.envelope.instruction).toMatch(/"confirm": "pets.delete"/);
    const confirmed = await modernCall(b.url, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 4 }, handle, confirm: 'pets.delete' }, { headers: P1 });
    expect(confirmed.envelope.success).toBe(true);
  });

  test('a stored large result is read on the other replica by its principal only (-32602 for another)', async () => {
    const big = await replica(storeA);
    const other = await replica(storeB);
    up.route('/pets', { kind: 'bigJson', items: 3000, itemBytes: 200 });
    try {
      const handle = await modernHandle(big.url, 'pets.list', P1);
      const r = await modernCall(big.url, 'execute_tool', { tool_name: 'pets.list', args: {}, handle }, { headers: P1 });
      const uri = r.envelope.value.full_result_uri as string;
      expect(uri).toMatch(/^api-catalog:\/\/results\/[0-9a-f-]{36}$/);
      const read = await modernRpc(other.url, 'resources/read', { uri }, { headers: P1 });
      expect(JSON.parse(read.msg.result.contents[0].text)).toHaveLength(3000);
      const listed = await modernRpc(other.url, 'resources/list', {}, { headers: P1 });
      expect(listed.msg.result.resources.map((x: { uri: string }) => x.uri)).toContain(uri);
      const foreign = await modernRpc(other.url, 'resources/read', { uri }, { headers: P2 });
      expect(foreign.msg.error.code).toBe(-32602);
      expect(foreign.msg.error.data).toEqual({ uri });
    } finally {
      up.route('/pets', { kind: 'echo' });
      await big.close();
      await other.close();
    }
  });

  test('A23 in the modern era: execute_tool is limited per principal across replicas', async () => {
    const sa = await replica(storeA, 600_000, 3);
    const sb = await replica(storeB, 600_000, 3);
    try {
      const who = { 'x-test-principal': `limited-${crypto.randomUUID()}` };
      const handle = await modernHandle(sa.url, 'pets.get', who);
      const codes: string[] = [];
      for (const url of [sa.url, sb.url, sa.url, sb.url]) {
        const r = await modernCall(url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle }, { headers: who });
        codes.push(r.envelope.success ? 'ok' : r.envelope.error.code);
      }
      expect(codes).toEqual(['ok', 'ok', 'ok', 'RATE_LIMITED']);
      expect(up.requests).toHaveLength(3);
    } finally {
      await sa.close();
      await sb.close();
    }
  });
});

describe('one legacy session, two replicas, one Redis', () => {
  test('B7: initialize on A, tools/list on B, describe on A, execute on B; each replica built its own transport (B11)', async () => {
    const s = await openSession(a.url, b.url, P1);
    const list = await rpc(b.url, s, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, P1);
    expect(list.status).toBe(200);
    expect(list.msg.result.tools.map((t: { name: string }) => t.name)).toEqual(['list_domains', 'search_tools', 'describe_tools', 'execute_tool']);
    const d = await callTool(a.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1);
    expect(d.envelope.success).toBe(true);
    const e = await callTool(b.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 } }, P1);
    expect(e.envelope).toMatchObject({ success: true, value: { status: 200 } });
    expect(up.requests).toHaveLength(1);
    expect(a.sessionCount()).toBeGreaterThanOrEqual(1);
    expect(b.sessionCount()).toBeGreaterThanOrEqual(1);
    // A second initialize on the rebuilt transport is still refused (A15 holds on every replica).
    const again = await rpc(b.url, s, { jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, P1);
    expect(again.status).toBe(400);
  });

  test('B11: the SDK refuses to reuse a stateless transport, which is why each replica keeps one stateful transport per session', async () => {
    const t = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const req = () => new Request('http://localhost/mcp', { method: 'GET', headers: { accept: 'application/json' } });
    await t.handleRequest(req());
    await expect(t.handleRequest(req())).rejects.toThrow(/Stateless transport cannot be reused/);
  });

  test('B4: another principal presenting the session id gets 404 on every replica and no access; keys are ac:<principal>:<session>', async () => {
    const s = await openSession(a.url, a.url, P1);
    expect((await callTool(a.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1)).envelope.success).toBe(true);
    for (const url of [a.url, b.url]) {
      const stolen = await callTool(url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, P2);
      expect(stolen.status).toBe(404);
      expect(await deleteSession(url, s, P2)).toBe(404);
    }
    expect(up.requests).toHaveLength(0);
    expect((await callTool(b.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, P1)).envelope.success).toBe(true);
    const keys = (await redis.command('KEYS', `*${s.id}*`)) as string[];
    expect(keys.sort()).toEqual([`ac:user-1:${s.id}:auth`, `ac:user-1:${s.id}:session`]);
  });

  test('A16: DELETE on B removes every Redis key of a session created on A (EXISTS = 0); A then answers 404', async () => {
    const s = await openSession(a.url, a.url, P1);
    await callTool(a.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1);
    const keys = storeA.keysOf({ principal: 'user-1', session: s.id });
    expect(Number(await redis.command('EXISTS', ...keys))).toBe(2);
    expect(await deleteSession(b.url, s, P1)).toBe(200);
    expect(Number(await redis.command('EXISTS', ...keys))).toBe(0);
    expect((await callTool(a.url, s, 'search_tools', { query: 'pet' }, P1)).status).toBe(404);
    // The client re-initializes and goes on (A14).
    const fresh = await openSession(a.url, b.url, P1);
    expect((await callTool(b.url, fresh, 'search_tools', { query: 'pet' }, P1)).envelope.success).toBe(true);
  });

  test('B12: forged, tampered and foreign session ids reach nothing; 0 upstream', async () => {
    const s = await openSession(a.url, a.url, P1);
    await callTool(a.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1);
    const tampered = { ...s, id: s.id.slice(0, -1) + (s.id.endsWith('0') ? '1' : '0') };
    const forged = { ...s, id: crypto.randomUUID() };
    for (const [session, who] of [[tampered, P1], [forged, P1], [s, P2]] as const) {
      for (const url of [a.url, b.url]) {
        expect((await callTool(url, session, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, who)).status).toBe(404);
      }
    }
    expect(up.requests).toHaveLength(0);
  });

  test('B9: Last-Event-ID from session A on session B replays nothing of A (no event store; B gets its own stream or 409)', async () => {
    const sa = await openSession(a.url, a.url, P1);
    const sb = await openSession(b.url, b.url, P1);
    await callTool(a.url, sa, 'search_tools', { query: 'secret-looking query of A' }, P1);
    const ctl = new AbortController();
    const res = await fetch(b.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sb.id, 'mcp-protocol-version': sb.protocol, 'last-event-id': `${sa.id}_1`, ...P1 },
      signal: ctl.signal,
    });
    expect([200, 400, 409]).toContain(res.status);
    let seen = '';
    if (res.status === 200 && res.body) {
      const reader = res.body.getReader();
      const timer = setTimeout(() => ctl.abort(), 500);
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          seen += Buffer.from(value).toString('utf8');
        }
      } catch {
        // aborted after 500 ms: nothing more to read
      }
      clearTimeout(timer);
    } else {
      seen = await res.text();
    }
    expect(seen).not.toContain('secret-looking');
    expect(seen).not.toMatch(/^data:/m);
  });

  test('A23: execute_tool is limited per principal across replicas and sessions; another principal is not', async () => {
    const sa = await replica(storeA, 600_000, 3);
    const sb = await replica(storeB, 600_000, 3);
    try {
      const who = { 'x-test-principal': `limited-${crypto.randomUUID()}` };
      const s1 = await openSession(sa.url, sb.url, who);
      const s2 = await openSession(sb.url, sa.url, who);
      for (const s of [s1, s2]) await callTool(sa.url, s, 'describe_tools', { tool_names: ['pets.get'] }, who);
      const codes: string[] = [];
      for (const [url, s] of [[sa.url, s1], [sb.url, s2], [sa.url, s2], [sb.url, s1], [sa.url, s1]] as const) {
        const r = await callTool(url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, who);
        codes.push(r.envelope.success ? 'ok' : r.envelope.error.code);
      }
      expect(codes).toEqual(['ok', 'ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED']);
      expect(up.requests).toHaveLength(3);
      const other = { 'x-test-principal': `other-${crypto.randomUUID()}` };
      const s3 = await openSession(sb.url, sb.url, other);
      await callTool(sb.url, s3, 'describe_tools', { tool_names: ['pets.get'] }, other);
      expect((await callTool(sa.url, s3, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, other)).envelope.success).toBe(true);
    } finally {
      await sa.close();
      await sb.close();
    }
  });

  test('idempotency keys in flight are shared: the same key on another replica is refused while the first call runs', async () => {
    const set = idempotentPetstore();
    const ra = await replica(storeA, 600_000, 0, set);
    const rb = await replica(storeB, 600_000, 0, set);
    const release = holdPets('{"id":1}');
    try {
      const s = await openSession(ra.url, rb.url, P1);
      await callTool(ra.url, s, 'describe_tools', { tool_names: ['pets.create'] }, P1);
      const args = { tool_name: 'pets.create', args: { name: 'rex', 'Idempotency-Key': 'key-42' } };
      const first = callTool(ra.url, s, 'execute_tool', args, P1);
      await until(() => up.hits('/pets').length > 0, 'the upstream request');
      expect(up.hits('/pets')).toHaveLength(1);
      const second = await callTool(rb.url, s, 'execute_tool', args, P1);
      expect(second.envelope.error.code).toBe('IDEMPOTENCY_IN_FLIGHT');
      expect(up.hits('/pets')).toHaveLength(1);
      release();
      expect((await first).envelope.success).toBe(true);
      // Released after the first call: the key can be used again (the upstream deduplicates from here).
      expect((await callTool(rb.url, s, 'execute_tool', args, P1)).envelope.success).toBe(true);
      expect(up.hits('/pets')).toHaveLength(2);
      expect(up.hits('/pets')[0]?.headers['idempotency-key']).toBe('key-42');
    } finally {
      release();
      await ra.close();
      await rb.close();
    }
  });

  test('B5: TTL > 0 on the keys right after describe; once the TTL has passed idle the session and its authorizations are gone', async () => {
    const short = await replica(storeA, 1500);
    try {
      const s = await openSession(short.url, short.url, P1);
      await callTool(short.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1);
      for (const k of storeA.keysOf({ principal: 'user-1', session: s.id }).slice(0, 2)) {
        const ttl = Number(await redis.command('PTTL', k));
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(1500);
      }
      // Await the expiry itself (Redis's job once the TTL is set): poll until the keys are gone, no fixed sleep.
      const keys = storeA.keysOf({ principal: 'user-1', session: s.id }).slice(0, 2);
      await until(async () => Number(await redis.command('EXISTS', ...keys)) === 0, 'the session keys to expire');
      expect((await callTool(short.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, P1)).status).toBe(404);
      expect(up.requests).toHaveLength(0);
    } finally {
      await short.close();
    }
  });
});

describe('B6: Redis down or hung', () => {
  // B6's "within 2 s" is measured by `npm run bench`; here, clock-free: the store's Redis client neither queues
  // nor retries a command and gives each at most the 1.5 s command timeout, and the calls are answered while Redis
  // is stopped or hung (so by that timeout or the fail-fast refusal, never by Redis).
  function expectFailFast(store: RedisStateStore): void {
    const client = (store as unknown as { conn: { client: { options: Record<string, unknown> } } }).conn.client;
    expect(client.options).toMatchObject({ commandTimeout: 1500, connectTimeout: 1500, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  }

  async function health(url: string): Promise<{ status: number; body: any }> {
    const res = await fetch(url.replace(/\/mcp$/, '/readyz'));
    return { status: res.status, body: await res.json() };
  }

  test('stopped mid-session: every tool call answers STATE_UNAVAILABLE, failing fast, nothing executes, /readyz 503; back -> resumes without restart', async () => {
    expectFailFast(storeA);
    const s = await openSession(a.url, a.url, P1);
    await callTool(a.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1);
    expect(await health(a.url)).toMatchObject({ status: 200, body: { status: 'ready', reasons: [] } });
    await redis.stop({ save: true });
    try {
      for (const [tool, args] of [
        ['search_tools', { query: 'pet' }],
        ['describe_tools', { tool_names: ['pets.get'] }],
        ['execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }],
      ] as const) {
        const r = await callTool(a.url, s, tool, args, P1);
        expect(r.status).toBe(200);
        expect(r.isError).toBe(true);
        expect(r.envelope.error.code).toBe('STATE_UNAVAILABLE');
        expect(r.envelope.error.message).toMatch(/^state store unavailable/);
        expect(r.envelope.error.message).not.toMatch(/127\.0\.0\.1|ECONN|redis:/);
      }
      expect(up.requests).toHaveLength(0);
      const h = await health(a.url);
      expect(h.status).toBe(503);
      expect(h.body).toMatchObject({ status: 'unready', checks: ['state'] });
      expect(h.body.reasons[0]).toMatch(/^state store \(redis\): /);
      // A replica that has no transport for the session cannot rebuild one: a clear 503, not a crash.
      const elsewhere = await callTool(b.url, { ...s }, 'search_tools', { query: 'x' }, P1);
      expect([200, 503]).toContain(elsewhere.status);
      const init = await rpc(b.url, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, P1);
      expect(init.status).toBe(503);
      expect(init.msg.error.message).toMatch(/state store unavailable/);
    } finally {
      await redis.start();
    }
    await until(async () => (await health(a.url)).status === 200, '/readyz to turn 200 again', 30_000, 200);
    // The same session continues (the store kept it), on either replica.
    expect((await callTool(b.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1)).envelope.success).toBe(true);
    expect((await callTool(a.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, P1)).envelope.success).toBe(true);
    expect(unhandled).toEqual([]);
  });

  test('stopped while a call with an idempotency key is upstream: its answer stands (it was sent), not STATE_UNAVAILABLE', async () => {
    const set = idempotentPetstore();
    const r = await replica(storeA, 600_000, 0, set);
    const release = holdPets('{"id":7}');
    try {
      const s = await openSession(r.url, r.url, P1);
      await callTool(r.url, s, 'describe_tools', { tool_names: ['pets.create'] }, P1);
      const call = callTool(r.url, s, 'execute_tool', { tool_name: 'pets.create', args: { name: 'rex', 'Idempotency-Key': 'key-7' } }, P1);
      await until(() => up.hits('/pets').length > 0, 'the upstream request');
      await redis.stop({ save: true });
      release();
      const answer = await call;
      // Before: the claim's release failed, and the sent call was answered "STATE_UNAVAILABLE ... Nothing was executed".
      expect(answer.envelope.success).toBe(true);
      expect(answer.envelope.value).toMatchObject({ status: 201, data: { id: 7 } });
      expect(up.hits('/pets')).toHaveLength(1);
    } finally {
      release();
      await redis.start();
      await r.close();
    }
    await until(async () => (await health(a.url)).status === 200, '/readyz to turn 200 again', 30_000, 200);
    expect(unhandled).toEqual([]);
  });

  test('hung (SIGSTOP): calls still answer STATE_UNAVAILABLE (the command timeout, not Redis, ends them); SIGCONT -> resumes', async () => {
    expectFailFast(storeA);
    const s = await openSession(a.url, a.url, P1);
    await callTool(a.url, s, 'describe_tools', { tool_names: ['pets.get'] }, P1);
    redis.pause();
    try {
      const r = await callTool(a.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, P1);
      expect(r.envelope.error.code).toBe('STATE_UNAVAILABLE');
      expect(up.requests).toHaveLength(0);
    } finally {
      redis.resume();
    }
    await until(async () => (await callTool(a.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, P1)).envelope?.success === true, 'a call to succeed after SIGCONT', 30_000, 200);
    expect(unhandled).toEqual([]);
  });
});
