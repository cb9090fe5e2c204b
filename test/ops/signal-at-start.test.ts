// SIGTERM or SIGINT while `serve --http` is still starting (a real process, real signals): before, the process
// died of it without a word (no listener was installed until the banner). Now one line says the start was stopped,
// and the exit code is the one a stopped server has (0). Two moments: as soon as the process logs anything
// (its catalogs just loaded), and while it listens but waits for the state store's start-up verdict (a
// real redis-server stopped with SIGSTOP, so the verdict cannot come before the signal); then the calls it may have
// taken are drained first. No banner follows either. Needs `npm run build`.
import { spawn } from 'node:child_process';
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

interface Started {
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal: NodeJS.Signals) => void;
}

/**
 * `serve --http` on a free port (the embedded catalog), with its stderr collected; `onFirstLogLine` runs as soon as
 * its first log line arrives (its logger writes nothing before serve handles signals).
 */
function serve(args: string[], onFirstLogLine?: (s: Started) => void): Started {
  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const started: Started = {
    stderr: () => err,
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    kill: (signal) => child.kill(signal),
  };
  child.stdout.resume();
  let logging = false;
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString('utf8');
    if (logging || !err.includes('{"ts":')) return;
    logging = true;
    onFirstLogLine?.(started);
  });
  return started;
}

test.each(['SIGTERM', 'SIGINT'] as const)('%s at its first log line (start-up under way): one line says the start was stopped, exit 0', async (signal) => {
  const s = serve([], (started) => started.kill(signal));
  expect(await s.exited, s.stderr()).toEqual({ code: 0, signal: null });
  expect(events(s.stderr(), 'exit'), s.stderr()).toEqual([expect.objectContaining({ level: 'warn', reason: 'stopped during start-up', signal, code: 0 })]);
  expect(s.stderr()).not.toContain('api-catalog: serving');
});

test('SIGTERM while it listens and waits for a hung state store: drained, one line says the start was stopped, exit 0', async () => {
  redis.pause();
  try {
    const s = serve(['--state', redis.url]);
    await until(() => events(s.stderr(), 'serve').length > 0 || s.stderr().includes('api-catalog: serving'), 'the server to listen');
    // listening, and still waiting for the verdict: the stopped Redis cannot give one
    expect(s.stderr()).not.toContain('api-catalog: serving');
    s.kill('SIGTERM');
    expect(await s.exited, s.stderr()).toEqual({ code: 0, signal: null });
    expect(events(s.stderr(), 'exit'), s.stderr()).toEqual([expect.objectContaining({ level: 'warn', reason: 'stopped during start-up', drained: true, abandoned: 0, code: 0 })]);
    expect(s.stderr()).not.toContain('api-catalog: serving');
  } finally {
    redis.resume();
  }
});
