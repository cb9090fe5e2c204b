// Example calls for each operation: the spec's own example values where it has them, else values synthesized
// from the argument schema. An example is kept only if it validates against the operation's inputSchema, so
// what describe shows an agent is always a call that passes validation.
import type { ValidateFunction } from 'ajv';
import type { JsonSchema, Operation, OperationExample } from '../types.js';
import { exampleSeeds } from './operations.js';
import { isObject, own, setOwn } from './pointer.js';

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': 'https://example.com',
  iri: 'https://example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'aGVsbG8=',
  binary: 'hello',
  duration: 'P1D',
  'json-pointer': '/a',
};

/** Plausible strings for common argument names (GitHub-style owner/repo, ids). */
function nameHint(arg: string): string | undefined {
  const a = arg.toLowerCase();
  if (/^(owner|org|username|user|login|account)$/.test(a)) return 'octocat';
  if (/^(repo|repository|repo_name)$/.test(a)) return 'hello-world';
  if (/(^|_)(sha|commit_sha)$/.test(a)) return '6dcb09b5b57875f334f61aebed695e2e4193db5e';
  if (/^(ref|branch|base|head)$/.test(a)) return 'main';
  if (/(^|_)id$/.test(a)) return 'id_123';
  return undefined;
}

/** Index of the `)` closing the group that opens at `open`, or -1. */
function closingParen(p: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The first top-level alternative of a pattern fragment. */
function firstBranch(p: string): string {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return p.slice(0, i);
  }
  return p;
}

const ESCAPES: Record<string, string> = { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };

/**
 * A string matching a simple regular expression (literals, classes, groups, alternation, quantifiers), taking the
 * first alternative and the minimum repetition (at least one). Best effort: callers check the result.
 */
export function stringFromPattern(pattern: string, depth = 0): string {
  if (depth > 8) return '';
  const p = firstBranch(pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, ''));
  let out = '';
  for (let i = 0; i < p.length; ) {
    let atom = '';
    const c = p[i] as string;
    if (c === '(') {
      const end = closingParen(p, i);
      if (end === -1) return out;
      atom = stringFromPattern(p.slice(i + 1, end).replace(/^\?(:|<?[=!]|<[A-Za-z]\w*>)/, ''), depth + 1);
      i = end + 1;
    } else if (c === '[') {
      const end = p.indexOf(']', i + 2);
      if (end === -1) return out;
      const body = p.slice(i + 1, end);
      atom = body.startsWith('^') ? 'x' : body[0] === '\\' ? (ESCAPES[body[1] ?? ''] ?? body[1] ?? 'a') : (body[0] ?? 'a');
      i = end + 1;
    } else if (c === '\\') {
      const n = p[i + 1] ?? '';
      atom = ESCAPES[n] ?? n;
      i += 2;
    } else if (c === '^' || c === '$') {
      i++;
      continue;
    } else {
      atom = c === '.' ? 'a' : c;
      i++;
    }
    let times = 1;
    const q = /^(\{(\d+)(,\d*)?\}|[+*?])\??/.exec(p.slice(i));
    if (q) {
      if (q[2] !== undefined) times = Math.max(Number(q[2]), 1);
      i += q[0].length;
    }
    out += atom.repeat(Math.min(times, 256));
  }
  return out;
}

/**
 * A value for `schema` (resolving `#/$defs/...` against `defs`): const, first example, default, first enum
 * value, else one built from type and format within the schema's bounds. Objects get their required
 * properties only. Bounded depth, so recursive schemas terminate.
 */
export function synthesize(schema: JsonSchema | undefined, defs: Record<string, unknown>, hint = '', depth = 0): unknown {
  if (schema === undefined || schema === true) return hint ? (nameHint(hint) ?? 'example') : 'example';
  if (schema === false || depth > 12) return undefined;
  const s = schema;
  const ref = s.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const name = ref.slice('#/$defs/'.length).replace(/~1/g, '/').replace(/~0/g, '~');
    return synthesize(own(defs, name) as JsonSchema | undefined, defs, hint, depth + 1);
  }
  if (Object.hasOwn(s, 'const')) return s.const;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (Object.hasOwn(s, 'default') && s.default !== null) return s.default;
  if (Array.isArray(s.enum)) {
    const first = s.enum.find((v) => v !== null);
    if (first !== undefined) return first;
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const parts = s.allOf.map((p) => synthesize(p as JsonSchema, defs, hint, depth + 1));
    if (parts.every((p) => isObject(p))) return Object.assign({}, ...parts) as unknown;
    return parts[0];
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
      return synthesize(option as JsonSchema, defs, hint, depth + 1);
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
      const out: unknown[] = prefix.map((p) => synthesize(p as JsonSchema, defs, '', depth + 1));
      const count = Math.max(min, out.length, 1);
      while (out.length < count) out.push(synthesize(s.items as JsonSchema | undefined, defs, '', depth + 1));
      return s.uniqueItems === true && out.length > 1 ? out.slice(0, 1) : out;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isObject(s.properties) ? s.properties : {};
      const required = Array.isArray(s.required) ? s.required : [];
      for (const r of required) {
        if (typeof r !== 'string') continue;
        const v = synthesize(own(props, r) as JsonSchema | undefined, defs, r, depth + 1);
        if (v !== undefined) setOwn(out, r, v);
      }
      return out;
    }
    default: {
      const fmt = typeof s.format === 'string' ? FORMAT_SAMPLES[s.format] : undefined;
      let str = fmt ?? nameHint(hint) ?? 'example';
      if (typeof s.pattern === 'string' && !matches(s.pattern, str)) {
        const fromPattern = stringFromPattern(s.pattern);
        if (matches(s.pattern, fromPattern)) return fromPattern;
      }
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      if (str.length < min) str = str.padEnd(min, 'x');
      if (typeof s.maxLength === 'number' && str.length > s.maxLength) str = str.slice(0, Math.max(s.maxLength, min));
      return str;
    }
  }
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

/** Required arguments, synthesized. */
function synthesizedArgs(op: Operation): Record<string, unknown> {
  const defs = (op.inputSchema.$defs as Record<string, unknown> | undefined) ?? {};
  const args: Record<string, unknown> = {};
  for (const name of op.inputSchema.required ?? []) {
    const v = synthesize(own(op.inputSchema.properties, name) as JsonSchema | undefined, defs, name);
    if (v !== undefined) setOwn(args, name, v);
  }
  return args;
}

/** Arguments assembled from the spec's example values, missing required ones synthesized; or undefined. */
function specArgs(op: Operation): Record<string, unknown> | undefined {
  const seeds = exampleSeeds(op);
  if (!seeds) return undefined;
  const args: Record<string, unknown> = {};
  let fromSpec = 0;
  for (const { arg, values } of seeds.params) {
    if (values.length > 0 && values[0] !== undefined) {
      setOwn(args, arg, values[0]);
      fromSpec++;
    }
  }
  const bodyExample = seeds.body.find((b) => b !== undefined);
  if (bodyExample !== undefined) {
    if (seeds.wholeBodyArg !== undefined) {
      setOwn(args, seeds.wholeBodyArg, bodyExample);
      fromSpec++;
    } else if (isObject(bodyExample)) {
      for (const key of Object.keys(bodyExample)) {
        const arg = seeds.bodyArgs.get(key);
        if (arg === undefined) continue;
        setOwn(args, arg, bodyExample[key]);
        fromSpec++;
      }
    }
  }
  if (fromSpec === 0) return undefined;
  const synth = synthesizedArgs(op);
  for (const name of Object.keys(synth)) if (!Object.hasOwn(args, name)) setOwn(args, name, synth[name]);
  return args;
}

/**
 * The examples for `op`, each validated with `validate` (the compiled inputSchema): the spec's example when
 * it validates, else a synthesized one when that validates, else none.
 */
export function buildExamples(op: Operation, validate: ValidateFunction): OperationExample[] {
  const fromSpec = specArgs(op);
  if (fromSpec !== undefined && validate(fromSpec)) return [{ summary: 'Example from the spec', args: fromSpec, source: 'spec' }];
  const synth = synthesizedArgs(op);
  if (validate(synth)) return [{ args: synth, source: 'synthesized' }];
  return [];
}
