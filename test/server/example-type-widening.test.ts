// A schema whose own example contradicts its declared type: LaunchDarkly's PatchOperation.value is `type: object` with
// the example "My resource name", so execute_tool refused a valid JSON Patch (`{"op": "replace", "path": "/name",
// "value": "x"}`) that the API's own documentation shows. The importer now widens such a type by the example's JSON
// type (src/importer/example-types.ts) and reports it in diagnostics.json (LINT_EXAMPLE_TYPE); a value of a type
// neither declared nor shown by the example is still refused, with nothing sent. What is not a contradiction stays
// as it was: a string that is the escaped JSON of the declared type, an array's example that is one item, an items
// example that is the whole array, a query parameter's serialized example.
// Real parts: the importer over LaunchDarkly's own text (test/fixtures/describe/launchdarkly-excerpt.json) and a
// small spec, a real MCP SDK client, execute_tool, and a real local HTTP upstream that records what reaches it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import type { Diagnostic } from '../../src/types.js';
import { call, connectInMemory, describeHandle, ERAS, REPO_ROOT, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const NOT_CONTRADICTIONS = `openapi: 3.0.3
info: {title: Shapes, version: "1"}
servers: [{url: "https://shapes.invalid"}]
paths:
  /shapes:
    post:
      operationId: createShape
      summary: Create a shape
      parameters:
        - {name: owner, in: query, schema: {type: array, items: {type: string}, example: "owner[]=a,owner[]=b"}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                meta: {type: object, example: '{"a": 1}'}
                size: {type: integer, example: "42"}
                names: {type: array, items: {type: string}, example: "first"}
                tags: {type: array, items: {type: string, example: []}}
                color: {type: string, enum: [red], example: 5}
                parent: {type: object, properties: {id: {type: string}}, example: {id: 7}}
      responses: {"201": {description: Created}}
`;

let ld: CatalogSet;
let ldDiagnostics: Diagnostic[];
let shapes: CatalogSet;
let shapeDiagnostics: Diagnostic[];
let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-example-type-');
  const imported = await importSpec(join(REPO_ROOT, 'test', 'fixtures', 'describe', 'launchdarkly-excerpt.json'), { name: 'launchdarkly' });
  ldDiagnostics = imported.diagnostics;
  writeRegistry(imported, join(dir, 'reg'));
  ld = loadCatalogSet([join(dir, 'reg', 'launchdarkly')]);
  writeFileSync(join(dir, 'shapes.yaml'), NOT_CONTRADICTIONS);
  const other = await importSpec(join(dir, 'shapes.yaml'), { name: 'shapes' });
  shapeDiagnostics = other.diagnostics;
  writeRegistry(other, join(dir, 'reg'));
  shapes = loadCatalogSet([join(dir, 'reg', 'shapes')]);
});
afterAll(async () => {
  await up.close();
});

test('the import widens PatchOperation.value by its example and reports the contradiction: pointer, both types', () => {
  const findings = ldDiagnostics.filter((d) => d.code === 'LINT_EXAMPLE_TYPE');
  expect(findings).toEqual([
    {
      level: 'warning',
      code: 'LINT_EXAMPLE_TYPE',
      pointer: '#/components/schemas/PatchOperation/properties/value',
      message:
        'the schema declares type object but its own example is a string ("My resource name"); string values are accepted here too, as the example shows (fix the type or the example in the spec)',
    },
  ]);
  const op = ld.byName.get('patchProject')?.op;
  expect((op?.inputSchema.$defs as Record<string, unknown> | undefined)?.PatchOperation).toMatchObject({ properties: { value: { type: ['object', 'string'], examples: ['My resource name'] } } });
});

test("what is no contradiction is left as the spec wrote it, and not reported; a parent's example widens no property", () => {
  expect(shapeDiagnostics.filter((d) => d.code === 'LINT_EXAMPLE_TYPE')).toEqual([]);
  const props = shapes.byName.get('createShape')?.op.inputSchema.properties;
  expect(props?.owner).toMatchObject({ type: 'array' });
  expect(props?.meta).toMatchObject({ type: 'object' });
  expect(props?.size).toMatchObject({ type: 'integer' });
  expect(props?.names).toMatchObject({ type: 'array' });
  expect(props?.tags).toMatchObject({ items: { type: 'string' } });
  expect(props?.color).toMatchObject({ type: 'string' });
  expect(props?.parent).toMatchObject({ type: 'object', properties: { id: { type: 'string' } } });
});

describe.each(ERAS)('%s era', (era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: ld, settings: { baseUrls: { launchdarkly: up.url }, readOnly: false, env: { LAUNCHDARKLY_API_KEY: 'ld-token-1' } }, rateLimitPerMinute: 0 }, { era });
  });
  afterAll(async () => {
    await c.close();
  });
  const patch = async (body: unknown) => {
    up.clear();
    return call(c.client, 'execute_tool', { tool_name: 'patchProject', args: { projectKey: 'default', body }, handle: await describeHandle(c.client, 'patchProject') });
  };

  test("a JSON Patch whose value is a string, as the spec's own example shows, reaches the upstream", async () => {
    const body = [{ op: 'replace', path: '/name', value: 'x' }];
    const r = await patch(body);
    expect(r.success, JSON.stringify(r)).toBe(true);
    expect(up.requests).toHaveLength(1);
    expect(up.requests[0]?.method).toBe('PATCH');
    expect(JSON.parse(up.requests[0]?.text ?? 'null')).toEqual(body);
  });

  test('a value of a type neither declared (object) nor shown by the example (string) is still refused, nothing sent', async () => {
    const r = await patch([{ op: 'replace', path: '/name', value: 5 }]);
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(JSON.stringify(r.error?.details)).toContain('/body/0/value');
    expect(up.requests).toHaveLength(0);
    // the declared type still works
    const ok = await patch([{ op: 'add', path: '/tags', value: { a: 1 } }]);
    expect(ok.success, JSON.stringify(ok)).toBe(true);
    expect(up.requests).toHaveLength(1);
  });
});
