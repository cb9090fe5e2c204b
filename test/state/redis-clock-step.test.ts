// The Redis store's short bounds are measured on the monotonic clock, so a step of the wall clock (NTP correcting a
// drifted clock, a VM resumed from a snapshot, an operator's `date -s`) cannot make them wrong. Before, both read
// Date.now: with the clock stepped back an hour, a probe under the readiness PING bound (500 ms: /readyz and
// /metrics) waited for the PING itself to fail (the store's command timeout: 1.5 s by default, longer when
// configured; a probe with a 1 s timeout saw its own timeout instead of the 503 "no answer to a PING"), and the
// fail-fast window after a failed command (500 ms) refused every store call for an hour. A real redis-server
// (SIGSTOP for a hung one); the step is the wall clock seen through Date.now, the clock the code read.
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { isAppError } from '../../src/errors.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../helpers/timing.js';

let redis: TestRedis;
const stores: RedisStateStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => {
  vi.restoreAllMocks();
  redis.resume();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.close();
});

async function store(): Promise<RedisStateStore> {
  const s = new RedisStateStore(redis.url);
  stores.push(s);
  expect(await s.waitUntilReady(10_000)).toBe(true);
  return s;
}

/** From now on Date.now reads an hour earlier than it did (the wall clock stepped back). */
function stepWallClockBack(): void {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() - 3_600_000);
}

/** `p`, or 'hung' when it has not settled after 20 s (a limit for a hang, not a speed check: the bound is 500 ms). */
function orHung<T>(p: Promise<T>): Promise<T | 'hung'> {
  return Promise.race([p, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000).unref())]);
}

test('a readiness probe while a PING to a hung Redis is out answers "timeout" within its bound, after the clock stepped back', async () => {
  const s = await store();
  expect(await s.health()).toMatchObject({ ok: true });
  redis.pause();
  // the first probe sends the PING; the clock steps back while it is out; the next probe waits for the same PING
  const first = s.health();
  stepWallClockBack();
  const second = await orHung(s.health());
  expect(second).toMatchObject({ ok: false, code: 'timeout', detail: expect.stringContaining('no answer to a PING within 500 ms') });
  expect(await orHung(first)).toMatchObject({ ok: false, code: 'timeout' });
});

test('after a failed command, store calls are tried again once the 500 ms fail-fast window passed, clock stepped back or not', async () => {
  const s = await store();
  // a command Redis refuses (WRONGTYPE: the rate bucket is a string) fails without taking the connection down
  await redis.command('SET', 'ac:token%3Aclock:rate:execute', 'not a hash');
  await expect(s.takeToken('token:clock', 'execute', 10)).rejects.toSatisfy((err: unknown) => isAppError(err) && err.code === 'STATE_UNAVAILABLE');
  stepWallClockBack();
  // another principal's bucket is fine: it is served again once the window has passed (before: for an hour, never)
  let served = false;
  await until(async () => {
    served = await s.takeToken('token:other', 'execute', 10).then(() => true, () => false);
    return served;
  }, 'a store call to be served again after the fail-fast window');
  expect(served).toBe(true);
});
