// Signals while the CLI itself is still loading, before any of `serve`'s code runs (the 0.1-0.3 s after Node starts):
// before, nothing listened yet, so a SIGTERM ended the process without a word and a SIGHUP killed it (exit 129). Now the
// entry (src/cli/index.ts) notes them and serve acts on them as on any signal during its start-up
// (src/cli/early-signals.ts). The signal is sent at one fixed point of the load, with no clock involved: a module
// loader hook (node --import, module.register) sends it to the process when the CLI's main chunk is requested, after
// the entry ran and before the CLI's code. Real processes and real signals. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from './helpers.js';

let register: string;
beforeAll(() => {
  const dir = tempDir('ac-early-signals-');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `export async function load(url, context, next) {
  if (/\\/cli\\/chunks\\/main-[^/]*\\.js$/.test(url)) process.kill(process.pid, process.env.EARLY_SIGNAL);
  return next(url, context);
}
`,
  );
  register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
});

/** `serve` over stdio, with `signal` sent as the CLI's main chunk loads; stdin stays open until `end()`. */
function serveWithEarly(signal: 'SIGTERM' | 'SIGINT' | 'SIGHUP') {
  const child = spawn(process.execPath, ['--import', register, builtCli(), 'serve'], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info', EARLY_SIGNAL: signal },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, s) => resolve({ code, signal: s })));
  return { child, stderr: () => stderr, exited, end: () => child.stdin.end() };
}

test.each(['SIGTERM', 'SIGINT'] as const)('%s while the CLI loads: "stopped during start-up", exit 0 (not killed without a word)', async (signal) => {
  const s = serveWithEarly(signal);
  const exit = await s.exited;
  expect(exit, s.stderr()).toEqual({ code: 0, signal: null });
  expect(events(s.stderr(), 'exit')).toEqual([expect.objectContaining({ reason: 'stopped during start-up', signal, code: 0 })]);
});

test('SIGHUP while the CLI loads: the process lives, serves, and applies the reload once serving', async () => {
  const s = serveWithEarly('SIGHUP');
  try {
    await until(() => events(s.stderr(), 'catalog_reloaded').length > 0 || s.child.exitCode !== null, 'the reload asked for during start-up');
    expect(s.child.exitCode, s.stderr()).toBeNull();
    expect(events(s.stderr(), 'reload_requested').map((e) => e.note)).toEqual([
      'during start-up, before the catalogs are served: applied once the server serves',
      'asked for during start-up; applied now that the server serves',
    ]);
    expect(events(s.stderr(), 'catalog_reloaded')).toEqual([expect.objectContaining({ trigger: 'signal' })]);
  } finally {
    s.end();
  }
  expect(await s.exited).toEqual({ code: 0, signal: null });
});
