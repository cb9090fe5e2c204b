// Describe handles: the signer (format, what a handle binds — tool, definition fingerprint, principal, expiry —,
// tampering, two derived keys, the key's configuration), where handles appear in describe answers (Level 2 and 3,
// the parameter level, never Level 1), and, end to end over the stateless 2026-07-28 HTTP path where the handle
// is the only proof, a definition swapped under a live server voiding it and another principal's server refusing it.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { isAppError } from '../../src/errors.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { checkSigningKey, resolveSigner, Signer } from '../../src/server/signing.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { createLogger } from '../../src/logger.js';
import { MemoryStateStore } from '../../src/state/index.js';
import { modernRpc } from '../helpers/mcp-raw.js';
import { call, catalogs, connectHttp, connectInMemory, describeHandle, fixtureRegistry, type Connected } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const HANDLE = /^[0-9a-z]{6,11}\.[A-Za-z0-9_-]{16}$/;

describe('Signer', () => {
  const now = 1_800_000_000_000;
  const s = Signer.fromSecret('k'.repeat(32));

  test('a handle is <expiry base36>.<16 MAC bytes base64url> and verifies for exactly what it was made for', () => {
    const h = s.handle('pets.get', 'fp-1', 'static-token', now + 60_000);
    expect(h).toMatch(HANDLE);
    expect(h.length).toBeLessThanOrEqual(34);
    expect(parseInt(h.split('.')[0] as string, 36)).toBe((now + 60_000) / 1000);
    expect(s.verify(h, 'pets.get', 'fp-1', 'static-token', now)).toEqual({ ok: true });
    expect(s.verify(h, 'pets.list', 'fp-1', 'static-token', now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(s.verify(h, 'pets.get', 'fp-2', 'static-token', now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(s.verify(h, 'pets.get', 'fp-1', 'oauth:https://as#alice', now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(s.verify(h, 'pets.get', 'fp-1', 'static-token', now + 60_000)).toEqual({ ok: false, reason: 'expired' });
  });

  test('tampering with the expiry or the MAC, another key, and junk all fail', () => {
    const h = s.handle('pets.get', 'fp-1', 'p', now + 60_000);
    const [exp, mac] = h.split('.') as [string, string];
    const later = `${(parseInt(exp, 36) + 3600).toString(36)}.${mac}`;
    expect(s.verify(later, 'pets.get', 'fp-1', 'p', now)).toEqual({ ok: false, reason: 'mismatch' });
    const flipped = `${exp}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    expect(s.verify(flipped, 'pets.get', 'fp-1', 'p', now).ok).toBe(false);
    expect(Signer.fromSecret('x'.repeat(32)).verify(h, 'pets.get', 'fp-1', 'p', now)).toEqual({ ok: false, reason: 'mismatch' });
    for (const junk of ['', 'abc', `${exp}.`, `${exp}.${mac}x`, `${exp}!${mac}`, 'A'.repeat(40)]) {
      expect(s.verify(junk, 'pets.get', 'fp-1', 'p', now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  test('the same secret signs the same on every replica; handles and confirmation state use different derived keys', () => {
    const other = Signer.fromSecret('k'.repeat(32));
    expect(other.handle('a', 'b', 'c', now)).toBe(s.handle('a', 'b', 'c', now));
    expect(Buffer.from(s.requestStateKey).equals(Buffer.from(other.requestStateKey))).toBe(true);
    expect(s.requestStateKey).toHaveLength(32);
    expect(Buffer.from(s.requestStateKey).toString('hex')).not.toContain(Buffer.from('k'.repeat(32)).toString('hex'));
    expect(Signer.random().handle('a', 'b', 'c', now)).not.toBe(s.handle('a', 'b', 'c', now));
  });

  test('API_CATALOG_SIGNING_KEY: too short is CONFIG_INVALID naming the variable, never the value; unset without a shared store -> per process', async () => {
    let err: unknown;
    try {
      checkSigningKey('short-secret-value');
    } catch (e) {
      err = e;
    }
    expect(isAppError(err) && err.code === 'CONFIG_INVALID').toBe(true);
    expect((err as Error).message).toMatch(/API_CATALOG_SIGNING_KEY must be at least 32 characters \(got 18\)/);
    expect((err as Error).message).not.toContain('short-secret-value');
    expect(resolveSigner(undefined, new MemoryStateStore()).source).toBe('process');
    const fromEnv = resolveSigner('e'.repeat(40), new MemoryStateStore());
    expect(fromEnv.source).toBe('env');
    expect(fromEnv.signer.handle('a', 'b', 'c', now)).toBe(Signer.fromSecret('e'.repeat(40)).handle('a', 'b', 'c', now));
  });

  test('a key kept in a store that is down is not known yet: ready() rejects, and succeeds once the store answers', async () => {
    let up = false;
    const signer = Signer.deferred(async () => {
      if (!up) throw new Error('down');
      return 's'.repeat(43);
    });
    expect(signer.isReady).toBe(false);
    await expect(signer.ready()).rejects.toThrow('down');
    up = true;
    await signer.ready();
    expect(signer.isReady).toBe(true);
    expect(signer.handle('a', 'b', 'c', now)).toBe(Signer.fromSecret('s'.repeat(43)).handle('a', 'b', 'c', now));
  });
});

describe('handles in describe answers', () => {
  const open: Connected[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  test('Level 2 in the example call, Level 3 and the parameter level beside the name, Level 1 none; unknown names none', async () => {
    const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore')) }, { era: 'modern' });
    open.push(c);
    const two = await call(c.client, 'describe_tools', { tool_names: ['pets.get', 'pets.nope'] });
    expect(two.value.tools[0].example.handle).toMatch(HANDLE);
    expect(two.value.tools[0].handle).toBeUndefined();
    expect(two.value.tools[1].handle).toBeUndefined();
    const three = await call(c.client, 'describe_tools', { tool_names: ['pets.get'], detail: 'full' });
    expect(three.value.tools[0].handle).toMatch(HANDLE);
    const param = await call(c.client, 'describe_tools', { tool_names: ['pets.get'], parameter: 'petId' });
    expect(param.value.tools[0].handle).toMatch(HANDLE);
    const one = await call(c.client, 'describe_tools', { tool_names: ['pets.get'], detail: 'summary' });
    expect(JSON.stringify(one.value)).not.toMatch(/handle/);
  });
});

describe('over the stateless 2026-07-28 HTTP path the handle is the proof', () => {
  let up: Upstream;
  const set = loadCatalogSet([fixtureRegistry('petstore')]);
  const signer = Signer.fromSecret('replica-key-'.repeat(4));
  let open: HttpHandle;
  let guarded: HttpHandle;
  const clients: Client[] = [];
  const logs: string[] = [];
  beforeAll(async () => {
    up = await startUpstream();
    const logger = createLogger({ write: (line) => logs.push(line) });
    const deps = { catalogs: set, settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, signer, logger };
    open = await serveHttp(deps, { port: 0 });
    // Same key, but every request authenticates as the static-token principal instead of "anonymous".
    guarded = await serveHttp(deps, { port: 0, authToken: 't'.repeat(24) });
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await open.close();
    await guarded.close();
    await up.close();
  });

  test('a definition swapped under the live server (a re-import) voids the handle; a new describe gives one that works', async () => {
    const c = await connectHttp(open.url, 'modern');
    clients.push(c);
    const handle = await describeHandle(c, 'pets.get');
    expect((await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle })).success).toBe(true);
    const entry = set.byName.get('pets.get')!;
    const original = entry.op;
    entry.op = { ...original, inputSchema: { ...original.inputSchema, properties: { ...original.inputSchema.properties, extra: { type: 'string' } } } };
    try {
      up.clear();
      const refused = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle });
      expect(refused.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect(refused.error?.details.reason).toBe('mismatch');
      expect(refused.error?.message).toMatch(/definition changed/);
      expect(up.requests).toHaveLength(0);
      const fresh = await describeHandle(c, 'pets.get');
      expect(fresh).not.toBe(handle);
      expect((await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle: fresh })).success).toBe(true);
    } finally {
      entry.op = original;
    }
  });

  test('a handle made for the anonymous principal is refused where the caller is another principal, even with the same key', async () => {
    const anon = await connectHttp(open.url, 'modern');
    const tokenHolder = await connectHttp(guarded.url, 'modern', { headers: { Authorization: `Bearer ${'t'.repeat(24)}` } });
    clients.push(anon, tokenHolder);
    const handle = await describeHandle(anon, 'pets.get');
    up.clear();
    const r = await call(tokenHolder, 'execute_tool', { tool_name: 'pets.get', args: { petId: 2 }, handle });
    expect(r.error?.details.reason).toBe('mismatch');
    expect(up.requests).toHaveLength(0);
    const own = await describeHandle(tokenHolder, 'pets.get');
    expect((await call(tokenHolder, 'execute_tool', { tool_name: 'pets.get', args: { petId: 2 }, handle: own })).success).toBe(true);
  });

  test('per-request _meta: the trace context is logged with the call; a logLevel asks for logs the server never sends (no logging capability)', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const r = await modernRpc(open.url, 'tools/call', { name: 'search_tools', arguments: { query: 'list pets' }, _meta: { traceparent } }, {});
    expect(r.status).toBe(200);
    const line = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'tool_call' && l.traceparent === traceparent);
    expect(line).toMatchObject({ era: 'modern', tool: 'search_tools', outcome: 'ok' });
    // Asked for debug logs: the answer is the one JSON body, no notifications/message stream.
    const meta = { 'io.modelcontextprotocol/logLevel': 'debug' };
    const res = await fetch(open.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'pets' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, ...meta } } }),
    });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await res.text();
    expect(body).not.toContain('notifications/message');
    expect((JSON.parse(body) as { result: { structuredContent: { success: boolean } } }).result.structuredContent.success).toBe(true);
  });
});
