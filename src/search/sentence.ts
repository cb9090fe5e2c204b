// Stage 1c (with query.ts), the structure of a request, read from its raw words (queryWords): where a later step
// of a multi-step request starts, where the synonyms an agent appended to its call start, and the head noun of its
// object (in a question, the noun it asks about). Word lists of English grammar, not of any API; query.ts weighs
// the concepts by them.
import { isAction } from './features.js';
import type { Lexicon } from './lexicon.js';
import { STOP_WORDS } from './text.js';
import { SCOPE_WORDS } from './vocabulary.js';

/** Typed words of an agent's call before what may be its synonyms appended: a verb and a noun phrase of up to 3. */
export const CALL_WORDS = 4;

/** Determiners and pronouns that start an object: the word before them is a verb ("and refund their charge"). */
export const OBJECT_WORDS: ReadonlySet<string> = new Set([
  'the', 'a', 'an', 'it', 'its', 'them', 'their', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'his', 'her',
  'each', 'every', 'all', 'him', 'me', 'us', 'someone', 'somebody', 'everyone',
]);

/** Question words that open a request for information (`who` and `how` are verbs of VERB_METHODS anywhere). */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(['what', 'which', 'when', 'where', 'whose']);

/** Words that end the object of a request and start its scope ("add a product | to the catalog"). */
export const PREPOSITIONS: ReadonlySet<string> = new Set([
  'to', 'from', 'for', 'in', 'on', 'of', 'with', 'by', 'into', 'onto', 'at', 'inside', 'under', 'across', 'between', 'within',
]);

/**
 * Verbs of telling that open a request: a "that" clause after them is the message, not the request ("email bob
 * that the meeting moved"). `tell` is not one: "tell me the runs that failed" is a relative clause.
 */
const SAY_VERBS: ReadonlySet<string> = new Set(['email', 'text', 'message', 'sms', 'fax', 'notify', 'remind', 'ping']);

/** Auxiliary verbs: in a question ("which boards do I have?") they end the noun phrase the question asks about. */
const AUXILIARIES: ReadonlySet<string> = new Set([
  'do', 'does', 'did', 'is', 'are', 'was', 'were', 'am', 'be', 'been', 'have', 'has', 'had', 'can', 'could', 'will',
  'would', 'should', 'shall', 'may', 'might', 'must',
]);

/**
 * Index of the first word of a later step in a multi-step request, else the word count: "find X and then
 * do Y", "find X, then Y", "find X and add it to Y" (`and` + an action word), "X so that I can Y". The lead
 * step is what must happen first, so it decides the ranking; later steps still count a little.
 */
export function laterStepStart(words: readonly string[]): number {
  for (let k = 1; k < words.length - 1; k++) {
    const w = words[k] as string;
    const next = words[k + 1] as string;
    if (w === 'then' || w === 'afterwards' || (w === 'after' && next === 'that')) return k;
    // `and` + a verb: a known action word, or any word followed by an object ("and refund their charge")
    if (w === 'and' && (next === 'then' || isAction(next) || OBJECT_WORDS.has(words[k + 2] ?? ''))) return k;
    if (w === 'so' && (next === 'that' || next === 'i' || next === 'we')) return k;
    // "email bob that the meeting moved", "text them that their order shipped": what follows is the message
    // (queryWords reads a leading "email" as "send email")
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
 * that think of other names for the thing often append them to the query instead of passing `keywords`, which the
 * issue measured to cost (first 89% -> 84%). So in such a call the words after the first {@link CALL_WORDS} typed
 * words weigh {@link APPENDED_WEIGHT} and, like keywords, add to coverage without being part of its whole: an
 * operation that matches the call is not outranked for lacking a synonym. A request in people's words has function
 * words and is left alone. Measured in docs/SEARCH.md ("Synonyms appended to an agent's call", round 9).
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

/** Words that label the value after them ("id Xk02bLm8"): with that value, not the head noun either. */
const VALUE_LABELS: ReadonlySet<string> = new Set(['id', 'ids', 'uuid', 'guid']);

/** Whether `words[k]` is a value or the label of the value after it. */
const isValue = (words: readonly string[], k: number): boolean =>
  hasDigit(words[k] as string) || (VALUE_LABELS.has(words[k] as string) && hasDigit(words[k + 1] ?? ''));

/**
 * The head noun a question asks about: "which boards do I have?", "what cards are assigned to me?", "how many
 * people are watching?" -> the last word of the noun phrase after which/what/how many, up to the auxiliary verb
 * that starts the rest of the question (the verb after it is the question's predicate, not its object).
 */
function questionHead(words: readonly string[], lead: number, lex: Lexicon): string | undefined {
  const first = words[0];
  const howMany = first === 'how' && (words[1] === 'many' || words[1] === 'much');
  let k = first !== undefined && QUESTION_WORDS.has(first) ? 1 : howMany ? 2 : -1;
  if (k < 0) return undefined;
  let head: string | undefined;
  for (; k < lead; k++) {
    const w = words[k] as string;
    if (AUXILIARIES.has(w) || PREPOSITIONS.has(w)) break;
    if (isCompoundPart(words, k)) {
      k++;
      continue;
    }
    if (isAction(w) || SCOPE_WORDS[w] !== undefined || isValue(words, k)) continue;
    if (lex.analyze(w).length > 0) head = w;
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
export function objectHead(words: readonly string[], lex: Lexicon): string | undefined {
  const lead = laterStepStart(words);
  const asked = questionHead(words, lead, lex);
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
    const scope = SCOPE_WORDS[w];
    if (scope !== undefined && scope !== 'me' && lex.analyze(w).length > 0) scopeHead = w;
    if (isAction(w) || scope !== undefined || QUESTION_WORDS.has(w) || isValue(words, k)) continue;
    if (lex.analyze(w).length > 0) head = w;
  }
  return head ?? scopeHead;
}
