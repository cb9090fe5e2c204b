// Two real `serve --http --state redis://…` processes behind a real round-robin balancer (nginx and HAProxy
// with the configs shipped in deploy/), one real redis-server, the SDK client: one session spread over both
// replicas with no stickiness (B7), with sticky hashing too, a replica killed mid-session (B8), and the
// token and the Redis password never printed. Needs `npm run build`; fails when redis-server, nginx or
// haproxy is missing.
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startBalancer, type Balancer } from '../helpers/balancer.js';
import { call, fixtureRegistry } from '../helpers/mcp.js';
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

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'replica-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  await client.connect(transport);
  return { client, transport };
}

const tag = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 10);

/** Tool calls each replica logged for this session. */
function callsPerReplica(sessionId: string): number[] {
  return replicas.map((r) => r.stderr().split('\n').filter((l) => l.includes('"event":"tool_call"') && l.includes(`"session":"${tag(sessionId)}"`)).length);
}

async function flow(balancer: Balancer): Promise<string> {
  const { client, transport } = await connect(balancer.url);
  try {
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['list_domains', 'search_tools', 'describe_tools', 'execute_tool']);
    expect((await call(client, 'search_tools', { query: 'get a pet by id' })).success).toBe(true);
    for (let i = 0; i < 4; i++) {
      expect((await call(client, 'describe_tools', { tool_names: ['pets.get'] })).success).toBe(true);
      const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: i + 1 } });
      expect(r.success, JSON.stringify(r)).toBe(true);
    }
    const id = transport.sessionId as string;
    await transport.terminateSession();
    return id;
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

  test('one MCP session is served by both replicas with no stickiness: search, describe and execute all succeed', async () => {
    up.clear();
    const id = await flow(lb);
    expect(up.requests).toHaveLength(4);
    const perReplica = callsPerReplica(id);
    // 9 tool calls over round robin: both replicas served some of them.
    expect(perReplica.every((n) => n > 0), `tool calls per replica ${perReplica}`).toBe(true);
    expect(perReplica.reduce((a, b) => a + b, 0)).toBe(9);
    // DELETE went through the balancer: the session's keys are gone.
    expect(Number(await redis.command('EXISTS', ...['session', 'auth', 'results'].map((k) => `ac:token%3A${createHash('sha256').update(TOKEN).digest('hex').slice(0, 16)}:${id}:${k}`)))).toBe(0);
  });
});

describe('B7: sticky routing on Mcp-Session-Id (nginx hash) keeps working', () => {
  test('the whole flow passes and stays on one replica after initialize', async () => {
    const lb = await startBalancer('nginx', replicas.map((r) => r.port), { sticky: true });
    try {
      const id = await flow(lb);
      const perReplica = callsPerReplica(id);
      expect(perReplica.filter((n) => n > 0)).toHaveLength(1);
    } finally {
      await lb.close();
    }
  });
});

describe('B8: a replica killed mid-session loses nothing', () => {
  test('HAProxy: kill -9 one replica after describe; the session goes on on the other, no call fails', async () => {
    const lb = await startBalancer('haproxy', replicas.map((r) => r.port));
    const { client, transport } = await connect(lb.url);
    try {
      up.clear();
      expect((await call(client, 'describe_tools', { tool_names: ['pets.get'] })).success).toBe(true);
      expect((await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } })).success).toBe(true);
      await replicas[0]!.kill();
      // No re-initialize, no re-describe: the authorization lives in Redis.
      for (let i = 0; i < 6; i++) {
        const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: i + 2 } });
        expect(r.success, JSON.stringify(r)).toBe(true);
      }
      expect((await call(client, 'search_tools', { query: 'pet' })).success).toBe(true);
      expect(up.requests).toHaveLength(7);
      expect(callsPerReplica(transport.sessionId as string)[1]).toBeGreaterThanOrEqual(6);
    } finally {
      await client.close();
      await lb.close();
    }
  });
});
