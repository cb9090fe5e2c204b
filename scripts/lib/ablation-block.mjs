// The ablation table's block in docs/SEARCH.md (between `<!-- ablation:start -->` and `<!-- ablation:end -->`), as
// scripts/search-ablation.mjs writes it. Its note says when the table was measured: a run whose table and counts are
// the ones already there keeps that date, so re-running the ablation on an unchanged ranking leaves the file as it is.

export const ABLATION_START = '<!-- ablation:start -->';
export const ABLATION_END = '<!-- ablation:end -->';
const DATE = /\b\d{4}-\d{2}-\d{2}\b/;

/**
 * `text` (docs/SEARCH.md) with its ablation block set to `note(date)` and `table`: the date of the block there when
 * nothing else in it changes, else `today`. Undefined when the markers are missing.
 * @param {string} text
 * @param {{ note: (date: string) => string, table: string, today: string }} block
 */
export function withAblationBlock(text, { note, table, today }) {
  const from = text.indexOf(ABLATION_START);
  const to = text.indexOf(ABLATION_END);
  if (from < 0 || to < from) return undefined;
  const body = (date) => `\n${note(date)}\n\n${table}\n`;
  const old = text.slice(from + ABLATION_START.length, to);
  const was = DATE.exec(old)?.[0];
  const date = was !== undefined && body(was) === old ? was : today;
  return `${text.slice(0, from + ABLATION_START.length)}${body(date)}${text.slice(to)}`;
}
