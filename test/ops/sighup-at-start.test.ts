// SIGHUP while `serve` is still loading its registries (ops audit, defect 6), with a real process and a real signal:
// before, no listener was installed until the catalogs were loaded, so the signal ended the process (exit 129,
// nothing logged) — a replica starting while `systemctl reload` or a deploy script sent SIGHUP to every replica
// died. Now serve listens from its first moment: the reload asked for is logged and applied, and the server serves.
// The registry is made slow to read on purpose: its diagnostics.json is a FIFO, so the load blocks until this test
// writes it, and the signal is sent while the server is provably inside that read (the FIFO is open at both ends).
// Also, in process: a SIGHUP that comes before there is anything to reload is kept and applied once serving.
// Needs `npm run build`.
import { spawn, spawnSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { ReloadSignal } from '../../src/cli/serve-reload.js';
import { createLogger } from '../../src/logger.js';
import type { LiveCatalogs } from '../../src/server/core/reload.js';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from './helpers.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');

afterEach(() => {
  process.removeAllListeners('SIGHUP');
});

test('SIGHUP while the registries are being read: the process lives, logs the request, serves and reloads', async () => {
  const root = tempDir('ac-sighup-start-');
  const imported = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', 'shop', '--out', join(root, 'reg')], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(imported.status, imported.stderr).toBe(0);
  const dir = join(root, 'reg', 'shop');
  const slow = join(dir, 'diagnostics.json');
  rmSync(slow);
  expect(spawnSync('mkfifo', [slow]).status).toBe(0);

  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', '--registry', dir], {
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_WATCH_JITTER_SECONDS: '0', SHOP_BASE_URL: 'http://127.0.0.1:9' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    // opening the FIFO for writing completes once the server has opened it to read: it is loading its registry now
    const writer = await open(slow, 'w');
    expect(stderr).not.toContain('api-catalog: serving');
    child.kill('SIGHUP');
    // later reads (the reload) find a plain file; the server's open FIFO gets its content and the end
    writeFileSync(join(root, 'diagnostics.json'), '[]\n');
    renameSync(join(root, 'diagnostics.json'), slow);
    await writer.writeFile('[]\n');
    await writer.close();

    await until(() => stderr.includes('api-catalog: serving') || child.exitCode !== null || child.signalCode !== null, 'the server to serve');
    expect(child.signalCode, stderr).toBeNull();
    expect(child.exitCode, stderr).toBeNull();
    expect(events(stderr, 'reload_requested')).toEqual([expect.objectContaining({ signal: 'SIGHUP' })]);
    await until(() => events(stderr, 'catalog_reloaded').length === 1, 'the reload the signal asked for');
    expect(events(stderr, 'catalog_reloaded')[0]).toMatchObject({ trigger: 'signal', changed: false });
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}, 60_000);

test('a SIGHUP before anything can reload is kept, said once a logger exists, and applied once the server serves', async () => {
  const signal = new ReloadSignal();
  process.emit('SIGHUP', 'SIGHUP');
  const lines: Array<Record<string, unknown>> = [];
  signal.useLogger(createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) }));
  expect(lines).toEqual([expect.objectContaining({ event: 'reload_requested', signal: 'SIGHUP', note: expect.stringContaining('during start-up') })]);
  const asked: string[] = [];
  signal.reloads({ reload: async (trigger: string) => void asked.push(trigger) } as unknown as LiveCatalogs);
  expect(asked).toEqual([]);
  signal.applyPending();
  signal.applyPending();
  expect(asked).toEqual(['signal']);
  // from now on a SIGHUP reloads at once
  process.emit('SIGHUP', 'SIGHUP');
  expect(asked).toEqual(['signal', 'signal']);
  expect(lines.filter((l) => l.event === 'reload_requested')).toHaveLength(3);
});
