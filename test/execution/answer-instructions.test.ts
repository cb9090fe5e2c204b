// execute_tool's `instruction` covers every warning an answer carries, whatever else happened to it: a body cut at
// the byte cap (partial text, `fields` not applied), data cut to the token budget (kept as a resource through MCP,
// not kept by `api-catalog call`), JSON kept as text because it nests too deep, a charset read as UTF-8, and `fields`
// paths that matched nothing. One table over the combinations, each row through a real SDK client (the full result
// stored) and through the real `call` command (nothing stored), against a real local upstream.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { runCaptured } from '../helpers/cli.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { call, connectInMemory } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { upstreamPerFile } from '../helpers/upstream-per-file.js';

const SPEC = `openapi: 3.0.3
info: {title: Cuts, version: "1"}
servers: [{url: "https://cuts.invalid/v1"}]
paths:
  /r/{mode}:
    get:
      operationId: getMode
      summary: Get a mode
      parameters:
        - {name: mode, in: path, required: true, schema: {type: string}}
        - {name: limit, in: query, schema: {type: integer}}
      responses: {"200": {description: OK}}
`;
const CAP = 400_000; // the byte cap for every row; the token budget is the default 8,000 tokens (about 32,000 characters)
const items = (n: number, pad = 10) => JSON.stringify(Array.from({ length: n }, (_, id) => ({ id, name: `item-${id}`, pad: 'x'.repeat(pad) })));
const deep = (inner: string) => '{"a":'.repeat(300) + inner + '}'.repeat(300);

/** What the upstream answers, and what that makes of the answer (before any `fields`). */
const BODIES = {
  small: { type: 'application/json', body: items(5) }, // parsed, fits
  big: { type: 'application/json', body: items(4000) }, // parsed, cut to the token budget (a projection of it too)
  deep: { type: 'application/json', body: deep('1') }, // kept as text (too deep), fits
  deepBig: { type: 'application/json', body: deep(JSON.stringify('y'.repeat(60_000))) }, // kept as text, cut to the budget
  text: { type: 'text/plain', body: 'z'.repeat(60_000) }, // text, cut to the budget
  over: { type: 'application/json', body: items(6000, 60) }, // over the byte cap: cut, partial text
} as const;
type Kind = keyof typeof BODIES;
/** `fields` as JMESPath (one string, as both MCP and `call --fields` take it): none, one that matches, one that misses. */
const FIELDS = { none: undefined, match: '[].{id: id, name: name}', miss: '[].{id: id, name: name, n: nope}' } as const;
type Fields = keyof typeof FIELDS;

interface Row {
  kind: Kind;
  charset: boolean;
  fields: Fields;
}
const ROWS: Row[] = (Object.keys(BODIES) as Kind[]).flatMap((kind) => [false, true].flatMap((charset) => (Object.keys(FIELDS) as Fields[]).map((fields) => ({ kind, charset, fields }))));

/** What each row's answer carries, so what its instruction must speak of. */
function expected(r: Row) {
  const capCut = r.kind === 'over';
  const tooDeep = r.kind === 'deep' || r.kind === 'deepBig';
  const text = capCut || tooDeep || r.kind === 'text';
  return {
    capCut,
    tooDeep,
    text,
    charset: r.charset,
    // a projection of text selects nothing (null); of parsed data, it misses when it names a field the data lacks
    missed: r.fields !== 'none' && !capCut && !tooDeep && (r.kind === 'text' || r.fields === 'miss'),
    // a projection of the long text selects nothing (null), which is not cut
    budgetCut: r.kind === 'big' || r.kind === 'deepBig' || (r.kind === 'text' && r.fields === 'none'),
  };
}

/** Checks one instruction against what its row's answer carries; `stored`: the full result was kept (MCP). */
function covers(instruction: string | undefined, warnings: string[] | undefined, r: Row, stored: boolean): void {
  const e = expected(r);
  const label = `${r.kind}${r.charset ? ' + charset' : ''} + fields ${r.fields}${stored ? ' (stored)' : ''}: ${instruction}`;
  if (!e.capCut && !e.tooDeep && !e.charset && !e.missed && !e.budgetCut) {
    expect.soft(instruction, label).toBeUndefined();
    expect.soft(warnings, label).toBeUndefined();
    return;
  }
  expect.soft(instruction, label).toBeDefined();
  const text = instruction ?? '';
  if (e.capCut) expect.soft(text, label).toMatch(/cut at 400000 bytes \(the response size cap\), so data is partial text and "fields" cannot select from it.*paging or filter arguments \(limit\)/);
  if (e.tooDeep) expect.soft(text, label).toMatch(/nests deeper than 256 levels.*"fields" cannot select from it/);
  if (e.charset) expect.soft(text, label).toMatch(/Some characters of data may be wrong: see warnings/);
  else expect.soft(text, label).not.toMatch(/characters/);
  if (e.missed) expect.soft(text, label).toMatch(/"fields" paths matched nothing in this response \(see warnings\)/);
  if (e.budgetCut) expect.soft(text, label).toMatch(/cut to fit/);
  if (e.budgetCut && stored) expect.soft(text, label).toMatch(/read the resource api-catalog:\/\/results\/\S+ for all of it/);
  // `fields` is offered to make parsed data smaller, never for text (it cannot select from text)
  if (e.budgetCut && !e.text) expect.soft(text, label).toMatch(/call again with "fields"/);
  if (e.text) expect.soft(text, label).not.toMatch(/call again with "fields"|"fields" to select/);
  // every warning the answer carries is one the instruction speaks of
  for (const w of warnings ?? []) {
    const spoken =
      (/charset/.test(w) && e.charset) ||
      (/nests deeper/.test(w) && e.tooDeep) ||
      (/^fields: not applied/.test(w) && (e.capCut || e.tooDeep)) ||
      (/^fields: /.test(w) && e.missed);
    expect.soft(spoken, `${label}: unexpected warning ${w}`).toBe(true);
  }
}

const fixture = upstreamPerFile();
let set: CatalogSet;
let reg = '';
beforeAll(async () => {
  const dir = tempDir('ac-answer-instructions-');
  writeFileSync(join(dir, 'cuts.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'cuts.yaml'), { name: 'cuts' }), join(dir, 'reg'));
  reg = join(dir, 'reg', 'cuts');
  set = loadCatalogSet([reg]);
});

function route(): void {
  for (const [kind, b] of Object.entries(BODIES)) {
    for (const charset of [false, true]) {
      const type = charset ? `${b.type}; charset=x-klingon` : b.type;
      fixture.up.route(`/v1/r/${kind}${charset ? '-cs' : ''}`, { kind: 'status', status: 200, headers: { 'content-type': type }, body: b.body });
    }
  }
}
const mode = (r: Row) => `${r.kind}${r.charset ? '-cs' : ''}`;

describe('every warning an answer carries is in its instruction, cut, stored or not', () => {
  test('execute_tool through an SDK client: a cut result is stored, and the instruction says where as well', async () => {
    route();
    const c = await connectInMemory({ catalogs: set, settings: { baseUrls: { cuts: `${fixture.up.url}/v1` }, readOnly: false, env: {}, maxResponseBytes: CAP } });
    fixture.open.push(c);
    const name = set.names[0]!;
    const handle = (await describeWithHandles(c.client, [name])).handles[name];
    for (const r of ROWS) {
      const fields = FIELDS[r.fields];
      const out = await call(c.client, 'execute_tool', { tool_name: name, args: { mode: mode(r) }, handle, ...(fields !== undefined ? { fields } : {}) });
      expect(out.success, mode(r)).toBe(true);
      const value = out.value as { warnings?: string[]; full_result_uri?: string; truncated?: { reason: string } };
      expect(value.full_result_uri !== undefined, mode(r)).toBe(expected(r).budgetCut);
      expect(value.truncated?.reason).toBe(expected(r).capCut ? 'maxResponseBytes' : expected(r).budgetCut ? 'tokenBudget' : undefined);
      covers(out.instruction, value.warnings, r, value.full_result_uri !== undefined);
    }
  });

  test('api-catalog call: nothing is stored, and the instruction still covers the cut and every warning', async () => {
    route();
    for (const r of ROWS) {
      const fields = FIELDS[r.fields];
      const argv = ['getMode', '--registry', reg, '--args', JSON.stringify({ mode: mode(r) }), '--base-url', `${fixture.up.url}/v1`, ...(fields !== undefined ? ['--fields', fields] : [])];
      const env = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', CUTS_BASE_URL: '', API_CATALOG_MAX_RESPONSE_BYTES: String(CAP) };
      const res = await runCaptured(callRun, argv, env);
      const out = JSON.parse(res.stdout) as { success: boolean; value?: { warnings?: string[]; full_result_uri?: string }; instruction?: string };
      expect(out.success, `${mode(r)}: ${res.stderr}`).toBe(true);
      expect(out.value?.full_result_uri).toBeUndefined();
      covers(out.instruction, out.value?.warnings, r, false);
    }
  });
});
