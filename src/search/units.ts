// Stage 1c, query analysis as named units, like the signals: each rule of the reading (literal values, typo
// correction, phrases, steps, families, scopes, head noun, method...) is a unit with a name, what it reads, the word
// lists it owns (words/*.json) and its step, run in order over one reading of the query (reading.ts). Every unit but
// the core stages can be left out (SearchTuning.disabledUnits) and is measured that way (scripts/search-ablation.mjs,
// docs/SEARCH.md). Typos are corrected before any unit reads a word, so a misspelt request reads as the spelt one.
// This module holds the units that settle the words (literals to question) and the order; plan-units.ts the rest.
import type { HttpMethod } from '../types.js';
import type { Lexicon } from './lexicon.js';
import { readLiterals } from './literals.js';
import { didAction, isUndo, MAX_QUERY_CHARS, MAX_QUERY_TERMS, type Concept, type QueryPlan, type QueryTuning } from './query.js';
import { PLAN_UNITS } from './plan-units.js';
import { NO_FAMILY, note, type AnalysisContext, type AnalysisUnit, type Reading } from './reading.js';
import { appendedStart, laterStepStart, questionKind } from './sentence.js';
import { splitWords } from './text.js';
import { FILLER_AFTER, MESSAGE_VERBS, OBJECT_WORDS, PHRASES, WHO_DID_READING, WORD_READINGS } from './words.js';
import { CALLER_ONLY, scopeNamedBy, type ScopeTable } from './scopes.js';

/** Most typo corrections per query (each scans one letter's dictionary). */
export const MAX_CORRECTIONS = 4;

const NO_DERIVED: ReadonlyMap<string, readonly string[]> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();

/** The units that settle the words, in the order they read: literals, splitting, typos, ... the question. */
const WORD_UNITS: readonly AnalysisUnit[] = [
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
    reads: 'two-word phrases and single words read as others (logged in -> authenticated, set up -> create, whenever -> webhook); a filler word dropped after its cue (like in I\'d like, looks like)',
    apply: (r) => {
      const out: string[] = [];
      const read: string[] = [];
      for (let k = 0; k < r.words.length; k++) {
        const w = r.words[k] as string;
        const pair = k + 1 < r.words.length ? `${w} ${r.words[k + 1] as string}` : undefined;
        const phrase = pair === undefined ? undefined : PHRASES[pair];
        const reading = WORD_READINGS[w];
        const next = r.words[k + 1];
        if (next !== undefined && FILLER_AFTER[next]?.includes(w) === true && !phrase) {
          // "looks like": the cue word stays, the filler goes
          out.push(w);
          read.push(`${pair as string} -> ${w}`);
          k++;
        } else if (phrase) {
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
];

/** The units in the order they read; a unit reads what the ones before it wrote. */
export const UNITS: readonly AnalysisUnit[] = [...WORD_UNITS, ...PLAN_UNITS];

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
