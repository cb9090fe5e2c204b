// The state-store contract, run against both implementations: the in-memory store and a real redis-server
// (started here on a free loopback port). Atomicity under concurrency (B10), key layout and TTLs (B4, B5),
// DELETE removing every key (A16), result eviction, idempotency claims, URL redaction.
import { createServer, type AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { MemoryStateStore, checkRedisUrl, openStateStore, redactRedisUrl, type StateStore } from '../../src/state/index.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../helpers/timing.js';

let redis: TestRedis;
let redisStore: RedisStateStore;
const memoryStore = new MemoryStateStore();

beforeAll(async () => {
  redis = await startRedis({ password: 'pw-Secret-123' });
  redisStore = new RedisStateStore(redis.url);
  expect(await redisStore.waitUntilReady(5000)).toBe(true);
});
afterAll(async () => {
  await redisStore?.close();
  await redis?.close();
});

const stores: Array<[string, () => StateStore]> = [
  ['memory', () => memoryStore],
  ['redis', () => redisStore],
];

describe.each(stores)('%s store', (_name, get) => {
  test('sessions: create, touch returns the record, delete removes it; another principal finds nothing (B4)', async () => {
    const s = get();
    const key = { principal: 'token:aaa', session: crypto.randomUUID() };
    await s.createSession(key, { principal: key.principal, init: { protocolVersion: '2025-06-18' }, createdAt: 1 }, 60_000);
    expect(await s.touchSession(key, 60_000)).toMatchObject({ principal: 'token:aaa', init: { protocolVersion: '2025-06-18' } });
    expect(await s.touchSession({ principal: 'token:bbb', session: key.session }, 60_000)).toBeUndefined();
    await s.authorize(key, [{ name: 'x', fingerprint: 'f1' }], 60_000);
    expect(await s.authorizedFingerprint({ principal: 'token:bbb', session: key.session }, 'x')).toBeUndefined();
    await s.putResult(key, '{"a":1}', 60_000, 5);
    await s.deleteSession(key);
    expect(await s.touchSession(key, 60_000)).toBeUndefined();
    expect(await s.authorizedFingerprint(key, 'x')).toBeUndefined();
    expect(await s.listResults(key, 60_000)).toEqual([]);
  });

  test('B10: 50 concurrent authorize + check pairs lose no update', async () => {
    const s = get();
    const key = { principal: 'p', session: crypto.randomUUID() };
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await s.authorize(key, [{ name: `op${i}`, fingerprint: `fp${i}` }], 60_000);
        return s.authorizedFingerprint(key, `op${i}`);
      }),
    );
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => `fp${i}`));
    expect(await s.authorizedCount(key)).toBe(50);
  });

  test('rate buckets are atomic: 200 concurrent takes from a bucket of 50 -> exactly 50 pass', async () => {
    const s = get();
    const principal = `rate-${crypto.randomUUID()}`;
    const decisions = await Promise.all(Array.from({ length: 200 }, () => s.takeToken(principal, 'execute', 50)));
    expect(decisions.filter((d) => d.ok)).toHaveLength(50);
    const refused = decisions.find((d) => !d.ok);
    expect(refused && !refused.ok && refused.retryAfterMs).toBeGreaterThan(0);
    // Buckets are per principal and per bucket name.
    expect((await s.takeToken(`${principal}-other`, 'execute', 50)).ok).toBe(true);
    expect((await s.takeToken(principal, 'read', 50)).ok).toBe(true);
  });

  test('stored results: kept, listed oldest first, evicted beyond max', async () => {
    const s = get();
    const key = { principal: 'p', session: crypto.randomUUID() };
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await s.putResult(key, JSON.stringify({ i }), 60_000, 3)) as string);
    const listed = await s.listResults(key, 60_000);
    expect(listed.map((r) => r.id)).toEqual(ids.slice(1));
    expect(await s.getResult(key, ids[0] as string)).toBeUndefined();
    expect(await s.getResult(key, ids[3] as string)).toBe('{"i":3}');
  });

  test('idempotency keys: one claim at a time per principal, free again after release', async () => {
    const s = get();
    const p = `idem-${crypto.randomUUID()}`;
    const first = await s.claimIdempotencyKey(p, 'op:key-1', 60_000);
    const second = await s.claimIdempotencyKey(p, 'op:key-1', 60_000);
    const otherPrincipal = await s.claimIdempotencyKey(`${p}-2`, 'op:key-1', 60_000);
    expect([first.claimed, second.claimed, otherPrincipal.claimed]).toEqual([true, false, true]);
    await first.release();
    expect((await s.claimIdempotencyKey(p, 'op:key-1', 60_000)).claimed).toBe(true);
  });
});

describe('redis specifics', () => {
  test('B4/B5: keys are ac:<principal>:<session>:…, each with a TTL right after describe; A16: DELETE leaves EXISTS = 0', async () => {
    const key = { principal: 'token:abc', session: crypto.randomUUID() };
    await redisStore.createSession(key, { principal: key.principal, init: {}, createdAt: 0 }, 30_000);
    await redisStore.authorize(key, [{ name: 'pets.get', fingerprint: 'fp' }], 30_000);
    await redisStore.putResult(key, '{}', 10_000, 5);
    const keys = (await redis.command('KEYS', `ac:token%3Aabc:${key.session}:*`)) as string[];
    expect(keys.sort()).toEqual(
      [...redisStore.keysOf(key), ...keys.filter((k) => k.includes(':result:'))].sort(),
    );
    expect(keys.some((k) => k.includes(':result:'))).toBe(true);
    for (const k of keys) {
      const ttl = Number(await redis.command('PTTL', k));
      expect(ttl, k).toBeGreaterThan(0);
      expect(ttl, k).toBeLessThanOrEqual(30_000);
    }
    await redisStore.deleteSession(key);
    expect(Number(await redis.command('EXISTS', ...keys))).toBe(0);
  });

  test('B5: an authorization is written with its TTL and is gone once it has passed', async () => {
    const key = { principal: 'p', session: crypto.randomUUID() };
    await redisStore.authorize(key, [{ name: 'x', fingerprint: 'f' }], 1000);
    expect(await redisStore.authorizedFingerprint(key, 'x')).toBe('f');
    // Redis holds the key with (at most) the 1 s TTL: expiry is Redis's own job from here on.
    const [auth] = redisStore.keysOf(key).filter((k) => k.endsWith(':auth'));
    const ttl = Number(await redis.command('PTTL', auth!));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1000);
    // Await the expiry itself (no fixed sleep): poll until it is gone, with a deadline only for a hang.
    await until(async () => (await redisStore.authorizedFingerprint(key, 'x')) === undefined, 'the authorization to expire');
    expect(Number(await redis.command('EXISTS', auth!))).toBe(0);
  });

  test('a principal containing ":" cannot reach another principal\'s keys', async () => {
    const victim = { principal: 'a', session: crypto.randomUUID() };
    await redisStore.authorize(victim, [{ name: 'x', fingerprint: 'f' }], 30_000);
    // "a:<session>" as a principal with an empty-ish session must not alias "a" + "<session>".
    expect(await redisStore.authorizedFingerprint({ principal: `a:${victim.session}`, session: '' }, 'x')).toBeUndefined();
    expect(await redisStore.authorizedFingerprint({ principal: 'a', session: victim.session }, 'x')).toBe('f');
  });

  test('the URL password never shows: redaction, validation errors and the logger', async () => {
    expect(redactRedisUrl('redis://user:pw-Secret-123@127.0.0.1:6379/2')).toBe('redis://***:***@127.0.0.1:6379/2');
    expect(redactRedisUrl(redis.url)).not.toContain('pw-Secret-123');
    for (const bad of ['http://x:pw-Secret-123@h:1', 'redis://:pw-Secret-123@h:1/db?x=1', 'redis://:pw-Secret-123@h:1/abc', 'not a url pw-Secret-123']) {
      let message = '';
      try {
        checkRedisUrl(bad);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, bad).toMatch(/state store URL/);
      expect(message).not.toContain('pw-Secret-123');
    }
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    const s = (await openStateStore(redis.url, { logger })) as RedisStateStore;
    await s.waitUntilReady(5000);
    logger.log('info', { event: 'x', url: redis.url });
    await s.close();
    expect(lines.join('')).not.toContain('pw-Secret-123');
  });

  test('a wrong password or an unreachable Redis is STATE_UNAVAILABLE, failing fast (no command sent, none queued) and secret-free', async () => {
    // Fail-fast, proven without a clock (B6's "within 2 s" is a number for `npm run bench`): the client is set up
    // with no offline queue, no retries and the configured command timeout, and a store whose connection is not
    // usable refuses before sending anything to Redis.
    const free = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const stores = [
      new RedisStateStore(redis.url.replace('pw-Secret-123', 'nope-nope'), { commandTimeoutMs: 500 }),
      new RedisStateStore(`redis://127.0.0.1:${free}/0`, { commandTimeoutMs: 500 }),
    ];
    for (const store of stores) {
      const client = (store as unknown as { conn: { client: Redis; open: boolean } }).conn.client;
      expect(client.options).toMatchObject({ commandTimeout: 500, connectTimeout: 500, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
      const sent = vi.spyOn(client, 'sendCommand');
      const err = await store.authorizedFingerprint({ principal: 'p', session: 's' }, 'x').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'STATE_UNAVAILABLE' });
      expect(String((err as Error).message)).not.toMatch(/nope-nope|pw-Secret-123/);
      expect((store as unknown as { conn: { open: boolean } }).conn.open).toBe(false);
      expect(sent).not.toHaveBeenCalled();
      expect((await store.health()).ok).toBe(false);
      await store.close();
    }
  });

});
