// Argument validation before any request: size caps, the JSON-string client quirk, unsafe integers, then Ajv
// (one compile per operation schema, all errors) turned into field errors with fixes an agent can apply.
// Policy (E5): no type coercion, no defaults inserted, nothing removed — what validates is exactly what is sent; the
// one value filled in is a required argument's only allowed value, when it is not sent (withFixedArguments).
import { createHash } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../schema/ajv.js';
import { suggestNames } from '../registry/suggest.js';
import type { JsonSchema, Operation } from '../types.js';
import { taggedUnions, tagMismatches } from './discriminator.js';
import { alternativesLabel, excerpt, resolveRef, schemaAt, schemaAtPointer } from './expected.js';
import { fileInputSchema } from './files.js';
import type { FieldError, ValidationOutcome } from './types.js';

/** Size caps applied before Ajv (E4). */
export const ARG_LIMITS = { maxJsonBytes: 1_000_000, maxDepth: 32, maxArrayItems: 10_000, maxErrors: 20 } as const;

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
 * Validators of the `#/$defs/...` schemas of an input schema holding a discriminator, for tagMismatches (its tag
 * selects one), compiled on first use and cached with the schema's; undefined for a schema without a discriminator.
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
      return { path: full, message: 'required property is missing', expected: excerpt(root, schemaAt(root, full)) };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const prop = String(p.additionalProperty ?? p.unevaluatedProperty);
      // The schema holding `additionalProperties: false` (a branch of an allOf, a $ref's target) names the properties.
      const holder = schemaAtPointer(root, parentPointer(e.schemaPath)) ?? schemaAt(root, path);
      const props = Object.keys((holder?.properties as Record<string, unknown> | undefined) ?? {});
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
      return { path, message: `${describeValue(v)} must be ${wants.join(' or ')}`, expected: excerpt(root, schemaAt(root, path)) ?? excerpt(root, schemaAtPointer(root, parentPointer(e.schemaPath))) ?? wants, ...(suggestion ? { suggestion } : {}) };
    }
    case 'oneOf':
    case 'anyOf': {
      // The alternatives' own failures (one per branch: "must be string", "must be integer") are folded into this
      // one error by absorbBranchErrors; here the value is compared with the list of alternatives.
      const holder = schemaAtPointer(root, parentPointer(e.schemaPath));
      const list = holder?.[e.keyword];
      const label = Array.isArray(list) ? alternativesLabel(root, list as JsonSchema[]) : 'the alternatives';
      const v = valueAt(args, path);
      const passing = Array.isArray(p.passingSchemas) ? (p.passingSchemas as number[]) : [];
      const message =
        passing.length > 1
          ? `${describeValue(v)} matches ${passing.length} of the alternatives (${label}) but must match exactly one`
          : `${describeValue(v)} matches none of the alternatives: ${label}`;
      return { path, message, expected: excerpt(root, holder) ?? excerpt(root, schemaAt(root, path)) ?? label };
    }
    case 'if':
      return undefined;
    default: {
      // The schema at the argument's path; else the one holding the failing keyword (under patternProperties,
      // additionalProperties, ...); else Ajv's parameters (`{"limit": 5}`), never an empty object.
      const params = Object.keys(p).length > 0 ? p : undefined;
      return { path, message: e.message ?? e.keyword, expected: excerpt(root, schemaAt(root, path)) ?? excerpt(root, schemaAtPointer(root, parentPointer(e.schemaPath))) ?? params };
    }
  }
}

/** `#/properties/x/oneOf` -> `#/properties/x`: the schema holding a keyword. */
function parentPointer(schemaPath: string): string {
  const cut = schemaPath.lastIndexOf('/');
  return cut <= 0 ? '#' : schemaPath.slice(0, cut);
}

/**
 * Ajv (allErrors) reports a failed oneOf/anyOf as each alternative's own failure at the same path ("must be
 * string", "must be integer": contradictory taken one by one) and then the union's error. Returns, for each such
 * alternative error, the index of the union error it belongs to: one under the union's schemaPath, or under the
 * target of an alternative that is a `$ref` (Ajv reports those at `#/$defs/...`). Errors deeper in the value and
 * sibling keywords of the union stay errors of their own.
 */
function absorbBranchErrors(root: Record<string, unknown>, errors: ErrorObject[]): Map<number, number> {
  const absorbed = new Map<number, number>();
  errors.forEach((u, iu) => {
    if (u.keyword !== 'oneOf' && u.keyword !== 'anyOf') return;
    const prefixes = [`${u.schemaPath}/`];
    const list = schemaAtPointer(root, parentPointer(u.schemaPath))?.[u.keyword];
    if (Array.isArray(list)) {
      for (const branch of list) {
        let b: unknown = branch;
        for (let hop = 0; hop < 8 && b !== null && typeof b === 'object' && typeof (b as { $ref?: unknown }).$ref === 'string'; hop++) {
          const ref = (b as { $ref: string }).$ref;
          if (!ref.startsWith('#/')) break;
          prefixes.push(`${ref}/`);
          b = schemaAtPointer(root, ref);
        }
      }
    }
    for (let i = 0; i < iu; i++) {
      const e = errors[i] as ErrorObject;
      if (absorbed.has(i) || e.instancePath !== u.instancePath) continue;
      if (prefixes.some((pre) => e.schemaPath.startsWith(pre))) absorbed.set(i, iu);
    }
  });
  return absorbed;
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
  const root = schema as Record<string, unknown>;
  // A discriminator's tag selects the alternative: a value Ajv accepts under another one is refused.
  const defs = defValidators(key, schema);
  const mismatched = defs === undefined ? [] : tagMismatches(root, unwrapped, defs);
  if (valid && unknown.length === 0 && mismatched.length === 0) return { ok: true, args: unwrapped };
  // A tagged union (discriminator): only the alternative the value's tag picks is reported.
  const tagged = taggedUnions(root, raw, unwrapped);
  const errors: FieldError[] = [...unknown, ...tagged.extra, ...mismatched];
  const seen = new Set<string>(errors.map((e) => `${e.path}\u0000${e.message}`));
  const absorbed = absorbBranchErrors(root, raw);
  for (const i of tagged.keep) absorbed.delete(i);
  // Suggestions of alternatives folded into their union ("send it as the string ..."), by the union's index.
  const carried = new Map<number, string[]>();
  for (let i = 0; i < raw.length; i++) {
    if (tagged.drop.has(i)) continue;
    const fe = toFieldError(raw[i] as ErrorObject, root, unwrapped);
    const own = carried.get(i) ?? [];
    if (fe !== undefined && fe.suggestion !== undefined) own.unshift(fe.suggestion);
    const union = absorbed.get(i);
    if (union !== undefined) {
      carried.set(union, [...(carried.get(union) ?? []), ...own]);
      continue;
    }
    if (fe === undefined) continue;
    const suggestions = [...new Set(own)];
    if (suggestions.length > 0) fe.suggestion = suggestions.join('; or ');
    const key = `${fe.path}\u0000${fe.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(fe);
    if (errors.length >= ARG_LIMITS.maxErrors) break;
  }
  if (errors.length === 0) errors.push({ path: '', message: 'arguments do not match the input schema' });
  return { ok: false, errors };
}
