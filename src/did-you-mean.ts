// "Did you mean": the known names closest to one typed wrong. One ranking for every place a name is typed: the CLI's
// flags, commands and values (src/cli/args.ts), the config file's keys (src/config/schema.ts) and the API-key scheme
// names a config gives credentials for (src/execution/credential-names.ts). A leaf module: no I/O, no imports of ours.
import { distance } from 'fastest-levenshtein';

/** One word's singular: `registries` -> `registry`, `allowHosts` -> `allowHost`. */
const singular = (w: string): string => (w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.endsWith('s') ? w.slice(0, -1) : w);

/** Edit distance counting a swap of two neighbouring letters as one edit (`nicl` -> `incl`), for breaking ties. */
function swapDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The candidates closest to `typed`, closest first, at most `max`: the same name in another case (`readonly`) or
 * singular for plural (`registry`); then one it is the start of (3 letters or more: `rateLimit`); then one within a
 * small edit distance (1 up to 3 letters, 2 up to 8 (a swapped pair, `prot`, is 2), else 3). Leading dashes (`--prot`)
 * do not count as letters. Ties: the smaller edit distance, then the one a swap of letters explains (`nicludeDomains`:
 * `includeDomains`, not `excludeDomains`), then alphabetical.
 */
export function closest(typed: string, candidates: readonly string[], max = 3): string[] {
  const t = typed.toLowerCase();
  const n = t.replace(/^-+/, '').length;
  if (n === 0) return [];
  const limit = n <= 3 ? 1 : n <= 8 ? 2 : 3;
  const ranked: Array<{ c: string; score: number; d: number; swaps: number }> = [];
  for (const c of new Set(candidates)) {
    const k = c.toLowerCase();
    const d = distance(t, k);
    const score = d === 0 || singular(t) === singular(k) ? 0 : n >= 3 && k.startsWith(t) ? 1 : d <= limit ? 1 + d : undefined;
    if (score !== undefined) ranked.push({ c, score, d, swaps: swapDistance(t, k) });
  }
  return ranked
    .sort((a, b) => a.score - b.score || a.d - b.d || a.swaps - b.swaps || a.c.localeCompare(b.c))
    .slice(0, max)
    .map(({ c }) => c);
}
