// The `fields` projection of a response: checking it before anything is sent (checkFields), applying it (dotted
// paths mapped over lists, or JMESPath), and saying when it selected less than it named (projectionWarning).
// Works on data decode.ts read; knows nothing of HTTP or of the operation.
import jmespath from 'jmespath';
import { AppError } from '../errors.js';

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
