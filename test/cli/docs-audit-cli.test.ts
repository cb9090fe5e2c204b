// Docs audit #5 and #6, with the built CLI as a user runs it:
// - #5: `token` takes --verbose, as the top-level help says every command does;
// - #6: `eval --save` says "cannot write <path> (--save): <why>" (exit 1) when the write is refused, also where
//   access() would pass (root), and when the final write fails after the run (/dev/full: ENOSPC on write).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/registry/catalog.js';
import { builtCli } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

const cli = (args: string[]) => runProcess(process.execPath, [builtCli(), ...args], { env: { PATH: process.env.PATH ?? '' } });
const TINY = join(packageRoot(), 'test', 'fixtures', 'search', 'registry', 'tiny');

describe('#5: token accepts --verbose', () => {
  it('makes the token as without it', async () => {
    const r = await cli(['token', 'new', 'ci-bot', '--scopes', 'catalog:read', '--verbose']);
    expect(r.status, r.stderr).toBe(0);
    const [token, line] = r.stdout.trim().split('\n');
    expect(token).toMatch(/^\S{20,}$/);
    expect(line).toMatch(/^ci-bot catalog:read sha256:[0-9a-f]{64}$/);
  });
});

describe('#6: eval --save, a refused write', () => {
  const queries = join(tempDir('ac-eval-save-'), 'q.jsonl');
  writeFileSync(queries, JSON.stringify({ catalog: 'tiny', query: 'create an issue', expect: ['issues/create'] }) + '\n');

  it('a place where no file can be made fails before the run, naming the path, even where access() passes (root)', async () => {
    // procfs: access(W_OK) on /proc passes for root, but no file can be created there
    const r = await cli(['eval', queries, '--registry', TINY, '--save', '/proc/ac-eval-save.json']);
    expect(r.status).toBe(1);
    // ENOENT for root (the open itself fails); EACCES for another user
    expect(r.stderr).toMatch(/^api-catalog: eval: cannot write \/proc\/ac-eval-save\.json \(--save\): (the file system there does not allow new files \(ENOENT\)|permission denied \(EACCES\))\n$/);
    expect(r.stdout).toBe('');
  });

  it('a named pipe nobody reads is refused at once (the check used to block on it forever); a dangling link is named as one', async () => {
    const dir = tempDir('ac-eval-save-odd-');
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await cli(['eval', queries, '--registry', TINY, '--save', fifo]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`api-catalog: eval: cannot write ${fifo} (--save): `);
    expect(r.stderr).toContain('(ENXIO)');
    const link = join(dir, 'link.json');
    symlinkSync(join(dir, 'missing', 'target.json'), link);
    const l = await cli(['eval', queries, '--registry', TINY, '--save', link]);
    expect(l.status).toBe(2);
    expect(l.stderr).toContain(`cannot write ${link} (--save): it is a symbolic link to a file that does not exist`);
  });

  it('a write that fails after the run (a full disk) is "cannot write", exit 1, not an unexpected error', async () => {
    const r = await cli(['eval', queries, '--registry', TINY, '--save', '/dev/full']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('api-catalog: eval: cannot write /dev/full (--save): no space left on the device (ENOSPC)\n');
  });

  it('the early check leaves nothing behind, and a good path is written', async () => {
    const dir = tempDir('ac-eval-save-ok-');
    const out = join(dir, 'run.json');
    const r = await cli(['eval', queries, '--registry', TINY, '--save', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(readdirSync(dir)).toEqual(['run.json']);
  });
});
