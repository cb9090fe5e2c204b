// execute_tool's envelope for odd requests and answers, through a real SDK client of each era against a real local
// upstream (audit of execute_tool against odd upstreams): an argument refused while building the request has the
// shape of a schema refusal (details.errors); a body cut at the byte cap says `fields` was not applied and names
// paging arguments instead; deeply nested JSON is a success with its text; a stored full result is compact JSON.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { ERAS, call, connectInMemory, type Connected, type Era } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { upstreamPerFile } from '../helpers/upstream-per-file.js';

const SPEC = `openapi: 3.0.3
info: {title: Odd, version: "1"}
servers: [{url: "https://odd.invalid/v1"}]
paths:
  /r/{mode}:
    get:
      operationId: getMode
      summary: Get a mode
      parameters:
        - {name: mode, in: path, required: true, schema: {type: string}}
        - {name: X-Trace, in: header, schema: {type: string}}
        - {name: limit, in: query, schema: {type: integer}}
      responses: {"200": {description: OK}}
`;

const fixture = upstreamPerFile();
let set: CatalogSet;
beforeAll(async () => {
  const dir = tempDir('ac-odd-answers-');
  writeFileSync(join(dir, 'odd.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'odd.yaml'), { name: 'odd' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'odd')]);
});

describe.each(ERAS)('%s era', (era: Era) => {
  async function connect(maxResponseBytes?: number): Promise<{ c: Connected; run: (args: Record<string, unknown>, fields?: string[]) => ReturnType<typeof call> }> {
    const settings = { baseUrls: { odd: `${fixture.up.url}/v1` }, readOnly: false, env: {}, ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}) };
    const c = await connectInMemory({ catalogs: set, settings }, { era });
    fixture.open.push(c);
    const name = set.names[0]!;
    const handle = (await describeWithHandles(c.client, [name])).handles[name];
    return { c, run: (args, fields) => call(c.client, 'execute_tool', { tool_name: name, args, handle, ...(fields !== undefined ? { fields } : {}) }) };
  }

  test('arguments refused while building the request: details.errors with path, message, expected and suggestion, nothing under upstream', async () => {
    const { run } = await connect();
    const dots = await run({ mode: '..' });
    expect(dots.error?.code).toBe('INVALID_ARGUMENTS');
    expect(dots.error?.details).toEqual({
      errors: [{ path: '/mode', message: 'dot segments are not allowed in path parameters', expected: expect.any(String), suggestion: expect.any(String) }],
    });
    const header = await run({ mode: 'echo', 'X-Trace': 'a\r\nX-Injected: 1' });
    expect(header.error?.details).toEqual({
      errors: [{ path: '/X-Trace', message: expect.stringMatching(/no CR, LF/), expected: expect.any(String), suggestion: expect.any(String) }],
    });
    expect(header.error?.details).not.toHaveProperty('upstream');
    expect(fixture.up.requests).toHaveLength(0);
    // what the upstream said is still under upstream
    fixture.up.route('/v1/r/gone', { kind: 'status', status: 404, body: { message: 'no such mode' } });
    const gone = await run({ mode: 'gone' });
    expect(gone.error?.details).toMatchObject({ status: 404, upstream: { status: 404, body: { message: 'no such mode' } } });
  });

  test('a body cut at the byte cap: `fields` not applied (a warning says so), the instruction names paging arguments and the cap', async () => {
    const { run } = await connect(100_000);
    const big = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item-${i}`, pad: 'x'.repeat(80) })));
    fixture.up.route('/v1/r/list', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: big });
    const r = await run({ mode: 'list' }, ['id']);
    expect(r.success).toBe(true);
    expect(r.value.truncated.reason).toBe('maxResponseBytes');
    expect(r.value.warnings).toEqual([expect.stringMatching(/^fields: not applied/)]);
    expect(r.value).not.toHaveProperty('full_result_uri');
    expect(r.instruction).toMatch(/paging or filter arguments \(limit\).*API_CATALOG_MAX_RESPONSE_BYTES/);
    expect(r.instruction).not.toMatch(/call again with "fields"|fix them/);
  });

  test('JSON nested 5,000 levels: a success with its text and a warning, never INTERNAL', async () => {
    const { run } = await connect();
    fixture.up.route('/v1/r/deep', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) });
    const r = await run({ mode: 'deep' });
    expect(r.success).toBe(true);
    expect(typeof r.value.data).toBe('string');
    expect(r.value.warnings[0]).toMatch(/nests deeper than 256 levels/);
    expect(r.instruction).toMatch(/not parsed.*"fields" cannot select from it/);
  });

  test('a stored full result is compact JSON', async () => {
    const { c, run } = await connect();
    const items = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item-${i}` }));
    fixture.up.route('/v1/r/many', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: items });
    const r = await run({ mode: 'many' });
    expect(r.value.full_result_uri).toMatch(/^api-catalog:\/\/results\//);
    const text = (await c.client.readResource({ uri: r.value.full_result_uri })).contents[0] as { text: string };
    expect(text.text).toBe(JSON.stringify(items));
  });
});
