// Streamable HTTP, one endpoint for both eras: the full flow through the SDK's StreamableHTTPClientTransport with a
// client of each era, describe handles on the stateless 2026-07-28 path, legacy session isolation, the upstream
// credential header, the revision's request checks (Mcp-Method / Mcp-Name, versions), and transport hardening
// (RELIABILITY.md A1–A22, A25) with raw HTTP requests.
import { connect as netConnect, type Socket } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigFile, resolveServerConfig } from '../../src/config.js';
import { settingsFromConfig } from '../../src/server/core/catalogs.js';
import { generateSessionId } from '../../src/server/session.js';
import { isAppError } from '../../src/errors.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { ERAS, call, catalogs, connectHttp, describeHandle, fixtureRegistry, type Era } from '../helpers/mcp.js';
import { modernRpc } from '../helpers/mcp-raw.js';
import { rawHttp, type RawResponse } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';

let up: Upstream;
let srv: HttpHandle;
let clock = 1_000_000;
const clients: Client[] = [];
const MAX_BODY = 4096;

beforeAll(async () => {
  up = await startUpstream();
  srv = await serveHttp(
    {
      catalogs: catalogs(fixtureRegistry('petstore')),
      settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
      rateLimitPerMinute: 0,
      sessionTtlMs: 600_000,
      now: () => clock,
    },
    { port: 0, maxBodyBytes: MAX_BODY, allowOrigins: ['https://app.example'] },
  );
});
afterAll(async () => {
  await srv.close();
  await up.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  up.clear();
});

async function client(era: Era = 'legacy', headers: Record<string, string> = {}): Promise<Client> {
  const c = await connectHttp(srv.url, era, { headers, name: 'http-test' });
  clients.push(c);
  return c;
}

/** A raw HTTP request with full control over Host, Origin and the body. */
const raw = (method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawResponse> =>
  rawHttp(srv.port, method, path, headers, body);

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initBody = (id = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

/** Initializes a session with raw requests; returns its id. */
async function rawSession(): Promise<string> {
  const r = await raw('POST', '/mcp', JSON_HEADERS, initBody());
  expect(r.status).toBe(200);
  const id = r.headers['mcp-session-id'] as string;
  await raw('POST', '/mcp', { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return id;
}

/** A JSON-RPC error body: no HTML, no stack, no file path. */
function expectJsonRpcError(r: RawResponse, code?: number): void {
  expect(r.headers['content-type']).toMatch(/application\/json/);
  const body = JSON.parse(r.body) as { jsonrpc: string; error: { code: number; message: string }; id: null };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBeNull();
  if (code !== undefined) expect(body.error.code).toBe(code);
  expect(r.body).not.toMatch(/<html|<pre|\bat .*\(|\/work\/|node_modules/i);
}

describe.each(ERAS)('Streamable HTTP, %s client', (era: Era) => {
  test('search -> describe -> execute over HTTP (L3) with the handle, same envelope as in memory', async () => {
    const c = await client(era);
    expect(c.getProtocolEra()).toBe(era);
    const s = await call(c, 'search_tools', { query: 'get pet by id' });
    expect(s.value.results[0].name).toBe('pets.get');
    const handle = await describeHandle(c, 'pets.get');
    const r = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 12 }, handle });
    expect(r.success).toBe(true);
    expect(up.requests.map((q) => q.url)).toEqual(['/pets/12']);
  });

  test('a dry run and a wrong handle: the handle names one operation at its definition', async () => {
    const c = await client(era);
    const handle = await describeHandle(c, 'pets.get');
    const dry = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 3 }, dry_run: true, handle });
    expect(dry.value).toMatchObject({ dry_run: true, request: { method: 'GET', url: `${up.url}/pets/3` } });
    const other = await call(c, 'execute_tool', { tool_name: 'pets.list', args: {}, handle });
    expect(other.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
    expect(other.error?.details.reason).toBe('mismatch');
    expect(other.instruction).toMatch(/then call execute_tool again with the "handle" it returns for pets\.list/);
    const junk = await call(c, 'execute_tool', { tool_name: 'pets.list', args: {}, handle: 'not-a-handle' });
    expect(junk.error?.details.reason).toBe('malformed');
    expect(up.requests).toHaveLength(0);
  });

  test('a destructive call without "confirm": a client with elicitation is asked (2026-07-28: MRTR; legacy: on the session stream), one without gets CONFIRMATION_REQUIRED', async () => {
    const asking = await connectHttp(srv.url, era, { capabilities: { elicitation: {} }, name: 'http-elicit' });
    clients.push(asking);
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    asking.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params.message);
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    const handle = await describeHandle(asking, 'pets.delete');
    const declined = await call(asking, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 3 }, handle });
    expect(declined.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(declined.error?.message).toMatch(/the user declined/);
    expect(up.requests).toHaveLength(0);
    answer = 'accept';
    const done = await call(asking, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 3 }, handle });
    expect(done.success, JSON.stringify(done)).toBe(true);
    expect(asked).toHaveLength(2);
    expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/3']);
    const silent = await client(era);
    const refused = await call(silent, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 3 }, handle: await describeHandle(silent, 'pets.delete') });
    expect(refused.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(refused.instruction).toMatch(/"confirm": "pets.delete"/);
    expect(up.requests).toHaveLength(1);
  });

  test('X-Upstream-Token is the upstream credential; the client Authorization header never goes upstream (H6)', async () => {
    const c = await client(era, { 'X-Upstream-Token': 'sess-secret-4242', Authorization: 'Bearer client-token-9999' });
    const d = await call(c, 'describe_tools', { tool_names: ['store.inventory'] });
    expect(d.value.tools[0].credentials).toBe(`PETSTORE_API_KEY (not set; this request's X-Upstream-Token is used): the key alone; sent as header "X-Api-Key"`);
    expect(JSON.stringify(d)).not.toContain('sess-secret-4242');
    const handle = d.value.tools[0].example.handle as string;
    const r = await call(c, 'execute_tool', { tool_name: 'store.inventory', args: {}, handle });
    expect(r.success).toBe(true);
    const sent = up.requests[0]!;
    expect(sent.headers['x-api-key']).toBe('sess-secret-4242');
    expect(JSON.stringify(up.requests)).not.toContain('client-token-9999');
    expect(JSON.stringify(r)).not.toContain('sess-secret-4242');
  });
});

describe('Streamable HTTP: the 2026-07-28 path is stateless', () => {
  test('a describe is not remembered: without the handle execute_tool refuses, naming the fix (0 upstream)', async () => {
    const sessions = srv.sessionCount();
    const c = await client('modern');
    await call(c, 'describe_tools', { tool_names: ['pets.get'] });
    const r = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
    expect(r.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
    expect(r.error?.details.reason).toBe('not_described');
    expect(r.error?.message).toMatch(/no "handle"/);
    expect(up.requests).toHaveLength(0);
    expect(srv.sessionCount()).toBe(sessions);
  });

  test('a handle works from any client of the same principal, and expires (injected clock)', async () => {
    const a = await client('modern');
    const b = await client('modern');
    const handle = await describeHandle(a, 'pets.get');
    expect((await call(b, 'execute_tool', { tool_name: 'pets.get', args: { petId: 5 }, handle })).success).toBe(true);
    clock += 60 * 60_000 + 1000;
    const late = await call(b, 'execute_tool', { tool_name: 'pets.get', args: { petId: 5 }, handle });
    expect(late.error?.details.reason).toBe('expired');
    expect(late.error?.message).toMatch(/expired/);
    expect(up.requests).toHaveLength(1);
  });

  test('the revision\'s request checks: Mcp-Method/Mcp-Name must match the body (400 -32020); an unknown version is 400 -32022 naming both eras', async () => {
    const ok = await modernRpc(srv.url, 'tools/list');
    expect(ok.status).toBe(200);
    expect(ok.msg.result.tools).toHaveLength(4);
    expect(ok.msg.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public', resultType: 'complete' });
    expect(ok.headers.get('mcp-session-id')).toBeNull();
    const mismatch = await modernRpc(srv.url, 'tools/call', { name: 'search_tools', arguments: { query: 'pet' } }, { override: { 'mcp-name': 'execute_tool' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.msg.error.code).toBe(-32020);
    const missing = await modernRpc(srv.url, 'tools/list', {}, { override: { 'mcp-method': undefined } });
    expect(missing.status).toBe(400);
    const future = await modernRpc(srv.url, 'tools/list', {}, { version: '2099-01-01' });
    expect(future.status).toBe(400);
    expect(future.msg.error.code).toBe(-32022);
    // data.supported is what server/discover advertises (what a modern client may retry with); the message names all.
    expect(future.msg.error.data).toEqual({ supported: ['2026-07-28'], requested: '2099-01-01' });
    expect(future.msg.error.message).toBe(
      'Unsupported protocol version "2099-01-01": this server speaks 2026-07-28 (every request carrying its _meta) and, after an initialize handshake, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07',
    );
    const discover = await modernRpc(srv.url, 'server/discover');
    expect(discover.msg.result.supportedVersions).toEqual(['2026-07-28']);
    expect(discover.msg.result.capabilities).toMatchObject({ tools: {}, resources: {} });
    expect(discover.msg.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('api-catalog');
  });

  test('resources: a missing stored result is -32602 with the URI; tool_descriptions carries the handle', async () => {
    const gone = await modernRpc(srv.url, 'resources/read', { uri: 'api-catalog://results/00000000-0000-4000-8000-000000000000' });
    expect(gone.msg.error.code).toBe(-32602);
    expect(gone.msg.error.data).toEqual({ uri: 'api-catalog://results/00000000-0000-4000-8000-000000000000' });
    const read = await modernRpc(srv.url, 'resources/read', { uri: 'resource:///tool_descriptions?tools=pets.get' });
    const body = JSON.parse(read.msg.result.contents[0].text);
    expect(body['pets.get'].handle).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{16}$/);
    expect(read.msg.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    const c = await client('modern');
    expect((await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 8 }, handle: body['pets.get'].handle })).success).toBe(true);
  });
});

describe('Streamable HTTP: legacy sessions', () => {
  test('two sessions are isolated: described in A, refused in B with 0 upstream (no handle)', async () => {
    const a = await client('legacy');
    const b = await client('legacy');
    await call(a, 'describe_tools', { tool_names: ['pets.get'] });
    const rb = await call(b, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
    expect(rb.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
    expect(up.requests).toHaveLength(0);
    expect((await call(a, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } })).success).toBe(true);
  });

  test('A14/A16: DELETE ends a session (later requests 404); an unknown id is 404; re-initialize works', async () => {
    const id = await rawSession();
    const before = srv.sessionCount();
    const del = await raw('DELETE', '/mcp', { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    expect(del.status).toBe(200);
    expect(srv.sessionCount()).toBe(before - 1);
    const after = await raw('POST', '/mcp', { ...JSON_HEADERS, 'mcp-session-id': id }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(after.status).toBe(404);
    expectJsonRpcError(after, -32001);
    const random = await raw('POST', '/mcp', { ...JSON_HEADERS, 'mcp-session-id': 'f'.repeat(36) }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(random.status).toBe(404);
    expect(await rawSession()).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('idle sessions expire after the TTL (404 afterwards)', async () => {
    const id = await rawSession();
    clock += 600_001;
    const r = await raw('POST', '/mcp', { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    expect(r.status).toBe(404);
  });

  test('A17: session ids are random UUIDs of visible ASCII, all distinct', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const r = await raw('POST', '/mcp', JSON_HEADERS, initBody());
      const id = r.headers['mcp-session-id'] as string;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(id);
      await raw('DELETE', '/mcp', { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    }
    expect(ids.size).toBe(30);
  });
});

describe('HTTP hardening', () => {
  test('A1/A2/A3: a foreign or null Origin is 403 with a JSON-RPC body and creates no session', async () => {
    const before = srv.sessionCount();
    for (const headers of <Array<Record<string, string>>>[
      { host: 'evil.example.com', origin: 'http://evil.example.com' },
      { origin: 'http://evil.example.com' },
      { origin: 'null' },
      { origin: `http://127.0.0.1:${srv.port + 1}` },
      { origin: 'https://app.example.evil.com' },
    ]) {
      const r = await raw('POST', '/mcp', { ...JSON_HEADERS, ...headers }, initBody());
      expect(r.status).toBe(403);
      expectJsonRpcError(r);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(srv.sessionCount()).toBe(before);
  });

  test('A4: no Origin passes; loopback and allow-listed origins pass with CORS headers (A25)', async () => {
    expect((await raw('POST', '/mcp', JSON_HEADERS, initBody())).status).toBe(200);
    for (const origin of [`http://localhost:${srv.port}`, 'https://app.example']) {
      const r = await raw('POST', '/mcp', { ...JSON_HEADERS, origin }, initBody());
      expect(r.status).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBe(origin);
      expect(String(r.headers['access-control-expose-headers'])).toMatch(/Mcp-Session-Id/);
    }
    const pre = await raw('OPTIONS', '/mcp', { origin: 'https://app.example', 'access-control-request-method': 'POST' });
    expect(pre.status).toBe(204);
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/Mcp-Session-Id/);
    const bad = await raw('OPTIONS', '/mcp', { origin: 'https://evil.example' });
    expect(bad.status).toBe(403);
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('A5: Host look-alikes are 403; LOCALHOST in capitals passes', async () => {
    for (const host of [`localhost.evil.com:${srv.port}`, `127.0.0.1.nip.io:${srv.port}`, 'evil.example', `127.0.0.1:${srv.port + 1}`]) {
      const r = await raw('POST', '/mcp', { ...JSON_HEADERS, host }, initBody());
      expect(r.status).toBe(403);
      expectJsonRpcError(r);
    }
    expect((await raw('POST', '/mcp', { ...JSON_HEADERS, host: `LOCALHOST:${srv.port}` }, initBody())).status).toBe(200);
  });

  test('A6/A24: binding a non-loopback address needs --allow-remote AND API_CATALOG_HTTP_TOKEN', () => {
    const errorOf = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const noFlag = errorOf(() => resolveServerConfig({ http: true, host: '0.0.0.0' }, {}));
    expect(isAppError(noFlag) && noFlag.code === 'CONFIG_INVALID' && /--allow-remote/.test(noFlag.message)).toBe(true);
    const noToken = errorOf(() => resolveServerConfig({ http: true, host: '0.0.0.0', allowRemote: true }, {}));
    expect(isAppError(noToken) && noToken.code === 'CONFIG_INVALID' && /API_CATALOG_HTTP_TOKEN/.test(noToken.message)).toBe(true);
    const shortToken = errorOf(() => resolveServerConfig({ http: true, host: '0.0.0.0', allowRemote: true }, { API_CATALOG_HTTP_TOKEN: 'short-123' }));
    expect(isAppError(shortToken) && /at least 16/.test(shortToken.message) && !shortToken.message.includes('short-123')).toBe(true);
    const ok = resolveServerConfig({ http: true, host: '0.0.0.0', allowRemote: true }, { API_CATALOG_HTTP_TOKEN: 'x'.repeat(32), API_CATALOG_ALLOW_HOSTS: 'mcp.example.com, proxy:8443' });
    expect(ok.http).toMatchObject({ host: '0.0.0.0', authToken: 'x'.repeat(32), allowHosts: ['mcp.example.com', 'proxy:8443'] });
    expect(resolveServerConfig({ http: true }, {}).http).toMatchObject({ host: '127.0.0.1', port: 3333 });
    expect(resolveServerConfig({ http: true }, {}).http?.authToken).toBeUndefined();
  });

  test('A7/A8/A9/A11: wrong Accept 406, wrong content type 415, bad JSON 400 -32700, batches 400 -32600', async () => {
    const noAccept = await raw('POST', '/mcp', { 'content-type': 'application/json' }, initBody());
    expect(noAccept.status).toBe(406);
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded']) {
      const r = await raw('POST', '/mcp', { ...JSON_HEADERS, 'content-type': ct }, initBody());
      expect(r.status).toBe(415);
      expectJsonRpcError(r);
    }
    const bad = await raw('POST', '/mcp', JSON_HEADERS, '{bad');
    expect(bad.status).toBe(400);
    expectJsonRpcError(bad, -32700);
    const batch = await raw('POST', '/mcp', JSON_HEADERS, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]));
    expect(batch.status).toBe(400);
    expectJsonRpcError(batch, -32600);
  });

  test('A10: body cap — limit-1 bytes is processed, limit+1 is 413 with a JSON body', async () => {
    const pad = (n: number) => {
      const base = initBody();
      return base.slice(0, -1) + ' '.repeat(n - Buffer.byteLength(base)) + '}';
    };
    const under = await raw('POST', '/mcp', JSON_HEADERS, pad(MAX_BODY - 1));
    expect(under.status).toBe(200);
    const over = await raw('POST', '/mcp', JSON_HEADERS, pad(MAX_BODY + 1));
    expect(over.status).toBe(413);
    expectJsonRpcError(over);
    const huge = await raw('POST', '/mcp', JSON_HEADERS, Buffer.alloc(MAX_BODY * 20, 32));
    expect(huge.status).toBe(413);
  });

  test('A12/A13/A15: bad protocol version 400, no session id 400, second initialize 400', async () => {
    const id = await rawSession();
    const h = { ...JSON_HEADERS, 'mcp-session-id': id };
    const version = await raw('POST', '/mcp', { ...h, 'mcp-protocol-version': '1999-01-01' }, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
    expect(version.status).toBe(400);
    const noId = await raw('POST', '/mcp', JSON_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
    expect(noId.status).toBe(400);
    // the body was read: the answer carries its id (audit proto51, defect 10)
    expect(JSON.parse(noId.body)).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32000 } });
    const again = await raw('POST', '/mcp', { ...h, 'mcp-protocol-version': '2025-06-18' }, initBody(9));
    expect(again.status).toBe(400);
    expectJsonRpcError(again, -32600);
  });

  test('A18: malformed or huge session ids are refused and the server stays up', async () => {
    for (const id of ['has space', 'x'.repeat(200)]) {
      const r = await raw('POST', '/mcp', { ...JSON_HEADERS, 'mcp-session-id': id }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      expect(r.status).toBe(400);
    }
    const big = await raw('POST', '/mcp', { ...JSON_HEADERS, 'mcp-session-id': 'x'.repeat(20_000) }, '{}');
    expect(big.status).toBe(431);
    expect((await raw('POST', '/mcp', JSON_HEADERS, initBody())).status).toBe(200);
  });

  test('A19/A21: GET without SSE accept 406; PUT/PATCH 405 JSON; unknown routes 404 JSON', async () => {
    const id = await rawSession();
    const get = await raw('GET', '/mcp', { accept: 'application/json', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    expect(get.status).toBe(406);
    for (const m of ['PUT', 'PATCH']) {
      const r = await raw(m, '/mcp', JSON_HEADERS, '{}');
      expect(r.status).toBe(405);
      expectJsonRpcError(r);
    }
    for (const p of ['/unknown', '/', '/mcp/../etc/passwd']) {
      const r = await raw('GET', p, {});
      expect(r.status).toBe(404);
      expectJsonRpcError(r);
    }
  });

  test('A22: timeouts set; 200 idle sockets and a slow-header client do not block new requests', async () => {
    expect(srv.server.headersTimeout).toBeGreaterThan(0);
    expect(srv.server.requestTimeout).toBeGreaterThan(0);
    expect(srv.server.keepAliveTimeout).toBeGreaterThan(0);
    const sockets: Socket[] = [];
    for (let i = 0; i < 200; i++) sockets.push(netConnect(srv.port, '127.0.0.1'));
    const slow = netConnect(srv.port, '127.0.0.1');
    slow.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    try {
      const r = await raw('POST', '/mcp', JSON_HEADERS, initBody());
      expect(r.status).toBe(200);
    } finally {
      for (const s of [...sockets, slow]) s.destroy();
    }
  });
});

describe('per-catalog config file over Streamable HTTP', () => {
  let cfgSrv: HttpHandle;
  const cfgClients: Client[] = [];
  const VAULT = 'vault-key-7777-canary';
  beforeAll(async () => {
    const dir = tempDir('api-catalog-http-config-');
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ catalogs: { petstore: { baseUrl: up.url, credentials: { apiKey: 'PETS_VAULT_KEY' }, idempotencyHeader: 'Idempotency-Key' } } }),
    );
    const config = resolveServerConfig({ config: file }, {});
    const set = catalogs(fixtureRegistry('petstore'));
    const env = { PETS_VAULT_KEY: VAULT, PETSTORE_API_KEY: 'default-name-not-used' };
    cfgSrv = await serveHttp({ catalogs: set, settings: settingsFromConfig(config, set, env, readConfigFile(config.configPath!)), rateLimitPerMinute: 0 }, { port: 0 });
  });
  afterAll(async () => {
    await Promise.all(cfgClients.splice(0).map((c) => c.close()));
    await cfgSrv.close();
  });

  test.each(ERAS)('%s: describe names the configured env var; a retried POST reuses one idempotency key; the key value never shows', async (era) => {
    const c = await connectHttp(cfgSrv.url, era, { name: 'config-test' });
    cfgClients.push(c);
    const d = await call(c, 'describe_tools', { tool_names: ['store.orders.place'] });
    expect(d.value.tools[0].credentials).toBe('PETS_VAULT_KEY (set): the key alone; sent as header "X-Api-Key"');
    up.route('/store/orders', { kind: 'sequence', steps: [{ kind: 'status', status: 503, headers: { 'retry-after': '0' } }, { kind: 'echo' }] });
    const handle = d.value.tools[0].example.handle as string;
    const r = await call(c, 'execute_tool', { tool_name: 'store.orders.place', args: { petId: 3, quantity: 1 }, handle });
    expect(r.success, JSON.stringify(r)).toBe(true);
    const hits = up.hits('/store/orders');
    expect(hits).toHaveLength(2);
    expect(hits.map((h) => h.headers['x-api-key'])).toEqual([VAULT, VAULT]);
    expect(hits[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(hits[1]!.headers['idempotency-key']).toBe(hits[0]!.headers['idempotency-key']);
    expect(JSON.stringify([d, r])).not.toContain(VAULT);
  });
});

describe('A17: session id generator (unit)', () => {
  test('10,000 ids: unique, visible ASCII, random v4 UUIDs, not sequential', () => {
    const ids = Array.from({ length: 10_000 }, () => generateSessionId());
    expect(new Set(ids).size).toBe(10_000);
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(ids.every((id) => /^[\x21-\x7E]+$/.test(id) && v4.test(id))).toBe(true);
    // Not sequential: generation order is not sorted order, and neighbours share no long prefix.
    const sorted = [...ids].sort();
    expect(sorted).not.toEqual(ids);
    let sharedPrefix = 0;
    for (let i = 1; i < ids.length; i++) if (ids[i]!.slice(0, 8) === ids[i - 1]!.slice(0, 8)) sharedPrefix++;
    expect(sharedPrefix).toBe(0);
    // Every hex digit position (outside the fixed version/variant) takes many values: ~122 random bits.
    const varied = [0, 9, 15, 20, 35].map((pos) => new Set(ids.map((id) => id[pos])).size);
    expect(Math.min(...varied)).toBeGreaterThanOrEqual(16);
  });
});
