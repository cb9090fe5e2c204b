// stdio, both eras on one entry: spawns the built CLI (`npm run build` first; CI does) and opens each connection
// the way a client of that era does (2026-07-28: requests with their _meta envelope; legacy: initialize). Every
// stdout line is JSON-RPC (C1), garbage lines are answered and the session goes on (C3: the answers themselves in
// stdio-per-request.test.ts), a frame over 10 MiB exits 1 with a stderr
// message (C4), stdin EOF exits 0 quickly (C5, also with a call in flight), SIGTERM during a slow upstream call
// aborts it and exits 0 (C6); and the SDK stdio client of each era runs the flow, a destructive call confirmed.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { spawnStdioServe, type StdioLines } from '../helpers/stdio-lines.js';
import { until } from '../helpers/timing.js';
import { ERAS, MODERN_VERSION, builtCli, call, describeHandle, fixtureRegistry, newClient, type Era } from '../helpers/mcp.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});
afterEach(() => up.clear());

function env(extra: Record<string, string> = {}): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) e[k] = v;
  return { ...e, PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', ...extra };
}

type Proc = StdioLines;

/** The built serve over stdio, raw lines (test/helpers/stdio-lines.ts), upstream and rate limit as this file needs. */
function spawnServer(extraEnv: Record<string, string> = {}): Proc {
  return spawnStdioServe(env(extraEnv));
}

/** The describe handle of `name` in a describe_tools answer (in the example call, or beside the name). */
function handleIn(answer: Record<string, any>, name: string): string {
  const entry = (answer.result?.structuredContent?.value?.tools as Array<Record<string, any>> | undefined)?.find((t) => t.name === name);
  const handle = entry?.example?.handle ?? entry?.handle;
  if (typeof handle !== 'string') throw new Error(`no handle for ${name} in ${JSON.stringify(answer).slice(0, 300)}`);
  return handle;
}

/** The 2026-07-28 per-request envelope. */
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe.each(ERAS)('stdio, %s opening', (era: Era) => {
  /** Opens the connection: legacy with initialize + initialized, modern with server/discover (its _meta envelope). */
  async function initialize(p: Proc): Promise<void> {
    if (era === 'modern') {
      p.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
      const r = await p.response(1);
      expect(r.result.supportedVersions).toEqual([MODERN_VERSION]);
      return;
    }
    p.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await p.response(1);
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** A request of this era (modern: with the envelope in params._meta). */
  const request = (id: number, method: string, params: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method,
    params: era === 'modern' ? { ...params, _meta: META } : params,
  });
  const tool = (id: number, name: string, args: unknown) => request(id, 'tools/call', { name, arguments: args });

  describe('stdio', () => {
    test('C1/C3: a full session with error paths and garbage lines; every stdout line is JSON-RPC 2.0', async () => {
      up.route('/pets/500', { kind: 'status', status: 500, body: '<html>boom</html>', headers: { 'content-type': 'text/html' } });
      const p = spawnServer();
      await initialize(p);
      p.send('this is not json');
      p.send({ jsonrpc: '1.0', id: 99, method: 'ping' });
      p.send('[]');
      p.send(tool(2, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }));
      p.send(tool(3, 'describe_tools', { tool_names: ['pets.get', 'nope'] }));
      // the describe answer's handle, as its instruction tells agents (a 2026-07-28 connection remembers nothing)
      const handle = handleIn(await p.response(3), 'pets.get');
      p.send(tool(4, 'execute_tool', { tool_name: 'pets.get', args: { petId: 'x' }, handle }));
      p.send(tool(5, 'execute_tool', { tool_name: 'pets.get', args: { petId: 500 }, handle }));
      p.send(tool(6, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 }, handle }));
      p.send(request(7, 'resources/read', { uri: 'resource:///tool_descriptions?tools=' }));
      const codes: Array<string | undefined> = [];
      for (const id of [2, 3, 4, 5, 6]) {
        const r = await p.response(id);
        codes.push(r.result.structuredContent.success ? 'ok' : r.result.structuredContent.error.code);
      }
      expect(codes[0]).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect(codes[1]).toBe('ok');
      expect(codes[2]).toBe('INVALID_ARGUMENTS');
      expect(codes[3]).toMatch(/^UPSTREAM_/);
      expect(codes[4]).toBe('ok');
      expect((await p.response(7)).error.message).toMatch(/MISSING_TOOL_SELECTION/);
      p.child.stdin.end();
      expect((await p.exited).code).toBe(0);
      // every stdout line parses as JSON (messages() fails the test otherwise) and is JSON-RPC
      for (const msg of p.messages()) expect(msg.jsonrpc).toBe('2.0');
      // Logs are JSON lines on stderr: one per tool call, with outcome and code.
      const logs = p.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
      const calls = logs.filter((l) => l.event === 'tool_call');
      // Lines are written as calls finish, so compare as a multiset.
      expect(calls.map((l) => String(l.code ?? l.outcome)).sort()).toEqual(codes.map(String).sort());
      const sent = calls.filter((l) => l.tool === 'execute_tool' && l.dispatched === true);
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatchObject({ target: 'pets.get' });
      expect(typeof sent[0]?.durationMs).toBe('number');
      expect(logs.some((l) => l.event === 'authorize' && l.tools.includes('pets.get'))).toBe(true);
    });

    // C5's "within about a second" / "within 2 s" is a number for `npm run bench` (server.mjs, "stdin EOF -> exit");
    // here the behaviour: EOF alone ends the process, with exit 0, and does not wait for the call in flight.
    test('C5: closing stdin exits 0', async () => {
      const p = spawnServer();
      await initialize(p);
      p.child.stdin.end();
      const { code } = await p.exited;
      expect(code).toBe(0);
    });

    test('C5: closing stdin while execute_tool waits on a stalled upstream exits 0 at once, without waiting for the call, and aborts the upstream request', async () => {
      up.route('/pets/78', { kind: 'stall' });
      // Upstream timeouts far beyond the test's: the only way out of the stalled call is the EOF.
      const p = spawnServer({ API_CATALOG_TIMEOUT_MS: '3600000' });
      await initialize(p);
      p.send(tool(2, 'describe_tools', { tool_names: ['pets.get'] }));
      const handle = handleIn(await p.response(2), 'pets.get');
      p.send(tool(3, 'execute_tool', { tool_name: 'pets.get', args: { petId: 78 }, handle }));
      await until(() => up.hits('/pets/78').length > 0, 'the upstream request');
      expect(up.hits('/pets/78')).toHaveLength(1);
      expect(up.hits('/pets/78')[0]?.aborted).toBe(false);
      p.child.stdin.end();
      const { code } = await p.exited;
      expect(code).toBe(0);
      // the call never answered: the process ended on the EOF, not on an upstream answer or timeout
      expect(p.messages().some((m) => m.id === 3)).toBe(false);
      await until(() => up.hits('/pets/78')[0]?.aborted === true, 'the upstream request to be aborted');
    });

    test('C6: SIGTERM during a slow upstream call aborts it and exits 0', async () => {
      up.route('/pets/77', { kind: 'stall' });
      // A short drain grace: the call stalls for ever, so the grace runs out and the call is aborted (the
      // default 25 s grace would only make the test wait; test/ops covers the drain itself).
      const p = spawnServer({ API_CATALOG_SHUTDOWN_GRACE_SECONDS: '1' });
      await initialize(p);
      p.send(tool(2, 'describe_tools', { tool_names: ['pets.get'] }));
      const handle = handleIn(await p.response(2), 'pets.get');
      p.send(tool(3, 'execute_tool', { tool_name: 'pets.get', args: { petId: 77 }, handle }));
      await until(() => up.hits('/pets/77').length > 0, 'the upstream request');
      expect(up.hits('/pets/77')).toHaveLength(1);
      p.child.kill('SIGTERM');
      const { code } = await p.exited;
      expect(code).toBe(0);
      await until(() => up.hits('/pets/77')[0]?.aborted === true, 'the upstream request to be aborted');
      expect(up.hits('/pets/77')[0]?.aborted).toBe(true);
    });

    test('C4: one stdin line over 10 MiB -> stderr message and exit 1, never a hang', async () => {
      const p = spawnServer();
      await initialize(p);
      p.child.stdin.write('"' + 'a'.repeat(10 * 1024 * 1024 + 16));
      const { code } = await p.exited;
      expect(code).toBe(1);
      expect(p.stderr()).toMatch(/stdio_frame_too_large/);
      for (const m of p.messages()) expect(m.jsonrpc).toBe('2.0');
    });

    test('L3: the SDK stdio client runs search -> describe -> dry run -> execute -> a destructive call confirmed by the user', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [builtCli(), 'serve', '--registry', fixtureRegistry('petstore')],
        env: env(),
        stderr: 'pipe',
      });
      const client = newClient(era, { elicitation: {} }, 'stdio-test');
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', (req) => {
        asked.push(req.params.message);
        return { action: 'accept', content: { confirm: true } };
      });
      await client.connect(transport);
      try {
        expect(client.getProtocolEra()).toBe(era);
        const s = await call(client, 'search_tools', { query: 'list pets' });
        expect(s.value.results[0].name).toBe('pets.list');
        const handle = await describeHandle(client, 'pets.list');
        const dry = await call(client, 'execute_tool', { tool_name: 'pets.list', args: { limit: 2 }, dry_run: true, handle });
        expect(dry.value.request.url).toBe(`${up.url}/pets?limit=2`);
        const before = up.requests.length;
        // A legacy connection remembers the describe (the handle is optional there); a 2026-07-28 one remembers
        // nothing, so its client passes the handle, as the describe answer's instruction says.
        const r = await call(client, 'execute_tool', { tool_name: 'pets.list', args: { limit: 2 }, ...(era === 'modern' ? { handle } : {}) });
        expect(r.success).toBe(true);
        const deleteHandle = await describeHandle(client, 'pets.delete');
        const del = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 31 }, ...(era === 'modern' ? { handle: deleteHandle } : {}) });
        expect(del.success, JSON.stringify(del)).toBe(true);
        expect(asked).toEqual(['Allow the destructive API call pets.delete (DELETE /pets/31)?']);
        expect(up.requests.slice(before).map((q) => `${q.method} ${q.url}`)).toEqual(['GET /pets?limit=2', 'DELETE /pets/31']);
      } finally {
        await client.close();
      }
    });
  });
});

test('stdio: an opening that claims a version we do not speak gets -32022 naming every version; a good opening follows', async () => {
  const p = spawnServer();
  p.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
  const future = await p.response(1);
  expect(future.error.code).toBe(-32022);
  // data.supported: what server/discover advertises (a modern client retries with one of these)
  expect(future.error.data).toEqual({ supported: [MODERN_VERSION], requested: '2099-01-01' });
  expect(future.error.message).toMatch(/"2099-01-01": this server speaks 2026-07-28 \(every request carrying its _meta\) and, after an initialize handshake, 2025-11-25, .*2024-10-07$/);
  p.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
  expect((await p.response(2)).result.tools).toHaveLength(4);
  p.child.stdin.end();
  expect((await p.exited).code).toBe(0);
});
