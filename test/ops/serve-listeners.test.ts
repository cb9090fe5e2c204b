// `serve` adds process listeners (SIGHUP for reloads, SIGTERM/SIGINT for the drain) and, once it returns, takes them
// away again: a process that starts and stops it more than once (a test, an embedding) is left with the listeners
// it had. Before, the SIGHUP listener (and the shutdown ones) stayed after the stop, one more of each per cycle.
// In a fresh Node process that runs the built `serve --http` in process, stopped by a real SIGTERM; it reports the
// listener counts before, while serving and after. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';
import { events, until } from './helpers.js';

const SCRIPT = `
import { run } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'cli', 'serve.js')).href)};
const count = () => Object.fromEntries(['SIGHUP', 'SIGINT', 'SIGTERM'].map((s) => [s, process.listenerCount(s)]));
const before = count();
let during;
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  if (during === undefined && String(chunk).includes('"event":"serve"')) during = count();
  return write(chunk, ...rest);
};
const code = await run(['--http', '--port', '0']);
process.stdout.write(JSON.stringify({ before, during, after: count(), code }) + '\\n');
process.exit(0);
`;

test('serve --http run in process: its SIGHUP, SIGTERM and SIGINT listeners are gone once it returned', async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await until(() => events(stderr, 'serve').length > 0 || child.exitCode !== null, 'the server to listen');
    child.kill('SIGTERM');
    expect(await exited, stderr).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report).toEqual({
      before: { SIGHUP: 0, SIGINT: 0, SIGTERM: 0 },
      during: { SIGHUP: 1, SIGINT: 1, SIGTERM: 1 },
      after: { SIGHUP: 0, SIGINT: 0, SIGTERM: 0 },
      code: 0,
    });
    expect(events(stderr, 'exit')).toEqual([expect.objectContaining({ reason: 'shutdown', code: 0 })]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});
