// What a field error's `expected` shows: the schema at an argument path, cut to what an agent needs to fix the
// value. Unions (oneOf/anyOf, `type: [..]`), allOf, not and `$ref`s are followed, so `expected` is never an empty
// object: `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, or the label `string | integer` when the excerpt
// would be too long. Pure functions of the operation's inputSchema (local `#/...` refs only); for messages only.
import { resolveRef } from '../schema/refs.js';
import type { JsonSchema } from '../types.js';

type Schema = Record<string, unknown>;

/** Largest excerpt, in characters of JSON, before it is cut down (then replaced by a label). */
const MAX_EXCERPT_CHARS = 600;
/** How deep an excerpt follows branches, items and refs. */
const MAX_DEPTH = 3;
/** Alternatives shown in a label before `| ...`. */
const MAX_ALTERNATIVES = 6;

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);


function branchesOf(s: Schema): Schema[] {
  const out: Schema[] = [];
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[k];
    if (Array.isArray(list)) for (const b of list) if (isSchema(b)) out.push(b);
  }
  return out;
}

/** The schema of property or index `part` inside `s`, looking into allOf/anyOf/oneOf branches too. */
function child(root: Schema, s: Schema, part: string, depth = 0): Schema | undefined {
  const props = s.properties;
  if (isSchema(props) && Object.prototype.hasOwnProperty.call(props, part)) return resolveRef(root, props[part] as JsonSchema);
  if (/^\d+$/.test(part)) {
    const prefix = s.prefixItems;
    if (Array.isArray(prefix) && Number(part) < prefix.length) return resolveRef(root, prefix[Number(part)] as JsonSchema);
    if (isSchema(s.items)) return resolveRef(root, s.items as JsonSchema);
  }
  if (depth >= MAX_DEPTH) return undefined;
  for (const b of branchesOf(s)) {
    const r = resolveRef(root, b);
    const found = r === undefined ? undefined : child(root, r, part, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The subschema at an instance path (properties, items, prefixItems, through combinator branches; for messages). */
export function schemaAt(root: Schema, path: string): Schema | undefined {
  let s: Schema | undefined = resolveRef(root, root);
  const parts = path === '' ? [] : path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const part of parts) {
    if (s === undefined) return undefined;
    s = child(root, s, part);
  }
  return s;
}

/**
 * The schema a URI-fragment JSON pointer such as Ajv's `schemaPath` (`#/properties/x/oneOf/1`,
 * `#/patternProperties/%5En_`) names inside `root`.
 */
export function schemaAtPointer(root: Schema, pointer: string): Schema | undefined {
  if (!pointer.startsWith('#')) return undefined;
  let cur: unknown = root;
  for (const part of pointer.slice(1).split('/').filter((p) => p !== '')) {
    let decoded = part;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      // not percent-encoded after all: use it as it is
    }
    const key = decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = Array.isArray(cur) ? cur[Number(key)] : isSchema(cur) ? cur[key] : undefined;
  }
  return resolveRef(root, cur as JsonSchema);
}

const SIMPLE_KEYS = [
  'type', 'enum', 'const', 'format', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'required',
] as const;

interface Cut {
  /** Drop property lists and long enums (the second, smaller try). */
  compact: boolean;
}

function excerptOf(root: Schema, schema: Schema, depth: number, cut: Cut): Schema {
  const out: Schema = {};
  for (const k of SIMPLE_KEYS) {
    const v = schema[k];
    if (v === undefined) continue;
    if (cut.compact && k === 'enum' && Array.isArray(v) && v.length > 10) out.enum = [...v.slice(0, 10), '…'];
    else out[k] = v;
  }
  if (!cut.compact && isSchema(schema.properties)) out.properties = Object.keys(schema.properties).slice(0, 30);
  if (depth >= MAX_DEPTH) return out;
  const items = resolveRef(root, schema.items as JsonSchema);
  if (items !== undefined) {
    const e = excerptOf(root, items, depth + 1, cut);
    if (Object.keys(e).length > 0) out.items = e;
  }
  for (const k of ['oneOf', 'anyOf'] as const) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    // An alternative with nothing to show (`{}`, `true`, a ref that points nowhere) is shown as "any".
    out[k] = list.map((b) => {
      const r = resolveRef(root, b as JsonSchema);
      const e = r === undefined ? undefined : excerptOf(root, r, depth + 1, cut);
      return e === undefined || Object.keys(e).length === 0 ? 'any' : e;
    });
  }
  const all = schema.allOf;
  if (Array.isArray(all)) {
    const parts = all.map((b) => resolveRef(root, b as JsonSchema)).filter((b): b is Schema => b !== undefined).map((b) => excerptOf(root, b, depth + 1, cut));
    const merged = mergeAll(out, parts);
    if (merged !== undefined) return merged;
    out.allOf = parts.filter((p) => Object.keys(p).length > 0);
  }
  const not = resolveRef(root, schema.not as JsonSchema);
  if (not !== undefined) {
    const e = excerptOf(root, not, depth + 1, cut);
    out.not = Object.keys(e).length === 0 ? 'any' : e;
  }
  return out;
}

/** allOf's excerpts folded into one when no keyword is set twice differently (required and properties are unions). */
function mergeAll(base: Schema, parts: Schema[]): Schema | undefined {
  const out: Schema = { ...base };
  for (const p of parts) {
    for (const [k, v] of Object.entries(p)) {
      if ((k === 'required' || k === 'properties') && Array.isArray(v)) {
        out[k] = [...new Set([...((out[k] as unknown[] | undefined) ?? []), ...v])];
      } else if (out[k] === undefined) out[k] = v;
      else if (JSON.stringify(out[k]) !== JSON.stringify(v)) return undefined;
    }
  }
  return out;
}

/**
 * A compact type label: `string`, `array<string>`, `string (a|b)`, `string | integer`, `integer | null`. Unlike
 * Level 2's label it keeps `null`: here it tells which values fail.
 */
export function typeLabel(root: Schema, schema: JsonSchema | Schema | undefined, depth = 0): string {
  const s = resolveRef(root, schema);
  if (s === undefined) return 'any';
  let t: string;
  if (Array.isArray(s.type)) t = s.type.join(' | ');
  else if (typeof s.type === 'string') t = s.type;
  else if ((Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) && depth < MAX_DEPTH) {
    t = alternativesLabel(root, ((s.oneOf ?? s.anyOf) as JsonSchema[]), depth + 1);
  } else if (Array.isArray(s.allOf) && depth < MAX_DEPTH) {
    t = (s.allOf as JsonSchema[]).map((b) => typeLabel(root, b, depth + 1)).find((l) => l !== 'any') ?? 'any';
  } else if (s.const !== undefined) t = JSON.stringify(s.const);
  else if (s.properties !== undefined) t = 'object';
  else if (s.items !== undefined) t = 'array';
  else if (s.not !== undefined) t = `not ${typeLabel(root, s.not as JsonSchema, depth + 1)}`;
  else t = Array.isArray(s.enum) ? 'one of' : 'any';
  if (t === 'array' && s.items !== undefined && depth < MAX_DEPTH) t = `array<${typeLabel(root, s.items as JsonSchema, depth + 1)}>`;
  const en = s.enum;
  if (Array.isArray(en) && en.length > 0) {
    // the empty string as `""`: joined bare it vanishes (`string (|exempt|none)`), and it is a value an API allows
    const shown = en.length <= 8 ? en.map((v) => (v === '' ? '""' : typeof v === 'string' ? v : JSON.stringify(v))).join('|').slice(0, 120) : `${en.length} allowed values`;
    t = t === 'one of' ? `one of (${shown})` : `${t} (${shown})`;
  }
  return t;
}

/** `string | integer` for a list of alternatives: each one's label, deduplicated, at most MAX_ALTERNATIVES. */
export function alternativesLabel(root: Schema, alternatives: JsonSchema[], depth = 0): string {
  const labels = [...new Set(alternatives.map((a) => typeLabel(root, a, depth)))];
  if (labels.length === 0) return 'any';
  return labels.length > MAX_ALTERNATIVES ? `${labels.slice(0, MAX_ALTERNATIVES).join(' | ')} | ...` : labels.join(' | ');
}

/**
 * A small excerpt of a schema for an error message: its constraints (no descriptions), property names, and the
 * excerpts of its items and of its oneOf/anyOf alternatives (allOf folded in, `$ref`s resolved). Over
 * MAX_EXCERPT_CHARS it drops property lists and long enums, then becomes the type label. Undefined when there is
 * nothing to show (no schema, or one that constrains nothing), never `{}`.
 */
export function excerpt(root: Schema, schema: Schema | undefined): unknown {
  if (schema === undefined) return undefined;
  const full = excerptOf(root, schema, 0, { compact: false });
  if (Object.keys(full).length === 0) return undefined;
  if (JSON.stringify(full).length <= MAX_EXCERPT_CHARS) return full;
  const compact = excerptOf(root, schema, 0, { compact: true });
  if (Object.keys(compact).length > 0 && JSON.stringify(compact).length <= MAX_EXCERPT_CHARS) return compact;
  return typeLabel(root, schema);
}
