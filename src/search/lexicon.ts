// Stage 1a, the analysis chain shared by index and query: words -> compounds split -> abbreviations -> stop
// words -> stem, plus what the catalog's own words teach (document frequencies, the typo dictionary, agent
// nouns). Built once per index (or restored from a snapshot); reads no operation at query time, prints nothing.
import { distance } from 'fastest-levenshtein';
import { BoundedMap } from './bounded-map.js';
import { commonEnglishStarting, isCommonEnglish, isEnglish } from './english.js';
import { splitWords, stem, type StemMode } from './text.js';
import { ABBREVIATIONS, CALLER_WORDS, FAMILIES, STOP_WORDS, VERB_FAMILIES, VERB_METHODS } from './words.js';

/** Most words read from one field of one operation. */
export const MAX_INDEX_WORDS = 2000;
/** Cached typo corrections; cleared when full. */
const CORRECTION_CACHE_SIZE = 4096;

/** The analyzer shared by index and query: one raw word -> abbreviations -> stop words -> stem. Cached. */
export function makeAnalyzer(mode: StemMode): (word: string) => string[] {
  const cache = new Map<string, string[]>();
  return (word: string): string[] => {
    const hit = cache.get(word);
    if (hit) return hit;
    const out: string[] = [];
    for (const w of ABBREVIATIONS[word] ?? [word]) {
      if (STOP_WORDS.has(w)) continue;
      out.push(stem(w, mode));
    }
    if (cache.size < 50_000) cache.set(word, out);
    return out;
  };
}

/** Vocabulary families as word -> the other members (a word in two families gets both). */
export function familyTable(families: readonly (readonly string[])[] = FAMILIES): Map<string, string[]> {
  const familyOf = new Map<string, string[]>();
  for (const family of families) {
    for (const word of family) {
      const list = familyOf.get(word) ?? [];
      for (const other of family) if (other !== word && !list.includes(other)) list.push(other);
      familyOf.set(word, list);
    }
  }
  return familyOf;
}

/** True when `a` becomes `b` by swapping one pair of neighbouring letters. */
export function swapsNeighbours(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let k = 0;
  while (a[k] === b[k]) k++;
  return a[k] === b[k + 1] && a[k + 1] === b[k] && a.slice(k + 2) === b.slice(k + 2);
}

/** The lexicon's learned state, as plain arrays (what a snapshot stores). */
export interface LexiconState {
  prose: string[];
  docFreq: Array<[string, number]>;
  wordFreq: Array<[string, number]>;
}

/**
 * The catalog's words: the prose dictionary (for splitting identifier compounds), document frequencies of index
 * terms, how many documents use each raw word (for typos) and agent-noun links. Filled while the index is built
 * (`addProse`, then `countDocument` per document, then `finish`) or from a {@link LexiconState}.
 */
export class Lexicon {
  readonly analyze: (word: string) => string[];
  readonly familyOf = familyTable();
  /** The verb families alone: what a request's leading verb matches (list ~ browse, not the noun family history ~ list). */
  readonly verbFamilyOf = familyTable(VERB_FAMILIES);
  /** Words seen in prose (summaries, descriptions): the dictionary for splitting compounds. */
  readonly prose = new Set<string>();
  readonly docFreq = new Map<string, number>();
  /** Raw words with the number of documents using them. */
  private readonly wordFreq = new Map<string, number>();
  /** Index terms linked by derivation (`watcher` <-> `watch`), found in the catalog's own vocabulary. */
  readonly derived = new Map<string, string[]>();
  /** Indexed words by first letter, with how many documents use them: the dictionary for typos. */
  private readonly dictionary = new Map<string, Array<{ word: string; freq: number }>>();
  private readonly corrections = new BoundedMap<string, string>(CORRECTION_CACHE_SIZE);

  constructor(mode: StemMode) {
    this.analyze = makeAnalyzer(mode);
  }

  addProse(text: string): void {
    for (const w of splitWords(text)) this.prose.add(w);
  }

  /** One document's distinct raw words and index terms (collected while the document is tokenized). */
  countDocument(words: ReadonlySet<string>, terms: ReadonlySet<string>): void {
    for (const t of terms) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
    for (const w of words) this.wordFreq.set(w, (this.wordFreq.get(w) ?? 0) + 1);
  }

  /** Derives the typo dictionary and the agent-noun links once all documents are counted. */
  finish(): void {
    // the vocabulary's words are known too (freq 0: a catalog word wins a tie), so `bookmakr` reads as bookmark
    for (const word of [...this.familyOf.keys(), ...Object.keys(VERB_METHODS)]) if (!this.wordFreq.has(word)) this.wordFreq.set(word, 0);
    for (const [word, freq] of [...this.wordFreq].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (word.length < 3 || /\d/.test(word)) continue;
      const key = word[0] as string;
      const list = this.dictionary.get(key) ?? [];
      list.push({ word, freq });
      this.dictionary.set(key, list);
    }
    // agent nouns: `watchers` finds `watch`, `reviewer` finds `review`, when both are in the catalog
    for (const t of this.docFreq.keys()) {
      if (t.length < 6 || !t.endsWith('er')) continue;
      let base = t.slice(0, -2);
      if (!this.docFreq.has(base) && /([b-df-hj-np-tv-z])\1$/.test(base)) base = base.slice(0, -1);
      if (!this.docFreq.has(base)) continue;
      this.derived.set(t, [...(this.derived.get(t) ?? []), base]);
      this.derived.set(base, [...(this.derived.get(base) ?? []), t]);
    }
  }

  state(): LexiconState {
    return { prose: [...this.prose], docFreq: [...this.docFreq], wordFreq: [...this.wordFreq] };
  }

  static fromState(mode: StemMode, state: LexiconState): Lexicon {
    const lex = new Lexicon(mode);
    for (const w of state.prose) lex.prose.add(w);
    for (const [t, n] of state.docFreq) lex.docFreq.set(t, n);
    // wordFreq was saved after finish() (vocabulary words included); finish() adds nothing new to it
    for (const [w, n] of state.wordFreq) lex.wordFreq.set(w, n);
    lex.finish();
    return lex;
  }

  /** Index terms of a text (words, compounds split, analyzed). */
  terms(text: string): string[] {
    const out: string[] = [];
    for (const w of this.words(text, MAX_INDEX_WORDS)) out.push(...this.analyze(w));
    return out;
  }

  /**
   * Words of a text, with compounds that only identifiers use (`invoiceitems`) followed by their parts
   * when both parts are words of the catalog's prose. At most `max` words.
   */
  words(text: string, max: number): string[] {
    return this.compounds(splitWords(text), max);
  }

  /** `words` with each identifier compound followed by its parts (see {@link words}); at most `max` words. */
  compounds(words: readonly string[], max: number): string[] {
    const out: string[] = [];
    for (const w of words) {
      if (out.length >= max) break;
      out.push(w);
      if (w.length >= 7 && !this.prose.has(w) && !/\d/.test(w)) {
        for (let k = 3; k <= w.length - 3; k++) {
          const left = w.slice(0, k);
          const right = w.slice(k);
          if (this.prose.has(left) && this.prose.has(right)) {
            out.push(left, right);
            break;
          }
        }
      }
    }
    return out;
  }

  // family and verbFamily are functions made once per lexicon, not methods: the families unit hands them to the
  // concept builder as they are. A closure made for each search instead, stored in its reading and called from the
  // builder, kept that reading alive past the search: every young-generation collection copied ~2.5 MB of finished
  // searches (8 ms pauses, the search_tools latency tail) instead of ~1 KB (docs/notes/SEARCH-ROUNDS.md, stop 41).

  /** The other words of a verb's verb families, else none. */
  readonly verbFamily = (word: string): readonly string[] => this.verbFamilyOf.get(word) ?? [];

  /** The other words of a word's vocabulary family (its plural's when the word has none), else none. */
  readonly family = (word: string): readonly string[] => this.familyOf.get(word) ?? this.familyOf.get(pluralStem(word)) ?? [];

  /** A word all of whose index terms the catalog uses. */
  known(word: string): boolean {
    const terms = this.analyze(word);
    return terms.length > 0 && terms.every((t) => this.docFreq.has(t));
  }

  /**
   * The closest indexed word for a query word the index does not know (a typo), else the word itself.
   * Bounded: same first letter, edit distance 1 (2 for words of 7+ letters); the most used word wins. Common
   * English words are never typos, and a typo one slip from a common English word, where the catalog has no word
   * as close, is that word ("markeitng" is marketing, which the catalog may not use): read as it was meant, it
   * reads the same as the spelt request.
   */
  correct(word: string): string {
    if (word.length < 4 || STOP_WORDS.has(word) || /\d/.test(word)) return word;
    // words of the API vocabulary are known English, not typos, even when this catalog lacks them
    if (this.familyOf.has(word) || ABBREVIATIONS[word] || CALLER_WORDS.has(word) || VERB_METHODS[word]) return word;
    if (this.analyze(word).every((t) => this.docFreq.has(t))) return word;
    // a common English word is the word the person meant, even where the catalog lacks it; a rarer one (`crate`,
    // `sever`, `login`) is a typo only one slip from a word of the catalog (create, server)
    if (isCommonEnglish(word)) return word;
    const rare = isEnglish(word);
    const cached = this.corrections.get(word);
    if (cached !== undefined) return cached;
    const maxDistance = rare ? 1 : word.length >= 7 ? 2 : 1;
    let best = word;
    let bestDistance = maxDistance + 1;
    let bestKind = 0;
    let bestFreq = 0;
    const first = word[0] as string;
    for (const { word: candidate, freq } of this.dictionary.get(first) ?? []) {
      const d = slip(word, candidate, maxDistance);
      if (d > maxDistance) continue;
      const kind = d === 1 ? slipKind(word, candidate) : 0;
      if (d < bestDistance || (d === bestDistance && (kind < bestKind || (kind === bestKind && freq > bestFreq)))) {
        best = candidate;
        bestDistance = d;
        bestKind = kind;
        bestFreq = freq;
      }
    }
    // a word no list knows, one slip from a common English word where the catalog has none as close, is that word
    // (the likeliest slip, then the most common word: `markeitng` is marketing, `loking` looking, not liking); two
    // slips would read real words the lists lack
    if (bestDistance > 1 && !rare) {
      let kind = 4;
      for (const candidate of commonEnglishStarting(first)) {
        if (slip(word, candidate, 1) !== 1) continue;
        const k = slipKind(word, candidate);
        if (k < kind) [best, kind] = [candidate, k];
      }
    }
    return this.corrections.remember(word, best);
  }
}

/**
 * The number of slips that turn `typed` into `candidate`, or more than `max` when it takes more: edits, with a swap
 * of two neighbouring letters (`craete`, `serach`) one slip, and never two letters more or fewer (`silence` is not
 * `since`).
 */
function slip(typed: string, candidate: string, max: number): number {
  if (Math.abs(candidate.length - typed.length) > 1) return max + 1;
  return swapsNeighbours(typed, candidate) ? 1 : distance(typed, candidate);
}

/**
 * How likely a one-slip typo is, 0 the likeliest: people swap two letters or leave one out (`calss` is class,
 * `loking` looking) more often than they type one too many (1) or a wrong one (2), so of two words one slip from a
 * typo the likelier slip wins.
 */
function slipKind(typed: string, candidate: string): number {
  if (candidate.length === typed.length + 1 || swapsNeighbours(typed, candidate)) return 0;
  return candidate.length === typed.length - 1 ? 1 : 2;
}

/** Stems a word with the plural-only stemmer (used to find a plural's family). */
export function pluralStem(word: string): string {
  return stem(word, 'plural');
}
