// The resources/* answers the protocol pins, through a real client of each era (in memory, as over stdio) and raw
// 2026-07-28 HTTP: the listed resource:///tool_descriptions reads (as a guide to naming tools; the official
// conformance `caching` scenario reads resources[0] of resources/list), a cursor the server never issued is -32602
// (pagination.mdx), a rate-limited read is an application error code outside JSON-RPC's reserved range, and a read
// naming only operations that do not exist is resource not found (-32602 with data exactly { uri }).
import { ProtocolError, ResourceNotFoundError } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ServerDeps } from '../../src/server/create-server.js';
import { RATE_LIMITED_ERROR_CODE } from '../../src/server/resources.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { ERAS, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';
import { modernRpc, openSession, rpc } from '../helpers/mcp-raw.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
let srv: HttpHandle;
const open: Connected[] = [];

beforeAll(async () => {
  up = await startUpstream();
  srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, readRateLimitPerMinute: 1 },
    { port: 0 },
  );
});
afterAll(async () => {
  await srv.close();
  await up.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<ProtocolError> {
  const outcome = await p.then(
    (value) => ({ value }),
    (err: unknown) => ({ err }),
  );
  if (!('err' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value).slice(0, 300)}`);
  expect(outcome.err).toBeInstanceOf(ProtocolError);
  return outcome.err as ProtocolError;
}

describe.each(ERAS)('%s era', (era: Era) => {
  async function connect(extra: Partial<ServerDeps> = {}): Promise<Connected> {
    const c = await connectInMemory(
      { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, ...extra },
      { era },
    );
    open.push(c);
    return c;
  }

  test('every listed resource reads: the bare tool_descriptions is a guide to naming tools (template, examples), authorizing nothing', async () => {
    const c = await connect();
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['resource:///tool_descriptions']);
    for (const r of resources) {
      const read = await c.client.readResource({ uri: r.uri });
      expect(read.contents[0]).toMatchObject({ uri: r.uri, mimeType: 'application/json' });
      const guide = JSON.parse((read.contents[0] as { text: string }).text) as Record<string, unknown>;
      expect(guide).toEqual({
        about: expect.stringMatching(/describe handle/),
        how: expect.stringMatching(/^Read resource:\/\/\/tool_descriptions\?tools=<name>,<name> with up to 20 exact operation names; find names with search_tools/),
        uriTemplate: 'resource:///tool_descriptions{?tools}',
        example_uris: ['resource:///tool_descriptions?tools=pets.create', 'resource:///tool_descriptions?tools=pets.delete', 'resource:///tool_descriptions?tools=pets.create,pets.delete'],
        max_tools: 20,
      });
      expect(JSON.stringify(guide)).not.toMatch(/"handle"|inputSchema/);
    }
    // The template reads what an example names.
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['resource:///tool_descriptions{?tools}']);
  });

  test('a query that names no tool is still MISSING_TOOL_SELECTION (-32602) with example URIs', async () => {
    const c = await connect();
    const err = await rejection(c.client.readResource({ uri: 'resource:///tool_descriptions?tools=' }));
    expect(err.code).toBe(-32602);
    expect(err.data).toMatchObject({ code: 'MISSING_TOOL_SELECTION', example_uris: expect.arrayContaining(['resource:///tool_descriptions?tools=pets.create']) });
  });

  test('a cursor (this server issues none) is -32602 "invalid cursor" on resources/list and resources/templates/list', async () => {
    const c = await connect();
    for (const [method, list] of [
      ['resources/list', () => c.client.listResources({ cursor: 'bogus' })],
      ['resources/templates/list', () => c.client.listResourceTemplates({ cursor: 'bogus' })],
    ] as const) {
      const err = await rejection(list());
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(new RegExp(`invalid cursor "bogus": this server lists everything in one page and never issues cursors; call ${method} without one`));
    }
  });

  test('only unknown operation names: resource not found (-32602, data exactly { uri }: the SDK\'s ResourceNotFoundError) naming the suggestions', async () => {
    const c = await connect();
    const uri = 'resource:///tool_descriptions?tools=pets.gte,nope_nope';
    const err = await rejection(c.client.readResource({ uri }));
    expect(err).toBeInstanceOf(ResourceNotFoundError);
    expect(err.code).toBe(-32602);
    expect(err.data).toEqual({ uri });
    expect(err.message).toMatch(/no operation is named 'pets.gte' \(did you mean pets.get[,?]/);
    expect(err.message).toMatch(/'nope_nope'; find exact names with search_tools/);
  });

  test('a mixed list answers per name: the known one described with its handle, the unknown one with its suggestions', async () => {
    const c = await connect();
    const read = await c.client.readResource({ uri: 'resource:///tool_descriptions?tools=pets.get,pets.gte' });
    const body = JSON.parse((read.contents[0] as { text: string }).text) as Record<string, any>;
    expect(body['pets.get'].handle).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{16}$/);
    expect(body['pets.gte']).toEqual({ error: "Tool 'pets.gte' not found", suggestions: expect.arrayContaining(['pets.get']) });
  });

  test(`a rate-limited read is ${RATE_LIMITED_ERROR_CODE} (outside JSON-RPC's reserved range) with data.code RATE_LIMITED, retryAfterMs and the bucket`, async () => {
    const c = await connect({ readRateLimitPerMinute: 1 });
    await c.client.readResource({ uri: 'resource:///tool_descriptions?tools=pets.get' });
    const err = await rejection(c.client.readResource({ uri: 'resource:///tool_descriptions?tools=pets.get' }));
    expect(err.code).toBe(RATE_LIMITED_ERROR_CODE);
    expect(err.code < -32768 || err.code > -32000).toBe(true);
    expect(err.data).toEqual({ code: 'RATE_LIMITED', retryAfterMs: expect.any(Number), bucket: 'read' });
    expect(err.message).toMatch(/^RATE_LIMITED: too many catalog calls \(list\/search\/describe and tool_descriptions reads\); the limit is 1 per minute\. Wait \d+ s, then read again\.$/);
  });
});

describe('2026-07-28 over HTTP, raw', () => {
  test('what the conformance caching scenario does: resources/list, then resources/read of resources[0], both with caching hints', async () => {
    const list = await modernRpc(srv.url, 'resources/list');
    expect(list.msg.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    const first = list.msg.result.resources[0].uri as string;
    const read = await modernRpc(srv.url, 'resources/read', { uri: first });
    expect(read.status).toBe(200);
    expect(read.msg.error).toBeUndefined();
    expect(read.msg.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', contents: [{ uri: first }] });
  });

  test('a rate-limited read: 200 with the JSON-RPC error, code and data as documented (never -32600 Invalid Request)', async () => {
    await modernRpc(srv.url, 'resources/read', { uri: 'resource:///tool_descriptions?tools=pets.get' });
    const limited = await modernRpc(srv.url, 'resources/read', { uri: 'resource:///tool_descriptions?tools=pets.get' });
    expect(limited.msg.error.code).toBe(RATE_LIMITED_ERROR_CODE);
    expect(limited.msg.error.data).toMatchObject({ code: 'RATE_LIMITED', bucket: 'read' });
    expect(limited.msg.error.data.retryAfterMs).toBeGreaterThan(0);
  });

  test('a legacy HTTP session: a cursor is refused, the bare URI reads', async () => {
    const s = await openSession(srv.url);
    const listed = await rpc(srv.url, s, { jsonrpc: '2.0', id: 7, method: 'resources/list', params: { cursor: 'abc' } });
    expect(listed.msg.error.code).toBe(-32602);
    expect(listed.msg.error.message).toMatch(/^invalid cursor "abc"/);
    const templates = await rpc(srv.url, s, { jsonrpc: '2.0', id: 8, method: 'resources/templates/list', params: { cursor: 'abc' } });
    expect(templates.msg.error.code).toBe(-32602);
    const bare = await rpc(srv.url, s, { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 'resource:///tool_descriptions' } });
    expect(JSON.parse(bare.msg.result.contents[0].text).uriTemplate).toBe('resource:///tool_descriptions{?tools}');
  });
});
