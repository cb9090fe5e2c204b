// stdio, the era rules after the opening message (audit proto51, defects 1, 5, 7 and 8), against the built CLI over
// raw stdin lines (`npm run build` first), HTTP answers taken from a real `serve --http`:
// - a subscriptions/listen is no call in flight: SIGTERM exits at once, whether the subscription is open (it gets
//   its graceful end) or the client cancelled it (nothing more is sent for it). Before, it held the drain for the
//   whole grace (a grace of an hour here, far past the test's timeout).
// - a later request with a malformed envelope on a 2026-07-28 connection is refused naming the key, as over HTTP.
// - a handshake connection refuses a request that claims a protocol version (2026-07-28 or one we do not speak)
//   instead of serving it under the handshake's rules.
// - an initialize on a connection a 2026-07-28 request opened is refused (-32022) with a message that says why and
//   what to do (a new process), not one saying that the handshake it refuses is spoken.
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { fixtureRegistry, MODERN_VERSION } from '../helpers/mcp.js';
import { rpc } from '../helpers/mcp-raw.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { spawnStdioServe, type StdioLines } from '../helpers/stdio-lines.js';
import { until } from '../helpers/timing.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
let http: Replica;
beforeAll(async () => {
  up = await startUpstream();
  http = await startReplica(['--registry', fixtureRegistry('petstore')], { PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0' });
});
afterAll(async () => {
  await http?.stop();
  await up?.close();
});

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-era-rules', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const INITIALIZE = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const modern = (id: number, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = META) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });

const serve = (env: Record<string, string> = {}): StdioLines => spawnStdioServe({ PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', ...env });

function logLines(p: StdioLines): Array<Record<string, any>> {
  return p
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe('stdio, 2026-07-28: subscriptions/listen and the shutdown drain (an hour of grace)', () => {
  const drained = (): StdioLines => {
    const p = serve({ API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_SHUTDOWN_GRACE_SECONDS: '3600' });
    // a process still draining when the test gave up would wait out the hour
    onTestFinished(() => {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    });
    return p;
  };

  test('an open subscription does not hold the drain: SIGTERM exits at once, the subscription gets its graceful end', async () => {
    const p = drained();
    p.send(modern(1, 'tools/list'));
    expect((await p.response(1)).result.tools).toHaveLength(4);
    p.send(modern(2, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    await until(() => p.messages().some((m) => m.method === 'notifications/subscriptions/acknowledged'), 'the acknowledgement');
    p.child.kill('SIGTERM');
    expect((await p.exited).code).toBe(0);
    const logs = logLines(p);
    expect(logs.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', inFlight: 0 });
    expect(logs.filter((l) => l.event === 'drain_timeout')).toEqual([]);
    // the spec's graceful close of a subscription: its (only) result, at close
    expect(p.messages().find((m) => m.id === 2)?.result).toMatchObject({ resultType: 'complete' });
  }, 30_000);

  test('a subscription the client cancelled is finished: SIGTERM exits at once and nothing more is sent for it', async () => {
    const p = drained();
    p.send(modern(1, 'tools/list'));
    await p.response(1);
    p.send(modern(2, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    await until(() => p.messages().some((m) => m.method === 'notifications/subscriptions/acknowledged'), 'the acknowledgement');
    p.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, _meta: META } });
    // a fence: the entry takes messages in order, so the cancellation was handled once this is answered
    p.send(modern(3, 'tools/list'));
    await p.response(3);
    p.child.kill('SIGTERM');
    expect((await p.exited).code).toBe(0);
    expect(logLines(p).find((l) => l.event === 'shutdown')).toMatchObject({ inFlight: 0 });
    expect(logLines(p).filter((l) => l.event === 'drain_timeout')).toEqual([]);
    expect(p.messages().some((m) => m.id === 2)).toBe(false);
  }, 30_000);
});

describe('stdio, 2026-07-28: a later request with a malformed envelope is refused as over HTTP, naming the key', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['capabilities missing', { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'a', version: '1' } }, 'io.modelcontextprotocol/clientCapabilities'],
    ['clientInfo a string', { ...META, 'io.modelcontextprotocol/clientInfo': 'x' }, 'io.modelcontextprotocol/clientInfo'],
    ['elicitation a number', { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: 5 } }, 'io.modelcontextprotocol/clientCapabilities.elicitation'],
    ['an unknown log level', { ...META, 'io.modelcontextprotocol/logLevel': 'loud' }, 'io.modelcontextprotocol/logLevel'],
    ['the version a number', { ...META, 'io.modelcontextprotocol/protocolVersion': 20260728 }, 'io.modelcontextprotocol/protocolVersion'],
  ];

  test.each(cases)('%s: the HTTP answer (code, message, data.envelope), and the request is not served', async (_label, meta, key) => {
    const p = serve();
    p.send(modern(1, 'tools/list'));
    expect((await p.response(1)).result.tools).toHaveLength(4);
    const body = modern(2, 'tools/list', {}, meta);
    p.send(body);
    const stdio = await p.response(2);
    const overHttp = await rpc(http.url, undefined, body, { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' });
    expect(overHttp.status).toBe(400);
    expect(stdio.result).toBeUndefined();
    expect(stdio.error).toEqual(overHttp.msg.error);
    expect(stdio.error).toMatchObject({ code: -32602, data: { envelope: { key } } });
    expect(stdio.error.message).toContain(key);
    expect((await p.end()).code).toBe(0);
  });

  test('a request without _meta: -32602 naming what is missing (data.envelope.missing, as over HTTP)', async () => {
    const p = serve();
    p.send(modern(1, 'tools/list'));
    await p.response(1);
    const body = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    p.send(body);
    const stdio = await p.response(2);
    const overHttp = await rpc(http.url, undefined, body, { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' });
    expect(stdio.error).toMatchObject({ code: -32602, data: overHttp.msg.error.data });
    expect(stdio.error.data).toEqual({ envelope: { missing: ['_meta'] } });
    expect((await p.end()).code).toBe(0);
  });
});

describe('stdio, a connection opened with initialize: a request claiming a protocol version is refused, not served', () => {
  test.each(['2026-07-28', '2099-01-01'])('claiming %s: -32600 naming both versions, nothing served; plain requests still are', async (claimed) => {
    const p = serve();
    p.send(INITIALIZE(1));
    expect((await p.response(1)).result.protocolVersion).toBe('2025-11-25');
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const meta = { ...META, 'io.modelcontextprotocol/protocolVersion': claimed };
    p.send(modern(2, 'tools/list', {}, meta));
    p.send(modern(3, 'tools/call', { name: 'list_domains', arguments: {} }, meta));
    for (const id of [2, 3]) {
      const refused = await p.response(id);
      expect(refused.result).toBeUndefined();
      expect(refused.error.code).toBe(-32600);
      // HTTP's words for the same body in a legacy session, with the connection where HTTP names the header
      expect(refused.error.message).toContain(`the body envelope names protocol version ${claimed} but this connection negotiated 2025-11-25 with initialize`);
      expect(refused.error.data).toMatchObject({ mismatch: { connection: '2025-11-25' } });
    }
    p.send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
    expect((await p.response(4)).result.tools).toHaveLength(4);
    expect((await p.end()).code).toBe(0);
  });

  test('a connection opened by a request without an envelope (no handshake) says so, not that it negotiated', async () => {
    const p = serve();
    p.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect((await p.response(1)).result.tools).toHaveLength(4);
    p.send(modern(2, 'tools/list'));
    const refused = await p.response(2);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toContain('its opening request carried no 2026-07-28 envelope');
    expect(refused.error.message).not.toContain('negotiated');
    expect((await p.end()).code).toBe(0);
  });
});

describe('stdio, initialize on a connection a 2026-07-28 request opened', () => {
  test('after a failed 2026-07-28 opener the connection stays 2026-07-28: initialize gets -32022 saying why and to start a new process', async () => {
    const p = serve();
    // the opener is a 2026-07-28 request (its envelope is valid); its failure does not change the era it chose
    p.send(modern(1, 'tools/call', { name: 'nope', arguments: {} }));
    expect((await p.response(1)).error.code).toBe(-32602);
    p.send(INITIALIZE(2));
    const refused = (await p.response(2)).error;
    expect(refused).toMatchObject({ code: -32022, data: { supported: [MODERN_VERSION], requested: '2025-11-25' } });
    expect(refused.message).not.toMatch(/after an initialize handshake/);
    expect(refused.message).toMatch(/^Unsupported protocol version "2025-11-25" on this connection: it speaks 2026-07-28 .*opening request/);
    expect(refused.message).toMatch(/start one and send initialize as its first message$/);
    // and it goes on serving its era
    p.send(modern(3, 'tools/list'));
    expect((await p.response(3)).result.tools).toHaveLength(4);
    expect((await p.end()).code).toBe(0);
  });

  test('an opener the entry refuses (a malformed envelope, a version we do not speak) chooses nothing: initialize then works', async () => {
    for (const meta of [{ ...META, 'io.modelcontextprotocol/clientInfo': 42 }, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }]) {
      const p = serve();
      p.send(modern(1, 'tools/list', {}, meta));
      expect((await p.response(1)).error).toBeDefined();
      p.send(INITIALIZE(2));
      expect((await p.response(2)).result.protocolVersion).toBe('2025-11-25');
      expect((await p.end()).code).toBe(0);
    }
  });
});
