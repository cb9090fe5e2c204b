// Dumps the top 10 (name and score) of every query in the given JSONL sets, one line per query, so two builds
// of the search module can be compared byte for byte (`diff`). Agent-style lines ({query, keywords?, domain?})
// are also run with their domain. Catalogs: --registry dirs, registry/<c>, .cache/registry/<c> (run
// `api-catalog eval` on the same files first to import them). Usage:
//   node scripts/search-rankings.mjs [--dist <dir>] [--registry <dir>]... [--snapshot] <file.jsonl>... > out.txt
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--dist', '--registry', '--snapshot']);

const args = process.argv.slice(2);
let dist = 'dist';
let snapshot = false;
const registries = [];
const files = [];
for (let k = 0; k < args.length; k++) {
  if (args[k] === '--dist') dist = args[++k];
  else if (args[k] === '--registry') registries.push(args[++k]);
  else if (args[k] === '--snapshot') snapshot = true;
  else files.push(args[k]);
}
const load = (p) => import(pathToFileURL(resolve(dist, p)).href);
const { loadCatalog } = await load('registry/catalog.js');
const { SearchIndex } = await load('search/index.js');

const indexes = new Map();
function indexFor(catalog) {
  const have = indexes.get(catalog);
  if (have) return have;
  const dir = [...registries.filter((r) => basename(r) === catalog), join('registry', catalog), join('.cache', 'registry', catalog)]
    .find((d) => existsSync(join(d, 'catalog.json')));
  if (dir === undefined) throw new Error(`no registry for ${catalog}`);
  const c = loadCatalog(dir);
  let index = SearchIndex.build(c.operations, c.meta.domains);
  if (snapshot) index = SearchIndex.fromSnapshot(index.toSnapshot(), c.operations, c.meta.domains);
  indexes.set(catalog, index);
  return index;
}

const out = [];
for (const file of files) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const q = JSON.parse(line);
    const index = indexFor(q.catalog);
    const runs = [['', {}]];
    if (typeof q.domain === 'string') runs.push(['domain', { domain: q.domain }]);
    for (const [tag, options] of runs) {
      let text;
      try {
        const r = index.search(q.query, { limit: 10, ...options });
        text = `${r.total} ${r.results.map((h) => `${h.name}:${h.score}`).join(' ')}`;
      } catch (err) {
        text = `error ${err.code ?? err.message}`;
      }
      out.push(`${basename(file)}\t${q.catalog}\t${q.query}\t${tag}\t${text}`);
    }
  }
}
process.stdout.write(out.join('\n') + '\n');
