// A catalog's scopes, derived from its own paths (index time), and the words of a query that name them. A scope is
// a root resource under which the catalog repeats the operations of another root: the same method on the same
// nested path (`/repos/{o}/{r}/hooks`, `/orgs/{org}/hooks`, `/enterprises/{e}/hooks`), so a scope word in the
// request separates near-duplicates. The caller's own scope (`me`) is `/me/...`-style paths, summaries about the
// authenticated user, and a singular root beside a plural one that takes a parameter (`/user/repos` beside
// `/users/{username}/repos`). No API's names: every scope is read off the catalog. No I/O.
import type { Operation } from '../types.js';
import type { Lexicon } from './lexicon.js';
import { splitWords, stripPlural } from './text.js';
import { CALLER_SEGMENTS, CALLER_SUMMARY, CALLER_WORDS, isAction } from './words.js';

/** The caller's scope: always code 1. */
export const CALLER = 'me';

/**
 * How many nested paths (method and literal segments after the root's parameters) a root must share with another
 * root to be a scope: fewer are a sub-resource many resources have (`.../history`, `.../attachments`), not a
 * scope. Chosen on the tuning sets (docs/SEARCH.md, "Scopes read off the catalog").
 */
export const SCOPE_SHARED_PATHS = 5;

/**
 * A catalog's scopes: code k is `names[k - 1]` (0: no scope); code 1 is the caller's. An operation is in the first
 * scope its path names; it is narrow (lowered unless the query names its scope) when a scope with more operations
 * repeats it (its twin): without a scope word, the widest twin comes first.
 */
export interface ScopeTable {
  /** Display names: the root segment as the catalog spells it most (`repos`, `orgs`), `me` first. */
  names: string[];
  /** The analyzed terms of each scope's root (what a query word must analyze to), '' for the caller. */
  keys: string[];
}

/** A path's segments without version segments (`v2`, `v1beta1`). */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0 && !/^v\d+(?:\.\d+)*(?:(?:alpha|beta)\d*)?$/i.test(s));
}

const isParam = (s: string): boolean => s.includes('{');

/** Where a caller's segment is among a path's first two (`/me/...`, `/users/self/...`; not before a parameter: `/account/{id}`), else -1. */
function callerSegmentAt(segments: readonly string[]): number {
  return segments.slice(0, 2).findIndex((x, k) => CALLER_SEGMENTS.has(x.toLowerCase()) && !isParam(segments[k + 1] ?? ''));
}

/** Whether an operation acts on the caller: `/me/...`, `/users/self/...` or a summary about the authenticated user. */
function callerByWords(op: Operation, segments: readonly string[]): boolean {
  if (callerSegmentAt(segments) >= 0) return true;
  const summary = ` ${splitWords(op.summary).join(' ')} `;
  return CALLER_SUMMARY.some((phrase) => summary.includes(` ${phrase} `));
}

/** The root's nested path as a key: the method and the literal segments after the root and its parameters. */
function tailAfter(method: string, segments: readonly string[], from: number, key: (segment: string) => string): string | undefined {
  let at = from + 1;
  while (at < segments.length && isParam(segments[at] as string)) at++;
  if (at >= segments.length) return undefined;
  return `${method} ${segments.slice(at).filter((x) => !isParam(x)).map((x) => key(x.toLowerCase())).join('/')}`;
}

/** The nested paths the caller's own operations have (`/user/repos`, `/me/videos`): a pseudo-scope that is never narrow. */
const CALLER_KEY = '\u0000caller';

/** The scopes of a catalog (operations in document order), each operation's scope code and whether it is narrow. */
export function deriveScopes(
  ops: readonly Operation[], lex: Lexicon, shared = SCOPE_SHARED_PATHS,
): { table: ScopeTable; codes: Uint8Array; narrow: Uint8Array } {
  const keyOf = new Map<string, string>();
  const key = (segment: string): string => {
    let k = keyOf.get(segment);
    if (k === undefined) keyOf.set(segment, (k = lex.terms(segment).join(' ')));
    return k;
  };
  const segs = ops.map((op) => segmentsOf(op.path));
  // raw roots a parameter follows (`users` in /users/{username}), and each root key's spellings
  const takesParam = new Set<string>();
  const spellings = new Map<string, Map<string, number>>();
  segs.forEach((s) => {
    const root = s[0]?.toLowerCase();
    if (root === undefined || isParam(root)) return;
    if (isParam(s[1] ?? '')) takesParam.add(root);
    const spelt = spellings.get(key(root)) ?? new Map<string, number>();
    spelt.set(root, (spelt.get(root) ?? 0) + 1);
    spellings.set(key(root), spelt);
  });
  // the caller's operations: by their words (`/me/...`, "the authenticated user"), or under a singular root that takes
  // no parameter beside its plural that does (`/user/repos` beside `/users/{username}/repos`)
  const callerAt = segs.map((s, i): number => {
    const marked = callerSegmentAt(s);
    if (marked >= 0) return marked;
    const root = s[0]?.toLowerCase();
    const singular = root !== undefined && !isParam(root) && !isParam(s[1] ?? '') &&
      [...(spellings.get(key(root))?.keys() ?? [])].some((other) => other !== root && stripPlural(other) === root && takesParam.has(other));
    if (singular) return 0;
    return callerByWords(ops[i] as Operation, s) ? 0 : -1;
  });
  // per root key (the caller's apart): its nested paths and how many operations it has
  const tails = new Map<string, Set<string>>();
  const count = new Map<string, number>();
  const tailOf: Array<string | undefined> = [];
  const items = new Map<string, Set<string>>();
  ops.forEach((op, i) => {
    const s = segs[i] as string[];
    const caller = (callerAt[i] as number) >= 0;
    const root = s[caller ? (callerAt[i] as number) : 0];
    if (root === undefined || isParam(root)) return;
    const k = caller ? CALLER_KEY : key(root.toLowerCase());
    if (k === '') return;
    count.set(k, (count.get(k) ?? 0) + 1);
    const tail = tailAfter(op.method, s, caller ? (callerAt[i] as number) : 0, key);
    tailOf[i] = tail;
    if (tail !== undefined) tails.set(k, (tails.get(k) ?? new Set<string>()).add(tail));
    // an owned collection's items: the nested path goes on to an item (`/orgs/{org}/hooks/{hook_id}`)
    if (tail !== undefined && isParam(s[s.length - 1] as string)) items.set(k, (items.get(k) ?? new Set<string>()).add(tail));
  });
  // a scope repeats at least `shared` nested paths of another root (or of the caller's)
  const scopeKeys = [...tails.keys()].filter((a) => {
    // a scope is a resource, never an action (`/search/repositories` is a search, not a scope of repositories)
    if (a === CALLER_KEY || [...(spellings.get(a)?.keys() ?? [])].some(isAction)) return false;
    const mine = tails.get(a) as Set<string>;
    const myItems = items.get(a);
    for (const [b, theirs] of tails) {
      if (a === b) continue;
      // a scope owns things as the other root does: a collection of items (`/orgs/{org}/hooks/{hook_id}` beside
      // `/repos/{o}/{r}/hooks/{hook_id}`) or something to change (`PATCH .../settings`); read-only facets two kinds
      // of item have alike (`GET /movie/{id}/images`, `GET /tv/{id}/images`) make neither a scope
      const theirItems = items.get(b);
      let owns = myItems !== undefined && theirItems !== undefined && [...myItems].some((t) => theirItems.has(t));
      let n = 0;
      for (const t of mine) {
        if (!theirs.has(t)) continue;
        n++;
        if (!t.startsWith('get ')) owns = true;
        if (n >= shared && owns) return true;
      }
    }
    return false;
  }).sort();
  const spelling = (k: string): string => [...(spellings.get(k)?.entries() ?? [])].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? k;
  const table: ScopeTable = { names: [CALLER, ...scopeKeys.map(spelling)], keys: ['', ...scopeKeys] };
  const code = new Map(scopeKeys.map((k, n) => [k, n + 2]));
  // per nested path, the scopes (and the caller) that have it
  const holders = new Map<string, string[]>();
  for (const k of [CALLER_KEY, ...scopeKeys]) for (const t of tails.get(k) ?? []) holders.set(t, [...(holders.get(t) ?? []), k]);
  const wider = (k: string, than: string): boolean => k === CALLER_KEY || (count.get(k) ?? 0) > (count.get(than) ?? 0);
  const codes = new Uint8Array(ops.length);
  const narrow = new Uint8Array(ops.length);
  ops.forEach((_, i) => {
    if ((callerAt[i] as number) >= 0) {
      codes[i] = 1;
      return;
    }
    // the first literal segment that is a scope (`/search/users` is in `users`); narrow when a wider scope, or the
    // caller, has the same nested path under it
    const s = segs[i] as string[];
    for (const seg of s) {
      if (isParam(seg)) continue;
      const k = key(seg.toLowerCase());
      const c = code.get(k);
      if (c === undefined) continue;
      codes[i] = c;
      const tail = tailOf[i];
      const twins = tail === undefined || k !== key((s[0] as string).toLowerCase()) ? undefined : holders.get(tail);
      if (twins?.some((t) => t !== k && wider(t, k)) === true) narrow[i] = 1;
      return;
    }
  });
  return { table, codes, narrow };
}

/** The scope a query word names (its display name), or undefined: a caller's word names `me`. */
export function scopeNamedBy(table: ScopeTable, lex: Lexicon, word: string): string | undefined {
  if (CALLER_WORDS.has(word)) return CALLER;
  const k = lex.analyze(word).join(' ');
  if (k === '') return undefined;
  const at = table.keys.indexOf(k);
  return at > 0 ? table.names[at] : undefined;
}

/** A table with only the caller's scope (an index that derived none, or a query read without a catalog). */
export const CALLER_ONLY: ScopeTable = { names: [CALLER], keys: [''] };
