// A padded placeholder is only the importer's padding (src/importer/examples.ts: `<KEY>` padded with `x` to the
// schema's minLength, exactly): `"<code>xx"` where `code` has minLength 8 is describe's placeholder and refused, while
// `"<code>xxx"`, or `"<label>x"` where `label` has no minLength, is the user's value and is sent. The minLength is the
// schema's at that place, a `$ref`'s target included. The real importer, the real `call` command and execute_tool
// over a real MCP client, against a real recording HTTP upstream on loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { run as importRun } from '../../src/cli/import.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { runCaptured } from '../helpers/cli.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { call, connectInMemory } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const KEY = 'things-key-CANARY-51d0e7';
const SPEC = `openapi: 3.0.3
info: {title: Things, version: "1"}
servers: [{url: "https://things.invalid/v1"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
  schemas:
    Nested: {type: object, required: [key], properties: {key: {type: string, minLength: 6}}}
security: [{key: []}]
paths:
  /things:
    post:
      operationId: createThing
      summary: Create a thing
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [code, label, nested]
              properties:
                code: {type: string, minLength: 8}
                label: {type: string}
                nested: {$ref: "#/components/schemas/Nested"}
      responses: {"200": {description: OK}}
`;
/** What the importer writes: `<code>` padded to 8, `<key>` to 6 (inside the $ref), `<label>` as it is. */
const EXAMPLE = { code: '<code>xx', label: '<label>', nested: { key: '<key>x' } };
/** Padded otherwise than the importer pads: the user's values. */
const USERS = { code: '<code>xxx', label: '<label>x', nested: { key: '<key>xx' } };
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', THINGS_BASE_URL: '', THINGS_API_KEY: '' };

let up: Upstream;
let reg = '';
let set: CatalogSet;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-padding-');
  writeFileSync(join(dir, 'things.yaml'), SPEC);
  const imported = await runCaptured(importRun, [join(dir, 'things.yaml'), '--out', join(dir, 'reg')], quiet);
  expect(imported.code).toBe(0);
  reg = join(dir, 'reg', 'things');
  set = loadCatalogSet([reg]);
});
afterAll(async () => {
  await up.close();
});
beforeEach(() => up.clear());

const callWith = (args: unknown, extra: string[] = []) =>
  runCaptured(callRun, ['createThing', '--registry', reg, '--args', JSON.stringify(args), '--base-url', `${up.url}/v1`, ...extra], { ...quiet, THINGS_API_KEY: KEY });

describe('api-catalog call', () => {
  test("describe's example (the importer's padding) is refused, the padded ones inside a $ref too", async () => {
    expect(set.byName.get('createThing')?.op.examples[0]?.args).toEqual(EXAMPLE);
    const r = await callWith(EXAMPLE);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { error: { code: string; details: { placeholders: string[] } } };
    expect(out.error.code).toBe('INVALID_ARGUMENTS');
    expect(out.error.details.placeholders).toEqual(['code', 'label', 'nested.key']);
    expect(up.requests).toEqual([]);
  });

  test('padded to another length, or where no minLength asks for padding: the user’s values, sent as they are', async () => {
    const r = await callWith(USERS);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(up.requests.map((q) => JSON.parse(q.text))).toEqual([USERS]);
  });

  test('a dry run names only the importer-padded one', async () => {
    const r = await callWith({ ...USERS, code: EXAMPLE.code }, ['--dry-run']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { value: { would_refuse: unknown[] } };
    expect(out.value.would_refuse).toEqual([{ code: 'INVALID_ARGUMENTS', placeholders: ['code'] }]);
  });
});

describe('execute_tool', () => {
  test('the same line: the importer-padded value refused, the others sent', async () => {
    const c = await connectInMemory({ catalogs: set, settings: { baseUrls: { things: `${up.url}/v1` }, readOnly: false, env: { THINGS_API_KEY: KEY } } });
    try {
      const { handles } = await describeWithHandles(c.client, ['createThing']);
      const refused = await call(c.client, 'execute_tool', { tool_name: 'createThing', args: { ...USERS, nested: EXAMPLE.nested }, handle: handles['createThing'] });
      expect(refused.error?.code).toBe('INVALID_ARGUMENTS');
      expect(refused.error?.details.placeholders).toEqual(['nested.key']);
      const sent = await call(c.client, 'execute_tool', { tool_name: 'createThing', args: USERS, handle: handles['createThing'] });
      expect(sent.success).toBe(true);
      expect(up.requests.map((q) => JSON.parse(q.text))).toEqual([USERS]);
    } finally {
      await c.close();
    }
  });
});
