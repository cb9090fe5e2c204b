// One approval never runs two calls when the shared store forgets (audit proto51, defect 2, the --state side): two
// in-process HTTP replicas on one real redis-server. The used confirmations live in Redis; a Redis that loses its
// data (restarted without persistence; here FLUSHALL) loses them too, while the signing key every replica holds
// keeps the state verifying for its ten minutes. Before, the accepted retry sent again after that ran twice. Now a
// state carries the store's confirmation epoch (ac:secret:confirm-epoch, no TTL) and is refused once the store no
// longer holds it; a new approval, under the new epoch, runs once on either replica. Redis restarted (from an RDB
// snapshot, or cleanly) or failed over: test/state/confirm-epoch-restart-redis.test.ts (refused too).
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ELICIT = { elicitation: { form: {} } };
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };
const RESET =
  'execute_tool: pets.delete was not run: the confirmation was issued before the shared state store restarted, failed over or lost its data (its record of used confirmations may be incomplete), so it could run twice; ask the user again';

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

/** describe on A, the destructive call on A: its input_required answer's requestState. */
async function askToDelete(petId: number): Promise<{ call: Record<string, unknown>; state: string }> {
  const d = await modernCall(a.url, 'describe_tools', { tool_names: ['pets.delete'] });
  const call = { tool_name: 'pets.delete', args: { petId }, handle: d.envelope.value.tools[0].example.handle as string };
  const asked = await modernCall(a.url, 'execute_tool', call, { capabilities: ELICIT });
  expect(asked.result.resultType).toBe('input_required');
  return { call, state: asked.result.requestState as string };
}

const accept = (url: string, call: Record<string, unknown>, state: string) => modernCall(url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });

test('the epoch is one key in Redis, without expiry, the same for every replica', async () => {
  await askToDelete(3);
  expect(Number(await redis.command('EXISTS', 'ac:secret:confirm-epoch'))).toBe(1);
  expect(Number(await redis.command('PTTL', 'ac:secret:confirm-epoch'))).toBe(-1);
});

test('Redis loses its data after an approval ran: the same accepted retry is refused on either replica, nothing sent', async () => {
  const { call, state } = await askToDelete(4);
  expect((await accept(b.url, call, state)).envelope.success).toBe(true);
  await redis.command('FLUSHALL');
  for (const url of [a.url, b.url]) {
    const replay = await accept(url, call, state);
    expect(replay.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(replay.envelope.error.message).toBe(RESET);
    expect(replay.envelope.error.details).toEqual({ reason: 'store_reset' });
  }
  expect(up.hits('/pets/4')).toHaveLength(1);
});

test('asked before Redis lost its data, accepted after: refused, nothing sent; asked again, it runs once on either replica', async () => {
  const before = await askToDelete(5);
  await redis.command('FLUSHALL');
  const late = await accept(b.url, before.call, before.state);
  expect(late.envelope.error.message).toBe(RESET);
  expect(late.envelope.instruction).toBe('Call execute_tool again with the same arguments: the user will be asked to confirm again ("confirm" is not used on this client).');
  expect(up.requests).toHaveLength(0);
  const again = await askToDelete(5);
  expect((await accept(b.url, again.call, again.state)).envelope.success).toBe(true);
  expect((await accept(a.url, again.call, again.state)).envelope.error.message).toMatch(/this confirmation was already used/);
  expect(up.hits('/pets/5')).toHaveLength(1);
});
