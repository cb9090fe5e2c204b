// Refusals on the HTTP endpoint, against the built CLI (`serve --http`, API_CATALOG_MAX_SESSIONS=3) over real HTTP:
// a refused legacy initialize leaves no session behind (before, three 406s filled every slot and the next correct
// client got 503 for the idle TTL), and three refusals that misled: an unknown version header inside a session, an
// initialize whose params fail the schema, a 2026-07-28 GET or DELETE. Needs `npm run build`.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fixtureRegistry } from '../helpers/mcp.js';
import { openSession, rpc } from '../helpers/mcp-raw.js';
import { startReplica, type Replica } from '../helpers/replicas.js';

let srv: Replica;

beforeAll(async () => {
  srv = await startReplica(['--registry', fixtureRegistry('petstore')], { API_CATALOG_MAX_SESSIONS: '3', API_CATALOG_LOG_LEVEL: 'info' });
});
afterAll(async () => {
  await srv?.stop();
});

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

async function openSessions(): Promise<number> {
  const res = await fetch(srv.url.replace(/\/mcp$/, '/metrics'));
  const m = /^api_catalog_legacy_sessions_open (\d+)$/m.exec(await res.text());
  return Number(m?.[1]);
}

test('a refused initialize (406: Accept without text/event-stream) leaves no session: the slots stay free for correct clients', async () => {
  for (let i = 0; i < 5; i++) {
    const refused = await rpc(srv.url, undefined, INIT, { accept: 'application/json' });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
  }
  expect(await openSessions()).toBe(0);
  // three correct clients fit (the limit is 3); before, the 406s had taken every slot and this was a 503
  const sessions = [];
  for (let i = 0; i < 3; i++) sessions.push(await openSession(srv.url));
  expect(await openSessions()).toBe(3);
  const full = await rpc(srv.url, undefined, INIT);
  expect(full.status).toBe(503);
  for (const s of sessions) {
    const res = await fetch(srv.url, { method: 'DELETE', headers: { 'mcp-session-id': s.id, 'mcp-protocol-version': s.protocol } });
    expect(res.status).toBe(200);
  }
  expect(await openSessions()).toBe(0);
});

test('inside a session, a version header naming no revision we speak gets 400 -32022 listing the versions, not a call for _meta', async () => {
  const s = await openSession(srv.url);
  try {
    const r = await rpc(srv.url, undefined, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'mcp-session-id': s.id, 'mcp-protocol-version': '2099-01-01' });
    expect(r.status).toBe(400);
    expect(r.msg).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32022,
        message:
          'Unsupported protocol version "2099-01-01": this server speaks 2026-07-28 (every request carrying its _meta) and, after an initialize handshake, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07',
        data: { supported: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'], requested: '2099-01-01' },
      },
    });
    // a GET stream asked for with it gets the same answer
    const get = await fetch(srv.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': s.id, 'mcp-protocol-version': '2099-01-01' } });
    expect(get.status).toBe(400);
    expect(((await get.json()) as { error: { code: number } }).error.code).toBe(-32022);
    // the session itself is untouched
    const ok = await rpc(srv.url, s, { jsonrpc: '2.0', id: 8, method: 'tools/list' });
    expect(ok.status).toBe(200);
    expect(ok.msg.result.tools).toHaveLength(4);
  } finally {
    await fetch(srv.url, { method: 'DELETE', headers: { 'mcp-session-id': s.id, 'mcp-protocol-version': s.protocol } });
  }
});

test('an initialize whose params fail the schema gets -32602 naming the field, not "initialize first"', async () => {
  const bad = await rpc(srv.url, undefined, { ...INIT, id: 13, params: { ...INIT.params, protocolVersion: 5 } });
  expect(bad.status).toBe(400);
  expect(bad.msg).toEqual({ jsonrpc: '2.0', id: 13, error: { code: -32602, message: 'Invalid initialize request: params.protocolVersion: expected string, received number' } });
  const noInfo = await rpc(srv.url, undefined, { ...INIT, id: 14, params: { protocolVersion: '2025-06-18', capabilities: {} } });
  expect(noInfo.msg.error).toEqual({ code: -32602, message: 'Invalid initialize request: params.clientInfo is required' });
  expect(await openSessions()).toBe(0);
});

test.each(['GET', 'DELETE'])('a %s naming 2026-07-28 with no session gets 405 Allow: POST (that revision has neither), not a call for a session id', async (method) => {
  const res = await fetch(srv.url, { method, headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('POST');
  expect(await res.json()).toEqual({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: 'Method Not Allowed: 2026-07-28 has no sessions, GET stream or DELETE; send each request as a POST' },
  });
  // without the header (a legacy client that lost its session id) the answer stays the legacy one
  const legacy = await fetch(srv.url, { method, headers: { accept: 'text/event-stream' } });
  expect(legacy.status).toBe(400);
  expect(((await legacy.json()) as { error: { message: string } }).error.message).toBe('Bad Request: Mcp-Session-Id header is required');
});
