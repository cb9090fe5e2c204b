// Example calls for each operation: the spec's own example values where it has them, else values synthesized
// from the argument schema. An example is kept only if it validates against the operation's inputSchema, but for the
// placeholders the importer writes (`<KEY>`, src/schema/placeholders.ts, whose findPlaceholders is execute_tool's): a
// string the importer invents is always its property's placeholder, never a value built from a `pattern` or `format`
// (`123e4567-…` for a uuid, `user@example.com`), cut to a `maxLength`, or a made-up file (example-files.ts): that would
// read like the user's and be sent. execute_tool refuses a call that still holds one, and a dry run names it. What the
// importer invents and is sent: a number (the schema's bounds, else 1) and a boolean (`true`), which keep their type.
import type { ValidateFunction } from 'ajv';
import type { JsonSchema, Operation, OperationExample } from '../types.js';
import { exampleSeeds } from './operations.js';
import { isObject, own, setOwn, unescapePointer } from './pointer.js';
import { credentialNamed } from './text.js';
import { filePartArgs } from './example-files.js';
import { objectFields, type ObjectFields } from '../schema/object-fields.js';
import { findPlaceholders, placeholderFor } from '../schema/placeholders.js';

/**
 * Formats Ajv checks: a string with one gets its placeholder, never a value of the spec's for the same name from
 * another operation (fitsString does not check a format, and that value may not fit it).
 */
const CHECKED_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'idn-email', 'uri', 'url', 'uri-reference', 'iri', 'uuid', 'hostname', 'ipv4', 'ipv6', 'byte', 'binary', 'duration', 'json-pointer']);

/**
 * Values the spec itself gives for an argument name, from any operation (a path parameter's example reused where
 * the same parameter has none); see specExampleValues. Absent names get a generic placeholder (`<owner>`).
 */
export type SpecValues = ReadonlyMap<string, string | number>;

const NO_VALUES: SpecValues = new Map();

/**
 * A Postman-style variable (`{{PAGE_ID}}`): specs converted from a Postman collection keep the collection's
 * variables as example values. They are no values: shown to an agent as an example, it would send them as they are.
 */
const TEMPLATE = /^\{\{.*\}\}$/s;

/** Whether `value` is, or holds anywhere inside it, a template variable (TEMPLATE): not usable as an example. */
export function hasTemplate(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return TEMPLATE.test(value.trim());
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  return (Array.isArray(value) ? value : Object.values(value)).some((v) => hasTemplate(v, depth + 1));
}

/**
 * The generic value of a string named `hint` (an argument, a property, or the property an array item is in) whose
 * schema has `minLength`: its placeholder (src/schema/placeholders.ts; else `example`, for a value with no name).
 */
function placeholder(hint: string, minLength?: unknown): string {
  return hint ? placeholderFor(hint, typeof minLength === 'number' ? minLength : undefined) : 'example';
}

/**
 * A value for `schema` (resolving `#/$defs/...` against `defs`): const, first example, default, first enum
 * value, else one built from the type: a number within the schema's bounds, `true`, a string's placeholder
 * (whatever its format or pattern). Objects get their required properties only. Bounded depth, so recursive schemas
 * terminate.
 */
export function synthesize(schema: JsonSchema | undefined, defs: Record<string, unknown>, hint = '', depth = 0, values: SpecValues = NO_VALUES): unknown {
  if (schema === undefined || schema === true) return values.get(hint) ?? placeholder(hint);
  if (schema === false || depth > 12) return undefined;
  const s = schema;
  const ref = s.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const name = unescapePointer(ref.slice('#/$defs/'.length));
    return synthesize(own(defs, name) as JsonSchema | undefined, defs, hint, depth + 1, values);
  }
  if (Object.hasOwn(s, 'const')) return s.const;
  if (Array.isArray(s.examples) && s.examples.length > 0) {
    const example = s.examples.find((e) => !hasTemplate(e));
    if (example !== undefined) return example;
  }
  if (Object.hasOwn(s, 'default') && s.default !== null && !hasTemplate(s.default)) return s.default;
  if (Array.isArray(s.enum)) {
    const first = s.enum.find((v) => v !== null);
    if (first !== undefined) return first;
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const parts = s.allOf.map((p) => synthesize(p as JsonSchema, defs, hint, depth + 1, values));
    if (!parts.every((p) => isObject(p))) return parts[0];
    const out = Object.assign({}, ...parts) as Record<string, unknown>;
    // a part's required names whose properties another part gives (AccountRequest = allOf [{$ref: Partial}, {required: [name]}])
    const all = allOfFields(s, defs);
    for (const r of s.allOf.flatMap((p) => orphans(p, defs))) {
      const v = Object.hasOwn(all.properties, r) ? synthesize(own(all.properties, r) as JsonSchema, defs, r, depth + 1, values) : undefined;
      if (v !== undefined) setOwn(out, r, v);
    }
    return out;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) {
      // Shallow: the first non-null option. Deeper (recursive schemas): null or a non-$ref option ends the recursion.
      const isNull = (o: unknown): boolean => isObject(o) && o.type === 'null';
      if (depth >= 3 && list.some(isNull)) return null;
      const option =
        (depth >= 3 ? list.find((o) => isObject(o) && o.$ref === undefined && !isNull(o)) : undefined) ??
        list.find((o) => !isNull(o)) ??
        list[0];
      return synthesize(option as JsonSchema, defs, hint, depth + 1, values);
    }
  }
  const types = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : [];
  const type = (types.find((t) => t !== 'null') as string | undefined) ?? (isObject(s.properties) ? 'object' : s.items !== undefined ? 'array' : types[0]);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
    case 'number': {
      const known = values.get(hint);
      if (typeof known === 'number' && withinBounds(s, known, type === 'integer')) return known;
      let n = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      if (typeof s.maximum === 'number' && n > s.maximum) n = s.maximum;
      if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) n = s.exclusiveMaximum - 1;
      if (type === 'integer') n = Math.ceil(n);
      if (typeof s.multipleOf === 'number' && s.multipleOf > 0) n = Math.ceil(n / s.multipleOf) * s.multipleOf;
      return n;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      // items are named for the property the array is in: `"InstanceIds": ["<InstanceIds>"]`, never a bare word
      const out: unknown[] = prefix.map((p) => synthesize(p as JsonSchema, defs, hint, depth + 1, values));
      const count = Math.max(min, out.length, 1);
      while (out.length < count) out.push(synthesize(s.items as JsonSchema | undefined, defs, hint, depth + 1, values));
      return s.uniqueItems === true && out.length > 1 ? out.slice(0, 1) : out;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isObject(s.properties) ? s.properties : {};
      const required = Array.isArray(s.required) ? s.required : [];
      for (const r of required) {
        if (typeof r !== 'string') continue;
        const v = synthesize(own(props, r) as JsonSchema | undefined, defs, r, depth + 1, values);
        if (v !== undefined) setOwn(out, r, v);
      }
      return out;
    }
    default: {
      const known = values.get(hint);
      const checked = typeof s.format === 'string' && CHECKED_FORMATS.has(s.format);
      if (!checked && typeof known === 'string' && fitsString(s, known)) return known;
      // invented: the placeholder, padded to minLength; a pattern, format or maxLength may refuse it
      return placeholder(hint, s.minLength);
    }
  }
}

/** The fields of an object and its allOf parts, `#/$defs/` references followed. */
function allOfFields(schema: unknown, defs: Record<string, unknown>): ObjectFields {
  const follow = (node: Record<string, unknown>): unknown =>
    typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/') ? own(defs, unescapePointer(node.$ref.slice('#/$defs/'.length))) : undefined;
  return objectFields(schema, follow, 12);
}

/** The names a part requires without giving their properties (another part of the allOf does). */
function orphans(part: unknown, defs: Record<string, unknown>): string[] {
  const { properties, required } = allOfFields(part, defs);
  return [...required].filter((r) => !Object.hasOwn(properties, r));
}

/** A number the schema's bounds accept. */
function withinBounds(s: Record<string, unknown>, n: number, integer: boolean): boolean {
  if (integer && !Number.isInteger(n)) return false;
  if (typeof s.minimum === 'number' && n < s.minimum) return false;
  if (typeof s.maximum === 'number' && n > s.maximum) return false;
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return false;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) return false;
  return true;
}

/** A string the schema's pattern and length bounds accept. */
function fitsString(s: Record<string, unknown>, v: string): boolean {
  if (typeof s.pattern === 'string' && !matches(s.pattern, v)) return false;
  if (typeof s.minLength === 'number' && v.length < s.minLength) return false;
  if (typeof s.maxLength === 'number' && v.length > s.maxLength) return false;
  return true;
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

/**
 * Whether an argument is a header, query or cookie parameter whose name says it holds a credential and whose value is
 * free text (no enum or const). The spec's `default` or example there is the spec author's key (Data2CRM's
 * `X-API2CRM-USER-KEY`): copied from an example it would be sent as the user's, so the example holds a placeholder.
 */
function secretParameter(op: Operation, arg: string): boolean {
  const b = op.bindings.find((x) => x.arg === arg);
  const schema = own(op.inputSchema.properties, arg);
  if (b === undefined || !['header', 'query', 'cookie'].includes(b.in) || (isObject(schema) && (Object.hasOwn(schema, 'const') || Array.isArray(schema.enum)))) return false;
  return [b.name, arg].some(credentialNamed);
}

/** Required arguments, synthesized; a credential parameter's (secretParameter) without the spec's values for it. */
function synthesizedArgs(op: Operation, values: SpecValues): Record<string, unknown> {
  const defs = (op.inputSchema.$defs as Record<string, unknown> | undefined) ?? {};
  const args: Record<string, unknown> = {};
  for (const name of op.inputSchema.required ?? []) {
    // the spec's value for a parameter of the same name and location (a query `owner` says nothing of a path `owner`)
    const b = op.bindings.find((x) => x.arg === name);
    const secret = secretParameter(op, name);
    const known = b !== undefined && !secret ? values.get(`${b.in}:${b.name}`) : undefined;
    const local: SpecValues = known !== undefined ? new Map([[name, known]]) : NO_VALUES;
    const schema = own(op.inputSchema.properties, name) as JsonSchema | undefined;
    const { default: _d, examples: _e, ...bare } = secret && isObject(schema) ? schema : {};
    const v = synthesize(secret ? (bare as JsonSchema) : schema, defs, name, 0, local);
    if (v !== undefined) setOwn(args, name, v);
  }
  return args;
}

/**
 * The body's only argument (a wrapped or whole body) when it is optional but has required fields of its own
 * (SoundCloud's `comment` needs `body`: without it the example sent `{}`), with those fields synthesized; else undefined.
 */
function wrappedBody(op: Operation): { arg: string; value: Record<string, unknown> } | undefined {
  const [only, ...more] = op.bindings.filter((b) => b.in === 'body');
  if (only?.required !== false || more.length > 0) return undefined;
  const defs = (op.inputSchema.$defs as Record<string, unknown> | undefined) ?? {};
  const value = synthesize(own(op.inputSchema.properties, only.arg) as JsonSchema | undefined, defs, only.arg, 0, NO_VALUES);
  return isObject(value) && Object.keys(value).length > 0 ? { arg: only.arg, value } : undefined;
}

/** Arguments assembled from the spec's example values, missing required ones synthesized; or undefined. */
function specArgs(op: Operation, values: SpecValues): Record<string, unknown> | undefined {
  const seeds = exampleSeeds(op);
  if (!seeds) return undefined;
  const args: Record<string, unknown> = {};
  let fromSpec = 0;
  for (const { arg, values } of seeds.params) {
    // a credential's example is the spec author's key: never shown (secretParameter)
    if (secretParameter(op, arg)) continue;
    // the first value, past any template variables (an absent first value means none, as it always has)
    const value = values.find((v) => v === undefined || !hasTemplate(v));
    if (value !== undefined) {
      setOwn(args, arg, value);
      fromSpec++;
    }
  }
  // A whole-body example with a template variable anywhere is passed over; one spread into arguments loses only
  // the arguments that hold one (a required one is then synthesized below).
  const bodyExample = seeds.body.find((b) => b !== undefined && (seeds.wholeBodyArg === undefined || !hasTemplate(b)));
  if (bodyExample !== undefined) {
    if (seeds.wholeBodyArg !== undefined) {
      setOwn(args, seeds.wholeBodyArg, bodyExample);
      fromSpec++;
    } else if (isObject(bodyExample)) {
      for (const key of Object.keys(bodyExample)) {
        const arg = seeds.bodyArgs.get(key);
        if (arg === undefined || hasTemplate(bodyExample[key])) continue;
        setOwn(args, arg, bodyExample[key]);
        fromSpec++;
      }
    }
  }
  if (fromSpec === 0) return undefined;
  const synth = synthesizedArgs(op, values);
  for (const name of Object.keys(synth)) if (!Object.hasOwn(args, name)) setOwn(args, name, synth[name]);
  return args;
}

/**
 * Whether `check` accepts `args` but for the importer's own placeholders: each error is at a place where execute_tool
 * finds a placeholder (findPlaceholders, with the operation's `inputSchema`), which a pattern, format or maxLength may
 * refuse. The same function decides both, so an example kept here is one execute_tool refuses until it is filled in.
 */
function acceptable(check: ValidateFunction, args: Record<string, unknown>, inputSchema: JsonSchema): boolean {
  if (check(args)) return true;
  const errors = check.errors ?? [];
  if (errors.length === 0) return false;
  const at = new Set(findPlaceholders(args, inputSchema).map((p) => p.pointer));
  return errors.every((e) => at.has(e.instancePath));
}

/**
 * The examples for `op`, each validated with `check` (the compiled inputSchema; acceptable): the spec's example when
 * it validates, else a synthesized one when that validates, else none. When the example carries optional
 * arguments and its required arguments alone also validate, that shorter call comes first: describe_tools Level 2
 * shows the first example (the least an agent must send), Level 3 shows them all.
 */
export function buildExamples(op: Operation, check: ValidateFunction, values: SpecValues = NO_VALUES): OperationExample[] {
  const fromSpec = specArgs(op, values);
  const validate = (args: Record<string, unknown>): boolean => acceptable(check, args, op.inputSchema);
  let chosen: OperationExample;
  if (fromSpec !== undefined && validate(fromSpec)) chosen = { summary: 'Example from the spec', args: fromSpec, source: 'spec' };
  else {
    const synth = synthesizedArgs(op, values);
    if (!validate(synth)) return [];
    chosen = { args: synth, source: 'synthesized' };
  }
  const required = new Set(op.inputSchema.required ?? []);
  // a wrapped body's required fields belong in the least call (wrappedBody): the spec's body, else one synthesized
  const wrapped = wrappedBody(op);
  const withBody = wrapped !== undefined && !Object.hasOwn(chosen.args, wrapped.arg) ? { ...chosen.args, [wrapped.arg]: wrapped.value } : undefined;
  if (withBody !== undefined && validate(withBody)) chosen = { ...chosen, args: withBody };
  if (wrapped !== undefined && Object.hasOwn(chosen.args, wrapped.arg)) required.add(wrapped.arg);
  // a multipart file field's example is its placeholder, never text or a made-up file (filePartArgs)
  const filed = filePartArgs(op, chosen.args);
  if (filed !== undefined && validate(filed)) chosen = { ...chosen, args: filed };
  const keys = Object.keys(chosen.args);
  if (keys.every((k) => required.has(k))) return [chosen];
  const minimal: Record<string, unknown> = {};
  for (const k of keys) if (required.has(k)) setOwn(minimal, k, chosen.args[k]);
  if (!validate(minimal)) return [chosen];
  return [{ summary: 'Required arguments only', args: minimal, source: chosen.source }, chosen];
}

/** Argument names that mean a different thing in every operation: one operation's example says nothing of another's. */
const CONTEXTUAL_NAMES = new Set(['id', 'ids', 'key', 'name', 'type', 'body', 'value', 'data']);

/**
 * The spec's own example values of parameters by `<in>:<name>` (`path:owner`), first seen in document order: a
 * parameter's `example(s)`, else its schema's `examples`/`default`. Only strings and numbers; used where another
 * operation's parameter of the same name and location has none of its own. Names whose meaning depends on the path
 * (`id`, `name`, ...) are not shared.
 */
export function specExampleValues(operations: readonly Operation[]): Map<string, string | number> {
  const out = new Map<string, string | number>();
  const offer = (name: string, v: unknown): void => {
    if (!CONTEXTUAL_NAMES.has(name.slice(name.indexOf(':') + 1).toLowerCase()) && !out.has(name) && (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) && v !== '' && !hasTemplate(v)) out.set(name, v);
  };
  for (const op of operations) {
    const seeds = new Map((exampleSeeds(op)?.params ?? []).map((p) => [p.arg, p.values[0]]));
    for (const b of op.bindings) {
      if (b.in === 'body') continue;
      const key = `${b.in}:${b.name}`;
      offer(key, seeds.get(b.arg));
      const schema = op.inputSchema.properties[b.arg];
      if (!isObject(schema)) continue;
      if (Array.isArray(schema.examples)) offer(key, schema.examples[0]);
      offer(key, schema.default);
    }
  }
  return out;
}
