// SIGTERM while `serve --http` listens and waits for the state store's start-up verdict, and the verdict then is a
// refusal only the configuration can fix (a database the Redis does not have): the stop came first, so the stop wins.
// Before, the refusal broke into the drain and the process exited 1 ("the state store ... cannot be used") in the
// middle of it. Now the drain ends as for any stop during start-up: one exit line, "stopped during start-up", exit 0.
// A real process and real signals; a real redis-server stopped with SIGSTOP, so that its verdict cannot come before
// the signal, and resumed once the server drains. A request whose body has not all arrived yet keeps the drain open
// until the verdict is in the log (no clock involved). Needs `npm run build`.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { events, until } from './helpers.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  redis?.resume();
  await redis?.close();
});

/** Opens a POST /mcp and sends its headers only: the request is in flight until its body is sent. */
function halfSentRequest(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 2\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', reject);
    socket.resume();
  });
}

test('SIGTERM during the state store check, then the store is refused (a database it lacks): the stop wins, exit 0', async () => {
  redis.pause();
  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', '--state', `redis://127.0.0.1:${redis.port}/20`], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let socket: Socket | undefined;
  try {
    await until(() => events(stderr, 'serve').length > 0 || child.exitCode !== null, 'the server to listen');
    const port = Number(new URL(events(stderr, 'serve')[0]?.url as string).port);
    socket = await halfSentRequest(port);
    await until(async () => /^api_catalog_requests_in_flight 1$/m.test(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()), 'the request to be in flight');
    // listening, and still waiting for the verdict: the stopped Redis cannot give one
    expect(stderr).not.toContain('api-catalog: serving');
    child.kill('SIGTERM');
    await until(() => events(stderr, 'shutdown').length > 0, 'the drain to start');
    redis.resume();
    // the verdict: Redis refuses the database (a problem only the configuration can fix)
    await until(() => events(stderr, 'state_store_down').some((e) => e.reason === 'db'), 'Redis to refuse database 20');
    socket.end('{}');
    expect(await exited, stderr).toEqual({ code: 0, signal: null });
    expect(events(stderr, 'exit'), stderr).toEqual([expect.objectContaining({ level: 'warn', reason: 'stopped during start-up', drained: true, code: 0 })]);
    expect(stderr).not.toContain('api-catalog: serving');
    expect(stderr).not.toContain('cannot be used');
  } finally {
    socket?.destroy();
    redis.resume();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}, 60_000);
