// Redis down behind the shipped deploy/haproxy.cfg (audit 11, defect 5), run for real: two `serve --http` replicas
// sharing a redis-server. The state store stays a readiness check (/readyz tells the truth), so with Redis stopped
// HAProxy takes every replica out; what it answers then is a JSON-RPC error (application/json, Retry-After) saying
// that no replica is ready and to retry, not HAProxy's HTML page. With Redis back the replicas come back. Needs
// `npm run build`; fails when redis-server or haproxy is missing.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startBalancer, type Balancer } from '../helpers/balancer.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { until } from '../ops/helpers.js';

let redis: TestRedis;
let replicas: Replica[] = [];
let lb: Balancer;

beforeAll(async () => {
  redis = await startRedis();
  replicas = await Promise.all(
    [0, 1].map(() =>
      startReplica(['--registry', fixtureRegistry('petstore'), '--allow-host', '127.0.0.1'], {
        API_CATALOG_STATE: redis.url,
        API_CATALOG_SIGNING_KEY: 'no-replica-ready-test-key-0123456789abcdef',
        PETSTORE_BASE_URL: 'http://127.0.0.1:9',
      }),
    ),
  );
  lb = await startBalancer('haproxy', replicas.map((r) => r.port));
});
afterAll(async () => {
  await lb?.close();
  for (const r of replicas) await r.stop();
  await redis?.close();
});

/** A 2026-07-28 search_tools through the balancer: status, headers and the raw body. */
async function search(): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(lb.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'search_tools',
        arguments: { query: 'find a pet' },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'lb-test', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

test('no replica ready (Redis stopped): HAProxy answers a JSON-RPC 503 with Retry-After; Redis back: served again', async () => {
  expect((await search()).status).toBe(200);
  await redis.stop();
  // HAProxy's health checks (every second) take both replicas out once their /readyz says the store is down.
  let answer = await search();
  await until(async () => {
    answer = await search();
    return answer.status === 503;
  }, `HAProxy's 503 with no replica ready\n${lb.log().slice(-2000)}`, 30_000);
  for (const r of replicas) expect((await fetch(`http://127.0.0.1:${r.port}/readyz`)).status).toBe(503);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.headers.get('retry-after')).toBe('5');
  expect(JSON.parse(answer.text)).toEqual({
    jsonrpc: '2.0',
    error: { code: -32000, message: expect.stringMatching(/^Service Unavailable: no api-catalog replica is ready .*; nothing was processed; retry in 5 s$/) },
    id: null,
  });

  await redis.start();
  await until(async () => (await search()).status === 200, 'the replicas back behind HAProxy once Redis is', 30_000);
}, 120_000);
