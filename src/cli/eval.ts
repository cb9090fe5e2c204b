// `api-catalog eval <queries.jsonl>...`: Recall@1, Recall@5 and MRR per set, per catalog, mean over sets and pooled;
// --save / --baseline / --compare line two runs up. Finds each catalog in --registry dirs, registry/<c>,
// .cache/registry/<c>, or imports openapi/<c>.json or test/fixtures/real-specs/<c>.json (or --spec c=path) with
// importSpec. Printing only.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';
import { importSpec, writeRegistry } from '../importer/index.js';
import { loadCatalog, packageRoot, type Catalog } from '../registry/catalog.js';
import {
  combineMetrics,
  evaluate,
  meanMetrics,
  parseQueryFile,
  supportsKeywordsOption,
  unknownExpects,
  type EvalMetrics,
  type EvalMiss,
  type EvalOutcome,
  type EvalQuery,
  type EvalLineProblem,
  type EvalSettings,
  type KeywordsMode,
  type SavedRun,
} from '../search/eval.js';
import { SearchIndex } from '../search/index.js';
import { rankingWeights } from '../search/semantic.js';
import { checkEmbeddingsFlags, closest, isUsageError, oneOf, parseCommand, UsageError } from './args.js';
import { checkCompareFlags, compareFiles, comparisonJson, fmt, formatComparison, readRun } from './eval-compare.js';
import { EVAL_EMBEDDINGS_OPTIONS, EVAL_EMBEDDINGS_USAGE, withEmbeddings } from './eval-embeddings.js';
import { checkWritableFile, writeCheckedFile } from './out-dir.js';
import { forPeople } from './wording.js';
import { openCatalog } from './eval-catalogs.js';

export { importerBuild, openCatalog } from './eval-catalogs.js';

const USAGE = `usage: api-catalog eval <queries.jsonl>... [--registry <dir>]... [--spec <catalog>=<file>]...
                        [--keywords auto|option|append|ignore] [--domain use|ignore]
                        [--save <run.json>] [--baseline <run.json>] [--misses] [--json]
       api-catalog eval --compare <before.json> <after.json> [--json]

Each file (or a quoted pattern such as 'test/fixtures/search/queries-*.jsonl', * and ? in the file name) is
one set, named after the file (and its folders where two sets share a file name): a table per set, then
every set in one table with the mean over sets (each set counts once, as BEIR averages) and pooled (each
query counts once), then per catalog over all sets.
A line is {"catalog": "github", "query": "...", "expect": ["<name or operationId>", ...]}; agent-style lines add what an
agent sends after list_domains: "keywords": [...], "domain": "<a list_domains name>", and "request" (the
user's words, not searched).
A catalog is read from, in order: a --registry dir whose catalog has that name; registry/<catalog>;
.cache/registry/<catalog> (if this importer build imported it from that spec); else the spec (--spec, or
openapi/<catalog>.json or test/fixtures/real-specs/<catalog>.json in the package) is imported into
.cache/registry/<catalog> first (again after a change to the spec or the importer, saying why).

  --registry <dir>        a catalog folder (repeatable)
  --spec <catalog>=<file> the spec to import for a catalog without a registry (repeatable)
  --keywords <mode>       how a line's keywords reach the search: option (SearchOptions.keywords), append (to
                          the query text), ignore; auto (default): option when this build supports it, else append
  --domain <mode>         use (default): a line's domain is the search domain filter; ignore: search everything
  --save <run.json>       also write this run (per set and per query) for a later --baseline or --compare
  --baseline <run.json>   compare this run with a saved one: per set before -> after with deltas, the
                          MRR change with a 95% bootstrap interval, and the queries whose rank moved
  --compare               compare two saved runs (the two positionals) without searching
  --misses                also list the queries whose expected operation is not first
  --json                  print the metrics (or the comparison) as JSON
${EVAL_EMBEDDINGS_USAGE}`;

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
  // one file given twice (`q.jsonl ./q.jsonl`) is one set
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(resolve(f)) && seen.add(resolve(f)));
}

interface Row {
  catalog: string;
  metrics: EvalMetrics;
  misses: EvalMiss[];
  outcomes: EvalOutcome[];
}

export { formatComparison } from './eval-compare.js';

/** A set's short name: the file name without `.jsonl` (`queries-zoom-agent`). */
export function setName(file: string): string {
  return basename(file).replace(/\.jsonl$/, '');
}

/**
 * Each file's set name: setName, with as many of its folders as tell it apart from another file of the same name
 * (`a/q`, `b/q`). Runs are compared set by set, by name: two sets of one name would be one.
 */
export function setNames(files: readonly string[]): string[] {
  const parts = files.map((f) => resolve(f).replace(/\.jsonl$/, '').split(/[\\/]/).filter((p) => p !== ''));
  const depth = files.map(() => 1);
  for (;;) {
    const names = parts.map((p, i) => p.slice(-(depth[i] as number)).join('/'));
    const grow = names.map((n, i) => names.indexOf(n) !== names.lastIndexOf(n) && (depth[i] as number) < (parts[i] as string[]).length);
    if (!grow.includes(true)) return names;
    grow.forEach((g, i) => (depth[i] = (depth[i] as number) + (g ? 1 : 0)));
  }
}

const KEYWORDS_MODES = ['auto', 'option', 'append', 'ignore'] as const;

/** The flags of a run, checked: a mistake is a UsageError (one line, as every command says it). */
function parseEvalArgs(argv: string[]) {
  const { values, positionals } = parseCommand('eval', argv, {
    registry: { type: 'string', multiple: true, default: [] },
    spec: { type: 'string', multiple: true, default: [] },
    // no defaults: --compare must tell a given --keywords or --domain from none (defaults applied below)
    keywords: { type: 'string' },
    domain: { type: 'string' },
    save: { type: 'string' },
    baseline: { type: 'string' },
    compare: { type: 'boolean', default: false },
    misses: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
    verbose: { type: 'boolean', default: false },
    ...EVAL_EMBEDDINGS_OPTIONS,
  });
  if (values.help) return { values, positionals, keywords: 'auto' as const, domain: 'use' as const, specs: new Map<string, string>() };
  if (values.compare) {
    if (positionals.length !== 2) throw new UsageError('eval: --compare takes exactly two saved runs: <before.json> <after.json>');
    checkCompareFlags(values);
  } else if (positionals.length === 0) {
    throw new UsageError('eval: give at least one queries file, e.g. api-catalog eval test/fixtures/eval/queries-dev.jsonl');
  }
  const keywords = oneOf('eval', '--keywords', values.keywords ?? 'auto', KEYWORDS_MODES);
  const domain = oneOf('eval', '--domain', values.domain ?? 'use', ['use', 'ignore']);
  checkEmbeddingsFlags('eval', values);
  const specs = new Map<string, string>();
  for (const s of values.spec) {
    const m = /^([a-z0-9_-]+)=(.+)$/.exec(s);
    if (!m) throw new UsageError(`eval: --spec must look like <catalog>=<file>, e.g. --spec github=openapi/github.json, got ${JSON.stringify(s)}`);
    specs.set(m[1] as string, m[2] as string);
  }
  return { values, positionals, keywords, domain, specs };
}

/**
 * Warns on stderr, once per entry (with the lines that give it), about `expect` entries that match no operation of
 * the catalog by name or operationId: such an entry can never be found, so its queries score as misses.
 */
function warnUnknownExpects(file: string, catalog: string, operations: Catalog['operations'], queries: readonly EvalQuery[]): void {
  const lines = new Map<string, number[]>();
  for (const u of unknownExpects(operations, queries)) lines.set(u.entry, [...(lines.get(u.entry) ?? []), u.line]);
  if (lines.size === 0) return;
  // close names or operationIds, each operation once, by the name search shows
  const nameOf = new Map<string, string>();
  for (const op of operations) for (const key of [op.name, op.operationId]) if (!nameOf.has(key)) nameOf.set(key, op.name);
  for (const [entry, at] of lines) {
    const near = [...new Set(closest(entry, [...nameOf.keys()]).map((k) => nameOf.get(k) as string))];
    process.stderr.write(
      `eval: warning: ${file}:${at.join(',')}: "expect" ${JSON.stringify(entry)} is no operation of ${catalog} (neither a name nor an operationId)` +
        `${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}; it can never be found, so it scores as a miss\n`,
    );
  }
}

/**
 * evaluate()'s error for a line of `file`, as `file:line`; an unknown domain in the CLI's words, pointing to the
 * command that lists the catalog's domains.
 */
function inFile(err: unknown, file: string, catalog: Catalog): unknown {
  if (!(err instanceof AppError) || err.code !== 'CONFIG_INVALID') return err;
  const at = err.details as EvalLineProblem | undefined;
  const cause = err.cause;
  if (at === undefined || !(cause instanceof AppError) || cause.code !== 'UNKNOWN_DOMAIN') {
    return new AppError('CONFIG_INVALID', err.message.replace(/^eval: /, `eval: ${file}: `), { details: err.details });
  }
  const near = relative(process.cwd(), catalog.dir);
  const dir = near !== '' && !near.startsWith('..') && !isAbsolute(near) ? near : catalog.dir;
  const said = forPeople(cause.message.replace(/^search: /, '')).replace('`api-catalog domains`', `\`api-catalog domains --registry ${dir}\``);
  return new AppError('CONFIG_INVALID', `eval: ${file}:${at.line} (${at.catalog}): ${said}`, { details: at });
}

/** Runs the eval subcommand; returns the exit code (0 ok, 2 a mistake on the command line, printed as one line). */
export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseEvalArgs(argv);
  } catch (err) {
    if (!isUsageError(err)) throw err;
    process.stderr.write(`api-catalog ${err.message}\n`);
    return 2;
  }
  const { values, positionals, specs } = parsed;
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (values.compare) {
    process.stdout.write(compareFiles(positionals as [string, string], values.json));
    return 0;
  }
  const keywordsFlag = parsed.keywords;
  // before the work: a --save path the run cannot be written to fails now, not after every query has run
  if (values.save !== undefined) checkWritableFile('eval', '--save', values.save);
  const baseline = values.baseline !== undefined ? readRun(values.baseline) : undefined;
  const files = expandQueryFiles(positionals);
  const sets = files.map((file) => ({ file, queries: parseQueryFile(readFileSync(file, 'utf8'), file) }));
  // a set without queries would print zeros (and pull the mean over sets down): it is a wrong file, not a result
  for (const s of sets) {
    if (s.queries.length === 0) {
      throw new AppError('CONFIG_INVALID', `eval: ${s.file} has no queries (it is empty or blank); each line is {"catalog": "...", "query": "...", "expect": ["<name or operationId>"]}`);
    }
  }
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
  const hasKeywords = sets.some((s) => s.queries.some((q) => (q.keywords ?? []).length > 0));
  const hasDomains = sets.some((s) => s.queries.some((q) => q.domain !== undefined));
  // keywords: the option when this build's SearchIndex honours it (probed once), else appended to the query
  let keywordsMode: KeywordsMode = keywordsFlag === 'auto' ? 'append' : (keywordsFlag as KeywordsMode);
  let keywordsNote = keywordsFlag === 'auto' ? '' : 'as asked';
  if (hasKeywords && (keywordsFlag === 'auto' || keywordsFlag === 'option')) {
    const first = sets.flatMap((s) => s.queries).find((q) => (q.keywords ?? []).length > 0) as EvalQuery;
    const { catalog, index } = await indexFor(first.catalog);
    const supported = supportsKeywordsOption(index, catalog.operations);
    if (keywordsFlag === 'auto') {
      keywordsMode = supported ? 'option' : 'append';
      keywordsNote = supported ? 'this build supports SearchOptions.keywords' : 'this build has no SearchOptions.keywords; appended to the query';
    } else if (!supported) {
      keywordsNote = 'as asked, but this build seems to ignore SearchOptions.keywords';
    }
  }
  const settings: EvalSettings = { keywords: keywordsMode, useDomain: parsed.domain === 'use' };
  const measure = async (queries: readonly EvalQuery[]): Promise<Row[]> => {
    const rows: Row[] = [];
    for (const name of [...new Set(queries.map((q) => q.catalog))].sort()) {
      const { catalog, index } = await indexFor(name);
      const subset = queries.filter((q) => q.catalog === name);
      warnUnknownExpects(currentFile, name, catalog.operations, subset);
      let result;
      try {
        result = evaluate(await withEmbeddings(values, catalog, index, subset, settings), catalog.operations, subset, settings);
      } catch (err) {
        throw inFile(err, currentFile, catalog);
      }
      rows.push({ catalog: name, ...result });
    }
    return rows;
  };
  let currentFile = '';
  const perFile: Array<{ file: string; set: string; rows: Row[]; overall: EvalMetrics }> = [];
  const names = setNames(sets.map((s) => s.file));
  for (const [k, s] of sets.entries()) {
    currentFile = s.file;
    const rows = await measure(s.queries);
    perFile.push({ file: s.file, set: names[k] as string, rows, overall: combineMetrics(rows.map((r) => r.metrics)) });
  }
  // per catalog over all files (a catalog asked by several files counts each query once)
  const byCatalog = new Map<string, EvalMetrics[]>();
  for (const f of perFile) for (const r of f.rows) byCatalog.set(r.catalog, [...(byCatalog.get(r.catalog) ?? []), r.metrics]);
  const allRows = [...byCatalog.keys()].sort().map((c) => ({ catalog: c, metrics: combineMetrics(byCatalog.get(c) ?? []) }));
  const overall = combineMetrics(perFile.map((f) => f.overall));
  const mean = meanMetrics(perFile.map((f) => f.overall));
  const { dir } = rankingWeights();
  const saved: SavedRun = {
    format: 'api-catalog-eval/1',
    created: new Date().toISOString(),
    settings: { keywords: keywordsMode, domain: settings.useDomain ? 'use' : 'ignore', ...(dir === undefined ? {} : { weights: dir }) },
    sets: perFile.map((f) => ({
      set: f.set,
      file: f.file,
      metrics: f.overall,
      catalogs: Object.fromEntries(f.rows.map((r) => [r.catalog, r.metrics])),
      queries: f.rows.flatMap((r) => r.outcomes).sort((x, y) => x.line - y.line),
    })),
    mean,
    pooled: overall,
  };
  if (values.save !== undefined) {
    writeCheckedFile('eval', '--save', values.save, JSON.stringify(saved, null, 2) + '\n');
    process.stderr.write(`eval: run saved to ${values.save}\n`);
  }

  const fileJson = (f: (typeof perFile)[number]): Record<string, unknown> => ({
    file: f.file,
    catalogs: Object.fromEntries(f.rows.map((r) => [r.catalog, { ...r.metrics, ...(values.misses ? { misses: r.misses } : {}) }])),
    overall: f.overall,
  });
  if (values.json) {
    const only = perFile[0];
    const out: Record<string, unknown> =
      perFile.length === 1 && only
        ? fileJson(only)
        : {
            files: perFile.map(fileJson),
            catalogs: Object.fromEntries(allRows.map((r) => [r.catalog, r.metrics])),
            mean,
            overall,
          };
    out['settings'] = saved.settings;
    if (baseline) out['comparison'] = comparisonJson(baseline, saved);
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return 0;
  }
  const width = Math.max(11, ...allRows.map((r) => r.catalog.length + 1));
  const setWidth = Math.max(width, `mean of ${perFile.length} sets`.length + 1, ...perFile.map((f) => f.set.length + 1));
  const header = `${'catalog'.padEnd(width)} queries  R@1    R@5    MRR`;
  const row = (name: string, m: EvalMetrics, w = width): string =>
    `${name.padEnd(w)} ${String(m.queries).padStart(7)}  ${fmt(m.recallAt1)}  ${fmt(m.recallAt5)}  ${fmt(m.mrr)}`;
  const lines: string[] = [];
  if (saved.settings.weights !== undefined) lines.push(`ranking weights: ${saved.settings.weights} (API_CATALOG_SEMANTIC_DIR)`);
  if (hasKeywords || hasDomains) {
    lines.push(
      `agent-style lines: keywords ${hasKeywords ? `${keywordsMode}${keywordsNote ? ` (${keywordsNote})` : ''}` : 'none'}; ` +
        `domain ${hasDomains ? (settings.useDomain ? 'used as the filter' : 'ignored') : 'none'}`,
    );
  }
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
    lines.push(`== all ${perFile.length} sets`, `${'set'.padEnd(setWidth)} queries  R@1    R@5    MRR`);
    for (const f of perFile) lines.push(row(f.set, f.overall, setWidth));
    lines.push(row(`mean of ${perFile.length} sets`, mean, setWidth), row('pooled', overall, setWidth), '');
    lines.push(`== per catalog over all ${perFile.length} sets`, header);
    for (const r of allRows) lines.push(row(r.catalog, r.metrics));
    lines.push(row('overall', overall));
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (baseline) process.stdout.write('\n' + formatComparison(baseline, saved, [values.baseline as string, 'this run']));
  return 0;
}
