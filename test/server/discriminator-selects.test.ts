// Per OAS the discriminator's tag selects the alternative: `{"petType": "bird", "meow": 1}` is a Bird (the mapping
// says so) that lacks Bird's `wings`, even though it is a valid Cat. Ajv validates the oneOf alone, so that body was
// accepted and sent, and so was a tag the mapping does not have. Now execute_tool refuses both (INVALID_ARGUMENTS:
// the tag, the selected alternative and what it lacks; or the mapped values), and nothing reaches the upstream;
// bodies whose tag selects the alternative they match are sent as before.
// Real parts: a spec imported by the importer, a real MCP SDK client, execute_tool, a real local HTTP upstream that
// counts what reaches it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, describeHandle, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SPEC = `openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "https://pets.invalid/v1"}]
components:
  schemas:
    Cat:
      type: object
      required: [petType, meow]
      properties: {petType: {type: string}, meow: {type: integer}}
    Dog:
      type: object
      required: [petType, bark]
      properties: {petType: {type: string}, bark: {type: boolean}}
    Bird:
      type: object
      required: [petType, wings]
      properties: {petType: {type: string}, wings: {type: integer}}
    Pet:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Bird'}]
      discriminator:
        propertyName: petType
        mapping: {cat: '#/components/schemas/Cat', dog: Dog, bird: '#/components/schemas/Bird'}
paths:
  /pets:
    post:
      operationId: createPet
      summary: Create a pet
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
      responses: {"201": {description: Created}}
  /pets/batch:
    post:
      operationId: createPets
      summary: Create pets
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, properties: {pets: {type: array, items: {$ref: '#/components/schemas/Pet'}}}}}}
      responses: {"201": {description: Created}}
  /adoptions:
    post:
      operationId: adoptPet
      summary: Adopt a pet
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
              discriminator: {propertyName: petType}
      responses: {"201": {description: Created}}
`;

let set: CatalogSet;
let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-discriminator-selects-');
  writeFileSync(join(dir, 'pets.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'pets.yaml'), { name: 'pets' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'pets')]);
});
afterAll(async () => {
  await up.close();
});

describe.each(ERAS)('%s era', (era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: set, settings: { baseUrls: { pets: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { era });
  });
  afterAll(async () => {
    await c.close();
  });
  const execute = async (tool: string, args: Record<string, unknown>) => {
    up.clear();
    return call(c.client, 'execute_tool', { tool_name: tool, args, handle: await describeHandle(c.client, tool) });
  };

  test('a tag that selects Bird, on a body that is a valid Cat: refused naming the tag, Bird and what it lacks; nothing sent', async () => {
    const r = await execute('createPet', { body: { petType: 'bird', meow: 1 } });
    expect(r.error?.code, JSON.stringify(r)).toBe('INVALID_ARGUMENTS');
    expect(r.error?.details.errors).toEqual([
      {
        path: '/body/petType',
        message: '"petType" "bird" selects Bird, and the value does not match Bird: "wings" is missing (the tag, not the other properties, decides the kind of object)',
        expected: expect.objectContaining({ required: ['petType', 'wings'] }),
        suggestion: 'pass what Bird requires, or set "petType" to "cat" if the value is meant as that kind',
      },
    ]);
    expect(up.requests).toHaveLength(0);
  });

  test('a tag the mapping does not have, on a body that is a valid Cat: refused with the mapped values; nothing sent', async () => {
    const r = await execute('createPet', { body: { petType: 'fish', meow: 1 } });
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(r.error?.details.errors).toEqual([
      expect.objectContaining({
        path: '/body/petType',
        message: '"fish" is not one of the allowed values of "petType", which selects the kind of object',
        expected: ['cat', 'dog', 'bird'],
      }),
    ]);
    expect(up.requests).toHaveLength(0);
  });

  test('the check follows the value: an item of an array in a property', async () => {
    const r = await execute('createPets', { pets: [{ petType: 'cat', meow: 1 }, { petType: 'dog', meow: 2 }] });
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect((r.error?.details.errors as Array<{ path: string; message: string }>).map((e) => [e.path, e.message.split(':')[0]])).toEqual([
      ['/pets/1/petType', '"petType" "dog" selects Dog, and the value does not match Dog'],
    ]);
    expect(up.requests).toHaveLength(0);
  });

  test('the implicit mapping (no mapping: schema names): "Dog" on a Cat body is refused, "Cat" is sent', async () => {
    const wrong = await execute('adoptPet', { body: { petType: 'Dog', meow: 1 } });
    expect(wrong.error?.details.errors[0]).toMatchObject({ path: '/body/petType', message: expect.stringContaining('"petType" "Dog" selects Dog') });
    expect(up.requests).toHaveLength(0);
    const right = await execute('adoptPet', { body: { petType: 'Cat', meow: 1 } });
    expect(right.success, JSON.stringify(right)).toBe(true);
    expect(up.requests).toHaveLength(1);
  });

  test('bodies whose tag selects the alternative they match are sent as they are', async () => {
    const one = await execute('createPet', { body: { petType: 'bird', wings: 2 } });
    expect(one.success, JSON.stringify(one)).toBe(true);
    expect(up.requests).toHaveLength(1);
    expect(JSON.parse(up.requests[0]?.text ?? 'null')).toEqual({ petType: 'bird', wings: 2 });
    const many = await execute('createPets', { pets: [{ petType: 'cat', meow: 1 }, { petType: 'dog', bark: true }] });
    expect(many.success, JSON.stringify(many)).toBe(true);
    expect(up.requests).toHaveLength(1);
  });
});
