// Request bodies (src/importer/bodies.ts). A body that allows keys beyond its properties (`additionalProperties` true
// or a schema, `patternProperties`) is passed whole: flattened, the keys the API accepts were refused as unknown
// arguments. A body that accepts only `{}` on a GET, HEAD or DELETE (Stripe declares one on 236 operations) is no
// argument at all.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { run as importRun } from '../../src/cli/import.js';
import { importSpec } from '../../src/importer/index.js';
import type { ImportResult } from '../../src/importer/index.js';
import type { Operation } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const STRIPE = resolve(fileURLToPath(import.meta.url), '../../fixtures/real-specs/stripe.json');
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '' };
const ok = { '200': { description: 'OK' } };
const json = (schema: unknown): unknown => ({ content: { 'application/json': { schema } } });
const empty = { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: {}, additionalProperties: false } } } };

const spec = {
  openapi: '3.0.3',
  info: { title: 'Bodies', version: '1' },
  servers: [{ url: 'https://bodies.example' }],
  paths: {
    '/open': { post: { operationId: 'postOpen', requestBody: json({ type: 'object', properties: { name: { type: 'string' } }, additionalProperties: true }), responses: ok } },
    '/typed': { put: { operationId: 'putTyped', requestBody: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } }, additionalProperties: { type: 'integer' } }), responses: ok } },
    '/patterned': { post: { operationId: 'postPatterned', requestBody: json({ type: 'object', properties: { name: { type: 'string' } }, patternProperties: { '^x-': { type: 'string' } } }), responses: ok } },
    '/merged': { post: { operationId: 'postMerged', requestBody: json({ allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: true }] }), responses: ok } },
    '/closed': { post: { operationId: 'postClosed', requestBody: json({ type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false }), responses: ok } },
    '/customers': {
      get: { operationId: 'GetCustomers', parameters: [{ name: 'email', in: 'query', schema: { type: 'string' } }], requestBody: empty, responses: ok },
      delete: { operationId: 'DeleteCustomers', requestBody: empty, responses: ok },
      post: { operationId: 'PostCustomers', requestBody: empty, responses: ok },
    },
  },
};

function byName(result: ImportResult, name: string): Operation {
  const op = result.operations.find((o) => o.name === name);
  if (op === undefined) throw new Error(`no operation ${name}`);
  return op;
}

describe('crafted bodies', () => {
  let result: ImportResult;
  let registry: string;
  beforeAll(async () => {
    const dir = tempDir('bodies-');
    const file = join(dir, 'bodies.json');
    writeFileSync(file, JSON.stringify(spec));
    result = await importSpec(file);
    const r = await runCaptured(importRun, [file, '--out', dir, '--quiet'], quiet);
    expect(r.code, r.stderr).toBe(0);
    registry = join(dir, 'bodies');
  });

  test('a body that allows more keys than its properties is one argument, sent with the extra keys', async () => {
    for (const name of ['postOpen', 'putTyped', 'postPatterned', 'postMerged']) {
      const op = byName(result, name);
      expect(op.requestBody?.mode, name).toBe('whole');
      expect(Object.keys(op.inputSchema.properties), name).toEqual(['body']);
    }
    expect(byName(result, 'postClosed').requestBody?.mode).toBe('properties');
    const r = await runCaptured(callRun, ['postOpen', '--registry', registry, '--args', JSON.stringify({ body: { name: 'x', color: 'red' } }), '--dry-run'], quiet);
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(JSON.parse(r.stdout).value.request.body)).toEqual({ name: 'x', color: 'red' });
    // the body's own schema still checks what it types: extra keys of putTyped are integers
    const typed = await runCaptured(callRun, ['putTyped', '--registry', registry, '--args', JSON.stringify({ body: { name: 'x', count: 'many' } }), '--dry-run'], quiet);
    expect(JSON.parse(typed.stdout).error.code).toBe('INVALID_ARGUMENTS');
  });

  test('an empty-object body on a GET or DELETE is dropped; a POST keeps it', async () => {
    expect(byName(result, 'GetCustomers').requestBody).toBeUndefined();
    expect(Object.keys(byName(result, 'GetCustomers').inputSchema.properties)).toEqual(['email']);
    expect(byName(result, 'DeleteCustomers').requestBody).toBeUndefined();
    expect(byName(result, 'PostCustomers').requestBody).toBeDefined();
    const r = await runCaptured(callRun, ['GetCustomers', '--registry', registry, '--args', '{"email":"a@example.com"}', '--dry-run'], quiet);
    const request = JSON.parse(r.stdout).value.request;
    expect(request.body).toBeUndefined();
    expect(request.headers['content-type']).toBeUndefined();
  });
});

test("Stripe's GET and DELETE operations no longer show a `body: object` argument", async () => {
  const { operations } = await importSpec(STRIPE, { name: 'stripe' });
  const readsOrDeletes = operations.filter((o) => o.method === 'get' || o.method === 'delete');
  expect(readsOrDeletes.length).toBeGreaterThan(200);
  // the 236 empty ones are gone; a DELETE whose form body has fields (`invoice_now`, `prorate`) keeps them
  expect(readsOrDeletes.filter((o) => o.bindings.some((b) => b.wholeBody === true)).map((o) => o.name)).toEqual([]);
  expect(readsOrDeletes.filter((o) => o.requestBody !== undefined).every((o) => o.requestBody?.mode === 'properties')).toBe(true);
  expect(readsOrDeletes.filter((o) => o.requestBody !== undefined).length).toBeLessThan(10);
  expect(operations.find((o) => o.name === 'PostCustomers')?.requestBody).toBeDefined();
});
