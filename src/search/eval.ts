// Relevance evaluation for search: parses JSONL query files ({catalog, query, keywords?, domain?, request?,
// expect}) and measures Recall@1, Recall@5 and MRR@10 of a SearchIndex; eval-runs.ts sums sets up and compares two
// saved runs. Pure: no I/O, prints nothing.
import { AppError } from '../errors.js';
import type { Operation } from '../types.js';
import type { SearchIndex, SearchOptions } from './index.js';

export interface EvalQuery {
  catalog: string;
  query: string;
  /** Acceptable operations, each by operationId or name (as search shows it); any one of them counts as a hit. */
  expect: string[];
  /** 1-based line in the source file. */
  line: number;
  /** Agent-style lines: words the agent thought the API may use for the same thing. */
  keywords?: string[];
  /** Agent-style lines: the domain the agent picked from list_domains (passed as the search domain filter). */
  domain?: string;
  /** Agent-style lines: the user's own request the call was made for (documentation only, never searched). */
  request?: string;
}

export interface EvalMetrics {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  /** Mean reciprocal rank of the first acceptable operation within the top 10 (0 when absent). */
  mrr: number;
}

export interface EvalMiss {
  line: number;
  query: string;
  expect: string[];
  /** 1-based rank of the first acceptable operation, or null when not in the top 10. */
  rank: number | null;
  top: string[];
}

/** One query's outcome, kept in saved runs so two runs can be compared query by query. */
export interface EvalOutcome {
  line: number;
  catalog: string;
  query: string;
  /** 1-based rank of the first acceptable operation, or null when not in the top 10. */
  rank: number | null;
}

/**
 * How an agent-style line's `keywords` reach the search: `option` as SearchOptions.keywords (when the index
 * supports it), `append` to the query text, `ignore` dropped.
 */
export type KeywordsMode = 'option' | 'append' | 'ignore';

export interface EvalSettings {
  keywords: KeywordsMode;
  /** Pass an agent-style line's `domain` as the search domain filter (default true). */
  useDomain: boolean;
}

const DEFAULT_SETTINGS: EvalSettings = { keywords: 'append', useDomain: true };

const SHAPE =
  '{"catalog","query","expect":[...]} with optional "keywords":[strings], "domain":string, "request":string';

/**
 * Parses a query file. Blank lines are skipped. Throws AppError CONFIG_INVALID naming the file and the
 * 1-based line of the first malformed entry.
 */
export function parseQueryFile(text: string, file: string): EvalQuery[] {
  const out: EvalQuery[] = [];
  const lines = text.split(/\r?\n/);
  for (let k = 0; k < lines.length; k++) {
    const raw = (lines[k] as string).trim();
    if (raw === '') continue;
    const where = `${file}:${k + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new AppError('CONFIG_INVALID', `eval: ${where} is not valid JSON; each line must be ${SHAPE}`);
    }
    const v = value as { catalog?: unknown; query?: unknown; expect?: unknown; keywords?: unknown; domain?: unknown; request?: unknown };
    if (
      typeof value !== 'object' || value === null ||
      typeof v.catalog !== 'string' || !/^[a-z0-9_-]+$/.test(v.catalog) ||
      typeof v.query !== 'string' ||
      !Array.isArray(v.expect) || v.expect.length === 0 || !v.expect.every((e) => typeof e === 'string')
    ) {
      throw new AppError(
        'CONFIG_INVALID',
        `eval: ${where} needs "catalog" (a-z0-9_-), "query" (string) and "expect" (non-empty array of operation names or operationIds)`,
      );
    }
    // a blank query searches nothing (or browses a domain in name order): it would score as a silent miss
    if (v.query.trim() === '') {
      throw new AppError('CONFIG_INVALID', `eval: ${where}: "query" is blank; give the words a user or an agent would search with`);
    }
    if (v.keywords !== undefined && !(Array.isArray(v.keywords) && v.keywords.every((w) => typeof w === 'string'))) {
      throw new AppError('CONFIG_INVALID', `eval: ${where}: "keywords" must be an array of strings`);
    }
    if (v.domain !== undefined && (typeof v.domain !== 'string' || v.domain === '')) {
      throw new AppError('CONFIG_INVALID', `eval: ${where}: "domain" must be a non-empty string (a name list_domains shows)`);
    }
    if (v.request !== undefined && typeof v.request !== 'string') {
      throw new AppError('CONFIG_INVALID', `eval: ${where}: "request" must be a string`);
    }
    const q: EvalQuery = { catalog: v.catalog, query: v.query, expect: v.expect as string[], line: k + 1 };
    if (v.keywords !== undefined) q.keywords = v.keywords as string[];
    if (v.domain !== undefined) q.domain = v.domain as string;
    if (v.request !== undefined) q.request = v.request as string;
    out.push(q);
  }
  return out;
}

/** What evaluation needs of an index: its search (a SearchIndex, or a wrapper around one in experiments). */
export type Searcher = Pick<SearchIndex, 'search'>;

/** SearchOptions plus the `keywords` option the search pipeline may offer (absent from older builds). */
type SearchOptionsWithKeywords = SearchOptions & { keywords?: string[] };

/**
 * True when `index.search` honours SearchOptions.keywords: a query that matches nothing finds more with a
 * keyword the catalog indexes than without it (keywords widen recall), or a real query ranks differently with
 * a keyword than without (keywords only re-rank). Builds that ignore the option answer identically.
 */
export function supportsKeywordsOption(index: Searcher, operations: readonly Operation[]): boolean {
  // a few words the catalog certainly indexes: its domain names first, then summary words
  const words = [
    ...new Set(
      operations
        .flatMap((op) => [...op.domain.split(/[^a-z]+/), ...(op.summary ?? '').toLowerCase().split(/[^a-z]+/)])
        .filter((w) => w.length >= 4),
    ),
  ].slice(0, 5);
  const withKeywords = (keyword: string): SearchOptionsWithKeywords => ({ limit: 10, keywords: [keyword] });
  const nonsense = 'qzxqzxqzxqzx';
  const without = index.search(nonsense, { limit: 1 }).total;
  if (words.some((w) => index.search(nonsense, withKeywords(w)).total > without)) return true;
  const query = operations.find((op) => (op.summary ?? '').trim() !== '')?.summary ?? '';
  if (query === '') return false;
  const answer = (options: SearchOptionsWithKeywords): string =>
    JSON.stringify(index.search(query, options).results.map((h) => [h.name, h.score]));
  const plain = answer({ limit: 10 });
  return words.some((w) => answer(withKeywords(w)) !== plain);
}

/** The query text and options one line is searched with under `settings`. */
export function searchRequest(q: EvalQuery, settings: EvalSettings): { text: string; options: SearchOptionsWithKeywords } {
  const options: SearchOptionsWithKeywords = { limit: 10 };
  if (settings.useDomain && q.domain !== undefined) options.domain = q.domain;
  const keywords = q.keywords ?? [];
  let text = q.query;
  if (keywords.length > 0 && settings.keywords === 'append') text = `${q.query} ${keywords.join(' ')}`;
  if (keywords.length > 0 && settings.keywords === 'option') options.keywords = [...keywords];
  return { text, options };
}

/** An `expect` entry that names no operation of its catalog (by name or operationId): it can never be found. */
export interface UnknownExpect {
  line: number;
  entry: string;
}

/**
 * The `expect` entries of `queries` that match no operation of `operations`, by name (as search and describe show
 * it, `issues_create`) or operationId (`issues/create`), in line order.
 */
export function unknownExpects(operations: readonly Operation[], queries: readonly EvalQuery[]): UnknownExpect[] {
  const known = new Set(operations.flatMap((op) => [op.name, op.operationId]));
  return queries.flatMap((q) => [...new Set(q.expect)].filter((e) => !known.has(e)).map((entry) => ({ line: q.line, entry })));
}

/** Where a query line went wrong in evaluate(): the `details` of its CONFIG_INVALID (the search's error is the `cause`). */
export interface EvalLineProblem {
  line: number;
  catalog: string;
}

/**
 * Runs each query against `index` and scores the ranks of the expected operations, each named by its operationId
 * or its name (the first hit either names counts). An agent-style line's domain that the catalog does not have is a
 * CONFIG_INVALID naming the line (the set is wrong, not the search).
 */
export function evaluate(
  index: Searcher,
  operations: readonly Operation[],
  queries: readonly EvalQuery[],
  settings: EvalSettings = DEFAULT_SETTINGS,
): { metrics: EvalMetrics; misses: EvalMiss[]; outcomes: EvalOutcome[] } {
  const operationId = new Map(operations.map((op) => [op.name, op.operationId]));
  let r1 = 0;
  let r5 = 0;
  let rr = 0;
  const misses: EvalMiss[] = [];
  const outcomes: EvalOutcome[] = [];
  for (const q of queries) {
    const { text, options } = searchRequest(q, settings);
    let hits;
    try {
      hits = index.search(text, options).results;
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNKNOWN_DOMAIN') {
        // the search's own error stays the cause, so a caller can word it for its readers (the CLI does)
        const details: EvalLineProblem = { line: q.line, catalog: q.catalog };
        throw new AppError('CONFIG_INVALID', `eval: line ${q.line} (${q.catalog}): ${err.message}`, { details, cause: err });
      }
      throw err;
    }
    const top = hits.map((h) => operationId.get(h.name) ?? h.name);
    const at = hits.findIndex((h, k) => q.expect.includes(top[k] as string) || q.expect.includes(h.name));
    if (at === 0) r1++;
    if (at >= 0 && at < 5) r5++;
    if (at >= 0) rr += 1 / (at + 1);
    const rank = at >= 0 ? at + 1 : null;
    outcomes.push({ line: q.line, catalog: q.catalog, query: q.query, rank });
    if (at !== 0) misses.push({ line: q.line, query: q.query, expect: q.expect, rank, top: top.slice(0, 3) });
  }
  const n = queries.length;
  return {
    metrics: { queries: n, recallAt1: n ? r1 / n : 0, recallAt5: n ? r5 / n : 0, mrr: n ? rr / n : 0 },
    misses,
    outcomes,
  };
}

// Many importers (the CLI, the gate, tests) read the whole evaluation API here.
export {
  bootstrapMeanOverSets, combineMetrics, compareRuns, meanMetrics, parseSavedRun, type CompareRow, type DeltaInterval, type QueryChange, type SavedRun,
} from './eval-runs.js';
