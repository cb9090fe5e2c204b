// The default bearer of an API that declares no security scheme is not offered or sent to an operation that takes
// its credential as a required argument (imp50 audit defect 8: ListenNotes' `X-ListenAPI-Key` header). Before,
// describe said `PODS_TOKEN (set)` and execution sent the operator's token as `Authorization: Bearer` to an API
// that never asked for it. An operation of the same catalog without such a parameter keeps the default bearer.
// Real parts: a spec imported by the importer, a real MCP SDK client, describe_tools and execute_tool, a real local
// HTTP upstream that records the headers that reach it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, describeHandle, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const TOKEN = 'operator-token-Secret-7777';
const KEY = 'user-key-Secret-8888';
const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pods', version: '1' },
  servers: [{ url: 'https://pods.invalid/v2' }],
  paths: {
    '/best': { get: { operationId: 'getBest', summary: 'Best podcasts', parameters: [{ $ref: '#/components/parameters/apiKeyParam' }], responses: ok } },
    '/health': { get: { operationId: 'getHealth', summary: 'Health', responses: ok } },
    // a token for one other thing, not the API's key: the caller's bearer still goes (second read of stop 50)
    '/invitations/accept': { post: { operationId: 'acceptInvitation', summary: 'Accept an invitation', parameters: [{ name: 'invitation_token', in: 'query', required: true, schema: { type: 'string' } }], responses: ok } },
  },
  components: { parameters: { apiKeyParam: { name: 'X-ListenAPI-Key', in: 'header', required: true, schema: { type: 'string' } } } },
};

let set: CatalogSet;
let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-credential-param-bearer-');
  writeFileSync(join(dir, 'pods.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'pods.json'), { name: 'pods' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'pods')]);
});
afterAll(async () => {
  await up.close();
});

describe.each(ERAS)('%s era', (era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: set, settings: { baseUrls: { pods: up.url }, readOnly: false, env: { PODS_TOKEN: TOKEN } }, rateLimitPerMinute: 0 }, { era });
  });
  afterAll(async () => {
    await c.close();
  });
  const execute = async (tool: string, args: Record<string, unknown>) => {
    up.clear();
    const r = await call(c.client, 'execute_tool', { tool_name: tool, args, handle: await describeHandle(c.client, tool) });
    expect(r.success, JSON.stringify(r)).toBe(true);
    expect(up.requests).toHaveLength(1);
    return up.requests[0]!;
  };

  test('describe does not claim PODS_TOKEN for the operation that takes its key as an argument', async () => {
    const r = await call(c.client, 'describe_tools', { tool_names: ['getBest', 'getHealth'] });
    const [best, health] = r.value?.tools as Array<{ credentials: string }>;
    expect(best?.credentials).toBe('none from this server: the API takes its key as the argument "X-ListenAPI-Key"');
    expect(health?.credentials).toBe('PODS_TOKEN (set)');
    const full = await call(c.client, 'describe_tools', { tool_names: ['getBest'], detail: 'full' });
    expect((full.value?.tools as Array<{ credentials: unknown }>)[0]?.credentials).toEqual([]);
  });

  test('the key goes as the API asked; the operator token does not go with it', async () => {
    const sent = await execute('getBest', { 'X-ListenAPI-Key': KEY });
    expect(sent.headers['x-listenapi-key']).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.stringify(sent.headers)).not.toContain(TOKEN);
  });

  test('an operation without such a parameter keeps the default bearer', async () => {
    const sent = await execute('getHealth', {});
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test("a token for one other thing (invitation_token) is an argument beside the caller's bearer, which still goes", async () => {
    const r = await call(c.client, 'describe_tools', { tool_names: ['acceptInvitation'] });
    expect((r.value?.tools as Array<{ credentials: string }>)[0]?.credentials).toBe('PODS_TOKEN (set)');
    const sent = await execute('acceptInvitation', { invitation_token: 'inv-1' });
    expect(sent.url).toContain('invitation_token=inv-1');
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
