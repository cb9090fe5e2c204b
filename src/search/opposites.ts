// The actions opposite to a request's verb, for the `opposites` unit (units.ts) and the `opposite-action` signal:
// its un-/dis-/de- twin either way (suspend: unsuspend) and the words of the verb family opposite to its own
// (`words/families.json` opposites; accept: reject). Pure functions of the word lists, remembered per verb.
import { BoundedMap } from './bounded-map.js';
import type { Lexicon } from './lexicon.js';
import { OPPOSITE_FAMILIES, VERB_FAMILIES } from './words.js';

/** Prefixes that undo a verb: suspend / unsuspend, connect / disconnect, activate / deactivate. */
const UNDO_PREFIXES = ['un', 'dis', 'de'];

/** A verb's opposite actions, and their index terms per lexicon: the same few verbs lead most queries. */
const OPPOSITES = new BoundedMap<string, readonly string[]>(4096);
const OPPOSITE_TERMS = new WeakMap<Lexicon, BoundedMap<string, readonly string[]>>();

export function oppositeTerms(verb: string, words: readonly string[], lex: Lexicon): readonly string[] {
  let byVerb = OPPOSITE_TERMS.get(lex);
  if (byVerb === undefined) OPPOSITE_TERMS.set(lex, (byVerb = new BoundedMap(4096)));
  return byVerb.get(verb) ?? byVerb.remember(verb, [...new Set(words.flatMap((w) => lex.analyze(w)))]);
}

/** The actions opposite to `verb`: its undo-prefixed twin (either way) and every word of an opposite verb family. */
export function oppositeActions(verb: string): readonly string[] {
  return OPPOSITES.get(verb) ?? OPPOSITES.remember(verb, computeOpposites(verb));
}

function computeOpposites(verb: string): string[] {
  const out: string[] = [];
  for (const p of UNDO_PREFIXES) {
    out.push(p + verb);
    if (verb.startsWith(p) && verb.length > p.length + 2) out.push(verb.slice(p.length));
  }
  const family = VERB_FAMILIES.find((f) => f.includes(verb));
  if (family !== undefined) {
    for (const [a, b] of OPPOSITE_FAMILIES) {
      const other = family[0] === a ? b : family[0] === b ? a : undefined;
      const words = other === undefined ? undefined : VERB_FAMILIES.find((f) => f[0] === other);
      if (words !== undefined) out.push(...words);
    }
  }
  return out;
}
