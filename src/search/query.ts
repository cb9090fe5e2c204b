// Stage 1c, query-time analysis: the reading a query's units (units.ts) build, turned into what retrieval and the
// signals read — concepts (a word with its vocabulary family, idf, step weight), the agent's keywords, the method
// and REST shape the leading verb asks for — and how it was read, for people. Touches no operation, prints nothing.
import type { HttpMethod } from '../types.js';
import { isEnglish } from './english.js';
import { isPlural } from './text.js';
import type { Lexicon } from './lexicon.js';
import type { QuestionKind } from './sentence.js';
import {
  CHANGE_METHODS, IRREGULAR_PAST, isAction, LIST_WORDS, OBJECT_WORDS, READ_VERBS, UNDO_METHODS, VERB_FAMILY_WORDS, VERB_METHODS, VERB_SHAPES,
} from './words.js';

/** Longest query (characters) that is read; the rest is ignored (RELIABILITY K1). */
export const MAX_QUERY_CHARS = 512;
/** Most query words that are read. */
export const MAX_QUERY_TERMS = 32;
/** Weight of the words of a later step of a multi-step request (the lead step's words count 1). */
export const LATER_STEP_WEIGHT = 0.3;
/** Weight of the words an agent appended to a telegraphic call (sentence.ts, appendedStart). */
export const APPENDED_WEIGHT = 0.7;
/** Weight of an agent-noun link (`watchers` <-> `watch`). */
export const DERIVED_WEIGHT = 0.8;
/** Weight of the list concept that "all"/"every" adds. */
export const LIST_ALL_WEIGHT = 0.7;

/** A query word with the terms that stand for it. */
export interface Concept {
  /** Index terms with their weights (the word itself 1, family members less). */
  terms: Map<string, number>;
  /** Inverse document frequency of the concept's broadest reading, for coverage. */
  idf: number;
  /** 1 for the request's lead step; less for words of a later step ("... and then add them to a playlist"). */
  weight: number;
  /**
   * An agent's keyword (SearchOptions.keywords) or a word it appended to a telegraphic call, not a word of the
   * request itself: adds to coverage, not part of its whole.
   */
  keyword?: true;
}

/** Everything the later stages read of a query: what its units read (units.ts). */
export interface QueryPlan {
  /** The words as read: after literals, typo corrections, phrases and the other rewriting units. */
  words: string[];
  /** The request's words as the typos unit spelt them, when it corrected one (an exact name is looked up with them too). */
  corrected: string | undefined;
  concepts: Concept[];
  /** Every index term of every concept, plus the caller's self words when the request says "my". */
  queryTerms: Set<string>;
  /** HTTP methods the leading verb suggests (undefined: no opinion). */
  methods: readonly HttpMethod[] | undefined;
  /** REST shape the leading verb suggests. */
  shape: 'item' | 'collection' | undefined;
  /** The leading verb the method unit read ("suspend"), and the index terms of actions opposite to it (unsuspend, enable...). */
  verb: string | undefined;
  opposites: readonly string[];
  /** Scopes the request names (the catalog's scope names, scopes.ts; `me` for the caller). */
  scopes: Set<string>;
  /** The request asks for everything at once (all, every, across...). */
  spanAll: boolean;
  /** The request asks for several things at once (bulk, batch, multiple, several): a bulk variant fits. */
  asksMany: boolean;
  /** The request says admin (administrator...): an operation of the administrator's side fits. */
  asksAdmin: boolean;
  /** The request's object: lead-step words before the first preposition, without action words (with families). */
  objectTerms: string[];
  /** The head noun of the request's object with its family, as index terms; empty when none. */
  headTerms: string[];
  /** Index (in `words`) of the first word of a later step, and of the first word an agent appended; else the count. */
  laterStep: number;
  appended: number;
  /** The head noun of the request's object. */
  head: string | undefined;
  /** What each unit read, in pipeline order (only units that read something). */
  notes: Array<{ unit: string; reading: string }>;
}

/** How a query was read, for people (`search --explain`): the words, what the request asks for, each unit's reading. */
export interface QueryReading {
  /** The lead step's words after literals, typo corrections, phrases and readings ("restore the spreadsheet ..."). */
  words: string;
  /** A later step's words (they weigh {@link LATER_STEP_WEIGHT}), or the message after "that". */
  laterStep?: string;
  /** Words an agent appended to its call (they weigh {@link APPENDED_WEIGHT}). */
  appended?: string;
  head?: string;
  methods?: readonly HttpMethod[];
  shape?: 'item' | 'collection';
  scopes?: string[];
  /** Each analysis unit that read something, in pipeline order, with what it read. */
  units: Array<{ unit: string; reading: string }>;
}

/** The reading of an analyzed query. */
export function readingOf(plan: QueryPlan): QueryReading {
  const { words, laterStep, appended } = plan;
  const lead = Math.min(laterStep, appended);
  return {
    words: words.slice(0, lead).join(' '),
    ...(laterStep < words.length ? { laterStep: words.slice(laterStep).join(' ') } : {}),
    ...(appended < laterStep ? { appended: words.slice(appended, laterStep).join(' ') } : {}),
    ...(plan.head !== undefined ? { head: plan.head } : {}),
    ...(plan.methods !== undefined ? { methods: plan.methods } : {}),
    ...(plan.shape !== undefined ? { shape: plan.shape } : {}),
    ...(plan.scopes.size > 0 ? { scopes: [...plan.scopes].sort() } : {}),
    units: plan.notes.map((n) => ({ ...n })),
  };
}

/** Query analysis knobs (a subset of the index tuning). */
export interface QueryTuning {
  familyWeight: number;
  /** Analysis units (units.ts, by name) left out, for ablations. */
  disabledUnits?: readonly string[];
  /** Read the request's object (only when a signal needs it). */
  readObject: boolean;
  /** How the agent's keywords join the query's concepts (see SearchTuning.keywordMode). */
  keywordMode?: 'concept' | 'concepts';
  /** Weight of the keywords' concept(s) relative to the query's lead step (1). */
  keywordWeight?: number;
  /** Keyword terms also explain an operation's name for the precision signal. */
  keywordPrecision?: boolean;
  /** Weight of a word's mined alternatives (words/mined.json); 0: off. */
  minedWeight?: number;
}

/** Most keywords read, and most words over all of them (K1). */
export const MAX_KEYWORDS = 16;
export const MAX_KEYWORD_WORDS = 24;

/** The keywords as far as a search reads them (RELIABILITY K1): the first MAX_KEYWORDS, each cut to MAX_QUERY_CHARS. */
export function readKeywords(keywords: readonly string[]): string[] {
  return keywords.slice(0, MAX_KEYWORDS).map((k) => k.slice(0, MAX_QUERY_CHARS));
}

/**
 * The agent's keywords as index terms not already in the query's concepts (each at most once): words the API
 * may use for the same thing. Bounded like the query.
 */
export function keywordTerms(keywords: readonly string[], lex: Lexicon, query: readonly Concept[], correct: (w: string) => string): string[] {
  const have = new Set<string>();
  for (const c of query) for (const [t, w] of c.terms) if (w === 1) have.add(t);
  const out: string[] = [];
  let words = 0;
  for (const k of readKeywords(keywords)) {
    for (const w of lex.words(k, MAX_KEYWORD_WORDS)) {
      if (words++ >= MAX_KEYWORD_WORDS) return out;
      for (const t of lex.analyze(correct(w))) {
        if (!have.has(t)) {
          have.add(t);
          out.push(t);
        }
      }
    }
  }
  return out;
}

/**
 * Whether `word` is the past tense of a verb-family verb (deleted, changed, opened, downloaded, sent): "who" before
 * it asks who did an action, not who relates to a thing ("who starred", "who contributed" ask for people).
 */
export function didAction(word: string | undefined): boolean {
  if (word === undefined) return false;
  const irregular = IRREGULAR_PAST[word];
  if (irregular !== undefined) return VERB_FAMILY_WORDS.has(irregular);
  if (word.length < 5) return false;
  if (word.endsWith('ied')) return VERB_FAMILY_WORDS.has(`${word.slice(0, -3)}y`);
  if (!word.endsWith('ed')) return false;
  const stem = word.slice(0, -2);
  // added, opened; changed, removed; dropped (a doubled consonant)
  return VERB_FAMILY_WORDS.has(stem) || VERB_FAMILY_WORDS.has(`${stem}e`)
    || (stem.at(-1) === stem.at(-2) && VERB_FAMILY_WORDS.has(stem.slice(0, -1)));
}

/** An un-word (`unfollow`) the catalog does not use, whose rest (`follow`) it does. */
export function isUndo(word: string, lex: Lexicon): boolean {
  if (word.length < 5 || !word.startsWith('un') || lex.known(word)) return false;
  return lex.known(word.slice(2));
}

/** How the concept builder reads families, agent-noun links and step weights (from the units; see units.ts). */
export interface ConceptReading {
  family: (word: string) => readonly string[];
  /** The family of the request's first word when it is a verb: its verb families only (the families unit). */
  leadFamily: (word: string) => readonly string[];
  /** The mined alternatives of a word (the `mined` unit), added at `minedWeight`. */
  mined: (word: string) => readonly string[];
  minedWeight: number;
  derived: ReadonlyMap<string, readonly string[]>;
  listAll: boolean;
  appended: number;
  laterStep: number;
}

/** The least of `word` and `others` in code-unit order (what `[word, ...others].sort()[0]` is, without the arrays). */
function firstInOrder(word: string, others: readonly string[]): string {
  let least = word;
  for (const w of others) if (w < least) least = w;
  return least;
}

/** Concepts of the query words; `n` is the number of documents (for idf). */
export function concepts(words: readonly string[], lex: Lexicon, n: number, familyWeight: number, r: ConceptReading): Concept[] {
  const byKey = new Map<string, Concept>();
  for (let k = 0; k < words.length; k++) {
    const word = words[k] as string;
    const weight = k >= r.laterStep ? LATER_STEP_WEIGHT : k >= r.appended ? APPENDED_WEIGHT : 1;
    // a leading verb is a verb: "list folder contents" matches list's verb family, not the noun family history ~ list
    const lead = k === 0 ? r.leadFamily(word) : [];
    const family = lead.length > 0 ? lead : r.family(word);
    // two words of one family ("add a new customer") are one request, not two
    const familyKey = family.length > 0 ? `family:${firstInOrder(word, family)}` : undefined;
    const sibling = familyKey === undefined ? undefined : byKey.get(familyKey);
    if (sibling) {
      for (const t of lex.analyze(word)) sibling.terms.set(t, 1);
      continue;
    }
    for (const term of lex.analyze(word)) {
      const have = byKey.get(term);
      if (have) {
        have.weight = Math.max(have.weight, weight);
        continue;
      }
      const terms = new Map<string, number>([[term, 1]]);
      for (const other of family) {
        for (const t of lex.analyze(other)) if (!terms.has(t)) terms.set(t, familyWeight);
      }
      for (const t of r.derived.get(term) ?? []) if (!terms.has(t)) terms.set(t, DERIVED_WEIGHT);
      for (const other of r.mined(word)) for (const t of lex.analyze(other)) if (!terms.has(t)) terms.set(t, r.minedWeight);
      // a concept is as specific as its broadest reading: `show` means get/list, common words
      let df = 0;
      for (const t of terms.keys()) df = Math.max(df, lex.docFreq.get(t) ?? 0);
      const concept: Concept = { terms, idf: Math.log(1 + (n + 1) / (df + 1)), weight, ...(k >= r.appended ? { keyword: true as const } : {}) };
      byKey.set(term, concept);
      if (familyKey !== undefined && !byKey.has(familyKey)) byKey.set(familyKey, concept);
    }
  }
  // "all" (a stop word) asks for a list
  if (r.listAll && !byKey.has('list')) {
    const terms = new Map<string, number>([['list', LIST_ALL_WEIGHT]]);
    byKey.set('list', { terms, idf: Math.log(1 + (n + 1) / ((lex.docFreq.get('list') ?? 0) + 1)), weight: 1 });
  }
  return [...new Set(byKey.values())];
}

/** Path shape suggested by the first action word of the query; "all" anywhere asks for a collection. */
export function verbShape(words: readonly string[], lex: Lexicon, listAll: boolean): { shape: 'item' | 'collection' | undefined; from?: string } {
  if (listAll) return { shape: 'collection', from: [...LIST_WORDS].find((w) => words.includes(w)) ?? 'all' };
  const at = words.slice(0, 4).findIndex((w) => VERB_SHAPES[w] !== undefined || READ_VERBS.has(w));
  const verb = at >= 0 ? (words[at] as string) : undefined;
  const shape = verb === undefined ? undefined : VERB_SHAPES[verb];
  // "get pictures", "show webhook endpoints": reading a plural object asks for the collection
  if (shape !== 'collection' && (verb === undefined || READ_VERBS.has(verb))) {
    const object = words.slice(at + 1, at + 4).filter((w) => lex.analyze(w).length > 0 && !isAction(w));
    const plural = object.find(isPlural);
    if (plural !== undefined) return { shape: 'collection', from: plural };
  }
  return shape === undefined ? { shape } : { shape, from: verb as string };
}

/**
 * HTTP methods suggested by the first action word of the query (low-weight signal), with the word they were read
 * from. `question`: the question unit's reading; `scope`: whether a word names a scope.
 */
export function verbMethods(
  words: readonly string[], lex: Lexicon, question: QuestionKind | undefined, isScope: (w: string) => boolean,
): { methods: readonly HttpMethod[] | undefined; from?: string } {
  // a request that starts as a question ("what tax rates do we have set up?", "which groups is a user in") asks
  // to read, whatever verb follows ("set"); only as the first word: "alert me when ..." is no question
  if (question === 'question') return { methods: ['get'], from: words[0] as string };
  // "how do I create an issue", "how can we delete a site", "how to add a member" ask how to do the verb's action;
  // "how many", "how much" (and a "how do I" without a known verb) ask to read
  const howTo = question === 'how-to';
  const lead = leadingVerb(words, howTo ? 1 : 0);
  if (lead !== undefined) return { methods: lead.methods, from: lead.word };
  if (howTo) return { methods: ['get'], from: 'how' };
  // an imperative whose verb the vocabulary does not know: a word that starts the request and is followed by its
  // object changes something, so it is not a GET. The object is marked by an article or pronoun ("pin an item",
  // "label a task", "text someone"), or, as agents drop the article ("rate movie", "protect patient", "retweet
  // tweet"), the first word is one English inflects as a verb (rated, protected) and a singular follows it; before a
  // plural it is a noun's modifier ("account followers", "cluster nodes")
  const [first, second] = words;
  if (first !== undefined && second !== undefined && !isAction(first) && lex.analyze(first).length > 0 && !isScope(first) &&
      !isPlural(first) && (OBJECT_WORDS.has(second) || (!isPlural(second) && hasPastTense(first)))) {
    return { methods: first.startsWith('un') ? UNDO_METHODS : CHANGE_METHODS, from: first };
  }
  return { methods: undefined };
}

/** The first of a request's first four words (from index `from`) that the verb lists know, with the methods it asks for. */
export function leadingVerb(words: readonly string[], from = 0): { word: string; methods: readonly HttpMethod[] } | undefined {
  for (const w of words.slice(from, 4)) {
    const m = VERB_METHODS[w];
    if (m) return { word: w, methods: m };
  }
  return undefined;
}

/** Whether English has the word's regular past tense (rate: rated, protect: protected, ship: shipped): it can be a verb. */
function hasPastTense(w: string): boolean {
  return w.endsWith('e') ? isEnglish(`${w}d`) : isEnglish(`${w}ed`) || isEnglish(`${w}${w.at(-1) as string}ed`);
}

export { CHANGE_METHODS, UNDO_METHODS };
