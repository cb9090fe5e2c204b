// The command that runs this same CLI from where the user is, for the next steps a command prints ("serve it:
// ..."). `api-catalog` is on PATH only once the package is installed (npm install -g, npm link); in a clone it is
// not, and `api-catalog serve` printed there is a command that does not exist. docs/CLI.md says which is printed when.
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, relative, sep } from 'node:path';
import { packageRoot } from '../registry/catalog.js';
import { shellWord } from './shell.js';

/** Whether `dir` holds an executable `api-catalog` (`api-catalog.cmd` on Windows). */
function hasCli(dir: string): boolean {
  for (const name of process.platform === 'win32' ? ['api-catalog.cmd', 'api-catalog.exe'] : ['api-catalog']) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/**
 * How to run this CLI from `cwd`, first of:
 * - `api-catalog`: an `api-catalog` on PATH outside npm's own folders (a global install, `npm link`, a wrapper);
 * - `npx api-catalog`: one only in a project's node_modules/.bin (npm puts it on PATH for `npm run` and `npx`; `npx`
 *   finds it again from that project);
 * - `node <this package>/dist/cli/index.js`, relative to `cwd` when the package is below it (a clone:
 *   `node dist/cli/index.js`), else absolute (npx's temporary install of a tarball is gone once it exits, so its
 *   `api-catalog` does not count).
 */
export function selfCommand(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd(), root: string = packageRoot()): string {
  let inProject = false;
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '' || !hasCli(dir)) continue;
    const parts = dir.split(/[\\/]+/);
    if (parts.includes('_npx')) continue; // npx's temporary install
    if (parts.at(-1) === '.bin' && parts.at(-2) === 'node_modules') {
      inProject = true;
      continue;
    }
    return 'api-catalog';
  }
  if (inProject) return 'npx api-catalog';
  const entry = join(root, 'dist', 'cli', 'index.js');
  const rel = relative(cwd, entry);
  const shown = rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel) ? rel.split(sep).join('/') : entry;
  return `node ${shellWord(shown)}`;
}
