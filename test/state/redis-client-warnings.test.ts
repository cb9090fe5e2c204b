// The plain-text warnings ioredis writes with console.warn on a connection's handshake become one JSON log line of
// ours (event state_store_warning), once, not a line of text at each reconnection that breaks a JSON log pipeline
// (audit ops50 defect 6 handled the ready check's; closing50 left these). Against a real redis-server and the built
// CLI: a Redis without HELLO (as Redis 5 or a proxy) given a password it does not need, and a Redis in protected
// mode (no password) that refuses a client off its loopback interface, whose ioredis warning wrongly says a password
// was supplied. A third test reads ioredis's source: every console.warn/console.error it has is either routed here
// or one the store cannot reach, so an ioredis upgrade that adds one fails here.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { CLIENT_WARNINGS } from '../../src/state/redis-client-warnings.js';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { freePort, startRedis, type TestRedis } from '../helpers/redis.js';
import { events, until } from '../ops/helpers.js';

const PASSWORD = 'pw-Unneeded-Password-5151';
const children: ChildProcess[] = [];
const servers: TestRedis[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const r of servers.splice(0)) await r.close();
});

/** `serve --http` on a free port with this state store URL; everything it writes, and its /readyz. */
async function serve(state: string): Promise<{ child: ChildProcess; port: number; out: () => string; exited: Promise<number | null>; ready: () => Promise<boolean> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', String(port), '--registry', fixtureRegistry('petstore')], {
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), API_CATALOG_STATE: state },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = async () => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      await res.text();
      return res.status === 200;
    } catch {
      return false;
    }
  };
  return { child, port, out: () => out, exited, ready };
}

/** Every line is JSON but the lines for people (`api-catalog:` and the banner's indented ones); no ioredis text. */
function expectJsonLogsOnly(out: string): void {
  expect(out).not.toMatch(/\[WARN\]|\[ERROR\]|\[ioredis\]|does not require a password/);
  for (const line of out.split('\n').filter((l) => l !== '' && !l.startsWith('api-catalog:') && !l.startsWith(' '))) {
    expect(() => JSON.parse(line), line).not.toThrow();
  }
}

test('a password for a Redis that needs none: one JSON warning line, once for all reconnections, never the password', async () => {
  // a Redis without HELLO (Redis 5, or a proxy): ioredis falls back to AUTH, which the nopass default user answers
  const redis = await startRedis({ args: ['--rename-command', 'HELLO', '""'] });
  servers.push(redis);
  const r = await serve(`redis://:${PASSWORD}@127.0.0.1:${redis.port}/0`);
  await until(r.ready, 'readyz 200');
  // the store's and the signals connection's handshakes, then both again after a reconnection
  await redis.command('CLIENT', 'KILL', 'TYPE', 'normal');
  await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');
  await until(() => events(r.out(), 'state_store_up').length >= 2, 'the store reconnected');
  await until(r.ready, 'readyz 200 again');
  r.child.kill('SIGTERM');
  expect(await r.exited, r.out()).toBe(0);
  const out = r.out();
  expectJsonLogsOnly(out);
  const warnings = events(out, 'state_store_warning');
  expect(warnings, out).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ level: 'warn', store: 'redis', reason: 'password-not-required' });
  expect(warnings[0]?.detail).toMatch(/needs none \(nopass\).*set requirepass/);
  expect(out).not.toContain(PASSWORD);
}, 60_000);

/** An IPv4 address of this machine other than loopback (protected mode refuses clients from one). */
function nonLoopbackAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;
}

const address = nonLoopbackAddress();

test.skipIf(address === undefined)('protected mode refusing a client off loopback: one JSON warning naming protected mode, not "a password was supplied"', async () => {
  const redis = await startRedis({ args: ['--bind', address!, '127.0.0.1', '--protected-mode', 'yes'] });
  servers.push(redis);
  const r = await serve(`redis://${address}:${redis.port}/0`);
  await until(() => events(r.out(), 'state_store_warning').length >= 1, 'the warning line');
  // it keeps reconnecting (about once a second), each refused the same way: wait for two more refusals (Redis counts
  // them as rejected_connections; the INFO calls go over loopback, which protected mode lets in)
  const rejected = async () => Number(/rejected_connections:(\d+)/.exec(String(await redis.command('INFO', 'stats')))?.[1]);
  const first = await rejected();
  await until(async () => (await rejected()) >= first + 2, 'two more refused connections');
  expect(await r.ready()).toBe(false);
  // readiness names the refusal, not a TLS port (the reset that follows it; whether Redis's DENIED reply or the reset
  // reaches the client first depends on timing, and each reconnection is classified afresh)
  const readyz = async (): Promise<string> => (await fetch(`http://127.0.0.1:${r.port}/readyz`)).text();
  await until(async () => /protected mode/.test(await readyz()), 'readyz naming protected mode');
  expect(await readyz()).not.toMatch(/speaks TLS/);
  r.child.kill('SIGTERM');
  await r.exited;
  const out = r.out();
  expectJsonLogsOnly(out);
  const warnings = events(out, 'state_store_warning');
  expect(warnings, out).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ reason: 'no-password-set' });
  // no password in the URL: protected mode is the one reading, and the fix is named
  expect(warnings[0]?.detail).toMatch(/protected mode/);
  expect(warnings[0]?.detail).not.toMatch(/5 or older/);
}, 60_000);

test("every console.warn / console.error in ioredis is routed, or one the store cannot reach", () => {
  const root = join(REPO_ROOT, 'node_modules', 'ioredis', 'built');
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : n.endsWith('.js') ? [join(dir, n)] : []));
  // unreachable, with why (redis-client-warnings.ts, CLIENT_WARNINGS): the ready check is off on both connections, RESP3
  // reply mapping is not asked for, both connections listen for errors, and index.js's Promise/print are not used
  const unreachable = ['Skipping the ready check', '[WARN] replyMapping "resp3"', '[ioredis] Unhandled error event', 'ioredis v5 does not support plugging', 'Error: ', 'Reply: '];
  const found: string[] = [];
  for (const file of walk(root)) {
    const code = readFileSync(file, 'utf8').split('\n').filter((l) => !/^\s*(\*|\/\/)/.test(l)).join('\n');
    for (const m of code.matchAll(/console\.(?:warn|error|log)\(\s*(["'`])((?:\\.|(?!\1).)*)/g)) found.push(m[2] as string);
  }
  expect(found.length).toBeGreaterThan(0);
  const unknown = found.filter((text) => !CLIENT_WARNINGS.some(([prefix]) => prefix.startsWith(text.slice(0, prefix.length)) || text.startsWith(prefix)) && !unreachable.some((u) => text.startsWith(u)));
  expect(unknown).toEqual([]);
});
