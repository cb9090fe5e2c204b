// Where an agent gets the value of an entity parameter (`movie_id`, `issue_number`, `/albums/{id}`): for each path or
// query parameter that names an entity, the operations whose responses give it, best first, at most three — from the
// spec's `links` where present, else matched in response schemas (a field named like the parameter, or the `id` /
// `number` / `slug` of an object of the parameter's resource). Build time only; the result is Operation.paramSources.
// The candidates (the GETs whose responses hold objects) and the index of their fields: producers.ts; ranking: here.
// @see https://spec.openapis.org/oas/v3.1.0#link-object
import type { Operation } from '../types.js';
import { derefOnce, entityOf, itemOfCollection, knownResources, listSegment, narrowerEntities, singular, words, type EntityRef } from './entities.js';
import type { BuildContext, RawOperation } from './context.js';
import { specPathOf } from './paths.js';
import { isObject, own, unescapePointer } from './pointer.js';
import { candidatesFor, collectProducers, collectionHeads, indexFields, placeholdersAside, segmentsOf, staticsOf, type FieldIndex } from './producers.js';

/** What ranking reads besides the parameter: the producers' index and what the API's paths say. */
interface RankContext {
  fields: FieldIndex;
  needs: ReadonlyMap<Operation, Set<string>>;
  aliases: ReadonlyMap<string, Set<string>>;
  known: ReadonlySet<string>;
  /** Each resource's own collection (homeCollections). */
  homes: ReadonlyMap<string, Set<string>>;
}

/** At most this many producers per parameter. */
export const MAX_SOURCES = 3;
/** A producer scoring this much below the best one for a parameter is not offered. */
const WEAKER_BY = 7;

/** Parameter names that say only what kind of value they are, not whose (`/fees/{id}/refunds` needs a fee's id). */
const BARE_ATTRIBUTES: ReadonlySet<string> = new Set(['id', 'uuid', 'guid', 'key', 'slug', 'number', 'name']);

/**
 * Entity params of an operation that are required (path and query, or only those `in` one), as `resource.attribute`
 * keys (a producer must not need the same).
 */
function requiredEntities(op: Operation, only?: 'path' | 'query'): Set<string> {
  const out = new Set<string>();
  for (const b of op.bindings) {
    if (!b.required || (b.in !== 'path' && b.in !== 'query') || (only !== undefined && b.in !== only)) continue;
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
  const producers = collectProducers(operations, raws, ctx);
  const known = knownResources(operations);
  const aliases = collectionHeads(operations, producers);
  const fields = indexFields(producers);
  const needs = new Map<Operation, Set<string>>(producers.map((p) => [p.op, requiredEntities(p.op)]));
  const rc: RankContext = { fields, needs, aliases, known, homes: homeCollections(operations) };
  const listsById = new Set(producers.filter((p) => p.objects.some((o) => o.primary && o.inList && o.fields.some((f) => f.norm === 'id'))).map((p) => p.aside));
  const indexes = collectionsIndexed(operations);
  for (const op of operations) {
    const sources: Record<string, string[]> = {};
    for (const b of op.bindings) {
      if (b.in !== 'path' && b.in !== 'query') continue;
      // a link from an operation that itself needs this value leads nowhere (Linode links `GET /volumes/{volumeId}`
      // to `POST /volumes/{volumeId}/clone`)
      const fromLinks = (linked.get(op)?.get(b.arg) ?? []).filter((q) => !q.bindings.some((x) => x.required && x.name === b.name && x.in === b.in));
      const named = entityOf(op, b.name, b.in, op.inputSchema.properties[b.arg], known) ?? listedItem(op, b.name, op.inputSchema.properties[b.arg], listsById);
      // a relation's name (`/tickets/{parentId}/notes`) says what the value is to the operation, not whose it is: the
      // collection before it says that, and an item of that collection's own producers is the value
      const item = named !== undefined && b.in === 'path' ? relationItem(op.path, b.name, named, rc.homes) : undefined;
      const itemRanked = item ? rankProducers(op, b.name, item, rc).filter((p) => ofCollection(p.path, op.path, b.name)) : [];
      // where that collection gives nothing, a field of the name in another resource's answer (an attachment's
      // `parentId`) is that resource's relation when the name indexes collections of several resources
      const shared = item !== undefined && named !== undefined && (indexes.get(b.name)?.size ?? 0) > 1;
      const entity = itemRanked.length > 0 ? item : shared && named !== undefined ? { ...named, exact: named.attribute } : named;
      let ranked = itemRanked.length > 0 ? itemRanked : entity ? rankProducers(op, b.name, entity, rc) : [];
      // nothing gives the whole compound its name makes (`subscription_exposed_id`, `follow_user_id`): a narrower
      // reading of it (not of a compound read from the path: `/verified_senders?id=` is no sender's id)
      if (entity !== undefined && ranked.length === 0 && entity.resource.length > 1 && fromName(b.name, entity) && candidatesFor(entity, fields, aliases.get(entity.resource.join('-')), known).best.size === 0) {
        const before = b.in === 'path' ? segmentBefore(op.path, b.name) : undefined;
        for (const narrower of narrowerEntities(entity, before, known)) {
          if (before !== undefined && elsewhere(op.path, b.name, before, narrower, rc.homes)) continue;
          ranked = rankProducers(op, b.name, narrower, rc);
          if (ranked.length > 0) break;
        }
      }
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

/**
 * A path parameter named as a relation (`parentId`, `owner_id`: what the value is to this operation) read as an item
 * of the collection before it (`/tickets/{parentId}/notes` takes a ticket's id): when that segment does not name the
 * parameter's resource and no reading of the name (its last words) is a resource with a collection of its own in the
 * API (`/users/{user_id}/following/{follow_user_id}` takes users). Only the collection's items then give the value: a
 * field of the parameter's name in another resource's answer (an attachment's `parentId`) is that thing's relation.
 */
function relationItem(path: string, name: string, entity: EntityRef, homes: ReadonlyMap<string, Set<string>>): EntityRef | undefined {
  const before = segmentBefore(path, name);
  if (before === undefined || namesResource(before, entity)) return undefined;
  for (let start = 0; start < entity.resource.length; start++) if (homes.has(entity.resource.slice(start).join('-'))) return undefined;
  const w = words(before);
  if (w.length === 0) return undefined;
  const resource = [...w.slice(0, -1), singular(w[w.length - 1] as string)];
  // `exact` is the attribute itself: no field of the parameter's own name counts (see candidatesFor)
  return { resource, attribute: entity.attribute, exact: entity.attribute, integer: entity.integer };
}

/** For each path parameter name, the resources of the collections it follows (`ticket`, `company` for `{parentId}`). */
function collectionsIndexed(operations: readonly Operation[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const op of operations) {
    for (const b of op.bindings) {
      const before = b.in === 'path' ? segmentBefore(op.path, b.name) : undefined;
      const w = before === undefined ? [] : words(before);
      const last = w[w.length - 1];
      if (last === undefined) continue;
      const set = out.get(b.name) ?? new Set<string>();
      set.add(singular(last));
      out.set(b.name, set);
    }
  }
  return out;
}

/**
 * Whether a producer lists the collection a path parameter indexes: that collection itself or a path under it
 * (`/tickets/query`), or a collection of the same name elsewhere (`/me/pictures` for `/users/{user_id}/pictures`);
 * not another collection whose items are of the same kind (a user's custom logos, also pictures).
 */
function ofCollection(producer: string, path: string, name: string): boolean {
  const collection = placeholdersAside(path.slice(0, path.indexOf(`/{${name}}`)));
  const aside = placeholdersAside(producer);
  return aside === collection || aside.startsWith(`${collection}/`) || segmentsOf(producer).pop() === segmentsOf(collection).pop();
}

/** Whether the entity's words are the parameter name's own (`follow_user_id`), not its path's (`/verified_senders?id=`). */
function fromName(name: string, entity: EntityRef): boolean {
  const w = words(name);
  return w.length > entity.resource.length && singular(w[entity.resource.length - 1] as string) === entity.resource[entity.resource.length - 1];
}

/** The static segment right before a path parameter (`subscriptions` for `/subscriptions/{id}`), or undefined. */
function segmentBefore(path: string, name: string): string | undefined {
  const segments = segmentsOf(path);
  const before = segments[segments.indexOf(`{${name}}`) - 1];
  return before === undefined || before.startsWith('{') ? undefined : before;
}

/**
 * Each resource's own collection, as placeholdersAside paths: the path before a parameter naming the resource, when
 * its last segment names it too (`/users` for `/users/{user_id}`; not `/me/followings` for `/me/followings/{user_id}`).
 */
function homeCollections(operations: readonly Operation[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const op of operations) {
    for (const b of op.bindings) {
      if (b.in !== 'path') continue;
      const e = entityOf(op, b.name, 'path', op.inputSchema.properties[b.arg], undefined);
      const before = segmentBefore(op.path, b.name);
      if (e === undefined || before === undefined || !namesResource(before, e)) continue;
      const key = e.resource.join('-');
      const set = out.get(key) ?? new Set<string>();
      set.add(placeholdersAside(op.path.slice(0, op.path.indexOf(`/{${b.name}}`))));
      out.set(key, set);
    }
  }
  return out;
}

/** Whether a collection's segment names the resource (its last word, singular, is one of the resource's words). */
function namesResource(segment: string, entity: EntityRef): boolean {
  const w = words(segment);
  const last = w[w.length - 1];
  return last !== undefined && entity.resource.includes(singular(last));
}

/**
 * Whether a path parameter's collection names a narrower reading of it but is not that resource's own collection:
 * `/user/{internal_user_id}` where the API's users live at `/application/entity/user` is another kind of user.
 */
function elsewhere(path: string, name: string, before: string, narrower: EntityRef, homes: ReadonlyMap<string, Set<string>>): boolean {
  const own = homes.get(narrower.resource.join('-'));
  return namesResource(before, narrower) && own !== undefined && !own.has(placeholdersAside(path.slice(0, path.indexOf(`/{${name}}`))));
}

/**
 * Whether a producer is the collection the value is chosen from, or that collection's list (`/users/list` for
 * `/users`): one of `collections`, placeholders aside.
 */
function atCollection(aside: string, collections: ReadonlySet<string>): boolean {
  if (collections.has(aside)) return true;
  const cut = aside.lastIndexOf('/');
  return cut > 0 && collections.has(aside.slice(0, cut)) && listSegment(aside.slice(cut + 1));
}

function targetOfRef(ref: unknown, byPathMethod: ReadonlyMap<string, Operation>): Operation | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(ref);
  if (!m) return undefined;
  const path = unescapePointer(decodeURIComponent(m[1] as string));
  return byPathMethod.get(`${m[2]} ${path}`);
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


/** Producers of one entity parameter, best first (see docs/DESIGN.md, "Where a parameter's value comes from"). */
function rankProducers(op: Operation, param: string, entity: EntityRef, rc: RankContext): Operation[] {
  const { fields, needs, known } = rc;
  const aliases = rc.aliases.get(entity.resource.join('-'));
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
  // the collection the value is chosen from: the one the parameter indexes; but adding an item to a list of another
  // resource's items (`PUT /me/followings/{user_id}`) takes one not in it yet, from that resource's own collection
  const before = segmentBefore(op.path, param);
  const adds = (op.method === 'put' || op.method === 'post') && mySegments[mySegments.length - 1] === `{${param}}` && before !== undefined && !namesResource(before, entity);
  const chosenFrom = adds ? rc.homes.get(entity.resource.join('-')) ?? new Set<string>() : new Set(parentAside === undefined ? [] : [parentAside]);
  // producers whose value sits near the top of their answer (a list's items, a field of its items)
  const { best, shallow } = candidatesFor(entity, fields, aliases, known);
  const scored: Array<{ op: Operation; score: number }> = [];
  for (const [p, found] of best) {
    // a producer that needs this value itself: the same entity, or a parameter of the same name (but a bare `{id}`
    // before a producer's last segment is another thing's: `/application_fees/{id}/refunds` lists a fee's refunds).
    // The collection the value is chosen from needs only what the parameter's own path holds before it: an entity of
    // the same kind there is another one, which the caller has (`/users/{user_id}/following` lists the users one user
    // follows: the `{follow_user_id}` of `/users/{user_id}/following/{follow_user_id}`); not so a lookup that wants
    // such values as its input (`GET /artists?ids=` for `/artists/{id}`).
    const needsIt = needs.get(p.op)?.has(key) === true && (adds || !atCollection(p.aside, chosenFrom) || requiredEntities(p.op, 'query').has(key));
    if (p.op === op || needsIt || (p.required.includes(param) && (!BARE_ATTRIBUTES.has(param) || p.segments[p.segments.length - 1] === `{${param}}`))) continue;
    if (parentSegments !== undefined && siblingCollection(parentSegments, p.segments)) continue;
    if (needsInPlace(mySegments, myAt, param, p.segments)) continue;
    let score = found;
    // the placeholders' names aside: `/application_fees/{id}/refunds` is the collection of `/application_fees/{fee}/refunds/{id}`
    if (atCollection(p.aside, chosenFrom)) score += 6;
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
