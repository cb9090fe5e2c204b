// `serve --http --state redis://…` start-up refusals through the built CLI, against a real redis-server: a replica
// that cannot listen (port in use, an address this machine does not have) exits 1 with its one line, as without a
// store (the Redis connections, the token watcher and the timers it opened are closed, nothing holds the process);
// a password with a raw `%` is refused with what to do, never echoed; an ACL user that may not run INFO gets JSON log
// lines only (no plain-text warning from the Redis client), and the replica still becomes ready.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { freePort, startRedis, type TestRedis } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../ops/helpers.js';

const PASSWORD = 'pw-Start-Refusal-5150';

let redis: TestRedis;
const children: ChildProcess[] = [];

beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
});
afterEach(() => {
  // a process that never exited (the defect) must not outlive its test
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  await redis?.close();
});

/** Starts `serve` with the args and env; resolves with the exit code and everything it wrote once it exits. */
function serve(args: string[], env: Record<string, string>): { child: ChildProcess; out: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [builtCli(), 'serve', '--registry', fixtureRegistry('petstore'), ...args], {
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

test('with a Redis state store, a port in use stops the start: exit 1, one line naming the port', async () => {
  const port = await freePort();
  const busy = await listenOn(port);
  try {
    const r = serve(['--http', '--port', String(port)], { API_CATALOG_STATE: redis.url });
    // (the test's timeout is the bound: before the fix the process printed the line and never exited)
    expect(await r.exited, r.out()).toBe(1);
    expect(r.out()).toMatch(new RegExp(`port ${port} is already in use on 127\\.0\\.0\\.1`));
    expect(r.out()).not.toContain(PASSWORD);
  } finally {
    busy.close();
  }
}, 30_000);

test('with a Redis state store and a tokens file, an address this machine does not have stops the start: exit 1', async () => {
  const dir = tempDir('ac-refusal-');
  const tokens = join(dir, 'tokens.txt');
  writeFileSync(tokens, 'ci-robot catalog:read sha256:' + 'ab'.repeat(32) + '\n', { mode: 0o600 });
  const port = await freePort();
  // 192.0.2.0/24 is TEST-NET-1: never an address of this machine
  const r = serve(['--http', '--host', '192.0.2.10', '--allow-remote', '--port', String(port)], { API_CATALOG_STATE: redis.url, API_CATALOG_TOKENS_FILE: tokens });
  expect(await r.exited, r.out()).toBe(1);
  expect(r.out()).toMatch(/192\.0\.2\.10 is not an address of this machine/);
  expect(r.out()).not.toContain(PASSWORD);
}, 30_000);

test('a password with a raw % is refused with how to encode it, never echoed', async () => {
  const secret = 's3cret%zzpassw0rd';
  for (const [args, env] of [
    [['--http', '--port', '0'], { API_CATALOG_STATE: `redis://:${secret}@127.0.0.1:${redis.port}/0` }],
    [['--http', '--port', '0', '--state', `redis://user%:${secret}@127.0.0.1:${redis.port}/0`], {}],
  ] as const) {
    const r = serve([...args], env);
    expect(await r.exited, r.out()).toBe(1);
    expect(r.out()).not.toMatch(/unexpected error|URI malformed/);
    expect(r.out()).toMatch(/api-catalog: config: the (password|user name) in the state store URL redis:\/\/\S+ has a `%` not followed by two hex digits; percent-encode `%` as `%25`/);
    expect(r.out().split('\n').filter((l) => l.startsWith('api-catalog:'))).toHaveLength(1);
    expect(r.out()).not.toContain('zzpassw0rd');
  }
}, 30_000);

test('an ACL user that may not run INFO: every log line is JSON (no plain-text client warning), and the replica becomes ready', async () => {
  const user = 'noinfo';
  const userPassword = 'pw-No-Info-User-31';
  await redis.command('ACL', 'SETUSER', user, 'on', `>${userPassword}`, '~ac:*', '&ac:*', '+@all', '-@dangerous', '+eval');
  const port = await freePort();
  const r = serve(['--http', '--port', String(port)], { API_CATALOG_STATE: `redis://${user}:${userPassword}@127.0.0.1:${redis.port}/0` });
  const ready = async () => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      await res.text();
      return res.status === 200;
    } catch {
      return false;
    }
  };
  await until(ready, 'readyz 200 with an ACL user without INFO');
  // Two more connections: each used to print the warning again.
  await redis.command('CLIENT', 'KILL', 'USER', user);
  await until(() => (r.out().match(/"event":"state_store_up"/g) ?? []).length >= 2, 'the store reconnected');
  await until(ready, 'readyz 200 again after the reconnect');
  r.child.kill('SIGTERM');
  expect(await r.exited, r.out()).toBe(0);
  const out = r.out();
  expect(out).not.toMatch(/Skipping the ready check|enableReadyCheck/);
  // the lines for people start with `api-catalog:` (the banner's go on indented); everything else is one JSON object
  for (const line of out.split('\n').filter((l) => l !== '' && !l.startsWith('api-catalog:') && !l.startsWith(' '))) {
    expect(() => JSON.parse(line), line).not.toThrow();
  }
  expect(out).not.toContain(userPassword);
}, 60_000);
