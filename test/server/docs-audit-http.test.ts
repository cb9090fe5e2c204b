// Docs audit #8, #12, #13 over real HTTP with real MCP clients (and raw 2026-07-28 requests), against the petstore
// fixture and the recording upstream:
// - #8: a credential that this request's X-Upstream-Token supplies never reads as its env var being set;
// - #12: execute_tool dry runs send nothing upstream, so they spend the read bucket, not the execute one;
// - #13: a 2026-07-28 request's W3C `traceparent` HTTP header is logged when `_meta` has none (`_meta` wins).
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { modernRpc } from '../helpers/mcp-raw.js';
import { call, catalogs, connectHttp, fixtureRegistry, type Era } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
const servers: HttpHandle[] = [];
const clients: Client[] = [];
const logs: string[] = [];

async function server(env: Record<string, string>, limits: { rateLimitPerMinute: number; readRateLimitPerMinute?: number }): Promise<HttpHandle> {
  const logger = createLogger({ write: (line) => logs.push(line) });
  const s = await serveHttp({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env }, logger, ...limits }, { port: 0 });
  servers.push(s);
  return s;
}

async function client(s: HttpHandle, era: Era, headers: Record<string, string> = {}): Promise<Client> {
  const c = await connectHttp(s.url, era, { headers, name: 'docs-audit' });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  up.clear();
});
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await up.close();
});

describe('#8: a credential from X-Upstream-Token is worded as such', () => {
  const FORMAT = ': the key alone; sent as header "X-Api-Key"';

  test('env var unset: describe says "not set; this request\'s X-Upstream-Token is used", list_domains adds source "header"', async () => {
    const s = await server({}, { rateLimitPerMinute: 0 });
    const plain = await client(s, 'modern');
    expect((await call(plain, 'describe_tools', { tool_names: ['store.inventory'] })).value.tools[0].credentials).toBe(`PETSTORE_API_KEY (not set)${FORMAT}`);
    const plainDomains = await call(plain, 'list_domains', {});
    expect(plainDomains.value.credentials).toEqual([{ scheme: 'api_key', envVars: ['PETSTORE_API_KEY'], set: false }]);

    const withHeader = await client(s, 'modern', { 'X-Upstream-Token': 'sess-secret-5151' });
    const d = await call(withHeader, 'describe_tools', { tool_names: ['store.inventory'] });
    expect(d.value.tools[0].credentials).toBe(`PETSTORE_API_KEY (not set; this request's X-Upstream-Token is used)${FORMAT}`);
    const full = await call(withHeader, 'describe_tools', { tool_names: ['store.inventory'], detail: 'full' });
    expect(full.value.tools[0].credentials).toEqual([expect.objectContaining({ scheme: 'api_key', envVars: ['PETSTORE_API_KEY'], set: true, source: 'header' })]);
    const domains = await call(withHeader, 'list_domains', {});
    expect(domains.value.credentials).toEqual([{ scheme: 'api_key', envVars: ['PETSTORE_API_KEY'], set: true, source: 'header' }]);
    expect(JSON.stringify([d, full, domains])).not.toContain('sess-secret-5151');
  });

  test('env var set too: the header still wins, and the wording says both', async () => {
    const s = await server({ PETSTORE_API_KEY: 'env-key-7070' }, { rateLimitPerMinute: 0 });
    const plain = await client(s, 'legacy');
    expect((await call(plain, 'describe_tools', { tool_names: ['store.inventory'] })).value.tools[0].credentials).toBe(`PETSTORE_API_KEY (set)${FORMAT}`);
    expect((await call(plain, 'list_domains', {})).value.credentials).toEqual([{ scheme: 'api_key', envVars: ['PETSTORE_API_KEY'], set: true }]);
    const withHeader = await client(s, 'legacy', { 'X-Upstream-Token': 'sess-secret-6262' });
    expect((await call(withHeader, 'describe_tools', { tool_names: ['store.inventory'] })).value.tools[0].credentials).toBe(`PETSTORE_API_KEY (set; this request's X-Upstream-Token is used)${FORMAT}`);
    expect((await call(withHeader, 'list_domains', {})).value.credentials).toEqual([{ scheme: 'api_key', envVars: ['PETSTORE_API_KEY'], set: true, source: 'header' }]);
    // and it is what is sent
    expect((await call(withHeader, 'execute_tool', { tool_name: 'store.inventory', args: {} })).success).toBe(true);
    expect(up.requests.at(-1)?.headers['x-api-key']).toBe('sess-secret-6262');
  });
});

describe('#12: dry runs spend the read bucket, not the execute bucket', () => {
  test('with --rate-limit 1, dry runs never use up the real call; they count against --read-rate-limit', async () => {
    const s = await server({ PETSTORE_API_KEY: 'env-key-7070' }, { rateLimitPerMinute: 1, readRateLimitPerMinute: 4 });
    const c = await client(s, 'legacy');
    const dry = { tool_name: 'store.inventory', args: {}, dry_run: true };
    expect((await call(c, 'describe_tools', { tool_names: ['store.inventory'] })).success).toBe(true); // read 1
    expect((await call(c, 'execute_tool', dry)).success).toBe(true); // read 2
    expect((await call(c, 'execute_tool', dry)).success).toBe(true); // read 3
    expect(up.requests).toHaveLength(0);
    const real = await call(c, 'execute_tool', { tool_name: 'store.inventory', args: {} }); // execute 1
    expect(real.success, JSON.stringify(real)).toBe(true);
    expect(up.requests).toHaveLength(1);
    expect((await call(c, 'execute_tool', dry)).success).toBe(true); // read 4
    const readLimited = await call(c, 'execute_tool', dry); // read 5
    expect(readLimited.error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'read' } });
    expect(readLimited.error?.message).toMatch(/^Too many catalog calls \(list\/search\/describe, and execute_tool dry runs\); the limit is 4 per minute$/);
    const executeLimited = await call(c, 'execute_tool', { tool_name: 'store.inventory', args: {} }); // execute 2
    expect(executeLimited.error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'execute' } });
    expect(up.requests).toHaveLength(1);
  });
});

describe('#13: the W3C traceparent HTTP header of a 2026-07-28 request is logged', () => {
  const HEADER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const META = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const lineOf = (id: string) => logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'tool_call' && l.tool === 'list_domains' && l.traceparent === id);

  test('from the header when _meta has none; _meta wins when both are sent', async () => {
    const s = await server({}, { rateLimitPerMinute: 0 });
    const fromHeader = await modernRpc(s.url, 'tools/call', { name: 'list_domains', arguments: {} }, { headers: { traceparent: HEADER } });
    expect(fromHeader.status).toBe(200);
    expect(lineOf(HEADER)).toHaveLength(1);
    expect(lineOf(HEADER)[0]).toMatchObject({ era: 'modern', outcome: 'ok' });
    const both = await modernRpc(s.url, 'tools/call', { name: 'list_domains', arguments: {}, _meta: { traceparent: META } }, { headers: { traceparent: HEADER } });
    expect(both.status).toBe(200);
    expect(lineOf(META)).toHaveLength(1);
    expect(lineOf(HEADER)).toHaveLength(1);
  });
});
