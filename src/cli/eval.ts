// `api-catalog eval <queries.jsonl>...`: Recall@1, Recall@5 and MRR per file, per catalog and overall. Finds each
// catalog in --registry dirs, registry/<c>, .cache/registry/<c>, or imports ../shared/specs/<c>.json
// (or --spec c=path) into .cache/registry/ with importSpec. Printing and exit codes only.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '../errors.js';
import { importSpec, writeRegistry } from '../importer/index.js';
import { loadCatalog, packageRoot, type Catalog } from '../registry/catalog.js';
import { combineMetrics, evaluate, parseQueryFile, type EvalMetrics, type EvalMiss, type EvalQuery } from '../search/eval.js';
import { SearchIndex } from '../search/index.js';
import { EVAL_EMBEDDINGS_OPTIONS, EVAL_EMBEDDINGS_USAGE, withEmbeddings } from './eval-embeddings.js';

const USAGE = `usage: api-catalog eval <queries.jsonl>... [--registry <dir>]... [--spec <catalog>=<file>]... [--misses] [--json]

Several files (or a quoted pattern such as 'test/fixtures/search/queries-*.jsonl', * and ? in the file
name) are measured one by one, then per catalog over all files and overall. Each line of the query file is {"catalog": "github", "query": "...", "expect": ["operationId", ...]}.
A catalog is read from, in order: a --registry dir whose catalog has that name; registry/<catalog>;
.cache/registry/<catalog> (if it matches the spec); else the spec (--spec, or ../shared/specs/<catalog>.json
beside the package) is imported into .cache/registry/<catalog> first.

  --registry <dir>        a catalog folder (repeatable)
  --spec <catalog>=<file> the spec to import for a catalog without a registry (repeatable)
  --misses                also list the queries whose expected operation is not first
  --json                  print the metrics as JSON
${EVAL_EMBEDDINGS_USAGE}`;

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

/** True when `name` matches a file-name pattern with `*` (any run) and `?` (one character); no regex from input. */
export function matchesPattern(name: string, pattern: string): boolean {
  const memo = new Map<string, boolean>();
  const at = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let ok: boolean;
    if (j === pattern.length) ok = i === name.length;
    else if (pattern[j] === '*') ok = at(i, j + 1) || (i < name.length && at(i + 1, j));
    else ok = i < name.length && (pattern[j] === '?' || pattern[j] === name[i]) && at(i + 1, j + 1);
    memo.set(key, ok);
    return ok;
  };
  return at(0, 0);
}

/** Query files for the positionals: plain paths as given, patterns (`*`, `?` in the file name) expanded and sorted. */
export function expandQueryFiles(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    const name = basename(arg);
    if (!/[*?]/.test(name)) {
      if (!existsSync(arg)) throw new AppError('CONFIG_INVALID', `eval: query file ${arg} does not exist`);
      out.push(arg);
      continue;
    }
    const dir = dirname(arg);
    const found = existsSync(dir) ? readdirSync(dir).filter((f) => matchesPattern(f, name)).sort() : [];
    if (found.length === 0) throw new AppError('CONFIG_INVALID', `eval: no query file matches ${arg}; check the folder and the pattern`);
    out.push(...found.map((f) => join(dir, f)));
  }
  return [...new Set(out)];
}

interface Row {
  catalog: string;
  metrics: EvalMetrics;
  misses: EvalMiss[];
}

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
        ...EVAL_EMBEDDINGS_OPTIONS,
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
  if (positionals.length === 0) {
    process.stderr.write(`api-catalog eval: give at least one queries file\n\n${USAGE}\n`);
    return 2;
  }
  const specs = new Map<string, string>();
  for (const s of values.spec) {
    const m = /^([a-z0-9_-]+)=(.+)$/.exec(s);
    if (!m) throw new AppError('INVALID_ARGUMENTS', `eval: --spec ${JSON.stringify(s)} must look like <catalog>=<file>`);
    specs.set(m[1] as string, m[2] as string);
  }
  const files = expandQueryFiles(positionals);
  const sets = files.map((file) => ({ file, queries: parseQueryFile(readFileSync(file, 'utf8'), file) }));
  const registries = values.registry.map((dir) => loadCatalog(dir));
  // one index per catalog, shared by every file that asks it
  const indexes = new Map<string, { catalog: Catalog; index: SearchIndex }>();
  const indexFor = async (name: string): Promise<{ catalog: Catalog; index: SearchIndex }> => {
    const have = indexes.get(name);
    if (have) return have;
    const catalog = await openCatalog(name, registries, specs);
    const made = { catalog, index: SearchIndex.build(catalog.operations, catalog.meta.domains) };
    indexes.set(name, made);
    return made;
  };
  const measure = async (queries: readonly EvalQuery[]): Promise<Row[]> => {
    const rows: Row[] = [];
    for (const name of [...new Set(queries.map((q) => q.catalog))].sort()) {
      const { catalog, index } = await indexFor(name);
      const mine = queries.filter((q) => q.catalog === name);
      const { metrics, misses } = evaluate(await withEmbeddings(values, catalog, index, mine), catalog.operations, mine);
      rows.push({ catalog: name, metrics, misses });
    }
    return rows;
  };
  const perFile: Array<{ file: string; rows: Row[]; overall: EvalMetrics }> = [];
  for (const set of sets) {
    const rows = await measure(set.queries);
    perFile.push({ file: set.file, rows, overall: combineMetrics(rows.map((r) => r.metrics)) });
  }
  // per catalog over all files (a catalog asked by several files counts each query once)
  const byCatalog = new Map<string, EvalMetrics[]>();
  for (const f of perFile) for (const r of f.rows) byCatalog.set(r.catalog, [...(byCatalog.get(r.catalog) ?? []), r.metrics]);
  const allRows = [...byCatalog.keys()].sort().map((c) => ({ catalog: c, metrics: combineMetrics(byCatalog.get(c) ?? []) }));
  const overall = combineMetrics(perFile.map((f) => f.overall));

  const fileJson = (f: (typeof perFile)[number]): Record<string, unknown> => ({
    file: f.file,
    catalogs: Object.fromEntries(f.rows.map((r) => [r.catalog, { ...r.metrics, ...(values.misses ? { misses: r.misses } : {}) }])),
    overall: f.overall,
  });
  if (values.json) {
    const only = perFile[0];
    const out =
      perFile.length === 1 && only
        ? fileJson(only)
        : {
            files: perFile.map(fileJson),
            catalogs: Object.fromEntries(allRows.map((r) => [r.catalog, r.metrics])),
            overall,
          };
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return 0;
  }
  const header = `catalog     queries  R@1    R@5    MRR`;
  const row = (name: string, m: EvalMetrics): string =>
    `${name.padEnd(11)} ${String(m.queries).padStart(7)}  ${fmt(m.recallAt1)}  ${fmt(m.recallAt5)}  ${fmt(m.mrr)}`;
  const lines: string[] = [];
  for (const f of perFile) {
    if (perFile.length > 1) lines.push(`== ${f.file}`);
    lines.push(header);
    for (const r of f.rows) lines.push(row(r.catalog, r.metrics));
    lines.push(row('overall', f.overall));
    if (values.misses) {
      for (const r of f.rows) {
        for (const m of r.misses) {
          lines.push(
            `  ${r.catalog}:${m.line} [${m.rank === null ? '-' : m.rank}] ${JSON.stringify(m.query)} want ${m.expect.join('|')}; got ${m.top.join(', ')}`,
          );
        }
      }
    }
    if (perFile.length > 1) lines.push('');
  }
  if (perFile.length > 1) {
    lines.push(`== all ${perFile.length} files`, header);
    for (const r of allRows) lines.push(row(r.catalog, r.metrics));
    lines.push(row('overall', overall));
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
