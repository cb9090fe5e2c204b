// What the importer invents for a string is describe's placeholder, whatever the string's format, and a multipart
// file field's example is its placeholder, not a made-up file (review51 finding 3): before, a `format: uuid` path id
// held `123e4567-e89b-12d3-a456-426614174000`, an email `user@example.com`, a file part a `data:` URL of "hello", and
// execute_tool sent them as the user's values. And the importer keeps an example by the very rule execute_tool refuses
// by (src/schema/placeholders.ts, finding 7): a placeholder padded to a minLength behind an allOf-wrapped `$ref` or in
// a oneOf branch (`<a>xxxxxxxxx`) was kept by the importer's own looser check but not found by execute_tool, which sent
// it. The spec's own example values stay and are sent. Real parts: the importer, the registry on disk, a real MCP SDK
// client (describe_tools, execute_tool with describe's own example), a real recording HTTP upstream on loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } };
const json = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
const str = (format: string) => ({ type: 'string', format });
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Formats', version: '1' },
  servers: [{ url: 'https://formats.invalid' }],
  components: { schemas: { Id: { type: 'string', minLength: 12 }, Pid: { type: 'string', minLength: 12, pattern: '^P' }, Png: { type: 'string', format: 'binary' } } },
  paths: {
    // the review's repro: a uuid path id
    '/users/{userId}': {
      delete: { operationId: 'deleteUser', summary: 'Delete a user', parameters: [{ name: 'userId', in: 'path', required: true, schema: str('uuid') }], responses: ok },
    },
    '/invites': {
      post: {
        operationId: 'createInvite',
        summary: 'Create an invite',
        requestBody: json({ type: 'object', required: ['email', 'homepage', 'starts', 'host', 'digest'], properties: { email: str('email'), homepage: str('uri'), starts: str('date-time'), host: str('hostname'), digest: str('byte') } }),
        responses: ok,
      },
    },
    // the spec's own uuid stays
    '/orders/{orderId}': {
      get: { operationId: 'getOrder', summary: 'Get an order', parameters: [{ name: 'orderId', in: 'path', required: true, schema: str('uuid'), example: '0b9f6c1e-4c1a-4d7e-9a51-3f0f5d2c7a10' }], responses: ok },
    },
    // multipart: a required file part, the spec's text in another, an array of files; octet-stream and JSON binary
    '/receipt': {
      post: {
        operationId: 'recognizeReceipt',
        summary: 'Recognize a receipt',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object', required: ['imageFile', 'scan', 'pages', 'title'], properties: { imageFile: str('binary'), scan: { $ref: '#/components/schemas/Png' }, pages: { type: 'array', minItems: 2, items: str('binary') }, title: { type: 'string' } } },
              example: { imageFile: 'receipt.png', scan: 'scan.png', pages: ['p1', 'p2'], title: 'March receipts' },
            },
          },
        },
        responses: ok,
      },
    },
    '/raw': { post: { operationId: 'uploadRaw', summary: 'Upload raw', requestBody: { required: true, content: { 'application/octet-stream': { schema: str('binary') } } }, responses: ok } },
    '/blob': { post: { operationId: 'sendBlob', summary: 'Send a blob', requestBody: json({ type: 'object', required: ['blob'], properties: { blob: str('binary') } }), responses: ok } },
    // padding behind an allOf-wrapped $ref and in a oneOf branch, and one whose pattern refuses it
    '/things': {
      post: {
        operationId: 'createThing',
        summary: 'Create a thing',
        requestBody: json({
          type: 'object',
          required: ['a', 'b', 'c'],
          properties: { a: { allOf: [{ $ref: '#/components/schemas/Id' }], description: 'A' }, b: { oneOf: [{ type: 'string', minLength: 10 }, { type: 'integer' }] }, c: { allOf: [{ $ref: '#/components/schemas/Pid' }], description: 'C' } },
        }),
        responses: ok,
      },
    },
  },
};

let set: CatalogSet;
let up: Upstream;
let c: Connected;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-invented-formats-');
  writeFileSync(join(dir, 'formats.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'formats.json'), { name: 'formats' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'formats')]);
  c = await connectInMemory({ catalogs: set, settings: { baseUrls: { formats: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await c?.close();
  await up?.close();
});
beforeEach(() => up.clear());

type Example = { tool_name: string; args: Record<string, unknown>; handle?: string };
/** describe_tools' example for `tool`, as an agent would copy it. */
async function exampleOf(tool: string): Promise<Example> {
  const d = await call(c.client, 'describe_tools', { tool_names: [tool] });
  const example = (d.value?.tools as Array<{ example?: Example }>)[0]?.example;
  expect(example, JSON.stringify(d)).toBeDefined();
  return example!;
}

/** describe's example for `tool` is `args`, and execute_tool refuses it as it is, naming `placeholders`; nothing is sent. */
async function refused(tool: string, args: Record<string, unknown>, placeholders: string[]): Promise<void> {
  const example = await exampleOf(tool);
  expect(example.args).toEqual(args);
  const r = await call(c.client, 'execute_tool', { ...example });
  expect(r.error?.code, JSON.stringify(r)).toBe('INVALID_ARGUMENTS');
  expect(r.error?.details.placeholders).toEqual(placeholders);
  // whether the schema also refuses the placeholder (a format, a pattern) or not, the answer says it is one
  expect(`${r.error?.message} ${r.instruction}`).toMatch(/placeholder/);
  expect(up.requests).toEqual([]);
}

describe('a string with a format: the example holds its placeholder, which execute_tool refuses', () => {
  test('a uuid path id (the review repro): `<userId>`, not 123e4567-…; nothing is sent', async () => {
    await refused('deleteUser', { userId: '<userId>' }, ['userId']);
  });

  test('email, uri, date-time, hostname and byte: placeholders, never user@example.com or https://example.com', async () => {
    const args = { email: '<email>', homepage: '<homepage>', starts: '<starts>', host: '<host>', digest: '<digest>' };
    await refused('createInvite', args, ['email', 'homepage', 'starts', 'host', 'digest']);
  });

  test("the spec's own uuid is a real value: kept and sent", async () => {
    const example = await exampleOf('getOrder');
    expect(example.args).toEqual({ orderId: '0b9f6c1e-4c1a-4d7e-9a51-3f0f5d2c7a10' });
    expect((await call(c.client, 'execute_tool', { ...example })).success).toBe(true);
    expect(up.requests.map((q) => q.url)).toEqual(['/orders/0b9f6c1e-4c1a-4d7e-9a51-3f0f5d2c7a10']);
  });
});

describe('a file: the example holds the field’s placeholder, never a made-up file', () => {
  test("a multipart file part, one behind a $ref and an array of files, the spec's text there included; a text part keeps the spec's", async () => {
    const args = { imageFile: '<imageFile>', scan: '<scan>', pages: ['<pages>', '<pages>'], title: 'March receipts' };
    await refused('recognizeReceipt', args, ['imageFile', 'scan', 'pages[0]', 'pages[1]']);
  });

  test('an octet-stream body and a JSON binary string: placeholders, not "hello"', async () => {
    await refused('uploadRaw', { body: '<body>' }, ['body']);
    await refused('sendBlob', { blob: '<blob>' }, ['blob']);
  });
});

describe("padding: what the importer keeps is what execute_tool finds (one rule)", () => {
  test('padded behind an allOf-wrapped $ref and in a oneOf branch, one refused by its pattern too: all found, nothing sent', async () => {
    await refused('createThing', { a: '<a>xxxxxxxxx', b: '<b>xxxxxxx', c: '<c>xxxxxxxxx' }, ['a', 'b', 'c']);
  });

  test('padded to another length there: the user’s values, sent', async () => {
    const example = await exampleOf('createThing');
    const mine = { a: '<a>xxxxxxxxxx', b: '<b>xxxxxxxx', c: 'P-<c>xxxxxxx' };
    expect((await call(c.client, 'execute_tool', { ...example, args: mine })).success).toBe(true);
    expect(up.requests.map((q) => JSON.parse(q.text))).toEqual([mine]);
  });
});
