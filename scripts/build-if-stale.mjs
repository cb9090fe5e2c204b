// Builds (npm run build) only when dist/ is missing or older than what it is built from, so `npm start`,
// `npm run import`, `npm test` and the other scripts start at once on a current build and never run a stale one.
// Inputs: every file and folder under src/ (a deleted file changes its folder's time), the tsconfigs,
// package.json, package-lock.json and scripts/postbuild.mjs. Output: dist/cli/index.js, the build's last write.
// Usage: node scripts/build-if-stale.mjs [--check]   (--check: exit 1 when stale, build nothing)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--check']);

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUTPUT = join(ROOT, 'dist', 'cli', 'index.js');
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', join('scripts', 'postbuild.mjs')];

/** The newest modification time (ms) under `path` and the file or folder that has it. */
function newest(path, best = { ms: 0, path: '' }) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return best;
  }
  if (st.mtimeMs > best.ms) best = { ms: st.mtimeMs, path };
  if (st.isDirectory()) for (const name of readdirSync(path)) best = newest(join(path, name), best);
  return best;
}

/** Why dist/ must be rebuilt, or undefined when it is current. */
export function staleReason(root = ROOT) {
  let built;
  try {
    built = statSync(join(root, 'dist', 'cli', 'index.js')).mtimeMs;
  } catch {
    return 'dist/ has no build yet';
  }
  let latest = newest(join(root, 'src'));
  for (const f of INPUTS) latest = newest(join(root, f), latest);
  return latest.ms > built ? `${relative(root, latest.path)} is newer than the build in dist/` : undefined;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const why = staleReason();
  if (why === undefined) process.exit(0);
  if (process.argv.includes('--check')) {
    process.stderr.write(`build: ${why}; run npm run build\n`);
    process.exit(1);
  }
  process.stderr.write(`build: ${why}; building (npm run build)\n`);
  const npm = process.env.npm_execpath;
  const r = npm !== undefined && npm.endsWith('.js')
    ? spawnSync(process.execPath, [npm, 'run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  // OUTPUT is written last by the build; a clock that ran backwards would leave it older than a source.
  if (staleReason() !== undefined) process.stderr.write(`build: ${OUTPUT} is still older than a source file; check the system clock\n`);
}
