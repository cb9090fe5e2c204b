// Stage 1c, query-time analysis: bounded raw words -> phrases and un-words -> typo correction -> concepts (a word
// with its vocabulary family, idf, step weight) and what the request says about method, REST shape, scope and
// breadth. Produces a QueryPlan the retrievers and signals read; touches no operation, prints nothing.
import type { HttpMethod } from '../types.js';
import { isAction, isPlural, VERB_FAMILY_WORDS } from './features.js';
import type { Lexicon } from './lexicon.js';
import { readLiterals } from './literals.js';
import { appendedStart, laterStepStart, OBJECT_WORDS, objectHead, PREPOSITIONS, QUESTION_WORDS } from './sentence.js';
import { PHRASES, SCOPE_WORDS, VERB_METHODS, VERB_SHAPES, WHO_DID_READING, WORD_READINGS, type Scope } from './vocabulary.js';

/** Longest query (characters) that is read; the rest is ignored (RELIABILITY K1). */
export const MAX_QUERY_CHARS = 512;
/** Most query words that are read. */
export const MAX_QUERY_TERMS = 32;
/** Most typo corrections per query (each scans one letter's dictionary). */
const MAX_CORRECTIONS = 4;
/** Weight of the words of a later step of a multi-step request (the lead step's words count 1). */
export const LATER_STEP_WEIGHT = 0.3;
/** Weight of the words after them in a telegraphic call (see {@link appendedStart}). */
export const APPENDED_WEIGHT = 0.7;

/** Verbs after which "me" is who receives the answer ("show me", "remind me"), not a scope. */
const INDIRECT_OBJECT_VERBS: ReadonlySet<string> = new Set([
  'show', 'tell', 'give', 'send', 'let', 'help', 'remind', 'notify', 'alert', 'email', 'text', 'find', 'get', 'bring',
]);
/** Words an operation on the caller uses for the caller; explained by "my" in the request. */
const SELF_WORDS: readonly string[] = ['current', 'authenticated', 'user', 'self', 'me'];
/** Methods of a request that changes something, and of one that undoes something ("unfollow", "unpin"). */
const CHANGE_METHODS: readonly HttpMethod[] = ['post', 'put', 'patch'];
const UNDO_METHODS: readonly HttpMethod[] = ['delete', 'post'];
/** Verbs that read (get/show/see...): with a plural object they ask for a list. */
const READ_VERBS: ReadonlySet<string> = new Set(['get', 'show', 'see', 'view', 'read', 'fetch', 'retrieve', 'display', 'find']);
/** Query words that ask for everything at once ("across all namespaces", "the whole account"). */
const BROAD_WORDS: ReadonlySet<string> = new Set(['all', 'every', 'whole', 'entire', 'across', 'everything', 'everywhere']);

/** Nouns of messaging that, as a request's first word, are the verb "send" it by. */
const MESSAGE_VERBS: ReadonlySet<string> = new Set(['email', 'text', 'message', 'sms', 'fax']);

/** A word after a messaging verb that makes it one: an object word ("the", "someone") or a name the catalog never uses. */
function isRecipient(word: string | undefined, lex: Lexicon): boolean {
  return word !== undefined && (OBJECT_WORDS.has(word) || !lex.known(word));
}

/** A query word with the terms that stand for it. */
export interface Concept {
  /** Index terms with their weights (the word itself 1, family members less). */
  terms: Map<string, number>;
  /** Inverse document frequency of the concept's broadest reading, for coverage. */
  idf: number;
  /** 1 for the request's lead step; less for words of a later step ("... and then add them to a playlist"). */
  weight: number;
  /**
   * An agent's keyword (SearchOptions.keywords) or a word it appended to a telegraphic call ({@link appendedStart}),
   * not a word of the request itself: adds to coverage, not part of its whole.
   */
  keyword?: true;
}

/** Everything the later stages read of a query. */
export interface QueryPlan {
  /** Raw words after phrases and un-words (before typo correction). */
  words: string[];
  concepts: Concept[];
  /** Every index term of every concept, plus the caller's self words when the request says "my". */
  queryTerms: Set<string>;
  /** HTTP methods the leading verb suggests (undefined: no opinion). */
  methods: readonly HttpMethod[] | undefined;
  /** REST shape the leading verb suggests. */
  shape: 'item' | 'collection' | undefined;
  /** Scopes the request names. */
  scopes: Set<Scope>;
  /** The request asks for everything at once (all, every, across...). */
  spanAll: boolean;
  /** The request's object: lead-step words before the first preposition, without action words (with families). */
  objectTerms: string[];
  /** The head noun of the request's object (its last word) with its family, as index terms; empty when none. */
  headTerms: string[];
  /** The words as read: `words` with typos corrected. */
  read: string[];
  /** Index (in `words`) of the first word of a later step, and of the first word an agent appended; else the count. */
  laterStep: number;
  appended: number;
  /** The head noun of the request's object, as typed. */
  head: string | undefined;
}

/** How a query was read, for people (`search --explain`): the words and what the request asks for. */
export interface QueryReading {
  /** The lead step's words after phrases, readings and typo corrections ("restore the spreadsheet ..."). */
  words: string;
  /** A later step's words (they weigh {@link LATER_STEP_WEIGHT}), or the message after "that". */
  laterStep?: string;
  /** Words an agent appended to its call (they weigh {@link APPENDED_WEIGHT}). */
  appended?: string;
  head?: string;
  methods?: readonly HttpMethod[];
  shape?: 'item' | 'collection';
  scopes?: Scope[];
}

/** The reading of an analyzed query. */
export function readingOf(plan: QueryPlan): QueryReading {
  const { read, laterStep, appended } = plan;
  const lead = Math.min(laterStep, appended);
  return {
    words: read.slice(0, lead).join(' '),
    ...(laterStep < read.length ? { laterStep: read.slice(laterStep).join(' ') } : {}),
    ...(appended < laterStep ? { appended: read.slice(appended, laterStep).join(' ') } : {}),
    ...(plan.head !== undefined ? { head: plan.head } : {}),
    ...(plan.methods !== undefined ? { methods: plan.methods } : {}),
    ...(plan.shape !== undefined ? { shape: plan.shape } : {}),
    ...(plan.scopes.size > 0 ? { scopes: [...plan.scopes].sort() } : {}),
  };
}

/** Query analysis knobs (a subset of the index tuning). */
export interface QueryTuning {
  familyWeight: number;
  fuzzyUnknown: boolean;
  /** Read the request's object (only when a signal needs it). */
  readObject: boolean;
  /** How the agent's keywords join the query's concepts (see SearchTuning.keywordMode). */
  keywordMode?: 'concept' | 'concepts';
  /** Weight of the keywords' concept(s) relative to the query's lead step (1). */
  keywordWeight?: number;
  /** Keyword terms also explain an operation's name for the precision signal. */
  keywordPrecision?: boolean;
}

/** Most keywords read, and most words over all of them (K1). */
export const MAX_KEYWORDS = 16;
const MAX_KEYWORD_WORDS = 24;

/**
 * The agent's keywords as index terms not already in the query's concepts (each at most once): words the API
 * may use for the same thing. Bounded like the query.
 */
export function keywordTerms(keywords: readonly string[], lex: Lexicon, query: readonly Concept[]): string[] {
  const have = new Set<string>();
  for (const c of query) for (const [t, w] of c.terms) if (w === 1) have.add(t);
  const out: string[] = [];
  let words = 0;
  for (const k of keywords.slice(0, MAX_KEYWORDS)) {
    for (const w of lex.words(k.slice(0, MAX_QUERY_CHARS), MAX_KEYWORD_WORDS)) {
      if (words++ >= MAX_KEYWORD_WORDS) return out;
      for (const t of lex.analyze(lex.correct(w))) {
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
 * Raw query words, bounded (K1): at most MAX_QUERY_CHARS characters and MAX_QUERY_TERMS words; links, email
 * addresses and file names read as `url`, `someone` and `file` (literals.ts).
 */
export function queryWords(query: string, lex: Lexicon): string[] {
  const words = lex.words(readLiterals(query.slice(0, MAX_QUERY_CHARS)), MAX_QUERY_TERMS);
  const out: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const phrase = k + 1 < words.length ? PHRASES[`${words[k]} ${words[k + 1]}`] : undefined;
    const word = words[k] as string;
    const reading = WORD_READINGS[word];
    if (phrase) {
      out.push(...phrase);
      k++;
    } else if (reading) {
      out.push(...reading);
    } else if (k === 0 && MESSAGE_VERBS.has(word) && isRecipient(words[1], lex)) {
      // "email bob@acme.com ...", "text someone a code", "fax the contract to ...": send one ("email templates" is a noun)
      out.push('send', word);
    } else if (word === 'who' && didAction(words[k + 1])) {
      // "who deleted a server yesterday?", "who changed what lately": the audit trail of that action
      out.push(word, ...WHO_DID_READING);
    } else if (k === 0 && isUndo(word, lex)) {
      // a request starting with `unfollow`, `unstar`, `unpin` in a catalog that never says it: remove +
      // the action undone (only as the first word: elsewhere un-words are adjectives, `unread`)
      out.push('remove', word.slice(2));
    } else out.push(word);
  }
  return out;
}

/** Irregular past tenses of the verb-family verbs. */
const IRREGULAR_PAST: Readonly<Record<string, string>> = {
  made: 'make', sent: 'send', ran: 'run', saw: 'see', got: 'get', wrote: 'write', read: 'read', found: 'find', set: 'set',
};

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
function isUndo(word: string, lex: Lexicon): boolean {
  if (word.length < 5 || !word.startsWith('un') || lex.known(word)) return false;
  return lex.known(word.slice(2));
}

/**
 * Concepts of the query words; `n` is the number of documents (for idf), `appended` where the words an agent
 * appended to its call begin ({@link appendedStart}), `later` where a later step begins ({@link laterStepStart}).
 * `read`, when given, receives each word as read (typos corrected).
 */
export function concepts(
  words: readonly string[], lex: Lexicon, n: number, tuning: QueryTuning, appended = appendedStart(words),
  later = laterStepStart(words), read?: string[],
): Concept[] {
  const byKey = new Map<string, Concept>();
  let corrected = 0;
  for (let k = 0; k < words.length; k++) {
    const raw = words[k] as string;
    const weight = k >= later ? LATER_STEP_WEIGHT : k >= appended ? APPENDED_WEIGHT : 1;
    // a word the catalog never uses is most likely a typo: read it as the closest word it does use
    const word = tuning.fuzzyUnknown && corrected < MAX_CORRECTIONS ? lex.correct(raw) : raw;
    if (word !== raw) corrected++;
    read?.push(word);
    const family = lex.family(word);
    // two words of one family ("add a new customer") are one request, not two
    const familyKey = family.length > 0 ? `family:${[word, ...family].sort()[0] ?? word}` : undefined;
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
        for (const t of lex.analyze(other)) if (!terms.has(t)) terms.set(t, tuning.familyWeight);
      }
      for (const t of lex.derived.get(term) ?? []) if (!terms.has(t)) terms.set(t, 0.8);
      // a concept is as specific as its broadest reading: `show` means get/list, common words
      let df = 0;
      for (const t of terms.keys()) df = Math.max(df, lex.docFreq.get(t) ?? 0);
      const concept: Concept = { terms, idf: Math.log(1 + (n + 1) / (df + 1)), weight, ...(k >= appended ? { keyword: true as const } : {}) };
      byKey.set(term, concept);
      if (familyKey !== undefined && !byKey.has(familyKey)) byKey.set(familyKey, concept);
    }
  }
  // "all" (a stop word) asks for a list
  if ((words.includes('all') || words.includes('every')) && !byKey.has('list')) {
    const terms = new Map<string, number>([['list', 0.7]]);
    byKey.set('list', { terms, idf: Math.log(1 + (n + 1) / ((lex.docFreq.get('list') ?? 0) + 1)), weight: 1 });
  }
  return [...new Set(byKey.values())];
}

/** Words after a leading "how" that make it ask how to do something: the verb that follows is the action. */
const HOW_TO: ReadonlySet<string> = new Set(['do', 'does', 'can', 'could', 'should', 'would', 'will', 'shall', 'to', 'i', 'we']);

/** Path shape suggested by the first action word of the query; "all" anywhere asks for a collection. */
export function verbShape(words: readonly string[], lex: Lexicon): 'item' | 'collection' | undefined {
  if (words.includes('all')) return 'collection';
  const at = words.slice(0, 4).findIndex((w) => VERB_SHAPES[w] !== undefined || READ_VERBS.has(w));
  const verb = at >= 0 ? (words[at] as string) : undefined;
  const shape = verb === undefined ? undefined : VERB_SHAPES[verb];
  // "get pictures", "show webhook endpoints": reading a plural object asks for the collection
  if (shape !== 'collection' && (verb === undefined || READ_VERBS.has(verb))) {
    const object = words.slice(at + 1, at + 4).filter((w) => lex.analyze(w).length > 0 && !isAction(w));
    if (object.some(isPlural)) return 'collection';
  }
  return shape;
}

/** HTTP methods suggested by the first action word of the query (low-weight signal). */
export function verbMethods(words: readonly string[], lex: Lexicon): readonly HttpMethod[] | undefined {
  // a request that starts as a question ("what tax rates do we have set up?", "which groups is a user in") asks
  // to read, whatever verb follows ("set"); only as the first word: "alert me when ..." is no question
  if (QUESTION_WORDS.has(words[0] ?? '')) return ['get'];
  // "how do I create an issue", "how can we delete a site", "how to add a member" ask how to do the verb's action;
  // "how many", "how much" (and a "how do I" without a known verb) ask to read
  const howTo = words[0] === 'how' && HOW_TO.has(words[1] ?? '');
  for (const w of words.slice(howTo ? 1 : 0, 4)) {
    const m = VERB_METHODS[w];
    if (m) return m;
  }
  if (howTo) return ['get'];
  // an imperative whose verb the vocabulary does not know ("pin an item", "label a task", "text someone"):
  // a word that starts the request and is followed by its object changes something, so it is not a GET
  const [first, second] = words;
  if (first !== undefined && second !== undefined && OBJECT_WORDS.has(second) && !isAction(first) &&
      lex.analyze(first).length > 0 && SCOPE_WORDS[first] === undefined && !isPlural(first)) {
    return first.startsWith('un') ? UNDO_METHODS : CHANGE_METHODS;
  }
  return undefined;
}

/** The full analysis of one (trimmed, non-empty) query. */
export function analyzeQuery(query: string, lex: Lexicon, n: number, tuning: QueryTuning, keywords: readonly string[] = []): QueryPlan {
  const words = queryWords(query, lex);
  const appended = appendedStart(words);
  const laterStep = laterStepStart(words);
  const read: string[] = [];
  const cs = concepts(words, lex, n, tuning, appended, laterStep, read);
  const extra = keywords.length > 0 ? keywordTerms(keywords, lex, cs) : [];
  const queryTerms = new Set<string>();
  for (const c of cs) for (const t of c.terms.keys()) queryTerms.add(t);
  if (tuning.keywordPrecision) for (const t of extra) queryTerms.add(t);
  // the keywords widen recall at a lower weight: one concept of alternatives, or one low-weight concept each
  const weight = tuning.keywordWeight ?? 0.3;
  const idfOf = (terms: Iterable<string>): number => {
    let df = 0;
    for (const t of terms) df = Math.max(df, lex.docFreq.get(t) ?? 0);
    return Math.log(1 + (n + 1) / (df + 1));
  };
  if (extra.length > 0 && tuning.keywordMode === 'concepts') {
    for (const t of extra) cs.push({ terms: new Map([[t, 1]]), idf: idfOf([t]), weight: weight / extra.length, keyword: true });
  } else if (extra.length > 0) {
    cs.push({ terms: new Map(extra.map((t) => [t, 1])), idf: idfOf(extra), weight, keyword: true });
  }
  const scopes = new Set<Scope>();
  words.forEach((w, at) => {
    const s = SCOPE_WORDS[w];
    // "show me", "tell me", "remind me": the person asking is the receiver, not the scope
    if (s === 'me' && w === 'me' && at > 0 && INDIRECT_OBJECT_VERBS.has(words[at - 1] as string)) return;
    if (s) scopes.add(s);
  });
  // "my" (a stop word) explains the words an operation on the caller uses for itself ("current user")
  if (scopes.has('me')) for (const w of SELF_WORDS) for (const t of lex.analyze(w)) queryTerms.add(t);
  const objectTerms: string[] = [];
  if (tuning.readObject) {
    for (let k = 0; k < laterStep; k++) {
      const w = words[k] as string;
      if (PREPOSITIONS.has(w)) break;
      if (isAction(w)) continue;
      for (const v of [w, ...(lex.familyOf.get(w) ?? [])]) for (const t of lex.analyze(v)) objectTerms.push(t);
    }
  }
  // appended synonyms are not the object's head ("list hooks webhooks notifications" acts on hooks)
  // read with its typos corrected: a head noun typed wrong ("isues") would match no operation's resource
  const head = objectHead(read.slice(0, appended), lex);
  const headTerms = head === undefined ? [] : [head, ...lex.family(head)].flatMap((v) => lex.analyze(v));
  return {
    words, concepts: cs, queryTerms, methods: verbMethods(words, lex), shape: verbShape(words, lex), scopes,
    spanAll: words.some((w) => BROAD_WORDS.has(w)), objectTerms, headTerms, read, laterStep, appended, head,
  };
}

