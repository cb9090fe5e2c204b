// A discriminator whose tag values live only in its `mapping` (or, implicitly, in the alternatives' schema names):
// the alternatives leave the tag a plain string, as most specs write them. The importer dropped the discriminator, so
// execute_tool's validator could not tell which alternative a value meant and answered with the union's generic
// failure (every alternative's missing fields). Now the importer keeps the mapping beside the union, and the
// validator reads it as it reads a tag fixed by `const`/`enum`: the picked alternative's errors only, or one error
// naming the allowed values.
// Real parts: a spec imported by the importer, a real MCP SDK client, execute_tool's validation (nothing is sent).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, describeHandle, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = `openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "https://pets.invalid/v1"}]
components:
  schemas:
    Feline:
      type: object
      required: [petType, meow]
      properties: {petType: {type: string}, meow: {type: integer}}
    Canine:
      type: object
      required: [petType, bark]
      properties: {petType: {type: string}, bark: {type: boolean}}
paths:
  /pets:
    post:
      operationId: createPet
      summary: Create a pet
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf: [{$ref: '#/components/schemas/Feline'}, {$ref: '#/components/schemas/Canine'}]
              discriminator:
                propertyName: petType
                mapping: {cat: '#/components/schemas/Feline', dog: Canine}
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
              oneOf: [{$ref: '#/components/schemas/Feline'}, {$ref: '#/components/schemas/Canine'}]
              discriminator: {propertyName: petType}
      responses: {"201": {description: Created}}
`;

let set: CatalogSet;
beforeAll(async () => {
  const dir = tempDir('ac-discriminator-mapping-');
  writeFileSync(join(dir, 'pets.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'pets.yaml'), { name: 'pets' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'pets')]);
});

test('the importer keeps the mapping beside the union, in the converted names, the bare name resolved', () => {
  const op = set.byName.get('createPet')?.op;
  expect(op?.inputSchema.properties.body).toMatchObject({
    oneOf: [{ $ref: '#/$defs/Feline' }, { $ref: '#/$defs/Canine' }],
    discriminator: { propertyName: 'petType', mapping: { cat: '#/$defs/Feline', dog: '#/$defs/Canine' } },
  });
  // no mapping: each alternative is selected by its schema's name (the implicit mapping)
  expect(set.byName.get('adoptPet')?.op.inputSchema.properties.body).toMatchObject({
    discriminator: { propertyName: 'petType', mapping: { Feline: '#/$defs/Feline', Canine: '#/$defs/Canine' } },
  });
});

describe.each(ERAS)('%s era', (era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: set }, { era });
  });
  afterAll(async () => {
    await c.close();
  });
  const execute = async (tool: string, body: unknown) =>
    call(c.client, 'execute_tool', { tool_name: tool, args: { body }, handle: await describeHandle(c.client, tool) });

  test("a mapped tag picks its alternative: only that alternative's missing field is reported", async () => {
    const r = await execute('createPet', { petType: 'cat' });
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    const errors = r.error?.details.errors as Array<{ path: string; message: string }>;
    expect(errors.map((e) => e.path)).toEqual(['/body/meow']);
    expect(JSON.stringify(errors)).not.toMatch(/bark/);
  });

  test('a tag the mapping does not have is one error naming the mapped values', async () => {
    const r = await execute('createPet', { petType: 'bird' });
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(r.error?.details.errors).toEqual([
      expect.objectContaining({
        path: '/body/petType',
        message: '"bird" is not one of the allowed values of "petType", which selects the kind of object',
        expected: ['cat', 'dog'],
      }),
    ]);
  });

  test('the implicit mapping: the schema name selects the alternative', async () => {
    const r = await execute('adoptPet', { petType: 'Canine' });
    expect((r.error?.details.errors as Array<{ path: string }>).map((e) => e.path)).toEqual(['/body/bark']);
    const wrong = await execute('adoptPet', { petType: 'dog', bark: true, meow: 1 });
    expect(wrong.error?.details.errors[0]).toMatchObject({ path: '/body/petType', expected: ['Feline', 'Canine'] });
  });
});
