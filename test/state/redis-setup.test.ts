// Redis set up wrong, against real redis-servers: a wrong or missing password is named as such (WRONGPASS /
// NOAUTH, health: reachable, not authenticated) and the store recovers once Redis accepts it, with no restart; the
// database in the URL is the one used (SELECT), and a database Redis does not have is refused (never database 0);
// a cluster node, a Sentinel and a read-only replica are refused with what to point at instead. Every message
// and log line is secret-free. The same faults through the CLI: test/state/cli-state.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../../src/logger.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp.js';

const PASSWORD = 'pw-Right-4242-never-shown';
const WRONG = 'pw-Wrong-9999-never-shown';

let redis: TestRedis;
const opened: RedisStateStore[] = [];

function open(url: string): { store: RedisStateStore; log: () => string } {
  const lines: string[] = [];
  const store = new RedisStateStore(url, { logger: createLogger({ write: (l) => lines.push(l) }) });
  opened.push(store);
  return { store, log: () => lines.join('') };
}

const key = () => ({ principal: 'p', session: crypto.randomUUID() });

beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await redis?.close();
});

describe('authentication', () => {
  test('a wrong password is named (WRONGPASS), keeps the store unusable (STATE_UNAVAILABLE) and shows no secret', async () => {
    const { store, log } = open(redis.url.replace(PASSWORD, WRONG));
    const problem = await store.waitForVerdict(3000);
    expect(problem).toMatchObject({ code: 'auth' });
    expect(problem?.detail).toMatch(/authentication failed \(WRONGPASS\).*API_CATALOG_STATE/);
    const h = await store.health();
    expect(h).toMatchObject({ ok: false, kind: 'redis', reachable: true, authenticated: false, code: 'auth' });
    expect(h.detail).toMatch(/^state store unavailable \(authentication failed \(WRONGPASS\)/);
    await expect(store.authorizedFingerprint(key(), 'x')).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
    // logged once, with the reason, never the password (neither the right nor the wrong one)
    expect(log().match(/"event":"state_store_down"/g)).toHaveLength(1);
    expect(log()).toMatch(/"reason":"auth"/);
    for (const text of [log(), JSON.stringify(h), problem?.detail ?? '']) {
      expect(text).not.toContain(WRONG);
      expect(text).not.toContain(PASSWORD);
    }
  });

  test('no password for a Redis that needs one is NOAUTH, with where the password goes', async () => {
    const { store } = open(redis.url.replace(`:${PASSWORD}@`, ''));
    const problem = await store.waitForVerdict(3000);
    expect(problem).toMatchObject({ code: 'auth' });
    expect(problem?.detail).toMatch(/authentication required \(NOAUTH\).*redis:\/\/:<password>@host:port/);
    expect(await store.health()).toMatchObject({ ok: false, reachable: true, authenticated: false });
  });

  test('the password fixed on the Redis side (a rotation): the store recovers by itself, no restart', async () => {
    const other = await startRedis({ password: PASSWORD });
    try {
      const { store, log } = open(other.url.replace(PASSWORD, WRONG));
      expect((await store.waitForVerdict(3000))?.code).toBe('auth');
      await other.command('CONFIG', 'SET', 'requirepass', WRONG);
      expect(await store.waitUntilReady(10_000)).toBe(true);
      expect(await store.health()).toEqual({ ok: true, kind: 'redis', reachable: true, authenticated: true });
      await store.authorize(key(), [{ name: 'x', fingerprint: 'f' }], 60_000);
      expect(log()).toMatch(/"event":"state_store_up"/);
    } finally {
      await other.close();
    }
  });
});

test('an ACL user (redis://user:password@…) works, also one that may not run INFO (the mode checks are skipped)', async () => {
  await redis.command('ACL', 'SETUSER', 'catalog', 'on', '>pw-Acl-User-77', '~*', '+@all', '-info');
  const { store } = open(redis.url.replace(`:${PASSWORD}@`, 'catalog:pw-Acl-User-77@'));
  expect(await store.waitForVerdict(3000)).toBeUndefined();
  const k = key();
  await store.authorize(k, [{ name: 'x', fingerprint: 'f' }], 60_000);
  expect(await store.authorizedFingerprint(k, 'x')).toBe('f');
  expect(await store.health()).toEqual({ ok: true, kind: 'redis', reachable: true, authenticated: true });
});

describe('the database in the URL', () => {
  test('/3 is honoured: every key lands in database 3, none in 0', async () => {
    const db3 = redis.url.replace(/\/?$/, '/3');
    const { store } = open(db3);
    expect(await store.waitForVerdict(3000)).toBeUndefined();
    const k = key();
    await store.createSession(k, { principal: 'p', init: {}, createdAt: 1 }, 60_000);
    await store.authorize(k, [{ name: 'x', fingerprint: 'f' }], 60_000);
    const keys3 = (await redis.command('EVAL', "redis.call('SELECT', 3) return redis.call('KEYS', '*')", '0')) as string[];
    const keys0 = (await redis.command('EVAL', "redis.call('SELECT', 0) return redis.call('KEYS', '*')", '0')) as string[];
    expect(keys3.sort()).toEqual(store.keysOf(k).slice(0, 2).sort());
    expect(keys0.filter((x) => x.includes(k.session))).toEqual([]);
  });

  test('/99 on a Redis with 16 databases is refused with the range, never served from database 0', async () => {
    const { store, log } = open(redis.url.replace(/\/?$/, '/99'));
    const problem = await store.waitForVerdict(3000);
    expect(problem).toMatchObject({ code: 'db' });
    expect(problem?.detail).toBe('database 99 does not exist on this Redis (ERR DB index is out of range); it has 16 (/0 … /15): fix the number at the end of the state store URL, or raise `databases` in redis.conf');
    expect(await store.health()).toMatchObject({ ok: false, reachable: true, authenticated: true, code: 'db' });
    const k = key();
    await expect(store.createSession(k, { principal: 'p', init: {}, createdAt: 1 }, 60_000)).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
    // ioredis itself goes on in database 0 after a failed SELECT: nothing of ours may be written there
    expect(((await redis.command('KEYS', '*')) as string[]).filter((x) => x.includes(k.session))).toEqual([]);
    expect(log()).toMatch(/"reason":"db"/);
  });
});

describe('what is not a standalone primary is refused, with what to use', () => {
  test('a Redis Cluster node', async () => {
    const dir = tempDir('ac-cluster-');
    const node = await startRedis({ args: ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf')] });
    try {
      const { store } = open(node.url);
      const problem = await store.waitForVerdict(3000);
      expect(problem?.code).toBe('not-standalone');
      expect(problem?.detail).toMatch(/cluster mode; Redis Cluster is not supported .* use a standalone Redis or a primary/);
    } finally {
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a Redis Sentinel', async () => {
    const dir = tempDir('ac-sentinel-');
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(conf, `sentinel monitor primary 127.0.0.1 ${redis.port} 1\nsentinel auth-pass primary ${PASSWORD}\n`);
    const sentinel = await startRedis({ configFile: conf, args: ['--sentinel'] });
    try {
      const { store } = open(sentinel.url);
      const problem = await store.waitForVerdict(3000);
      expect(problem?.code).toBe('not-standalone');
      expect(problem?.detail).toMatch(/names a Redis Sentinel, not a Redis/);
      expect(problem?.detail).not.toContain(PASSWORD);
    } finally {
      await sentinel.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a read-only replica is unusable until it is the primary again (checked on reconnect)', async () => {
    const replica = await startRedis({ args: ['--replicaof', '127.0.0.1', String(redis.port), '--masterauth', PASSWORD] });
    try {
      const { store } = open(replica.url);
      const problem = await store.waitForVerdict(3000);
      expect(problem).toMatchObject({ code: 'read-only' });
      expect(problem?.detail).toMatch(/read-only replica .*point the state store URL at the primary/);
      await replica.command('REPLICAOF', 'NO', 'ONE');
      expect(await store.waitUntilReady(10_000)).toBe(true);
    } finally {
      await replica.close();
    }
  });
});
