// A state store that worked, then had its connection reset (audit 11, defect 6), against a real redis-server behind
// a TCP relay that resets the connection (RST, as a killed Redis under traffic does): state_store_down says the
// connection to Redis was reset after it had worked, with no TLS hint; the store recovers through the same relay.
import { createServer, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../helpers/timing.js';

let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => redis?.close());

/** A loopback TCP relay to `port`; resetAll() sends an RST on every client connection. */
async function relay(port: number): Promise<{ port: number; resetAll(): void; close(): Promise<void> }> {
  const clients = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    clients.add(client);
    client.pipe(upstream).pipe(client);
    const end = () => {
      clients.delete(client);
      upstream.destroy();
      client.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    resetAll: () => {
      for (const c of [...clients]) c.resetAndDestroy();
    },
    close: () => new Promise<void>((resolve) => {
      for (const c of [...clients]) c.destroy();
      server.close(() => resolve());
    }),
  };
}

test('a reset after the store worked: no TLS hint, and the store comes back', async () => {
  const r = await relay(redis.port);
  const lines: Array<Record<string, any>> = [];
  const store = new RedisStateStore(`redis://127.0.0.1:${r.port}/0`, { logger: createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, any>) }) });
  const events = (event: string) => lines.filter((l) => l.event === event);
  try {
    expect(await store.waitUntilReady(10_000)).toBe(true);
    r.resetAll();
    await until(() => events('state_store_down').length > 0, 'state_store_down after the reset');
    expect(events('state_store_down')[0]).toMatchObject({
      level: 'warn',
      reason: 'unreachable',
      detail: 'the connection to Redis was reset (ECONNRESET) after it had worked: Redis stopped or restarted, or something between closed it',
    });
    expect(JSON.stringify(lines)).not.toMatch(/rediss|TLS/);
    await until(() => events('state_store_up').length === 2, 'the store back through the relay');
  } finally {
    await store.close();
    await r.close();
  }
});
