// What clients see when Redis restarts, with two in-process HTTP replicas on a real redis-server. With AOF on
// (what docs/DEPLOY.md asks for) legacy sessions and their describes survive: the same session goes on, on either
// replica. Without persistence the sessions are gone: 404 "Session not found" on every replica, the client opens a
// new session and describes again; 2026-07-28 clients lose nothing, because every replica offers its signing key
// back to the empty Redis (a replica started afterwards gets the same key). Redis gone while an upstream call is in
// flight: that call's answer still reaches the client, the next call fails closed, and service resumes by itself.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { call, catalogs, connectHttp, describeHandle, fixtureRegistry } from '../helpers/mcp.js';
import { callTool, modernCall, openSession } from '../helpers/mcp-raw.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  up = await startUpstream();
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await up?.close();
});
afterEach(() => {
  up.clear();
  expect(unhandled).toEqual([]);
});

interface Pair {
  redis: TestRedis;
  stores: RedisStateStore[];
  replicas: HttpHandle[];
  /** Another replica on the same Redis (started now). */
  add(): Promise<HttpHandle>;
  close(): Promise<void>;
}

/** A Redis and two replicas serving the petstore fixture against the recording upstream. */
async function pair(options: { appendonly: boolean }): Promise<Pair> {
  const redis = await startRedis({ appendonly: options.appendonly });
  const stores: RedisStateStore[] = [];
  const replicas: HttpHandle[] = [];
  const add = async (): Promise<HttpHandle> => {
    const store = new RedisStateStore(redis.url);
    stores.push(store);
    expect(await store.waitUntilReady(5000)).toBe(true);
    const srv = await serveHttp(
      { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, state: store },
      { port: 0 },
    );
    replicas.push(srv);
    return srv;
  };
  await add();
  await add();
  return {
    redis,
    stores,
    replicas,
    add,
    async close() {
      await Promise.all(replicas.map((r) => r.close()));
      await Promise.all(stores.map((s) => s.close()));
      await redis.close();
    },
  };
}

/** Stops Redis (SIGTERM: with AOF on, every write is already on disk), starts it again, waits for every store. */
async function restart(p: Pair): Promise<void> {
  await p.redis.stop();
  await p.redis.start();
  for (const s of p.stores) expect(await s.waitUntilReady(15_000)).toBe(true);
}

describe('a Redis restart with AOF on (appendonly yes)', () => {
  let p: Pair;
  beforeAll(async () => {
    p = await pair({ appendonly: true });
  });
  afterAll(async () => p?.close());

  test('legacy sessions and their describes survive: the same session executes on either replica without a new describe', async () => {
    const [a, b] = p.replicas as [HttpHandle, HttpHandle];
    const client = await connectHttp(a.url, 'legacy', { name: 'aof' });
    const raw = await openSession(a.url);
    try {
      expect((await call(client, 'describe_tools', { tool_names: ['pets.get'] })).success).toBe(true);
      expect((await callTool(a.url, raw, 'describe_tools', { tool_names: ['pets.get'] })).envelope.success).toBe(true);
      await restart(p);
      // the SDK client's session, on the replica that holds its transport
      const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
      expect(r, JSON.stringify(r)).toMatchObject({ success: true, value: { status: 200 } });
      // the raw session on the other replica, which rebuilds it from what Redis read back from its AOF
      const e = await callTool(b.url, raw, 'execute_tool', { tool_name: 'pets.get', args: { petId: 2 } });
      expect(e.status).toBe(200);
      expect(e.envelope).toMatchObject({ success: true, value: { status: 200 } });
      expect(up.requests.map((x) => x.url)).toEqual(['/pets/1', '/pets/2']);
    } finally {
      await client.close();
    }
  });
});

describe('a Redis restart without persistence', () => {
  let p: Pair;
  beforeAll(async () => {
    p = await pair({ appendonly: false });
  });
  afterAll(async () => p?.close());

  test('legacy: 404 "Session not found" on every replica; a new session works once it describes again', async () => {
    const [a, b] = p.replicas as [HttpHandle, HttpHandle];
    const client = await connectHttp(a.url, 'legacy', { name: 'lost' });
    const raw = await openSession(b.url);
    expect((await call(client, 'describe_tools', { tool_names: ['pets.get'] })).success).toBe(true);
    await restart(p);
    expect(Number(await p.redis.command('DBSIZE'))).toBeLessThanOrEqual(1); // at most the re-offered signing key
    // The SDK client surfaces the 404 (it does not re-initialize by itself): the application opens a new session.
    await expect(call(client, 'search_tools', { query: 'pet' })).rejects.toThrow(/404|Session not found: initialize a new session/);
    await client.close().catch(() => undefined);
    for (const url of [a.url, b.url]) {
      const r = await callTool(url, raw, 'search_tools', { query: 'pet' });
      expect(r.status).toBe(404);
      expect(r.msg.error).toMatchObject({ code: -32001, message: 'Session not found: initialize a new session' });
    }
    const again = await connectHttp(b.url, 'legacy', { name: 'lost-again' });
    try {
      const refused = await call(again, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
      expect(refused.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect((await call(again, 'describe_tools', { tool_names: ['pets.get'] })).success).toBe(true);
      expect((await call(again, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } })).success).toBe(true);
    } finally {
      await again.close();
    }
    expect(up.requests).toHaveLength(1);
  });

  test('2026-07-28: a handle made before the restart verifies on both replicas and on one started afterwards', async () => {
    const [a, b] = p.replicas as [HttpHandle, HttpHandle];
    const modern = await connectHttp(a.url, 'modern', { name: 'modern' });
    let handle: string;
    try {
      handle = await describeHandle(modern, 'pets.get');
    } finally {
      await modern.close();
    }
    await restart(p);
    // every replica offered its key back; the first write won, and it is the key they all had
    const deadline = Date.now() + 10_000;
    while (Number(await p.redis.command('EXISTS', 'ac:secret:signing-key')) !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const c = await p.add();
    for (const url of [a.url, b.url, c.url]) {
      const e = await modernCall(url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 3 }, handle, dry_run: true });
      expect(e.envelope, url).toMatchObject({ success: true, value: { dry_run: true } });
    }
  });
});

describe('Redis gone mid-call', () => {
  let p: Pair;
  beforeAll(async () => {
    p = await pair({ appendonly: false });
  });
  afterAll(async () => p?.close());

  test('the upstream call already sent finishes and its answer reaches the client; the next call fails closed; back -> resumes', async () => {
    const [a] = p.replicas as [HttpHandle];
    let arrived!: () => void;
    const sent = new Promise<void>((r) => (arrived = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    up.route('/pets/9', {
      kind: 'handler',
      handle: (_req, res) => {
        arrived();
        void released.then(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 9, name: 'Rex' }));
        });
      },
    });
    const s = await openSession(a.url);
    await callTool(a.url, s, 'describe_tools', { tool_names: ['pets.get'] });
    const inFlight = callTool(a.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 9 } });
    await sent;
    await p.redis.stop();
    release();
    const done = await inFlight;
    expect(done.status).toBe(200);
    expect(done.envelope).toMatchObject({ success: true, value: { status: 200, data: { id: 9, name: 'Rex' } } });
    const next = await callTool(a.url, s, 'execute_tool', { tool_name: 'pets.get', args: { petId: 9 } });
    expect(next.envelope.error.code).toBe('STATE_UNAVAILABLE');
    expect(up.hits('/pets/9')).toHaveLength(1);
    const h = await fetch(a.url.replace(/\/mcp$/, '/readyz'));
    expect(h.status).toBe(503);
    expect(String(((await h.json()) as { reasons: string[] }).reasons)).toMatch(/state store \(redis\): state store unavailable \((unreachable \(ECONNREFUSED\)|the connection to Redis closed)/);
    expect(await p.stores[0]?.health()).toMatchObject({ ok: false, reachable: false });
    await p.redis.start();
    expect(await p.stores[0]?.waitUntilReady(15_000)).toBe(true);
    // Redis had no persistence: the session is gone, and the client is told to start a new one
    const after = await callTool(a.url, s, 'search_tools', { query: 'pet' });
    expect(after.status).toBe(404);
  });
});
