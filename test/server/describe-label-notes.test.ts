// What Level 2's labels leave out is known as they are built, not read back from their text (stop-48 review, L7), an
// array argument's item objects show their fields (as object arguments do), and a request body whose schema
// contradicts itself says so instead of reading a bare `object` (LaunchDarkly's semantic-patch bodies).
// Before: describe found a cut field list by the words " fields; see parameter)" and a field-less object by counting
// brackets in the label, whose names and enum values are the API's text. An enum value holding those words made the
// instruction name a `parameter` call with nothing to show; an enum value `(` hid a free-form object from it. An
// argument that is an array of objects read `array<object>`, and LaunchDarkly's `{type: object, items: {$ref:
// SemanticPatchOperation}}` bodies read `object`, with no instruction to look further.
// Real parts: specs imported by the importer (LaunchDarkly's own text, test/fixtures/describe/launchdarkly-excerpt.json),
// real MCP SDK clients of both eras, execute_tool's dry run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, ERAS, REPO_ROOT, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const CUT_WORDS = ' fields; see parameter)';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Odd labels', version: '1' },
  servers: [{ url: 'https://odd.invalid/v1' }],
  paths: {
    '/reports': {
      get: {
        operationId: 'listReports',
        summary: 'List reports',
        // an enum value that holds the words of a cut list: the label shows all there is
        parameters: [{ name: 'layout', in: 'query', schema: { type: 'string', enum: [`3${CUT_WORDS}`, 'plain'] } }],
        responses: { '200': { description: 'OK' } },
      },
    },
    '/notes': {
      post: {
        operationId: 'createNote',
        summary: 'Create a note',
        // a whole body: a string of an enum with an unbalanced bracket, or any object (no field is known)
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [{ type: 'string', enum: ['(', 'x'] }, { type: 'object' }] } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/batches': {
      post: {
        operationId: 'createBatch',
        summary: 'Create a batch',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  items: { type: 'array', items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, quantity: { type: 'integer' } } } },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
};

let odd: CatalogSet;
let ld: CatalogSet;
beforeAll(async () => {
  const dir = tempDir('ac-label-notes-');
  writeFileSync(join(dir, 'odd.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'odd.json'), { name: 'odd' }), join(dir, 'reg'));
  writeRegistry(await importSpec(join(REPO_ROOT, 'test', 'fixtures', 'describe', 'launchdarkly-excerpt.json'), { name: 'launchdarkly' }), join(dir, 'reg'));
  odd = loadCatalogSet([join(dir, 'reg', 'odd')]);
  ld = loadCatalogSet([join(dir, 'reg', 'launchdarkly')]);
});

describe.each(ERAS)('%s era', (era) => {
  const clients: Connected[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });
  const describe2 = async (set: CatalogSet, name: string) => {
    const c = await connectInMemory({ catalogs: set }, { era });
    clients.push(c);
    const r = await call(c.client, 'describe_tools', { tool_names: [name] });
    expect(r.success, JSON.stringify(r)).toBe(true);
    return { entry: r.value.tools[0], instruction: r.instruction as string, client: c.client };
  };

  test('an enum value holding the words of a cut list does not make the instruction name a parameter call', async () => {
    const { entry, instruction } = await describe2(odd, 'listReports');
    expect(entry.parameters.layout).toBe(`string (3${CUT_WORDS}|plain)`);
    expect(instruction).toBe("Call execute_tool with the example and the user's values.");
  });

  test('an enum value with an unbalanced bracket does not hide a free-form object from the instruction', async () => {
    const { entry, instruction } = await describe2(odd, 'createNote');
    expect(entry.parameters.body).toBe('string ((|x) | object, required');
    expect(instruction).toContain('For the fields of body not shown, call describe_tools with {"tool_names": ["createNote"], "parameter": "body"}.');
  });

  test("an array argument's item objects show their fields, the required one marked", async () => {
    const { entry, instruction } = await describe2(odd, 'createBatch');
    expect(entry.parameters.items).toBe('array<object{sku: string, required; quantity: integer}>');
    expect(instruction).toBe("Call execute_tool with the example and the user's values.");
  });

  test("LaunchDarkly's JSON Patch body: an array of PatchOperation, whose fields Level 2 shows", async () => {
    const { entry } = await describe2(ld, 'patchProject');
    expect(entry.parameters.body).toBe('array<object{op: string, required; path: string, required; value: object|string, required}>, required');
  });

  test("LaunchDarkly's semantic-patch body (type object, with array items): Level 2 says what the spec says and points at the schema", async () => {
    const { entry, instruction, client } = await describe2(ld, 'patchExpiringUserTargets');
    expect(entry.parameters.body).toBe(
      "object (the API's schema contradicts itself: an object, with array items object{instructions: array<object>, required; comment: string}), required",
    );
    expect(instruction).toContain('For the fields of body not shown, call describe_tools with {"tool_names": ["patchExpiringUserTargets"], "parameter": "body"}.');
    // the `parameter` call shows the schema as the spec wrote it
    const deep = await call(client, 'describe_tools', { tool_names: ['patchExpiringUserTargets'], parameter: 'body' });
    expect(deep.value.tools[0].parameter.schema).toMatchObject({ type: 'object', items: { $ref: '#/$defs/SemanticPatchOperation' } });
    // and execution checks what the schema checks: any object, so the body LaunchDarkly's text asks for is sent
    const body = { comment: 'x', instructions: [{ kind: 'addExpireUserTargetDate' }] };
    const dry = await call(client, 'execute_tool', {
      tool_name: 'patchExpiringUserTargets',
      args: { projectKey: 'p', featureFlagKey: 'f', environmentKey: 'e', body },
      dry_run: true,
      handle: entry.example.handle,
    });
    expect(dry.success, JSON.stringify(dry)).toBe(true);
    expect(JSON.parse(dry.value.request.body)).toEqual(body);
  });
});
