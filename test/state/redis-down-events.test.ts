// docs/DEPLOY.md "Faults and how they show": each state-store problem is logged once when it starts
// (state_store_down, with reason and detail) and once when it ends (state_store_up), against a real redis-server.
// A hung Redis (SIGSTOP: connections are accepted, nothing is answered) is such a problem too: its commands time
// out, the store fails closed, and the hang is logged (reason timeout) and its end as well. A Redis stopped mid-run
// is one problem, logged once, though its detail changes (the connection closed, then ECONNREFUSED on reconnects).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../helpers/timing.js';

const PASSWORD = 'pw-Hung-Redis-5150-never-shown';
let redis: TestRedis;
const opened: RedisStateStore[] = [];

beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
});
afterAll(async () => {
  redis?.resume();
  await Promise.all(opened.map((s) => s.close()));
  await redis?.close();
});

function open(): { store: RedisStateStore; events: (event: string) => Array<Record<string, any>>; text: () => string } {
  const lines: Array<Record<string, any>> = [];
  const store = new RedisStateStore(redis.url, { logger: createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, any>) }) });
  opened.push(store);
  return { store, events: (event) => lines.filter((l) => l.event === event), text: () => JSON.stringify(lines) };
}

const key = () => ({ principal: 'p', session: crypto.randomUUID() });

/** The ioredis client under the store: its reconnect attempts show that time went by inside the outage. */
function reconnects(store: RedisStateStore): () => number {
  let n = 0;
  (store as unknown as { conn: { client: NodeJS.EventEmitter } }).conn.client.on('reconnecting', () => n++);
  return () => n;
}

test('hung (SIGSTOP): state_store_down reason timeout once when it starts, state_store_up once when it ends', async () => {
  const { store, events, text } = open();
  expect(await store.waitUntilReady(10_000)).toBe(true);
  expect(events('state_store_up')).toHaveLength(1);
  const attempts = reconnects(store);
  redis.pause();
  try {
    await expect(store.authorizedFingerprint(key(), 'x')).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
    await until(() => events('state_store_down').length > 0, 'state_store_down for the hung Redis');
    expect(events('state_store_down')[0]).toMatchObject({ level: 'warn', store: 'redis', reason: 'timeout', detail: 'no answer in time (ETIMEDOUT)' });
    expect(store.currentProblem).toMatchObject({ code: 'timeout' });
    expect(await store.health()).toMatchObject({ ok: false, code: 'timeout', detail: 'state store unavailable (no answer in time (ETIMEDOUT))' });
    // Still hung through two reconnect attempts (each one's check times out too) and more calls: still one line.
    await until(() => attempts() >= 2, 'two reconnect attempts while Redis is stopped', 30_000);
    await expect(store.authorizedFingerprint(key(), 'x')).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
    expect(events('state_store_down')).toHaveLength(1);
    expect(events('state_store_up')).toHaveLength(1);
  } finally {
    redis.resume();
  }
  await until(() => events('state_store_up').length === 2, 'state_store_up after SIGCONT', 30_000);
  expect(events('state_store_down')).toHaveLength(1);
  const k = key();
  await store.authorize(k, [{ name: 'x', fingerprint: 'f' }], 60_000);
  expect(await store.authorizedFingerprint(k, 'x')).toBe('f');
  expect(text()).not.toContain(PASSWORD);
});

test('stopped mid-run: one state_store_down (reason unreachable) for the whole outage, one state_store_up after', async () => {
  const { store, events, text } = open();
  expect(await store.waitUntilReady(10_000)).toBe(true);
  await redis.stop();
  try {
    // the reconnects have met the closed port: the detail has moved on from "the connection to Redis closed"
    await until(() => /ECONNREFUSED/.test(store.currentProblem?.detail ?? ''), 'a reconnect to be refused', 30_000);
    await expect(store.authorizedFingerprint(key(), 'x')).rejects.toMatchObject({ code: 'STATE_UNAVAILABLE' });
    expect(events('state_store_down')).toHaveLength(1);
    expect(events('state_store_down')[0]).toMatchObject({ reason: 'unreachable' });
  } finally {
    await redis.start();
  }
  await until(() => events('state_store_up').length === 2, 'state_store_up after the restart', 30_000);
  expect(events('state_store_down')).toHaveLength(1);
  expect(text()).not.toContain(PASSWORD);
});
