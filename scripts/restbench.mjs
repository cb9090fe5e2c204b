#!/usr/bin/env node
// `npm run eval:restbench [-- --json] [--misses]`: RestBench (Song et al. 2023, "RestGPT"; MIT) per-endpoint
// Recall@10 on TMDB and Spotify, a held-out check: measured and reported, never tuned to. Each spec in
// test/fixtures/restbench/ is imported with the real CLI into .cache/restbench/<name>/, every dataset query (the
// user's whole multi-step request, as is) is searched with limit 10 (and 20, for context), and each solution
// endpoint "METHOD /path" counts as found when an operation with that method and path is in the results. `R@10+from`
// measures it as an agent works the task: search (top 10), describe the top 5, follow the `from` their parameters
// carry (the operations whose responses give the parameter's value; docs/DESIGN.md). Run after `npm run build`.
// Printing only.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--json', '--misses']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'test', 'fixtures', 'restbench');
const dist = join(root, 'dist');
const cli = join(dist, 'cli', 'index.js');
const scratch = join(root, '.cache', 'restbench');
const DATASETS = ['tmdb', 'spotify'];

const args = process.argv.slice(2);
const json = args.includes('--json');
const showMisses = args.includes('--misses');
const unknown = args.filter((a) => a !== '--json' && a !== '--misses' && a !== '--help');
if (unknown.length > 0 || args.includes('--help')) {
  if (unknown.length > 0) process.stderr.write(`restbench: unknown option ${unknown[0]}\n`);
  process.stderr.write(`usage: node scripts/restbench.mjs [--json] [--misses]   (run after npm run build)\n`);
  process.exit(unknown.length > 0 ? 2 : 0);
}

for (const f of [cli, join(dist, 'registry', 'catalog.js'), join(dist, 'search', 'index.js')]) {
  if (!existsSync(f)) {
    process.stderr.write(`restbench: ${f} is missing; run \`npm run build\` first (or \`npm run eval:restbench\`, which builds)\n`);
    process.exit(1);
  }
}
const { loadCatalog } = await import(pathToFileURL(join(dist, 'registry', 'catalog.js')).href);
const { loadCatalogSet } = await import(pathToFileURL(join(dist, 'server', 'index.js')).href);
const { describeTools } = await import(pathToFileURL(join(dist, 'server', 'core', 'describe.js')).href);
const { toolNames } = await import(pathToFileURL(join(dist, 'server', 'core', 'names.js')).href);
const { SearchIndex } = await import(pathToFileURL(join(dist, 'search', 'index.js')).href);
// another learned ranking build, as the CLI reads it (npm run learn -- --out <dir>)
if (process.env.API_CATALOG_SEMANTIC_DIR) {
  const { useSemanticDir } = await import(pathToFileURL(join(dist, 'search', 'semantic.js')).href);
  try {
    useSemanticDir(process.env.API_CATALOG_SEMANTIC_DIR);
  } catch (err) {
    process.stderr.write(`restbench: ${err.message}\n`);
    process.exit(1);
  }
}

/** "/person/{movie_id}/movie_credits" -> "/person/{}/movie_credits": parameter names do not matter, their place does. */
const shape = (path) => path.replace(/\{[^}]*\}/g, '{}');
/** A solution endpoint as the dataset writes it ("GET /search/movie ", " GET /movie/popular") -> key "GET /search/movie". */
function parseEndpoint(text) {
  const m = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(text);
  if (!m) throw new Error(`restbench: cannot read solution endpoint ${JSON.stringify(text)}`);
  return { method: m[1].toUpperCase(), path: m[2] };
}

function importSpec(name) {
  const spec = join(fixtures, `${name}_oas.json`);
  rmSync(join(scratch, name), { recursive: true, force: true });
  const r = spawnSync(process.execPath, [cli, 'import', spec, '--name', name, '--out', scratch, '--quiet'], { encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`restbench: import of ${spec} failed (exit ${r.status})`);
  }
  return loadCatalog(join(scratch, name));
}

function measure(name) {
  const items = JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8'));
  const catalog = importSpec(name);
  const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
  // operations by "METHOD /path-shape"
  const byKey = new Map();
  // `from` as describe_tools Level 2 shows it, through the same core function the server calls
  const set = loadCatalogSet([join(scratch, name)]);
  const fromCache = new Map();
  const fromOf = (op) => {
    if (!fromCache.has(op)) {
      const { envelope } = describeTools(set, { tool_names: [op] }, toolNames(), { settings: { baseUrls: {}, readOnly: true, env: {} } });
      const params = Object.values(envelope.value?.tools?.[0]?.parameters ?? {});
      fromCache.set(op, params.flatMap((p) => (typeof p === 'object' && Array.isArray(p.from) ? p.from : [])));
    }
    return fromCache.get(op);
  };
  for (const op of catalog.operations) {
    const key = `${op.method.toUpperCase()} ${shape(op.path)}`;
    byKey.set(key, [...(byKey.get(key) ?? []), op.name]);
  }
  const unmatched = new Map(); // endpoint text -> query numbers
  const normalized = new Map(); // endpoint text -> the operation key it matched after trimming / renaming parameters
  const rows = [];
  items.forEach((item, i) => {
    const wanted = [];
    for (const text of item.solution) {
      const { method, path } = parseEndpoint(text);
      const key = `${method} ${shape(path)}`;
      const names = byKey.get(key);
      if (!names) {
        unmatched.set(text, [...(unmatched.get(text) ?? []), i + 1]);
        continue;
      }
      if (text !== `${method} ${path}` || !catalog.operations.some((o) => names.includes(o.name) && o.path === path)) normalized.set(text, names);
      if (!wanted.some((w) => w.key === key)) wanted.push({ key, text: `${method} ${path}`, names });
    }
    const top20 = index.search(item.query, { limit: 20 }).results.map((h) => h.name);
    const top10 = top20.slice(0, 10);
    const rank = (w) => {
      const r = top20.findIndex((n) => w.names.includes(n));
      return r < 0 ? null : r + 1;
    };
    // As an agent works it: describe the top 5 and follow `from` (the operations that give a parameter's value).
    const followed = new Set(top10.slice(0, 5).flatMap(fromOf));
    const viaFrom = (w) => top10.some((n) => w.names.includes(n)) || w.names.some((n) => followed.has(n));
    // ... and describing those in turn (a chain of `from`, as far as it goes)
    const chained = new Set(followed);
    for (let grew = true; grew; ) {
      grew = false;
      for (const n of [...chained]) for (const m of fromOf(n)) if (!chained.has(m)) grew = chained.add(m) !== undefined;
    }
    const viaChain = (w) => viaFrom(w) || w.names.some((n) => chained.has(n));
    rows.push({ n: i + 1, query: item.query, endpoints: wanted.map((w) => ({ endpoint: w.text, operations: w.names, rank: rank(w), viaFrom: viaFrom(w), viaChain: viaChain(w) })), top10, followed: [...followed] });
  });
  const scored = rows.filter((r) => r.endpoints.length > 0);
  const share = (r, k) => r.endpoints.filter((e) => e.rank !== null && e.rank <= k).length / r.endpoints.length;
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const endpoints = scored.flatMap((r) => r.endpoints);
  return {
    dataset: name,
    queries: items.length,
    scoredQueries: scored.length,
    operations: catalog.operations.length,
    endpoints: endpoints.length,
    recallAt10: mean(scored.map((r) => share(r, 10))),
    allAt10: mean(scored.map((r) => (share(r, 10) === 1 ? 1 : 0))),
    recallAt20: mean(scored.map((r) => share(r, 20))),
    pooledEndpointRecallAt10: endpoints.filter((e) => e.rank !== null && e.rank <= 10).length / Math.max(1, endpoints.length),
    // search (top 10) + describe the top 5 + follow their `from`: the share of each query's endpoints reached
    recallWithFrom: mean(scored.map((r) => r.endpoints.filter((e) => e.viaFrom).length / r.endpoints.length)),
    pooledEndpointRecallWithFrom: endpoints.filter((e) => e.viaFrom).length / Math.max(1, endpoints.length),
    recallWithFromChain: mean(scored.map((r) => r.endpoints.filter((e) => e.viaChain).length / r.endpoints.length)),
    fromListed: scored.reduce((a, r) => a + r.followed.length, 0),
    byStep: stepRecall(scored),
    unmatched: [...unmatched].map(([endpoint, queries]) => ({ endpoint, queries })),
    normalized: [...normalized].map(([endpoint, operations]) => ({ endpoint, operations })),
    misses: scored
      .filter((r) => share(r, 10) < 1)
      .map((r) => ({ n: r.n, query: r.query, missed: r.endpoints.filter((e) => e.rank === null || e.rank > 10).map((e) => `${e.endpoint} [${e.rank ?? '-'}${e.viaFrom ? ', via from' : ''}]`), top10: r.top10, followed: r.followed })),
  };
}

/** Recall@10 of the first solution endpoint vs the later ones (the steps after the first call). */
function stepRecall(scored) {
  const first = scored.map((r) => r.endpoints[0]);
  const later = scored.flatMap((r) => r.endpoints.slice(1));
  const at10 = (es) => (es.length === 0 ? 0 : es.filter((e) => e.rank !== null && e.rank <= 10).length / es.length);
  return { first: { endpoints: first.length, recallAt10: at10(first) }, later: { endpoints: later.length, recallAt10: at10(later) } };
}

const results = DATASETS.map(measure);
if (json) {
  process.stdout.write(JSON.stringify({ limit: 10, results: results.map(({ misses, ...r }) => (showMisses ? { ...r, misses } : r)) }, null, 2) + '\n');
  process.exit(0);
}
const f = (x) => x.toFixed(3);
const lines = [
  'RestBench per-endpoint Recall@10 (raw multi-step query, limit 10; R@20 with limit 20 for context;',
  '+from: the top 10, plus the `from` of every parameter of the top 5 described; chain: describing those too, and so on)',
  `${'dataset'.padEnd(9)} queries  ops  endpoints  R@10   all@10  R@20   first-step R@10  later-step R@10  R@10+from  +from chain`,
];
for (const r of results) {
  lines.push(
    `${r.dataset.padEnd(9)} ${String(r.scoredQueries).padStart(7)} ${String(r.operations).padStart(4)} ${String(r.endpoints).padStart(10)}  ` +
      `${f(r.recallAt10)}  ${f(r.allAt10)}   ${f(r.recallAt20)}  ${f(r.byStep.first.recallAt10).padStart(15)}  ${f(r.byStep.later.recallAt10).padStart(15)}  ${f(r.recallWithFrom).padStart(9)}  ${f(r.recallWithFromChain).padStart(11)}`,
  );
}
for (const r of results) {
  for (const u of r.unmatched) {
    lines.push(`${r.dataset}: solution endpoint ${JSON.stringify(u.endpoint)} (query ${u.queries.join(', ')}) matches no operation in the spec; left out of the denominator`);
  }
  for (const n of r.normalized) {
    lines.push(`${r.dataset}: solution endpoint ${JSON.stringify(n.endpoint)} read as ${n.operations.join(', ')} (whitespace trimmed / path parameter renamed)`);
  }
}
if (showMisses) {
  for (const r of results) {
    lines.push('', `== ${r.dataset}: ${r.misses.length} queries with an endpoint outside the top 10 ([rank in the top 20, - = not there])`);
    for (const m of r.misses) lines.push(`  ${m.n}. ${JSON.stringify(m.query)} missed ${m.missed.join(', ')}; top: ${m.top10.slice(0, 5).join(', ')}; from: ${m.followed.join(', ') || '-'}`);
  }
}
process.stdout.write(lines.join('\n') + '\n');
