// The exact-title table: which operations' summaries say, word for word, what a query says ("Create a
// repository" for "create repository"). Built once per index as a hash table sorted by hash (two flat arrays,
// stored in the snapshot); a query looks its key up and checks each hit's summary, so a hash collision never
// counts. Pure functions of the lexicon and the text; prints nothing.
import { firstOfHash, keyHash } from './cards.js';
import type { Lexicon } from './lexicon.js';
import { isPlural, splitWords } from './text.js';

/**
 * A text's title key: its words analyzed as the index analyzes them (stop words dropped, stems, abbreviations
 * read), in any order, once each. A plural after the first word keeps its number (`programs` is not `program`:
 * "get live tv programs" lists them, "Gets a live tv program" reads one), while the first word, a summary's verb,
 * may inflect ("Gets" is "get"). Empty when no word is left.
 */
export function titleKey(words: readonly string[], lexicon: Lexicon): string {
  const parts: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    const terms = lexicon.analyze(w);
    if (terms.length === 0) continue;
    const part = k > 0 && isPlural(w) ? `${terms.join('+')}#` : terms.join('+');
    if (!parts.includes(part)) parts.push(part);
  }
  return parts.sort().join(' ');
}

/** The title key of an operation's summary. */
export function summaryKey(summary: string, lexicon: Lexicon): string {
  return titleKey(splitWords(summary), lexicon);
}

export interface TitleTable {
  /** Title-key hashes, ascending. */
  titleKeyHash: Uint32Array;
  /** The document of each hash. */
  titleKeyDoc: Uint32Array;
}

/** The table of every document's summary key (documents in index order; one without a summary has none). */
export function buildTitleTable(summaries: readonly string[], lexicon: Lexicon): TitleTable {
  const entries: Array<[number, number]> = [];
  summaries.forEach((s, i) => {
    const key = summaryKey(s, lexicon);
    if (key !== '') entries.push([keyHash(key), i]);
  });
  entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { titleKeyHash: Uint32Array.from(entries, (e) => e[0]), titleKeyDoc: Uint32Array.from(entries, (e) => e[1]) };
}

/** A restored table is sorted and names documents that exist. */
export function validTitleTable(t: TitleTable, count: number): boolean {
  const { titleKeyHash: hash, titleKeyDoc: doc } = t;
  if (hash.length !== doc.length) return false;
  for (let k = 0; k < doc.length; k++) {
    if ((doc[k] as number) >= count || (k > 0 && (hash[k] as number) < (hash[k - 1] as number))) return false;
  }
  return true;
}

const NONE: readonly number[] = Object.freeze([]);

/**
 * The documents whose summary key is `key`: candidates by hash (binary search), each confirmed by `keyOf` (its
 * summary's key), so two keys that share a hash never match each other.
 */
export function titleDocs(t: TitleTable, key: string, keyOf: (doc: number) => string): readonly number[] {
  if (key === '') return NONE;
  const { titleKeyHash: hash, titleKeyDoc: doc } = t;
  const h = keyHash(key);
  let out: number[] | undefined;
  for (let k = firstOfHash(hash, h); k < hash.length && hash[k] === h; k++) {
    const i = doc[k] as number;
    if (keyOf(i) === key) (out ??= []).push(i);
  }
  return out ?? NONE;
}
