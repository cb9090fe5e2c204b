// `api-catalog eval <queries.jsonl>`: Recall@1, Recall@5 and MRR per catalog and overall. Finds each
// catalog in --registry dirs, registry/<c>, .cache/registry/<c>, or imports ../shared/specs/<c>.json
// (or --spec c=path) into .cache/registry/ with importSpec. Printing and exit codes only.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '../errors.js';
import { importSpec, writeRegistry } from '../importer/index.js';
import { loadCatalog, packageRoot, type Catalog } from '../registry/catalog.js';
import { combineMetrics, evaluate, parseQueryFile, type EvalMetrics, type EvalMiss } from '../search/eval.js';
import { SearchIndex } from '../search/index.js';

const USAGE = `usage: api-catalog eval <queries.jsonl> [--registry <dir>]... [--spec <catalog>=<file>]... [--misses] [--json]

Each line of the query file is {"catalog": "github", "query": "...", "expect": ["operationId", ...]}.
A catalog is read from, in order: a --registry dir whose catalog has that name; registry/<catalog>;
.cache/registry/<catalog> (if it matches the spec); else the spec (--spec, or ../shared/specs/<catalog>.json
beside the package) is imported into .cache/registry/<catalog> first.

  --registry <dir>        a catalog folder (repeatable)
  --spec <catalog>=<file> the spec to import for a catalog without a registry (repeatable)
  --misses                also list the queries whose expected operation is not first
  --json                  print the metrics as JSON`;

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The spec for a catalog: --spec, else ../shared/specs/<catalog>.{json,yaml,yml} beside the package. */
function specFor(catalog: string, specs: Map<string, string>): string | undefined {
  const given = specs.get(catalog);
  if (given !== undefined) return resolve(given);
  const root = packageRoot();
  for (const ext of ['json', 'yaml', 'yml']) {
    const candidate = join(root, '..', 'shared', 'specs', `${catalog}.${ext}`);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function openCatalog(catalog: string, registries: Catalog[], specs: Map<string, string>): Promise<Catalog> {
  const given = registries.find((c) => c.meta.name === catalog || basename(c.dir) === catalog);
  if (given) return given;
  const root = packageRoot();
  const committed = join(root, 'registry', catalog);
  if (existsSync(join(committed, 'catalog.json')) && !specs.has(catalog)) return loadCatalog(committed);
  const cacheRoot = join(root, '.cache', 'registry');
  const cached = join(cacheRoot, catalog);
  const spec = specFor(catalog, specs);
  if (existsSync(join(cached, 'catalog.json'))) {
    const c = loadCatalog(cached);
    if (spec === undefined || c.meta.sourceSha256 === sha256(spec)) return c;
  }
  if (spec === undefined) {
    throw new AppError(
      'REGISTRY_NOT_FOUND',
      `eval: no registry for catalog ${JSON.stringify(catalog)} (looked in registry/${catalog}, .cache/registry/${catalog}) ` +
        `and no spec at ../shared/specs/${catalog}.json; pass --registry <dir> or --spec ${catalog}=<file>`,
    );
  }
  process.stderr.write(`eval: importing ${catalog} from ${spec} into ${cached}\n`);
  const result = await importSpec(spec, { name: catalog });
  writeRegistry(result, cacheRoot);
  return loadCatalog(cached);
}

const fmt = (x: number): string => x.toFixed(3);

/** Runs the eval subcommand; returns the exit code (0 ok, 2 usage error). */
export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        registry: { type: 'string', multiple: true, default: [] },
        spec: { type: 'string', multiple: true, default: [] },
        misses: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        verbose: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`api-catalog eval: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) {
    process.stderr.write(`api-catalog eval: give exactly one queries file\n\n${USAGE}\n`);
    return 2;
  }
  const specs = new Map<string, string>();
  for (const s of values.spec) {
    const m = /^([a-z0-9_-]+)=(.+)$/.exec(s);
    if (!m) throw new AppError('INVALID_ARGUMENTS', `eval: --spec ${JSON.stringify(s)} must look like <catalog>=<file>`);
    specs.set(m[1] as string, m[2] as string);
  }
  if (!existsSync(file)) throw new AppError('CONFIG_INVALID', `eval: query file ${file} does not exist`);
  const queries = parseQueryFile(readFileSync(file, 'utf8'), file);
  const registries = values.registry.map((dir) => loadCatalog(dir));
  const catalogs = [...new Set(queries.map((q) => q.catalog))].sort();
  const rows: Array<{ catalog: string; metrics: EvalMetrics; misses: EvalMiss[]; buildMs: number }> = [];
  for (const name of catalogs) {
    const catalog = await openCatalog(name, registries, specs);
    const started = performance.now();
    const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
    const buildMs = performance.now() - started;
    const { metrics, misses } = evaluate(index, catalog.operations, queries.filter((q) => q.catalog === name));
    rows.push({ catalog: name, metrics, misses, buildMs });
  }
  const overall = combineMetrics(rows.map((r) => r.metrics));
  if (values.json) {
    const out = {
      file,
      catalogs: Object.fromEntries(rows.map((r) => [r.catalog, { ...r.metrics, ...(values.misses ? { misses: r.misses } : {}) }])),
      overall,
    };
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return 0;
  }
  const lines = [`catalog     queries  R@1    R@5    MRR`];
  const row = (name: string, m: EvalMetrics): string =>
    `${name.padEnd(11)} ${String(m.queries).padStart(7)}  ${fmt(m.recallAt1)}  ${fmt(m.recallAt5)}  ${fmt(m.mrr)}`;
  for (const r of rows) lines.push(row(r.catalog, r.metrics));
  lines.push(row('overall', overall));
  if (values.misses) {
    for (const r of rows) {
      for (const m of r.misses) {
        lines.push(
          `  ${r.catalog}:${m.line} [${m.rank === null ? '-' : m.rank}] ${JSON.stringify(m.query)} want ${m.expect.join('|')}; got ${m.top.join(', ')}`,
        );
      }
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
