// A Redis still loading its data after a restart (a real redis-server made to load slowly: `key-load-delay`) is
// not a usable store, whether the store's user may run INFO or not: the store checks every connection itself
// (the Redis client's own ready check is off: it printed a plain-text line per connection for a user without
// INFO, and skipped the wait for such a user). Once loading ends the store is usable, with no restart, and an ACL
// user without INFO is said once as one JSON log line (state_store_checks_skipped).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../ops/helpers.js';

const ADMIN = 'pw-Loading-Admin-61';
const USER_PASSWORD = 'pw-Loading-NoInfo-62';

let redis: TestRedis;

/** One command through redis-cli: a client with a ready check (the helper's) would wait for the loading to end. */
function cli(...args: string[]): string {
  const r = spawnSync('redis-cli', ['-p', String(redis.port), '--no-auth-warning', '-a', ADMIN, ...args], { encoding: 'utf8' });
  return r.stdout;
}
const loading = () => /^loading:1/m.test(cli('INFO', 'persistence'));

beforeAll(async () => {
  // Loading (at the restart below) takes ~2 ms per key and lets clients in between keys, so it lasts until the test
  // ends it (CONFIG SET key-load-delay 0); the `noinfo` user is in the config, so it exists while Redis loads.
  redis = await startRedis({
    password: ADMIN,
    args: ['--key-load-delay', '2000', '--loading-process-events-interval-bytes', '1024', '--user', 'noinfo', 'on', `>${USER_PASSWORD}`, '~*', '&*', '+@all', '-info'],
  });
  await redis.command('EVAL', "for i = 1, 20000 do redis.call('SET', 'fill:' .. i, string.rep('x', 200)) end return 1", '0');
  await redis.stop({ save: true });
  await redis.start();
  await until(loading, 'Redis loading its data');
}, 60_000);
afterAll(async () => {
  await redis?.close();
});

test('while Redis loads, the store is not usable (INFO user and no-INFO user alike); once loaded it is, with no warning outside the JSON log', async () => {
  const warned: unknown[] = [];
  const warn = console.warn;
  // (ioredis writes its ready-check warning with console.warn: collected here to show it never comes)
  console.warn = (...a: unknown[]) => void warned.push(a);
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l) });
  const stores = [
    new RedisStateStore(redis.url, { logger }),
    new RedisStateStore(redis.url.replace(`:${ADMIN}@`, `noinfo:${USER_PASSWORD}@`), { logger }),
  ];
  try {
    for (const store of stores) {
      await until(async () => (await store.health()).code === 'loading', 'the store seeing Redis load');
      expect(await store.health()).toMatchObject({ ok: false, reachable: true, code: 'loading' });
    }
    // still loading after both were judged: the verdicts above were taken while it loaded
    expect(loading()).toBe(true);
    expect(cli('CONFIG', 'SET', 'key-load-delay', '0').trim()).toBe('OK');
    for (const store of stores) {
      await until(async () => (await store.health()).ok, 'the store usable once Redis has loaded');
      const k = { principal: 'p', session: crypto.randomUUID() };
      await store.authorize(k, [{ name: 'x', fingerprint: 'f' }], 60_000);
      expect(await store.authorizedFingerprint(k, 'x')).toBe('f');
    }
    expect(warned).toEqual([]);
    const skipped = lines.filter((l) => l.includes('"event":"state_store_checks_skipped"'));
    expect(skipped).toHaveLength(1);
    expect(JSON.parse(skipped[0] as string)).toMatchObject({ level: 'info', store: 'redis', reason: 'NOPERM' });
    expect(lines.join('')).not.toContain(USER_PASSWORD);
    expect(lines.join('')).not.toContain(ADMIN);
  } finally {
    console.warn = warn;
    await Promise.all(stores.map((s) => s.close()));
  }
}, 60_000);
