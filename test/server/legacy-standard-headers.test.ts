// The 2026-07-28 standard headers (Mcp-Method, Mcp-Name) on a legacy (session) request, against the built CLI
// (`serve --http`) over real HTTP (ops50 audit, section 9). Before, only the 2026-07-28 leg compared them with the
// body (the SDK); a legacy execute_tool labelled `Mcp-Name: search_tools` ran, while a balancer routing on those
// headers (deploy/haproxy.cfg) could take it for a read and re-send it. Now a legacy request whose headers, when
// present, disagree with its body gets the modern leg's answer (400, -32020, data.mismatch) and runs nothing; one
// whose headers agree, or that carries none, is served as before. Needs `npm run build`.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fixtureRegistry } from '../helpers/mcp.js';
import { modernRpc, openSession, rpc, type RawSession } from '../helpers/mcp-raw.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let srv: Replica;
let up: Upstream;
let s: RawSession;

beforeAll(async () => {
  up = await startUpstream();
  srv = await startReplica(['--registry', fixtureRegistry('petstore')], { PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_LOG_LEVEL: 'info' });
  s = await openSession(srv.url);
});
afterAll(async () => {
  await srv?.stop();
  await up?.close();
});

let id = 500;
const toolCall = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
const b64 = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

test('a legacy execute_tool labelled as a read (Mcp-Name: search_tools) is refused 400 -32020 as on the modern leg, and never reaches the upstream', async () => {
  const described = await rpc(srv.url, s, toolCall('describe_tools', { tool_names: ['pets.get'] }));
  const entry = described.msg.result.structuredContent.value.tools[0];
  const handle = (entry.example?.handle ?? entry.handle) as string;
  expect(typeof handle, JSON.stringify(described.msg).slice(0, 500)).toBe('string');
  const exec = toolCall('execute_tool', { tool_name: 'pets.get', args: { petId: 12 }, handle });
  const refused = await rpc(srv.url, s, exec, { 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' });
  expect(refused.status).toBe(400);
  expect(refused.msg).toEqual({
    jsonrpc: '2.0',
    id: exec.id,
    error: {
      code: -32020,
      message: 'Bad Request: the request headers and body disagree: the body carries params.name="execute_tool" but the Mcp-Name header names "search_tools"',
      data: { mismatch: { header: 'search_tools', body: 'the body carries params.name="execute_tool" but the Mcp-Name header names "search_tools"' } },
    },
  });
  expect(up.requests).toHaveLength(0);
  expect(srv.stderr()).toMatch(/"event":"mcp_refused","era":"legacy","message":"Bad Request: the request headers and body disagree/);

  // the same shape as the 2026-07-28 leg's own refusal (the SDK's) of the same disagreement
  const modern = await modernRpc(srv.url, 'tools/call', { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 12 }, handle } }, { override: { 'mcp-name': 'search_tools' } });
  expect(modern.status).toBe(400);
  expect(modern.msg.error.code).toBe(-32020);
  expect(modern.msg.error.message).toBe(refused.msg.error.message);
  expect(modern.msg.error.data).toEqual(refused.msg.error.data);

  // the session is untouched: the same call without the headers, or with headers that agree, runs
  const plain = await rpc(srv.url, s, exec);
  expect(plain.status).toBe(200);
  expect(plain.msg.result.structuredContent.success).toBe(true);
  const agreeing = await rpc(srv.url, s, { ...exec, id: id++ }, { 'mcp-method': 'tools/call', 'mcp-name': 'execute_tool' });
  expect(agreeing.status).toBe(200);
  expect(agreeing.msg.result.structuredContent.success).toBe(true);
  expect(up.requests).toHaveLength(2);
});

test('Mcp-Method that names another method, an Mcp-Name on a body that names nothing, a bad Base64 form: each 400 -32020; agreeing headers (Base64 form too) are served', async () => {
  const list = { jsonrpc: '2.0', id: id++, method: 'tools/list' };
  const wrongMethod = await rpc(srv.url, s, list, { 'mcp-method': 'resources/list' });
  expect(wrongMethod.status).toBe(400);
  expect(wrongMethod.msg.error).toMatchObject({ code: -32020, data: { mismatch: { header: 'resources/list', body: 'the body names method tools/list but the Mcp-Method header names resources/list' } } });
  // a tools/call sent as a listing: a header-only router would see a read
  const asListing = await rpc(srv.url, s, toolCall('execute_tool', { tool_name: 'pets.list', args: {} }), { 'mcp-method': 'tools/list' });
  expect(asListing.status).toBe(400);
  expect(asListing.msg.error.code).toBe(-32020);
  const orphanName = await rpc(srv.url, s, list, { 'mcp-name': 'search_tools' });
  expect(orphanName.status).toBe(400);
  expect(orphanName.msg.error.data.mismatch.body).toBe('method tools/list names nothing an Mcp-Name header mirrors but the Mcp-Name header names "search_tools"');
  const badB64 = await rpc(srv.url, s, toolCall('search_tools', { query: 'pet' }), { 'mcp-method': 'tools/call', 'mcp-name': '=?base64?not base64?=' });
  expect(badB64.status).toBe(400);
  expect(badB64.msg.error.data.mismatch.body).toBe('the Mcp-Name header carries an invalid Base64 sentinel value');
  // a JSON-RPC response posted with a method header (nothing a method names)
  const response = await rpc(srv.url, s, { jsonrpc: '2.0', id: 'x', result: {} }, { 'mcp-method': 'tools/list' });
  expect(response.status).toBe(400);
  expect(response.msg.error.code).toBe(-32020);
  expect(up.requests).toHaveLength(2);

  const listed = await rpc(srv.url, s, { ...list, id: id++ }, { 'mcp-method': ' tools/list ' });
  expect(listed.status).toBe(200);
  expect(listed.msg.result.tools).toHaveLength(4);
  const searched = await rpc(srv.url, s, toolCall('search_tools', { query: 'pet' }), { 'mcp-method': 'tools/call', 'mcp-name': b64('search_tools') });
  expect(searched.status).toBe(200);
  expect(searched.msg.result.structuredContent.success).toBe(true);
  const note = await rpc(srv.url, s, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-method': 'notifications/initialized' });
  expect(note.status).toBe(202);
  // a new session whose initialize carries agreeing headers opens as before; one whose headers disagree opens none
  const init = { jsonrpc: '2.0', id: id++, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const opened = await rpc(srv.url, undefined, init, { 'mcp-method': 'initialize' });
  expect(opened.status).toBe(200);
  expect(opened.headers.get('mcp-session-id')).toBeTruthy();
  const notOpened = await rpc(srv.url, undefined, init, { 'mcp-method': 'tools/list' });
  expect(notOpened.status).toBe(400);
  expect(notOpened.headers.get('mcp-session-id')).toBeNull();
});
