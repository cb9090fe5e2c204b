// "Did you mean" for every layer: the candidates closest to a name or value that matched none (tool, domain, catalog,
// argument, enum value), best first. Pure: compares the strings it is given; loads no catalog, reads no file.
import { distance } from 'fastest-levenshtein';

/** A word in a name, compared without its plural ending ("issues" ~ "issue", "repositories" ~ "repository"). */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The words of a name, whatever joins them (`_`, `-`, `.`, spaces, camelCase), lower-cased and stemmed. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .map(stem);
}

/** The name without its catalog prefix (`vimeo.videos-essentials` -> `videos-essentials`) when `prefixes` has it. */
function withoutPrefix(name: string, prefixes: ReadonlySet<string>): string {
  const dot = name.indexOf('.');
  return dot > 0 && prefixes.has(name.slice(0, dot).toLowerCase()) ? name.slice(dot + 1) : name;
}

/**
 * `outer` contains `inner`, and `inner` is at least half of it: "repo" inside "spam-reports-api" (a fragment of one
 * word of a longer name) names another thing, and an instruction built on the first suggestion would send the
 * agent there.
 */
function contains(outer: string, inner: string): boolean {
  return inner !== '' && inner.length * 2 >= outer.length && outer.includes(inner);
}

/** Edit distance when it is small for names of these lengths ("isues" ~ "issues"), else undefined. */
function closeDistance(a: string, b: string): number | undefined {
  const d = distance(a, b);
  return d <= Math.max(2, Math.floor(Math.max(a.length, b.length) * 0.4)) ? d : undefined;
}

/**
 * Closest names to `query` for "did you mean" messages, best first, in tiers (within a tier: the smaller edit
 * distance, then name order):
 * 1. the same name, ignoring case;
 * 2. the same name once a catalog prefix is added or stripped: a multi-catalog set names tools and domains
 *    `<catalog>.<name>`, and an agent often leaves the prefix out (`videos-essentials` -> `vimeo.videos-essentials`);
 * 3. the same words in another order or with other separators (`create-issue` -> `issues_create`);
 * 4. a name containing every word of the query (`create-issue` -> `issues_create-comment`);
 * 5. a name within a small edit distance (typos: `isues_create` -> `issues_create`);
 * 6. a name containing the query inside a word, or contained in it (3+ characters, at least half the longer).
 * The first four come before edit distance because a loose edit-distance match between two long names that share
 * a suffix (`videos-essentials` ~ `vimeo.tags-essentials`) is a different thing, while these name the same one.
 * A prefix is the part before the first `.` of a candidate.
 * `completions`: the query is the start of a name (list_domains' `prefix`), so the names that begin with it (with
 * or without their catalog prefix) come right after an exact match, shortest first: "act" -> actions, not git.
 */
export function suggestNames(query: string, candidates: readonly string[], max = 3, options: { completions?: boolean } = {}): string[] {
  const q = query.toLowerCase();
  const prefixes = new Set<string>();
  for (const name of candidates) {
    const dot = name.indexOf('.');
    if (dot > 0) prefixes.add(name.slice(0, dot).toLowerCase());
  }
  const qLocalRaw = withoutPrefix(query, prefixes);
  const qLocal = qLocalRaw.toLowerCase();
  const qWords = wordsOf(qLocalRaw);
  const qKey = [...new Set(qWords)].sort().join(' ');
  // a prefix the candidates do not have (`github.issues_create` where GitHub alone is served: no prefixes)
  const qAfterDot = q.includes('.') ? q.slice(q.indexOf('.') + 1) : undefined;
  // one- and two-letter queries are too short for word matches ("x" is a word of too many names)
  const wordsUsable = qWords.join('').length >= 3;
  const scored: Array<{ name: string; tier: number; d: number }> = [];
  for (const name of new Set(candidates)) {
    const n = name.toLowerCase();
    const nLocalRaw = withoutPrefix(name, prefixes);
    const nLocal = nLocalRaw.toLowerCase();
    let tier: number;
    let d = distance(qLocal, nLocal);
    if (n === q) tier = 0;
    else if (nLocal === qLocal || n === qAfterDot) tier = 1;
    else if (options.completions === true && q !== '' && (n.startsWith(q) || (qLocal !== '' && nLocal.startsWith(qLocal)))) tier = 1.5;
    else {
      const localKey = [...new Set(wordsOf(nLocalRaw))].sort().join(' ');
      // the prefix's word counts for containment: "pets" is in petstore's "pets.list"
      const allWords = new Set(wordsOf(name));
      if (wordsUsable && localKey === qKey) tier = 2;
      else if (wordsUsable && qWords.every((w) => allWords.has(w))) tier = 3;
      else {
        const close = [closeDistance(q, n), closeDistance(qLocal, nLocal)].filter((x): x is number => x !== undefined);
        if (close.length > 0) {
          tier = 4;
          d = Math.min(...close);
        } else if (q.length >= 3 && (contains(nLocal, qLocal) || contains(qLocal, nLocal) || contains(n, q) || contains(q, n))) tier = 5;
        else continue;
      }
    }
    scored.push({ name, tier, d });
  }
  scored.sort((a, b) => a.tier - b.tier || a.d - b.d || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Nothing close is an answer too: a far-fetched "did you mean" sends an agent the wrong way.
  return scored.slice(0, max).map((s) => s.name);
}
