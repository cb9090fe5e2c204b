// The stdio probe of v2 clients (pinned to 2026-07-28 or `auto`): `server/discover` on a process the client then
// disposes of. The built CLI answers it before loading the server (src/cli/probe.ts, src/server/discover.ts) with
// exactly the full server's answer, exits when the probe is disposed of, and hands anything else to the full server.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { builtCli, MODERN_VERSION, REPO_ROOT } from '../helpers/mcp.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'probe-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const discover = (id: number, meta: Record<string, unknown> = META) => ({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: meta } });
const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } });

/** The built server over raw stdio: send lines, await answers by id, see stderr and the exit. */
function serve(args: string[] = [], env: Record<string, string> = {}) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [builtCli(), 'serve', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info', ...env },
  });
  let out = '';
  let err = '';
  const waiting = new Map<number, (msg: any) => void>();
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    let i: number;
    while ((i = out.indexOf('\n')) >= 0) {
      const msg = JSON.parse(out.slice(0, i));
      out = out.slice(i + 1);
      waiting.get(msg.id)?.(msg);
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    exited,
    stderr: () => err,
    send: (msg: unknown) => child.stdin.write(JSON.stringify(msg) + '\n'),
    answer: (id: number) => new Promise<any>((resolve) => waiting.set(id, resolve)),
  };
}

describe('the stdio probe (server/discover before the server loads)', () => {
  test('answered exactly as the full server answers it, without loading the server; the probe exits when its stdin ends', async () => {
    const probe = serve();
    const fast = probe.answer(7);
    probe.send(discover(7));
    const quick = await fast;
    probe.child.stdin.end();
    expect(await probe.exited).toEqual({ code: 0, signal: null });
    // nothing of the server ran: no catalog was loaded, no serve line logged
    expect(probe.stderr()).not.toMatch(/serving|"event":"serve"/);

    // the full server's answer: discover after a 2026-07-28 request opened the connection
    const full = serve();
    const listed = full.answer(1);
    full.send(toolsList(1));
    expect((await listed).result.tools).toHaveLength(4);
    const answered = full.answer(8);
    full.send(discover(8));
    const slow = await answered;
    full.child.stdin.end();
    await full.exited;
    expect(full.stderr()).toMatch(/serving/);
    expect(quick).toEqual({ ...slow, id: 7 });
    expect(quick.result.supportedVersions).toEqual([MODERN_VERSION]);
  }, 60_000);

  test('a probe disposed of with SIGTERM (as the SDK client does) exits 0', async () => {
    const probe = serve();
    const answered = probe.answer(1);
    probe.send(discover(1));
    expect((await answered).result.instructions).toMatch(/search_tools/);
    probe.child.kill('SIGTERM');
    expect(await probe.exited).toEqual({ code: 0, signal: null });
  });

  test('a process that goes on after its discover becomes the full server (the rest of the input is not lost)', async () => {
    const s = serve();
    const first = s.answer(1);
    const second = s.answer(2);
    // both lines in one write: the second arrives with the first
    s.child.stdin.write(`${JSON.stringify(discover(1))}\n${JSON.stringify(toolsList(2))}\n`);
    expect((await first).result.supportedVersions).toEqual([MODERN_VERSION]);
    expect((await second).result.tools.map((t: { name: string }) => t.name)).toContain('search_tools');
    // and one line later, after the probe's answer
    const third = s.answer(3);
    s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'create an issue' }, _meta: META } });
    expect((await third).result.structuredContent.success).toBe(true);
    s.child.stdin.end();
    expect((await s.exited).code).toBe(0);
  }, 60_000);

  test('anything but a well-formed 2026-07-28 discover goes to the full server: another version, a legacy opening, input that ends at once', async () => {
    // another revision: the full server's UnsupportedProtocolVersionError, which names what it speaks
    const other = serve();
    const refused = other.answer(1);
    other.send(discover(1, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }));
    expect((await refused).error?.data?.supported).toEqual([MODERN_VERSION]);
    other.child.stdin.end();
    await other.exited;
    expect(other.stderr()).toMatch(/serving/);

    // a legacy client's whole session written at once and stdin closed: every line answered
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const input = [init, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }].map((m) => JSON.stringify(m)).join('\n') + '\n';
    const r = spawnSync(process.execPath, [builtCli(), 'serve'], { cwd: REPO_ROOT, input, encoding: 'utf8', env: { ...process.env, API_CATALOG_LOG_LEVEL: 'error' } });
    expect(r.status, r.stderr).toBe(0);
    const ids = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids).toEqual([1, 2]);
  }, 60_000);

  test('a tool prefix (which the instructions name) leaves discover to the full server', async () => {
    const s = serve(['--prefix', 'gh_']);
    const answered = s.answer(1);
    s.send(discover(1));
    expect((await answered).result.instructions).toMatch(/gh_search_tools/);
    s.child.stdin.end();
    await s.exited;
    expect(s.stderr()).toMatch(/serving/);
  }, 60_000);

  test.each([
    ['--no-require-describe', ['--no-require-describe'], {}],
    ['API_CATALOG_NO_REQUIRE_DESCRIBE=1', [], { API_CATALOG_NO_REQUIRE_DESCRIBE: '1' }],
  ] as const)('describe-before-execute turned off (%s; the instructions then do not claim it) leaves discover to the full server', async (_, args, env) => {
    const s = serve([...args], env);
    const answered = s.answer(1);
    s.send(discover(1));
    const { instructions } = (await answered).result;
    expect(instructions).toMatch(/^How to use this API/);
    expect(instructions).not.toMatch(/TOOL_DESCRIPTION_REQUIRED|cannot execute/);
    s.child.stdin.end();
    await s.exited;
    expect(s.stderr()).toMatch(/serving/);
  }, 60_000);

  test.each(['pinned', 'auto'] as const)('an SDK client (%s) connects through its probe and searches', async (mode) => {
    const client = new Client({ name: 'probe-test', version: '1' }, { versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: MODERN_VERSION } } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [builtCli(), 'serve'], cwd: REPO_ROOT, stderr: 'ignore' }));
    try {
      expect((await client.listTools()).tools).toHaveLength(4);
      const r = await client.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
      expect(JSON.stringify(r.structuredContent)).toContain('issues_create');
    } finally {
      await client.close();
    }
  }, 60_000);
});
