// A throwaway checkout for running the repository's contributor scripts (eval:sets, learn, search:check,
// search:fixtures, docs --check) on inputs a test chooses. Each script finds the repository root from its own file,
// so scripts/ and dist/ are copied (a script's root, where it reads the query sets and specs.json and writes .cache/,
// is then the scratch folder, never this checkout); node_modules and the committed registries are linked;
// test/fixtures/search holds only the specs.json, sets and catalog fixtures the test gives. Removed with the test file.
import { copyFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './mcp.js';
import { tempDir } from './temp.js';

export interface ScratchInputs {
  /** test/fixtures/search/specs.json. */
  specs: { heldOut?: string[]; openapiDirectory?: Record<string, string>; inRepo?: Record<string, string>; registries?: Record<string, string> };
  /** Files to copy from this checkout, by their repository path (the same path in the scratch). */
  copy?: string[];
  /** Files to write, by repository path. */
  files?: Record<string, string>;
}

/** An environment in which npm can reach no registry and has nothing cached: an install fails at once, offline. */
export function offlineNpmEnv(root: string): NodeJS.ProcessEnv {
  return { ...process.env, npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(root, '.npm-cache'), npm_config_update_notifier: 'false' };
}

/** Makes the scratch checkout; returns its root. Needs a current build (dist/). */
export function scratchCheckout(prefix: string, inputs: ScratchInputs): string {
  const root = tempDir(prefix);
  for (const dir of ['scripts', 'dist']) cpSync(join(REPO_ROOT, dir), join(root, dir), { recursive: true });
  copyFileSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  for (const dir of ['node_modules', 'registry']) symlinkSync(join(REPO_ROOT, dir), join(root, dir));
  for (const dir of ['test/fixtures/search/catalogs', 'test/fixtures/search/gate', 'test/fixtures/eval']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'test/fixtures/search/specs.json'), JSON.stringify(inputs.specs, null, 2));
  for (const path of inputs.copy ?? []) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    copyFileSync(join(REPO_ROOT, path), join(root, path));
  }
  for (const [path, text] of Object.entries(inputs.files ?? {})) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
