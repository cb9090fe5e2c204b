// The search-quality gate: every query set measured in `npm test` against a committed baseline (per run R@1, R@5,
// MRR@10, and each query's rank), failing when a set loses more than its noise and naming the queries that moved.
// The runs, the baseline's text form (one line per query, so its git diff names every moved query) and the check.
// Pure: test/search/quality-gate.test.ts and scripts/search-gate.mjs read and write the files. docs/SEARCH.md, "The gate".
import { bootstrapMeanOverSets, evaluate, type EvalQuery, type EvalSettings, type Searcher } from './eval.js';
import type { Operation } from '../types.js';

/** A set searched one way: as an agent calls it (its domain and keywords), or without the domain it picked. */
export interface GateRun {
  /** `queries-zoom-agent`, or `queries-zoom-agent (no domain)`. */
  name: string;
  set: string;
  settings: EvalSettings;
  queries: EvalQuery[];
}

/** One query's rank in a run (null: not in the top 10). */
export interface GateQuery {
  line: number;
  query: string;
  rank: number | null;
}

export interface GateResult {
  run: string;
  queries: GateQuery[];
}

/** The suffix of a run that ignores the domain each line picked. */
export const NO_DOMAIN = ' (no domain)';
/** The suffix of a run of a set's queries with typos in them ({@link typoQueries}). */
export const TYPOS = ' (typos)';

/**
 * The runs of one query set: as it is (keywords as SearchOptions.keywords, the domain as the filter); when some
 * line names a domain, again without it (the issue's goals hold with and without the domain); and its queries with
 * a typo in every word a person could mistype ({@link typoQueries}), as they are otherwise searched.
 */
export function gateRuns(set: string, queries: EvalQuery[]): GateRun[] {
  const settings: EvalSettings = { keywords: 'option', useDomain: true };
  const runs: GateRun[] = [{ name: set, set, settings, queries }];
  if (queries.some((q) => q.domain !== undefined)) {
    runs.push({ name: `${set}${NO_DOMAIN}`, set, settings: { keywords: 'option', useDomain: false }, queries });
  }
  const typos = typoQueries(queries);
  if (typos.length > 0) runs.push({ name: `${set}${TYPOS}`, set, settings, queries: typos });
  return runs;
}

/** Measures one run: `indexFor` gives each line's catalog's index and operations. */
export function measureRun(run: GateRun, indexFor: (catalog: string) => { index: Searcher; operations: readonly Operation[] }): GateResult {
  const out: GateQuery[] = [];
  const byCatalog = new Map<string, EvalQuery[]>();
  for (const q of run.queries) byCatalog.set(q.catalog, [...(byCatalog.get(q.catalog) ?? []), q]);
  for (const [catalog, queries] of byCatalog) {
    const { index, operations } = indexFor(catalog);
    for (const o of evaluate(index, operations, queries, run.settings).outcomes) out.push({ line: o.line, query: o.query, rank: o.rank });
  }
  out.sort((a, b) => a.line - b.line);
  return { run: run.name, queries: out };
}

/** Reciprocal rank as MRR@10 counts it. */
export const reciprocalRank = (rank: number | null): number => (rank !== null && rank <= 10 ? 1 / rank : 0);

export interface RunMetrics {
  queries: number;
  r1: number;
  r5: number;
  mrr: number;
}

export function runMetrics(queries: readonly GateQuery[]): RunMetrics {
  const n = queries.length;
  const share = (f: (q: GateQuery) => number): number => (n === 0 ? 0 : queries.reduce((s, q) => s + f(q), 0) / n);
  return {
    queries: n,
    r1: share((q) => (q.rank === 1 ? 1 : 0)),
    r5: share((q) => (q.rank !== null && q.rank <= 5 ? 1 : 0)),
    mrr: share((q) => reciprocalRank(q.rank)),
  };
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/**
 * The baseline file: per run one metrics line, then one line per query with its rank, runs in name order. Every
 * line is JSON, so a moved query is one changed line in `git diff`.
 */
export function formatBaseline(results: readonly GateResult[]): string {
  const lines: string[] = [];
  for (const r of [...results].sort((a, b) => (a.run < b.run ? -1 : a.run > b.run ? 1 : 0))) {
    const m = runMetrics(r.queries);
    lines.push(JSON.stringify({ run: r.run, queries: m.queries, r1: round4(m.r1), r5: round4(m.r5), mrr: round4(m.mrr) }));
    for (const q of r.queries) lines.push(JSON.stringify({ run: r.run, line: q.line, rank: q.rank, query: q.query }));
  }
  return `${lines.join('\n')}\n`;
}

/** Parses a baseline file into each run's queries (the metrics lines are derived, so they are not read back). */
export function parseBaseline(text: string): Map<string, GateQuery[]> {
  const runs = new Map<string, GateQuery[]>();
  text.split('\n').forEach((raw, k) => {
    if (raw.trim() === '') return;
    let v: { run?: unknown; line?: unknown; rank?: unknown; query?: unknown; queries?: unknown };
    try {
      v = JSON.parse(raw) as typeof v;
    } catch {
      throw new Error(`search baseline line ${k + 1} is not JSON; rewrite the file with \`npm run search:baseline\``);
    }
    if (typeof v.run !== 'string') throw new Error(`search baseline line ${k + 1} has no "run"; rewrite the file with \`npm run search:baseline\``);
    const list = runs.get(v.run) ?? [];
    runs.set(v.run, list);
    if (v.queries !== undefined) return;
    if (typeof v.line !== 'number' || typeof v.query !== 'string' || !(v.rank === null || typeof v.rank === 'number')) {
      throw new Error(`search baseline line ${k + 1} needs "line", "rank" and "query"; rewrite the file with \`npm run search:baseline\``);
    }
    list.push({ line: v.line, query: v.query, rank: v.rank });
  });
  return runs;
}

/** A query whose rank differs from the baseline's. */
export interface Moved {
  line: number;
  query: string;
  before: number | null;
  after: number | null;
}

export interface RunCheck {
  run: string;
  before?: RunMetrics;
  after: RunMetrics;
  moved: Moved[];
  /** Why the run fails the gate; undefined when it passes. */
  failure?: string;
}

const rankText = (r: number | null): string => (r === null ? '-' : String(r));
const fmt = (x: number): string => x.toFixed(3);

/** The moved queries as lines for a message, worst first (by the change in reciprocal rank). */
export function movedLines(moved: readonly Moved[]): string[] {
  return [...moved]
    .sort((a, b) => reciprocalRank(a.after) - reciprocalRank(a.before) - (reciprocalRank(b.after) - reciprocalRank(b.before)) || a.line - b.line)
    .map((m) => `  line ${m.line} ${JSON.stringify(m.query)}: ${rankText(m.before)} -> ${rankText(m.after)}`);
}

/**
 * One run against its baseline. It fails when its MRR@10 drops by more than one query's worth (1/n: the one
 * query that falls from first to out of the top 10, the smallest change a set of n queries can tell from a
 * trade between queries; docs/SEARCH.md, "The gate"), when it has no baseline, or when its queries are not the
 * baseline's (the set was edited).
 */
export function checkRun(result: GateResult, baseline: readonly GateQuery[] | undefined): RunCheck {
  const after = runMetrics(result.queries);
  if (baseline === undefined) {
    return { run: result.run, after, moved: [], failure: `${result.run}: no baseline; record one with \`npm run search:baseline\`` };
  }
  const before = runMetrics(baseline);
  const old = new Map(baseline.map((q) => [`${q.line}\u0000${q.query}`, q.rank]));
  const same = baseline.length === result.queries.length && result.queries.every((q) => old.has(`${q.line}\u0000${q.query}`));
  if (!same) {
    return { run: result.run, before, after, moved: [], failure: `${result.run}: the set's queries are not the baseline's (edited since); record a new baseline with \`npm run search:baseline\`` };
  }
  const moved: Moved[] = [];
  for (const q of result.queries) {
    const was = old.get(`${q.line}\u0000${q.query}`) ?? null;
    if (was !== q.rank) moved.push({ line: q.line, query: q.query, before: was, after: q.rank });
  }
  const check: RunCheck = { run: result.run, before, after, moved };
  const n = Math.max(1, after.queries);
  if (after.mrr < before.mrr - 1 / n - 1e-9) {
    check.failure = `${result.run}: MRR@10 ${fmt(before.mrr)} -> ${fmt(after.mrr)} (${fmt(after.mrr - before.mrr)}), more than one query's worth (1/${n}); ` +
      `moved:\n${movedLines(moved).join('\n')}\nFix the cause, or, if the trade is deliberate, record it with \`npm run search:baseline\` and say why in the commit.`;
  }
  return check;
}

/**
 * All runs together: the mean over runs of each run's mean change in reciprocal rank, with its 95% bootstrap
 * interval (queries resampled within runs, a fixed seed). Fails when the whole interval is below zero: many small
 * losses that each stay within a run's margin, beyond query-sampling noise.
 */
export function checkOverall(checks: readonly RunCheck[], baseline: ReadonlyMap<string, readonly GateQuery[]>, results: readonly GateResult[]): { point: number; lo: number; hi: number; failure?: string } {
  const byRun = new Map(results.map((r) => [r.run, r]));
  const paired: number[][] = [];
  for (const c of checks) {
    const base = baseline.get(c.run);
    const r = byRun.get(c.run);
    if (base === undefined || r === undefined || c.failure?.includes('not the baseline') === true) continue;
    const old = new Map(base.map((q) => [`${q.line}\u0000${q.query}`, q.rank]));
    paired.push(r.queries.map((q) => reciprocalRank(q.rank) - reciprocalRank(old.get(`${q.line}\u0000${q.query}`) ?? null)));
  }
  const d = bootstrapMeanOverSets(paired);
  const out: { point: number; lo: number; hi: number; failure?: string } = { point: d.point, lo: d.lo, hi: d.hi };
  if (d.hi < 0) {
    const moved = checks.flatMap((c) => movedLines(c.moved).map((l) => `${c.run}${l}`));
    out.failure = `all runs: mean MRR@10 change ${d.point.toFixed(4)}, 95% interval [${d.lo.toFixed(4)}, ${d.hi.toFixed(4)}] below zero; moved:\n${moved.join('\n')}`;
  }
  return out;
}

/** FNV-1a of a string: the typo generator's deterministic choice. */
function choice(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A plain word a person could mistype: letters only, 5 or more, typed in lower case or capitalized. */
const TYPABLE = /^(\p{Lu}?\p{Ll}{4,}(?<=\p{L}{5}))([^\p{L}\p{N}]*)$/u;

/**
 * The word with one slip a person makes typing it, chosen from the word and `salt`: two neighbouring letters
 * swapped, a letter left out, or one typed twice; never the first letter (the typo corrector reads words by their
 * first letter) nor the last two (a plural's `s`, an `-ed`).
 */
export function typo(word: string, salt: string): string {
  const h = choice(`${salt}\u0000${word}`);
  const at = 1 + (h % Math.max(1, word.length - 3));
  const dropped = word.slice(0, at) + word.slice(at + 1);
  switch ((h >>> 8) % 3) {
    // two equal letters swapped are no slip: leave one out instead
    case 0: return word[at] === word[at + 1] ? dropped : word.slice(0, at) + (word[at + 1] as string) + (word[at] as string) + word.slice(at + 2);
    case 1: return dropped;
    default: return word.slice(0, at + 1) + word.slice(at);
  }
}

/** Indexes (in `query.split(' ')`) of the tokens a typo may go into: see {@link TYPABLE}. */
export function typableTokens(query: string): number[] {
  return query.split(' ').flatMap((t, k) => (TYPABLE.test(t) ? [k] : []));
}

/** The query with a typo in each token of `at` (indexes in `query.split(' ')`). */
export function withTypos(query: string, at: readonly number[]): string {
  return query.split(' ').map((t, k) => {
    if (!at.includes(k)) return t;
    const m = TYPABLE.exec(t);
    return m === null ? t : typo(m[1] as string, query) + (m[2] as string);
  }).join(' ');
}

/** Most typos in one generated query (the typo corrector reads at most 4 per query). */
export const MAX_TYPOS = 4;

/**
 * A set's queries with typos in every word a person could mistype (at most {@link MAX_TYPOS}), for the gate's
 * `(typos)` runs; queries without such a word are left out.
 */
export function typoQueries(queries: readonly EvalQuery[]): EvalQuery[] {
  return queries.flatMap((q) => {
    const at = typableTokens(q.query).slice(0, MAX_TYPOS);
    return at.length === 0 ? [] : [{ ...q, query: withTypos(q.query, at) }];
  });
}
