// /readyz and /metrics while the Redis behind the state store hangs (real redis-server stopped with SIGSTOP: it
// accepts connections and answers nothing). A readiness probe often gives up after 1 s (Kubernetes' default
// timeoutSeconds), so the answer must not wait on Redis: /readyz says 503 with the reason, and /metrics answers with
// api_catalog_ready 0, both while Redis is still stopped. The readiness PING has its own short bound, whatever the
// store's command timeout: a store whose commands may take a minute proves the probe does not wait for them.
// SIGCONT: ready again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OpsMetrics } from '../../src/server/ops/metrics.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { until } from '../helpers/timing.js';

let redis: TestRedis;
const stores: RedisStateStore[] = [];
const servers: HttpHandle[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  redis?.resume();
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(stores.map((s) => s.close()));
  await redis?.close();
});

/** A replica on the real Redis: `commandTimeoutMs` as given (default: the store's own, what serve uses). */
async function replica(commandTimeoutMs?: number): Promise<HttpHandle> {
  const store = new RedisStateStore(redis.url, commandTimeoutMs !== undefined ? { commandTimeoutMs } : {});
  stores.push(store);
  expect(await store.waitUntilReady(10_000)).toBe(true);
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0, state: store },
    { port: 0, metrics: new OpsMetrics({ version: 'test' }) },
  );
  servers.push(srv);
  return srv;
}

async function get(srv: HttpHandle, path: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`http://127.0.0.1:${srv.port}${path}`);
  return { status: r.status, text: await r.text() };
}

const READY_GAUGE = /^api_catalog_ready (\S+)$/m;

describe('Redis hung (SIGSTOP): /readyz and /metrics answer while it is still stopped', () => {
  test.each([
    ['the default command timeout', undefined],
    ['commands that may take a minute', 60_000],
  ])('%s', async (_name, commandTimeoutMs) => {
    const srv = await replica(commandTimeoutMs);
    await until(async () => (await get(srv, '/readyz')).status === 200, '/readyz to be 200 before the hang');
    redis.pause();
    try {
      // several probes in a row, each answered while Redis is stopped: the first, and those that come while a
      // PING is still out (they must not queue behind it)
      for (let i = 0; i < 3; i++) {
        const r = await get(srv, '/readyz');
        expect(r.status, r.text).toBe(503);
        const body = JSON.parse(r.text) as { status: string; reasons: string[]; checks: string[] };
        expect(body.status).toBe('unready');
        expect(body.checks).toEqual(['state']);
        // the state check's own answer (not the generic "the check did not answer within ..."), saying Redis does not answer
        expect(body.reasons).toHaveLength(1);
        expect(body.reasons[0]).toMatch(/^state store \(redis\): state store unavailable \(no answer (to a PING within 500 ms|in time \(ETIMEDOUT\))\)$/);
        if (commandTimeoutMs !== undefined) expect(body.reasons[0]).toBe('state store (redis): state store unavailable (no answer to a PING within 500 ms)');
        const m = await get(srv, '/metrics');
        expect(m.status).toBe(200);
        expect(READY_GAUGE.exec(m.text)?.[1]).toBe('0');
      }
    } finally {
      redis.resume();
    }
    await until(async () => (await get(srv, '/readyz')).status === 200, '/readyz to be 200 again after SIGCONT', 30_000, 100);
    expect(READY_GAUGE.exec((await get(srv, '/metrics')).text)?.[1]).toBe('1');
  });
});
