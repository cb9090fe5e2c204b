// The example describe gives for a multipart file field (imp50 audit defect 10: Cloudmersive's required `imageFile` had
// the example "hello", which went as a plain text field, no filename, no Content-Type, and an ASP.NET IFormFile API
// refuses that) is the field's placeholder, which execute_tool refuses (review51 finding 3: a made-up `data:` URL of
// "hello" was sent as if it were the user's file); an array of files gets one per item, an octet-stream body and a
// JSON body's binary-format string theirs. The file the user gives there, as a `data:` URL, goes as a file part with a
// filename and Content-Type. Real parts: the importer, a real MCP SDK client (describe_tools, then execute_tool with
// describe's own example, then with the user's file), a real local HTTP upstream recording the body it got.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type RecordedRequest, type Upstream } from '../helpers/upstream.js';

const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } };
const post = (operationId: string, mediaType: string, schema: unknown) => ({ post: { operationId, summary: operationId, requestBody: { required: true, content: { [mediaType]: { schema } } }, responses: ok } });
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Ocr', version: '1' },
  servers: [{ url: 'https://ocr.invalid' }],
  paths: {
    // Cloudmersive's shape: one required binary part
    '/receipt': post('recognizeReceipt', 'multipart/form-data', { type: 'object', required: ['imageFile'], properties: { imageFile: { type: 'string', format: 'binary' }, language: { type: 'string' } } }),
    // several files, one 3.1 contentMediaType part behind a $ref, a text part beside them
    '/batch': post('uploadBatch', 'multipart/form-data', {
      type: 'object',
      required: ['pages', 'cover', 'title'],
      properties: { pages: { type: 'array', minItems: 2, items: { type: 'string', format: 'binary' } }, cover: { $ref: '#/components/schemas/Png' }, title: { type: 'string', examples: ['March receipts'] } },
    }),
    '/raw': post('uploadRaw', 'application/octet-stream', { type: 'string', format: 'binary' }),
    '/json': post('sendJson', 'application/json', { type: 'object', required: ['blob'], properties: { blob: { type: 'string', format: 'binary' } } }),
  },
  components: { schemas: { Png: { type: 'string', contentMediaType: 'image/png' } } },
};

let set: CatalogSet;
let up: Upstream;
let c: Connected;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-multipart-file-example-');
  writeFileSync(join(dir, 'ocr.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'ocr.json'), { name: 'ocr' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'ocr')]);
  c = await connectInMemory({ catalogs: set, settings: { baseUrls: { ocr: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await c?.close();
  await up?.close();
});

/** describe_tools' example for `tool`: execute_tool refuses it as it is (placeholders), then sends `fill` over it; what the upstream received. */
async function runExample(tool: string, fill: Record<string, unknown>): Promise<{ args: Record<string, unknown>; sent: RecordedRequest }> {
  const d = await call(c.client, 'describe_tools', { tool_names: [tool] });
  const example = (d.value?.tools as Array<{ example?: { tool_name: string; args: Record<string, unknown>; handle?: string } }>)[0]?.example;
  expect(example, JSON.stringify(d)).toBeDefined();
  up.clear();
  const refused = await call(c.client, 'execute_tool', { ...example });
  expect(refused.error?.code, JSON.stringify(refused)).toBe('INVALID_ARGUMENTS');
  expect(refused.error?.details.placeholders).toEqual(Object.keys(fill).flatMap((k) => (Array.isArray(fill[k]) ? (fill[k] as unknown[]).map((_, i) => `${k}[${i}]`) : [k])));
  expect(up.requests).toEqual([]);
  const r = await call(c.client, 'execute_tool', { ...example, args: { ...example!.args, ...fill } });
  expect(r.success, JSON.stringify(r)).toBe(true);
  expect(up.requests).toHaveLength(1);
  return { args: example!.args, sent: up.requests[0]! };
}

const formOf = (sent: RecordedRequest) => new Response(sent.body, { headers: { 'content-type': String(sent.headers['content-type']) } }).formData();
const FILE = 'data:text/plain;filename=receipt.txt;base64,aGVsbG8=';

describe("the example for a multipart file field is its placeholder; the user's file goes as a file part", () => {
  test('a required binary part (the audit repro): <imageFile>, refused; a data: URL there is a file with a filename and Content-Type', async () => {
    const { args, sent } = await runExample('recognizeReceipt', { imageFile: FILE });
    expect(args).toEqual({ imageFile: '<imageFile>' });
    expect(sent.text).toMatch(/Content-Disposition: form-data; name="imageFile"; filename="receipt.txt"\r\nContent-Type: text\/plain\r\n\r\nhello\r\n/);
    const file = (await formOf(sent)).get('imageFile');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('receipt.txt');
  });

  test('an array of files: a placeholder per item; a contentMediaType part behind a $ref too; a text part keeps the spec’s', async () => {
    const { args, sent } = await runExample('uploadBatch', { pages: [FILE, FILE], cover: 'data:image/png;base64,iVBORw0KGgo=' });
    expect(args).toEqual({ pages: ['<pages>', '<pages>'], cover: '<cover>', title: 'March receipts' });
    const form = await formOf(sent);
    const pages = form.getAll('pages');
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page).toBeInstanceOf(File);
    expect(form.get('cover')).toBeInstanceOf(File);
    expect(form.get('title')).toBe('March receipts');
  });

  test('an octet-stream body and a JSON binary-format string: placeholders, not "hello"; the user’s text is sent as it is', async () => {
    const raw = await runExample('uploadRaw', { body: 'bytes of the file' });
    expect(raw.args.body).toBe('<body>');
    expect(raw.sent.headers['content-type']).toBe('application/octet-stream');
    expect(raw.sent.text).toBe('bytes of the file');
    const json = await runExample('sendJson', { blob: 'abc' });
    expect(json.args.blob).toBe('<blob>');
    expect(JSON.parse(json.sent.text)).toEqual({ blob: 'abc' });
  });
});
