// `api-catalog suggest-overlay --queries <file.jsonl>`: runs a team's queries through the search agents get and,
// for each miss (expected operation not in the top 5), proposes an Overlay 1.0 action that adds the query's
// missing words to the operation as `x-api-catalog-keywords`. Pure helpers (exported for tests) plus printing.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Document } from 'yaml';
import { AppError, isAppError } from '../errors.js';
import { isUsageError, parseCommand, UsageError } from './args.js';
import { checkWritableFile, writeCheckedFile } from './out-dir.js';
import { forPeople } from './wording.js';
import { defaultCatalogDir, loadCatalog, type Catalog } from '../registry/catalog.js';
import { searchRequest } from '../search/eval.js';
import { STOP_WORDS, splitWords, stem } from '../search/text.js';
import { buildCatalogSet, type CatalogSet } from '../server/core/catalogs.js';
import type { Operation } from '../types.js';

const USAGE = `usage: api-catalog suggest-overlay --queries <file.jsonl> [--registry <dir>] [--out overlay.yaml]

Runs each query through the same search agents get. For every miss (no expected operation in the top 5) it
proposes an OpenAPI Overlay 1.0 action adding the query's missing words (not already in the operation's name,
summary or keywords; stop words dropped) as x-api-catalog-keywords. Review the result, then re-import with
\`api-catalog import <spec> --overlay overlay.yaml\`.

Each line of the query file: {"query": "...", "expect": ["<name or operationId>", ...], "catalog"?: "<name>"}
(the eval format; lines for another catalog are skipped). Agent-style lines' "domain" and "keywords" are
searched with, as search_tools gets them.

  --queries <file>  the JSONL query file (required)
  --registry <dir>  catalog folder (registry/<name>); default: the embedded GitHub catalog
  --out <file>      write the overlay there instead of stdout (with nothing to suggest, an older file there
                    is removed, so that it is not applied again)
  --help            show this help`;

/** A miss counts when no expected operation is within this many results. */
export const TOP_N = 5;
/** How far down the ranking a miss's rank is reported. */
const RANK_DEPTH = 25;

export interface SuggestQuery {
  line: number;
  query: string;
  expect: string[];
  catalog?: string;
  /** Agent-style lines: the domain filter and keywords the agent sent with the query (searched with, as eval does). */
  domain?: string;
  keywords?: string[];
}

/** Parses the JSONL query file; throws CONFIG_INVALID naming the file and line of a malformed entry. */
export function parseSuggestQueries(text: string, file: string): SuggestQuery[] {
  const out: SuggestQuery[] = [];
  text.split(/\r?\n/).forEach((rawLine, i) => {
    const raw = rawLine.trim();
    if (raw === '') return;
    const where = `${file}:${i + 1}`;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      throw new AppError('CONFIG_INVALID', `suggest-overlay: ${where} is not valid JSON; each line must be {"query": "...", "expect": ["..."]}`);
    }
    const o = v as { query?: unknown; expect?: unknown; catalog?: unknown; domain?: unknown; keywords?: unknown };
    if (
      typeof v !== 'object' || v === null || Array.isArray(v) ||
      typeof o.query !== 'string' || o.query.trim() === '' ||
      !Array.isArray(o.expect) || o.expect.length === 0 || !o.expect.every((e) => typeof e === 'string') ||
      (o.catalog !== undefined && typeof o.catalog !== 'string') ||
      (o.domain !== undefined && (typeof o.domain !== 'string' || o.domain === '')) ||
      (o.keywords !== undefined && !(Array.isArray(o.keywords) && o.keywords.every((w) => typeof w === 'string')))
    ) {
      throw new AppError(
        'CONFIG_INVALID',
        `suggest-overlay: ${where} needs "query" (a non-empty string) and "expect" (a non-empty array of operation names or operationIds); ` +
          '"catalog", "domain" (a non-empty string) and "keywords" (an array of strings) are optional',
      );
    }
    out.push({
      line: i + 1,
      query: o.query,
      expect: o.expect as string[],
      ...(typeof o.catalog === 'string' ? { catalog: o.catalog } : {}),
      ...(typeof o.domain === 'string' ? { domain: o.domain } : {}),
      ...(Array.isArray(o.keywords) ? { keywords: o.keywords as string[] } : {}),
    });
  });
  return out;
}

/** One proposed action: the operation and the words to add, with the queries that asked for them. */
export interface KeywordSuggestion {
  op: Operation;
  words: string[];
  queries: Array<{ line: number; query: string; rank: number | null }>;
}

export interface SuggestReport {
  /** Queries for this catalog (others skipped). */
  considered: number;
  skippedOtherCatalog: number;
  hits: number;
  misses: Array<{ line: number; query: string; expect: string[]; rank: number | null; added: string[] }>;
  /** Queries whose expected names match no operation of the catalog. */
  unknownExpect: Array<{ line: number; expect: string[] }>;
  suggestions: KeywordSuggestion[];
}

/** The stems of the words an operation already carries (name, operationId, summary, keywords). */
function knownStems(op: Operation): Set<string> {
  return new Set(splitWords([op.name, op.operationId, op.summary, ...(op.keywords ?? [])].join(' ')).map((w) => stem(w)));
}

/** The query's words worth adding: not stop words, not bare numbers, not already known (by stem). */
export function missingWords(query: string, op: Operation): string[] {
  const known = knownStems(op);
  const out: string[] = [];
  for (const w of splitWords(query)) {
    if (w.length < 2 || /^\d+$/.test(w) || STOP_WORDS.has(w) || known.has(stem(w))) continue;
    known.add(stem(w)); // "ticket tickets": one word
    out.push(w);
  }
  return out;
}

/**
 * The ranked names for one query, searched as search_tools is asked (the line's domain filter and keywords, as
 * `eval` searches them), RANK_DEPTH deep. A domain the catalog lacks is a CONFIG_INVALID naming the line.
 */
function ranked(set: CatalogSet, q: SuggestQuery, catalog: Catalog, file: string): string[] {
  const { text, options } = searchRequest({ ...q, catalog: catalog.meta.name }, { keywords: 'option', useDomain: true });
  try {
    return set.index.search(text, { ...options, limit: RANK_DEPTH }).results.map((h) => h.name);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'UNKNOWN_DOMAIN') throw err;
    const registry = catalog.dir === defaultCatalogDir() ? '' : ` --registry ${catalog.dir}`;
    const said = forPeople(err.message.replace(/^search: /, '')).replace('`api-catalog domains`', `\`api-catalog domains${registry}\``);
    throw new AppError('CONFIG_INVALID', `suggest-overlay: ${file}:${q.line}: ${said}`, { cause: err });
  }
}

/** Runs the queries (of `file`, named in errors) against a one-catalog set and collects the suggestions, one per operation. */
export function suggestKeywords(set: CatalogSet, queries: readonly SuggestQuery[], file = 'the query file'): SuggestReport {
  const catalog = set.catalogs[0];
  if (set.catalogs.length !== 1 || catalog === undefined) throw new AppError('CONFIG_INVALID', 'suggest-overlay: works on one catalog at a time');
  const byOperationId = new Map(set.operations.map((op) => [op.operationId, op]));
  const report: SuggestReport = { considered: 0, skippedOtherCatalog: 0, hits: 0, misses: [], unknownExpect: [], suggestions: [] };
  const byOp = new Map<Operation, KeywordSuggestion>();
  for (const q of queries) {
    if (q.catalog !== undefined && q.catalog !== catalog.meta.name) {
      report.skippedOtherCatalog++;
      continue;
    }
    report.considered++;
    const expected = q.expect.map((e) => set.byName.get(e)?.op ?? byOperationId.get(e)).filter((op): op is Operation => op !== undefined);
    if (expected.length === 0) {
      report.unknownExpect.push({ line: q.line, expect: q.expect });
      continue;
    }
    const names = ranked(set, q, catalog, file);
    const at = names.findIndex((n) => expected.some((op) => op.name === n));
    const rank = at >= 0 ? at + 1 : null;
    if (rank !== null && rank <= TOP_N) {
      report.hits++;
      continue;
    }
    const op = expected[0] as Operation;
    let s = byOp.get(op);
    if (!s) {
      s = { op, words: [], queries: [] };
      byOp.set(op, s);
      report.suggestions.push(s);
    }
    const have = new Set(s.words.map((w) => stem(w)));
    const added = missingWords(q.query, op).filter((w) => !have.has(stem(w)));
    s.words.push(...added);
    s.queries.push({ line: q.line, query: q.query, rank });
    report.misses.push({ line: q.line, query: q.query, expect: q.expect, rank, added });
  }
  report.suggestions = report.suggestions.filter((s) => s.words.length > 0);
  return report;
}

/** An RFC 9535 single-quoted name selector: `'/repos/{owner}'`. */
function quoted(name: string): string {
  let out = "'";
  for (const ch of name) {
    const code = ch.codePointAt(0) as number;
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + "'";
}

/** The JSONPath of an operation in its spec: `$.paths['/repos/{owner}/{repo}/issues'].post`. */
export function operationTarget(op: Pick<Operation, 'path' | 'method'>): string {
  return `$.paths[${quoted(op.path)}].${op.method}`;
}

function rankText(rank: number | null): string {
  return rank === null ? `not in the top ${RANK_DEPTH}` : `ranked ${rank}`;
}

/** The Overlay 1.0 document (as YAML text) for the suggestions; undefined when there is nothing to suggest. */
export function renderOverlay(report: SuggestReport, queriesFile: string, catalogName: string): string | undefined {
  if (report.suggestions.length === 0) return undefined;
  const actions = [...report.suggestions]
    .sort((a, b) => (a.op.name < b.op.name ? -1 : a.op.name > b.op.name ? 1 : 0))
    .map((s) => ({
      target: operationTarget(s.op),
      description: `${s.op.name}: ${s.queries.map((q) => `"${q.query}" ${rankText(q.rank)}`).join('; ')}`,
      update: { 'x-api-catalog-keywords': s.words },
    }));
  const doc = new Document({
    overlay: '1.0.0',
    info: { title: `Search keywords for ${catalogName} suggested from ${queriesFile}`, version: '1.0.0' },
    actions,
  });
  doc.commentBefore =
    ` Suggested by \`api-catalog suggest-overlay\` from ${report.misses.length} missed quer${report.misses.length === 1 ? 'y' : 'ies'}.\n` +
    ' Review it (drop words that would mislead), then: api-catalog import <spec> --overlay <this file>';
  return doc.toString({ lineWidth: 0 });
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommand(
    'suggest-overlay',
    argv,
    { queries: { type: 'string' }, registry: { type: 'string' }, out: { type: 'string' }, verbose: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    { positionals: false },
  );
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (values.queries === undefined) throw new UsageError('suggest-overlay: --queries <file.jsonl> is required (the missed queries, one JSON object a line)');
  try {
    // before the work: a path the overlay cannot be written to fails now, not after the queries have run
    if (values.out !== undefined) checkWritableFile('suggest-overlay', '--out', values.out);
    let text: string;
    try {
      text = readFileSync(values.queries, 'utf8');
    } catch (cause) {
      throw new AppError('CONFIG_INVALID', `suggest-overlay: cannot read ${values.queries} (${(cause as NodeJS.ErrnoException).code ?? String(cause)}); check --queries`);
    }
    const queries = parseSuggestQueries(text, values.queries);
    const catalog = loadCatalog(values.registry ?? defaultCatalogDir());
    const report = suggestKeywords(buildCatalogSet([catalog]), queries, values.queries);
    const lines = [
      `${report.considered} quer${report.considered === 1 ? 'y' : 'ies'} for ${catalog.meta.name}: ${report.hits} found in the top ${TOP_N}, ${report.misses.length} missed` +
        (report.skippedOtherCatalog > 0 ? ` (${report.skippedOtherCatalog} for other catalogs skipped)` : ''),
    ];
    for (const u of report.unknownExpect) lines.push(`  line ${u.line}: no operation named ${u.expect.join(' or ')} in ${catalog.meta.name}; skipped`);
    for (const m of report.misses) {
      lines.push(`  line ${m.line}: "${m.query}" -> ${m.expect[0]} ${rankText(m.rank)}; ${m.added.length > 0 ? `adds ${m.added.join(', ')}` : 'no new words (they are already there: the ranking needs another fix)'}`);
    }
    const yaml = renderOverlay(report, values.queries, catalog.meta.name);
    if (yaml === undefined) {
      // an older overlay left at --out would be applied again by `suggest-overlay --out F && import --overlay F`
      const removed = values.out !== undefined && existsSync(values.out);
      if (removed) rmSync(values.out as string);
      lines.push(`nothing to suggest${removed ? `; removed the older ${values.out} (its suggestions are not this run's)` : ''}`);
      process.stderr.write(lines.join('\n') + '\n');
      return 0;
    }
    lines.push(`${report.suggestions.length} action(s) suggested${values.out !== undefined ? ` in ${values.out}` : ''}; apply with: api-catalog import <spec> --overlay ${values.out ?? '<file>'}`);
    if (values.out !== undefined) writeCheckedFile('suggest-overlay', '--out', values.out, yaml);
    else process.stdout.write(yaml);
    process.stderr.write(lines.join('\n') + '\n');
    return 0;
  } catch (err) {
    if (isUsageError(err)) throw err;
    process.stderr.write(`api-catalog suggest-overlay: ${isAppError(err) ? err.message.replace(/^suggest-overlay: /, '') : `unexpected error: ${err instanceof Error ? err.message : String(err)}`}\n`);
    return 1;
  }
}
