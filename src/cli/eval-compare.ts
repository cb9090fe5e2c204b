// `api-catalog eval --baseline` / `--compare`: two saved runs side by side (per set before -> after with deltas, the
// MRR change with its bootstrap interval, the queries whose rank moved), as a table or JSON. Printing only.
import { existsSync, readFileSync } from 'node:fs';
import { AppError } from '../errors.js';
import { compareRuns, parseSavedRun, type CompareRow, type SavedRun } from '../search/eval.js';
import { UsageError } from './args.js';

/** The flags of a run that searches; `--compare` only reads two saved runs, so none of them applies to it. */
const SEARCH_FLAGS = ['registry', 'spec', 'keywords', 'domain', 'save', 'baseline', 'misses', 'embeddings-url', 'embeddings-model', 'embeddings-dimensions', 'fusion'];

/** A UsageError naming the search flags given with --compare: silently ignored, they would look honoured. */
export function checkCompareFlags(values: Record<string, unknown>): void {
  const given = SEARCH_FLAGS.filter((f) => (Array.isArray(values[f]) ? (values[f] as unknown[]).length > 0 : values[f] !== undefined && values[f] !== false));
  if (given.length === 0) return;
  const one = given.length === 1;
  throw new UsageError(
    `eval: --compare compares two saved runs without searching, so ${given.map((f) => `--${f}`).join(', ')} ${one ? 'does' : 'do'} not apply; ` +
      `drop ${one ? 'it' : 'them'} (--json applies)`,
  );
}

/** A comparison as JSON prints it (`eval --baseline --json` and `eval --compare --json`). */
export function comparisonJson(before: SavedRun, after: SavedRun): Record<string, unknown> {
  const c = compareRuns(before, after);
  return { rows: c.rows, common: c.common, mean: c.mean, pooled: c.pooled, mrrDelta: c.mrrDelta, changes: c.changes };
}

/** `eval --compare <before> <after> [--json]`: the table, or the two runs' files and settings with the comparison. */
export function compareFiles(files: [string, string], json: boolean): string {
  const [before, after] = files.map(readRun) as [SavedRun, SavedRun];
  if (!json) return formatComparison(before, after, files);
  const side = (file: string, run: SavedRun) => ({ file, settings: run.settings });
  return JSON.stringify({ before: side(files[0], before), after: side(files[1], after), comparison: comparisonJson(before, after) }, null, 2) + '\n';
}

export const fmt = (x: number): string => x.toFixed(3);

const signed = (x: number): string => (x >= 0 ? '+' : '-') + Math.abs(x).toFixed(3);

/** One metric as `before -> after +delta`, or the side that exists. */
function delta(before: number | undefined, after: number | undefined): string {
  if (before === undefined) return `    - -> ${fmt(after ?? 0)}       `;
  if (after === undefined) return `${fmt(before)} ->     -       `;
  return `${fmt(before)} -> ${fmt(after)} ${signed(after - before)}`;
}

/** `, weights <folder>` for a run ranked with a learned build other than the built-in one. */
const weightsNote = (run: SavedRun): string => (run.settings.weights === undefined ? '' : `, weights ${run.settings.weights}`);

/** The before/after table of a comparison, one row per set, then mean and pooled over the common sets. */
export function formatComparison(before: SavedRun, after: SavedRun, labels: [string, string]): string {
  const c = compareRuns(before, after);
  const width = Math.max(10, `mean (${c.common} sets)`.length, ...c.rows.map((r) => r.set.length));
  const line = (r: CompareRow): string => {
    const q = r.after?.queries ?? r.before?.queries ?? 0;
    return (
      `${r.set.padEnd(width)} ${String(q).padStart(7)}  ${delta(r.before?.recallAt1, r.after?.recallAt1)}  ` +
      `${delta(r.before?.recallAt5, r.after?.recallAt5)}  ${delta(r.before?.mrr, r.after?.mrr)}`
    );
  };
  const out = [
    `before: ${labels[0]} (keywords ${before.settings.keywords}, domain ${before.settings.domain}${weightsNote(before)})`,
    `after:  ${labels[1]} (keywords ${after.settings.keywords}, domain ${after.settings.domain}${weightsNote(after)})`,
    `${'set'.padEnd(width)} queries  ${'R@1'.padEnd(22)}  ${'R@5'.padEnd(22)}  MRR`,
    ...c.rows.map(line),
    line({ ...c.mean, set: `mean (${c.common} sets)` }),
    line(c.pooled),
  ];
  if (c.common < c.rows.length) out.push(`(mean and pooled over the ${c.common} sets both runs measured)`);
  if (c.mrrDelta) {
    const d = c.mrrDelta;
    const verdict = d.lo > 0 ? 'better beyond query noise' : d.hi < 0 ? 'worse beyond query noise' : 'within query noise';
    out.push(
      `MRR change, mean over ${d.sets} sets (${d.queries} paired queries): ${signed(d.point)}, ` +
        `95% bootstrap interval [${signed(d.lo)}, ${signed(d.hi)}]: ${verdict}`,
    );
  }
  if (c.changes.length > 0) {
    const better = c.changes.filter((x) => (x.after ?? 99) < (x.before ?? 99)).length;
    out.push('', `ranks changed: ${c.changes.length} (${better} better, ${c.changes.length - better} worse)`);
    for (const x of c.changes) {
      out.push(`  ${x.set}:${x.line} [${x.before ?? '-'} -> ${x.after ?? '-'}] ${JSON.stringify(x.query)}`);
    }
  }
  return out.join('\n') + '\n';
}

export function readRun(file: string): SavedRun {
  if (!existsSync(file)) throw new AppError('CONFIG_INVALID', `eval: saved run ${file} does not exist; write one with --save`);
  return parseSavedRun(readFileSync(file, 'utf8'), file);
}
