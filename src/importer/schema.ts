// Schema conversion: Swagger 2.0 / OAS 3.0 / OAS 3.1 schema objects to JSON Schema 2020-12 for request arguments.
// Local `$ref`s become `#/$defs/<name>` and each operation carries only the definitions it uses, so recursive
// schemas stay finite and nothing circular is ever written. Keywords are copied from an allow-list: extensions,
// `$id`/`$schema`/`$anchor`/`$dynamicRef`, `xml` and other annotations are dropped; a `discriminator` is kept only
// beside a oneOf/anyOf, in converted terms (discriminator.ts).
// @see https://spec.openapis.org/oas/v3.0.3#schema-object and https://spec.openapis.org/oas/v3.1.0#schema-object
import type { Diagnostic, JsonSchema } from '../types.js';
import { convertDiscriminator } from './discriminator.js';
import { inTextParameter, widenByExamples } from './example-types.js';
import type { SpecKind } from './load.js';
import { getPointer, isObject, own, setOwn, unescapePointer } from './pointer.js';
import { MAX_SCHEMA_DESCRIPTION, cleanDescription, cleanLine, shortHash, stripInvisible } from './text.js';

/** Deepest inline nesting of one schema (refs do not count: they are resolved iteratively). */
export const MAX_SCHEMA_DEPTH = 64;
/**
 * Most JSON characters of nested definitions (`$defs`) one operation's argument schema carries (about 8,000
 * tokens). GitHub's largest needs 24,500, Stripe inlines everything; without a bound, entity models that
 * reference everything (Microsoft Graph, DocuSign) put up to 900 KB into each of hundreds of operations, which
 * takes Ajv about a second per schema and floods describe output.
 */
export const MAX_DEFS_CHARS = 32_000;
/** Examples larger than this (JSON characters) are not copied into schemas. */
const MAX_EXAMPLE_JSON = 600;

/** A schema the converter cannot use: a broken `$ref`, or nesting beyond MAX_SCHEMA_DEPTH. */
export class SchemaError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
    this.name = 'SchemaError';
  }
}

const PLAIN_KEYWORDS = [
  'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'multipleOf', 'minItems', 'maxItems',
  'uniqueItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains', 'deprecated', 'writeOnly',
  'contentMediaType', 'contentEncoding', 'dependentRequired',
] as const;
const NUMERIC = new Set(['minLength', 'maxLength', 'minimum', 'maximum', 'multipleOf', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains']);
const SINGLE_SCHEMA = ['not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

interface Converted {
  schema: JsonSchema;
  deps: Set<string>;
}

/**
 * Converts schemas of one spec. Component schemas are converted once (cached by pointer) and shared by every
 * operation that uses them; definition names are fixed up front from the set of all ref targets, so they do
 * not depend on which operation is converted first.
 */
export class SchemaConverter {
  private readonly cache = new Map<string, Converted | SchemaError>();
  private readonly defNames = new Map<string, string>();
  private readonly sizes = new Map<string, number>();
  /** LINT_EXAMPLE_TYPE findings by spec pointer: schemas whose type their own example widened (example-types.ts). */
  readonly exampleFindings = new Map<string, Diagnostic>();

  constructor(
    private readonly doc: Record<string, unknown>,
    private readonly kind: SpecKind,
    refTargets: Iterable<string>,
  ) {
    const byBase = new Map<string, string[]>();
    for (const target of [...new Set(refTargets)].sort()) {
      const last = target.split('/').pop() ?? 'def';
      const base = (stripInvisible(unescapePointer(last)).replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60) || 'def');
      const list = byBase.get(base) ?? [];
      list.push(target);
      byBase.set(base, list);
    }
    for (const [base, targets] of byBase) {
      targets.forEach((t, i) => this.defNames.set(t, i === 0 ? base : `${base}_${i + 1}`));
    }
  }

  /** Definition name used for the local ref `target`. */
  defName(target: string): string {
    let name = this.defNames.get(target);
    if (name === undefined) {
      name = `ref_${shortHash(target)}`;
      this.defNames.set(target, name);
    }
    return name;
  }

  /**
   * Converts one request-side schema. Refs it uses are added to `deps` (pointers); call `defsFor(deps)` to
   * get the `$defs` they need. Throws SchemaError.
   */
  convert(node: unknown, at: string, deps: Set<string>): JsonSchema {
    return this.walk(node, at, deps, 0);
  }

  /**
   * The `$defs` object for a set of ref targets, closed over their own references, sorted by name. The closure
   * is taken breadth-first and bounded: the direct targets are always included, nested ones only while the
   * `$defs` stay under MAX_DEFS_CHARS JSON characters (the notes that replace left-out references come on top,
   * about 100 characters each). A reference to a definition left out is replaced by an
   * unchecked value whose description says so, and the left-out pointers are appended to `elided` (sorted).
   */
  defsFor(deps: Set<string>, elided: string[] = []): Record<string, JsonSchema> {
    const included = new Map<string, Converted>();
    const dropped = new Set<string>();
    let used = 0;
    const queue: string[] = [];
    for (const target of deps) {
      const conv = this.convertTarget(target);
      included.set(target, conv);
      used += this.sizeOf(target, conv);
      queue.push(target);
    }
    for (let i = 0; i < queue.length; i++) {
      const conv = included.get(queue[i] as string) as Converted;
      for (const d of conv.deps) {
        if (included.has(d) || dropped.has(d)) continue;
        const sub = this.convertTarget(d);
        const size = this.sizeOf(d, sub);
        if (used + size > MAX_DEFS_CHARS) {
          dropped.add(d);
          continue;
        }
        used += size;
        included.set(d, sub);
        queue.push(d);
      }
    }
    const droppedNames = new Map<string, string>();
    for (const d of dropped) droppedNames.set(`#/$defs/${this.defName(d)}`, d);
    const all = new Map<string, JsonSchema>();
    for (const [target, conv] of included) {
      const touches = dropped.size > 0 && [...conv.deps].some((d) => dropped.has(d));
      all.set(this.defName(target), touches ? elideRefs(conv.schema, droppedNames) : conv.schema);
    }
    elided.push(...[...dropped].sort());
    const out: Record<string, JsonSchema> = {};
    for (const name of [...all.keys()].sort()) setOwn(out, name, all.get(name));
    return out;
  }

  /** The converted `$ref` of a spec `$ref` (`#/$defs/<name>`), or undefined when it is external or points nowhere. */
  private defRef(ref: string): string | undefined {
    return ref.startsWith('#') && getPointer(this.doc, ref) !== undefined ? `#/$defs/${this.defName(ref)}` : undefined;
  }

  /** Whether a property schema is readOnly, on the node or (through a `$ref`) on the schema it points to. */
  isReadOnly(node: unknown, at: string): boolean {
    if (!isObject(node)) return false;
    if (node.readOnly === true) return true;
    if (typeof node.$ref !== 'string') return false;
    try {
      return own(this.deref(node, at).node, 'readOnly') === true;
    } catch {
      return false; // a broken ref is reported where the schema is converted
    }
  }

  private sizeOf(target: string, conv: Converted): number {
    let size = this.sizes.get(target);
    if (size === undefined) {
      size = JSON.stringify(conv.schema).length + target.length;
      this.sizes.set(target, size);
    }
    return size;
  }

  /** Follows a chain of `$ref`s to the object it ends at (at most 64 hops). Throws SchemaError. */
  deref(node: unknown, at: string): { node: unknown; at: string } {
    let cur = node;
    let where = at;
    for (let hops = 0; hops < 64; hops++) {
      const ref = own(cur, '$ref');
      if (typeof ref !== 'string') return { node: cur, at: where };
      const target = this.target(ref, where);
      cur = getPointer(this.doc, target);
      where = target;
    }
    throw new SchemaError(`$ref chain longer than 64 hops`, where);
  }

  private target(ref: string, at: string): string {
    if (!ref.startsWith('#')) throw new SchemaError(`$ref ${JSON.stringify(ref)} is external and was not resolved`, at);
    if (getPointer(this.doc, ref) === undefined) throw new SchemaError(`$ref ${JSON.stringify(ref)} points nowhere`, at);
    return ref;
  }

  private convertTarget(target: string): Converted {
    const hit = this.cache.get(target);
    if (hit instanceof SchemaError) throw hit;
    if (hit) return hit;
    const deps = new Set<string>();
    try {
      const schema = this.walk(getPointer(this.doc, target), target, deps, 0);
      const conv = { schema, deps };
      this.cache.set(target, conv);
      return conv;
    } catch (err) {
      if (err instanceof SchemaError) this.cache.set(target, err);
      throw err;
    }
  }

  private walk(node: unknown, at: string, deps: Set<string>, depth: number): JsonSchema {
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) return {};
    if (depth > MAX_SCHEMA_DEPTH) throw new SchemaError(`schema nested deeper than ${MAX_SCHEMA_DEPTH} levels`, at);
    const out: Record<string, unknown> = {};
    const ref = own(node, '$ref');
    if (typeof ref === 'string') {
      const target = this.target(ref, at);
      deps.add(target);
      out.$ref = `#/$defs/${this.defName(target)}`;
      // OAS 3.0 and Swagger ignore $ref siblings; 3.1 (JSON Schema 2020-12) applies them. Keep a description.
      const desc = cleanDescription(own(node, 'description'), MAX_SCHEMA_DESCRIPTION);
      if (desc) out.description = desc;
      if (this.kind !== 'oas31') return out;
    }

    // type (Swagger `file` -> binary string; 3.1 type arrays kept)
    const type = own(node, 'type');
    let types: string[] | undefined;
    if (typeof type === 'string') types = [type];
    else if (Array.isArray(type)) types = type.filter((t): t is string => typeof t === 'string');
    if (types) {
      if (types.includes('file')) {
        types = types.map((t) => (t === 'file' ? 'string' : t));
        out.format = 'binary';
      }
      types = [...new Set(types.filter((t) => TYPES.has(t)))];
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.type = types;
    }
    const title = own(node, 'title');
    if (typeof title === 'string' && title !== '') out.title = cleanLine(title, 120);
    const description = cleanDescription(own(node, 'description'), MAX_SCHEMA_DESCRIPTION);
    if (description !== '') out.description = description;

    for (const key of PLAIN_KEYWORDS) {
      const v = own(node, key);
      if (v === undefined) continue;
      if (NUMERIC.has(key) && typeof v !== 'number') continue;
      if ((key === 'format' || key === 'pattern') && typeof v !== 'string') continue;
      if (key === 'pattern' && !patternCompiles(v as string)) continue;
      out[key] = v;
    }
    // OAS 3.0: boolean exclusiveMinimum/Maximum modify minimum/maximum; 3.1: they are numbers.
    for (const [ex, base] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
      const v = own(node, ex);
      if (typeof v === 'number') out[ex] = v;
      else if (v === true && typeof out[base] === 'number') {
        out[ex] = out[base];
        delete out[base];
      }
    }
    const en = own(node, 'enum');
    if (Array.isArray(en)) out.enum = en.map((v) => (typeof v === 'string' ? stripInvisible(v) : v));
    if (Object.hasOwn(node, 'const')) out.const = node.const;
    if (Object.hasOwn(node, 'default')) out.default = node.default;

    // examples: 3.1 array; 3.0 `example`. Small ones only (they reach the model).
    const examples = Array.isArray(own(node, 'examples')) ? (own(node, 'examples') as unknown[]) : Object.hasOwn(node, 'example') ? [node.example] : [];
    const small = examples.filter((e) => e !== undefined && JSON.stringify(e).length <= MAX_EXAMPLE_JSON).slice(0, 2);
    if (small.length > 0) out.examples = small;

    // Subschemas.
    const props = own(node, 'properties');
    const droppedReadOnly = new Set<string>();
    if (isObject(props)) {
      const outProps: Record<string, unknown> = {};
      for (const name of Object.keys(props)) {
        const sub = props[name];
        // readOnly properties are sent by the server, never by the client: not part of a request.
        if (this.isReadOnly(sub, `${at}/properties/${esc(name)}`)) {
          droppedReadOnly.add(name);
          continue;
        }
        setOwn(outProps, name, this.walk(sub, `${at}/properties/${esc(name)}`, deps, depth + 1));
      }
      out.properties = outProps;
    }
    const req = own(node, 'required');
    if (Array.isArray(req)) {
      const names = [...new Set(req.filter((r): r is string => typeof r === 'string' && !droppedReadOnly.has(r)))];
      if (names.length > 0) out.required = names;
    }
    const pprops = own(node, 'patternProperties');
    if (isObject(pprops)) {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(pprops)) if (patternCompiles(k)) setOwn(o, k, this.walk(pprops[k], `${at}/patternProperties/${esc(k)}`, deps, depth + 1));
      out.patternProperties = o;
    }
    const ap = own(node, 'additionalProperties');
    if (ap !== undefined && (typeof ap === 'boolean' || isObject(ap))) out.additionalProperties = this.walk(ap, `${at}/additionalProperties`, deps, depth + 1);
    const items = own(node, 'items');
    if (Array.isArray(items)) {
      out.prefixItems = items.map((s, i) => this.walk(s, `${at}/items/${i}`, deps, depth + 1));
      const addl = own(node, 'additionalItems');
      if (addl !== undefined) out.items = this.walk(addl, `${at}/additionalItems`, deps, depth + 1);
    } else if (items !== undefined) out.items = this.walk(items, `${at}/items`, deps, depth + 1);
    const prefix = own(node, 'prefixItems');
    if (Array.isArray(prefix)) out.prefixItems = prefix.map((s, i) => this.walk(s, `${at}/prefixItems/${i}`, deps, depth + 1));
    for (const key of SCHEMA_LISTS) {
      const list = own(node, key);
      if (Array.isArray(list) && list.length > 0) out[key] = list.map((s, i) => this.walk(s, `${at}/${key}/${i}`, deps, depth + 1));
    }
    // a discriminator beside a oneOf/anyOf tells execution's errors which alternative a tag value selects
    const union = Array.isArray(out.oneOf) ? 'oneOf' : Array.isArray(out.anyOf) ? 'anyOf' : undefined;
    const disc = union && convertDiscriminator(node, own(node, union) as unknown[], out[union] as unknown[], this.kind, (r) => this.defRef(r));
    if (disc !== undefined) out.discriminator = disc;
    for (const key of SINGLE_SCHEMA) {
      const v = own(node, key);
      if (v !== undefined && (typeof v === 'boolean' || isObject(v))) out[key] = this.walk(v, `${at}/${key}`, deps, depth + 1);
    }
    const dep = own(node, 'dependentSchemas');
    if (isObject(dep)) {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(dep)) setOwn(o, k, this.walk(dep[k], `${at}/dependentSchemas/${esc(k)}`, deps, depth + 1));
      out.dependentSchemas = o;
    }
    const widened = types && examples.length > 0 && !inTextParameter(this.doc, at) ? widenByExamples(out, types, examples, at) : undefined;
    if (widened !== undefined) this.exampleFindings.set(widened.pointer, widened);

    // nullable (OAS 3.0) / x-nullable (Swagger 2.0) -> null in the type, or anyOf with null when there is none.
    const nullable = (this.kind !== 'oas31' && node.nullable === true) || (this.kind === 'swagger2' && node['x-nullable'] === true);
    if (nullable) return addNull(out);
    return out;
  }
}

/**
 * A copy of `node` in which every `$ref` to one of `dropped` (`#/$defs/<name>` -> source pointer) is replaced
 * by an unchecked value that says what was left out. Other keywords beside the `$ref` stay.
 */
function elideRefs(node: JsonSchema, dropped: Map<string, string>): JsonSchema {
  if (Array.isArray(node)) return node.map((n) => elideRefs(n as JsonSchema, dropped)) as unknown as JsonSchema;
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  const ref = node.$ref;
  const source = typeof ref === 'string' ? dropped.get(ref) : undefined;
  for (const key of Object.keys(node)) {
    if (source !== undefined && key === '$ref') continue;
    const v = node[key];
    if (SCHEMA_MAPS.has(key) && isObject(v)) {
      // name -> schema maps: every value is a schema whatever its name ("enum" is a fine property name).
      const m: Record<string, unknown> = {};
      for (const k of Object.keys(v)) setOwn(m, k, elideRefs(v[k] as JsonSchema, dropped));
      setOwn(out, key, m);
    } else if (typeof v === 'object' && v !== null && !DATA_KEYWORDS.has(key)) setOwn(out, key, elideRefs(v as JsonSchema, dropped));
    else setOwn(out, key, v); // enum/const/default/examples are data and are copied as is
  }
  if (source !== undefined) {
    const name = source.split('/').pop() ?? source;
    const note = `(Nested schema ${name} left out: this operation's argument schema is too large; any value is accepted here.)`;
    out.description = typeof out.description === 'string' && out.description !== '' ? `${out.description} ${note}` : note;
  }
  return out;
}
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'dependentRequired', 'required']);

function esc(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A pattern Ajv can compile: RE2 syntax or a valid JavaScript regex (unicode mode, as Ajv uses). */
export function patternCompiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Makes a converted schema also accept null (OAS 3.0 `nullable: true`). */
export function addNull(schema: Record<string, unknown>): Record<string, unknown> {
  const t = schema.type;
  if (typeof t === 'string') schema.type = t === 'null' ? t : [t, 'null'];
  else if (Array.isArray(t)) {
    if (!t.includes('null')) schema.type = [...t, 'null'];
  } else if (schema.$ref !== undefined || schema.allOf || schema.anyOf || schema.oneOf || schema.enum || schema.const !== undefined) {
    // No type to extend: "this, or null". Annotations stay outside so describe output still reads well.
    const { description, title, default: def, examples, deprecated, ...rest } = schema;
    const wrapped: Record<string, unknown> = {};
    if (title !== undefined) wrapped.title = title;
    if (description !== undefined) wrapped.description = description;
    wrapped.anyOf = [rest, { type: 'null' }];
    if (def !== undefined) wrapped.default = def;
    if (examples !== undefined) wrapped.examples = examples;
    if (deprecated !== undefined) wrapped.deprecated = deprecated;
    return wrapped;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  return schema;
}
