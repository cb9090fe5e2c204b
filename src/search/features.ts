// Stage 1b, index-time analysis of each operation's shape: HTTP method, REST path shape, scope, primary resource,
// title and name terms, flags — precomputed once as flat typed arrays the re-ranking signals read per match.
// Pure functions of the operations and the lexicon; prints nothing.
import type { HttpMethod, Operation } from '../types.js';
import type { Lexicon } from './lexicon.js';
import { isPlural, splitWords, stripPlural } from './text.js';
import { buildTitleTable } from './titles.js';
import { deriveScopes, type ScopeTable } from './scopes.js';
import { ADMIN_SEGMENTS, ADMIN_SUMMARY, BULK_OPERATION_WORDS, FORMAT_SUFFIXES, isAction, PREPOSITIONS, SEARCH_SEGMENTS, TUNNEL_QUALIFIERS, VERB_FAMILY_WORDS, VERB_METHODS } from './words.js';

export { isAction, VERB_FAMILY_WORDS } from './words.js';

export const METHOD_CODES: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export const SHAPE_ITEM = 1;
export const SHAPE_COLLECTION = 2;
export const FLAG_SPANS_ALL = 1;
export const FLAG_DEPRECATED = 2;
/** The operation has a twin in a wider scope (scopes.ts): lowered unless the query names its scope. */
export const FLAG_NARROW_SCOPE = 4;
/** On the administrator's side: under an admin root (`/admin/users/{u}/keys`) or "on behalf of" someone. */
export const FLAG_ADMIN = 8;
/** The variant for many at once: its name or summary says bulk, batch or multiple. */
export const FLAG_BULK = 16;

/**
 * What the re-ranking reads of each operation, precomputed at build as flat typed arrays indexed by document
 * number (struct of arrays): a query that matches 70k of 100k operations reads dense arrays instead of chasing
 * one object per operation. Term lists are CSR: document i's terms are `ids[start[i]] .. ids[start[i + 1] - 1]`.
 */
export interface Features {
  /** Distinct terms of name + operationId + summary, as term ids (tells a title match from a description match). */
  titleStart: Uint32Array;
  titleIds: Uint32Array;
  /** Distinct terms of the name and operationId alone: the cleanest statement of what the operation does. */
  nameStart: Uint32Array;
  nameIds: Uint32Array;
  /** Terms of the primary resource: the last plain path segment (with the resource before a one-word action). */
  primaryStart: Uint32Array;
  primaryIds: Uint32Array;
  /** 1 + the term id of the primary resource's head noun (`nodes` in `/nodebalancers/{id}/configs/{c}/nodes`); 0 none. */
  head: Uint32Array;
  /** Index into METHOD_CODES: the method it acts with (effectiveMethod: a POST to `/x/delete` deletes). */
  method: Uint8Array;
  /** 0 other, SHAPE_ITEM (path ends in a parameter), SHAPE_COLLECTION (a plain segment after one or at the root). */
  shape: Uint8Array;
  /** The operation's scope code in the catalog's scope table (scopes.ts), 0 when it has no scope. */
  scope: Uint8Array;
  /** FLAG_SPANS_ALL: the name or summary says all/every (`listPodForAllNamespaces`); FLAG_DEPRECATED. */
  flags: Uint8Array;
  /** Index into the index's domain names (`domainList`). */
  domain: Uint32Array;
  /**
   * 1 + the term id of the operation's action word: its path's trailing action when a verb (`/accounts/{id}/unsuspend`),
   * else its summary's first word ("Reject a follow request", "Download DICOM" for `/instances/{id}/file`); 0 none. The opposite-action signal reads it.
   */
  action: Uint32Array;
  /** The exact-title table (titles.ts): each summary's title-key hash, ascending, and its document. */
  titleKeyHash: Uint32Array;
  titleKeyDoc: Uint32Array;
}

/** Features plus the tables built with them: term ids of title/name terms, domains in code order. */
export interface FeatureTables {
  features: Features;
  /** Title and name terms of all operations, numbered. */
  termIds: Map<string, number>;
  /** Domain names in code order (`features.domain[i]` indexes it). */
  domainList: string[];
  /** The catalog's scopes (`features.scope[i]` indexes them), derived from its paths. */
  scopes: ScopeTable;
}

export function shapeOf(path: string): 'item' | 'collection' | 'other' {
  const segs = withoutVersionPrefix(path.split('/').filter((s) => s.length > 0));
  const last = segs[segs.length - 1] ?? '';
  if (last.startsWith('{')) return 'item';
  // a plain segment right after the root or after a parameter names a collection (`/repos/{o}/{r}/issues`);
  // two plain segments in a row are usually an action (`/invoices/{id}/pay` is `other` only when short)
  if (segs.length > 1) {
    // `/transfers/{id}/approve`, `/pods/{name}/log`: a singular last word after a parameter is an action or a
    // property of one item, not a collection (collections are plural: `/repos/{o}/{r}/issues`)
    const words = splitWords(last);
    const tail = words[words.length - 1] ?? '';
    if ((segs[segs.length - 2] ?? '').startsWith('{') && !isPlural(tail)) return 'other';
  }
  return segs.length <= 2 || (segs[segs.length - 2] ?? '').startsWith('{') ? 'collection' : 'other';
}

/**
 * A path's segments after its version prefix (`/api/v1/blocks` -> blocks, `/rest/api/3/project` -> project): the
 * segments up to a version among the first three say which API, not which resource.
 */
function withoutVersionPrefix(segs: string[]): string[] {
  for (let i = 0; i < Math.min(3, segs.length - 1); i++) if (isVersionSegment(segs[i] as string) || /^\d+(?:\.\d+)*$/.test(segs[i] as string)) return segs.slice(i + 1);
  return segs;
}

/** A path segment that names an API version (`v2`, `v2.1`, `v1beta1`), not a resource. */
export function isVersionSegment(segment: string): boolean {
  return /^v\d+(?:\.\d+)*(?:(?:alpha|beta)\d*)?$/i.test(segment);
}

/** A response-format extension at the end of a path segment (words/head-noun.json). */
const FORMAT_SUFFIX = new RegExp(`\\.(?:${FORMAT_SUFFIXES.join('|')})$`, 'i');

/**
 * The resource an operation acts on, read from its path: the last plain segment (`/customers/{id}/groups/{g}`
 * -> groups, `/projects/{id}/merge_requests` -> merge requests), without a format suffix (`/badges.json`). A
 * one-word action after it (`/pipelines/{id}/retry`, `/customers/search`) acts on the segment before, so both
 * are primary.
 */
export function primaryResource(path: string): string {
  const segs = path.split('/').filter((s) => s.length > 0);
  const isParam = (s: string): boolean => s.includes('{');
  const k = lastPlain(segs);
  if (k < 0) return '';
  // a format suffix (`/admin/badges.json`, `/Calls.json`) is not part of the resource's name
  const last = (segs[k] as string).replace(FORMAT_SUFFIX, '');
  if (actionOf(segs, k) === undefined) return last;
  let j = k - 1;
  while (j >= 0 && (isParam(segs[j] as string) || isVersionSegment(segs[j] as string))) j--;
  return j >= 0 ? `${segs[j] as string} ${last}` : last;
}

/** The one-word action that ends a path (`/pipelines/{id}/retry`, `/customers/search`), if it ends in one. */
export function trailingAction(path: string): string | undefined {
  const segs = path.split('/').filter((s) => s.length > 0);
  const k = lastPlain(segs);
  return k < 0 ? undefined : actionOf(segs, k);
}

/**
 * The method an operation acts with: its HTTP method, except a POST whose path ends in a verb that never POSTs
 * (`POST /orgs/{id}/secrets/delete`, `POST /coupons/deleteByCodes`, `POST /customers/search`): it tunnels that
 * verb's method (DELETE, GET) through POST.
 */
export function effectiveMethod(op: Pick<Operation, 'method' | 'path'>): HttpMethod {
  if (op.method !== 'post') return op.method;
  const segs = op.path.split('/').filter((s) => s.length > 0);
  const k = lastPlain(segs);
  if (k < 0) return op.method;
  const words = splitWords((segs[k] as string).replace(FORMAT_SUFFIX, ''));
  // a one-word action, or a verb and its qualifier (`deleteByCodes`; not `removeMembers`, which unlinks members)
  const verb = words.length === 1 ? actionOf(segs, k) : TUNNEL_QUALIFIERS.has(words[1] as string) ? words[0] : undefined;
  const tunneled = verb === undefined ? undefined : VERB_METHODS[verb];
  if (tunneled !== undefined && !tunneled.includes('post')) return tunneled[0] as HttpMethod;
  // a search with a body: a whole segment says search and no collection follows it (`POST /User/Search/GlobalName/{page}`;
  // not `POST /tweets/search/stream/rules`, which adds a rule)
  const at = segs.findIndex((s) => SEARCH_SEGMENTS.has(s.toLowerCase()));
  return at >= 0 && !segs.slice(at + 1).some((s) => !s.includes('{') && isPlural(s.replace(FORMAT_SUFFIX, ''))) ? 'get' : op.method;
}

/** The index of a path's last segment that is no parameter, -1 when all are. */
function lastPlain(segs: readonly string[]): number {
  let k = segs.length - 1;
  while (k >= 0 && (segs[k] as string).includes('{')) k--;
  return k;
}

/**
 * Segment k as a one-word action: a verb the lists know, or a singular word right after a parameter
 * (`/transfers/{id}/approve`); undefined for a resource.
 */
function actionOf(segs: readonly string[], k: number): string | undefined {
  const words = splitWords((segs[k] as string).replace(FORMAT_SUFFIX, ''));
  const one = words.length === 1 ? (words[0] as string) : undefined;
  if (one === undefined) return undefined;
  const afterParam = k > 0 && (segs[k - 1] as string).includes('{');
  return VERB_FAMILY_WORDS.has(one) || VERB_METHODS[one] !== undefined || (afterParam && !isPlural(one)) ? one : undefined;
}

/**
 * The head noun of an operation's resource: the last word of its primary resource, or the word before a trailing
 * action (`/invoices/{id}/pay` -> invoices), or a plural before a preposition (`/listPadsOfAuthor` -> pads).
 * `/nodebalancers/{id}/configs/{c}/nodes` -> nodes.
 */
export function resourceHead(path: string): string | undefined {
  const words = splitWords(primaryResource(path));
  // a plural before a preposition heads the name, as it heads a request ("list pads of author"): `/listPadsOfAuthor`
  // is about pads, `/GetRewardsForUser/{id}` about rewards, `/roles-by-id/{id}` about roles
  const p = words.findIndex((w, i) => i > 0 && PREPOSITIONS.has(w));
  if (p > 0 && isPlural(words[p - 1] as string) && !isAction(words[p - 1] as string)) return words[p - 1];
  let k = words.length - 1;
  if (k > 0 && isAction(words[k] as string)) k--;
  return words[k];
}

/**
 * The last part of an identifier compound whose parts are words of the catalog's prose (`creditmemos` -> memos,
 * `billingplans` -> plans), else the word: English puts a compound's head last.
 */
export function compoundHead(word: string, lexicon: Lexicon): string {
  if (word.length < 7 || /\d/.test(word)) return word;
  for (let k = 3; k <= word.length - 3; k++) {
    const right = word.slice(k);
    if (lexicon.prose.has(word.slice(0, k)) && (lexicon.prose.has(right) || lexicon.prose.has(stripPlural(right)))) return right;
  }
  return word;
}

/**
 * The index terms that are some operation's resource head: a request whose head noun is none of them asks for a
 * datum, which the operations that return it as a field give (the returns-head signal).
 */
export function resourceHeadTerms(tables: Pick<FeatureTables, 'features' | 'termIds'>): Set<string> {
  const byId = [...tables.termIds.keys()];
  const out = new Set<string>();
  for (const h of tables.features.head) if (h !== 0) out.add(byId[h - 1] as string);
  return out;
}

/**
 * An operation of the administrator's side: the first word of its path's first segment (after a version) is an
 * admin root (`/admin/users/{u}/keys`, Slack-style `/admin.users.list`), or its summary acts on behalf of someone.
 */
export function isAdminSide(op: Pick<Operation, 'path' | 'summary'>): boolean {
  const first = op.path.split('/').find((s) => s.length > 0 && !isVersionSegment(s));
  if (first !== undefined && ADMIN_SEGMENTS.has(splitWords(first)[0] ?? '')) return true;
  const summary = (op.summary ?? '').toLowerCase();
  return ADMIN_SUMMARY.some((p) => summary.includes(p));
}

export function pathKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.toLowerCase().replace(/\{[^}]*\}/g, '{}')}`;
}

/** Per-document features and the term ids, in one pass over the operations (name order). */
export function computeFeatures(ops: readonly Operation[], lexicon: Lexicon): FeatureTables {
  const n = ops.length;
  const termIds = new Map<string, number>();
  const domainCodes = new Map<string, number>();
  const termId = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) termIds.set(term, (id = termIds.size));
    return id;
  };
  const titles: number[] = [];
  const names: number[] = [];
  const primaries: number[] = [];
  const f: Features = {
    titleStart: new Uint32Array(n + 1), titleIds: new Uint32Array(0), nameStart: new Uint32Array(n + 1),
    nameIds: new Uint32Array(0), primaryStart: new Uint32Array(n + 1), primaryIds: new Uint32Array(0), head: new Uint32Array(n),
    method: new Uint8Array(n), shape: new Uint8Array(n), scope: new Uint8Array(n), flags: new Uint8Array(n),
    domain: new Uint32Array(n), action: new Uint32Array(n), titleKeyHash: new Uint32Array(0), titleKeyDoc: new Uint32Array(0),
  };
  for (let i = 0; i < n; i++) {
    const op = ops[i] as Operation;
    for (const t of new Set(lexicon.terms(`${op.name} ${op.operationId} ${op.summary}`))) titles.push(termId(t));
    for (const t of new Set(lexicon.terms(`${op.name} ${op.operationId}`))) names.push(termId(t));
    f.titleStart[i + 1] = titles.length;
    f.nameStart[i + 1] = names.length;
    for (const t of new Set(lexicon.terms(primaryResource(op.path)))) primaries.push(termId(t));
    f.primaryStart[i + 1] = primaries.length;
    const head = resourceHead(op.path);
    // an identifier compound's head is its last part (`creditmemos` -> memo), as the query's words are split
    const headTerm = head === undefined ? undefined : lexicon.analyze(compoundHead(head, lexicon))[0];
    f.head[i] = headTerm === undefined ? 0 : termId(headTerm) + 1;
    f.method[i] = Math.max(0, METHOD_CODES.indexOf(effectiveMethod(op)));
    // the path's trailing action when it is a verb (`/unsuspend`), else the summary's first word: `/instances/{id}/file`
    // ends in a part of one item, and its summary says what it does ("Download DICOM")
    const trailing = trailingAction(op.path);
    const actionWord = trailing !== undefined && isAction(trailing) ? trailing : splitWords(op.summary)[0];
    const actionTerm = lexicon.analyze(actionWord ?? '')[0];
    f.action[i] = actionTerm === undefined ? 0 : termId(actionTerm) + 1;
    const shape = shapeOf(op.path);
    f.shape[i] = shape === 'item' ? SHAPE_ITEM : shape === 'collection' ? SHAPE_COLLECTION : 0;
    const titleWords = splitWords(`${op.name} ${op.operationId} ${op.summary}`);
    const spansAll = titleWords.some((w) => w === 'all' || w === 'every');
    const bulk = titleWords.some((w) => BULK_OPERATION_WORDS.has(w));
    f.flags[i] = (spansAll ? FLAG_SPANS_ALL : 0) | (op.deprecated ? FLAG_DEPRECATED : 0) | (isAdminSide(op) ? FLAG_ADMIN : 0) | (bulk ? FLAG_BULK : 0);
    let d = domainCodes.get(op.domain);
    if (d === undefined) domainCodes.set(op.domain, (d = domainCodes.size));
    f.domain[i] = d;
  }
  const scopes = deriveScopes(ops, lexicon);
  f.scope = scopes.codes;
  for (let i = 0; i < n; i++) if (scopes.narrow[i] === 1) f.flags[i] = (f.flags[i] as number) | FLAG_NARROW_SCOPE;
  f.titleIds = Uint32Array.from(titles);
  f.nameIds = Uint32Array.from(names);
  f.primaryIds = Uint32Array.from(primaries);
  Object.assign(f, buildTitleTable(ops.map((op) => op.summary), lexicon));
  return { features: f, termIds, domainList: [...domainCodes.keys()], scopes: scopes.table };
}
