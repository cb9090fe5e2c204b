// The structure of a request, read from its words (the `steps`, `appended`, `question` and `head-noun` units of
// units.ts): where a later step of a multi-step request starts, where the synonyms an agent appended to its call
// start, whether it is a question, and the head noun of its object. English grammar over the word lists of
// words.ts, not any API's words; query.ts weighs the concepts by them.
import { isCommonEnglish } from './english.js';
import type { Lexicon } from './lexicon.js';
import { CALLER } from './scopes.js';
import {
  AUXILIARIES, HOW_MANY, HOW_TO, isAction, OBJECT_WORDS, PREPOSITIONS, QUESTION_WORDS, SAY_VERBS, STEP_CONJUNCTIONS, STEP_MARKER_PAIRS,
  STEP_MARKERS, STOP_WORDS, VALUE_LABELS,
} from './words.js';

/** Typed words of an agent's call before what may be its synonyms appended: a verb and a noun phrase of up to 3. */
export const CALL_WORDS = 4;

/** What kind of question a request is: a question word first, `how many`/`how much`, or `how do I ...`. */
export type QuestionKind = 'question' | 'how-many' | 'how-to';

export function questionKind(words: readonly string[]): QuestionKind | undefined {
  const [first, second] = words;
  if (first !== undefined && QUESTION_WORDS.has(first)) return 'question';
  if (first === 'how' && second !== undefined && HOW_MANY.has(second)) return 'how-many';
  if (first === 'how' && second !== undefined && HOW_TO.has(second)) return 'how-to';
  return undefined;
}

/**
 * Index of the first word of a later step in a multi-step request, else the word count: "find X and then
 * do Y", "find X, then Y", "find X and add it to Y" (`and` + an action word), "X so that I can Y". The lead
 * step is what must happen first, so it decides the ranking; later steps still count a little.
 */
export function laterStepStart(words: readonly string[]): number {
  for (let k = 1; k < words.length - 1; k++) {
    const w = words[k] as string;
    const next = words[k + 1] as string;
    if (STEP_MARKERS.has(w) || STEP_MARKER_PAIRS[w]?.includes(next) === true) return k;
    // `and` + a verb: a known action word, or any word followed by an object ("and refund their charge")
    if (STEP_CONJUNCTIONS.has(w) && (STEP_MARKERS.has(next) || isAction(next) || OBJECT_WORDS.has(words[k + 2] ?? ''))) return k;
    // "email bob that the meeting moved", "text them that their order shipped": what follows is the message
    // (the message-verbs unit reads a leading "email" as "send email")
    if (w === 'that' && SAY_VERBS.has((words[0] === 'send' ? words[1] : words[0]) as string)) return k;
  }
  return words.length;
}

/**
 * Whether `words[k]` is the first of the two parts `Lexicon.words` puts after an identifier compound it split
 * (`nodebalancer` node balancer): words nobody typed, skipped together.
 */
export function isCompoundPart(words: readonly string[], k: number): boolean {
  return k > 0 && words[k - 1] === (words[k] as string) + (words[k + 1] ?? '');
}

/**
 * Index of the first word an agent may have appended to its call, else the word count. An agent's call is
 * telegraphic (an action word first, no function word anywhere: "list hooks webhooks notifications"), and agents
 * that think of other names for the thing often append them to the query instead of passing `keywords`. So in such
 * a call the words after the first {@link CALL_WORDS} typed words weigh less and, like keywords, add to coverage
 * without being part of its whole. A request in people's words has function words and is left alone.
 */
export function appendedStart(words: readonly string[]): number {
  if (words.length <= CALL_WORDS || !isAction(words[0] as string) || words.some((w) => STOP_WORDS.has(w))) return words.length;
  let typed = 0;
  for (let k = 0; k < words.length; k++) {
    // the parts the lexicon adds after an identifier compound were not typed
    if (isCompoundPart(words, k)) {
      k++;
      continue;
    }
    if (typed === CALL_WORDS) return k;
    typed++;
  }
  return words.length;
}

/** A word with a digit is a value the request carries (an id `xk02b`, a year, a number), never its head noun. */
const hasDigit = (w: string): boolean => /\d/.test(w);

/** Whether `words[k]` is a value or the label of the value after it ("id Xk02bLm8"). */
const isValue = (words: readonly string[], k: number): boolean =>
  hasDigit(words[k] as string) || (VALUE_LABELS.has(words[k] as string) && hasDigit(words[k + 1] ?? ''));

/**
 * An adverb made of an adjective (`currently`, `recently`, `quickly`): never the head noun. The adjective must be a
 * common English word of 4+ letters, so `reply`, `supply`, `family` stay nouns.
 */
const isAdverb = (w: string): boolean => w.length >= 6 && w.endsWith('ly') && isCommonEnglish(w.slice(0, -2));

/** A regular past participle (`directed`, `shared`, `assigned`): six letters or more, so not `need`, `feed`, `bed`. */
const isParticiple = (w: string): boolean => w.length >= 6 && w.endsWith('ed');

/** What the head-noun reading needs to know of the words: which name a scope, and the question kind. */
export interface HeadContext {
  lex: Lexicon;
  /** The scope a word names (a caller's word: `me`), else undefined. */
  scopeOf: (word: string) => string | undefined;
  question: QuestionKind | undefined;
}

/**
 * The head noun a question asks about: "which boards do I have?", "what cards are assigned to me?", "how many
 * people are watching?" -> the last word of the noun phrase after which/what/how many, up to the auxiliary verb
 * that starts the rest of the question (the verb after it is the question's predicate, not its object).
 */
function questionHead(words: readonly string[], lead: number, cx: HeadContext): string | undefined {
  let k = cx.question === 'question' ? 1 : cx.question === 'how-many' ? 2 : -1;
  if (k < 0) return undefined;
  let head: string | undefined;
  for (; k < lead; k++) {
    const w = words[k] as string;
    if (AUXILIARIES.has(w) || PREPOSITIONS.has(w)) break;
    if (isCompoundPart(words, k)) {
      k++;
      continue;
    }
    if (isAction(w) || cx.scopeOf(w) !== undefined || isValue(words, k) || isAdverb(w)) continue;
    if (cx.lex.analyze(w).length > 0) head = w;
  }
  return head;
}

/**
 * The head noun of the request's object: the last word of the lead step that is no action, scope or question
 * word, up to the first preposition after it ("add nodebalancer backend node" -> node, "list board cards" ->
 * cards, "show me the older versions of logo.png" -> versions). English puts the head last; the words before it
 * say which one. A scope word is the head only when the object has nothing else ("delete user", "get
 * organization"; not "list repository webhooks"); the caller's own words (`my`, `me`) never are.
 */
export function objectHead(words: readonly string[], cx: HeadContext, lead = laterStepStart(words)): string | undefined {
  const asked = questionHead(words, lead, cx);
  if (asked !== undefined) return asked;
  let head: string | undefined;
  let scopeHead: string | undefined;
  for (let k = 0; k < lead; k++) {
    const w = words[k] as string;
    // the parts the lexicon adds after an identifier compound are not a new head
    if (isCompoundPart(words, k)) {
      k++;
      continue;
    }
    if ((head ?? scopeHead) !== undefined && PREPOSITIONS.has(w)) break;
    // a participle after the object starts what is said of it ("movies directed by ...", "files shared with ...")
    if (head !== undefined && isParticiple(w) && PREPOSITIONS.has(words[k + 1] ?? '')) break;
    const scope = cx.scopeOf(w);
    if (scope !== undefined && scope !== CALLER && cx.lex.analyze(w).length > 0) scopeHead = w;
    if (isAction(w) || scope !== undefined || QUESTION_WORDS.has(w) || isValue(words, k) || isAdverb(w)) continue;
    if (cx.lex.analyze(w).length > 0) head = w;
  }
  return head ?? scopeHead;
}
