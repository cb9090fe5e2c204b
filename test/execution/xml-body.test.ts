// An XML request body (audit first51, defect 4: EC2's 594 POST operations) is the XML document the agent writes, passed
// as one string argument and sent as it is; before, the body's fields were flat arguments sent as JSON text under
// `text/xml`, with no warning anywhere. The server builds no XML from arguments (the importer drops the schemas' `xml`
// hints, so a built document would guess element names): an object is refused before anything is sent, the import
// warns once, describe (Levels 2 and 3) says how to pass it, and the argument's description outlines the document from
// the spec's `xml` names. A catalog imported before cannot carry a document: refused as NOT_EXECUTABLE, nothing sent.
// The real importer, execute_tool and describe_tools over a real MCP client on the HTTP transport, a recording upstream.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry, type ImportResult } from '../../src/importer/index.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import type { Operation } from '../../src/types.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { call, connectHttp } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Boxes', version: '1' },
  servers: [{ url: 'https://boxes.invalid/v1' }],
  components: {
    schemas: {
      IdList: { type: 'array', items: { type: 'string' } },
      StopRequest: {
        type: 'object',
        required: ['InstanceIds'],
        properties: { InstanceIds: { allOf: [{ $ref: '#/components/schemas/IdList' }, { xml: { name: 'InstanceId' } }] }, DryRun: { type: 'boolean', xml: { name: 'dryRun' } } },
      },
    },
  },
  paths: {
    // AWS's shape: only text/xml, the body not marked required, its schema requiring a field
    '/stop': { post: { operationId: 'stop', summary: 'Stop boxes', requestBody: { content: { 'text/xml': { schema: { $ref: '#/components/schemas/StopRequest' } } } }, responses: ok } },
    '/notes': { post: { operationId: 'note', summary: 'Post a note', requestBody: { required: true, content: { 'application/xml': { schema: { type: 'string' }, example: '<note>hi</note>' } } }, responses: ok } },
    '/label': {
      post: {
        operationId: 'label',
        summary: 'Label a box',
        requestBody: { required: true, content: { 'application/xml': { schema: { $ref: '#/components/schemas/StopRequest' } }, 'application/json': { schema: { $ref: '#/components/schemas/StopRequest' } } } },
        responses: ok,
      },
    },
  },
};
const DOC = '<StopRequest><InstanceId>i-1</InstanceId><InstanceId>i-2</InstanceId></StopRequest>';

let up: Upstream;
let result: ImportResult;
let srv: HttpHandle;
let client: Client;
let handles: Record<string, string> = {};
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-xml-body-');
  writeFileSync(join(dir, 'boxes.json'), JSON.stringify(SPEC));
  result = await importSpec(join(dir, 'boxes.json'), { name: 'boxes' });
  writeRegistry(result, dir);
  // `legacy`: the same operation as an import before this change wrote it, the body's fields as flat arguments
  writeRegistry(await importSpec(join(dir, 'boxes.json'), { name: 'legacy' }), dir);
  const opsDir = join(dir, 'legacy', 'operations');
  for (const f of readdirSync(opsDir)) {
    const ops = (JSON.parse(readFileSync(join(opsDir, f), 'utf8')) as Operation[]).map((o) =>
      o.name !== 'stop'
        ? o
        : {
            ...o,
            requestBody: { required: false, mediaTypes: ['text/xml'], mode: 'properties' as const },
            bindings: [{ arg: 'InstanceIds', in: 'body' as const, name: 'InstanceIds', required: true }],
            inputSchema: { type: 'object' as const, properties: { InstanceIds: { type: 'array', items: { type: 'string' } } }, required: ['InstanceIds'], additionalProperties: false },
            examples: [{ args: { InstanceIds: ['i-1'] }, source: 'synthesized' as const }],
          },
    );
    writeFileSync(join(opsDir, f), JSON.stringify(ops));
  }
  const set = loadCatalogSet([join(dir, 'boxes'), join(dir, 'legacy')]);
  srv = await serveHttp({ catalogs: set, settings: { baseUrls: { boxes: `${up.url}/v1`, legacy: `${up.url}/v1` }, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0 });
  client = await connectHttp(`http://127.0.0.1:${srv.port}/mcp`, 'legacy');
  ({ handles } = await describeWithHandles(client, ['boxes.stop', 'boxes.note', 'boxes.label', 'legacy.stop']));
});
afterAll(async () => {
  await client?.close();
  await srv?.close();
  await up?.close();
});
beforeEach(() => up.clear());

const execute = (tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  call(client, 'execute_tool', { tool_name: tool, args, handle: handles[tool], ...extra });
const op = (name: string): Operation => result.operations.find((o) => o.name === name) as Operation;

describe('import', () => {
  test('an XML-only body is one required string argument, outlined from the spec’s xml names; one warning counts them', () => {
    const stop = op('stop');
    expect(stop.requestBody).toEqual({ required: true, mediaTypes: ['text/xml'], mode: 'whole' });
    expect(stop.inputSchema.required).toEqual(['body']);
    expect(stop.inputSchema.properties.body).toEqual({
      type: 'string',
      description: 'The request body: an XML document (text/xml), passed as a string and sent as it is. Root element StopRequest; its elements: InstanceId (repeated, required), dryRun.',
    });
    expect(stop.examples[0]?.args).toEqual({ body: '<body>' });
    // a string body stays as the spec has it, its XML example kept; JSON offered beside XML is JSON, its fields flat
    expect(op('note').inputSchema.properties.body).toEqual({ type: 'string' });
    expect(op('note').examples[0]?.args).toEqual({ body: '<note>hi</note>' });
    expect(op('label').requestBody?.mediaTypes[0]).toBe('application/json');
    expect(Object.keys(op('label').inputSchema.properties)).toEqual(['InstanceIds', 'DryRun']);
    const xml = result.diagnostics.filter((d) => d.code === 'BODY_XML_AS_TEXT');
    expect(xml).toHaveLength(1);
    expect(xml[0]?.message).toMatch(/^1 operation\(s\) have an XML request body \(text\/xml here, the first\): the server builds no XML from arguments/);
  });
});

describe('describe_tools', () => {
  test('Level 2 says to write the document and pass it as a string; an old import says it cannot be sent', async () => {
    const { envelope } = await describeWithHandles(client, ['boxes.stop', 'legacy.stop', 'boxes.label']);
    const tools = envelope.value?.tools as Array<{ name: string; warnings?: string[] }>;
    const warnings = (name: string) => tools.find((t) => t.name === name)?.warnings ?? [];
    expect(warnings('boxes.stop')).toContain('The request body is an XML document (text/xml): write it and pass it whole, as a string, in "body"; it is sent as it is (the server builds no XML from arguments). describe_tools with "parameter": "body" outlines its elements.');
    expect(warnings('legacy.stop').join(' ')).toMatch(/^Cannot be executed as imported: the request body is XML \(text\/xml\)/);
    expect(warnings('boxes.label')).toEqual([]);
  });
});

describe('execute_tool', () => {
  test('the XML document is sent as it is, labelled as the spec says', async () => {
    expect((await execute('boxes.stop', { body: DOC })).success).toBe(true);
    expect((await execute('boxes.note', op('note').examples[0]?.args ?? {})).success).toBe(true);
    expect(up.requests.map((r) => [r.url, r.headers['content-type'], r.text])).toEqual([
      ['/v1/stop', 'text/xml', DOC],
      ['/v1/notes', 'application/xml', '<note>hi</note>'],
    ]);
  });

  test('the body’s fields as an object are refused, naming the argument, in a dry run too: never JSON under text/xml', async () => {
    for (const extra of [{}, { dry_run: true }]) {
      const r = await execute('boxes.stop', { body: { InstanceIds: ['i-1'] } }, extra);
      expect(r.error?.code).toBe('INVALID_ARGUMENTS');
      expect(r.error?.message).toContain('/body must be a string, the XML document (text/xml) itself: pass the XML document as a string');
    }
    expect(up.requests).toEqual([]);
  });

  test('a catalog imported before: NOT_EXECUTABLE, nothing sent, dry run included', async () => {
    for (const extra of [{}, { dry_run: true }]) {
      const r = await execute('legacy.stop', { InstanceIds: ['i-1'] }, extra);
      expect(r.error?.code).toBe('NOT_EXECUTABLE');
      expect(r.error?.message).toContain('re-import the catalog');
    }
    expect(up.requests).toEqual([]);
  });
});
