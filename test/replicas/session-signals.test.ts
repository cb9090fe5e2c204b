// Two real `serve --http --state redis://…` replicas on one real redis-server, with no sticky routing: a legacy
// (2025-era) client's notifications/cancelled that reaches the replica not running the call still cancels it (the
// call ends CANCELLED and the upstream connection closes), only for the principal that owns the session; a DELETE
// on one replica ends the other's live session and its standalone GET stream at once; a refused initialize leaves
// no session record in Redis. The replicas tell each other through Redis pub/sub (src/state/redis-signals.ts).
// Needs `npm run build`; fails when redis-server is missing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newToken, tokenPrincipal } from '../../src/server/auth/tokens.js';
import { fixtureRegistry, newClient } from '../helpers/mcp.js';
import { openSession, rpc, type RawSession } from '../helpers/mcp-raw.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/timing.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let redis: TestRedis;
let up: Upstream;
let a: Replica;
let b: Replica;
const alice = newToken('alice', ['catalog:read', 'catalog:execute']);
const bob = newToken('bob', ['catalog:read', 'catalog:execute']);
const auth = (t: { token: string }) => ({ authorization: `Bearer ${t.token}` });

beforeAll(async () => {
  redis = await startRedis();
  up = await startUpstream();
  // the slow upstream: GET /pets/999 is accepted and never answered (until the caller goes away)
  up.route('/pets/999', { kind: 'stall' });
  const tokens = join(tempDir('ac-signals-'), 'tokens.txt');
  writeFileSync(tokens, `${alice.line}\n${bob.line}\n`);
  const env = { API_CATALOG_STATE: redis.url, PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_LOG_LEVEL: 'info' };
  const started = await Promise.all([0, 1].map(() => startReplica(['--registry', fixtureRegistry('petstore'), '--tokens', tokens], env)));
  [a, b] = [started[0] as Replica, started[1] as Replica];
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await up?.close();
  await redis?.close();
  for (const r of [a, b]) {
    expect(r?.stderr()).not.toContain(alice.token);
    expect(r?.stderr()).not.toContain(bob.token);
  }
});

const tag = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 10);
const lines = (r: Replica, event: string, session: string) => r.stderr().split('\n').filter((l) => l.includes(`"event":"${event}"`) && l.includes(`"session":"${tag(session)}"`));
const other = (r: Replica) => (r === a ? b : a);

/** Waits until the upstream holds one more request for the slow pet than `before`; returns it. */
async function slowRequestArrives(before: number) {
  await until(() => up.hits('/pets/999').length > before, 'the slow upstream request');
  return up.hits('/pets/999')[before]!;
}

test('a legacy client cancels a call running on replica A by a notification that reaches replica B: CANCELLED, upstream closed', async () => {
  // Every request alternates between the replicas, except that the cancellation goes to the one not running the call.
  let next = 0;
  let runningOn: Replica | undefined;
  const fetchAlternating = (input: string | URL | Request, init?: RequestInit) => {
    const method = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: { name?: string } }) : undefined;
    let target = [a, b][next++ % 2]!;
    if (method?.method === 'tools/call' && method.params?.name === 'execute_tool') runningOn = target;
    if (method?.method === 'notifications/cancelled' && runningOn) target = other(runningOn);
    const url = new URL(input instanceof Request ? input.url : input);
    url.port = String(target.port);
    return fetch(url, init);
  };
  const client = newClient('legacy', {}, 'signals-test');
  const transport = new StreamableHTTPClientTransport(new URL(a.url), { fetch: fetchAlternating, requestInit: { headers: auth(alice) } });
  await client.connect(transport);
  try {
    const session = transport.sessionId as string;
    await client.callTool({ name: 'describe_tools', arguments: { tool_names: ['pets.get'] } });
    const before = up.hits('/pets/999').length;
    const user = new AbortController();
    const call = client.callTool({ name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 999 } } }, { signal: user.signal });
    const upstream = await slowRequestArrives(before);
    user.abort('the user pressed stop');
    await expect(call).rejects.toThrow();
    const running = runningOn as Replica;
    await until(() => upstream.aborted, 'the upstream connection of the cancelled call to close');
    await until(() => lines(running, 'tool_call', session).some((l) => l.includes('"tool":"execute_tool"')), 'the execute_tool line');
    const done = lines(running, 'tool_call', session).find((l) => l.includes('"tool":"execute_tool"')) as string;
    expect(JSON.parse(done)).toMatchObject({ outcome: 'error', code: 'CANCELLED', target: 'pets.get' });
    expect(lines(running, 'cancel_relayed', session)).toHaveLength(1);
  } finally {
    await client.close();
  }
});

/** A raw legacy session of `who` opened on `on` (initialize and initialized on the same replica). */
async function session(who: { token: string }, on: Replica): Promise<RawSession> {
  return openSession(on.url, on.url, auth(who));
}

test('only the principal that owns a session can cancel its calls, on any replica', async () => {
  const s = await session(alice, a);
  const before = up.hits('/pets/999').length;
  const describe = await rpc(a.url, s, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'describe_tools', arguments: { tool_names: ['pets.get'] } } }, auth(alice));
  expect(describe.status).toBe(200);
  const call = rpc(a.url, s, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 999 } } } }, auth(alice));
  const upstream = await slowRequestArrives(before);
  // bob, with alice's session id and request id, on the other replica: the session is not found under his principal
  const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } };
  expect((await rpc(b.url, s, cancel, auth(bob))).status).toBe(404);
  // a forged signal naming bob as the principal of alice's session is ignored by the replica running the call ...
  await redis.command('PUBLISH', 'ac:signals:0', JSON.stringify({ kind: 'cancel', key: { principal: tokenPrincipal('bob'), session: s.id }, requestId: 3, from: 'forged' }));
  // ... which has read it once it has read alice's cancellation of another request id, published after it
  expect((await rpc(b.url, s, { ...cancel, params: { requestId: 99 } }, auth(alice))).status).toBe(202);
  const relayed = (id: number) => lines(a, 'cancel_relayed', s.id).filter((l) => l.includes(`"requestId":${id},`) || l.endsWith(`"requestId":${id}}`));
  await until(() => relayed(99).length === 1, 'replica A hearing of the cancellation of request 99');
  expect(relayed(3)).toEqual([]);
  expect(upstream.aborted).toBe(false);
  // alice's own cancellation of the call, sent to the other replica, cancels it
  expect((await rpc(b.url, s, cancel, auth(alice))).status).toBe(202);
  await until(() => upstream.aborted, 'the upstream connection of the cancelled call to close');
  await until(() => lines(a, 'tool_call', s.id).some((l) => l.includes('"code":"CANCELLED"')), 'the cancelled execute_tool line');
  expect(relayed(3)).toHaveLength(1);
  // the SDK sends no answer to a cancelled request; the POST's stream ends when the session does
  await fetch(a.url, { method: 'DELETE', headers: { 'mcp-session-id': s.id, 'mcp-protocol-version': s.protocol, ...auth(alice) } });
  await call.catch(() => undefined);
});

test('DELETE on replica A ends the live session replica B holds, and closes its standalone GET stream', async () => {
  const s = await session(alice, a);
  const headers = { 'mcp-session-id': s.id, 'mcp-protocol-version': s.protocol, ...auth(alice) };
  const stream = await fetch(b.url, { headers: { ...headers, accept: 'text/event-stream' } });
  expect(stream.status).toBe(200);
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return 'ended';
  })();
  const del = await fetch(a.url, { method: 'DELETE', headers });
  expect(del.status).toBe(200);
  let gaveUp: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([ended, new Promise((resolve) => (gaveUp = setTimeout(() => resolve('still open 15 s after the DELETE'), 15_000)))]);
  clearTimeout(gaveUp);
  expect(outcome).toBe('ended');
  await until(() => lines(b, 'session_end', s.id).some((l) => l.includes('"reason":"deleted"')), 'replica B ending the session');
  expect((await fetch(b.url, { headers: { ...headers, accept: 'text/event-stream' } })).status).toBe(404);
});

test('a refused initialize (406) leaves no session record in Redis', async () => {
  const count = async () => ((await redis.command('KEYS', 'ac:*:session')) as string[]).length;
  const before = await count();
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  for (const r of [a, b]) expect((await rpc(r.url, undefined, init, { ...auth(alice), accept: 'application/json' })).status).toBe(406);
  expect(await count()).toBe(before);
});
