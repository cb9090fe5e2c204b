// Where an agent gets the value of an entity parameter (`movie_id`, `issue_number`, `/albums/{id}`): for each path or
// query parameter that names an entity, the operations whose responses give it, best first, at most three — from the
// spec's `links` where present, else matched in response schemas (a field named like the parameter, or the `id` /
// `number` / `slug` of an object of the parameter's resource). Build time only; the result is Operation.paramSources.
// @see https://spec.openapis.org/oas/v3.1.0#link-object
import type { Operation } from '../types.js';
import {
  derefOnce, entityOf, headOf, itemOfCollection, knownResources, names, pathNames, responseObjects, singular, successSchema,
  type EntityRef, type ObjectSite,
} from './entities.js';
import type { BuildContext, RawOperation } from './context.js';
import { specPathOf } from './paths.js';
import { isObject, own, unescapePointer } from './pointer.js';

/** At most this many producers per parameter. */
export const MAX_SOURCES = 3;
/** Query parameters that make an operation a search (free text in, matches out). */
const SEARCH_PARAMS = new Set(['q', 'query', 'search', 'term', 'terms', 'keyword', 'keywords']);
/** A producer scoring this much below the best one for a parameter is not offered. */
const WEAKER_BY = 7;
/**
 * How deep in its answer (levels below the body) a value may sit for its producer to be offered as another way in:
 * a list's items (`[{id}]`: 1), or a wrapped list's or a field's items (`{cast: [{id}]}`: 2).
 */
const SHALLOW_DEPTH = 2;

interface Producer {
  op: Operation;
  objects: ObjectSite[];
  search: boolean;
  statics: string[];
  /** The path's segments (for siblingCollection). */
  segments: string[];
  /** Its path with every placeholder written `{}` (placeholdersAside). */
  aside: string;
  /** The names of its required parameters. */
  required: string[];
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

/** Parameter names that say only what kind of value they are, not whose (`/fees/{id}/refunds` needs a fee's id). */
const BARE_ATTRIBUTES: ReadonlySet<string> = new Set(['id', 'uuid', 'guid', 'key', 'slug', 'number', 'name']);
/** A path with every placeholder written `{}`. */
const placeholdersAside = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

/** The static segments of a path, in order. */
const staticsOf = (path: string): string[] => path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
/** The segments of a path, in order. */
const segmentsOf = (path: string): string[] => path.split('/').filter(Boolean);

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
  // an operationRef names the path key as the spec wrote it (`#/paths/~1#Action=DeleteVpc/post`), not the path requested
  const byPathMethod = new Map(operations.map((o) => [`${o.method} ${specPathOf(o)}`, o]));
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
    const statics = staticsOf(q.path);
    const search = q.bindings.some((b) => b.in === 'query' && SEARCH_PARAMS.has(b.name.toLowerCase())) || statics.includes('search');
    const required = q.bindings.filter((b) => b.required).map((b) => b.name);
    producers.push({ op: q, objects, search, statics, segments: segmentsOf(q.path), aside: placeholdersAside(q.path), required });
  }
  resourceShapes(producers);
  const known = knownResources(operations);
  const aliases = collectionHeads(operations, producers);
  const fields = indexFields(producers);
  const needs = new Map<Operation, Set<string>>(producers.map((p) => [p.op, requiredEntities(p.op)]));
  const listsById = new Set(producers.filter((p) => p.objects.some((o) => o.primary && o.inList && o.fields.some((f) => f.norm === 'id'))).map((p) => p.aside));
  for (const op of operations) {
    const sources: Record<string, string[]> = {};
    for (const b of op.bindings) {
      if (b.in !== 'path' && b.in !== 'query') continue;
      // a link from an operation that itself needs this value leads nowhere (Linode links `GET /volumes/{volumeId}`
      // to `POST /volumes/{volumeId}/clone`)
      const fromLinks = (linked.get(op)?.get(b.arg) ?? []).filter((q) => !q.bindings.some((x) => x.required && x.name === b.name && x.in === b.in));
      const entity = entityOf(op, b.name, b.in, op.inputSchema.properties[b.arg], known) ?? listedItem(op, b.name, op.inputSchema.properties[b.arg], listsById);
      const ranked = entity ? rankProducers(op, b.name, entity, fields, needs, aliases.get(entity.resource.join('-')), known) : [];
      const names = [...new Set([...fromLinks, ...ranked].map((o) => o.name))].slice(0, MAX_SOURCES);
      if (names.length > 0) Object.defineProperty(sources, b.arg, { value: names, enumerable: true, writable: true, configurable: true });
    }
    if (Object.keys(sources).length > 0) op.paramSources = sources;
    else delete op.paramSources;
  }
}

/**
 * Whether a producer whose path the parameter's path continues (placeholders aside) takes the parameter's own value
 * at the same place: `/transfers/{transfer}` for the `{id}` of `/transfers/{id}/reversals`, whatever its name there
 * (but one that names another of the parameter's path placeholders is that one).
 */
function needsInPlace(mine: readonly string[], at: number, param: string, theirs: readonly string[]): boolean {
  if (at < 0 || theirs.length <= at || theirs.length > mine.length) return false;
  for (let i = 0; i < theirs.length; i++) {
    const a = mine[i] as string;
    const b = theirs[i] as string;
    if (a.startsWith('{') !== b.startsWith('{') || (!a.startsWith('{') && a !== b)) return false;
  }
  // a placeholder the parameter's path has elsewhere is that other value (`/segments/{project}/{environment}` lists the
  // segments of an environment, not one segment)
  const there = theirs[at] as string;
  return there.startsWith('{') && (there === `{${param}}` || !mine.includes(there));
}

/**
 * A path parameter named like an item of the collection before it (`/customers/{customer}`, see itemOfCollection),
 * when that collection's own list (`GET /customers`, in `listsById`) gives its items' `id`.
 */
function listedItem(op: Operation, name: string, schema: unknown, listsById: ReadonlySet<string>): EntityRef | undefined {
  const item = itemOfCollection(op, name, schema);
  return item && listsById.has(placeholdersAside(item.collection)) ? item.entity : undefined;
}

function targetOfRef(ref: unknown, byPathMethod: ReadonlyMap<string, Operation>): Operation | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(ref);
  if (!m) return undefined;
  const path = unescapePointer(decodeURIComponent(m[1] as string));
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
function siblingCollection(a: readonly string[], b: readonly string[]): boolean {
  // the same path has no literal segment that differs, so the loop below answers false for it too
  if (a.length === 0 || a[a.length - 1] !== b[b.length - 1]) return false;
  for (let i = 2; i <= Math.min(a.length, b.length); i++) {
    const x = a[a.length - i] as string;
    const y = b[b.length - i] as string;
    if (!x.startsWith('{') && !y.startsWith('{') && x !== y) return true;
  }
  return false;
}

interface FieldSite {
  p: Producer;
  o: ObjectSite;
  integer: boolean;
}

/**
 * The producers' fields, indexed so that a parameter looks only at the sites that can give it: by field name (the
 * parameter's exact name), and by field name and the head of each name of its object (`id` of a `user`). A large
 * API has an `id` in nearly every object (Microsoft Graph: hundreds of thousands of sites); scanning them all for
 * every parameter made linking quadratic. `candidates` keeps each entity's scored sites, since thousands of
 * parameters name the same entity (`user-id`).
 */
interface FieldIndex {
  byName: ReadonlyMap<string, readonly FieldSite[]>;
  byNameHead: ReadonlyMap<string, readonly FieldSite[]>;
  candidates: Map<string, Candidates>;
}

/** The sites that can give one entity: each producer's best score, and the producers whose value sits shallow. */
interface Candidates {
  best: ReadonlyMap<Producer, number>;
  shallow: ReadonlySet<Operation>;
}

const nameHeadKey = (field: string, head: string): string => `${field}\u0000${head}`;

function indexFields(producers: readonly Producer[]): FieldIndex {
  const byName = new Map<string, FieldSite[]>();
  const byNameHead = new Map<string, FieldSite[]>();
  const add = (map: Map<string, FieldSite[]>, key: string, site: FieldSite): void => {
    const list = map.get(key);
    if (list) list.push(site);
    else map.set(key, [site]);
  };
  for (const p of producers) {
    for (const o of p.objects) {
      const heads = new Set(o.names.map(headOf).filter((h): h is string => h !== undefined));
      for (const f of o.fields) {
        const site = { p, o, integer: f.integer };
        add(byName, f.norm, site);
        for (const head of heads) add(byNameHead, nameHeadKey(f.norm, head), site);
      }
    }
  }
  return { byName, byNameHead, candidates: new Map() };
}

/**
 * The sites that give an entity, scored: a field with the parameter's exact name anywhere (8), or the entity's
 * attribute in an object that names its resource (6: see names()); a primary object adds 4, a list's items 2.
 * Depends on the entity alone, so it is computed once per entity (see FieldIndex).
 */
function candidatesFor(entity: EntityRef, index: FieldIndex, aliases: ReadonlySet<string> | undefined, known: ReadonlySet<string>): Candidates {
  const key = `${entity.resource.join('-')}.${entity.attribute}.${entity.exact}.${entity.integer}`;
  const cached = index.candidates.get(key);
  if (cached) return cached;
  const best = new Map<Producer, number>();
  const shallow = new Set<Operation>();
  const consider = (p: Producer, o: ObjectSite, score: number): void => {
    const s = score + (o.primary ? 4 : 0) + (o.inList ? 2 : 0);
    if (s > (best.get(p) ?? -1)) best.set(p, s);
    if (o.depth <= SHALLOW_DEPTH) shallow.add(p.op);
  };
  if (entity.exact !== entity.attribute) {
    for (const c of index.byName.get(entity.exact) ?? []) if (!entity.integer || c.integer) consider(c.p, c.o, 8);
  }
  // names() holds only for an object with a name whose head is the resource's last word or one of its aliases
  const heads = new Set([entity.resource[entity.resource.length - 1] as string, ...(aliases ?? [])]);
  for (const head of heads) {
    for (const c of index.byNameHead.get(nameHeadKey(entity.attribute, head)) ?? []) {
      if ((!entity.integer || c.integer) && names(entity.resource, c.o.names, aliases, known)) consider(c.p, c.o, 6);
    }
    // an answer's subject that names itself by its address (`"uri": "/videos/123"`, Vimeo) gives its id as the
    // address's last part; not an object it mentions (`connections: {comments: {uri: "/videos/123/comments"}}`)
    if (entity.attribute !== 'id') continue;
    for (const c of index.byNameHead.get(nameHeadKey('uri', head)) ?? []) {
      if (c.o.primary && names(entity.resource, c.o.names, aliases, known)) consider(c.p, c.o, 5);
    }
  }
  const found = { best, shallow };
  index.candidates.set(key, found);
  return found;
}

/** Producers of one entity parameter, best first (see docs/DESIGN.md, "Where a parameter's value comes from"). */
function rankProducers(
  op: Operation,
  param: string,
  entity: EntityRef,
  fields: FieldIndex,
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
  const parentSegments = parent === undefined ? undefined : segmentsOf(parent);
  const mineNames = new Set(op.bindings.map((b) => b.name));
  const mySegments = segmentsOf(op.path);
  const myAt = mySegments.indexOf(`{${param}}`);
  const myAside = placeholdersAside(op.path);
  const parentAside = parent === undefined ? undefined : placeholdersAside(parent);
  // producers whose value sits near the top of their answer (a list's items, a field of its items)
  const { best, shallow } = candidatesFor(entity, fields, aliases, known);
  const scored: Array<{ op: Operation; score: number }> = [];
  for (const [p, found] of best) {
    // a producer that needs this value itself: the same entity, or a parameter of the same name (but a bare `{id}`
    // before a producer's last segment is another thing's: `/application_fees/{id}/refunds` lists a fee's refunds)
    if (p.op === op || needs.get(p.op)?.has(key) || (p.required.includes(param) && (!BARE_ATTRIBUTES.has(param) || p.segments[p.segments.length - 1] === `{${param}}`))) continue;
    if (parentSegments !== undefined && siblingCollection(parentSegments, p.segments)) continue;
    if (needsInPlace(mySegments, myAt, param, p.segments)) continue;
    let score = found;
    // the placeholders' names aside: `/application_fees/{id}/refunds` is the collection of `/application_fees/{fee}/refunds/{id}`
    if (parentAside !== undefined && p.aside === parentAside) score += 6;
    // what the parameter's path nests in (`/tv/{tv_id}` for `/tv/{tv_id}/season/{season_number}`)
    else if (myAside.startsWith(`${p.aside}/`) && p.op.path.includes('{')) score += 3;
    score += Math.min(3, p.statics.filter((s) => mine.includes(s)).length);
    if (p.search) score += 2;
    // each required argument the caller does not already have is one more thing to find
    for (const name of p.required) if (!mineNames.has(name)) score -= 1;
    scored.push({ op: p.op, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.op.name < b.op.name ? -1 : a.op.name > b.op.name ? 1 : 0));
  // far below the best, a match is more likely another thing of the same name (a room's devices for an H.323
  // device): a wrong entry costs the agent a call, so weak ones are left out
  const top = scored[0]?.score ?? 0;
  const kept = scored.filter((s) => s.score >= top - WEAKER_BY).map((s) => s.op);
  return routes(kept, shallow);
}

/**
 * The producers in the order offered, from their rank: when the best three are all collections at the top of the
 * API (a search, root lists: popular, top rated, airing today), they are one way in offered three times, so the third
 * place goes to the best producer reached from another entity (`/person/{id}/tv_credits` gives the TV shows of a
 * person), when one is close enough to be kept at all.
 */
function routes(ranked: readonly Operation[], shallow: ReadonlySet<Operation>): Operation[] {
  // a collection at the top of the API (`/search/movie`, `/movie/popular`): called with nothing in hand
  const free = (p: Operation): boolean => !p.path.includes('{');
  if (ranked.length <= MAX_SOURCES || !ranked.slice(0, MAX_SOURCES).every(free)) return [...ranked];
  // another entity's list: a collection under one of its items (`/person/{person_id}/tv_credits`), its value near
  // the top of the answer; a value met deep inside another thing's answer (the teams of a notification's
  // repository's transfer) is no way in, nor is a lookup that wants ids as its input (`?id[]=...`)
  const other = ranked.find((p) => nestedUnderEntity(p) && shallow.has(p));
  if (other === undefined) return [...ranked];
  const head = [...ranked.slice(0, MAX_SOURCES - 1), other];
  return [...head, ...ranked.filter((p) => !head.includes(p))];
}

/** Whether an operation lists a collection under an item of an entity: a required path entity, then a literal. */
function nestedUnderEntity(op: Operation): boolean {
  const segments = op.path.split('/').filter(Boolean);
  const last = segments[segments.length - 1];
  if (last === undefined || last.startsWith('{')) return false;
  return op.bindings.some((b) => b.required && b.in === 'path' && entityOf(op, b.name, 'path', op.inputSchema.properties[b.arg], undefined) !== undefined);
}
