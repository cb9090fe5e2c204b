// One real `serve --http` process: what operators read about each call is about that call. The upstream latency
// histogram holds the upstream request's time (only for calls that went upstream), not the whole tool call's; a call
// the execution layer refuses before sending (AUTH_MISSING) is audited as not dispatched and is no upstream call; a
// tools/call the SDK's schema refuses is answered with one line naming what is missing; an `mcp_refused` log line
// names the era the request's headers claim; an execute_tool refused before it ran (state store down) still names
// its operation in the audit log (a second replica, without Redis). Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixtureRegistry } from '../helpers/mcp.js';
import { modernCall, modernRpc, openSession, rpc } from '../helpers/mcp-raw.js';
import { freePort } from '../helpers/redis.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { events, until } from './helpers.js';

let up: Upstream;
let r: Replica;

beforeAll(async () => {
  up = await startUpstream();
  up.route('/pets/7', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: { id: 7 } });
  r = await startReplica(['--registry', fixtureRegistry('petstore'), '--no-require-describe'], {
    PETSTORE_BASE_URL: up.url,
    API_CATALOG_RATE_LIMIT: '0',
    API_CATALOG_LOG_LEVEL: 'info',
  });
});
afterAll(async () => {
  await r?.stop();
  await up?.close();
});

/** One scrape: the value of each series by its full name with labels. */
async function scrape(): Promise<(series: string) => number | undefined> {
  const res = await fetch(r.url.replace(/\/mcp$/, '/metrics'));
  expect(res.status).toBe(200);
  const text = await res.text();
  return (series) => {
    const m = new RegExp(`^${series.replace(/[{}"=,.]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
    return m?.[1] !== undefined ? Number(m[1]) : undefined;
  };
}

const TOOL_SUM = 'api_catalog_tool_call_duration_seconds_sum{tool="execute_tool"}';
const TOOL_COUNT = 'api_catalog_tool_call_duration_seconds_count{tool="execute_tool"}';
const UP_SUM = 'api_catalog_upstream_request_duration_seconds_sum{catalog="petstore",method="GET"}';
const UP_COUNT = 'api_catalog_upstream_request_duration_seconds_count{catalog="petstore",method="GET"}';

describe('api_catalog_upstream_request_duration_seconds', () => {
  test('records the upstream request, not the tool call, and only for calls that went upstream', async () => {
    const sent = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 } });
    expect(sent.envelope.success, JSON.stringify(sent.envelope)).toBe(true);
    const first = await scrape();
    expect(first(TOOL_COUNT)).toBe(1);
    expect(first(UP_COUNT)).toBe(1);
    const upstream = first(UP_SUM) as number;
    const call = first(TOOL_SUM) as number;
    expect(upstream).toBeGreaterThan(0);
    // The one call's upstream request is a part of it (the call also checked its rate limit and arguments first):
    // the two values differ. Recording the call's time as the upstream time made them equal.
    expect(upstream).toBeLessThan(call);

    // Calls that never went upstream add to the tool-call histogram only.
    const dry = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 }, dry_run: true });
    expect(dry.envelope.value.dry_run).toBe(true);
    const unknown = await modernCall(r.url, 'execute_tool', { tool_name: 'no.such', args: {} });
    expect(unknown.envelope.error.code).toBe('UNKNOWN_TOOL');
    const second = await scrape();
    expect(second(TOOL_COUNT)).toBe(3);
    expect(second(UP_COUNT)).toBe(1);
    expect(second(UP_SUM)).toBe(upstream);
    expect(up.hits('/pets/7')).toHaveLength(1);
  });
});

describe('a call the execution layer refuses before sending', () => {
  test('AUTH_MISSING: audited with dispatched false, and no upstream request in the metrics', async () => {
    const before = await scrape();
    const audits = events(r.stderr(), 'audit').length;
    // store.inventory needs PETSTORE_API_KEY, which this replica does not have: refused while building the request.
    const refused = await modernCall(r.url, 'execute_tool', { tool_name: 'store.inventory', args: {} });
    expect(refused.envelope.error.code).toBe('AUTH_MISSING');
    await until(() => events(r.stderr(), 'audit').length === audits + 1, 'the audit line');
    const line = events(r.stderr(), 'audit')[audits];
    expect(line).toMatchObject({ outcome: 'AUTH_MISSING', tool: 'store.inventory', method: 'GET', path: '/store/inventory', dispatched: false });
    expect(line).not.toHaveProperty('upstream_status');
    const after = await scrape();
    expect(after('api_catalog_tool_calls_total{tool="execute_tool",outcome="AUTH_MISSING"}')).toBe(1);
    expect(after(TOOL_COUNT)).toBe((before(TOOL_COUNT) ?? 0) + 1);
    // Not an upstream call: no status-class "none" sample, no upstream time.
    expect(after('api_catalog_upstream_requests_total{catalog="petstore",method="GET",status_class="none"}')).toBeUndefined();
    expect(after(UP_COUNT)).toBe(before(UP_COUNT));
    expect(after(UP_SUM)).toBe(before(UP_SUM));
    expect(up.hits('/store/inventory')).toEqual([]);
  });
});

describe('a tools/call the SDK schema refuses', () => {
  test('legacy session, no params: -32602 in one line naming params.name', async () => {
    const s = await openSession(r.url);
    const reply = await rpc(r.url, s, { jsonrpc: '2.0', id: 7, method: 'tools/call' });
    expect(reply.msg.error).toEqual({ code: -32602, message: 'Invalid tools/call request: params.name is required (the request has no params)' });
    const wrongType = await rpc(r.url, s, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 5 } });
    expect(wrongType.msg.error).toEqual({ code: -32602, message: 'Invalid tools/call request: params.name: expected string, received number' });
  });

  test('2026-07-28, params without a name: -32602 in one line naming params.name', async () => {
    const reply = await modernRpc(r.url, 'tools/call', {});
    expect(reply.msg.error.code).toBe(-32602);
    expect(reply.msg.error.message).toBe('Invalid tools/call request: params.name is required');
  });
});

describe('mcp_refused', () => {
  test('names the era the headers claim: a legacy session id with a body that is no JSON-RPC message is legacy', async () => {
    const s = await openSession(r.url);
    const before = events(r.stderr(), 'mcp_refused').length;
    // Only the session header: no protocol version, and a body without "jsonrpc".
    const legacy = await rpc(r.url, undefined, { id: 9, method: 'tools/list' }, { 'mcp-session-id': s.id });
    expect(legacy.status).toBe(400);
    await until(() => events(r.stderr(), 'mcp_refused').length === before + 1, 'the refusal to be logged');
    expect(events(r.stderr(), 'mcp_refused')[before]).toMatchObject({ era: 'legacy', message: expect.stringMatching(/not a valid JSON-RPC message/) });
    // The same body claiming 2026-07-28 by its header is modern.
    const modern = await rpc(r.url, undefined, { id: 10, method: 'tools/list' }, { 'mcp-protocol-version': '2026-07-28' });
    expect(modern.status).toBe(400);
    await until(() => events(r.stderr(), 'mcp_refused').length === before + 2, 'the second refusal to be logged');
    expect(events(r.stderr(), 'mcp_refused')[before + 1]).toMatchObject({ era: 'modern' });
  });
});

describe('the audit line of a call refused before it ran', () => {
  test('STATE_UNAVAILABLE (the state store is down) names the operation the call named', async () => {
    // A replica whose Redis does not exist: it starts (unready) and refuses execute_tool before anything runs.
    const down = await startReplica(
      ['--registry', fixtureRegistry('petstore'), '--no-require-describe', '--state', `redis://127.0.0.1:${await freePort()}`],
      { PETSTORE_BASE_URL: up.url, API_CATALOG_LOG_LEVEL: 'info' },
      { healthy: false },
    );
    try {
      const refused = await modernCall(down.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 } });
      expect(refused.envelope.error.code).toBe('STATE_UNAVAILABLE');
      await until(() => events(down.stderr(), 'audit').length === 1, 'the audit line');
      expect(events(down.stderr(), 'audit')[0]).toMatchObject({ outcome: 'STATE_UNAVAILABLE', tool: 'pets.get', catalog: 'petstore', method: 'GET', path: '/pets/{petId}', dispatched: false });
    } finally {
      await down.kill();
    }
  });
});
