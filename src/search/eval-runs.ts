// Evaluation across sets and runs (eval.ts measures one query set against one index): the pooled and the per-set
// mean of several sets' metrics, a saved run (format api-catalog-eval/1) read back, and two runs lined up set by set
// with the queries that moved and a bootstrap interval on the MRR change. Pure: no I/O, prints nothing.
import { AppError } from '../errors.js';
import type { EvalMetrics, EvalOutcome, KeywordsMode } from './eval.js';

/** Query-weighted mean of several catalogs' (or sets') metrics: every query counts once ("pooled"). */
export function combineMetrics(parts: readonly EvalMetrics[]): EvalMetrics {
  const n = parts.reduce((s, p) => s + p.queries, 0);
  const avg = (f: (p: EvalMetrics) => number): number => (n ? parts.reduce((s, p) => s + f(p) * p.queries, 0) / n : 0);
  return { queries: n, recallAt1: avg((p) => p.recallAt1), recallAt5: avg((p) => p.recallAt5), mrr: avg((p) => p.mrr) };
}

/**
 * Unweighted mean over sets (each set counts once, as BEIR averages over datasets), so a large set does not
 * drown a small one; `queries` is the total.
 */
export function meanMetrics(parts: readonly EvalMetrics[]): EvalMetrics {
  const k = parts.length;
  const avg = (f: (p: EvalMetrics) => number): number => (k ? parts.reduce((s, p) => s + f(p), 0) / k : 0);
  return {
    queries: parts.reduce((s, p) => s + p.queries, 0),
    recallAt1: avg((p) => p.recallAt1),
    recallAt5: avg((p) => p.recallAt5),
    mrr: avg((p) => p.mrr),
  };
}

/** A run as `api-catalog eval --save` writes it and `--baseline` / `--compare` read it. */
export interface SavedRun {
  format: 'api-catalog-eval/1';
  created: string;
  /** `weights`: the learned build's folder when not the built-in one (API_CATALOG_SEMANTIC_DIR). */
  settings: { keywords: KeywordsMode; domain: 'use' | 'ignore'; weights?: string };
  sets: Array<{ set: string; file: string; metrics: EvalMetrics; catalogs: Record<string, EvalMetrics>; queries: EvalOutcome[] }>;
  mean: EvalMetrics;
  pooled: EvalMetrics;
}

const isMetrics = (m: unknown): m is EvalMetrics => {
  const x = m as Record<string, unknown> | null;
  return (
    typeof x === 'object' && x !== null &&
    ['queries', 'recallAt1', 'recallAt5', 'mrr'].every((k) => typeof x[k] === 'number' && Number.isFinite(x[k]))
  );
};

/** Parses a saved run; throws CONFIG_INVALID naming the file and what is wrong. */
export function parseSavedRun(text: string, file: string): SavedRun {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('CONFIG_INVALID', `eval: ${file} is not valid JSON; pass a file written by api-catalog eval --save`);
  }
  const v = value as Partial<SavedRun> | null;
  if (typeof v !== 'object' || v === null || v.format !== 'api-catalog-eval/1' || !Array.isArray(v.sets)) {
    throw new AppError('CONFIG_INVALID', `eval: ${file} is not a saved eval run (format api-catalog-eval/1); write one with --save`);
  }
  v.sets.forEach((s, k) => {
    if (typeof s !== 'object' || s === null || typeof s.set !== 'string' || !isMetrics(s.metrics) || !Array.isArray(s.queries)) {
      throw new AppError('CONFIG_INVALID', `eval: ${file}: set #${k + 1} needs "set", "metrics" and "queries"`);
    }
  });
  const repeated = repeatedSet(v as SavedRun);
  if (repeated !== undefined) {
    throw new AppError(
      'CONFIG_INVALID',
      `eval: ${file}: two sets are both named ${JSON.stringify(repeated.set)} (${repeated.files.join(' and ')}), so they cannot be told apart; ` +
        'an older api-catalog named a set after its file name alone: run the eval again with --save',
    );
  }
  return v as SavedRun;
}

/** The first set name a run holds twice, with the files of its sets; undefined when every name is unique. */
function repeatedSet(run: SavedRun): { set: string; files: string[] } | undefined {
  const seen = new Set<string>();
  for (const s of run.sets) {
    if (seen.has(s.set)) return { set: s.set, files: run.sets.filter((x) => x.set === s.set).map((x) => x.file) };
    seen.add(s.set);
  }
  return undefined;
}

export interface CompareRow {
  set: string;
  before?: EvalMetrics;
  after?: EvalMetrics;
}

export interface QueryChange {
  set: string;
  line: number;
  query: string;
  before: number | null;
  after: number | null;
}

/**
 * Lines up two runs set by set (by set name), then `mean` and `pooled` over the sets both runs measured, and
 * lists the queries whose rank changed (matched by set, line and query text). A run that names two sets alike is
 * a CONFIG_INVALID: lined up by name, one of them would silently replace the other.
 */
export function compareRuns(
  before: SavedRun,
  after: SavedRun,
): { rows: CompareRow[]; common: number; mean: CompareRow; pooled: CompareRow; changes: QueryChange[]; mrrDelta: DeltaInterval | null } {
  for (const [label, run] of [['before', before], ['after', after]] as const) {
    const repeated = repeatedSet(run);
    if (repeated !== undefined) {
      throw new AppError('CONFIG_INVALID', `eval: the ${label} run has two sets named ${JSON.stringify(repeated.set)} (${repeated.files.join(' and ')}); give each set a name of its own`);
    }
  }
  const a = new Map(before.sets.map((s) => [s.set, s]));
  const b = new Map(after.sets.map((s) => [s.set, s]));
  const names = [...new Set([...a.keys(), ...b.keys()])];
  const rows: CompareRow[] = names.map((set) => {
    const row: CompareRow = { set };
    const x = a.get(set);
    const y = b.get(set);
    if (x) row.before = x.metrics;
    if (y) row.after = y.metrics;
    return row;
  });
  const both = names.filter((n) => a.has(n) && b.has(n));
  const pick = (m: Map<string, SavedRun['sets'][number]>): EvalMetrics[] => both.map((n) => (m.get(n) as SavedRun['sets'][number]).metrics);
  const changes: QueryChange[] = [];
  const paired: number[][] = [];
  for (const set of both) {
    const pairs: number[] = [];
    const old = new Map((a.get(set) as SavedRun['sets'][number]).queries.map((q) => [`${q.line}\u0000${q.query}`, q.rank]));
    for (const q of (b.get(set) as SavedRun['sets'][number]).queries) {
      const key = `${q.line}\u0000${q.query}`;
      if (!old.has(key)) continue;
      const was = old.get(key) ?? null;
      if (was !== q.rank) changes.push({ set, line: q.line, query: q.query, before: was, after: q.rank });
      pairs.push(reciprocal(q.rank) - reciprocal(was));
    }
    if (pairs.length > 0) paired.push(pairs);
  }
  return {
    rows,
    common: both.length,
    mean: { set: 'mean', before: meanMetrics(pick(a)), after: meanMetrics(pick(b)) },
    pooled: { set: 'pooled', before: combineMetrics(pick(a)), after: combineMetrics(pick(b)) },
    changes,
    mrrDelta: paired.length > 0 ? bootstrapMeanOverSets(paired) : null,
  };
}

/** Reciprocal rank within the top 10 (0 when absent), as MRR@10 counts it. */
const reciprocal = (rank: number | null): number => (rank !== null && rank <= 10 ? 1 / rank : 0);

export interface DeltaInterval {
  /** Mean over sets of the per-set mean change. */
  point: number;
  /** 95% bootstrap interval (2.5th and 97.5th percentiles). */
  lo: number;
  hi: number;
  sets: number;
  queries: number;
}

/**
 * Mean over sets of each set's mean paired difference, with a 95% percentile-bootstrap interval: queries are
 * resampled with replacement within each set (sets stay fixed), `draws` times, from a fixed seed so the same two
 * runs always print the same interval. An interval that excludes zero is a change beyond query-sampling noise.
 */
export function bootstrapMeanOverSets(perSet: readonly (readonly number[])[], draws = 2000, seed = 11): DeltaInterval {
  let state = seed >>> 0;
  const random = (): number => {
    // mulberry32: small, fast, deterministic
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const sets = perSet.filter((d) => d.length > 0);
  const meanOf = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const point = sets.length ? meanOf(sets.map(meanOf)) : 0;
  const boots: number[] = [];
  for (let b = 0; b < draws && sets.length > 0; b++) {
    let total = 0;
    for (const d of sets) {
      let s = 0;
      for (let k = 0; k < d.length; k++) s += d[Math.floor(random() * d.length)] as number;
      total += s / d.length;
    }
    boots.push(total / sets.length);
  }
  boots.sort((x, y) => x - y);
  const at = (q: number): number => boots[Math.min(boots.length - 1, Math.max(0, Math.floor(q * boots.length)))] ?? point;
  return { point, lo: at(0.025), hi: at(0.975), sets: sets.length, queries: sets.reduce((n, d) => n + d.length, 0) };
}
