// A read-only server refuses a GET whose path ends in a write action (review51, finding 1): Etherpad declares its API
// as GETs, and `GET /movePad` (no summary) or `GET /appendText` (no summary; "append" was no write verb) were served
// as reads and reached the upstream; so was `GET /sendMessage`, whose path is its own operationId and whose summary
// ("Use this method to send text messages") leads with no verb. A GET whose summary says it reads still runs. A real
// import into a scratch registry, a real MCP client, a real local HTTP upstream that records what reaches it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { call, catalogs, connectInMemory, type Connected } from '../helpers/mcp.js';
import { handlesIn } from '../helpers/describe-handles.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

let up: Upstream;
let registry: string;
const open: Connected[] = [];
const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } };
const q = (name: string) => ({ name, in: 'query', required: true, schema: { type: 'string' } });

beforeAll(async () => {
  up = await startUpstream();
  registry = tempDir('ro-path-action-');
  const spec = join(registry, 'etherpad.json');
  writeFileSync(spec, JSON.stringify({
    openapi: '3.0.0', info: { title: 'Etherpad', version: '1' }, servers: [{ url: 'https://pad.example/api/1' }],
    paths: {
      '/movePad': { get: { operationId: 'movePadUsingGET', parameters: [q('sourceID'), q('destinationID')], responses: ok } },
      '/appendText': { get: { operationId: 'appendTextUsingGET', parameters: [q('padID'), q('text')], responses: ok } },
      '/sendMessage': { get: { operationId: 'sendMessage', summary: 'Use this method to send text messages', parameters: [q('chat_id'), q('text')], responses: ok } },
      '/getText': { get: { operationId: 'getTextUsingGET', summary: 'returns the text of a pad', parameters: [q('padID')], responses: ok } },
    },
  }));
  writeRegistry(await importSpec(spec, { name: 'etherpad' }), registry);
});
afterAll(async () => {
  await up.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  up.clear();
});

test('read-only: GET /movePad, /appendText and /sendMessage are refused before anything is sent; GET /getText runs', async () => {
  const c = await connectInMemory({ catalogs: catalogs(join(registry, 'etherpad')), settings: { baseUrls: { etherpad: up.url }, readOnly: true, env: {} } });
  open.push(c);
  const writes = { movePadUsingGET: { sourceID: 'a', destinationID: 'b' }, appendTextUsingGET: { padID: 'a', text: 'x' }, sendMessage: { chat_id: '1', text: 'hi' } };
  const d = await call(c.client, 'describe_tools', { tool_names: [...Object.keys(writes), 'getTextUsingGET'] });
  expect(d.success, JSON.stringify(d.error)).toBe(true);
  const handles = handlesIn(d);
  for (const [name, args] of Object.entries(writes)) {
    const r = await call(c.client, 'execute_tool', { tool_name: name, args, handle: handles[name] });
    expect(r.error?.code, name).toBe('READ_ONLY_MODE');
  }
  expect(up.requests).toHaveLength(0);
  const read = await call(c.client, 'execute_tool', { tool_name: 'getTextUsingGET', args: { padID: 'a' }, handle: handles.getTextUsingGET });
  expect(read.success, JSON.stringify(read.error)).toBe(true);
  expect(up.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual(['GET /getText']);
});
