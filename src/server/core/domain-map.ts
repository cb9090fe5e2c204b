// The map list_domains gives an agent, bounded whatever the API's size: up to MAP_LIMIT domains are listed one by
// one; past that, domains that share the first words of their names are folded into groups (Microsoft Graph's
// `devicemanagement-*`, a multi-catalog set's `<catalog>.*`), each with its domain and tool counts and its largest
// members, and `prefix` opens one group. Where names do not fold (a group's 151 one-word children), domains are
// listed without descriptions (and groups without their largest members), up to COMPACT_LIMIT entries; past that
// only the largest entries are listed and the rest counted. Graph beta's 932 domains were 35,467 tokens of map
// before an agent did anything; folded, 1,987.

/** Up to this many domains are listed in full; past it, they are folded into at most this many entries if the names allow. */
export const MAP_LIMIT = 100;
/** Past MAP_LIMIT entries, up to this many are still listed, domains by name and tool count only. */
export const COMPACT_LIMIT = 300;
/** Members named in a group's entry, the largest first. */
const GROUP_EXAMPLES = 3;

export interface MapDomain {
  name: string;
  toolCount: number;
  /** Left out when the answer lists more than MAP_LIMIT entries. */
  description?: string;
}

export interface MapGroup {
  /** Pass this as list_domains' `prefix` to list the group's domains. */
  prefix: string;
  domainCount: number;
  toolCount: number;
  /** The group's largest domains (by tool count), at most GROUP_EXAMPLES; left out past MAP_LIMIT entries. */
  largest?: string[];
}

export interface DomainMap {
  domains: MapDomain[];
  /** Present only when the view had more than MAP_LIMIT domains. */
  groups?: MapGroup[];
  /** Domains in no entry of this answer: even the groups were more than MAP_LIMIT, and the smallest were left out. */
  omittedDomains?: number;
}

/** A domain name's words and the separators between them: `github.code-scanning` -> github . code - scanning (`_` too). */
const SEPARATOR = /[._-]/;

/**
 * How the names are read. `catalogs`: several catalogs are served, so every name is `<catalog>.<domain>` and the
 * catalog's name is one word whatever its hyphens (`twilio-chat.messages` -> twilio-chat . messages): groups are of
 * domains within one catalog, and catalogs are their own level above them. A catalog's name never holds a `.`
 * (import's --name is [a-z0-9_-]+), so it is what comes before the first `.`; a name without one is a catalog's.
 */
export interface NameWords {
  catalogs?: boolean;
}

/** Where a name's word separators start: past its catalog's name when names are `<catalog>.<domain>`. */
function wordsFrom(name: string, words: NameWords): number {
  if (words.catalogs !== true) return 0;
  const dot = name.indexOf('.');
  return dot < 0 ? name.length : dot;
}

/** The first `count` words of a name, with their separators (`github.code` for count 2). */
function head(name: string, count: number, words: NameWords = {}): string {
  let seen = 0;
  for (let i = wordsFrom(name, words); i < name.length; i++) {
    if (SEPARATOR.test(name[i] as string) && ++seen === count) return name.slice(0, i);
  }
  return name;
}

/** How many words a name has. */
const wordCount = (name: string, words: NameWords = {}): number => name.slice(wordsFrom(name, words)).split(SEPARATOR).length;

/** Whether `name` is the prefix itself or lies under it (`admin` holds `admin-edge`, not `administrativeunits`). */
export function underPrefix(name: string, prefix: string): boolean {
  return name === prefix || (name.startsWith(prefix) && SEPARATOR.test(name[prefix.length] ?? ''));
}

/**
 * Every prefix list_domains can offer for these domains (any run of leading words that two or more of them are
 * under, see underPrefix): where "did you mean" looks when a `prefix` matches nothing.
 */
export function groupPrefixes(names: readonly string[], words: NameWords = {}): string[] {
  const count = new Map<string, number>();
  for (const name of names) {
    const n = wordCount(name, words);
    for (let k = 1; k <= n; k++) {
      const p = head(name, k, words);
      count.set(p, (count.get(p) ?? 0) + 1);
    }
  }
  return [...count].filter(([, n]) => n >= 2).map(([p]) => p).sort();
}

/**
 * The map of `domains` (name order) below `prefix` (undefined: all). Up to MAP_LIMIT: every domain. Otherwise the
 * domains are folded by their first words, one word past the prefix, going deeper while everything shares one group
 * (a single catalog's `<catalog>.` prefix); a group of one is listed as its domain. With `words.catalogs` the first
 * word is the catalog's whole name: the top level is one group per catalog, never a part of a catalog's name.
 */
export function domainMap(domains: readonly MapDomain[], prefix?: string, words: NameWords = {}): DomainMap {
  if (domains.length <= MAP_LIMIT) return { domains: [...domains] };
  // a prefix that is no more than a catalog's name (or words of one: "twilio" holds twilio-chat and twilio-video)
  // folds from the catalogs down; the loop below looks through a level that is one group
  const atCatalogs = prefix === undefined || (words.catalogs === true && !prefix.includes('.'));
  let depth = atCatalogs ? 1 : wordCount(prefix, words) + 1;
  const deepest = Math.max(...domains.map((d) => wordCount(d.name, words)));
  let folded = fold(domains, depth, words);
  while (folded.size === 1 && depth < deepest) folded = fold(domains, ++depth, words);
  const listed: MapDomain[] = [];
  const groups: MapGroup[] = [];
  for (const [key, members] of folded) {
    if (members.length === 1) {
      listed.push(members[0] as MapDomain);
      continue;
    }
    groups.push({ prefix: key, domainCount: members.length, toolCount: members.reduce((n, d) => n + d.toolCount, 0), largest: largestDomains(members) });
  }
  if (listed.length + groups.length <= MAP_LIMIT) return { domains: listed, groups };
  // The names do not fold far enough (151 `devicemanagement-<word>` domains): every entry, domains without their
  // descriptions and groups without their largest members (a name and counts are a fraction of the tokens), while
  // that stays bounded.
  const compact = listed.map(({ name, toolCount }) => ({ name, toolCount }));
  const bare = groups.map(({ prefix, domainCount, toolCount }) => ({ prefix, domainCount, toolCount }));
  if (compact.length + bare.length <= COMPACT_LIMIT) return { domains: compact, groups: bare };
  // Still too many (thousands of catalogs): the largest entries stay, in name order; the rest are counted.
  const size = (e: MapDomain | MapGroup): number => e.toolCount;
  const label = (e: MapDomain | MapGroup): string => ('prefix' in e ? e.prefix : e.name);
  const kept = new Set([...compact, ...bare].sort((a, b) => size(b) - size(a) || (label(a) < label(b) ? -1 : 1)).slice(0, MAP_LIMIT));
  const omitted = [...compact, ...bare].filter((e) => !kept.has(e)).reduce((n, e) => n + ('prefix' in e ? e.domainCount : 1), 0);
  return { domains: compact.filter((d) => kept.has(d)), groups: bare.filter((g) => kept.has(g)), omittedDomains: omitted };
}

/** The names of a group's largest domains (most tools first, then by name), at most GROUP_EXAMPLES. */
export function largestDomains(members: ReadonlyArray<{ name: string; toolCount: number }>): string[] {
  return [...members]
    .sort((a, b) => b.toolCount - a.toolCount || (a.name < b.name ? -1 : 1))
    .slice(0, GROUP_EXAMPLES)
    .map((d) => d.name);
}

/** Domains by the first `depth` words of their names, in name order. */
function fold(domains: readonly MapDomain[], depth: number, words: NameWords): Map<string, MapDomain[]> {
  const out = new Map<string, MapDomain[]>();
  for (const d of domains) {
    const key = head(d.name, depth, words);
    const list = out.get(key);
    if (list) list.push(d);
    else out.set(key, [d]);
  }
  return out;
}
