// Stored results kept in Redis share one byte budget across every session and replica (src/state/redis.ts):
// without it, each session was bounded only by its count and TTL, so many sessions could fill Redis. Runs on its own
// real redis-server, so the other tests' results do not count against the small budget used here.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ResultStore } from '../../src/server/results.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../helpers/timing.js';

let redis: TestRedis;
/** Two replicas on one Redis, each with a 100-byte budget for every result they keep together. */
let a: RedisStateStore;
let b: RedisStateStore;

beforeAll(async () => {
  redis = await startRedis();
  a = new RedisStateStore(redis.url, { resultBudgetBytes: 100 });
  b = new RedisStateStore(redis.url, { resultBudgetBytes: 100 });
  expect(await a.waitUntilReady(5000)).toBe(true);
  expect(await b.waitUntilReady(5000)).toBe(true);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.close();
});

const text = (c: string) => JSON.stringify(c.repeat(38)); // 40 bytes
const bytesHeld = async () => Number((await redis.command('GET', 'ac:results:bytes')) ?? 0);
const session = (principal: string) => ({ principal, session: crypto.randomUUID() });
/** putResult of a text that fits the budget: its id. */
async function put(store: RedisStateStore, key: { principal: string; session: string }, value: string, ttlMs: number, max: number): Promise<string> {
  const id = await store.putResult(key, value, ttlMs, max);
  expect(id).toBeDefined();
  return id as string;
}

test('the oldest result of any session, on any replica, makes room; the count follows puts, evictions and deletes', async () => {
  const s1 = session('token:one');
  const s2 = session('token:two');
  const first = await put(a, s1, text('a'), 60_000, 10);
  const second = await put(b, s2, text('b'), 60_000, 10);
  expect(await bytesHeld()).toBe(80);
  // 120 bytes would pass the budget: the oldest (another session's, put by the other replica) goes
  const third = await put(a, s2, text('c'), 60_000, 10);
  expect(await bytesHeld()).toBe(80);
  expect(await b.getResult(s1, first)).toBeUndefined();
  expect(await a.listResults(s1, 60_000)).toEqual([]);
  expect(await a.getResult(s2, second)).toBe(text('b'));
  expect((await b.listResults(s2, 60_000)).map((r) => r.id)).toEqual([second, third]);

  // the session's own count limit (1) evicts its older result: out of the byte count too
  const fourth = await put(b, s2, text('d'), 60_000, 1);
  expect((await a.listResults(s2, 60_000)).map((r) => r.id)).toEqual([fourth]);
  expect(await bytesHeld()).toBe(40);

  // deleting the session gives its bytes back
  await a.deleteSession(s2);
  expect(await bytesHeld()).toBe(0);
  expect(Number(await redis.command('ZCARD', 'ac:results:expiry'))).toBe(0);
});

test('a result past its TTL leaves the count at the next put; a result larger than the budget is not kept, and evicts nothing', async () => {
  const s = session('token:three');
  const short = await put(a, s, text('e'), 300, 10);
  // its key, from its id (not listed: on a busy machine it may be gone before a listing runs)
  const key = `ac:token%3Athree:${s.session}:result:${short}`;
  await until(async () => Number(await redis.command('EXISTS', key)) === 0, 'the short-lived result to expire');
  expect(await a.getResult(s, short)).toBeUndefined();
  await put(b, s, text('f'), 60_000, 10);
  expect(await bytesHeld()).toBe(40);

  const kept = (await a.listResults(s, 60_000)).map((r) => r.id);
  expect(kept).toHaveLength(1);
  // larger than every replica's budget together: refused (no id), as one process's memory refuses it; before, it
  // was kept alone, evicting every other session's results to make room it could never have
  const big = JSON.stringify('g'.repeat(200));
  expect(await a.putResult(s, big, 60_000, 10)).toBeUndefined();
  expect((await b.listResults(s, 60_000)).map((r) => r.id)).toEqual(kept);
  expect(await bytesHeld()).toBe(40);
  expect(Number(await redis.command('ZCARD', 'ac:results:expiry'))).toBe(1);
  // one exactly the budget's size still fits (it makes room by evicting the older one)
  const whole = JSON.stringify('h'.repeat(98));
  const wholeId = await put(b, s, whole, 60_000, 10);
  expect((await a.listResults(s, 60_000)).map((r) => r.id)).toEqual([wholeId]);
  expect(await bytesHeld()).toBe(100);
});

test('the count mends itself when Redis lost results behind its back (FLUSHDB keeps nothing to evict)', async () => {
  const s = session('token:four');
  await put(a, s, text('i'), 60_000, 10);
  await redis.command('DEL', 'ac:results:expiry', 'ac:results:size');
  // a total with nothing left to evict is reset rather than refusing room forever
  await redis.command('SET', 'ac:results:bytes', '1000');
  const id = await put(b, s, text('j'), 60_000, 10);
  expect(await a.getResult(s, id)).toBe(text('j'));
  expect(await bytesHeld()).toBe(40);
});

test('through ResultStore (what a truncated execute_tool keeps): a result larger than the shared budget gets no URI, as in memory', async () => {
  const results = new ResultStore(a, session('token:five'), 60_000, 10);
  const small = await results.put({ n: 1 });
  expect(small).toMatch(/^api-catalog:\/\/results\//);
  expect(await results.put({ big: 'x'.repeat(200) })).toBeUndefined();
  // what was kept stays readable
  expect((await results.get(small as string))?.text).toBe('{"n":1}');
});
