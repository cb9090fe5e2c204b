// One approval never runs two calls when Redis restarts or fails over (review51, finding 2): a real redis-server.
// The used confirmations are claims in Redis; a Redis restarted from an RDB snapshot (its default persistence), or a
// replica promoted while behind, brings back the confirmations' epoch key (ac:secret:confirm-epoch) but not the
// claims made after it was saved or replicated. Before, the epoch was that key alone, so the accepted retry sent again
// after such a restart passed the epoch check, was claimed again and ran the DELETE twice. Now the epoch names the
// Redis server it was written on (a digest of its run_id and replication id, read in the claim's own script): any
// restart or failover voids the confirmations asked before it (store_reset, nothing sent), and a new approval runs
// once. A Redis user that may not run INFO keeps the key-only epoch (docs/DEPLOY.md), and the script never asks it
// for INFO. Redis that lost its data (FLUSHALL): test/state/confirm-store-reset-redis.test.ts.
import { afterEach, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../helpers/timing.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ELICIT = { elicitation: { form: {} } };
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };
const RESET =
  'execute_tool: pets.delete was not run: the confirmation was issued before the shared state store restarted, failed over or lost its data (its record of used confirmations may be incomplete), so it could run twice; ask the user again';

/** What each test started, closed after it (in reverse order). */
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

interface Server {
  url: string;
  store: RedisStateStore;
  up: Upstream;
}

async function serve(redisUrl: string): Promise<Server> {
  const up = await startUpstream();
  closers.push(() => up.close());
  const store = new RedisStateStore(redisUrl);
  closers.push(() => store.close());
  expect(await store.waitUntilReady(5000)).toBe(true);
  const http: HttpHandle = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, state: store },
    { port: 0 },
  );
  closers.push(() => http.close());
  return { url: http.url, store, up };
}

async function redisServer(options: Parameters<typeof startRedis>[0] = {}): Promise<TestRedis> {
  const redis = await startRedis(options);
  closers.push(() => redis.close());
  return redis;
}

/** describe, then the destructive call: its input_required answer's requestState. */
async function askToDelete(s: Server, petId: number): Promise<{ call: Record<string, unknown>; state: string }> {
  const d = await modernCall(s.url, 'describe_tools', { tool_names: ['pets.delete'] });
  const call = { tool_name: 'pets.delete', args: { petId }, handle: d.envelope.value.tools[0].example.handle as string };
  const asked = await modernCall(s.url, 'execute_tool', call, { capabilities: ELICIT });
  expect(asked.result.resultType, JSON.stringify(asked.msg)).toBe('input_required');
  return { call, state: asked.result.requestState as string };
}

const accept = (s: Server, call: Record<string, unknown>, state: string) => modernCall(s.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });

async function expectReset(s: Server, call: Record<string, unknown>, state: string): Promise<void> {
  const r = await accept(s, call, state);
  expect(r.envelope.error?.code, JSON.stringify(r.msg)).toBe('CONFIRMATION_REQUIRED');
  expect(r.envelope.error.message).toBe(RESET);
  expect(r.envelope.error.details).toEqual({ reason: 'store_reset' });
}

/** A new approval runs once; its retry sent again is refused as used. */
async function runsOnce(s: Server, petId: number): Promise<void> {
  const again = await askToDelete(s, petId);
  expect((await accept(s, again.call, again.state)).envelope.success).toBe(true);
  expect((await accept(s, again.call, again.state)).envelope.error.message).toMatch(/this confirmation was already used/);
}

const usable = (store: RedisStateStore) => until(async () => (await store.health()).ok, 'the store usable again', 30_000, 50);

test('Redis restarted from an RDB snapshot taken after the ask, before the accept: the replayed retry is refused, nothing sent twice; a new approval runs once', async () => {
  const redis = await redisServer();
  const s = await serve(redis.url);
  const { call, state } = await askToDelete(s, 7);
  await redis.command('SAVE'); // a periodic snapshot: it holds the epoch key, and no claim yet
  expect((await accept(s, call, state)).envelope.success).toBe(true);
  await redis.stop(); // gone before the next snapshot (SIGTERM, no save points: nothing saved)
  await redis.start(); // loads dump.rdb: the epoch key is back, the claim is not
  await usable(s.store);
  expect(Number(await redis.command('EXISTS', 'ac:secret:confirm-epoch'))).toBe(1);
  expect(await redis.command('KEYS', 'ac:*:once:confirm:*')).toEqual([]);
  await expectReset(s, call, state);
  expect(s.up.hits('/pets/7')).toHaveLength(1);
  await runsOnce(s, 7);
  expect(s.up.hits('/pets/7')).toHaveLength(2);
  // still one key, without expiry
  expect(Number(await redis.command('PTTL', 'ac:secret:confirm-epoch'))).toBe(-1);
});

test('a clean restart (SHUTDOWN SAVE) voids confirmations asked before it too: asked before, accepted after, refused, nothing sent', async () => {
  const redis = await redisServer();
  const s = await serve(redis.url);
  const { call, state } = await askToDelete(s, 8);
  await redis.stop({ save: true });
  await redis.start();
  await usable(s.store);
  await expectReset(s, call, state);
  expect(s.up.requests).toHaveLength(0);
  await runsOnce(s, 8);
  expect(s.up.hits('/pets/8')).toHaveLength(1);
});

test('failover to a replica that was behind, and back, with no restart: the replayed retry is refused, nothing sent twice', async () => {
  const primary = await redisServer();
  const replica = await redisServer({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
  const s = await serve(primary.url);
  const { call, state } = await askToDelete(s, 9);
  await until(async () => Number(await replica.command('EXISTS', 'ac:secret:confirm-epoch')) === 1, 'the epoch on the replica');
  // The replica falls behind for good: promoted now, it never gets the claim the accept below makes.
  await replica.command('REPLICAOF', 'NO', 'ONE');
  expect((await accept(s, call, state)).envelope.success).toBe(true);
  // The old primary (the address the store uses) follows the new one, taking its data, then is promoted again: the
  // same process (its run_id unchanged), the epoch key back, the claim gone.
  await primary.command('REPLICAOF', '127.0.0.1', String(replica.port));
  await until(async () => /master_link_status:up/.test(String(await primary.command('INFO', 'replication'))), 'the old primary synced from the new one');
  await primary.command('REPLICAOF', 'NO', 'ONE');
  expect(await primary.command('KEYS', 'ac:*:once:confirm:*')).toEqual([]);
  expect(Number(await primary.command('EXISTS', 'ac:secret:confirm-epoch'))).toBe(1);
  await usable(s.store);
  await expectReset(s, call, state);
  expect(s.up.hits('/pets/9')).toHaveLength(1);
  await runsOnce(s, 9);
  expect(s.up.hits('/pets/9')).toHaveLength(2);
});

test('a Redis user that may not run INFO: confirmations run once, the claims\' script never asks for INFO, and a Redis that lost its data still voids them', async () => {
  const ADMIN = 'pw-Epoch-Admin-51';
  const USER = 'pw-Epoch-NoInfo-52';
  const redis = await redisServer({ password: ADMIN, args: ['--user', 'noinfo', 'on', `>${USER}`, '~*', '&*', '+@all', '-info'] });
  const s = await serve(redis.url.replace(`:${ADMIN}@`, `noinfo:${USER}@`));
  await redis.command('ACL', 'LOG', 'RESET'); // the connection check's refused INFO is logged: not counted below
  const { call, state } = await askToDelete(s, 10);
  expect((await accept(s, call, state)).envelope.success).toBe(true);
  expect((await accept(s, call, state)).envelope.error.message).toMatch(/this confirmation was already used/);
  expect(await redis.command('ACL', 'LOG')).toEqual([]);
  const before = await askToDelete(s, 11);
  await redis.command('FLUSHALL');
  await expectReset(s, before.call, before.state);
  expect(s.up.hits('/pets/10')).toHaveLength(1);
  expect(s.up.hits('/pets/11')).toHaveLength(0);
});
