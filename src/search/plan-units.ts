// The query analysis units that read what the words mean into the plan (after units.ts's units have settled the
// words): families, derived and mined words, breadth, concepts, the agent's keywords, the object and its head
// noun, scopes, the caller, the method, opposite actions and the REST shape. units.ts runs them, in this order.
import { compoundHead } from './features.js';
import { concepts, keywordTerms, leadingVerb, MAX_KEYWORD_WORDS, readKeywords, verbMethods, verbShape } from './query.js';
import { oppositeActions, oppositeTerms } from './opposites.js';
import { NO_FAMILY, note, type AnalysisContext, type AnalysisUnit } from './reading.js';
import { laterStepStart, objectHead } from './sentence.js';
import { stripPlural as singularOf } from './text.js';
import {
  ADMIN_WORDS, BROAD_WORDS, isAction, LIST_WORDS, MANY_WORDS, NOT_MANY_AFTER, MINED, PREPOSITIONS, RECEIVER_VERBS, SELF_WORDS,
} from './words.js';
import { CALLER } from './scopes.js';
import { CALLER_WORDS } from './words.js';

/** The mined unit's reading of a word: one function for every search (a closure per search outlives it: lexicon.ts). */
const minedAlternatives = (w: string): readonly string[] => (isAction(w) ? NO_FAMILY() : MINED[singularOf(w)] ?? NO_FAMILY());
/** The caller's scope for its words (my, me): never the head noun of a request, nor its verb. */
const callerOf = (word: string): string | undefined => (CALLER_WORDS.has(word) ? CALLER : undefined);

/** The units that read the settled words into the plan, in the order they read. */
export const PLAN_UNITS: readonly AnalysisUnit[] = [
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
