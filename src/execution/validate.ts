// Argument validation before any request: size caps, the JSON-string client quirk, unsafe integers, then Ajv
// (one compile per operation schema, all errors) turned into field errors with fixes an agent can apply.
// Policy (E5): no type coercion, no defaults inserted, nothing removed — what validates is exactly what is sent.
import { createHash } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../schema/ajv.js';
import { suggestNames } from '../registry/catalog.js';
import type { JsonSchema, Operation } from '../types.js';
import type { FieldError, ValidationOutcome } from './types.js';

/** Size caps applied before Ajv (E4). */
export const ARG_LIMITS = { maxJsonBytes: 1_000_000, maxDepth: 32, maxArrayItems: 10_000, maxErrors: 20 } as const;

let sharedAjv = createAjv();
const cache = new Map<string, ValidateFunction | Error>();

function schemaKey(op: Operation): string {
  const hash = createHash('sha1').update(JSON.stringify(op.inputSchema)).digest('base64url');
  return `${op.name}\u0000${hash}`;
}

/** The compiled validator for an operation (cached by name + schema hash; same `$id` twice never crashes, E6). */
function validatorFor(op: Operation): ValidateFunction | Error {
  const key = schemaKey(op);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let v: ValidateFunction | Error;
  try {
    v = sharedAjv.compile(op.inputSchema);
  } catch (first) {
    // Another schema registered the same $id (or the instance is polluted): compile in a fresh instance.
    try {
      v = createAjv().compile(op.inputSchema);
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

function pointer(parts: Array<string | number>): string {
  return parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
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

function resolveRef(root: Record<string, unknown>, schema: JsonSchema | undefined): Record<string, unknown> | undefined {
  let s = schema;
  for (let i = 0; i < 8 && s !== undefined && typeof s === 'object'; i++) {
    const ref = s.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return s;
    let cur: unknown = root;
    for (const part of ref.slice(2).split('/')) {
      cur = (cur as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    s = cur as JsonSchema | undefined;
  }
  return typeof s === 'object' ? s : undefined;
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

/** The subschema at an instance path (properties/items only; best effort, for messages). */
function schemaAt(root: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  let s: Record<string, unknown> | undefined = root;
  const parts = path === '' ? [] : path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const part of parts) {
    s = resolveRef(root, s);
    if (s === undefined) return undefined;
    const props = s.properties as Record<string, JsonSchema> | undefined;
    if (props !== undefined && Object.prototype.hasOwnProperty.call(props, part)) s = resolveRef(root, props[part]);
    else if (s.items !== undefined && /^\d+$/.test(part)) s = resolveRef(root, s.items as JsonSchema);
    else return undefined;
  }
  return resolveRef(root, s);
}

/** A small excerpt of a schema for an error message (no descriptions, capped). */
function excerpt(schema: Record<string, unknown> | undefined): unknown {
  if (schema === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of ['type', 'enum', 'const', 'format', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'required']) {
    if (schema[k] !== undefined) out[k] = schema[k];
  }
  if (schema.properties !== null && typeof schema.properties === 'object') out.properties = Object.keys(schema.properties).slice(0, 30);
  if (schema.items !== undefined && typeof schema.items === 'object') out.items = excerpt(schema.items as Record<string, unknown>);
  const text = JSON.stringify(out);
  if (text.length <= 600) return out;
  delete out.properties;
  delete out.enum;
  return out;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

function valueAt(args: unknown, path: string): unknown {
  if (path === '') return args;
  let cur: unknown = args;
  for (const part of path.slice(1).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
  }
  return cur;
}

function toFieldError(e: ErrorObject, root: Record<string, unknown>, args: unknown): FieldError | undefined {
  const path = e.instancePath;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const prop = String(p.missingProperty);
      const full = `${path}${pointer([prop])}`;
      return { path: full, message: 'required property is missing', expected: excerpt(schemaAt(root, full)) };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const prop = String(p.additionalProperty ?? p.unevaluatedProperty);
      const props = Object.keys((schemaAt(root, path)?.properties as Record<string, unknown> | undefined) ?? {});
      const guess = suggestNames(prop, props, 1)[0];
      return {
        path: `${path}${pointer([prop])}`,
        message: 'unknown property',
        expected: props.length <= 40 ? { properties: props } : undefined,
        ...(guess !== undefined ? { suggestion: `did you mean ${JSON.stringify(guess)}?` } : {}),
      };
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]) ?? [];
      const v = valueAt(args, path);
      const strings = allowed.filter((a): a is string => typeof a === 'string');
      const guess = typeof v === 'string' ? suggestNames(v, strings, 1)[0] : undefined;
      return {
        path,
        message: `${describeValue(v)} is not one of the allowed values`,
        expected: allowed.length <= 50 ? allowed : [...allowed.slice(0, 50), '…'],
        ...(guess !== undefined ? { suggestion: `use ${JSON.stringify(guess)}` } : {}),
      };
    }
    case 'type': {
      const v = valueAt(args, path);
      const want = p.type as string | string[];
      const wants = Array.isArray(want) ? want : [want];
      let suggestion: string | undefined;
      if (typeof v === 'string' && (wants.includes('integer') || wants.includes('number')) && v.trim() !== '' && !Number.isNaN(Number(v))) {
        suggestion = `send ${v} as a number, not a string (no type coercion)`;
      } else if (typeof v === 'string' && wants.includes('boolean') && (v === 'true' || v === 'false')) {
        suggestion = `send ${v} as a boolean, not a string`;
      } else if (typeof v !== 'string' && wants.length === 1 && wants[0] === 'string' && v !== null && typeof v !== 'object') {
        suggestion = `send it as the string ${JSON.stringify(String(v))}`;
      }
      return { path, message: `${describeValue(v)} must be ${wants.join(' or ')}`, expected: excerpt(schemaAt(root, path)) ?? wants, ...(suggestion ? { suggestion } : {}) };
    }
    case 'if':
      return undefined;
    default:
      return { path, message: e.message ?? e.keyword, expected: excerpt(schemaAt(root, path)) ?? p };
  }
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
  const unwrapped = unwrapJsonStrings(op, input as Record<string, unknown>);
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
  const validate = validatorFor(op);
  if (validate instanceof Error) {
    return { ok: false, errors: [{ path: '', message: `the input schema of ${op.name} cannot be compiled (${validate.message}); the catalog needs a re-import` }] };
  }
  if (validate(unwrapped) && unknown.length === 0) return { ok: true, args: unwrapped };
  const root = op.inputSchema as Record<string, unknown>;
  const errors: FieldError[] = [...unknown];
  const seen = new Set<string>(unknown.map((e) => `${e.path}\u0000${e.message}`));
  for (const e of validate.errors ?? []) {
    const fe = toFieldError(e, root, unwrapped);
    if (fe === undefined) continue;
    const key = `${fe.path}\u0000${fe.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(fe);
    if (errors.length >= ARG_LIMITS.maxErrors) break;
  }
  if (errors.length === 0) errors.push({ path: '', message: 'arguments do not match the input schema' });
  return { ok: false, errors };
}
