// Turns an upstream response into what an agent can use: selected headers, the data decode.ts read from the body,
// an optional projection (dotted fields or JMESPath), a structure-keeping cut to a token budget, pagination hints,
// and actionable UPSTREAM_ERROR outcomes.
import jmespath from 'jmespath';
import { AppError } from '../errors.js';
import type { Operation } from '../types.js';
import type { PaginationHint, TruncationInfo } from './types.js';

/**
 * The headers worth showing an agent, by kind rather than by vendor (a header is kept when any pattern matches its
 * lower-cased name): what the body is, where the next page or the new resource is, rate limits and retry hints,
 * request ids to quote to support, and idempotency. `x-github-request-id`, `stripe-should-retry` and
 * `x-ratelimit-remaining` are kept as instances of these kinds, like any other API's.
 */
const KEEP_HEADER_PATTERNS: readonly RegExp[] = [
  /^(content-type|content-length|etag|last-modified|location|link)$/, // the body and where things are
  /^(x-)?(total(-count|-pages|-results)?|(next|prev|previous|last)-(page|cursor|link|token)|page(-count|-size)?|per-page|has-more|cursor)$/, // pagination
  /(^|-)rate-?limit/, // x-ratelimit-*, ratelimit-*, x-rate-limit-*
  /(^|-)retry-after$|(^|-)should-retry$/, // retry hints
  /(^|-)(request|correlation|trace)-id$/, // ids to quote to support
  /(^|-)idempotency-key$|(^|-)idempotent-replayed$/, // idempotency
];

/** The headers worth showing an agent: content type, paging, rate limits, retry hints, request ids, idempotency. */
export function selectHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const n = name.toLowerCase();
    if (KEEP_HEADER_PATTERNS.some((p) => p.test(n))) out[n] = value;
  });
  return out;
}

function pick(v: unknown, paths: string[][]): unknown {
  if (Array.isArray(v)) return v.map((item) => pick(item, paths));
  if (v === null || typeof v !== 'object') return v;
  const out = Object.create(null) as Record<string, unknown>;
  const o = v as Record<string, unknown>;
  // Group by head so that `items.name` on an object holding an array maps over the array.
  const heads = new Map<string, string[][]>();
  for (const p of paths) {
    const [h, ...rest] = p;
    if (h === undefined || !Object.prototype.hasOwnProperty.call(o, h)) continue;
    const list = heads.get(h) ?? [];
    list.push(rest);
    heads.set(h, list);
  }
  for (const [h, rests] of heads) out[h] = rests.some((r) => r.length === 0) ? o[h] : pick(o[h], rests);
  return Object.setPrototypeOf(out, Object.prototype) as unknown;
}

/** The library's parser, which its type declarations leave out (jmespath 0.16 exports compile beside search). */
const compileJmesPath = (jmespath as unknown as { compile(expression: string): unknown }).compile;

function invalidFields(fields: string, err: unknown): AppError {
  return new AppError('INVALID_ARGUMENTS', `fields: ${JSON.stringify(fields)} is not a valid JMESPath expression (${err instanceof Error ? err.message : String(err)}); use e.g. "items[].{id: id, name: name}" or a list of dotted paths`, {
    details: { errors: [{ path: '/fields', message: 'invalid JMESPath expression', expected: 'a list of dotted paths or one JMESPath expression', suggestion: 'e.g. "items[].{id: id, name: name}"' }] },
  });
}

/**
 * A projection `checkFields` accepted (a JMESPath expression that parses, or dotted paths). Pass it as
 * `ExecuteOptions.fields` and executeOperation does not check it again: one check per call, made where the caller
 * refuses a bad projection first. Only `checkFields` makes one.
 */
export class CheckedFields {
  readonly fields: string[] | string;
  /** A JMESPath expression's syntax tree, as the check parsed it (projectionWarning reads its field names). */
  readonly tree: unknown;

  private constructor(fields: string[] | string, tree: unknown) {
    this.fields = fields;
    this.tree = tree;
  }

  /** @internal checkFields' constructor. */
  static accept(fields: string[] | string): CheckedFields {
    let tree: unknown;
    if (typeof fields === 'string') {
      try {
        tree = compileJmesPath(fields);
      } catch (err) {
        throw invalidFields(fields, err);
      }
    }
    return new CheckedFields(fields, tree);
  }
}

/**
 * Throws INVALID_ARGUMENTS when `fields` is a JMESPath expression that does not parse: checked before the request
 * is sent, so a bad projection never costs a call (a POST answered, then reported as invalid, would be retried).
 * Returns the checked projection, which executeOperation takes without checking it again.
 */
export function checkFields(fields: string[] | string): CheckedFields {
  return CheckedFields.accept(fields);
}

/**
 * Projection: a list of dotted paths (`id`, `user.login`, `items.name`) or a JMESPath expression. (jmespath's search
 * parses the expression once more: the library exports no evaluator for a compiled one.)
 */
export function project(data: unknown, projection: CheckedFields): unknown {
  const { fields } = projection;
  if (typeof fields === 'string') {
    try {
      return jmespath.search(data as never, fields) as unknown;
    } catch (err) {
      throw invalidFields(fields, err);
    }
  }
  if (fields.length === 0) return data;
  return pick(data, fields.map((f) => f.split('.').filter((p) => p !== '')));
}

/**
 * Upstream key names a warning may quote: short identifier-like names only. A key is upstream text, and the
 * warning is server-authored, so a key that reads like a sentence (an injection attempt) is counted, not quoted.
 */
const QUOTABLE_KEY = /^[A-Za-z0-9_$@:.-]{1,40}$/;
/** Field names a warning lists before "… and N more". */
const KEYS_SHOWN = 12;

/** "a, b, c … and 4 more" from upstream key names (only quotable ones are named). */
function keyList(keys: readonly string[]): string {
  const quotable = keys.filter((k) => QUOTABLE_KEY.test(k));
  const shown = quotable.slice(0, KEYS_SHOWN);
  const more = keys.length - shown.length;
  return shown.length === 0 ? `${keys.length} field(s)` : `${shown.join(', ')}${more > 0 ? ` … and ${more} more` : ''}`;
}

/** The response's top-level fields as a warning names them: an object's keys, or those of a list's first items. */
function topLevelFields(data: unknown): string | undefined {
  if (Array.isArray(data)) {
    const keys = new Set<string>();
    for (const item of data.slice(0, 5)) if (item !== null && typeof item === 'object' && !Array.isArray(item)) for (const k of Object.keys(item)) keys.add(k);
    return keys.size > 0 ? `the response is a list of ${data.length} item(s) whose fields are: ${keyList([...keys])}` : undefined;
  }
  if (data !== null && typeof data === 'object') {
    const keys = Object.keys(data);
    return keys.length > 0 ? `the response's top-level fields are: ${keyList(keys)}` : 'the response is an empty object';
  }
  if (data === null) return undefined;
  return `the response is ${typeof data === 'string' ? 'text' : `a ${typeof data}`}, not an object, so it has no fields`;
}

/**
 * How far a dotted path goes into `v`, mapping over lists as `pick` does: `true` when it reaches its end
 * somewhere; `undefined` when there is nothing to look into (an empty list, null: the API's own emptiness, not a
 * wrong path); else where it stopped (`depth` segments matched) and the keys there (none: not an object).
 */
type Reach = true | undefined | { depth: number; keys?: string[] };
function reach(v: unknown, path: readonly string[], depth = 0): Reach {
  if (depth === path.length) return true;
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    let deepest: { depth: number; keys?: string[] } | undefined;
    for (const item of v) {
      const r = reach(item, path, depth);
      if (r === true) return true;
      if (r !== undefined && (deepest === undefined || r.depth > deepest.depth)) deepest = r;
    }
    return deepest;
  }
  if (typeof v !== 'object') return { depth };
  const o = v as Record<string, unknown>;
  const head = path[depth]!;
  if (!Object.prototype.hasOwnProperty.call(o, head)) return { depth, keys: Object.keys(o) };
  return reach(o[head], path, depth + 1);
}

/** Why a dotted path matched nothing, in a few words ("no "hostz" in headers, which has: host, accept"). */
function missReason(path: readonly string[], miss: { depth: number; keys?: string[] }): string {
  if (path.length === 0) return 'an empty path';
  const missing = JSON.stringify(path[miss.depth]);
  if (miss.depth === 0) return miss.keys === undefined ? 'the response has no fields' : `no ${missing} at the top level`;
  const parent = path.slice(0, miss.depth).join('.');
  if (miss.keys === undefined) return `${parent} is not an object`;
  return miss.keys.length === 0 ? `${parent} is empty` : `no ${missing} in ${parent}, which has: ${keyList(miss.keys)}`;
}

/** JMESPath's field names in an expression (`items[].{id: id, n: nme}` -> items, id, nme), from its syntax tree. */
function jmesFieldNames(node: unknown, out: Set<string>): Set<string> {
  if (node === null || typeof node !== 'object') return out;
  const n = node as { type?: unknown; name?: unknown; children?: unknown; value?: unknown };
  if (n.type === 'Field' && typeof n.name === 'string') out.add(n.name);
  if (Array.isArray(n.children)) for (const c of n.children) jmesFieldNames(c, out);
  if (n.type === 'KeyValuePair') jmesFieldNames(n.value, out);
  return out;
}

/** Every key anywhere in `data`, or undefined when it has more nodes than `limit` (then nothing is claimed). */
function allKeys(data: unknown, limit = 100_000): Set<string> | undefined {
  const keys = new Set<string>();
  const stack: unknown[] = [data];
  let seen = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (++seen > limit) return undefined;
    if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        keys.add(k);
        if (x !== null && typeof x === 'object') stack.push(x);
      }
    }
  }
  return keys;
}

const quote = (path: string): string => JSON.stringify(path.length > 80 ? `${path.slice(0, 79)}…` : path);

/**
 * A warning when a projection selected less than was asked for: dotted paths that matched nothing in this
 * response (all of them: `data` is then `{}`/`null`, which an agent would read as an empty answer from the API),
 * or JMESPath field names found nowhere in it, or a JMESPath result of null. Names the paths, why each missed,
 * and the fields the response does have. Undefined when every path matched, or when there was nothing to match
 * against (an empty list or null from the API is its own answer).
 */
export function projectionWarning(data: unknown, projection: CheckedFields, projected: unknown): string | undefined {
  const { fields } = projection;
  // null or an empty list from the API is its own answer, whatever the projection
  if (data === null || data === undefined || (Array.isArray(data) && data.length === 0)) return undefined;
  // what the response does have: read only when there is a warning to give (most projections match)
  const described = (): { top: string | undefined; tail: string } => {
    const top = topLevelFields(data);
    return { top, tail: `${top !== undefined ? `; ${top}` : ''}. The data shown is what the projection selected, not the whole answer: fix the paths (dotted, e.g. "items.name", or a JMESPath expression), or call again without "fields" to see the whole response` };
  };
  if (typeof fields === 'string') {
    const keys = allKeys(data);
    const absent = keys === undefined ? [] : [...jmesFieldNames(projection.tree, new Set())].filter((f) => !keys.has(f));
    if (absent.length > 0) {
      return `fields: ${absent.map(quote).join(', ')} ${absent.length === 1 ? 'is' : 'are'} not a field anywhere in this response, so the JMESPath expression ${quote(fields)} selected ${projected === null ? 'nothing (null)' : 'less than it names'}${described().tail}`;
    }
    if (projected === null) return `fields: the JMESPath expression ${quote(fields)} selected nothing (null) from this response${described().tail}`;
    return undefined;
  }
  if (fields.length === 0) return undefined;
  const misses: string[] = [];
  for (const f of fields) {
    const path = f.split('.').filter((p) => p !== '');
    const r = path.length === 0 ? { depth: 0 } : reach(data, path);
    if (r !== true && r !== undefined) misses.push(`${quote(f)} (${missReason(path, r)})`);
  }
  if (misses.length === 0) return undefined;
  const { top, tail } = described();
  // a text or number answer has no fields: dotted paths leave it as it is (see pick)
  if (typeof data !== 'object') return `fields: ${fields.map(quote).join(', ')} cannot select anything: ${top}; data is the whole response, unprojected`;
  if (misses.length < fields.length) return `fields: ${misses.length} of ${fields.length} paths matched nothing and are left out of data: ${misses.join('; ')}${tail}`;
  // what is left is empty objects only: shown when short (`{}`, `{"headers":{}}`), described when long
  const json = JSON.stringify(projected) ?? 'null';
  const empty = Array.isArray(projected) ? `a list of ${projected.length} empty item(s)` : json.length <= 60 ? json : 'empty objects only';
  return `fields: no path matched anything in this response, so data is ${empty}, which is not what the API answered: ${misses.join('; ')}${tail}`;
}

const PAGINATION_PARAMS = [
  'per_page', 'page', 'limit', 'starting_after', 'ending_before', 'cursor', 'after', 'before', 'page_size', 'pageSize',
  'page_token', 'pageToken', 'offset', 'max_results', 'maxResults', 'next_token', 'since', 'count', 'size',
];

/** The operation's pagination and filter parameters (for hints). */
export function narrowingParams(op: Operation): string[] {
  const query = op.bindings.filter((b) => b.in === 'query').map((b) => b.arg);
  const paging = PAGINATION_PARAMS.filter((p) => query.includes(p));
  const filters = query.filter((q) => !paging.includes(q) && /^(q|query|filter|search|state|status|type|sort|direction|created|updated|fields|expand)/i.test(q));
  return [...paging, ...filters.slice(0, 4)];
}

function sizeOf(v: unknown): number {
  return v === undefined ? 0 : (JSON.stringify(v)?.length ?? 0);
}

/** Largest top-level array field of an object (e.g. GitHub's `items`, Stripe's `data`). */
function mainList(data: Record<string, unknown>): string | undefined {
  let best: string | undefined;
  let bestSize = 0;
  for (const [k, v] of Object.entries(data)) {
    if (!Array.isArray(v)) continue;
    const s = sizeOf(v);
    if (s > bestSize) {
      best = k;
      bestSize = s;
    }
  }
  return best;
}

/** Generic structure-keeping shrink to about `budget` characters: lists keep whole leading items, strings are cut. */
function shrink(v: unknown, budget: number): unknown {
  if (Array.isArray(v)) {
    // One pass over the items, stopping at the budget (no full stringify of the list first).
    const out: unknown[] = [];
    let used = 2;
    for (const item of v) {
      const s = sizeOf(item) + 1;
      if (used + s > budget) {
        if (out.length === 0) out.push(shrink(item, budget - 2));
        return out;
      }
      out.push(item);
      used += s;
    }
    return v;
  }
  const size = sizeOf(v);
  if (size <= budget) return v;
  if (typeof v === 'string') return `${v.slice(0, Math.max(0, budget - 40))}… [cut: ${v.length} characters in total]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).map(([k, x]) => ({ k, x, s: sizeOf(x) + k.length + 4 }));
    let total = entries.reduce((a, e) => a + e.s, 2);
    entries.sort((a, b) => b.s - a.s);
    const out = new Map(Object.entries(v));
    for (const e of entries) {
      if (total <= budget) break;
      const room = Math.max(40, budget - (total - e.s));
      const smaller = shrink(e.x, room);
      const ns = sizeOf(smaller) + e.k.length + 4;
      total = total - e.s + ns;
      out.set(e.k, smaller);
    }
    const obj = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of out) obj[k] = x;
    return Object.setPrototypeOf(obj, Object.prototype) as unknown;
  }
  return v;
}

/** Cuts data to about tokenBudget·4 characters keeping structure; undefined when it already fits. */
export function truncate(data: unknown, tokenBudget: number, op: Operation, rawSize?: number): { data: unknown; info: TruncationInfo } | undefined {
  const budget = tokenBudget * 4;
  // The raw body length bounds the JSON size closely: skip the stringify when it clearly fits.
  if (rawSize !== undefined && rawSize <= budget * 0.9) return undefined;
  const size = sizeOf(data);
  if (size <= budget) return undefined;
  const params = narrowingParams(op);
  const how = params.length > 0 ? `narrow the request with ${params.join(', ')}` : 'narrow the request';
  // `fields` selects from parsed data only: text (a text answer, JSON too deep to parse) keeps it out of the hint
  const hint =
    typeof data === 'string'
      ? `Response cut to fit the token budget: ${how}.`
      : `Response cut to fit the token budget: ${how}, or ask only for what you need with \`fields\` (dotted paths or a JMESPath expression).`;
  if (Array.isArray(data)) {
    const kept = shrink(data, budget) as unknown[];
    return { data: kept, info: { totalItems: data.length, kept: kept.length, path: '', size, reason: 'tokenBudget', hint } };
  }
  if (data !== null && typeof data === 'object') {
    const key = mainList(data as Record<string, unknown>);
    if (key !== undefined) {
      const obj = data as Record<string, unknown>;
      const rest = size - sizeOf(obj[key]);
      if (rest < budget / 2) {
        const list = obj[key] as unknown[];
        const kept = shrink(list, budget - rest) as unknown[];
        return {
          data: { ...obj, [key]: kept },
          info: { totalItems: list.length, kept: kept.length, path: `/${key}`, size, reason: 'tokenBudget', hint },
        };
      }
    }
  }
  return { data: shrink(data, budget), info: { size, reason: 'tokenBudget', hint } };
}

/** Next-page hints from a Link header (rel="next") or cursor fields (has_more / next_cursor / next_page_token). */
export function paginationHint(op: Operation, headers: Headers, data: unknown, redact: (s: string) => string): PaginationHint | undefined {
  const queryArgs = new Map(op.bindings.filter((b) => b.in === 'query').map((b) => [b.name, b.arg]));
  const link = headers.get('link');
  if (link !== null) {
    const m = /<([^>]+)>\s*;[^,]*rel="?next"?/i.exec(link);
    if (m !== null) {
      const next = redact(m[1]!);
      const nextArgs: Record<string, unknown> = {};
      try {
        for (const [k, v] of new URL(m[1]!).searchParams) {
          const arg = queryArgs.get(k);
          if (arg !== undefined && PAGINATION_PARAMS.includes(k)) nextArgs[arg] = /^\d+$/.test(v) && v.length < 15 ? Number(v) : v;
        }
      } catch {
        // relative or odd link: keep the raw value only
      }
      return { source: 'link', hasMore: true, next, ...(Object.keys(nextArgs).length > 0 ? { nextArgs } : {}) };
    }
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const o = data as Record<string, unknown>;
    for (const key of ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken', 'next_token', 'cursor']) {
      const v = o[key];
      if (typeof v === 'string' && v !== '') {
        const param = ['cursor', 'page_token', 'pageToken', 'next_token', 'after', 'starting_after'].find((p) => queryArgs.has(p));
        return { source: 'cursor', hasMore: true, ...(param !== undefined ? { nextArgs: { [queryArgs.get(param)!]: v } } : {}) };
      }
    }
    if (o.has_more === true || o.hasMore === true) {
      const list = o.data ?? o.items ?? o.results;
      const last = Array.isArray(list) ? (list.at(-1) as Record<string, unknown> | undefined) : undefined;
      const id = last !== undefined && last !== null && typeof last === 'object' ? last.id : undefined;
      const param = queryArgs.has('starting_after') ? 'starting_after' : queryArgs.has('after') ? 'after' : undefined;
      return { source: 'cursor', hasMore: true, ...(param !== undefined && id !== undefined ? { nextArgs: { [queryArgs.get(param)!]: id } } : {}) };
    }
  }
  return undefined;
}

function strip(text: string): string {
  return text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The API's own error message from common shapes (message, error.message, errors[], detail, title). */
export function apiErrorMessage(data: unknown): string | undefined {
  if (typeof data === 'string') {
    const t = strip(data);
    return t === '' ? undefined : t.slice(0, 300);
  }
  if (data === null || typeof data !== 'object') return undefined;
  const o = data as Record<string, unknown>;
  const parts: string[] = [];
  const err = o.error;
  if (typeof o.message === 'string') parts.push(o.message);
  if (err !== null && typeof err === 'object' && typeof (err as Record<string, unknown>).message === 'string') parts.push((err as Record<string, unknown>).message as string);
  else if (typeof err === 'string') parts.push(typeof o.error_description === 'string' ? `${err}: ${o.error_description}` : err);
  if (Array.isArray(o.errors)) {
    for (const e of o.errors.slice(0, 5)) {
      if (typeof e === 'string') parts.push(e);
      else if (e !== null && typeof e === 'object') {
        const r = e as Record<string, unknown>;
        const msg = r.message ?? r.detail ?? r.code;
        const field = r.field ?? r.param ?? r.path;
        if (msg !== undefined) parts.push(field !== undefined ? `${String(field)}: ${String(msg)}` : String(msg));
      }
    }
  }
  if (parts.length === 0) for (const k of ['detail', 'title', 'error_description', 'msg', 'description']) if (typeof o[k] === 'string') parts.push(o[k] as string);
  return parts.length === 0 ? undefined : parts.join('; ').slice(0, 500);
}

/** Fields the API rejected (GitHub errors[].field, Stripe error.param, problem+json invalid-params). */
export function rejectedFields(data: unknown): string[] {
  if (data === null || typeof data !== 'object') return [];
  const o = data as Record<string, unknown>;
  const out = new Set<string>();
  if (Array.isArray(o.errors)) for (const e of o.errors) if (e !== null && typeof e === 'object' && typeof (e as Record<string, unknown>).field === 'string') out.add((e as Record<string, string>).field!);
  const err = o.error;
  if (err !== null && typeof err === 'object' && typeof (err as Record<string, unknown>).param === 'string') out.add((err as Record<string, string>).param!);
  if (Array.isArray(o['invalid-params'])) for (const p of o['invalid-params']) if (p !== null && typeof p === 'object' && typeof (p as Record<string, unknown>).name === 'string') out.add((p as Record<string, string>).name!);
  return [...out];
}

/**
 * What to do about an HTTP error status. `longArgs`: the arguments that make the request long, longest first
 * (`ids (3000 items)`), named when the API refused it as too long (414, 431).
 */
export function instructionFor(status: number, op: Operation, credentialNames: string[], data: unknown, retryAfterS?: number, longArgs?: string[]): string {
  if (status === 401 || status === 403) {
    const names = credentialNames.length > 0 ? credentialNames.join(' / ') : 'the API credential';
    return status === 401
      ? `The API rejected the credentials: check that ${names} is set to a valid, unexpired value.`
      : `The credential was accepted but lacks permission (or hit a rate limit): check the scopes of ${names} and that you may access this resource.`;
  }
  if (status === 404) return `Nothing found: check the identifiers (${op.bindings.filter((b) => b.in === 'path').map((b) => b.arg).join(', ') || 'path parameters'}) and that the credential can see the resource.`;
  if (status === 400 || status === 422) {
    const fields = rejectedFields(data);
    return fields.length > 0
      ? `The API rejected these fields: ${fields.join(', ')}. Fix them (see describe_tools for ${op.name}) and call again.`
      : `The API rejected the request: read the message, fix the arguments (see describe_tools for ${op.name}) and call again.`;
  }
  if (status === 409) return 'Conflict with the current state of the resource: fetch it again and retry with updated arguments.';
  if (status === 414 || status === 431) {
    // the API sends no message worth reading here: what made the request long is in its arguments
    const what = status === 414 ? 'its URL is too long (414)' : 'its headers are too large (431)';
    const which = longArgs !== undefined && longArgs.length > 0 ? `fewer or shorter values in ${longArgs.join(', ')}` : 'fewer or shorter query values (long arrays and strings)';
    return `The API refused the request because ${what}: send ${which}, splitting the values over several calls if you need them all.`;
  }
  if (status === 429) {
    // an absurd Retry-After (a year, 1e+23 s) is no plan for an agent: said as what it means
    if (retryAfterS !== undefined && retryAfterS > 3600) return 'Rate limited: the API asks to wait more than an hour; do not retry now, tell the user.';
    return retryAfterS !== undefined ? `Rate limited: retry after ${retryAfterS} s.` : 'Rate limited: wait before retrying.';
  }
  if (status >= 500) return 'The API failed on its side: retry later; if it persists, the upstream service is degraded.';
  return 'Read the API message and adjust the request.';
}
