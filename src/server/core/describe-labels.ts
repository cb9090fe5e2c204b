// Type labels: a schema as Level 2 (and the explorer, and Level 3's `type`) writes it in one string, `string (a|b)`,
// `array<integer>`, `object{title: string, required; ...}`. Pure functions of the schema and its `$defs`; what a label
// leaves out is said by LabelNotes, never read back from the label's text (which holds the API's own names and values).
import { resolveRef } from '../../schema/refs.js';
import { objectFields } from '../../schema/object-fields.js';
import type { JsonSchema } from '../../types.js';
import { cleanText } from './text.js';

/** An enum with more values than this is shown by its count. */
const ENUM_SHOWN = 8;
/** How many `$ref`s a type label follows (a chain of named types; a cycle stops here as `object`). */
const REF_HOPS = 4;
/** Level 2 lists an object argument's fields up to about this many characters, then says how many it has. */
const FIELDS_CHARS = 160;
/** A oneOf's object alternatives share this many characters of field lists. */
const ALTERNATIVES_CHARS = 240;
/** An object's required fields are named past FIELDS_CHARS, up to this many. */
const REQUIRED_SHOWN = 8;
/** A field name longer than this is cut in a label (names are the API's text). */
const FIELD_NAME_CHARS = 40;

/**
 * What a label with `fields` did not show, set as the label is built (describe's instruction then names the
 * `parameter` call): `cut`, a field list stopped at its cap (`... (23 fields; see parameter)`); `unknown`, an object
 * whose fields no schema gives (a free-form `object`, a `$ref` that resolves to nothing, a spec's contradictory schema).
 */
export interface LabelNotes {
  cut: boolean;
  unknown: boolean;
}

/**
 * How a label reads a schema. `fields`: an object lists its fields one level deep, required ones marked, and each
 * alternative of a oneOf/anyOf does the same (Level 2's arguments: GitHub's whole-body `body`, SoundCloud's wrapped
 * `playlist`), as do an array's item objects (`array<object{op: string, required; ...}>`); nested objects stay
 * `object`. `files`: a string the schema marks binary is a file, and the label says how to pass one (the argument is
 * a multipart or binary body's: execution takes a `data:` URL or a file object there).
 */
export interface LabelOptions {
  fields?: boolean;
  files?: boolean;
  /** The characters an object's field list may take (FIELDS_CHARS, shared out among a oneOf's alternatives). */
  fieldChars?: number;
  /** With `fields`: where the label records what it leaves out (LabelNotes). */
  notes?: LabelNotes;
}

/** How an agent passes a file (src/execution/files.ts reads both forms). */
export const FILE_LABEL = 'file (a data: URL, or {base64, filename, contentType})';

/**
 * The schema a parameter's `$ref` names among the operation's `$defs` (`#/$defs/UserType`), also as the one
 * `$ref` of an `allOf` that only adds a description (how AWS specs document a named type); else undefined.
 */
function referenced(schema: Exclude<JsonSchema, boolean>, defs: Record<string, JsonSchema> | undefined): JsonSchema | undefined {
  if (defs === undefined) return undefined;
  let ref = schema.$ref;
  const all = schema.allOf;
  if (typeof ref !== 'string' && Array.isArray(all)) {
    const refs = all.filter((a) => typeof a === 'object' && a !== null && typeof (a as { $ref?: unknown }).$ref === 'string');
    const rest = all.filter((a) => !refs.includes(a) && !(typeof a === 'object' && a !== null && Object.keys(a).every((k) => k === 'description' || k === 'title')));
    if (refs.length === 1 && rest.length === 0) ref = (refs[0] as { $ref: string }).$ref;
  }
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return undefined;
  // execution's resolver follows a chain of names (an alias of an alias) and stops at a cycle (undefined)
  return resolveRef({ $defs: defs }, { $ref: ref }) as JsonSchema | undefined;
}

/**
 * A compact type label: `string`, `integer`, `array<string>`, `string (a|b|c)`, `string (""|exempt)`. A named
 * type (`$ref` into the operation's `defs`) reads as what it names, so an enum behind a `$ref` shows its values.
 * With `options.fields`, `object{title: string, required; sharing: string (public|private)}` (LabelOptions).
 */
export function typeLabel(schema: JsonSchema | undefined, defs?: unknown, hops = 0, options: LabelOptions = {}): string {
  if (schema === undefined || typeof schema === 'boolean') return 'any';
  if (schema.type === undefined && hops < REF_HOPS) {
    const named = referenced(schema, typeof defs === 'object' && defs !== null ? (defs as Record<string, JsonSchema>) : undefined);
    if (named !== undefined) return typeLabel(named, defs, hops + 1, options);
  }
  if (options.files === true && binaryMarked(schema)) return FILE_LABEL;
  let t: string;
  const type = schema.type;
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(type)) t = type.filter((x) => x !== 'null').join('|') || 'null';
  else if (typeof type === 'string') t = type;
  // properties beside a oneOf/anyOf of `required` lists only (GitHub's "at least one of"): an object
  else if (schema.properties) t = 'object';
  else {
    t = Array.isArray(alternatives) ? alternativesLabel(alternatives, defs, hops, options) : typeof schema.$ref === 'string' ? 'object' : 'any';
    // a composition (AccountRequest = allOf [{$ref: Partial}, {type: object, required: [name, address]}]) reads as
    // its parts where nothing else says what it is
    if (t === 'any' && Array.isArray(schema.allOf) && hops <= REF_HOPS) t = allOfLabel(schema, defs, hops, options);
  }
  if (t === 'object' && options.fields === true) t = objectLabel(schema, defs, hops, options);
  // nested labels never list fields (one level), but a file stays a file; an argument's array items are its level
  const inner: LabelOptions = options.files === true ? { files: true } : {};
  if (t === 'array' && schema.items && typeof schema.items === 'object') {
    t = `array<${typeLabel(schema.items as JsonSchema, defs, hops, options.fields === true ? options : inner)}>`;
  }
  const en = schema.enum;
  if (Array.isArray(en) && en.length > 0 && en.length <= ENUM_SHOWN) t += ` (${en.map(enumValue).join('|').slice(0, 120)})`;
  else if (Array.isArray(en) && en.length > ENUM_SHOWN) t += ` (${en.length} allowed values; see detail "full")`;
  return t;
}

/**
 * The label of a schema composed with `allOf` and no type of its own, when its parts are objects: `object` when they
 * give properties (objectLabel then lists the fields of every part, each part's required ones marked), else the first
 * object part's label (`object`, a oneOf of objects); else `any` (a composition of scalars stays unknown here).
 */
function allOfLabel(schema: Exclude<JsonSchema, boolean>, defs: unknown, hops: number, options: LabelOptions): string {
  if (Object.keys(objectShape(schema, defs).properties).length > 0) return 'object';
  const first = (schema.allOf as JsonSchema[]).find((part) => typeLabel(part, defs, hops + 1).startsWith('object'));
  return first === undefined ? 'any' : typeLabel(first, defs, hops + 1, options);
}

/** Whether a schema marks a string as file content (what src/execution/files.ts treats as a file in a multipart body). */
function binaryMarked(s: Exclude<JsonSchema, boolean>): boolean {
  return s.format === 'binary' || s.format === 'byte' || typeof s.contentMediaType === 'string' || typeof s.contentEncoding === 'string';
}

/**
 * An object argument at Level 2: its fields one level deep (fieldsLabel); a `type: object` whose shapes are a
 * oneOf/anyOf's alternatives, each alternative's (GitHub's "either subject_digests or attestation_ids"); a map
 * (`additionalProperties` only) as `object{any key: <its values' label>}`; an object that carries an array's `items`
 * and nothing else (LaunchDarkly's semantic-patch bodies: `type: object` beside `items: {$ref: ...}`) as what the spec
 * says, with its contradiction named; else `object`.
 */
function objectLabel(schema: Exclude<JsonSchema, boolean>, defs: unknown, hops: number, options: LabelOptions): string {
  const { properties, required } = objectShape(schema, defs);
  if (Object.keys(properties).length > 0) return `object${fieldsLabel(properties, required, defs, hops, options)}`;
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    // an alternative without a type of its own is an object here
    const typed = alternatives.map((a) => (typeof a === 'object' && a !== null && a.type === undefined && a.$ref === undefined ? { ...a, type: 'object' } : a));
    return alternativesLabel(typed as JsonSchema[], defs, hops, options);
  }
  const values = schema.additionalProperties;
  if (values !== undefined && typeof values === 'object' && values !== null) return `object{any key: ${typeLabel(values as JsonSchema, defs, hops, options)}}`;
  if (options.notes !== undefined) options.notes.unknown = true;
  const items = schema.items;
  if (items !== undefined && typeof items === 'object' && items !== null) {
    // JSON Schema applies `items` to arrays only: validation accepts any object here, and the API's text decides
    return `object (the API's schema contradicts itself: an object, with array items ${typeLabel(items as JsonSchema, defs, hops, { ...options, notes: undefined })})`;
  }
  return 'object';
}

/** An object's properties and required names, its own and its allOf parts' (named types followed, REF_HOPS at most). */
function objectShape(schema: Exclude<JsonSchema, boolean>, defs: unknown): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const named = typeof defs === 'object' && defs !== null ? (defs as Record<string, JsonSchema>) : undefined;
  const follow = (node: Record<string, unknown>): JsonSchema | undefined => (node.type === undefined ? referenced(node as Exclude<JsonSchema, boolean>, named) : undefined);
  return objectFields(schema, follow, REF_HOPS) as { properties: Record<string, JsonSchema>; required: Set<string> };
}

/**
 * An object's fields, one level: `{name: string, required; labels: array<string>}`, required ones first; past
 * `options.fieldChars` (FIELDS_CHARS), `{...; ...} (23 fields; see parameter)` (describe_tools' `parameter` gives the
 * whole schema), which `options.notes.cut` records. Nested objects read `object`; a file stays a file.
 */
function fieldsLabel(properties: Record<string, JsonSchema>, required: ReadonlySet<string>, defs: unknown, hops: number, options: LabelOptions): string {
  const names = Object.keys(properties);
  const ordered = [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
  const budget = options.fieldChars ?? FIELDS_CHARS;
  const parts: string[] = [];
  let used = 0;
  for (const name of ordered) {
    const label = typeLabel(properties[name], defs, hops, options.files === true ? { files: true } : {});
    const part = `${cleanText(name, FIELD_NAME_CHARS).replace(/\s+/g, ' ')}: ${label}${required.has(name) ? ', required' : ''}`;
    // the required fields are all named (up to REQUIRED_SHOWN), the others as the budget allows
    if (parts.length > 0 && used + part.length > budget && !(required.has(name) && parts.length < REQUIRED_SHOWN)) break;
    parts.push(part);
    used += part.length + 2;
  }
  if (parts.length === ordered.length) return `{${parts.join('; ')}}`;
  if (options.notes !== undefined) options.notes.cut = true;
  return `{${parts.join('; ')}; ...} (${ordered.length} fields; see parameter)`;
}

/** An enum value in a type label: as it reads (`open`, `3`, `null`), but the empty string as `""`, which else vanishes. */
function enumValue(v: unknown): string {
  return v === '' ? '""' : String(v);
}

/** `string | integer` for a oneOf/anyOf: each alternative's own label, deduplicated, `null` left out, at most 4. */
function alternativesLabel(alternatives: JsonSchema[], defs: unknown, hops: number, options: LabelOptions): string {
  // objects' field lists share one budget: four alternatives of 60 characters each, not four of 160
  const shown = alternatives.filter((a) => !(typeof a === 'object' && a !== null && a.type === 'null')).slice(0, 4).length;
  const each: LabelOptions = options.fields === true && shown > 1 ? { ...options, fieldChars: Math.min(FIELDS_CHARS, Math.floor(ALTERNATIVES_CHARS / shown)) } : options;
  const labels = [...new Set(alternatives.map((a) => typeLabel(a, defs, hops, each)).filter((l) => l !== 'null'))];
  if (labels.length === 0) return 'any';
  if (labels.length <= 4) return labels.join(' | ');
  // the rest are left out: the `parameter` call shows them
  if (options.notes !== undefined) options.notes.cut = true;
  return `${labels.slice(0, 4).join(' | ')} | ...`;
}
