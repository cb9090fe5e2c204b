// The --search-log file on a full disk, end to end with a real `serve --http` process (the audit log's counterpart
// is audit-log-files.test.ts): the file-size limit (RLIMIT_FSIZE, set on the server with prlimit: the short write
// and then failing writes of a full disk, EFBIG, without root) cuts one line short and fails the next whole; every
// search still answers; the failure is logged once (search_log_write_failed), the first write that works again logs
// search_log_write_recovered with the number of lines lost, the torn line stays alone on its line, and a later
// failure is logged again. Needs `npm run build`; prlimit (util-linux).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { freePort } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from './helpers.js';

function prlimit(args: string[]): void {
  const r = spawnSync('prlimit', args, { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) throw new Error(`prlimit ${args.join(' ')} failed (${r.error?.message ?? r.stderr}): install util-linux`);
}

async function search(url: string, query: string): Promise<void> {
  const r = await modernCall(url, 'search_tools', { query });
  expect(r.envelope?.success, JSON.stringify(r.envelope)).toBe(true);
  expect(r.envelope.value.results.length).toBeGreaterThan(0);
}

test('a full disk: searches go on; one failure line, then the recovery line with the lines lost; the torn line stays alone; a later failure is logged again', async () => {
  const dir = tempDir('ac-search-log-full-');
  const file = join(dir, 'search.jsonl');
  // What was there before: the file-size limit is set 40 bytes past it, inside the first search line.
  const before = `${JSON.stringify({ type: 'note', text: 'written before the server started' })}\n`;
  writeFileSync(file, before, { mode: 0o600 });
  const limit = Buffer.byteLength(before) + 40;
  const port = await freePort();
  const child = spawn(
    'prlimit',
    [`--fsize=${limit}:unlimited`, process.execPath, builtCli(), 'serve', '--http', '--port', String(port), '--registry', fixtureRegistry('petstore'), '--index-cache', 'off', '--search-log', file],
    { cwd: REPO_ROOT, env: { ...(process.env as Record<string, string>), API_CATALOG_READ_RATE_LIMIT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (d: Buffer) => (log += d.toString('utf8')));
  child.stdout.on('data', (d: Buffer) => (log += d.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status).catch(() => 0)) === 200 || child.exitCode !== null, 'the server to be ready');
    expect(child.exitCode, log).toBeNull();
    // The first line is cut after 40 bytes, the next two fail whole; every search answers.
    for (const q of ['list pets', 'find pet by id', 'create a pet']) await search(url, q);
    expect(events(log, 'search_log_write_failed')).toEqual([expect.objectContaining({ level: 'warn', file, error: 'EFBIG' })]);
    expect(events(log, 'search_log_write_recovered')).toEqual([]);
    // Space is back.
    prlimit(['--pid', String(child.pid), '--fsize=unlimited:unlimited']);
    for (const q of ['delete a pet', 'update a pet']) await search(url, q);
    expect(events(log, 'search_log_write_recovered')).toEqual([expect.objectContaining({ level: 'warn', file, lost: 3 })]);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(before)).toBe(true);
    const lines = text.slice(before.length).split('\n');
    expect(lines.at(-1)).toBe('');
    // the torn part alone on its line, then whole lines only: the searches after the recovery
    expect(lines[0]).toHaveLength(40);
    expect(lines[0]).toMatch(/^\{"type":"search",/);
    expect(() => JSON.parse(lines[0] as string)).toThrow();
    expect(lines.slice(1, -1).map((l) => (JSON.parse(l) as { query: string }).query)).toEqual(['delete a pet', 'update a pet']);
    // A later failure is reported again (the file is at its limit again: the next write fails whole).
    prlimit(['--pid', String(child.pid), `--fsize=${statSync(file).size}:unlimited`]);
    await search(url, 'list pets');
    expect(events(log, 'search_log_write_failed')).toHaveLength(2);
    expect(events(log, 'search_log_write_recovered')).toHaveLength(1);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
});
