// A schema whose own `example` (or `examples`) contradicts its declared `type`: LaunchDarkly's PatchOperation.value
// is `type: object` with the example "My resource name", and a JSON Patch's value is any JSON. Validating the type as
// written refuses what the API's own documentation shows, so the converted schema's type is widened by the example's
// JSON type(s), and nothing else changes (the other keywords stay; an object's `properties` do not bind a string).
// Only the schema's own example counts: not a parent's example, not its description. No contradiction: a string
// example that is the escaped text of a value of the declared type (OAS 3.0 allows a string for a value JSON cannot
// write naturally: `type: object, example: '{"a":1}'`, `type: integer, example: "42"`); an array's example that is one
// of its items; an items schema's example that is the whole array; an example of a schema with `enum` or `const`
// (those bind the value whatever the type says); a text parameter's (query, path, header: often its serialized form).
// Each widening is reported by the lint as LINT_EXAMPLE_TYPE (pointer, declared and example types), so the API's team
// can fix the spec.
import type { Diagnostic } from '../types.js';
import { jsonTypeOf, typesAllow } from '../schema/json-types.js';
import { getPointer, isObject } from './pointer.js';

/**
 * Whether `at` (a JSON pointer of `doc`) is in the schema of a parameter sent as text (query, path, header, cookie,
 * Swagger's formData): their examples are often the serialized form (`owner[]=octocat1,owner[]=octocat2` for an
 * array, GitHub's), not a JSON value, so they widen nothing. A Swagger 2.0 `in: body` parameter's schema is a body's.
 */
export function inTextParameter(doc: unknown, at: string): boolean {
  const parts = at.split('/');
  for (let i = parts.indexOf('parameters'); i >= 0 && i + 1 < parts.length; i = parts.indexOf('parameters', i + 1)) {
    const param = getPointer(doc, parts.slice(0, i + 2).join('/'));
    if (isObject(param) && typeof param.in === 'string' && param.in !== 'body') return true;
  }
  return false;
}

/** Examples of one schema looked at (the rest are not). */
const MAX_EXAMPLES = 10;

/** An items schema's example that is the whole array (LaunchDarkly's `tags: {items: {type: string, example: []}}`). */
function wholeArray(example: unknown, types: readonly string[], at: string): boolean {
  return at.endsWith('/items') && Array.isArray(example) && example.every((e) => typesAllow(types, jsonTypeOf(e)));
}


/** Whether `example` is a string holding the JSON text of a value one of `types` allows. */
function escapedForm(example: unknown, types: readonly string[]): boolean {
  if (typeof example !== 'string') return false;
  try {
    return typesAllow(types, jsonTypeOf(JSON.parse(example) as unknown));
  } catch {
    return false;
  }
}

/**
 * Widens `out.type` (the converted schema of the spec's schema at `at`, `types` its declared types) by the types of
 * `examples` (the schema's own) that contradict it, in place, and returns the lint's finding (LINT_EXAMPLE_TYPE),
 * or undefined when the examples fit.
 */
export function widenByExamples(out: Record<string, unknown>, types: readonly string[], examples: readonly unknown[], at: string): Diagnostic | undefined {
  if (types.length === 0 || Array.isArray(out.enum) || Object.hasOwn(out, 'const')) return undefined;
  // an array's example that is one item (GitHub's `dependencies: array of string, example "@actions/http-client"`)
  const items = isObject(out.items) ? out.items.type : undefined;
  const itemTypes = !types.includes('array') ? [] : typeof items === 'string' ? [items] : Array.isArray(items) ? (items as string[]) : [];
  const added: string[] = [];
  const shown: unknown[] = [];
  for (const example of examples.slice(0, MAX_EXAMPLES)) {
    if (example === undefined) continue;
    const t = jsonTypeOf(example);
    if (t === 'undefined' || t === 'function' || t === 'bigint' || t === 'symbol') continue;
    if (typesAllow(types, t) || escapedForm(example, types) || typesAllow(itemTypes, t) || wholeArray(example, types, at)) continue;
    const add = t === 'integer' ? 'number' : t;
    if (!added.includes(add) && !typesAllow([...types, ...added], add)) {
      added.push(add);
      shown.push(example);
    }
  }
  if (added.length === 0) return undefined;
  const all = [...types, ...added];
  out.type = all.length === 1 ? all[0] : all;
  const quoted = shown.map((e) => {
    const text = JSON.stringify(e);
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  });
  return {
    level: 'warning',
    code: 'LINT_EXAMPLE_TYPE',
    pointer: at,
    message: `the schema declares type ${types.join(' or ')} but its own example is ${added.map((t, i) => `${article(t)} ${t} (${quoted[i] ?? ''})`).join(' and ')}; ${added.join(' and ')} values are accepted here too, as the example shows (fix the type or the example in the spec)`,
  };
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? 'an' : 'a';
}
