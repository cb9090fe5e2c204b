// Text processing for the search index: strips HTML/Markdown noise, splits API identifiers
// (camelCase, snake_case, kebab-case, dotted, slashed) into words, drops stop words and stems.
// Pure functions, no I/O; the same pipeline runs at index time and at query time.
import { stemmer } from 'stemmer';
import { BoundedMap } from './bounded-map.js';
import { isEnglish } from './english.js';

/** How words are reduced to index terms. `porter` won the measurement (see docs/notes/SEARCH-ROUNDS.md). */
export type StemMode = 'porter' | 'plural' | 'none';

/** Words that carry no meaning as index terms (words/analyzer.json; the scope words among them are read first). */
export { STOP_WORDS } from './words.js';

const HTML_ENTITY = /&(?:[a-z]+|#\d+|#x[0-9a-f]+);/gi;

/**
 * Removes markup that is noise for search: HTML tags and entities, Markdown link targets, code fences,
 * emphasis marks and bare URLs. Keeps the visible words.
 */
export function stripNoise(text: string): string {
  return text
    .replace(/<[^>]{0,500}>/g, ' ')
    .replace(HTML_ENTITY, ' ')
    .replace(/\[([^\]]{0,500})\]\([^)]{0,1000}\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[`*_#>|~]+/g, ' ');
}

/**
 * Splits text and identifiers into lower-case words: `PostCustomersCustomerSources` ->
 * post customers customer sources; `admin.users.list`, `/repos/{owner}`, `re-run_failed` likewise.
 * Does not remove stop words or stem (see {@link analyze}).
 */
export function splitWords(text: string): string[] {
  const spaced = text
    // camelCase and PascalCase boundaries: fooBar, HTMLParser -> HTML Parser, v2Api -> v2 Api
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    // ...but a plural acronym stays whole: PRs, APIs, IDs
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, (m: string, a: string, b: string, at: number, all: string) =>
      b.endsWith('s') && !/\p{L}/u.test(all.charAt(at + m.length)) ? m : `${a} ${b}`);
  const out: string[] = [];
  for (const w of spaced.toLowerCase().split(/[^\p{L}\p{N}']+/u)) {
    const word = w.replace(/^'+|'+$/g, '').replace(/'s$/, '');
    if (word.length > 0 && word.length <= 40) out.push(word.replace(/'/g, ''));
  }
  return out;
}

/** A plural English noun (`pictures`, `endpoints`, `replies`), not a word that merely ends in s (`status`). */
export function isPlural(word: string): boolean {
  return word.length > 3 && stripPlural(word) !== word && !/(?:ss|us|is|ias|ics|news)$/.test(word);
}

/**
 * Whether the s that ends `word` is part of it: `status`, `alias`, `canvas`, `analysis`, `lens` are English words
 * and `statu`, `alia`, `canva` are not (`menus`, `statuses`, `libraries` are plurals of words; `skus` is no word at
 * all). Porter cuts that s (status -> statu) while the plural keeps it (statuses -> status), so a query's `status`
 * would never meet a path's `statuses`: such a word is its own term. Decided once per word.
 */
function ownS(word: string): boolean {
  let own = OWN_S.get(word);
  if (own === undefined) own = OWN_S.remember(word, isEnglish(word) && !singularCandidates(word).some(isEnglish));
  return own;
}
const OWN_S = new BoundedMap<string, boolean>(4096);

/** What `word` would be the plural of: less its s (`menus`), its es (`statuses`), its ies for y (`libraries`). */
function singularCandidates(word: string): string[] {
  const out = [word.slice(0, -1)];
  if (word.endsWith('es')) out.push(word.slice(0, -2));
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  return out;
}

/** Light plural stripping: `repositories` -> repository, `branches` -> branch, `issues` -> issue. */
export function stripPlural(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  if (/(?:ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is') || word.endsWith('ias')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Reduces one lower-case word to its index term with the chosen stemmer. */
export function stem(word: string, mode: StemMode = 'porter'): string {
  if (mode === 'none' || /\d/.test(word)) return word;
  if (mode === 'plural') return stripPlural(word);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && ownS(word)) return word;
  return stemmer(word);
}
