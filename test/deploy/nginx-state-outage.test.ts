// Redis down behind the shipped deploy/nginx.conf (audit ops50 #2), run for real: two `serve --http` replicas sharing
// a redis-server, nginx generated from deploy/ (test/helpers/balancer.ts). A legacy initialize needs the store, so
// each replica answers it 503 ("state store unavailable"); nginx re-sends it to the other replica and marks both
// failed for fail_timeout. Every request in that window found "no live upstreams" and got nginx's own HTML 502,
// 2026-07-28 calls included. With the fallback upstream (`error_page 502 = @any_replica`) the client gets a
// replica's own answer instead: the JSON-RPC 503 for the initialize, STATE_UNAVAILABLE for a 2026-07-28 tool call.
// With Redis back both are served again. Needs `npm run build`; fails when redis-server or nginx is missing.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startBalancer, type Balancer } from '../helpers/balancer.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
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
        API_CATALOG_SIGNING_KEY: 'nginx-state-outage-test-key-0123456789abcdef',
        PETSTORE_BASE_URL: 'http://127.0.0.1:9',
      }),
    ),
  );
  lb = await startBalancer('nginx', replicas.map((r) => r.port));
});
afterAll(async () => {
  await lb?.close();
  for (const r of replicas) await r.stop();
  await redis?.close();
});

/** A legacy (handshake-era) initialize through nginx: status, content type and the raw body. */
async function legacyInit(): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(lb.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'nginx-outage', version: '1' } } }),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

test("Redis down: legacy and 2026-07-28 clients get the replicas' answers through nginx, never its HTML 502; Redis back: served", async () => {
  expect((await legacyInit()).status).toBe(200);
  expect((await modernCall(lb.url, 'list_domains', {})).envelope.success).toBe(true);
  await redis.stop();

  // Each round: a legacy initialize (503 from a replica: both replicas get marked failed), then at once a 2026-07-28
  // call and another initialize, which find every replica marked failed.
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < 2; i++) {
      const init = await legacyInit();
      expect(init.status, `${init.text.slice(0, 300)}\n${lb.log().slice(-1500)}`).toBe(503);
      expect(init.type).toMatch(/^application\/json/);
      expect(JSON.parse(init.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/state store/i) } });
    }
    const modern = await modernCall(lb.url, 'list_domains', {});
    expect(modern.status, `${JSON.stringify(modern.msg)}\n${lb.log().slice(-1500)}`).toBe(200);
    expect(modern.envelope).toMatchObject({ success: false, error: { code: 'STATE_UNAVAILABLE' } });
  }
  // The fallback was what answered: nginx had every replica marked failed at least once.
  expect(lb.log()).toContain('no live upstreams');

  await redis.start();
  await until(async () => (await legacyInit()).status === 200, 'a legacy initialize served again once Redis is back', 30_000);
  await until(async () => (await modernCall(lb.url, 'list_domains', {})).envelope?.success === true, 'a 2026-07-28 call served again', 30_000);
}, 120_000);
