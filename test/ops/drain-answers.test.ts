// When --shutdown-grace ends with calls still upstream, each is cancelled and still answered: real SDK clients of
// both eras (a 2026-07-28 POST answered in JSON, a legacy session's POST answered on its SSE stream) get the
// CANCELLED envelope that says the server shut down and the upstream request may have run, instead of an empty
// reply (modern) or a wait for their own request timeout (legacy). A real `serve --http`, a local upstream that
// holds the requests, SIGTERM. Needs `npm run build`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, fixtureRegistry, type Envelope, type Era } from '../helpers/mcp.js';
import { startReplica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { events, holdRoute, until } from './helpers.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up?.close();
});

/**
 * A deadline for each client's call, far above what the answer needs (it comes right after the grace): without
 * the fix the legacy client would wait for this instead of the SDK's 60 s default. Not a timing assertion.
 */
const CLIENT_TIMEOUT_MS = 20_000;

/** execute_tool through the SDK: the envelope, checked to be a whole tools/call result (text = structured). */
async function execute(client: Client, petId: number): Promise<Envelope & { isError: boolean }> {
  const result = await client.callTool({ name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId } } }, { timeout: CLIENT_TIMEOUT_MS });
  const text = (result.content as Array<{ type: string; text: string }>)[0]?.text ?? 'null';
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return { ...(result.structuredContent as unknown as Envelope), isError: Boolean(result.isError) };
}

test('grace exceeded: a 2026-07-28 and a legacy SDK client each get the CANCELLED envelope, the upstream requests are aborted, exit 0', async () => {
  const audit = join(tempDir('ac-drain-answers-'), 'audit.log');
  const paths: Record<Era, string> = { modern: '/pets/201', legacy: '/pets/202' };
  const holds = { modern: holdRoute(up, paths.modern), legacy: holdRoute(up, paths.legacy) };
  const env = { PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_LOG_LEVEL: 'info' };
  const r = await startReplica(['--registry', fixtureRegistry('petstore'), '--no-require-describe', '--shutdown-grace', '1', '--audit-log', audit], env);
  try {
    const clients = { modern: await connectHttp(r.url, 'modern'), legacy: await connectHttp(r.url, 'legacy') };
    const pending = { modern: execute(clients.modern, 201).catch((err: unknown) => err), legacy: execute(clients.legacy, 202).catch((err: unknown) => err) };
    await holds.modern.waitArrived();
    await holds.legacy.waitArrived();
    r.child.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 0, signal: null });
    const got = { modern: await pending.modern, legacy: await pending.legacy };
    // before: modern `Error POSTing to endpoint: ` (an empty reply), legacy a request timeout (both reported)
    for (const era of ['modern', 'legacy'] as const) expect.soft(got[era], `${era}: ${String(got[era])}`).not.toBeInstanceOf(Error);
    for (const era of ['modern', 'legacy'] as const) {
      expect(got[era]).toMatchObject({
        success: false,
        isError: true,
        tool: 'pets.get',
        error: { code: 'CANCELLED', message: expect.stringMatching(/server shut down.*upstream request.*aborted.*may have run/) },
        instruction: expect.stringMatching(/check whether it took effect .*before retrying/i),
      });
      // the answer says what happened, and it did: the upstream request was cut off
      await until(() => up.hits(paths[era])[0]?.aborted === true, `the ${era} upstream request to be aborted`);
    }
    expect(events(r.stderr(), 'drain_timeout')[0]).toMatchObject({ graceMs: 1000, abandoned: 2, answered: 2 });
    const lines = readFileSync(audit, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.era, l.outcome, l.dispatched]).sort()).toEqual([
      ['legacy', 'CANCELLED', true],
      ['modern', 'CANCELLED', true],
    ]);
    await Promise.all(Object.values(clients).map((c) => c.close().catch(() => undefined)));
  } finally {
    holds.modern.release();
    holds.legacy.release();
    await r.kill();
  }
}, 60_000);
