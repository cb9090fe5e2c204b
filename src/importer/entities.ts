// What names and responses refer to, for `from` (src/importer/sources.ts): the words of a name and their head noun,
// which parameters name an entity (`movie_id` -> movie.id), and the objects of a response with what each one is.
// Build time only; pure functions of the spec.
import pluralize from 'pluralize';
import type { Operation } from '../types.js';
import type { BuildContext, RawOperation } from './context.js';
import { getPointer, isObject, own } from './pointer.js';
import fromWords from './from-words.json' with { type: 'json' };

/** The last word of a parameter name that makes it an entity reference, and the field it is read from. */
const ATTRIBUTES: Record<string, string> = { id: 'id', ids: 'id', gid: 'gid', uuid: 'uuid', guid: 'guid', key: 'key', number: 'number', slug: 'slug', sha: 'sha' };
/** Property names that wrap a response's payload (`{"results": [...]}`): the items are what the path names. */
const WRAPPER_KEYS = new Set(['results', 'items', 'data', 'records', 'entries', 'list', 'values', 'content', 'elements', 'hits', 'objects', 'nodes', 'value']);
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
export const singular = (w: string): string => {
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

/**
 * A path parameter named like one item of the collection it follows (`/customers/{customer}`, `/application_fees/{fee}`,
 * `/invoiceitems/{invoiceitem}`): that item's id, as the collection's list gives it. Not by itself proof: GitHub's
 * `/orgs/{org}` is a login, so linkSources takes it only when the collection's own list shows its items' `id`.
 */
export function itemOfCollection(op: Pick<Operation, 'path'>, name: string, schema: unknown): { entity: EntityRef; collection: string } | undefined {
  const w = words(name);
  if (w.length === 0 || Object.hasOwn(ATTRIBUTES, w[w.length - 1] as string)) return undefined;
  const segments = op.path.split('/').filter(Boolean);
  const at = segments.indexOf(`{${name}}`);
  const before = at > 0 ? (segments[at - 1] as string) : undefined;
  if (before === undefined || before.startsWith('{')) return undefined;
  const plural = words(before);
  if (plural.length < w.length) return undefined;
  const resource = [...plural.slice(0, -1), singular(plural[plural.length - 1] as string)];
  // the parameter is the singular of the collection's last words (a singular segment, `/account/{account}`, is no collection)
  const tail = resource.slice(resource.length - w.length).join(' ');
  if (tail !== w.map(singular).join(' ') || tail === plural.slice(-w.length).join(' ')) return undefined;
  if (resource.every((x) => SHAPE_WORDS.has(x))) return undefined;
  const entity = { resource, attribute: 'id', exact: w.join(''), integer: isIntegerSchema(schema) };
  return { entity, collection: `/${segments.slice(0, at).join('/')}` };
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
export function knownResources(operations: readonly Operation[]): Set<string> {
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
export interface ObjectSite {
  fields: Array<{ field: string; norm: string; integer: boolean; string: boolean }>;
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
  /** Levels below the response body (an array's items and an object's properties each one). */
  depth: number;
}

/** Every object of a response, bounded (MAX_NODES objects, MAX_DEPTH levels). */
export function responseObjects(schema: unknown, doc: Record<string, unknown>, payloadNames: string[][]): ObjectSite[] {
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
    // an object with an identity of its own (an `id`, or its address: Vimeo's `"uri": "/videos/123"`) is a thing;
    // what sits inside it is something it mentions
    const identified = Object.hasOwn(props, 'id') || Object.hasOwn(props, 'uri');
    const site: ObjectSite = {
      fields: Object.keys(props).map((field) => {
        const f = derefOnce(props[field], doc);
        return { field, norm: words(field).join(''), integer: isIntegerSchema(f), string: own(f, 'type') === 'string' };
      }),
      names: at.payload ? [...ownNames, ...payloadNames] : ownNames,
      anonymous: !named,
      primary: at.primary,
      inList: at.inList,
      root: at.root,
      depth: at.depth,
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

export function derefOnce(node: unknown, doc: Record<string, unknown>): unknown {
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

/** Last segments that only say "the list" (from-words.json). */
const LIST_WORDS: ReadonlySet<string> = new Set(fromWords.listWords);

/** Whether a path segment only says "the list" (`/users/list`): its answer is the collection's items. */
export function listSegment(segment: string): boolean {
  const w = words(segment);
  return w.length === 1 && LIST_WORDS.has(w[0] as string);
}

/**
 * Narrower readings of a compound entity for when no producer gives the whole (`follow_user_id`,
 * `subscription_exposed_id`): its last words when they make a resource of the API (`known`; the head noun:
 * `follow user` -> user), longest first, then the words the collection before a path parameter names
 * (`/subscriptions/{subscription_exposed_id}` -> subscription). Never a word before the head alone (`invoice` of
 * `invoice item`), nor a reading that leaves out a resource of the API (`bank account` where the API has banks).
 */
export function narrowerEntities(entity: EntityRef, collection: string | undefined, known: ReadonlySet<string>): EntityRef[] {
  const r = entity.resource;
  const out: EntityRef[] = [];
  // a word left out that is a resource of its own makes the compound that resource's thing (`bank_account_id` where
  // the API has banks: a bank's account, not one of its accounts)
  const ownsIt = (dropped: readonly string[]): boolean => dropped.some((w) => known.has(singular(w)));
  for (let start = 1; start < r.length; start++) {
    const part = r.slice(start);
    if (!part.every((w) => SHAPE_WORDS.has(w)) && known.has(part.join('-')) && !ownsIt(r.slice(0, start))) out.push({ ...entity, resource: part });
  }
  const named = collection === undefined ? [] : words(collection).map(singular);
  if (named.length === 0 || named.length >= r.length || out.some((e) => e.resource.join('-') === named.join('-'))) return out;
  for (let start = 0; start + named.length <= r.length; start++) {
    if (named.every((w, i) => r[start + i] === w) && !ownsIt([...r.slice(0, start), ...r.slice(start + named.length)])) return [...out, { ...entity, resource: named }];
  }
  return out;
}

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
export function names(resource: readonly string[], lists: readonly string[][], aliases: ReadonlySet<string> | undefined, known: ReadonlySet<string>): boolean {
  const last = resource[resource.length - 1];
  return lists.some((list) => {
    const head = headOf(list);
    if (head === undefined) return false;
    // `tag_groups` items are tag groups, not groups, where the API has both (`/tag_groups/{id}`, `/groups/{id}`)
    if (head === last && isOtherResource(list, resource, known)) return false;
    if (head === last) return resource.length === 1 || contains(list.map(singular), resource);
    if (aliases !== undefined && aliases.has(head) && contains(list.map(singular), resource)) return true;
    // a resource whose last word is a shape word (`invoice item`): its words, then only shape words (`InvoiceItemEntity`)
    return SHAPE_WORDS.has(last as string) && endsWithShapes(list.map(singular), resource);
  });
}

/**
 * Whether the name's words around its head make a longer resource of the API than `resource`: words before it
 * (`tag-group` for group), or a shape word after it that the API uses as a resource's last word (`InvoiceItemEntity`
 * is an invoice item where the API has `{invoiceItem_id}`, not an invoice).
 */
function isOtherResource(list: readonly string[], resource: readonly string[], known: ReadonlySet<string>): boolean {
  const cut = list.indexOf('with');
  const all = (cut >= 0 ? list.slice(0, cut) : list).map(singular);
  const core = all.filter((w) => !SHAPE_WORDS.has(w));
  const mine = resource.join('-');
  for (let i = 0; i + resource.length < core.length; i++) {
    const longer = core.slice(i).join('-');
    if (known.has(longer) && longer !== mine) return true;
  }
  // the head is the last word that is no shape word; the shape words after it may still name a resource with it
  let head = all.length - 1;
  while (head >= 0 && SHAPE_WORDS.has(all[head] as string)) head--;
  const from = head - resource.length + 1;
  if (from < 0 || all.slice(from, head + 1).join('-') !== mine) return false;
  for (let end = head + 2; end <= all.length; end++) if (known.has(all.slice(from, end).join('-'))) return true;
  return false;
}

/** Whether `list` is some words, then `part`, then only shape words (`with ...` cut). */
function endsWithShapes(list: readonly string[], part: readonly string[]): boolean {
  const cut = list.indexOf('with');
  const core = cut >= 0 ? list.slice(0, cut) : list;
  for (let end = core.length; end >= part.length; end--) {
    if (part.every((w, j) => core[end - part.length + j] === w)) return true;
    if (!SHAPE_WORDS.has(core[end - 1] as string)) return false;
  }
  return false;
}

function contains(list: readonly string[], part: readonly string[]): boolean {
  for (let i = 0; i + part.length <= list.length; i++) if (part.every((w, j) => list[i + j] === w)) return true;
  return false;
}

/** The success response's schema of a raw operation (JSON preferred), or undefined. */
export function successSchema(raw: RawOperation, ctx: BuildContext): unknown {
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

/** Last segments whose answer is about a collection, not its items (from-words.json). */
const SUMMARY_WORDS: ReadonlySet<string> = new Set(fromWords.summaryWords);

/**
 * Static path segments after the last parameter (`/search/movie` -> search, movie): what a payload is, by its path.
 * None when the last one says the answer is about the collection (`/account/aggregate`, `/users/count`): an
 * aggregation's `id` is not an account's.
 */
export function pathNames(path: string): string[][] {
  const segments = path.split('/').filter(Boolean);
  let i = segments.length;
  while (i > 0 && !(segments[i - 1] as string).startsWith('{')) i--;
  const names = segments.slice(i).map((s) => {
    const w = words(s);
    return w.length > 0 ? [...w.slice(0, -1), singular(w[w.length - 1] as string)] : w;
  });
  const last = names[names.length - 1];
  return last !== undefined && last.length > 0 && SUMMARY_WORDS.has(last[last.length - 1] as string) ? [] : names;
}

