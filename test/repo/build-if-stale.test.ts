// scripts/build-if-stale.mjs: `npm start`, `npm run import`, `npm test` and the other scripts build only when dist/
// is missing or older than a source, a config or the lock file; a current build is used as it is. Checked on a
// scratch tree with set modification times, and on this checkout (npm test builds before the suite runs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const { staleReason } = (await import(join(REPO_ROOT, 'scripts', 'build-if-stale.mjs'))) as { staleReason(root?: string): string | undefined };

const root = tempDir('ac-stale-');

/** Writes `rel` and sets its time, and its folders' (changed by the write), to `t` seconds since the epoch. */
function file(rel: string, t: number): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), '');
  const parts = rel.split('/');
  for (let i = parts.length; i > 0; i--) utimesSync(join(root, ...parts.slice(0, i)), t, t);
}

describe('build-if-stale', () => {
  it('no dist/ yet: build', () => {
    file('src/a.ts', 1000);
    file('package.json', 1000);
    expect(staleReason(root)).toBe('dist/ has no build yet');
  });

  it('a build newer than every input is current; a newer source, config or lock file makes it stale', () => {
    file('dist/cli/index.js', 2000);
    expect(staleReason(root)).toBeUndefined();
    file('src/server/b.ts', 3000);
    expect(staleReason(root)).toMatch(/^src(\/server(\/b\.ts)?)? is newer than the build in dist\/$/);
    file('dist/cli/index.js', 4000);
    expect(staleReason(root)).toBeUndefined();
    file('package-lock.json', 5000);
    expect(staleReason(root)).toBe('package-lock.json is newer than the build in dist/');
    file('dist/cli/index.js', 6000);
    file('tsconfig.build.json', 7000);
    expect(staleReason(root)).toBe('tsconfig.build.json is newer than the build in dist/');
  });

  it('a deleted source file makes it stale (its folder changed)', () => {
    file('dist/cli/index.js', 8000);
    expect(staleReason(root)).toBeUndefined();
    unlinkSync(join(root, 'src', 'server', 'b.ts'));
    expect(staleReason(root)).toBe('src/server is newer than the build in dist/');
  });

  it('this checkout: the suite runs on a current build, and the script then builds nothing', () => {
    expect(staleReason(REPO_ROOT), 'npm test builds first; after changing src/ run npm run build before npx vitest').toBeUndefined();
    const before = statSync(join(REPO_ROOT, 'dist', 'cli', 'index.js')).mtimeMs;
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-if-stale.mjs')], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(statSync(join(REPO_ROOT, 'dist', 'cli', 'index.js')).mtimeMs).toBe(before);
  });
});
