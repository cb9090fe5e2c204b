// stdio hygiene across importer -> registry -> server: C2 (schema quirks that make a default Ajv warn — unknown
// formats, OAS keywords, a lookahead pattern — print nothing on stdout and no library warning on stderr), C7 (a
// missing credential is a clear isError naming the env var, 0 upstream, nothing on stdout) in both eras, C8 (a
// legacy tools/list before initialize is answered and the session still works) and E2 through the running server.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { envelope, importFixture, stdioDriver, threadHandles, type Message } from './helpers.js';

let up: Upstream;
let dir: string;
let importOutput: string;
beforeAll(async () => {
  up = await startUpstream();
  const r = importFixture(join(REPO_ROOT, 'test', 'fixtures', 'reliability', 'quirks.yaml'), 'quirks');
  dir = r.dir;
  importOutput = r.output;
});
afterAll(async () => {
  await up?.close();
});

/** Lines a library (Ajv, the SDK, swagger-parser) would print by itself; our logs are JSON lines. */
const LIBRARY_NOISE = /unknown format|strict mode|ignored in schema|console\.|Warning:|DeprecationWarning|at .*\.js:\d+/i;

test.each(ERAS)('C2/E2/C7: quirky schemas and a missing credential — stdout is only JSON-RPC, stderr has no library noise (%s era)', async (era) => {
  const d = await stdioDriver(['--registry', dir], { QUIRKS_BASE_URL: up.url }, era);
  const r: Record<string, Message> = {};
  try {
    // as an agent does: each execute_tool passes its describe handle (a 2026-07-28 connection remembers nothing)
    const agent = threadHandles(d);
    r.describe = await agent.tool('describe_tools', { tool_names: ['createPet', 'getSecret'], detail: 'full' });
    // Every quirky keyword is exercised by validation at run time (Ajv compiles the schema now).
    r.ok = await agent.tool('execute_tool', { tool_name: 'createPet', args: { kind: 'cat', id: 3, tag: 'x', code: 'AB1', blob: 'aGk=', size: 2, weight: null }, dry_run: true });
    r.bad = await agent.tool('execute_tool', { tool_name: 'createPet', args: { kind: 'cat', id: 0, code: 'ab1', size: 1.5 } });
    r.missingKey = await agent.tool('execute_tool', { tool_name: 'getSecret', args: { when: '2024-01-01T00:00:00Z' } });
  } finally {
    expect(await d.close()).toBe(0);
  }
  expect(envelope(r.describe as Message).success).toBe(true);
  expect(envelope(r.ok as Message).success).toBe(true);
  const bad = envelope(r.bad as Message);
  expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
  const paths = (bad.error?.details?.errors as Array<{ path: string }>).map((e) => e.path).sort();
  expect(paths).toEqual(expect.arrayContaining(['/id', '/size']));
  // C7: the missing credential is named, nothing is sent.
  const missing = envelope(r.missingKey as Message);
  expect(missing.error?.code).toBe('AUTH_MISSING');
  expect(JSON.stringify(missing.error)).toContain('QUIRKS_API_KEY');
  expect(up.requests).toHaveLength(0);
  // C1/C2: stdout is protocol only; stderr carries our JSON logs and the banner, never a library's own output.
  for (const line of d.capture.stdout.split('\n').filter((l) => l !== '')) expect((JSON.parse(line) as Message).jsonrpc).toBe('2.0');
  const noise = d.capture.stderr.split('\n').filter((l) => !l.startsWith('{') && LIBRARY_NOISE.test(l));
  expect(noise).toEqual([]);
  expect(importOutput.split('\n').filter((l) => LIBRARY_NOISE.test(l))).toEqual([]);
}, 60_000);

test('C8: tools/list before initialize is answered (SDK behaviour, kept), and a normal session follows', async () => {
  const child = spawn(process.execPath, [builtCli(), 'serve', '--registry', dir], { cwd: REPO_ROOT, env: { ...process.env, API_CATALOG_RATE_LIMIT: '0' } });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const waitFor = async (id: number): Promise<Message> => {
    // up to ~30 s: a deadline for a hang, generous for a loaded machine
    for (let i = 0; i < 3000; i++) {
      const hit = out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Message)
        .find((m) => m.id === id);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no response ${id}; stdout: ${out}`);
  };
  const send = (o: unknown): boolean => child.stdin.write(JSON.stringify(o) + '\n');
  send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const early = await waitFor(1);
  // Decision documented in docs/RELIABILITY-STATUS.md: the SDK answers; the answer is the same four tools.
  expect(early.result?.tools?.map((t: { name: string }) => t.name).sort()).toEqual(['describe_tools', 'execute_tool', 'list_domains', 'search_tools']);
  send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  expect((await waitFor(2)).result?.serverInfo).toBeDefined();
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'create a pet' } } });
  expect((await waitFor(3)).result?.structuredContent?.value?.results?.[0]?.name).toBe('createPet');
  child.stdin.end();
  expect(await exited).toBe(0);
}, 30_000);
