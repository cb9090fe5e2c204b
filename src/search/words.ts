// The search word lists, read from data (src/search/words/*.json, one file per owner: the analysis unit that reads
// it, or `analyzer` for the chain shared by index and query) into the typed, frozen tables the code reads. Nothing
// here names a particular API; test/search/words.test.ts checks the lists (owners, contradictions, derived counts).
import analyzer from './words/analyzer.json' with { type: 'json' };
import breadth from './words/breadth.json' with { type: 'json' };
import families from './words/families.json' with { type: 'json' };
import headNoun from './words/head-noun.json' with { type: 'json' };
import literals from './words/literals.json' with { type: 'json' };
import mined from './words/mined.json' with { type: 'json' };
import messageVerbs from './words/message-verbs.json' with { type: 'json' };
import method from './words/method.json' with { type: 'json' };
import phrases from './words/phrases.json' with { type: 'json' };
import question from './words/question.json' with { type: 'json' };
import scopes from './words/scopes.json' with { type: 'json' };
import shape from './words/shape.json' with { type: 'json' };
import steps from './words/steps.json' with { type: 'json' };
import whoDid from './words/who-did.json' with { type: 'json' };
import type { HttpMethod } from '../types.js';

/** Every word-list file by name (its `owner` is the unit that reads it): the fingerprint and the checks read them. */
export const WORD_LISTS: Readonly<Record<string, { owner: string; about: string }>> = Object.freeze({
  analyzer, breadth, families, 'head-noun': headNoun, literals, 'message-verbs': messageVerbs, method, mined, phrases, question,
  scopes, shape, steps, 'who-did': whoDid,
});

/**
 * A lookup table without a prototype: `table['constructor']` or `table['__proto__']` must be undefined for
 * words of any API (an operation summary may say "constructor"), never Object.prototype's members.
 */
function table<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
const set = (words: readonly string[]): ReadonlySet<string> => new Set(words);

// analyzer (index and query)
export const STOP_WORDS: ReadonlySet<string> = set(analyzer.stopWords);
/** Abbreviations and spelling variants rewritten to their canonical words at index and query time. */
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = table(analyzer.abbreviations);

// families
/** Verb families first, then noun families; {@link VERB_FAMILY_COUNT} of them are verb families (derived). */
export const FAMILIES: readonly (readonly string[])[] = [...families.actions, ...families.things];
export const VERB_FAMILY_COUNT = families.actions.length;
/** The verb families alone (the first {@link VERB_FAMILY_COUNT} of {@link FAMILIES}). */
export const VERB_FAMILIES: readonly (readonly string[])[] = FAMILIES.slice(0, VERB_FAMILY_COUNT);
/** Pairs of verb families (by first word) that mean opposite things. */
export const OPPOSITE_FAMILIES: readonly (readonly [string, string])[] = families.opposites.map(([a, b]) => [a as string, b as string] as const);
/** Words of the verb families. */
export const VERB_FAMILY_WORDS: ReadonlySet<string> = set(families.actions.flat());

// phrases
export const PHRASES: Readonly<Record<string, readonly string[]>> = table(phrases.phrases);
export const WORD_READINGS: Readonly<Record<string, readonly string[]>> = table(phrases.words);
/** A word -> the words after which it says nothing of what is asked (like after "id", from "I'd like"): dropped there. */
export const FILLER_AFTER: Readonly<Record<string, readonly string[]>> = table(phrases.fillerAfter);

// who-did, message-verbs, literals
export const WHO_DID_READING: readonly string[] = whoDid.reading;
export const IRREGULAR_PAST: Readonly<Record<string, string>> = table(whoDid.irregularPast);
export const MESSAGE_VERBS: ReadonlySet<string> = set(messageVerbs.verbs);
export const FILE_EXTENSIONS: readonly string[] = literals.fileExtensions;

// method
const methods = (list: readonly string[]): readonly HttpMethod[] => list as readonly HttpMethod[];
export const CHANGE_METHODS: readonly HttpMethod[] = methods(method.changeMethods);
export const UNDO_METHODS: readonly HttpMethod[] = methods(method.undoMethods);
/** Words that follow a verb in a path segment that still acts on the resource before it (`deleteByCodes`). */
export const TUNNEL_QUALIFIERS: ReadonlySet<string> = set(method.tunnelQualifiers);
/** Path segments that make a POST a search with a body, which reads (`POST /search/users`). */
export const SEARCH_SEGMENTS: ReadonlySet<string> = set(method.searchSegments);
/** HTTP methods a leading verb suggests: the change verbs' (POST/PUT/PATCH), then the others'. */
export const VERB_METHODS: Readonly<Record<string, readonly HttpMethod[]>> = table({
  ...Object.fromEntries(method.change.map((w): [string, readonly HttpMethod[]] => [w, CHANGE_METHODS])),
  ...Object.fromEntries(Object.entries(method.verbs).map(([w, m]): [string, readonly HttpMethod[]] => [w, methods(m)])),
});

// shape
export const VERB_SHAPES: Readonly<Record<string, 'collection' | 'item'>> = table(shape.verbs as Record<string, 'collection' | 'item'>);
export const READ_VERBS: ReadonlySet<string> = set(shape.readVerbs);

// steps, question, head-noun, breadth
export const STEP_MARKERS: ReadonlySet<string> = set(steps.markers);
export const STEP_MARKER_PAIRS: Readonly<Record<string, readonly string[]>> = table(steps.markerPairs);
export const STEP_CONJUNCTIONS: ReadonlySet<string> = set(steps.conjunctions);
/** Determiners and pronouns that start an object: the word before them is a verb ("and refund their charge"). */
export const OBJECT_WORDS: ReadonlySet<string> = set(steps.objectWords);
export const SAY_VERBS: ReadonlySet<string> = set(steps.sayVerbs);
export const QUESTION_WORDS: ReadonlySet<string> = set(question.questionWords);
export const HOW_MANY: ReadonlySet<string> = set(question.howMany);
export const HOW_TO: ReadonlySet<string> = set(question.howTo);
export const PREPOSITIONS: ReadonlySet<string> = set(headNoun.prepositions);
export const AUXILIARIES: ReadonlySet<string> = set(headNoun.auxiliaries);
export const VALUE_LABELS: ReadonlySet<string> = set(headNoun.valueLabels);
export const FORMAT_SUFFIXES: readonly string[] = headNoun.formatSuffixes;
export const BROAD_WORDS: ReadonlySet<string> = set(breadth.broad);
export const LIST_WORDS: ReadonlySet<string> = set(breadth.list);
/** Words that ask for several things at once; words that mark an operation as the variant for many (bulk-variant). */
export const MANY_WORDS: ReadonlySet<string> = set(breadth.many);
/** Words before a many word that make it no request for many at once ("how many", "too many"). */
export const NOT_MANY_AFTER: ReadonlySet<string> = set(breadth.notManyAfter);
export const BULK_OPERATION_WORDS: ReadonlySet<string> = set(breadth.bulkOperation);

// mined (scripts/learn-mappings.mjs): a word's alternatives in other APIs, best first — the similar resource words,
// then the names the aligned descriptions give it
type MinedTable = Record<string, Array<[string, number]>>;
function minedAlternatives(...tables: MinedTable[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    for (const [w, list] of Object.entries(t)) {
      const have = (out[w] ??= []);
      for (const [b] of list) if (!have.includes(b)) have.push(b);
    }
  }
  return out;
}
export const MINED: Readonly<Record<string, readonly string[]>> = table(
  minedAlternatives(mined.mappings as unknown as MinedTable, (mined as { aligned?: unknown }).aligned as MinedTable ?? {}),
);

// scopes
/** Words for the person asking (my, me): they name the caller's scope. */
export const CALLER_WORDS: ReadonlySet<string> = set(scopes.caller);
export const RECEIVER_VERBS: ReadonlySet<string> = set(scopes.receiverVerbs);
export const SELF_WORDS: readonly string[] = scopes.selfWords;
export const CALLER_SEGMENTS: ReadonlySet<string> = set(scopes.callerSegments);
export const CALLER_SUMMARY: readonly string[] = scopes.callerSummary;
/** The administrator's side of an API: words a request says it with, path roots and summary phrases that put an operation there. */
export const ADMIN_WORDS: ReadonlySet<string> = set(scopes.admin);
export const ADMIN_SEGMENTS: ReadonlySet<string> = set(scopes.adminSegments);
export const ADMIN_SUMMARY: readonly string[] = scopes.adminSummary;

/** A word that names an action: a verb family member or a verb with an HTTP method or path shape. */
export function isAction(word: string): boolean {
  return VERB_METHODS[word] !== undefined || VERB_SHAPES[word] !== undefined || VERB_FAMILY_WORDS.has(word);
}
