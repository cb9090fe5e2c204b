// Help for a search that found nothing: the domains whose words the query shares, and what it may have meant
// (spelling corrections from the catalog's own words, or the closest operation names for a name-like query).
// Pure: reads the lexicon and the names it is given; prints nothing.
import { suggestNames } from '../registry/suggest.js';
import type { DomainInfo } from '../types.js';
import type { Lexicon } from './lexicon.js';
import { readLiterals } from './literals.js';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from './query.js';

/**
 * Domains whose name or description share words with the query (most shared first, at most 5), and spelling
 * corrections (the query with unknown words replaced by the closest indexed word) or, for a query of one word, the
 * closest operation names (`names`, read only then); at most 5.
 */
export function suggestFor(
  query: string, lex: Lexicon, catalogDomains: readonly DomainInfo[], names: () => readonly string[],
): { domains: string[]; didYouMean: string[] } {
  const words = lex.words(readLiterals(query.trim().slice(0, MAX_QUERY_CHARS)), MAX_QUERY_TERMS);
  const terms = new Set(words.flatMap((w) => lex.analyze(w)));
  const domains: Array<{ name: string; hits: number }> = [];
  for (const d of catalogDomains) {
    const dterms = new Set(lex.terms(`${d.name} ${d.description}`));
    let hits = 0;
    for (const t of terms) if (dterms.has(t)) hits++;
    if (hits > 0) domains.push({ name: d.name, hits });
  }
  domains.sort((a, b) => b.hits - a.hits || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const didYouMean: string[] = [];
  const trimmed = query.trim().slice(0, 128);
  if (trimmed !== '' && !/\s/.test(trimmed)) {
    didYouMean.push(...suggestNames(trimmed, names()));
  }
  const corrected = words.map((w) => lex.correct(w));
  if (corrected.some((c, k) => c !== words[k])) {
    const text = corrected.join(' ');
    if (!didYouMean.includes(text)) didYouMean.push(text);
  }
  return { domains: domains.slice(0, 5).map((d) => d.name), didYouMean: didYouMean.slice(0, 5) };
}
