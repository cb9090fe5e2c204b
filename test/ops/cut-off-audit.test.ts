// An execute_tool that its client was already told was CANCELLED at the end of the shutdown grace ("the upstream
// request was aborted and may have run; check before retrying"), but that then finished here after all, is audited
// as what the client was told: outcome CANCELLED, with `completed_after_cancel` saying what it came to (`ok`: the
// upstream completed it) and the upstream's status. Before, its audit line was a plain success the client never saw.
// Real SDK clients of both eras, real HTTP, a real redis-server as the state store. The call is held past the answer
// without a clock: the upstream answers at once with a large result, but Redis's writes are paused first (CLIENT
// PAUSE WRITE), so the call waits in the store's write of its full result (what a slow store looks like) while the
// shutdown answers it; resuming Redis lets it finish.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { AuditLog } from '../../src/server/ops/audit.js';
import { serveHttp } from '../../src/server/transports/http.js';
import { RedisStateStore } from '../../src/state/redis.js';
import { catalogs, connectHttp, fixtureRegistry, type Envelope, type Era } from '../helpers/mcp.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { until } from './helpers.js';

let redis: TestRedis;
let store: RedisStateStore;
let up: Upstream;

beforeAll(async () => {
  redis = await startRedis();
  // commands wait as long as Redis is paused here (the default 1.5 s would end the wait on its own)
  store = new RedisStateStore(redis.url, { commandTimeoutMs: 60_000 });
  expect(await store.waitUntilReady(10_000)).toBe(true);
  up = await startUpstream();
});
afterAll(async () => {
  await redis?.command('CLIENT', 'UNPAUSE').catch(() => undefined);
  await store?.close();
  await up?.close();
  await redis?.close();
});

/** Whether a client of Redis waits, paused, in a script call carrying a large argument (a stored result's text). */
async function resultWriteWaiting(): Promise<boolean> {
  const list = String(await redis.command('CLIENT', 'LIST'));
  return list.split('\n').some((l) => /\bflags=\w*b/.test(l) && /\bcmd=eval(sha)?\b/.test(l) && Number(/\bargv-mem=(\d+)/.exec(l)?.[1]) > 50_000);
}

test.each(['modern', 'legacy'] as const)('%s: a call that finishes after its shutdown answer is audited CANCELLED, completed_after_cancel ok', async (era: Era) => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) });
  const audit = new AuditLog({ logger });
  const path = `/pets/${era === 'modern' ? 301 : 302}`;
  // the upstream pauses Redis's writes, then answers 200 with a result too large to answer whole (it is stored)
  up.route(path, {
    kind: 'handler',
    handle: (_req, res) => {
      void redis.command('CLIENT', 'PAUSE', '60000', 'WRITE').then(() => {
        const body = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `pet ${i} ${'x'.repeat(80)}` })));
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req-${era}` });
        res.end(body);
      });
    },
  });
  const srv = await serveHttp(
    {
      catalogs: catalogs(fixtureRegistry('petstore')),
      settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
      rateLimitPerMinute: 0,
      requireDescribe: false,
      state: store,
      observe: audit.observe,
      logger,
    },
    { port: 0 },
  );
  let client: Client | undefined;
  try {
    client = await connectHttp(srv.url, era);
    const answer = client
      .callTool({ name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: era === 'modern' ? 301 : 302 } } }, { timeout: 30_000 })
      .then((r) => r.structuredContent as unknown as Envelope, (err: unknown) => err);
    await until(resultWriteWaiting, 'the call to wait in the store (its result write, Redis paused)');
    // the grace is over: the call still running is answered CANCELLED
    await srv.shutdown(0);
    expect(await answer).toMatchObject({ success: false, error: { code: 'CANCELLED', message: expect.stringMatching(/may have run/) } });
    // Redis resumes: the call finishes here, after its client was told it was cancelled
    await redis.command('CLIENT', 'UNPAUSE');
    await until(() => lines.some((l) => l.event === 'audit'), 'the call to finish and write its audit line');
    expect(lines.filter((l) => l.event === 'audit')).toEqual([
      expect.objectContaining({ era, tool: 'pets.get', outcome: 'CANCELLED', completed_after_cancel: 'ok', dispatched: true, upstream_status: 200 }),
    ]);
    expect(lines.find((l) => l.event === 'tool_call')).toMatchObject({ tool: 'execute_tool', outcome: 'ok', shutdownAnswer: 'CANCELLED' });
  } finally {
    await redis.command('CLIENT', 'UNPAUSE').catch(() => undefined);
    await client?.close().catch(() => undefined);
    await srv.close();
  }
});
