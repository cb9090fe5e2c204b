// Stage 1c, query analysis as named units, like the signals: each rule of the reading (literal values, typo
// correction, phrases, steps, families, scopes, head noun, method...) is a unit with a name, what it reads, the word
// lists it owns (words/*.json) and its step, run in order over one reading of the query. Every unit but the core
// stages can be left out (SearchTuning.disabledUnits) and is measured that way (scripts/search-ablation.mjs,
// docs/SEARCH.md). Typos are corrected before any unit reads a word, so a misspelt request reads as the spelt one.
import type { HttpMethod } from '../types.js';
import { compoundHead } from './features.js';
import type { Lexicon } from './lexicon.js';
import { readLiterals } from './literals.js';
import {
  concepts, didAction, isUndo, keywordTerms, leadingVerb, MAX_KEYWORD_WORDS, MAX_QUERY_CHARS, MAX_QUERY_TERMS, readKeywords, verbMethods, verbShape, type Concept, type QueryPlan,
  type QueryTuning,
} from './query.js';
import { oppositeActions, oppositeTerms } from './opposites.js';
import { appendedStart, laterStepStart, objectHead, questionKind, type QuestionKind } from './sentence.js';
import { splitWords, stripPlural as singularOf } from './text.js';
import {
  ADMIN_WORDS, BROAD_WORDS, isAction, LIST_WORDS, MANY_WORDS, MESSAGE_VERBS, NOT_MANY_AFTER, MINED, OBJECT_WORDS, PHRASES, PREPOSITIONS, RECEIVER_VERBS,
  SELF_WORDS, WHO_DID_READING, WORD_READINGS,
} from './words.js';
import { CALLER, CALLER_ONLY, scopeNamedBy, type ScopeTable } from './scopes.js';
import { CALLER_WORDS } from './words.js';

/** Most typo corrections per query (each scans one letter's dictionary). */
export const MAX_CORRECTIONS = 4;

/** What a query's units read and write, from its text to the plan the later stages read. */
export interface Reading extends QueryPlan {
  /** The query text after the literals unit. */
  text: string;
  question: QuestionKind | undefined;
  family: (word: string) => readonly string[];
  leadFamily: (word: string) => readonly string[];
  derived: ReadonlyMap<string, readonly string[]>;
  /** "all" or "every": the request asks for a list of everything. */
  listAll: boolean;
  mined: (word: string) => readonly string[];
  minedWeight: number;
  /** Words typed capitalized after the first word (Tom, Lisa): names, never typos. */
  names: ReadonlySet<string>;
  /** Whether to record each unit's reading (`notes`). */
  explain: boolean;
}

/** What every unit may read besides the reading. */
export interface AnalysisContext {
  lex: Lexicon;
  /** Number of documents (for idf). */
  n: number;
  tuning: QueryTuning;
  keywords: readonly string[];
  /** The catalog's scopes (scopes.ts). */
  scopes: ScopeTable;
  /** The scope a word names (display name), else undefined. */
  scopeOf: (word: string) => string | undefined;
  /** Whether a unit is on (not in `tuning.disabledUnits`). */
  on: (unit: string) => boolean;
}

export interface AnalysisUnit {
  /** Stable name (explain output, ablations, disabledUnits, the `owner` of its word lists). */
  readonly name: string;
  /** What it reads and what it does, one line. */
  readonly reads: string;
  /** Core stages (splitting, building concepts) every reading needs; they cannot be left out. */
  readonly core?: true;
  apply(r: Reading, cx: AnalysisContext): void;
}

/** Records what a unit read, for `explain` only (the text is built only then: searches allocate nothing for it). */
const note = (r: Reading, unit: string, reading: () => string): void => {
  if (r.explain) r.notes.push({ unit, reading: reading() });
};

const NO_FAMILY = (): readonly string[] => [];
/** The mined unit's reading of a word: one function for every search (a closure per search outlives it: lexicon.ts). */
const minedAlternatives = (w: string): readonly string[] => (isAction(w) ? NO_FAMILY() : MINED[singularOf(w)] ?? NO_FAMILY());
/** The caller's scope for its words (my, me): never the head noun of a request, nor its verb. */
const callerOf = (word: string): string | undefined => (CALLER_WORDS.has(word) ? CALLER : undefined);
const NO_DERIVED: ReadonlyMap<string, readonly string[]> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();


/** The units in the order they read; a unit reads what the ones before it wrote. */
export const UNITS: readonly AnalysisUnit[] = [
  {
    name: 'literals',
    reads: 'a link, an email address or a file name in the request reads as url, someone, file',
    apply: (r) => {
      const found: string[] = [];
      r.text = readLiterals(r.text, found);
      if (found.length > 0) note(r, 'literals', () => found.join(', '));
    },
  },
  {
    name: 'split',
    core: true,
    reads: 'words split at spaces, punctuation and identifier boundaries (camelCase, snake_case), at most 32',
    apply: (r) => {
      r.words = splitWords(r.text).slice(0, MAX_QUERY_TERMS);
      // a word typed as a name (capitalized, the rest lower case) after the first word: "add Tom and Lisa to ..."
      const names = r.text.split(/\s+/).slice(1).filter((t) => /^\p{Lu}\p{Ll}+[^\p{L}]*$/u.test(t)).map((t) => t.replace(/[^\p{L}]+$/u, '').toLowerCase());
      if (names.length > 0) r.names = new Set(names);
    },
  },
  {
    name: 'typos',
    reads: 'a word the catalog never uses, no common English word and no name (Lisa), reads as the closest word it uses (4 at most), before any other unit reads it',
    apply: (r, cx) => {
      const { lex } = cx;
      const out: string[] = [];
      const fixed: string[] = [];
      r.words.forEach((w, k) => {
        // words another unit reads as typed: a leading un-word whose rest the catalog uses, a recipient's name
        const claimed = r.names.has(w) || (k === 0 && cx.on('undo-words') && isUndo(w, lex)) ||
          (k === 1 && cx.on('message-verbs') && MESSAGE_VERBS.has(out[0] as string) && !lex.known(w));
        const c = claimed || fixed.length >= MAX_CORRECTIONS ? w : lex.correct(w);
        if (c !== w) fixed.push(`${w} -> ${c}`);
        out.push(c);
      });
      r.words = out;
      if (fixed.length > 0) {
        r.corrected = out.join(' ');
        note(r, 'typos', () => fixed.join(', '));
      }
    },
  },
  {
    name: 'compounds',
    core: true,
    reads: 'an identifier compound the catalog uses (nodebalancer) is followed by its parts (node balancer)',
    apply: (r, cx) => {
      r.words = cx.lex.compounds(r.words, MAX_QUERY_TERMS);
    },
  },
  {
    name: 'undo-words',
    reads: 'a first word un+verb the catalog never uses (unfollow, unstar) reads as remove + the verb',
    apply: (r, cx) => {
      const first = r.words[0];
      if (first === undefined || !isUndo(first, cx.lex)) return;
      r.words = ['remove', first.slice(2), ...r.words.slice(1)];
      note(r, 'undo-words', () => `${first} -> remove ${first.slice(2)}`);
    },
  },
  {
    name: 'message-verbs',
    reads: 'a messaging noun first, before a recipient (email bob..., text someone...), is the verb: send + the noun',
    apply: (r, cx) => {
      const [first, second] = r.words;
      if (first === undefined || !MESSAGE_VERBS.has(first) || second === undefined) return;
      if (!OBJECT_WORDS.has(second) && cx.lex.known(second)) return;
      r.words = ['send', ...r.words];
      note(r, 'message-verbs', () => `${first} -> send ${first}`);
    },
  },
  {
    name: 'who-did',
    reads: '"who" before a past action (who deleted...) also asks for the audit trail: + audit event',
    apply: (r) => {
      const out: string[] = [];
      r.words.forEach((w, k) => {
        out.push(w);
        if (w === 'who' && didAction(r.words[k + 1])) {
          out.push(...WHO_DID_READING);
          note(r, 'who-did', () => `who ${r.words[k + 1] as string} -> + ${WHO_DID_READING.join(' ')}`);
        }
      });
      r.words = out;
    },
  },
  {
    name: 'phrases',
    reads: 'two-word phrases and single words read as others (logged in -> authenticated, set up -> create, whenever -> webhook)',
    apply: (r) => {
      const out: string[] = [];
      const read: string[] = [];
      for (let k = 0; k < r.words.length; k++) {
        const w = r.words[k] as string;
        const pair = k + 1 < r.words.length ? `${w} ${r.words[k + 1] as string}` : undefined;
        const phrase = pair === undefined ? undefined : PHRASES[pair];
        const reading = WORD_READINGS[w];
        if (phrase) {
          out.push(...phrase);
          read.push(`${pair as string} -> ${phrase.join(' ')}`);
          k++;
        } else if (reading) {
          out.push(...reading);
          read.push(`${w} -> ${reading.join(' ')}`);
        } else out.push(w);
      }
      r.words = out;
      if (read.length > 0) note(r, 'phrases', () => read.join(', '));
    },
  },
  {
    name: 'steps',
    reads: 'a later step (then, and + a verb, so that...) weighs 0.3: the lead step decides',
    apply: (r) => {
      r.laterStep = laterStepStart(r.words);
      if (r.laterStep < r.words.length) note(r, 'steps', () => `later step (weighs 0.3): ${r.words.slice(r.laterStep).join(' ')}`);
    },
  },
  {
    name: 'appended',
    reads: 'in a telegraphic agent call, the words after the first 4 are appended synonyms: weigh 0.7, outside coverage',
    apply: (r) => {
      r.appended = appendedStart(r.words);
      if (r.appended < r.laterStep) note(r, 'appended', () => `appended (weighs 0.7): ${r.words.slice(r.appended, r.laterStep).join(' ')}`);
    },
  },
  {
    name: 'question',
    reads: 'a question word first (what, which...), how many/much, or how do I...: a question, read by method and head-noun',
    apply: (r) => {
      r.question = questionKind(r.words);
      if (r.question !== undefined) note(r, 'question', () => r.question as string);
    },
  },
  {
    name: 'families',
    reads: 'a word also matches its vocabulary family at the family weight (cancel ~ stop/abort...); two of one family are one concept; a leading verb matches its verb families only (list ~ browse, not history)',
    apply: (r, cx) => {
      // the lexicon's own functions, never a closure per search (lexicon.ts says why)
      r.family = cx.lex.family;
      r.leadFamily = cx.lex.verbFamily;
      const read = (): string[] => [...new Set(r.words)].filter((w) => r.family(w).length > 0).map((w) => `${w} ~ ${r.family(w).slice(0, 3).join('/')}`);
      if (r.explain && read().length > 0) note(r, 'families', () => read().join(', '));
    },
  },
  {
    name: 'derived',
    reads: 'an agent noun and its verb, both in the catalog, match each other at 0.8 (watchers ~ watch)',
    apply: (r, cx) => {
      r.derived = cx.lex.derived;
    },
  },
  {
    name: 'mined',
    reads: 'a word also matches the words other APIs use for it, mined from a corpus of API descriptions (words/mined.json: similar resource words, aligned names), at a low weight',
    apply: (r, cx) => {
      const weight = cx.tuning.minedWeight ?? 0;
      if (weight === 0) return;
      r.minedWeight = weight;
      r.mined = minedAlternatives;
      if (r.explain) {
        const read = [...new Set(r.words)].filter((w) => r.mined(w).length > 0).map((w) => `${w} ~ ${r.mined(w).join('/')}`);
        if (read.length > 0) note(r, 'mined', () => read.join(', '));
      }
    },
  },
  {
    name: 'breadth',
    reads: 'all/every/whole/across ask for everything (the spans-all signal); all/every also for a list and a collection, unless a verb that writes leads; bulk/multiple/several ask for many at once (the bulk-variant signal), not after how/too/so',
    apply: (r) => {
      // all / every ask for a list, unless a verb that writes leads ("approve all pending members" approves them)
      const lead = leadingVerb(r.words);
      r.listAll = r.words.some((w) => LIST_WORDS.has(w)) && (lead === undefined || lead.methods.includes('get'));
      r.spanAll = r.words.some((w) => BROAD_WORDS.has(w));
      r.asksMany = manyWord(r.words) !== undefined;
      if (r.spanAll) note(r, 'breadth', () => r.listAll ? 'everything, as a list' : 'everything');
      if (r.asksMany) note(r, 'breadth', () => 'many at once');
    },
  },
  {
    name: 'concepts',
    core: true,
    reads: 'each word a concept: its index terms, its family, its idf and its step weight',
    apply: (r, cx) => {
      r.concepts = concepts(r.words, cx.lex, cx.n, cx.tuning.familyWeight, r);
      for (const c of r.concepts) for (const t of c.terms.keys()) r.queryTerms.add(t);
    },
  },
  {
    name: 'keywords',
    reads: "the agent's keywords: one low-weight concept per new term, adding to coverage without being part of it",
    apply: (r, cx) => {
      if (cx.keywords.length === 0) return;
      const extra = keywordTerms(cx.keywords, cx.lex, r.concepts, (w) => keywordAsSpelt(w, cx));
      if (extra.length === 0) return;
      const { lex, n, tuning } = cx;
      if (tuning.keywordPrecision) for (const t of extra) r.queryTerms.add(t);
      const weight = tuning.keywordWeight ?? 0.3;
      const idfOf = (terms: Iterable<string>): number => {
        let df = 0;
        for (const t of terms) df = Math.max(df, lex.docFreq.get(t) ?? 0);
        return Math.log(1 + (n + 1) / (df + 1));
      };
      if (tuning.keywordMode === 'concepts') {
        for (const t of extra) r.concepts.push({ terms: new Map([[t, 1]]), idf: idfOf([t]), weight: weight / extra.length, keyword: true });
      } else {
        r.concepts.push({ terms: new Map(extra.map((t) => [t, 1])), idf: idfOf(extra), weight, keyword: true });
      }
      note(r, 'keywords', () => extra.map((t) => `+${t}`).join(' '));
    },
  },
  {
    name: 'object',
    reads: "the request's object: lead-step words before the first preposition, without action words (primary-resource)",
    apply: (r, cx) => {
      if (!cx.tuning.readObject) return;
      for (let k = 0; k < Math.min(r.laterStep, r.words.length); k++) {
        const w = r.words[k] as string;
        if (PREPOSITIONS.has(w)) break;
        if (isAction(w)) continue;
        for (const v of [w, ...r.family(w)]) for (const t of cx.lex.analyze(v)) r.objectTerms.push(t);
      }
    },
  },
  {
    name: 'head-noun',
    reads: "the head noun of the request's object: its last word before a preposition (in a question, the noun asked about)",
    apply: (r, cx) => {
      // appended synonyms are not the object's head ("list hooks webhooks notifications" acts on hooks)
      const lead = r.words.slice(0, r.appended);
      r.head = objectHead(lead, { lex: cx.lex, scopeOf: callerOf, question: r.question }, cx.on('steps') ? laterStepStart(lead) : lead.length);
      if (r.head === undefined) return;
      // read as the operations' heads are (features.ts): an identifier compound by its last part
      const last = compoundHead(r.head, cx.lex);
      r.headTerms = [...(last !== r.head ? [last] : []), r.head, ...r.family(r.head)].flatMap((v) => cx.lex.analyze(v));
      note(r, 'head-noun', () => r.head as string);
    },
  },
  {
    name: 'scopes',
    reads: "words that name one of the catalog's scopes (repos, orgs... read off its paths), not as the head noun or a verb, or the caller (my, me); \"me\" after show/tell is the receiver; the agent's keywords name scopes too, not the caller; admin words ask for the administrator's side (the admin-variant signal)",
    apply: (r, cx) => {
      r.words.forEach((w, at) => {
        // the thing acted on is no scope ("what cards are assigned to me"), nor is a verb ("list my boards")
        const s = w === r.head || (isAction(w) && !CALLER_WORDS.has(w)) ? callerOf(w) : cx.scopeOf(w);
        // "show me", "tell me", "remind me": the person asking is the receiver, not the scope
        if (s === CALLER && w === 'me' && at > 0 && RECEIVER_VERBS.has(r.words[at - 1] as string)) return;
        if (s) r.scopes.add(s);
      });
      // the agent's keywords say where too ("generate client key", keywords "company"), but neither the thing acted
      // on ("create repository", keywords "new repo") nor the caller (a keyword "me" has no sentence to read it in);
      // words as typed, so a field name ("idList") names no scope
      const typed = readKeywords(cx.keywords).flatMap((k) => k.toLowerCase().split(/\s+/)).slice(0, MAX_KEYWORD_WORDS);
      for (const raw of typed) {
        const w = keywordAsSpelt(raw, cx);
        if (CALLER_WORDS.has(w) || cx.lex.analyze(w).some((t) => r.headTerms.includes(t))) continue;
        const s = cx.scopeOf(w);
        if (s !== undefined && s !== CALLER) r.scopes.add(s);
      }
      if (r.scopes.size > 0) note(r, 'scopes', () => [...r.scopes].sort().join(', '));
      r.asksAdmin = r.words.some((w) => ADMIN_WORDS.has(w));
      if (r.asksAdmin) note(r, 'scopes', () => 'the administrator\'s side');
    },
  },
  {
    name: 'caller',
    reads: '"my" explains the words an operation on the caller uses for itself (current, authenticated, self)',
    apply: (r, cx) => {
      if (!r.scopes.has(CALLER)) return;
      for (const w of SELF_WORDS) for (const t of cx.lex.analyze(w)) r.queryTerms.add(t);
    },
  },
  {
    name: 'method',
    reads: 'the HTTP methods the leading verb asks for (a question reads; an unknown verb before its object changes, as does a first word with an English past tense before a singular)',
    apply: (r, cx) => {
      const m = verbMethods(r.words, cx.lex, r.question, (w) => callerOf(w) !== undefined);
      r.methods = m.methods;
      r.verb = m.methods === undefined || m.from === 'how' ? undefined : m.from;
      const methods = m.methods;
      if (methods !== undefined) note(r, 'method', () => `${methods.join('/').toUpperCase()} (${m.from as string})`);
    },
  },
  {
    name: 'opposites',
    reads: 'the actions opposite to the leading verb: its un-/dis-/de- twin (suspend: unsuspend) and the words of its opposite family (accept: reject)',
    apply: (r, cx) => {
      if (r.verb === undefined || r.question === 'question') return;
      const words = oppositeActions(r.verb);
      r.opposites = oppositeTerms(r.verb, words, cx.lex);
      if (r.opposites.length > 0) note(r, 'opposites', () => words.slice(0, 6).join('/'));
    },
  },
  {
    name: 'shape',
    reads: 'the REST shape the leading verb asks for: list/create a collection, get/change/delete an item; a read of a plural lists; many at once acts on the collection',
    apply: (r, cx) => {
      // many at once ("delete several tags", "update multiple records") acts on the collection, whatever the verb
      const many = r.asksMany ? manyWord(r.words) : undefined;
      const s = many !== undefined ? { shape: 'collection' as const, from: many } : verbShape(r.words, cx.lex, r.listAll);
      r.shape = s.shape;
      if (s.shape !== undefined) note(r, 'shape', () => `${s.shape} (${s.from as string})`);
    },
  },
];

/**
 * A word of the agent's keywords as the typos unit would spell it (as typed when that unit is off): the keywords
 * are read outside the request's words, by the keywords and scopes units.
 */
function keywordAsSpelt(word: string, cx: AnalysisContext): string {
  return cx.on('typos') ? cx.lex.correct(word) : word;
}

/** The word that asks for many at once (several, bulk...), not after how / too / so ("how many", "too many logins"). */
function manyWord(words: readonly string[]): string | undefined {
  return words.find((w, i) => MANY_WORDS.has(w) && !NOT_MANY_AFTER.has(words[i - 1] ?? ''));
}

/** Names of the units that can be left out. */
export const SWITCHABLE_UNITS: readonly string[] = UNITS.filter((u) => u.core !== true).map((u) => u.name);

/** The full analysis of one (trimmed, non-empty) query: every unit that is on, in order. */
export function analyzeQuery(
  query: string, lex: Lexicon, n: number, tuning: QueryTuning, keywords: readonly string[] = [], scopes: ScopeTable = CALLER_ONLY,
  explain = true,
): QueryPlan {
  const off = new Set(tuning.disabledUnits ?? []);
  const cx: AnalysisContext = {
    lex, n, tuning, keywords, scopes, scopeOf: (w) => scopeNamedBy(scopes, lex, w), on: (u) => !off.has(u),
  };
  const r: Reading = {
    text: query.slice(0, MAX_QUERY_CHARS), words: [], corrected: undefined, concepts: [] as Concept[], queryTerms: new Set(), methods: undefined as readonly HttpMethod[] | undefined,
    shape: undefined, verb: undefined, opposites: [], scopes: new Set(), spanAll: false, asksMany: false, asksAdmin: false, objectTerms: [], headTerms: [], laterStep: Number.MAX_SAFE_INTEGER,
    // steps and appended: none (the word count, set at the end) unless their units find one
    appended: Number.MAX_SAFE_INTEGER, head: undefined, notes: [], question: undefined, family: NO_FAMILY, leadFamily: NO_FAMILY, derived: NO_DERIVED, listAll: false, names: NO_NAMES, explain, mined: NO_FAMILY, minedWeight: 0,
  };
  for (const unit of UNITS) {
    if (unit.core !== true && off.has(unit.name)) continue;
    unit.apply(r, cx);
  }
  r.laterStep = Math.min(r.laterStep, r.words.length);
  r.appended = Math.min(r.appended, r.words.length);
  return r;
}
