// A rolling restart under load (issue 25 item 1): two real `serve --http --state redis://…` replicas behind nginx
// and HAProxy with the shipped configs (deploy/), one real redis-server, clients of both eras (the SDK client, many of each)
// calling search -> describe -> execute_tool against a slow fake upstream. Each replica in turn gets SIGTERM, exits
// 0 once its calls finished, and starts again on its port; then the other. No call fails, no upstream request is
// cancelled, and the upstream saw exactly one request per successful execute_tool (no loss, no double). A failure
// names the time it happened, to match against the replicas' drain (a call lost behind HAProxy is not in its log).
// Needs `npm run build`; fails when redis-server, nginx or haproxy is missing.
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startBalancer } from '../helpers/balancer.js';
import { call, connectHttp, describeHandle, fixtureRegistry, type Era } from '../helpers/mcp.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { events, until } from '../ops/helpers.js';

const TOKEN = `tok-${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 32)}`;
const CLIENTS_PER_ERA = 6;
/** Upstream think time: long enough that every SIGTERM lands while calls are upstream. */
const UPSTREAM_MS = 150;
/**
 * A deadline for the whole run, not a timing target: four replica starts, two drains and the calls between them
 * take ~15 s on an idle machine and several times that on a busy 2-core one (the suite's 30 s default is too short).
 */
const ROLLING_TIMEOUT_MS = 240_000;

let redis: TestRedis;
let up: Upstream;
let upstreamInFlight = 0;

beforeAll(async () => {
  redis = await startRedis({ password: 'rolling-pw-7c2e' });
  up = await startUpstream();
  up.setDefault({
    kind: 'handler',
    handle: (_req, res) => {
      upstreamInFlight++;
      const t = setTimeout(() => {
        upstreamInFlight--;
        if (res.destroyed) return;
        const body = JSON.stringify({ id: 1, name: 'Rex' });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
        res.end(body);
      }, UPSTREAM_MS);
      res.once('close', () => {
        if (!res.writableFinished) {
          clearTimeout(t);
          upstreamInFlight--;
        }
      });
    },
  });
});
afterAll(async () => {
  await up?.close();
  await redis?.close();
});

const env = () => ({ API_CATALOG_STATE: redis.url, API_CATALOG_HTTP_TOKEN: TOKEN, PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_READ_RATE_LIMIT: '0' });
const ARGS = ['--registry', fixtureRegistry('petstore'), '--allow-host', '127.0.0.1', '--require-state', '--shutdown-grace', '20'];

interface Tally {
  calls: number;
  executes: number;
  errors: string[];
}

/** One client looping search -> describe -> execute until `stop()`; every failure is recorded, none thrown. */
async function clientLoop(url: string, era: Era, n: number, tally: Tally, stopped: () => boolean): Promise<void> {
  let client: Client | undefined;
  try {
    client = await connectHttp(url, era, { headers: { Authorization: `Bearer ${TOKEN}` }, name: `rolling-${era}-${n}` });
    for (let i = 0; !stopped(); i++) {
      const s = await call(client, 'search_tools', { query: 'get a pet' });
      tally.calls++;
      if (!s.success) tally.errors.push(`${era}#${n} search: ${JSON.stringify(s.error)}`);
      const handle = await describeHandle(client, 'pets.get');
      tally.calls++;
      const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: n * 1000 + i + 1 }, ...(era === 'modern' ? { handle } : {}) });
      tally.calls++;
      if (r.success) tally.executes++;
      else tally.errors.push(`${era}#${n} execute: ${JSON.stringify(r.error).slice(0, 300)}`);
    }
  } catch (err) {
    tally.errors.push(`${new Date().toISOString()} ${era}#${n} threw: ${err instanceof Error ? err.message.slice(0, 300) + ' ' + String((err as { cause?: unknown }).cause ?? '') : String(err)}`);
  } finally {
    await client?.close().catch(() => undefined);
  }
}

describe.each(['nginx', 'haproxy'] as const)('rolling restart behind %s', (kind) => {
  test(`O17: SIGTERM one replica, start it again, then the other, under ${CLIENTS_PER_ERA} legacy + ${CLIENTS_PER_ERA} modern clients: no call lost, no upstream request cancelled`, async () => {
    const replicas: Replica[] = await Promise.all([0, 1].map(() => startReplica(ARGS, env())));
    const lb = await startBalancer(kind, replicas.map((r) => r.port));
    const tally: Tally = { calls: 0, executes: 0, errors: [] };
    const exits: Array<{ code: number | null; signal: NodeJS.Signals | null }> = [];
    let stop = false;
    up.clear();
    try {
      const loops = (['legacy', 'modern'] as const).flatMap((era) => Array.from({ length: CLIENTS_PER_ERA }, (_, n) => clientLoop(lb.url, era, n, tally, () => stop)));
      for (const i of [0, 1]) {
        const old = replicas[i] as Replica;
        // Calls are flowing, some of them upstream on this replica, when the signal comes.
        const before = tally.executes;
        await until(() => tally.executes >= before + 20 && upstreamInFlight > 0, 'calls in flight');
        old.child.kill('SIGTERM');
        exits.push(await old.exited);
        expect(events(old.stderr(), 'exit')[0], old.stderr().slice(-2000)).toMatchObject({ reason: 'shutdown', drained: true, abandoned: 0 });
        const fresh = await startReplica(ARGS, env(), { port: old.port });
        replicas[i] = fresh;
        // Rolled in: the balancer sends it work again before the next replica goes.
        await until(() => events(fresh.stderr(), 'tool_call').length >= 5, `the restarted replica ${i} to take calls`, 30_000);
      }
      const after = tally.executes;
      await until(() => tally.executes >= after + 20, 'calls after the restarts');
      stop = true;
      await Promise.all(loops);
      expect(tally.errors, tally.errors.slice(0, 5).join('\n')).toEqual([]);
      expect(exits).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
      // Exactly one upstream request per successful execute_tool, none of them cancelled.
      expect(up.requests.filter((q) => q.aborted)).toEqual([]);
      expect(up.requests).toHaveLength(tally.executes);
      expect(tally.calls).toBeGreaterThan(200);
      // The restarted replica's metrics: the Redis round trips it made are timed, none failed.
      const scrape = await (await fetch(replicas[1]!.url.replace(/\/mcp$/, '/metrics'), { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
      expect(Number(/^api_catalog_state_store_duration_seconds_count\{operation="touchSession"\} (\d+)$/m.exec(scrape)?.[1])).toBeGreaterThan(0);
      expect(scrape).not.toMatch(/^api_catalog_state_store_errors_total\{/m);
      expect(Number(/^api_catalog_mcp_requests_total\{era="modern"\} (\d+)$/m.exec(scrape)?.[1])).toBeGreaterThan(0);
    } finally {
      stop = true;
      await lb.close();
      for (const r of replicas) await r.stop();
    }
  }, ROLLING_TIMEOUT_MS);
});
