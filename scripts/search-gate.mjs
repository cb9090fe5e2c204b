#!/usr/bin/env node
// `npm run search:baseline` (this script with --write): measures every query set of the repository as the
// search-quality gate does (src/search/gate.ts) and writes test/fixtures/search/gate/baseline.jsonl, whose git diff shows
// every query that moved. Without --write it prints each run before -> after, the moved queries and what the gate
// would say (exit 1 when it fails), a quick check while working: the same check as the gate in `npm test`, so a
// baseline run that no set measures any more (a set deleted or renamed) fails too. Run after `npm run build`. Options:
//   --write          record this run as the baseline
//   --sets <re>      only the sets whose name matches (no writing, no whole-baseline checks then)
//   --moved          list every moved query, not only those of failing runs
// SEARCH_GATE_DIST=<dist> ranks with another build's SearchIndex (an A/B against an older checkout's dist/).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--write', '--sets', '--moved']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({ options: { write: { type: 'boolean', default: false }, sets: { type: 'string' }, moved: { type: 'boolean', default: false } } });
const dist = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
const firstLine = (err) => String(err?.message ?? err).split('\n')[0];
let gate, files, SearchIndex;
try {
  [gate, files, { SearchIndex }] = await Promise.all([dist('search/gate.js'), dist('search/gate-files.js'), dist('search/index.js')]);
} catch (err) {
  process.stderr.write(`search-gate: dist/ is missing or stale (${firstLine(err)}); run \`npm run build\` first\n`);
  process.exit(1);
}
const other = process.env.SEARCH_GATE_DIST;
if (other) {
  const entry = resolve(other, 'search', 'index.js');
  try {
    ({ SearchIndex } = await import(pathToFileURL(entry).href));
  } catch (err) {
    process.stderr.write(`search-gate: SEARCH_GATE_DIST=${other}: cannot load ${entry} (${firstLine(err)}); point it at another build's dist/ folder, with its node_modules beside it\n`);
    process.exit(1);
  }
}
// API_CATALOG_SEMANTIC_DIR=<dir> ranks with a learned build (npm run learn -- --out <dir>), as every command does
if (process.env.API_CATALOG_SEMANTIC_DIR) {
  try {
    (await dist('search/semantic.js')).useSemanticDir(process.env.API_CATALOG_SEMANTIC_DIR);
  } catch (err) {
    process.stderr.write(`search-gate: ${err.message}\n`);
    process.exit(1);
  }
}
if (opts.write && opts.sets !== undefined) {
  process.stderr.write('search-gate: --write records every set; drop --sets\n');
  process.exit(2);
}
let filter;
try {
  filter = opts.sets === undefined ? undefined : new RegExp(opts.sets);
} catch (err) {
  process.stderr.write(`search-gate: --sets ${JSON.stringify(opts.sets)} is not a regular expression (${firstLine(err)})\n`);
  process.exit(2);
}
/** A set file or catalog the gate cannot read (AppError: the message names the file and line) is one line, exit 1. */
function fail(err) {
  if (err?.name !== 'AppError') throw err;
  process.stderr.write(`search-gate: ${err.message.replace(/^(eval|search gate): /, '')}\n`);
  process.exit(1);
}
const indexes = new Map();
const indexFor = (catalog) => {
  let have = indexes.get(catalog);
  if (!have) {
    const { operations, domains } = files.readGateCatalog(root, catalog);
    have = { index: SearchIndex.build(operations, domains), operations };
    indexes.set(catalog, have);
  }
  return have;
};
const started = performance.now();
let querySets, runs, results;
try {
  querySets = files.readQuerySets(root);
  runs = querySets.filter((s) => !filter || filter.test(s.set)).flatMap((s) => gate.gateRuns(s.set, s.queries));
  results = runs.map((r) => gate.measureRun(r, indexFor));
} catch (err) {
  fail(err);
}
if (filter && runs.length === 0) {
  process.stderr.write(`search-gate: --sets ${JSON.stringify(opts.sets)} matches no set of the ${querySets.length} (${querySets.slice(0, 3).map((x) => x.set).join(', ')}${querySets.length > 3 ? ', ...' : ''}: the file names without .jsonl)\n`);
  process.exit(2);
}
const file = join(root, files.BASELINE_FILE);
if (opts.write) {
  writeFileSync(file, gate.formatBaseline(results));
  process.stderr.write(`search-gate: wrote ${files.BASELINE_FILE} (${results.length} runs, ${results.reduce((n, r) => n + r.queries.length, 0)} queries, ${((performance.now() - started) / 1000).toFixed(1)} s); \`git diff\` shows the queries that moved\n`);
  process.exit(0);
}
let baseline;
try {
  baseline = gate.parseBaseline(readFileSync(file, 'utf8'));
} catch (err) {
  process.stderr.write(`search-gate: ${err.message}; record one with \`npm run search:baseline\`\n`);
  process.exit(1);
}
const checks = results.map((r) => gate.checkRun(r, baseline.get(r.run)));
// as the gate in npm test: the baseline holds exactly the runs measured (a run of a deleted or renamed set fails)
const measured = new Set(results.map((r) => r.run));
const orphans = filter ? [] : [...baseline.keys()].filter((run) => !measured.has(run)).sort();
const f3 = (x) => x.toFixed(3);
const m = (x) => (x ? `${f3(x.r1)} / ${f3(x.r5)} / ${f3(x.mrr)}` : '-');
const width = Math.max(...checks.map((c) => c.run.length));
console.log(`${'run'.padEnd(width)}  baseline R@1 / R@5 / MRR  ->  now                    moved`);
for (const c of checks) {
  const up = c.moved.filter((x) => gate.reciprocalRank(x.after) > gate.reciprocalRank(x.before)).length;
  console.log(`${c.run.padEnd(width)}  ${m(c.before).padEnd(23)}  ->  ${m(c.after).padEnd(23)}${c.moved.length ? `${up} up, ${c.moved.length - up} down` : ''}${c.failure ? '  FAILS' : ''}`);
  if (opts.moved && c.moved.length > 0) console.log(gate.movedLines(c.moved).join('\n'));
}
// pooled by group: tuning or held-out (specs.json heldOut, and test/fixtures/eval), the user's words or agent calls
const heldOut = files.heldOutCatalogs(root);
const sets = new Map(querySets.map((x) => [x.set, x]));
const groupOf = (run) => files.gateGroup(sets.get(run.set), run.name, heldOut);
const groups = new Map();
runs.forEach((run, k) => {
  const g = groupOf(run);
  const entry = groups.get(g) ?? { before: [], after: [] };
  entry.after.push(...results[k].queries);
  entry.before.push(...(baseline.get(run.name) ?? []));
  groups.set(g, entry);
});
console.log('');
for (const [g, e] of [...groups].sort()) console.log(`${g.padEnd(width)}  ${m(gate.runMetrics(e.before)).padEnd(23)}  ->  ${m(gate.runMetrics(e.after))}  (${e.after.length})`);
const overall = filter ? undefined : gate.checkOverall(checks, baseline, results);
if (overall) console.log(`\nall runs: mean MRR@10 change ${overall.point.toFixed(4)} [${overall.lo.toFixed(4)}, ${overall.hi.toFixed(4)}]`);
const failures = [
  ...checks.map((c) => c.failure),
  ...orphans.map((run) => `${run}: in ${files.BASELINE_FILE} but no query set gives this run (its set was deleted or renamed); record the baseline again with \`npm run search:baseline\``),
  overall?.failure,
].filter(Boolean);
for (const f of failures) console.log(`\nFAIL ${f}`);
process.stderr.write(`search-gate: ${results.length} runs in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(failures.length > 0 ? 1 : 0);
