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
const ATTRIBUTES: Record<string, string> = { id: 'id', ids: 'id', gid: 'gid', uuid: 'uuid', guid: 'guid', key: 'key', number: 'number', slug: 'slug', sha: 'sha' };
/** Property names that wrap a response's payload (`{"results": [...]}`): the items are what the path names. */
const WRAPPER_KEYS = new Set(['results', 'items', 'data', 'records', 'entries', 'list', 'values', 'content', 'elements', 'hits', 'objects', 'nodes', 'value']);
/** Query parameters that make an operation a search (free text in, matches out). */
const SEARCH_PARAMS = new Set(['q', 'query', 'search', 'term', 'terms', 'keyword', 'keywords']);
/** A producer scoring this much below the best one for a parameter is not offered. */
const WEAKER_BY = 7;
/** Objects visited per response: a bound so that entity models that reference everything stay cheap. */
const MAX_NODES = 200;
const MAX_DEPTH = 4;

/** `movie_id` -> [movie, id]; `issueNumber` -> [issue, number]; `X-Request-ID` -> [x, request, id]. */
export function words(name: string): string[] {
  let w = wordCache.get(name);
  if (w === undefined) {
    if (wordCache.size > 50_000) wordCache.clear();
    wordCache.set(name, (w = splitWords(name)));
  }
  return w;
}
const wordCache = new Map<string, string[]>();

function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const singulars = new Map<string, string>();
/** `movies` -> movie, `people` -> person (pluralize's rules; remembered, they are slow). */
const singular = (w: string): string => {
  let s = singulars.get(w);
  if (s === undefined) singulars.set(w, (s = /^[a-z]+$/.test(w) && w.length > 2 ? pluralize.singular(w) : w));
  return s;
};

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
 * `/albums/{id}` -> album.id (the path segment before it), `?ids=` on `/tracks` -> track.id; a parameter whose
 * name says nothing (`with_people`) by its description (`A comma separated list of person IDs`) when that names a
 * resource of the API (`known`, see knownResources).
 */
export function entityOf(op: Pick<Operation, 'path'>, name: string, location: string, schema: unknown, known: ReadonlySet<string> | undefined): EntityRef | undefined {
  const w = words(name);
  const last = w[w.length - 1];
  if (last === undefined || !Object.hasOwn(ATTRIBUTES, last)) return known !== undefined ? describedEntity(name, schema, known) : undefined;
  let resource = w.slice(0, -1);
  if (resource.length === 0) {
    const segments = op.path.split('/').filter(Boolean);
    // `/groups/{id}` and `/tag_groups/{id}.json` alike
    const at = location === 'path' ? segments.findIndex((seg) => seg.includes(`{${name}}`)) : segments.length;
    const before = segments.slice(0, Math.max(at, 0)).reverse().find((s) => !s.startsWith('{'));
    if (before === undefined || (location === 'path' && segments[at - 1] !== before)) return undefined;
    resource = words(before);
  }
  if (resource.length === 0) return undefined;
  resource = [...resource.slice(0, -1), singular(resource[resource.length - 1] as string)];
  // `page_number`, `page_key`: paging, not a thing another operation gives
  if (resource.every((w) => SHAPE_WORDS.has(w))) return undefined;
  return { resource, attribute: ATTRIBUTES[last] as string, exact: w.join(''), integer: isIntegerSchema(schema) };
}

/** `person` in "a list of person IDs", "the person's ID", "ID of the person"; only resources the API has. */
function describedEntity(name: string, schema: unknown, known: ReadonlySet<string>): EntityRef | undefined {
  const d = own(schema, 'description');
  // a fixed set of values (`include_fields: [registrant_id]`) is a choice, not a reference
  if (typeof d !== 'string' || Array.isArray(own(schema, 'enum'))) return undefined;
  const text = d.slice(0, 300);
  const candidates = [
    ...[...text.matchAll(/\b([A-Za-z]+)(?:'s)? (?:ID|IDs|ID's|id|ids|identifiers?)\b/g)].map((m) => m[1] as string),
    ...[...text.matchAll(/\b(?:ID|IDs|identifiers?) of (?:the |an? )?([A-Za-z]+)/g)].map((m) => m[1] as string),
  ];
  for (const c of candidates) {
    const r = singular(c.toLowerCase());
    if (known.has(r)) return { resource: [r], attribute: 'id', exact: words(name).join(''), integer: isIntegerSchema(schema) };
  }
  return undefined;
}

/** The API's resources: what its entity path parameters name (`movie` for `{movie_id}`, `album` for `/albums/{id}`). */
function knownResources(operations: readonly Operation[]): Set<string> {
  const out = new Set<string>();
  for (const op of operations) {
    for (const b of op.bindings) {
      if (b.in !== 'path') continue;
      const e = entityOf(op, b.name, 'path', op.inputSchema.properties[b.arg], undefined);
      if (e) out.add(e.resource.join('-'));
    }
  }
  return out;
}

function isIntegerSchema(schema: unknown): boolean {
  const t = own(schema, 'type');
  const items = own(schema, 'items');
  if (t === 'array' && isObject(items)) return isIntegerSchema(items);
  return t === 'integer' || t === 'number' || (Array.isArray(t) && (t.includes('integer') || t.includes('number')));
}

/** One object in a response: its fields, what it is (by its names) and where it sits. */
interface ObjectSite {
  fields: Array<{ field: string; norm: string; integer: boolean }>;
  /** Word lists naming the object: its schema's name or title, the property that holds it, the path for a payload. */
  names: string[][];
  /** No schema name or title of its own: what it is may be read from its shape (see resourceShapes). */
  anonymous: boolean;
  /** Not inside another identified object (the response's own subject, not something it mentions). */
  primary: boolean;
  /** An item of an array (a list or search answer). */
  inList: boolean;
  /** The response body itself. */
  root: boolean;
}

/** Every object of a response, bounded (MAX_NODES objects, MAX_DEPTH levels). */
function responseObjects(schema: unknown, doc: Record<string, unknown>, payloadNames: string[][]): ObjectSite[] {
  const out: ObjectSite[] = [];
  let budget = MAX_NODES;
  interface At { names: string[][]; depth: number; primary: boolean; payload: boolean; inList: boolean; root: boolean; seen: ReadonlySet<string>; named: boolean }
  const visit = (node: unknown, at: At): void => {
    if (budget-- <= 0 || at.depth > MAX_DEPTH) return;
    let s = node;
    const ownNames = [...at.names];
    const refs = new Set(at.seen);
    let named = at.named;
    for (let hops = 0; hops < 8; hops++) {
      const ref = own(s, '$ref');
      if (typeof ref !== 'string') break;
      if (refs.has(ref)) return;
      refs.add(ref);
      ownNames.push(words(ref.slice(ref.lastIndexOf('/') + 1)));
      named = true;
      s = getPointer(doc, ref);
    }
    if (!isObject(s)) return;
    const title = own(s, 'title');
    if (typeof title === 'string' && title.length <= 60) {
      ownNames.push(words(title));
      named = true;
    }
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const parts = own(s, key);
      if (Array.isArray(parts)) for (const p of parts) visit(p, { ...at, names: key === 'allOf' ? ownNames : at.names, seen: refs, named: key === 'allOf' ? named : at.named });
    }
    const items = own(s, 'items');
    if (items !== undefined) {
      visit(items, { ...at, names: ownNames, depth: at.depth + 1, inList: true, root: false, seen: refs, named });
      return;
    }
    const props = own(s, 'properties');
    if (!isObject(props)) return;
    const identified = Object.hasOwn(props, 'id');
    const site: ObjectSite = {
      fields: Object.keys(props).map((field) => ({ field, norm: words(field).join(''), integer: isIntegerSchema(derefOnce(props[field], doc)) })),
      names: at.payload ? [...ownNames, ...payloadNames] : ownNames,
      anonymous: !named,
      primary: at.primary,
      inList: at.inList,
      root: at.root,
    };
    out.push(site);
    for (const field of Object.keys(props)) {
      const sub = props[field];
      const child = derefOnce(sub, doc);
      if (!isObject(child) || !(isObject(own(child, 'properties')) || own(child, 'items') !== undefined || Array.isArray(own(child, 'allOf')) || typeof own(sub, '$ref') === 'string')) continue;
      const keyWords = words(field);
      const holder = keyWords.length > 0 ? [[...keyWords.slice(0, -1), singular(keyWords[keyWords.length - 1] as string)]] : [];
      visit(sub, { names: holder, depth: at.depth + 1, primary: at.primary && !identified, payload: at.payload && WRAPPER_KEYS.has(field.toLowerCase()), inList: false, root: false, seen: refs, named: false });
    }
  };
  visit(schema, { names: [], depth: 0, primary: true, payload: true, inList: false, root: true, seen: new Set(), named: false });
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

/** Words of schema names that say how an object is shaped, not what it is (`movie-list-object`, `PagingAlbumObject`). */
const SHAPE_WORDS = new Set([
  'object', 'list', 'result', 'response', 'model', 'dto', 'schema', 'item', 'base', 'simple', 'simplified', 'full',
  'public', 'private', 'paging', 'paged', 'page', 'paginated', 'info', 'data', 'entity', 'resource', 'summary', 'compact',
  'detail', 'minimal', 'mini', 'nullable', 'collection', 'wrapper', 'envelope', 'search', 'hit', 'match', 'ref', 'reference',
]);

/**
 * The head noun of a name (its last word that is not a shape word, before any `with ...`), singular:
 * `movie-list-result-with-rating-object` -> movie, `release-asset` -> asset, `PrivateUserObject` -> user.
 */
export function headOf(list: readonly string[]): string | undefined {
  if (heads.has(list)) return heads.get(list);
  const cut = list.indexOf('with');
  const core = (cut >= 0 ? list.slice(0, cut) : list).map(singular).filter((w) => !SHAPE_WORDS.has(w));
  const head = core[core.length - 1];
  heads.set(list, head);
  return head;
}
const heads = new WeakMap<readonly string[], string | undefined>();

/**
 * Whether an object named `lists` is of the resource: one name's head is the resource's last word (`simple-user`
 * for user), or a head the resource's own collection uses (`pull-request-simple` items of `/pulls` for pull) with the
 * resource's word in the name.
 */
function names(resource: readonly string[], lists: readonly string[][], aliases: ReadonlySet<string> | undefined, known: ReadonlySet<string>): boolean {
  const last = resource[resource.length - 1];
  return lists.some((list) => {
    const head = headOf(list);
    if (head === undefined) return false;
    // `tag_groups` items are tag groups, not groups, where the API has both (`/tag_groups/{id}`, `/groups/{id}`)
    if (head === last && isOtherResource(list, resource, known)) return false;
    if (head === last) return resource.length === 1 || contains(list.map(singular), resource);
    return aliases !== undefined && aliases.has(head) && contains(list.map(singular), resource);
  });
}

/** Whether the name's words before its head make a longer resource of the API than `resource` (`tag-group` for group). */
function isOtherResource(list: readonly string[], resource: readonly string[], known: ReadonlySet<string>): boolean {
  const cut = list.indexOf('with');
  const core = (cut >= 0 ? list.slice(0, cut) : list).map(singular).filter((w) => !SHAPE_WORDS.has(w));
  for (let i = 0; i + resource.length < core.length; i++) {
    const longer = core.slice(i).join('-');
    if (known.has(longer) && longer !== resource.join('-')) return true;
  }
  return false;
}

function contains(list: readonly string[], part: readonly string[]): boolean {
  for (let i = 0; i + part.length <= list.length; i++) if (part.every((w, j) => list[i + j] === w)) return true;
  return false;
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
  objects: ObjectSite[];
  search: boolean;
  statics: string[];
}

/**
 * What an anonymous object is, by its shape: each resource's fields are those of its own answer (the root object of
 * `GET .../{<resource>_id}`); a field that only one resource has is that resource's mark. An anonymous object with at
 * least two marks of one resource, and more of it than of any other, is one of those (`cast` items with `gender` and
 * `profile_path` are people). Named objects keep their names.
 */
function resourceShapes(producers: readonly Producer[]): void {
  const fieldsOf = new Map<string, { resource: string[]; fields: Set<string> }>();
  for (const p of producers) {
    const last = p.op.path.split('/').filter(Boolean).pop() ?? '';
    const m = /^\{(.+)\}$/.exec(last);
    if (!m) continue;
    const b = p.op.bindings.find((x) => x.in === 'path' && x.name === m[1]);
    const e = b ? entityOf(p.op, b.name, 'path', p.op.inputSchema.properties[b.arg], undefined) : undefined;
    const root = p.objects.find((o) => o.root && !o.inList);
    if (!e || e.attribute !== 'id' || !root) continue;
    const key = e.resource.join('-');
    const entry = fieldsOf.get(key) ?? { resource: e.resource, fields: new Set<string>() };
    for (const f of root.fields) entry.fields.add(f.norm);
    fieldsOf.set(key, entry);
  }
  const df = new Map<string, number>();
  for (const { fields } of fieldsOf.values()) for (const f of fields) df.set(f, (df.get(f) ?? 0) + 1);
  for (const p of producers) {
    for (const o of p.objects) {
      if (!o.anonymous || o.root) continue;
      const counts = [...fieldsOf.values()].map((r) => ({ r, marks: o.fields.filter((f) => df.get(f.norm) === 1 && r.fields.has(f.norm)).length }));
      counts.sort((a, b) => b.marks - a.marks);
      const [best, next] = counts;
      if (best !== undefined && best.marks >= 2 && (next === undefined || next.marks < best.marks)) o.names = [...o.names, best.r.resource];
    }
  }
}

/** The static segments of a path, in order. */
const staticsOf = (path: string): string[] => path.split('/').filter((s) => s !== '' && !s.startsWith('{'));

/** Entity params of an operation that are required, as `resource.attribute` keys (a producer must not need the same). */
function requiredEntities(op: Operation): Set<string> {
  const out = new Set<string>();
  for (const b of op.bindings) {
    if (!b.required || (b.in !== 'path' && b.in !== 'query')) continue;
    const e = entityOf(op, b.name, b.in, op.inputSchema.properties[b.arg], undefined);
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
    const objects = responseObjects(schema, ctx.doc, pathNames(q.path));
    if (objects.length === 0) continue;
    const search = q.bindings.some((b) => b.in === 'query' && SEARCH_PARAMS.has(b.name.toLowerCase())) || staticsOf(q.path).includes('search');
    producers.push({ op: q, objects, search, statics: staticsOf(q.path) });
  }
  resourceShapes(producers);
  const known = knownResources(operations);
  const aliases = collectionHeads(operations, producers);
  // fields by name, so that each parameter looks only at the fields that can give it
  const byField = new Map<string, Array<{ p: Producer; o: ObjectSite; integer: boolean }>>();
  for (const p of producers) {
    for (const o of p.objects) {
      for (const f of o.fields) {
        const list = byField.get(f.norm);
        if (list) list.push({ p, o, integer: f.integer });
        else byField.set(f.norm, [{ p, o, integer: f.integer }]);
      }
    }
  }
  const needs = new Map<Operation, Set<string>>(producers.map((p) => [p.op, requiredEntities(p.op)]));
  for (const op of operations) {
    const sources: Record<string, string[]> = {};
    for (const b of op.bindings) {
      if (b.in !== 'path' && b.in !== 'query') continue;
      // a link from an operation that itself needs this value leads nowhere (Linode links `GET /volumes/{volumeId}`
      // to `POST /volumes/{volumeId}/clone`)
      const fromLinks = (linked.get(op)?.get(b.arg) ?? []).filter((q) => !q.bindings.some((x) => x.required && x.name === b.name && x.in === b.in));
      const entity = entityOf(op, b.name, b.in, op.inputSchema.properties[b.arg], known);
      const ranked = entity ? rankProducers(op, b.name, entity, byField, needs, aliases.get(entity.resource.join('-')), known) : [];
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

/**
 * The heads a resource's own collection uses for its items: `/repos/{o}/{r}/pulls` lists `pull-request-simple`, so
 * `request` names pulls there (see names()).
 */
function collectionHeads(operations: readonly Operation[], producers: readonly Producer[]): Map<string, Set<string>> {
  const byPath = new Map(producers.map((p) => [p.op.path, p]));
  const out = new Map<string, Set<string>>();
  for (const op of operations) {
    for (const b of op.bindings) {
      if (b.in !== 'path') continue;
      const cut = op.path.indexOf(`/{${b.name}}`);
      const parent = cut > 0 ? byPath.get(op.path.slice(0, cut)) : undefined;
      const e = parent ? entityOf(op, b.name, 'path', op.inputSchema.properties[b.arg], undefined) : undefined;
      if (!parent || !e) continue;
      const key = e.resource.join('-');
      for (const o of parent.objects) {
        if (!o.primary || !o.inList) continue;
        for (const list of o.names) {
          const head = headOf(list);
          if (head !== undefined && list.map(singular).includes(e.resource[e.resource.length - 1] as string)) {
            const set = out.get(key) ?? new Set<string>();
            set.add(head);
            out.set(key, set);
          }
        }
      }
    }
  }
  return out;
}

/**
 * Whether `path` lists a collection of the same name as `parent` in another place (`/databases/mongodb/instances`
 * for `/databases/mysql/instances`): the same word, another kind of thing.
 */
function siblingCollection(parent: string, path: string): boolean {
  const a = parent.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  if (a.length === 0 || a[a.length - 1] !== b[b.length - 1] || parent === path) return false;
  for (let i = 2; i <= Math.min(a.length, b.length); i++) {
    const x = a[a.length - i] as string;
    const y = b[b.length - i] as string;
    if (!x.startsWith('{') && !y.startsWith('{') && x !== y) return true;
  }
  return false;
}

type FieldIndex = ReadonlyMap<string, ReadonlyArray<{ p: Producer; o: ObjectSite; integer: boolean }>>;

/** Producers of one entity parameter, best first (see docs/DESIGN.md, "Where a parameter's value comes from"). */
function rankProducers(
  op: Operation,
  param: string,
  entity: EntityRef,
  byField: FieldIndex,
  needs: ReadonlyMap<Operation, Set<string>>,
  aliases: ReadonlySet<string> | undefined,
  known: ReadonlySet<string>,
): Operation[] {
  const key = `${entity.resource.join('-')}.${entity.attribute}`;
  // the collection the parameter indexes: `/repos/{o}/{r}/issues` for `/repos/{o}/{r}/issues/{issue_number}`
  const cut = op.path.indexOf(`/{${param}}`);
  const parent = cut > 0 ? op.path.slice(0, cut) : undefined;
  // the words of the path that lead to the parameter (what comes after it is what the operation returns)
  const mine = staticsOf(parent ?? op.path);
  const best = new Map<Producer, number>();
  const consider = (p: Producer, o: ObjectSite, score: number): void => {
    const s = score + (o.primary ? 4 : 0) + (o.inList ? 2 : 0);
    if (s > (best.get(p) ?? -1)) best.set(p, s);
  };
  if (entity.exact !== entity.attribute) {
    for (const c of byField.get(entity.exact) ?? []) if (!entity.integer || c.integer) consider(c.p, c.o, 8);
  }
  for (const c of byField.get(entity.attribute) ?? []) {
    if ((!entity.integer || c.integer) && names(entity.resource, c.o.names, aliases, known)) consider(c.p, c.o, 6);
  }
  const scored: Array<{ op: Operation; score: number }> = [];
  for (const [p, found] of best) {
    if (p.op === op || needs.get(p.op)?.has(key) || p.op.bindings.some((b) => b.required && b.name === param)) continue;
    if (parent !== undefined && siblingCollection(parent, p.op.path)) continue;
    let score = found;
    if (parent !== undefined && p.op.path === parent) score += 6;
    // what the parameter's path nests in (`/tv/{tv_id}` for `/tv/{tv_id}/season/{season_number}`)
    else if (op.path.startsWith(`${p.op.path}/`) && p.op.path.includes('{')) score += 3;
    score += Math.min(3, p.statics.filter((s) => mine.includes(s)).length);
    if (p.search) score += 2;
    // each required argument the caller does not already have is one more thing to find
    score -= p.op.bindings.filter((b) => b.required && !op.bindings.some((x) => x.name === b.name)).length;
    scored.push({ op: p.op, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.op.name < b.op.name ? -1 : a.op.name > b.op.name ? 1 : 0));
  // far below the best, a match is more likely another thing of the same name (a room's devices for an H.323
  // device): a wrong entry costs the agent a call, so weak ones are left out
  const top = scored[0]?.score ?? 0;
  return scored.filter((s) => s.score >= top - WEAKER_BY).map((s) => s.op);
}
