// Relevance evaluation for search: parses a JSONL query file ({catalog, query, expect: [operationIds]})
// and measures Recall@1, Recall@5 and MRR@10 of a SearchIndex. Pure: no I/O, prints nothing.
import { AppError } from '../errors.js';
import type { Operation } from '../types.js';
import type { SearchIndex } from './index.js';

export interface EvalQuery {
  catalog: string;
  query: string;
  /** Acceptable operationIds; any one of them counts as a hit. */
  expect: string[];
  /** 1-based line in the source file. */
  line: number;
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
      throw new AppError('CONFIG_INVALID', `eval: ${where} is not valid JSON; each line must be {"catalog","query","expect":[...]}`);
    }
    const v = value as { catalog?: unknown; query?: unknown; expect?: unknown };
    if (
      typeof value !== 'object' || value === null ||
      typeof v.catalog !== 'string' || !/^[a-z0-9_-]+$/.test(v.catalog) ||
      typeof v.query !== 'string' ||
      !Array.isArray(v.expect) || v.expect.length === 0 || !v.expect.every((e) => typeof e === 'string')
    ) {
      throw new AppError(
        'CONFIG_INVALID',
        `eval: ${where} needs "catalog" (a-z0-9_-), "query" (string) and "expect" (non-empty array of operationIds)`,
      );
    }
    out.push({ catalog: v.catalog, query: v.query, expect: v.expect as string[], line: k + 1 });
  }
  return out;
}

/** Runs each query against `index` and scores the ranks of the expected operationIds. */
export function evaluate(
  index: SearchIndex,
  operations: readonly Operation[],
  queries: readonly EvalQuery[],
): { metrics: EvalMetrics; misses: EvalMiss[] } {
  const operationId = new Map(operations.map((op) => [op.name, op.operationId]));
  let r1 = 0;
  let r5 = 0;
  let rr = 0;
  const misses: EvalMiss[] = [];
  for (const q of queries) {
    const top = index.search(q.query, { limit: 10 }).results.map((h) => operationId.get(h.name) ?? h.name);
    const at = top.findIndex((id) => q.expect.includes(id));
    if (at === 0) r1++;
    if (at >= 0 && at < 5) r5++;
    if (at >= 0) rr += 1 / (at + 1);
    if (at !== 0) misses.push({ line: q.line, query: q.query, expect: q.expect, rank: at >= 0 ? at + 1 : null, top: top.slice(0, 3) });
  }
  const n = queries.length;
  return {
    metrics: { queries: n, recallAt1: n ? r1 / n : 0, recallAt5: n ? r5 / n : 0, mrr: n ? rr / n : 0 },
    misses,
  };
}

/** Query-weighted mean of several catalogs' metrics. */
export function combineMetrics(parts: readonly EvalMetrics[]): EvalMetrics {
  const n = parts.reduce((s, p) => s + p.queries, 0);
  const avg = (f: (p: EvalMetrics) => number): number => (n ? parts.reduce((s, p) => s + f(p) * p.queries, 0) / n : 0);
  return { queries: n, recallAt1: avg((p) => p.recallAt1), recallAt5: avg((p) => p.recallAt5), mrr: avg((p) => p.mrr) };
}
