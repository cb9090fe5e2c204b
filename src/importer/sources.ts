// Where an agent gets the value of an entity parameter (`movie_id`, `issue_number`, `/albums/{id}`): for each path or
// query parameter that names an entity, the operations whose responses give it, best first, at most three — from the
// spec's `links` where present, else matched in response schemas (a field named like the parameter, or the `id` /
// `number` / `slug` of an object of the parameter's resource). Build time only; the result is Operation.paramSources.
// @see https://spec.openapis.org/oas/v3.1.0#link-object
import pluralize from 'pluralize';
import type { Operation } from '../types.js';
import type { RawOperation, BuildContext } from './operations.js';
import { getPointer, isObject, own } from './pointer.js';

/** At most this many producers per parameter. */
export const MAX_SOURCES = 3;
/** The last word of a parameter name that makes it an entity reference, and the field it is read from. */
const ATTRIBUTES: Record<string, string> = { id: 'id', ids: 'id', uuid: 'uuid', guid: 'guid', key: 'key', number: 'number', slug: 'slug', sha: 'sha' };
/** Property names that wrap a response's payload (`{"results": [...]}`): the items are what the path names. */
const WRAPPER_KEYS = new Set(['results', 'items', 'data', 'records', 'entries', 'list', 'values', 'content', 'elements', 'hits', 'objects', 'nodes', 'value']);
/** Query parameters that make an operation a search (free text in, matches out). */
const SEARCH_PARAMS = new Set(['q', 'query', 'search', 'term', 'terms', 'keyword', 'keywords']);
/** Objects visited per response: a bound so that entity models that reference everything stay cheap. */
const MAX_NODES = 600;
const MAX_DEPTH = 5;

/** `movie_id` -> [movie, id]; `issueNumber` -> [issue, number]; `X-Request-ID` -> [x, request, id]. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const singular = (w: string): string => (/^[a-z]+$/.test(w) && w.length > 2 ? pluralize.singular(w) : w);

/** What a parameter refers to: the resource's words (singular) and the field of that resource that holds its value. */
export interface EntityRef {
  resource: string[];
  attribute: string;
  /** The parameter's own name, normalized (`movieid`): a field of that name anywhere gives it. */
  exact: string;
  integer: boolean;
}

/**
 * The entity a path or query parameter names, or undefined: `movie_id` -> movie.id, `issue_number` -> issue.number,
 * `/albums/{id}` -> album.id (the path segment before it), `?ids=` on `/tracks` -> track.id.
 */
export function entityOf(op: Pick<Operation, 'path'>, name: string, location: string, schema: unknown): EntityRef | undefined {
  const w = words(name);
  const last = w[w.length - 1];
  if (last === undefined || !Object.hasOwn(ATTRIBUTES, last)) return undefined;
  let resource = w.slice(0, -1);
  if (resource.length === 0) {
    const segments = op.path.split('/').filter(Boolean);
    const at = location === 'path' ? segments.indexOf(`{${name}}`) : segments.length;
    const before = segments.slice(0, Math.max(at, 0)).reverse().find((s) => !s.startsWith('{'));
    if (before === undefined || (location === 'path' && segments[at - 1] !== before)) return undefined;
    resource = words(before);
  }
  if (resource.length === 0) return undefined;
  resource = [...resource.slice(0, -1), singular(resource[resource.length - 1] as string)];
  return { resource, attribute: ATTRIBUTES[last] as string, exact: w.join(''), integer: isIntegerSchema(schema) };
}

function isIntegerSchema(schema: unknown): boolean {
  const t = own(schema, 'type');
  const items = own(schema, 'items');
  if (t === 'array' && isObject(items)) return isIntegerSchema(items);
  return t === 'integer' || t === 'number' || (Array.isArray(t) && (t.includes('integer') || t.includes('number')));
}

/** One field of one object in a response: what the object is (by its names) and where it sits. */
interface Site {
  field: string;
  /** Normalized field name (`movieid`). */
  norm: string;
  integer: boolean;
  /** Word lists naming the object: its schema's name, the property that holds it, the path for a payload. */
  names: string[][];
  /** Not inside another identified object (the response's own subject, not something it mentions). */
  primary: boolean;
}

/** Every field of every object of a response, bounded (MAX_NODES objects, MAX_DEPTH levels). */
function responseSites(schema: unknown, doc: Record<string, unknown>, payloadNames: string[][]): Site[] {
  const out: Site[] = [];
  let budget = MAX_NODES;
  const visit = (node: unknown, names: string[][], depth: number, primary: boolean, payload: boolean, seen: ReadonlySet<string>): void => {
    if (budget-- <= 0 || depth > MAX_DEPTH) return;
    let s = node;
    const own_names = [...names];
    const refs = new Set(seen);
    for (let hops = 0; hops < 8; hops++) {
      const ref = own(s, '$ref');
      if (typeof ref !== 'string') break;
      if (refs.has(ref)) return;
      refs.add(ref);
      own_names.push(words(ref.slice(ref.lastIndexOf('/') + 1)));
      s = getPointer(doc, ref);
    }
    if (!isObject(s)) return;
    const title = own(s, 'title');
    if (typeof title === 'string' && title.length <= 60) own_names.push(words(title));
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const parts = own(s, key);
      if (Array.isArray(parts)) for (const p of parts) visit(p, key === 'allOf' ? own_names : names, depth, primary, payload, refs);
    }
    const items = own(s, 'items');
    if (items !== undefined) {
      visit(items, own_names, depth + 1, primary, payload, refs);
      return;
    }
    const props = own(s, 'properties');
    if (!isObject(props)) return;
    const named = payload ? [...own_names, ...payloadNames] : own_names;
    const identified = Object.hasOwn(props, 'id');
    for (const field of Object.keys(props)) {
      const sub = props[field];
      out.push({ field, norm: words(field).join(''), integer: isIntegerSchema(derefOnce(sub, doc)), names: named, primary });
      const child = derefOnce(sub, doc);
      if (isObject(child) && (isObject(own(child, 'properties')) || own(child, 'items') !== undefined || Array.isArray(own(child, 'allOf')) || typeof own(sub, '$ref') === 'string')) {
        const keyWords = words(field);
        const holder = keyWords.length > 0 ? [[...keyWords.slice(0, -1), singular(keyWords[keyWords.length - 1] as string)]] : [];
        visit(sub, holder, depth + 1, primary && !identified, payload && WRAPPER_KEYS.has(field.toLowerCase()), refs);
      }
    }
  };
  visit(schema, [], 0, true, true, new Set());
  return out;
}

function derefOnce(node: unknown, doc: Record<string, unknown>): unknown {
  let s = node;
  for (let i = 0; i < 8; i++) {
    const ref = own(s, '$ref');
    if (typeof ref !== 'string') return s;
    s = getPointer(doc, ref);
  }
  return s;
}

/** Whether one of `names` holds the resource's words in order (`check-suite` in `check-suite-preference`). */
function names(resource: readonly string[], lists: readonly string[][]): boolean {
  return lists.some((list) => {
    const l = list.map(singular);
    for (let i = 0; i + resource.length <= l.length; i++) if (resource.every((w, j) => l[i + j] === w)) return true;
    return false;
  });
}

/** The success response's schema of a raw operation (JSON preferred), or undefined. */
function successSchema(raw: RawOperation, ctx: BuildContext): unknown {
  const responses = own(raw.op, 'responses');
  if (!isObject(responses)) return undefined;
  const code = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort()[0];
  if (code === undefined) return undefined;
  const r = derefOnce(responses[code], ctx.doc);
  if (ctx.kind === 'swagger2') return own(r, 'schema');
  const content = own(r, 'content');
  if (!isObject(content)) return undefined;
  const mt = Object.keys(content).find((m) => /json/i.test(m)) ?? Object.keys(content)[0];
  return mt === undefined ? undefined : own(content[mt], 'schema');
}

/** Static path segments after the last parameter (`/search/movie` -> search, movie): what a payload is, by its path. */
function pathNames(path: string): string[][] {
  const segments = path.split('/').filter(Boolean);
  let i = segments.length;
  while (i > 0 && !(segments[i - 1] as string).startsWith('{')) i--;
  return segments.slice(i).map((s) => {
    const w = words(s);
    return w.length > 0 ? [...w.slice(0, -1), singular(w[w.length - 1] as string)] : w;
  });
}

interface Producer {
  op: Operation;
  sites: Site[];
  search: boolean;
  statics: string[];
}

/** The static segments of a path, in order. */
const staticsOf = (path: string): string[] => path.split('/').filter((s) => s !== '' && !s.startsWith('{'));

/** Entity params of an operation that are required, as `resource.attribute` keys (a producer must not need the same). */
function requiredEntities(op: Operation): Set<string> {
  const out = new Set<string>();
  for (const b of op.bindings) {
    if (!b.required || (b.in !== 'path' && b.in !== 'query')) continue;
    const e = entityOf(op, b.name, b.in, op.inputSchema.properties[b.arg]);
    if (e) out.add(`${e.resource.join('-')}.${e.attribute}`);
  }
  return out;
}

/**
 * Sets `paramSources` on every operation with entity parameters (see the module header). `raws` maps each
 * operation to the spec node it was built from (responses and links are read there).
 */
export function linkSources(operations: readonly Operation[], raws: ReadonlyMap<Operation, RawOperation>, ctx: BuildContext): void {
  const byOperationId = new Map(operations.map((o) => [o.operationId, o]));
  const byPathMethod = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
  // links: the spec says outright which response gives which parameter
  const linked = new Map<Operation, Map<string, Operation[]>>();
  for (const q of operations) {
    const raw = raws.get(q);
    const responses = own(raw?.op, 'responses');
    if (!isObject(responses)) continue;
    for (const code of Object.keys(responses).filter((c) => /^2/.test(c))) {
      const links = own(derefOnce(responses[code], ctx.doc), 'links');
      if (!isObject(links)) continue;
      for (const l of Object.values(links)) {
        const link = derefOnce(l, ctx.doc);
        const target = typeof own(link, 'operationId') === 'string' ? byOperationId.get(own(link, 'operationId') as string) : targetOfRef(own(link, 'operationRef'), byPathMethod);
        const params = own(link, 'parameters');
        if (target === undefined || target === q || !isObject(params)) continue;
        for (const key of Object.keys(params)) {
          const name = key.replace(/^(path|query|header|cookie)\./, '');
          const b = target.bindings.find((x) => x.name === name && (x.in === 'path' || x.in === 'query'));
          if (!b) continue;
          const perOp = linked.get(target) ?? new Map<string, Operation[]>();
          const list = perOp.get(b.arg) ?? [];
          if (!list.includes(q)) list.push(q);
          perOp.set(b.arg, list);
          linked.set(target, perOp);
        }
      }
    }
  }
  // response schemas of the operations that only read
  const producers: Producer[] = [];
  for (const q of operations) {
    if (q.method !== 'get') continue;
    const raw = raws.get(q);
    const schema = raw ? successSchema(raw, ctx) : undefined;
    if (schema === undefined) continue;
    const sites = responseSites(schema, ctx.doc, pathNames(q.path));
    if (sites.length === 0) continue;
    const search = q.bindings.some((b) => b.in === 'query' && SEARCH_PARAMS.has(b.name.toLowerCase())) || staticsOf(q.path).includes('search');
    producers.push({ op: q, sites, search, statics: staticsOf(q.path) });
  }
  const needs = new Map<Operation, Set<string>>(producers.map((p) => [p.op, requiredEntities(p.op)]));
  for (const op of operations) {
    const sources: Record<string, string[]> = {};
    for (const b of op.bindings) {
      if (b.in !== 'path' && b.in !== 'query') continue;
      const fromLinks = linked.get(op)?.get(b.arg) ?? [];
      const entity = entityOf(op, b.name, b.in, op.inputSchema.properties[b.arg]);
      const ranked = entity ? rankProducers(op, b.name, entity, producers, needs) : [];
      const names = [...new Set([...fromLinks, ...ranked].map((o) => o.name))].slice(0, MAX_SOURCES);
      if (names.length > 0) Object.defineProperty(sources, b.arg, { value: names, enumerable: true, writable: true, configurable: true });
    }
    if (Object.keys(sources).length > 0) op.paramSources = sources;
    else delete op.paramSources;
  }
}

function targetOfRef(ref: unknown, byPathMethod: ReadonlyMap<string, Operation>): Operation | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(ref);
  if (!m) return undefined;
  const path = decodeURIComponent(m[1] as string).replace(/~1/g, '/').replace(/~0/g, '~');
  return byPathMethod.get(`${m[2]} ${path}`);
}

/** Producers of one entity parameter, best first (see docs/DESIGN.md, "Where a parameter's value comes from"). */
function rankProducers(op: Operation, param: string, entity: EntityRef, producers: readonly Producer[], needs: ReadonlyMap<Operation, Set<string>>): Operation[] {
  const key = `${entity.resource.join('-')}.${entity.attribute}`;
  const mine = staticsOf(op.path);
  // the collection the parameter indexes: `/repos/{o}/{r}/issues` for `/repos/{o}/{r}/issues/{issue_number}`
  const cut = op.path.indexOf(`/{${param}}`);
  const parent = cut > 0 ? op.path.slice(0, cut) : undefined;
  const scored: Array<{ op: Operation; score: number }> = [];
  for (const p of producers) {
    if (p.op === op || needs.get(p.op)?.has(key) || p.op.bindings.some((b) => b.required && b.name === param)) continue;
    let best = -1;
    for (const s of p.sites) {
      if (entity.integer && !s.integer) continue;
      let score = -1;
      if (s.norm === entity.exact && entity.exact !== entity.attribute) score = 8;
      else if (s.norm === entity.attribute && names(entity.resource, s.names)) score = 6;
      if (score < 0) continue;
      if (s.primary) score += 4;
      best = Math.max(best, score);
    }
    if (best < 0) continue;
    let score = best;
    if (parent !== undefined && p.op.path === parent) score += 6;
    score += Math.min(3, p.statics.filter((s) => mine.includes(s)).length);
    if (p.search) score += 2;
    // each required argument the caller does not already have is one more thing to find
    score -= p.op.bindings.filter((b) => b.required && !op.bindings.some((x) => x.name === b.name)).length;
    scored.push({ op: p.op, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.op.name < b.op.name ? -1 : a.op.name > b.op.name ? 1 : 0));
  return scored.map((s) => s.op);
}
