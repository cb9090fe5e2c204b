// One approval, one call, across replicas: two in-process HTTP servers on one real redis-server. An accepted
// confirmation claims its nonce in Redis (SET NX, TTL = the state's remaining lifetime plus clock skew), so the same
// retry sent again to either replica is refused and sends nothing; with Redis down the accept fails closed
// (STATE_UNAVAILABLE, nothing sent), and once Redis is back, restarted, the state asked before is refused (a restart
// voids it: the claims made since its last save may be gone; test/state/confirm-epoch-restart-redis.test.ts) and a
// new approval runs once. One process: test/server/confirm-single-use.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { CONFIRMATION_TTL_SECONDS } from '../../src/server/confirm.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { until } from '../helpers/timing.js';

let redis: TestRedis;
let up: Upstream;
let storeA: RedisStateStore;
let storeB: RedisStateStore;
let a: HttpHandle;
let b: HttpHandle;

async function replica(store: RedisStateStore): Promise<HttpHandle> {
  return serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, state: store },
    { port: 0 },
  );
}

beforeAll(async () => {
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
  await a?.close();
  await b?.close();
  await storeA?.close();
  await storeB?.close();
  await up?.close();
  await redis?.close();
});
afterEach(() => up.clear());

const ELICIT = { elicitation: { form: {} } };
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };

/** describe on A, the destructive call on A: its input_required answer's requestState. */
async function askToDelete(petId: number): Promise<{ call: Record<string, unknown>; state: string }> {
  const d = await modernCall(a.url, 'describe_tools', { tool_names: ['pets.delete'] });
  const call = { tool_name: 'pets.delete', args: { petId }, handle: d.envelope.value.tools[0].example.handle as string };
  const asked = await modernCall(a.url, 'execute_tool', call, { capabilities: ELICIT });
  expect(asked.result.resultType).toBe('input_required');
  return { call, state: asked.result.requestState as string };
}

async function usedConfirmationKeys(): Promise<string[]> {
  return ((await redis.command('KEYS', 'ac:*:once:confirm:*')) as string[]).sort();
}

describe('2026-07-28, two replicas, one Redis: an accepted confirmation is used once', () => {
  test('accepted on B runs once; the same retry on A and on B is refused, nothing sent; the claim is in Redis with the state\'s lifetime', async () => {
    const before = await usedConfirmationKeys();
    const { call, state } = await askToDelete(4);
    const done = await modernCall(b.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
    expect(done.envelope.success, JSON.stringify(done.msg)).toBe(true);
    for (const url of [a.url, b.url]) {
      const replay = await modernCall(url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
      expect(replay.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
      expect(replay.envelope.error.message).toMatch(/this confirmation was already used/);
    }
    expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/4']);
    // One new key, under the caller's principal (anonymous on loopback), expiring with the state (plus the skew allowance).
    const added = (await usedConfirmationKeys()).filter((k) => !before.includes(k));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^ac:anonymous:once:confirm:[A-Za-z0-9_-]{22}$/);
    const pttl = Number(await redis.command('PTTL', added[0] as string));
    expect(pttl).toBeGreaterThan(CONFIRMATION_TTL_SECONDS * 1000 - 5_000);
    expect(pttl).toBeLessThanOrEqual((CONFIRMATION_TTL_SECONDS + 1) * 1000 + 60_000);
  });

  test('two replicas accepting the same state at once: exactly one runs it', async () => {
    const { call, state } = await askToDelete(5);
    const answers = await Promise.all(
      [a.url, b.url, a.url, b.url].map((url) => modernCall(url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state })),
    );
    expect(answers.filter((r) => r.envelope.success)).toHaveLength(1);
    expect(answers.filter((r) => r.envelope.error?.code === 'CONFIRMATION_REQUIRED')).toHaveLength(3);
    expect(up.hits('/pets/5')).toHaveLength(1);
  });

  test('Redis down: the accepted retry fails closed (STATE_UNAVAILABLE, nothing sent); back up (restarted), that state is refused, a new approval runs once', async () => {
    const { call, state } = await askToDelete(6);
    await redis.stop({ save: true });
    try {
      const r = await modernCall(b.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
      expect(r.envelope.error.code).toBe('STATE_UNAVAILABLE');
      expect(r.envelope.error.message).toMatch(/^state store unavailable/);
      expect(r.envelope.instruction).toMatch(/Nothing was executed/);
      expect(up.requests).toHaveLength(0);
    } finally {
      await redis.start();
    }
    await until(async () => (await storeB.health()).ok, 'the store to be usable again', 30_000, 200);
    let late: Awaited<ReturnType<typeof modernCall>> | undefined;
    await until(
      async () => (late = await modernCall(b.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state })).envelope.error?.code !== 'STATE_UNAVAILABLE',
      'the retry to reach Redis',
      30_000,
      200,
    );
    expect(late?.envelope.error?.details, JSON.stringify(late?.msg)).toEqual({ reason: 'store_reset' });
    expect(up.requests).toHaveLength(0);
    const again = await askToDelete(6);
    expect((await modernCall(b.url, 'execute_tool', again.call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: again.state })).envelope.success).toBe(true);
    const replay = await modernCall(a.url, 'execute_tool', again.call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: again.state });
    expect(replay.envelope.error.message).toMatch(/this confirmation was already used/);
    expect(up.hits('/pets/6')).toHaveLength(1);
  });
});
