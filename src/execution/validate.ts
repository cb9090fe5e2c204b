// Argument validation before any request: size caps, the JSON-string client quirk, unsafe integers, then Ajv (one
// compile per operation schema, all errors) turned into field errors with fixes an agent can apply (field-errors.ts).
// Policy (E5): no type coercion, no defaults inserted, nothing removed — what validates is exactly what is sent; the
// one value filled in is a required argument's only allowed value, when it is not sent (withFixedArguments).
import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../schema/ajv.js';
import { suggestNames } from '../registry/suggest.js';
import type { JsonSchema, Operation } from '../types.js';
import { resolveRef } from '../schema/refs.js';
import { checkedErrors, describeValue, MAX_FIELD_ERRORS, pointer } from './field-errors.js';
import { fileInputSchema } from './files.js';
import { xmlBodyArg } from './media-kind.js';
import type { FieldError, ValidationOutcome } from './types.js';

/** Size caps applied before Ajv (E4). */
export const ARG_LIMITS = { maxJsonBytes: 1_000_000, maxDepth: 32, maxArrayItems: 10_000, maxErrors: MAX_FIELD_ERRORS } as const;

let sharedAjv = createAjv();
const cache = new Map<string, ValidateFunction | Error>();
/** Whether the schema of a validatorFor key holds a discriminator. */
const withTags = new Map<string, boolean>();

function schemaKey(name: string, schema: Operation['inputSchema']): string {
  const hash = createHash('sha1').update(JSON.stringify(schema)).digest('base64url');
  return `${name}\u0000${hash}`;
}

/**
 * The compiled validator for an operation's input schema as validation reads it (fileInputSchema: file arguments
 * also take the file object), or another schema; cached by `key` (name + schema hash: schemaKey); same `$id` twice
 * never crashes (E6).
 */
function validatorFor(key: string, schema: Operation['inputSchema']): ValidateFunction | Error {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let v: ValidateFunction | Error;
  try {
    v = sharedAjv.compile(schema);
  } catch (first) {
    // Another schema registered the same $id (or the instance is polluted): compile in a fresh instance.
    try {
      v = createAjv().compile(schema);
    } catch (err) {
      v = err instanceof Error ? err : new Error(String(first));
    }
  }
  if (cache.size > 5000) {
    cache.clear();
    sharedAjv = createAjv();
  }
  cache.set(key, v);
  return v;
}

/**
 * Validators of the `#/$defs/...` schemas of an input schema holding a discriminator, for settleDiscriminated (its
 * tag selects one), compiled on first use and cached with the schema's; undefined for a schema without a discriminator.
 */
function defValidators(key: string, schema: Operation['inputSchema']): ((ref: string) => ValidateFunction | undefined) | undefined {
  let has = withTags.get(key);
  if (has === undefined) {
    has = schema.$defs !== undefined && JSON.stringify(schema).includes('"discriminator":{');
    if (withTags.size > 5000) withTags.clear();
    withTags.set(key, has);
  }
  if (!has) return undefined;
  return (ref) => {
    const v = validatorFor(`${key}\u0000${ref}`, { $defs: schema.$defs, $ref: ref } as unknown as Operation['inputSchema']);
    return v instanceof Error ? undefined : v;
  };
}

/** Walks args once: depth, array sizes, unsafe integers. Returns the first problems found. */
function structuralErrors(args: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (v: unknown, path: Array<string | number>, depth: number): void => {
    if (errors.length >= ARG_LIMITS.maxErrors) return;
    if (depth > ARG_LIMITS.maxDepth) {
      errors.push({ path: pointer(path), message: `nested deeper than ${ARG_LIMITS.maxDepth} levels`, expected: `depth <= ${ARG_LIMITS.maxDepth}` });
      return;
    }
    if (typeof v === 'number') {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
        errors.push({
          path: pointer(path),
          message: `integer ${String(v)} is beyond JavaScript's exact range (±9007199254740991) and would be sent altered`,
          suggestion: 'pass it as a string if the API accepts one, or use a smaller value',
        });
      }
      return;
    }
    if (Array.isArray(v)) {
      if (v.length > ARG_LIMITS.maxArrayItems) {
        errors.push({ path: pointer(path), message: `array of ${v.length} items is over the limit of ${ARG_LIMITS.maxArrayItems}`, expected: `at most ${ARG_LIMITS.maxArrayItems} items` });
        return;
      }
      v.forEach((item, i) => visit(item, [...path, i], depth + 1));
      return;
    }
    if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) visit(item, [...path, k], depth + 1);
    }
  };
  visit(args, [], 0);
  return errors;
}

/** Does the schema (possibly a union) accept an object or an array? */
function expectsStructured(root: Record<string, unknown>, schema: JsonSchema | undefined): boolean {
  const s = resolveRef(root, schema);
  if (s === undefined) return false;
  const types = Array.isArray(s.type) ? (s.type as unknown[]) : s.type === undefined ? [] : [s.type];
  if (types.includes('string')) return false;
  if (types.includes('object') || types.includes('array')) return true;
  if (s.properties !== undefined || s.items !== undefined) return true;
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    const list = s[k];
    if (Array.isArray(list) && list.some((sub) => expectsStructured(root, sub as JsonSchema))) return true;
  }
  return false;
}

/** Parses top-level string values where the schema expects an object or array (some clients send JSON text). */
function unwrapJsonStrings(op: Operation, args: Record<string, unknown>): Record<string, unknown> {
  const root = op.inputSchema as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(args)) {
    if (typeof v !== 'string') continue;
    const t = v.trimStart();
    if (!(t.startsWith('{') || t.startsWith('['))) continue;
    if (!expectsStructured(root, op.inputSchema.properties[k])) continue;
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed !== null && typeof parsed === 'object') {
        out ??= { ...args };
        out[k] = parsed;
      }
    } catch {
      // Not JSON: leave it for Ajv to report.
    }
  }
  return out ?? args;
}

/**
 * The one value a schema allows (`const`, or an `enum` of one string or number), else undefined. Never a boolean: a
 * required `confirm: true` is an API's own acknowledgement, which stays the agent's to send.
 */
function onlyValue(schema: JsonSchema | undefined): string | number | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum : [];
  const [value] = values;
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/**
 * A required top-level argument with exactly one allowed value, when it is not sent, is that value: nothing else
 * could be sent, so the agent need not (AWS's `Action=DeleteVpc` and `Version=2016-11-15` pinned by the path key, a
 * path's literal `?funcs=GetLatestNews`, an API's own one-value enum). A value that is sent is validated as it is.
 */
function withFixedArguments(op: Operation, args: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of op.inputSchema.required ?? []) {
    if (Object.prototype.hasOwnProperty.call(args, key)) continue;
    const value = onlyValue(op.inputSchema.properties[key]);
    if (value === undefined) continue;
    out ??= { ...args };
    out[key] = value;
  }
  return out ?? args;
}

/**
 * Validates the agent's arguments against the operation's inputSchema. Accepts `undefined`/`null` as `{}` and a
 * JSON string of the whole object; returns the (possibly JSON-unwrapped) args or every field error.
 */
export function validateArguments(op: Operation, args: unknown): ValidationOutcome {
  let input: unknown = args ?? {};
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input) as unknown;
    } catch {
      return { ok: false, errors: [{ path: '', message: 'arguments must be a JSON object, got a string that is not JSON', expected: 'object' }] };
    }
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: [{ path: '', message: `arguments must be an object, got ${describeValue(input)}`, expected: 'object' }] };
  }
  // Size caps before anything expensive (E4): structure first (cheap, stops at the first huge array).
  const structural = structuralErrors(input);
  if (structural.length > 0) return { ok: false, errors: structural };
  let size: number;
  try {
    size = JSON.stringify(input).length;
  } catch {
    return { ok: false, errors: [{ path: '', message: 'arguments are not plain JSON (cycle or unsupported value)' }] };
  }
  if (size > ARG_LIMITS.maxJsonBytes) {
    return { ok: false, errors: [{ path: '', message: `arguments are ${size} characters of JSON, over the limit of ${ARG_LIMITS.maxJsonBytes}`, expected: `at most ${ARG_LIMITS.maxJsonBytes} characters` }] };
  }
  const unwrapped = withFixedArguments(op, unwrapJsonStrings(op, input as Record<string, unknown>));
  if (unwrapped !== input) {
    const again = structuralErrors(unwrapped);
    if (again.length > 0) return { ok: false, errors: again };
  }
  // Top-level arguments the operation does not know would be silently dropped by the request builder:
  // report them (with "did you mean") whatever the schema says about additionalProperties.
  const known = Object.keys(op.inputSchema.properties);
  const unknown: FieldError[] = [];
  if (op.inputSchema.additionalProperties !== true && op.inputSchema.patternProperties === undefined) {
    for (const k of Object.keys(unwrapped)) {
      if (Object.prototype.hasOwnProperty.call(op.inputSchema.properties, k)) continue;
      const guess = suggestNames(k, known, 1)[0];
      unknown.push({
        path: pointer([k]),
        message: 'unknown property',
        expected: known.length <= 40 ? { properties: known } : undefined,
        ...(guess !== undefined ? { suggestion: `did you mean ${JSON.stringify(guess)}?` } : {}),
      });
    }
  }
  const schema = fileInputSchema(op);
  const key = schemaKey(op.name, schema);
  const validate = validatorFor(key, schema);
  if (validate instanceof Error) {
    return { ok: false, errors: [{ path: '', message: `the input schema of ${op.name} cannot be compiled (${validate.message}); the catalog needs a re-import` }] };
  }
  const valid = validate(unwrapped);
  const raw = valid ? [] : [...(validate.errors ?? [])];
  // A discriminator's tag selects the alternative (checkedErrors): a value Ajv's strict oneOf refuses because it also
  // matches another alternative is valid, and one Ajv accepts under another alternative is refused.
  const checked = checkedErrors(schema as Record<string, unknown>, raw, unwrapped, defValidators(key, schema));
  if (checked.valid && unknown.length === 0) return { ok: true, args: unwrapped };
  const seen = new Set<string>(unknown.map((e) => `${e.path}\u0000${e.message}`));
  const errors: FieldError[] = [...unknown, ...checked.errors.filter((e) => !seen.has(`${e.path}\u0000${e.message}`))].slice(0, ARG_LIMITS.maxErrors);
  if (errors.length === 0) errors.push({ path: '', message: 'arguments do not match the input schema' });
  // an XML body is the document itself (media-kind.ts): where its fields came as an object, say what to pass instead
  const xml = xmlBodyArg(op);
  const at = typeof xml === 'string' && typeof unwrapped[xml] !== 'string' ? errors.find((e) => e.path === pointer([xml])) : undefined;
  if (at !== undefined) at.message = `must be a string, the XML document (${op.requestBody?.mediaTypes[0] ?? 'XML'}) itself: pass the XML document as a string; the server does not turn arguments into XML`;
  return { ok: false, errors };
}
