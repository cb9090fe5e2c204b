// Two real `serve --http --state redis://…` processes behind a real round-robin balancer (nginx and HAProxy
// with the configs shipped in deploy/), one real redis-server, the SDK client of each era: a 2026-07-28 client's
// search -> describe -> dry run -> execute -> destructive call confirmed through MRTR spread over both replicas
// (handles and confirmation state signed with the key the replicas share through Redis), one legacy session
// spread over both replicas with no stickiness (B7), with sticky hashing too, a replica killed mid-flow (B8), and
// the token and the Redis password never printed. Needs `npm run build`; fails when redis-server, nginx or
// haproxy is missing.
import { createHash } from 'node:crypto';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startBalancer, type Balancer } from '../helpers/balancer.js';
import { ERAS, call, describeHandle, fixtureRegistry, newClient, type Era } from '../helpers/mcp.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const TOKEN = `tok-${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 32)}`;
const REDIS_PASSWORD = `redis-pw-${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 16)}`;

let redis: TestRedis;
let up: Upstream;
let replicas: Replica[] = [];

function replicaEnv(): Record<string, string> {
  return {
    API_CATALOG_STATE: redis.url,
    API_CATALOG_HTTP_TOKEN: TOKEN,
    PETSTORE_BASE_URL: up.url,
    API_CATALOG_RATE_LIMIT: '0',
    API_CATALOG_LOG_LEVEL: 'info',
  };
}

async function startReplicas(): Promise<Replica[]> {
  // --allow-host: the Host clients use is the balancer's (127.0.0.1:<balancer port>).
  return Promise.all([0, 1].map(() => startReplica(['--registry', fixtureRegistry('petstore'), '--allow-host', '127.0.0.1'], replicaEnv())));
}

beforeAll(async () => {
  redis = await startRedis({ password: REDIS_PASSWORD });
  up = await startUpstream();
  replicas = await startReplicas();
});
afterAll(async () => {
  for (const r of replicas) await r.stop();
  await up?.close();
  await redis?.close();
  const output = replicas.map((r) => r.stderr()).join('\n');
  // Secrets: neither the client token nor the Redis password is ever printed by a replica.
  expect(output).not.toContain(TOKEN);
  expect(output).not.toContain(REDIS_PASSWORD);
});

async function connect(url: string, era: Era = 'legacy'): Promise<{ client: Client; transport: StreamableHTTPClientTransport; asked: string[] }> {
  const client = newClient(era, { elicitation: {} }, 'replica-test');
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', (req) => {
    asked.push(req.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  await client.connect(transport);
  return { client, transport, asked };
}

const tag = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 10);
/** The log tag of a 2026-07-28 request (no session: the principal, here the static token holder). */
const MODERN_TAG = 'principal:static-token';

/** Tool calls each replica logged for this session (or, in the modern era, for the principal). */
function callsPerReplica(sessionId: string): number[] {
  return replicas.map((r) => r.stderr().split('\n').filter((l) => l.includes('"event":"tool_call"') && l.includes(`"session":"${tag(sessionId)}"`)).length);
}

/** The Redis keys of a legacy session of the static-token principal. */
const sessionKeys = (id: string) => ['session', 'auth', 'results'].map((k) => `ac:static-token:${id}:${k}`);

/**
 * The flow of `era` through `balancer`: tools/list, search, describe + execute four times (modern: with the
 * handle, describe and execute on different replicas), and for the modern era a dry run and a destructive call
 * the user confirms through MRTR. Returns the legacy session id, or the modern log tag.
 */
async function flow(balancer: Balancer, era: Era, sharedState = true): Promise<{ id: string; calls: number }> {
  const { client, transport, asked } = await connect(balancer.url, era);
  try {
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['list_domains', 'search_tools', 'describe_tools', 'execute_tool']);
    expect((await call(client, 'search_tools', { query: 'get a pet by id' })).success).toBe(true);
    let calls = 1;
    for (let i = 0; i < 4; i++) {
      const handle = await describeHandle(client, 'pets.get');
      const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: i + 1 }, ...(era === 'modern' ? { handle } : {}) });
      expect(r.success, JSON.stringify(r)).toBe(true);
      calls += 2;
    }
    if (era === 'legacy') {
      const id = transport.sessionId as string;
      expect(Number(await redis.command('EXISTS', ...sessionKeys(id)))).toBeGreaterThan(0);
      await transport.terminateSession();
      // DELETE went through the balancer: the session's keys are gone.
      expect(Number(await redis.command('EXISTS', ...sessionKeys(id)))).toBe(0);
      return { id, calls };
    }
    expect(transport.sessionId).toBeUndefined();
    const handle = await describeHandle(client, 'pets.delete');
    const dry = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 9 }, dry_run: true, handle });
    expect(dry.value.request).toMatchObject({ method: 'DELETE', url: `${up.url}/pets/9` });
    // No "confirm": the server asks through MRTR; the retry carrying the answer may reach the other replica.
    const del = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 9 }, handle });
    expect(asked).toEqual(['Allow the destructive API call pets.delete (DELETE /pets/9)?']);
    if (sharedState) expect(del.success, JSON.stringify(del)).toBe(true);
    // Without --state an approval is claimed only on the replica that issued it (one approval never runs two calls).
    // Round robin sends the retry, the request after the input_required round, to the other replica (the caller
    // checks that in the replicas' logs), which refuses it, nothing sent, saying that replicas need --state.
    else expect(del.error, JSON.stringify(del)).toMatchObject({ code: 'CONFIRMATION_REQUIRED', details: { reason: 'other_process' } });
    // describe, dry run, the input_required round and its retry
    return { id: MODERN_TAG, calls: calls + 4 };
  } finally {
    await client.close();
  }
}

describe.each(['nginx', 'haproxy'] as const)('B7: two replicas behind %s round robin, one Redis', (kind) => {
  let lb: Balancer;
  beforeAll(async () => {
    lb = await startBalancer(kind, replicas.map((r) => r.port));
  });
  afterAll(async () => {
    await lb?.close();
  });

  test.each(ERAS)('%s client: the flow is served by both replicas with no stickiness; every call succeeds', async (era) => {
    up.clear();
    const before = era === 'modern' ? callsPerReplica(MODERN_TAG) : [0, 0];
    const { id, calls } = await flow(lb, era);
    expect(up.requests.map((q) => q.method)).toEqual(era === 'modern' ? ['GET', 'GET', 'GET', 'GET', 'DELETE'] : ['GET', 'GET', 'GET', 'GET']);
    const perReplica = callsPerReplica(id).map((n, i) => n - (before[i] ?? 0));
    // Over round robin both replicas served some of the tool calls.
    expect(perReplica.every((n) => n > 0), `tool calls per replica ${perReplica}`).toBe(true);
    expect(perReplica.reduce((a, b) => a + b, 0)).toBe(calls);
    // The shipped configs log the MCP method and tool of 2026-07-28 requests from their headers (no body read).
    if (era === 'modern') expect(lb.log()).toContain(kind === 'nginx' ? 'mcp_method=tools/call mcp_name=execute_tool' : '{tools/call|execute_tool}');
  });
});

describe('B7: sticky routing on Mcp-Session-Id (nginx hash) keeps working', () => {
  test('the whole legacy flow passes and stays on one replica after initialize', async () => {
    const lb = await startBalancer('nginx', replicas.map((r) => r.port), { sticky: true });
    try {
      const { id } = await flow(lb, 'legacy');
      const perReplica = callsPerReplica(id);
      expect(perReplica.filter((n) => n > 0)).toHaveLength(1);
    } finally {
      await lb.close();
    }
  });
});

describe('2026-07-28 replicas need no session store: only the same API_CATALOG_SIGNING_KEY', () => {
  test('two replicas without --state behind nginx round robin: the modern flow succeeds but for its confirmation, which the other replica refuses (one approval, one call); a legacy session cannot', async () => {
    const key = createHash('sha256').update(`key-${Math.random()}`).digest('hex');
    const env = { ...replicaEnv(), API_CATALOG_SIGNING_KEY: key };
    delete (env as Record<string, string | undefined>).API_CATALOG_STATE;
    const alone = await Promise.all([0, 1].map(() => startReplica(['--registry', fixtureRegistry('petstore'), '--allow-host', '127.0.0.1'], env)));
    let lb: Balancer | undefined;
    try {
      lb = await startBalancer('nginx', alone.map((r) => r.port));
      up.clear();
      const { id, calls } = await flow(lb, 'modern', false);
      const lines = alone.map((r) => r.stderr().split('\n').filter((l) => l.includes('"event":"tool_call"') && l.includes(`"session":"${tag(id)}"`)));
      const perReplica = lines.map((l) => l.length);
      expect(perReplica.every((n) => n > 0), `tool calls per replica ${perReplica}`).toBe(true);
      expect(perReplica.reduce((a, b) => a + b, 0)).toBe(calls);
      // The question was asked on one replica and its accepted retry reached the other, which refused it and sent nothing.
      const asked = lines.map((l) => l.filter((x) => x.includes('"outcome":"input_required"')).length);
      const refused = lines.map((l) => l.filter((x) => x.includes('"code":"CONFIRMATION_REQUIRED"') && x.includes('"dispatched":false')).length);
      expect([...asked].sort()).toEqual([0, 1]);
      expect(refused).toEqual(asked.map((n) => 1 - n));
      expect(up.requests.map((q) => q.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
      for (const r of alone) expect(r.stderr()).toMatch(/Signing key: API_CATALOG_SIGNING_KEY \(confirmations are accepted by this process only: several replicas need --state\)/);
      // The legacy era keeps its sessions in the store: without one, round robin loses the session (404).
      await expect(connect(lb.url, 'legacy').then(async (c) => {
        try {
          for (let i = 0; i < 4; i++) await c.client.listTools();
        } finally {
          await c.client.close();
        }
      })).rejects.toThrow(/404|Session not found/);
    } finally {
      await lb?.close();
      for (const r of alone) await r.stop();
    }
    for (const r of alone) expect(r.stderr()).not.toContain(key);
  });
});

describe('B8: a replica killed mid-flow loses nothing', () => {
  // Runs last: it kills replicas[0]. The modern client first (both replicas up), then the legacy session.
  test('HAProxy: kill -9 one replica after describe; both clients go on on the other, no call fails', async () => {
    const lb = await startBalancer('haproxy', replicas.map((r) => r.port));
    const clients: Array<{ client: Client }> = [];
    try {
      const modern = await connect(lb.url, 'modern');
      clients.push(modern);
      const legacy = await connect(lb.url, 'legacy');
      clients.push(legacy);
      up.clear();
      const handle = await describeHandle(modern.client, 'pets.get');
      expect((await call(legacy.client, 'describe_tools', { tool_names: ['pets.get'] })).success).toBe(true);
      expect((await call(legacy.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } })).success).toBe(true);
      const before = callsPerReplica(MODERN_TAG)[1] ?? 0;
      await replicas[0]!.kill();
      // No re-initialize, no re-describe: the legacy authorization lives in Redis, the modern one in the handle.
      for (let i = 0; i < 6; i++) {
        const r = await call(legacy.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: i + 2 } });
        expect(r.success, JSON.stringify(r)).toBe(true);
        const m = await call(modern.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: i + 20 }, handle });
        expect(m.success, JSON.stringify(m)).toBe(true);
      }
      expect((await call(legacy.client, 'search_tools', { query: 'pet' })).success).toBe(true);
      expect(up.requests).toHaveLength(13);
      expect(callsPerReplica(legacy.transport.sessionId as string)[1]).toBeGreaterThanOrEqual(6);
      expect((callsPerReplica(MODERN_TAG)[1] ?? 0) - before).toBeGreaterThanOrEqual(6);
    } finally {
      for (const c of clients) await c.client.close();
      await lb.close();
    }
  });
});
