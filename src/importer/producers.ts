// The operations that can give an entity parameter's value: every GET whose success response holds objects
// (entities.ts reads them), with its path's shape, and an index of their fields scored per entity. sources.ts
// ranks and picks among them. Build time only.
import type { Operation } from '../types.js';
import {
  entityOf, headOf, names, pathNames, responseObjects, singular, successSchema, type EntityRef, type ObjectSite,
} from './entities.js';
import type { BuildContext, RawOperation } from './context.js';

/** Query parameters that make an operation a search (free text in, matches out). */
const SEARCH_PARAMS = new Set(['q', 'query', 'search', 'term', 'terms', 'keyword', 'keywords']);
/**
 * How deep in its answer (levels below the body) a value may sit for its producer to be offered as another way in:
 * a list's items (`[{id}]`: 1), or a wrapped list's or a field's items (`{cast: [{id}]}`: 2).
 */
const SHALLOW_DEPTH = 2;

export interface Producer {
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

/** A path with every placeholder written `{}`. */
export const placeholdersAside = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

/** The static segments of a path, in order. */
export const staticsOf = (path: string): string[] => path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
/** The segments of a path, in order. */
export const segmentsOf = (path: string): string[] => path.split('/').filter(Boolean);

/**
 * The operations that only read and whose success response holds objects, as producers, each anonymous object
 * named by its shape where it has one (resourceShapes). `raws` maps each operation to the spec node it was built from.
 */
export function collectProducers(operations: readonly Operation[], raws: ReadonlyMap<Operation, RawOperation>, ctx: BuildContext): Producer[] {
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
  return producers;
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

/**
 * The heads a resource's own collection uses for its items: `/repos/{o}/{r}/pulls` lists `pull-request-simple`, so
 * `request` names pulls there (see names()).
 */
export function collectionHeads(operations: readonly Operation[], producers: readonly Producer[]): Map<string, Set<string>> {
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

interface FieldSite {
  p: Producer;
  o: ObjectSite;
  integer: boolean;
  /** A string (neither an integer nor an object). */
  string: boolean;
}

/**
 * The producers' fields, indexed so that a parameter looks only at the sites that can give it: by field name (the
 * parameter's exact name), and by field name and the head of each name of its object (`id` of a `user`). A large
 * API has an `id` in nearly every object (Microsoft Graph: hundreds of thousands of sites); scanning them all for
 * every parameter made linking quadratic. `candidates` keeps each entity's scored sites, since thousands of
 * parameters name the same entity (`user-id`).
 */
export interface FieldIndex {
  byName: ReadonlyMap<string, readonly FieldSite[]>;
  byNameHead: ReadonlyMap<string, readonly FieldSite[]>;
  candidates: Map<string, Candidates>;
}

/** The sites that can give one entity: each producer's best score, and the producers whose value sits shallow. */
export interface Candidates {
  best: ReadonlyMap<Producer, number>;
  shallow: ReadonlySet<Operation>;
}

const nameHeadKey = (field: string, head: string): string => `${field}\u0000${head}`;

export function indexFields(producers: readonly Producer[]): FieldIndex {
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
        const site = { p, o, integer: f.integer, string: f.string };
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
export function candidatesFor(entity: EntityRef, index: FieldIndex, aliases: ReadonlySet<string> | undefined, known: ReadonlySet<string>): Candidates {
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
  // names() holds only for an object with a name whose head is the resource's last word or one of its aliases
  // (and, for a resource whose last word is a shape word, its last other word: `InvoiceItemEntity` for invoice item)
  const heads = new Set([entity.resource[entity.resource.length - 1] as string, headOf(entity.resource), ...(aliases ?? [])].filter((h): h is string => h !== undefined));
  const named: FieldSite[] = [];
  for (const head of heads) {
    for (const c of index.byNameHead.get(nameHeadKey(entity.attribute, head)) ?? []) {
      if ((!entity.integer || c.integer) && names(entity.resource, c.o.names, aliases, known)) named.push(c);
    }
  }
  if (entity.exact !== entity.attribute) {
    // a field of the parameter's name whose type the resource's own ids never have is another thing's (an integer
    // `user_id` of an API's account where the API's users have string ids)
    const scalar = (c: FieldSite): string | undefined => (c.integer ? 'integer' : c.string ? 'string' : undefined);
    const types = new Set(named.map(scalar));
    const [only] = types;
    for (const c of index.byName.get(entity.exact) ?? []) {
      const t = scalar(c);
      if ((!entity.integer || c.integer) && !(types.size === 1 && only !== undefined && t !== undefined && t !== only)) consider(c.p, c.o, 8);
    }
  }
  for (const c of named) consider(c.p, c.o, 6);
  for (const head of heads) {
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
