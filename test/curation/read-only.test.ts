// x-api-catalog-read-only (docs/CURATION.md): a curator's word on whether an operation only reads, which is what a
// read-only server (`--read-only`) runs. A POST that only queries, marked true by an overlay, runs against a real
// local HTTP upstream; a GET that changes something, marked false, is refused before anything is sent; true on a
// destructive operation is a warning and changes nothing. Imported by the CLI with the overlay, served to a real MCP
// client in both protocol eras.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { loadCatalogSet } from '../../src/server/index.js';
import { runCaptured } from '../helpers/cli.js';
import { ERAS, call, connectInMemory, type Connected, type Era } from '../helpers/mcp.js';
import { handlesIn } from '../helpers/describe-handles.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SPEC = `openapi: 3.0.3
info: { title: Notes API, version: "1.0" }
servers: [ { url: "https://notes.example.com/v1" } ]
paths:
  /notes:
    get:
      operationId: notes/list
      summary: List notes
      responses: { "200": { description: OK } }
  /notes/search:
    post:
      operationId: notes/search
      summary: Search notes by text
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [text], properties: { text: { type: string } } }
      responses: { "200": { description: OK } }
  /notes/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string } }
    delete:
      operationId: notes/delete
      summary: Delete a note
      responses: { "204": { description: Deleted } }
  /session/logout:
    get:
      operationId: session/logout
      summary: End the session
      responses: { "204": { description: Ended } }
`;

const OVERLAY = `overlay: 1.0.0
info: { title: Notes curation, version: "1" }
actions:
  - target: $.paths['/notes/search'].post
    update: { x-api-catalog-read-only: true }
  - target: $.paths['/session/logout'].get
    update: { x-api-catalog-read-only: false }
  - target: $.paths['/notes/{id}'].delete
    update: { x-api-catalog-read-only: true }
`;

let up: Upstream;
let registry = '';
let report = '';
const open: Connected[] = [];

beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-read-only-');
  writeFileSync(join(dir, 'notes.yaml'), SPEC);
  writeFileSync(join(dir, 'curation.yaml'), OVERLAY);
  registry = join(dir, 'registry');
  const r = await runCaptured(run, [join(dir, 'notes.yaml'), '--overlay', join(dir, 'curation.yaml'), '--out', registry, '--name', 'notes']);
  expect(r.code, r.stderr).toBe(0);
  report = `${r.stdout}\n${r.stderr}`;
});
afterAll(async () => {
  await up.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  up.clear();
});

describe('x-api-catalog-read-only', () => {
  test('import: true and false are recorded; true on a destructive operation is a warning naming it and is ignored', () => {
    const set = loadCatalogSet([join(registry, 'notes')]);
    const readOnly = Object.fromEntries(set.operations.map((op) => [op.operationId, op.readOnly]));
    expect(readOnly).toEqual({ 'notes/list': true, 'notes/search': true, 'notes/delete': false, 'session/logout': false });
    expect(report).toMatch(/x-api-catalog-read-only: true contradicts a destructive operation \(DELETE \/notes\/\{id\}\)/);
  });

  test.each(ERAS)('%s era: a server that is not read-only warns of nothing in describe_tools', async (era: Era) => {
    const c = await connectInMemory({ catalogs: loadCatalogSet([join(registry, 'notes')]), settings: { baseUrls: { notes: up.url }, readOnly: false, env: {} } }, { era });
    open.push(c);
    const d = await call(c.client, 'describe_tools', { tool_names: ['session_logout', 'notes_delete'] });
    expect(d.success, JSON.stringify(d.error)).toBe(true);
    expect(JSON.stringify(d.value)).not.toMatch(/read-only/);
  });

  describe.each(ERAS)('%s era, a read-only server', (era: Era) => {
    async function connect(): Promise<Connected> {
      const c = await connectInMemory(
        { catalogs: loadCatalogSet([join(registry, 'notes')]), settings: { baseUrls: { notes: up.url }, readOnly: true, env: {} } },
        { era },
      );
      open.push(c);
      return c;
    }

    test('runs the POST marked read-only, over real HTTP, and says so in describe_tools', async () => {
      const { client } = await connect();
      const d = await call(client, 'describe_tools', { tool_names: ['notes_search'], detail: 'full' });
      expect(d.success, JSON.stringify(d.error)).toBe(true);
      expect(JSON.stringify(d.value)).toMatch(/"method":"POST","path":"\/notes\/search","destructive":false,"readOnly":true/);
      const r = await call(client, 'execute_tool', { tool_name: 'notes_search', args: { text: 'groceries' }, handle: handlesIn(d).notes_search });
      expect(r.success, JSON.stringify(r.error)).toBe(true);
      expect(up.requests.map((q) => `${q.method} ${q.url} ${q.text}`)).toEqual(['POST /notes/search {"text":"groceries"}']);
    });

    test('refuses the GET marked as changing something, and the destructive DELETE, before anything is sent', async () => {
      const { client } = await connect();
      const d = await call(client, 'describe_tools', { tool_names: ['session_logout', 'notes_delete', 'notes_list', 'notes_search'] });
      // describe says which will be refused, before the agent calls: the writes, not the reads
      const refusal = (name: string): unknown => (d.value as { tools: Array<{ name: string; warnings?: string[] }> }).tools.find((t) => t.name === name)?.warnings?.find((w) => /read-only/.test(w));
      expect(refusal('session_logout')).toMatch(/^Refused on this server: it is read-only, and this operation changes data \(GET\)/);
      expect(refusal('notes_delete')).toMatch(/changes data \(DELETE\)\. execute_tool answers READ_ONLY_MODE/);
      expect(refusal('notes_list')).toBeUndefined();
      expect(refusal('notes_search')).toBeUndefined();
      // with the describe handles, which a 2026-07-28 connection requires (it remembers nothing)
      const handles = handlesIn(d);
      const g = await call(client, 'execute_tool', { tool_name: 'session_logout', args: {}, handle: handles.session_logout });
      expect(g.error?.code).toBe('READ_ONLY_MODE');
      const del = await call(client, 'execute_tool', { tool_name: 'notes_delete', args: { id: 'n1' }, confirm: 'notes_delete', handle: handles.notes_delete });
      expect(del.error?.code).toBe('READ_ONLY_MODE');
      expect(up.requests).toHaveLength(0);
      // the plain GET still runs
      const l = await call(client, 'execute_tool', { tool_name: 'notes_list', args: {}, handle: handles.notes_list });
      expect(l.success, JSON.stringify(l.error)).toBe(true);
      expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /notes']);
    });
  });
});
