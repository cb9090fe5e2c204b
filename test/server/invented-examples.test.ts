// A value the importer invents for an example is always describe's placeholder, and refused before anything is sent
// (audit first51, defect 3): an array's items get the placeholder of the property the array is in
// (`"InstanceIds": ["<InstanceIds>"]`, before `["example"]`, which execute_tool sent), and a string with a `pattern` gets
// `<KEY>` even though the pattern refuses it (before, a string built from the pattern, `IS000…0`, read as the user's
// value and was sent). The spec's own example values are real ones and are sent. The real importer, execute_tool over
// a real MCP client on the real HTTP transport, the explorer's dry-run page, against a recording upstream on loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { call, connectHttp } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SID = { type: 'string', pattern: '^IS[0-9a-fA-F]{32}$' };
const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const body = (example?: unknown) => ({
  required: true,
  content: {
    'application/json': {
      schema: { type: 'object', required: ['InstanceIds'], properties: { InstanceIds: { type: 'array', items: { type: 'string' } }, Note: { type: 'string' } } },
      ...(example !== undefined ? { example } : {}),
    },
  },
});
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Fleet', version: '1' },
  servers: [{ url: 'https://fleet.invalid/v1' }],
  paths: {
    '/services/{ServiceSid}/stop': {
      post: { operationId: 'stopInstances', summary: 'Stop instances', parameters: [{ name: 'ServiceSid', in: 'path', required: true, schema: SID }], requestBody: body(), responses: ok },
    },
    // another name than stopInstances' path parameter: the importer shares a parameter's example among its namesakes
    '/services/{Service}/start': {
      post: {
        operationId: 'startInstances',
        summary: 'Start instances',
        parameters: [{ name: 'Service', in: 'path', required: true, schema: SID, example: 'IS0123456789abcdef0123456789abcdef' }],
        requestBody: body({ InstanceIds: ['i-0abc'] }),
        responses: ok,
      },
    },
  },
};
const REAL_SID = 'ISaaaabbbbccccddddeeeeffff00001111';

let up: Upstream;
let set: CatalogSet;
let srv: HttpHandle;
let client: Client;
let handles: Record<string, string> = {};
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-invented-');
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'fleet.json'), { name: 'fleet' }), dir);
  set = loadCatalogSet([join(dir, 'fleet')]);
  srv = await serveHttp({ catalogs: set, settings: { baseUrls: { fleet: `${up.url}/v1` }, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0, explorer: true });
  client = await connectHttp(`http://127.0.0.1:${srv.port}/mcp`, 'legacy');
  ({ handles } = await describeWithHandles(client, ['stopInstances', 'startInstances']));
});
afterAll(async () => {
  await client?.close();
  await srv?.close();
  await up?.close();
});
beforeEach(() => up.clear());

const execute = (tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  call(client, 'execute_tool', { tool_name: tool, args, handle: handles[tool], ...extra });

describe('the example the importer writes', () => {
  test('invented values are placeholders: an item names its array, a patterned ID is <KEY>; the spec’s own values stay', () => {
    expect(set.byName.get('stopInstances')?.op.examples[0]?.args).toEqual({ ServiceSid: '<ServiceSid>', InstanceIds: ['<InstanceIds>'] });
    expect(set.byName.get('startInstances')?.op.examples[0]?.args).toEqual({ Service: 'IS0123456789abcdef0123456789abcdef', InstanceIds: ['i-0abc'] });
  });
});

describe('execute_tool', () => {
  test('the example as describe shows it is refused, naming the fields; nothing is sent', async () => {
    const { envelope } = await describeWithHandles(client, ['stopInstances']);
    const args = (envelope.value?.tools as Array<{ example: { args: Record<string, unknown> } }>)[0]?.example.args ?? {};
    expect(args).toEqual({ ServiceSid: '<ServiceSid>', InstanceIds: ['<InstanceIds>'] });
    const r = await execute('stopInstances', args);
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(r.error?.message).toContain('/ServiceSid must match pattern');
    expect(r.error?.details.placeholders).toEqual(['ServiceSid', 'InstanceIds[0]']);
    expect(up.requests).toEqual([]);
  });

  test('an item still holding its array’s placeholder is refused, by its path; a dry run says the real call would be', async () => {
    const args = { ServiceSid: REAL_SID, InstanceIds: ['i-1', '<InstanceIds>'] };
    const r = await execute('stopInstances', args);
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(r.error?.message).toContain('InstanceIds[1] ("<InstanceIds>") still holds the placeholder');
    expect(r.error?.details.placeholders).toEqual(['InstanceIds[1]']);
    const dry = await execute('stopInstances', args, { dry_run: true });
    expect(dry.value?.would_refuse).toEqual([{ code: 'INVALID_ARGUMENTS', placeholders: ['InstanceIds[1]'] }]);
    expect(dry.instruction).toMatch(/^Not ready to send/);
    expect(up.requests).toEqual([]);
  });

  test('the user’s values are sent, angle brackets under another name too; so are the spec’s own example values', async () => {
    const mine = { ServiceSid: REAL_SID, InstanceIds: ['i-1', '<Note>'], Note: '<InstanceIds>' };
    expect((await execute('stopInstances', mine)).success).toBe(true);
    const spec = set.byName.get('startInstances')?.op.examples[0]?.args ?? {};
    expect((await execute('startInstances', spec)).success).toBe(true);
    expect(up.requests.map((q) => [q.url, JSON.parse(q.text)])).toEqual([
      [`/v1/services/${REAL_SID}/stop`, { InstanceIds: ['i-1', '<Note>'], Note: '<InstanceIds>' }],
      ['/v1/services/IS0123456789abcdef0123456789abcdef/start', { InstanceIds: ['i-0abc'] }],
    ]);
  });
});

describe("the explorer's dry run", () => {
  test('the pre-filled form is not "Valid arguments": it names both placeholders', async () => {
    const form = await rawHttp(srv.port, 'GET', '/?tool=stopInstances', {});
    const args = /<textarea id="args"[^>]*>([\s\S]*?)<\/textarea>/.exec(form.body)?.[1]?.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') ?? '';
    expect(JSON.parse(args)).toEqual({ ServiceSid: '<ServiceSid>', InstanceIds: ['<InstanceIds>'] });
    const page = await rawHttp(srv.port, 'GET', `/?tool=stopInstances&args=${encodeURIComponent(args)}`, {});
    expect(page.body).toMatch(/id="dry-run-placeholders">Still a placeholder: <code>ServiceSid<\/code>, <code>InstanceIds\[0\]<\/code>/);
    expect(page.body).not.toMatch(/id="dry-run-verdict">Valid arguments\./);
    expect(up.requests).toEqual([]);
  });
});
