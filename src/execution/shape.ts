// Turns an upstream response into what an agent can use: selected headers, the data decode.ts read from the body
// (projected by projection.ts), a structure-keeping cut to a token budget, pagination hints, and actionable
// UPSTREAM_ERROR outcomes.
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
export function instructionFor(status: number, op: Operation, credentials: { envVars: string[]; header?: string }, data: unknown, retryAfterS?: number, longArgs?: string[]): string {
  if (status === 401 || status === 403) {
    // the caller's own token (X-Upstream-Token...) is no env var: naming one would send the user to the wrong fix
    const token = credentials.header !== undefined ? `the caller's own token sent with this request (header ${credentials.header})` : undefined;
    const names = credentials.envVars.length > 0 ? credentials.envVars.join(' / ') : token === undefined ? 'the API credential' : undefined;
    if (status === 401) {
      const env = names !== undefined ? `check that ${names} is set to a valid, unexpired value` : undefined;
      const own = token !== undefined ? `${token} was refused: tell the user to send a valid, unexpired one` : undefined;
      return `The API rejected the credentials: ${[own, env].filter((p) => p !== undefined).join('; and ')}.`;
    }
    const whose = [token, names].filter((p) => p !== undefined).join(' and of ');
    return `The credential was accepted but lacks permission (or hit a rate limit): check the scopes of ${whose} and that you may access this resource.`;
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
