// A legacy (handshake-era) session whose making throws frees its slot at once. Before, the session was already in
// the replica's table when its initialize threw (on creation, or when another replica's session was rebuilt here),
// so it held one of API_CATALOG_MAX_SESSIONS until idle expiry: with a limit of 1, every later client got 503 "too
// many sessions" for the session TTL. Real HTTP and a real MCP SDK transport; the fault is the SDK transport's
// handleRequest failing once (a dependency's failure we cannot provoke from outside), then working again.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { MemoryStateStore } from '../../src/state/index.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { openSession, rpc } from '../helpers/mcp-raw.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** Two replicas sharing one store (a legacy session made on one is rebuilt on the other), one session each at most. */
let a: HttpHandle;
let b: HttpHandle;

beforeAll(async () => {
  const state = new MemoryStateStore();
  const deps = () => ({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0, state });
  a = await serveHttp(deps(), { port: 0, maxSessions: 1 });
  b = await serveHttp(deps(), { port: 0, maxSessions: 1 });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The SDK transport's next handleRequest (of any session) throws. */
function failNextTransportRequest(): void {
  vi.spyOn(WebStandardStreamableHTTPServerTransport.prototype, 'handleRequest').mockRejectedValueOnce(new Error('the transport failed'));
}

async function deleteSession(url: string, s: { id: string; protocol: string }): Promise<void> {
  const res = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': s.id, 'mcp-protocol-version': s.protocol } });
  expect(res.status).toBe(200);
}

test('an initialize that throws leaves no session: the one slot is free for the next client at once', async () => {
  failNextTransportRequest();
  const failed = await rpc(a.url, undefined, INIT);
  expect(failed.status).toBe(500);
  expect(a.sessionCount()).toBe(0);
  // before: 503 "too many sessions" until the failed session's idle expiry
  const next = await openSession(a.url);
  expect(a.sessionCount()).toBe(1);
  await deleteSession(a.url, next);
});

test('a session rebuilt from the store whose replay throws leaves no session on that replica: its slot is free', async () => {
  const s = await openSession(a.url);
  failNextTransportRequest();
  const failed = await rpc(b.url, s, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
  expect(failed.status).toBe(404);
  expect(b.sessionCount()).toBe(0);
  // the same session is rebuilt on the next try, in the slot the failed rebuild gave back
  const listed = await rpc(b.url, s, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
  expect(listed.status).toBe(200);
  expect(b.sessionCount()).toBe(1);
  await deleteSession(a.url, s);
});
