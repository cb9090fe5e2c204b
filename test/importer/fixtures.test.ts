// Fixture specs (test/fixtures/specs/) through the real importer: versions, conversions, naming, executability,
// hostile input (RELIABILITY D1–D18, J1–J3). No network: URL tests use servers on 127.0.0.1.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { readFileSync, truncateSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec } from '../../src/importer/index.js';
import type { ImportResult } from '../../src/importer/index.js';
import { isPrivateAddress } from '../../src/importer/net.js';
import { createAjv } from '../../src/schema/ajv.js';
import type { Operation } from '../../src/types.js';
import { tempDir } from '../helpers/temp.js';

const FIX = 'test/fixtures/specs';

function byName(result: ImportResult, name: string): Operation {
  const op = result.operations.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name} in ${result.operations.map((o) => o.name).join(', ')}`);
  return op;
}

function validator(op: Operation): (args: unknown) => boolean {
  const v = createAjv().compile(op.inputSchema);
  return (args) => v(args);
}

/** Every operation's schema compiles and every example validates. */
function expectSound(result: ImportResult): void {
  for (const op of result.operations) {
    const validate = validator(op);
    for (const ex of op.examples) expect(validate(ex.args), `${op.name} example`).toBe(true);
    expect(op.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
  }
  expect(() => JSON.stringify(result)).not.toThrow();
}

async function importError(file: string): Promise<{ code: string; message: string }> {
  try {
    await importSpec(file);
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error(`${file} imported without error`);
}

describe('Swagger 2.0', () => {
  let r: ImportResult;
  beforeAll(async () => {
    r = await importSpec(`${FIX}/swagger2.yaml`);
  });

  test('servers from host/basePath/schemes prefer https; security definitions normalized (D6)', () => {
    expect(r.meta.servers).toEqual([{ url: 'https://petstore.example.com/v2' }]);
    expect(r.meta.securitySchemes).toEqual({ api_key: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, basic: { type: 'http', scheme: 'basic' } });
    expect(r.meta.specVersion).toBe('2.0');
    expect(r.meta.domains).toEqual([{ name: 'pets', description: 'Everything about your pets.', toolCount: 4 }]);
  });

  test('a body parameter is flattened, readOnly properties dropped', () => {
    const op = byName(r, 'createPet');
    expect(Object.keys(op.inputSchema.properties)).toEqual(['name', 'tag']);
    expect(op.inputSchema.required).toEqual(['name']);
    expect(op.inputSchema.properties.tag).toEqual({ type: ['string', 'null'] });
    expect(op.requestBody).toEqual({ required: true, mediaTypes: ['application/json'], mode: 'properties' });
    expect(op.response).toMatchObject({ status: '201', type: 'object', fields: ['id', 'name', 'tag'] }); // responses keep readOnly fields
    expect(op.errors).toEqual([{ status: '422', description: 'Invalid pet' }]);
  });

  test('formData with a file becomes a multipart body; collectionFormat multi becomes form/explode', () => {
    const up = byName(r, 'uploadPhoto');
    expect(up.requestBody?.mediaTypes).toEqual(['multipart/form-data']);
    expect(up.inputSchema.properties.file).toEqual({ type: 'string', format: 'binary' });
    expect(up.inputSchema.required).toEqual(['petId', 'file']);
    const list = byName(r, 'listPets');
    expect(list.bindings.find((b) => b.arg === 'tags')).toMatchObject({ in: 'query', style: 'form', explode: true });
    expect(list.inputSchema.properties.limit).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(list.response).toMatchObject({ status: '200', type: 'array' });
  });

  test('body + formData in one operation skips it with a warning', () => {
    expect(r.operations.map((o) => o.name)).not.toContain('mixedBodyAndForm');
    expect(r.diagnostics.find((d) => d.code === 'OPERATION_SKIPPED')?.pointer).toBe('#/paths/~1mixed/post');
  });

  test('DELETE is destructive, GET read-only', () => {
    expect(byName(r, 'deletePet')).toMatchObject({ destructive: true, readOnly: false });
    expect(byName(r, 'listPets')).toMatchObject({ destructive: false, readOnly: true });
    expectSound(r);
  });
});

describe('OpenAPI 3.0', () => {
  let r: ImportResult;
  beforeAll(async () => {
    r = await importSpec(`${FIX}/oas30.yaml`);
  });

  test('catalog metadata, server variables, security schemes', () => {
    expect(r.meta).toMatchObject({ name: 'oas30', title: 'Things API', version: '2.1', description: 'The Things API. Second sentence.', specVersion: '3.0.3', source: `${FIX}/oas30.yaml` });
    expect(r.meta.servers[0]?.variables).toEqual({ region: { default: 'eu', enum: ['eu', 'us'] } });
    expect(r.meta.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(r.meta.sourceSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test('object body flattened beside parameters; nullable, exclusiveMinimum, x- property names handled', () => {
    const op = byName(r, 'things_create');
    expect(op.summary).toBe('Creates a thing');
    expect(Object.keys(op.inputSchema.properties)).toEqual(['name', 'size', 'owner', 'kind', 'secret', 'x-extra']);
    expect(op.inputSchema.properties.size).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 0 });
    const validate = validator(op);
    expect(validate({ name: 'a', owner: null, kind: null })).toBe(true);
    expect(validate({ name: 'a', size: 0 })).toBe(false);
    expect(validate({ name: 'a', id: 'x' })).toBe(false); // readOnly id is not an argument
    // the required arguments alone first (what describe Level 2 shows), then the spec's whole example
    expect(op.examples).toEqual([
      { summary: 'Required arguments only', args: { name: 'Gadget' }, source: 'spec' },
      { summary: 'Example from the spec', args: { name: 'Gadget', size: 3 }, source: 'spec' },
    ]);
    expect(op.errors).toEqual([{ status: '4XX', description: 'Client error' }]);
  });

  test('path-level parameters, examples from parameters, effective security and servers', () => {
    const del = byName(r, 'things_delete');
    expect(del).toMatchObject({ destructive: true, security: [], servers: [] });
    expect(del.examples[0]?.args).toEqual({ id: 'thing_1' });
    const tags = byName(r, 'things_add-tags');
    expect(tags.servers).toEqual([{ url: 'https://tags.things.example.com' }]);
    expect(tags.security).toEqual([{ bearer: [] }]);
    expect(tags.requestBody?.mode).toBe('whole');
    expect(tags.bindings.find((b) => b.wholeBody)).toEqual({ arg: 'body', in: 'body', name: '', required: true, wholeBody: true });
  });

  test('content parameters keep their media type; reserved headers are ignored with a warning', () => {
    const list = byName(r, 'things_list');
    expect(list.description).toBe('Returns all things.');
    expect(list.bindings).toEqual([{ arg: 'filter', in: 'query', name: 'filter', required: false, contentType: 'application/json' }]);
    expect(r.diagnostics.some((d) => d.code === 'HEADER_IGNORED' && d.pointer === '#/paths/~1things/get/parameters/1')).toBe(true);
    expect(list.response).toEqual({ status: '200', description: 'OK', mediaType: 'application/json', fields: ['id', 'name', 'size', 'owner', 'kind', 'secret', 'x-extra'], type: 'array' });
    expectSound(r);
  });
});

describe('OpenAPI 3.1', () => {
  test('type arrays, prefixItems and $ref siblings are validated with 2020-12 semantics (D7)', async () => {
    const r = await importSpec(`${FIX}/oas31.json`);
    const op = byName(r, 'createPoint');
    const validate = validator(op);
    expect(validate({ coords: [1, 2], label: null, unit: 'km' })).toBe(true);
    expect(validate({ coords: ['a', 2] })).toBe(false); // wrong prefixItems element (draft-07 would accept)
    expect(validate({ coords: [1, 2], unit: 'mile' })).toBe(false);
    expect(validate({ coords: [1, 2], weight: 0 })).toBe(false);
    expect(op.inputSchema.properties.unit).toEqual({ $ref: '#/$defs/Unit', description: 'Unit of the coordinates' });
    expectSound(r);
  });
});

describe('references', () => {
  test('circular schemas import, stay finite and validate nested input (D1)', async () => {
    const r = await importSpec(`${FIX}/circular.yaml`);
    const op = byName(r, 'createNode');
    expect(JSON.stringify(op).length).toBeLessThan(3000);
    const validate = validator(op);
    expect(validate({ name: 'a', children: [{ name: 'b', children: [{ name: 'c', parent: { name: 'a' } }] }] })).toBe(true);
    expect(validate({ name: 'a', children: [{ name: 'b', children: [{ name: 7 }] }] })).toBe(false);
    expect(op.response?.fields).toEqual(['name', 'children', 'parent']);
  });

  test('a file $ref inside the spec folder is resolved (through swagger-parser)', async () => {
    const r = await importSpec(`${FIX}/ref-local-file.yaml`);
    const op = byName(r, 'createWidget');
    expect(op.inputSchema.properties.color).toEqual({ type: 'string', enum: ['red', 'blue'] });
    expect(op.inputSchema.required).toEqual(['name']);
  });

  test.each(['ref-etc-passwd.yaml', 'ref-parent-dir.yaml'])('%s: refs leaving the folder are refused, contents never read (D2)', async (file) => {
    const err = await importError(`${FIX}/${file}`);
    expect(err.code).toBe('SPEC_REF_REFUSED');
    expect(err.message).toMatch(/external refs outside .* are disabled/);
    expect(err.message).not.toMatch(/root:/);
  });

  test('a dangling parameter $ref skips that operation with the pointer; undeclared path params are not executable (D10, D11)', async () => {
    const r = await importSpec(`${FIX}/path-params.yaml`);
    expect(r.operations.map((o) => o.name).sort()).toEqual(['collide', 'extraDeclared', 'undeclared']);
    expect(r.diagnostics.find((d) => d.code === 'OPERATION_SKIPPED')?.message).toContain('#/components/parameters/Nope');
    expect(byName(r, 'undeclared')).toMatchObject({ executable: false, problems: ['path parameter {id} is used in /a/{id} but not declared'] });
    expect(byName(r, 'extraDeclared')).toMatchObject({ executable: false, problems: ['path parameter "id" is declared but not in the path /b'] });
    const collide = byName(r, 'collide');
    expect(collide.executable).toBe(true);
    expect(collide.bindings).toEqual([
      { arg: 'id', in: 'path', name: 'id', required: true },
      { arg: 'body_id', in: 'body', name: 'id', required: true },
    ]);
    await expect(importSpec(`${FIX}/path-params.yaml`, { strict: true })).rejects.toMatchObject({ code: 'SPEC_INVALID' });
  });

  test('a deep acyclic ref chain is caught with a clear warning, the rest imports (D15)', async () => {
    const r = await importSpec(`${FIX}/deep-ref-chain.json`);
    expect(r.operations.map((o) => o.name)).toEqual(['ok']);
    expect(r.diagnostics.find((d) => d.code === 'OPERATION_SKIPPED')?.message).toMatch(/chain longer than 64/);
  });
});

describe('operation ids and lint', () => {
  let r: ImportResult;
  beforeAll(async () => {
    r = await importSpec(`${FIX}/operation-ids.yaml`);
  });

  test('duplicate ids stay reachable under distinct names; missing ids are synthesized (D8, D9)', () => {
    expect(r.operations.map((o) => o.name)).toEqual(['getThing', 'getThing_2', 'get_c_cId_items', 'issues_create', 'post_c_cId_items']);
    expect(byName(r, 'getThing_2').path).toBe('/b');
    expect(byName(r, 'get_c_cId_items')).toMatchObject({ operationId: 'get_/c/{cId}/items', operationIdSynthesized: true });
    expect(r.diagnostics.some((d) => d.code === 'DUPLICATE_OPERATION_ID')).toBe(true);
  });

  test('synthesized names are stable under key reordering (D8)', async () => {
    const doc = JSON.parse(JSON.stringify((await import('yaml')).parse(readFileSync(`${FIX}/operation-ids.yaml`, 'utf8')))) as { paths: Record<string, unknown> };
    doc.paths = Object.fromEntries(Object.entries(doc.paths).reverse());
    const dir = tempDir('ac-reorder-');
    try {
      writeFileSync(join(dir, 'operation-ids.json'), JSON.stringify(doc));
      const again = await importSpec(join(dir, 'operation-ids.json'));
      const pairs = (x: ImportResult): string[] => x.operations.map((o) => `${o.name} ${o.method} ${o.path}`);
      expect(pairs(again)).toEqual(pairs(r));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('instruction-like text and missing descriptions are linted; the operation is flagged (J1)', () => {
    expect(byName(r, 'post_c_cId_items').flags).toEqual(['instruction-like']);
    expect(byName(r, 'post_c_cId_items').summary).toBe('Also no operationId');
    const codes = r.diagnostics.map((d) => `${d.code} ${d.pointer}`);
    expect(codes).toContain('LINT_INSTRUCTION_LIKE #/paths/~1c~1{cId}~1items/post');
    expect(codes).toContain('LINT_NO_DESCRIPTION #/paths/~1issues~1create/post');
  });
});

describe('hostile text (J1–J3, D18)', () => {
  test('invisible characters are stripped from names, summaries, descriptions and enums; __proto__ is data', async () => {
    const r = await importSpec(`${FIX}/hostile-text.json`);
    const text = JSON.stringify(r);
    expect(text).not.toMatch(/[\u200B-\u200D\uFEFF\u202A-\u202E\u2066-\u2069]|\uDB40[\uDC00-\uDC7F]/);
    const note = byName(r, 'createNote');
    expect(note.operationId).toBe('createNote');
    expect(note.summary).toBe('Create a note now');
    expect(note.inputSchema.properties.kind).toEqual({ type: 'string', enum: ['plain', 'rich'] });
    expect(note.flags).toEqual(['instruction-like']);
    expect(r.meta.title).toBe('Hostile text');
    expect(Object.keys(note.inputSchema.properties)).toContain('__proto__');
    const proto = r.operations.find((o) => o.operationId === '__proto__');
    expect(proto?.bindings.map((b) => b.name)).toEqual(['prototype', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expectSound(r);
  });
});

describe('bad input: one clear error naming the problem and where', () => {
  test.each([
    ['openapi-3.2.yaml', 'SPEC_UNSUPPORTED_VERSION', /declares OpenAPI "3.2.0"; supported versions: Swagger 2.0, OpenAPI 3.0.x and 3.1.x/],
    ['openapi-number.yaml', 'SPEC_INVALID', /`openapi` must be a string/],
    ['not-a-spec.json', 'SPEC_INVALID', /not-a-spec.json is not an OpenAPI document/],
    ['no-operations.yaml', 'SPEC_NO_OPERATIONS', /no-operations.yaml has no operations/],
    ['broken-syntax.yaml', 'SPEC_INVALID', /broken-syntax.yaml is neither valid JSON nor YAML/],
    ['missing-file.yaml', 'SPEC_UNREADABLE', /cannot read .*missing-file.yaml \(ENOENT\)/],
    ['alias-bomb.yaml', 'SPEC_INVALID', /too many YAML aliases/],
  ])('%s -> %s (D4, D5, D16)', async (file, code, message) => {
    const rssBefore = process.memoryUsage().rss;
    const err = await importError(`${FIX}/${file}`);
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain('\n');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300e6);
  });

  test('a spec over the size cap is refused before it is read (D17)', async () => {
    const dir = tempDir('ac-big-');
    try {
      const file = join(dir, 'big.json');
      writeFileSync(file, '');
      truncateSync(file, 65 * 1024 * 1024); // sparse: no real 65 MB written
      const err = await importError(file);
      expect(err.code).toBe('SPEC_TOO_LARGE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('URL specs and network refs (D3)', () => {
  let server: Server;
  let trap: Server;
  let base = '';
  let trapPort = 0;
  let trapConnections = 0;
  const docs = new Map<string, string>();

  beforeAll(async () => {
    trap = createServer((_req, res) => res.end('{}'));
    trap.on('connection', () => trapConnections++);
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    trapPort = (trap.address() as { port: number }).port;
    server = createServer((req, res) => {
      const body = docs.get(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (body === undefined) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const spec = (ref: string): string =>
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Remote', version: '1' },
        servers: [{ url: '/api/v1' }],
        paths: { '/things': { post: { operationId: 'create', summary: 'Create', requestBody: { content: { 'application/json': { schema: { $ref: ref } } } }, responses: { 200: { description: 'OK' } } } } },
      });
    docs.set('/specs/good.json', spec('/specs/thing.json#/Thing'));
    docs.set('/specs/thing.json', JSON.stringify({ Thing: { type: 'object', properties: { name: { type: 'string' } } } }));
    docs.set('/specs/ssrf.json', spec(`http://127.0.0.1:${trapPort}/latest/meta-data`));
    docs.set('/specs/metadata.json', spec('http://169.254.169.254/latest/meta-data'));
    docs.set('/specs/file.json', spec('file:///etc/hostname'));
  });
  afterAll(() => {
    server.close();
    trap.close();
  });

  test('the URL the user typed may be local; same-origin refs resolve; relative servers resolve against it', async () => {
    const r = await importSpec(`${base}/specs/good.json?token=secret`);
    expect(r.meta.name).toBe('good');
    expect(r.meta.source).toBe(`${base}/specs/good.json`);
    expect(r.meta.servers).toEqual([{ url: `${base}/api/v1` }]);
    expect(byName(r, 'create').inputSchema.properties.name).toEqual({ type: 'string' });
  });

  test.each([
    ['ssrf.json', /private or loopback address \(127\.0\.0\.1\)/],
    ['metadata.json', /private or loopback address \(169\.254\.169\.254\)/],
    ['file.json', /local file from a URL spec/],
  ])('%s: a $ref to a private address or file is refused without connecting', async (file, message) => {
    const err = await importError(`${base}/specs/${file}`);
    expect(err.code).toBe('SPEC_REF_REFUSED');
    expect(err.message).toMatch(message);
    expect(trapConnections).toBe(0);
  });

  test('an unreachable or failing URL is one clear error', async () => {
    const missing = await importError(`${base}/specs/none.json`);
    expect(missing).toMatchObject({ code: 'SPEC_UNREADABLE' });
    expect(missing.message).toMatch(/answered HTTP 404/);
    const closed = await importError(`http://127.0.0.1:1/spec.json`);
    expect(closed.code).toBe('SPEC_UNREADABLE');
  });

  test.each([
    ['127.0.0.1', true], ['10.1.2.3', true], ['172.16.0.1', true], ['192.168.1.1', true], ['169.254.169.254', true],
    ['100.64.0.1', true], ['::1', true], ['fe80::1', true], ['fd00::1', true], ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false], ['140.82.112.3', false], ['2606:4700::1111', false],
  ])('isPrivateAddress(%s) = %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

describe('x-tagGroups', () => {
  test('grouped tags become their group\'s domain; ungrouped tags stay domains; tags are kept for search', async () => {
    const r = await importSpec(`${FIX}/tag-groups.yaml`);
    const domainOfOp = Object.fromEntries(r.operations.map((o) => [o.operationId, o.domain]));
    expect(domainOfOp).toEqual({ listInvoices: 'billing', createPayment: 'billing', listUsers: 'people', health: 'ops' });
    expect(r.meta.domains.map((d) => [d.name, d.toolCount])).toEqual([['billing', 2], ['ops', 1], ['people', 1]]);
    expect(r.operations.find((o) => o.operationId === 'createPayment')?.tags).toEqual(['Payments']);
  });
});
