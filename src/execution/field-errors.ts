// Ajv's errors (allErrors) as the field errors an agent reads: one per problem, at the argument's JSON pointer, with
// `expected` (expected.ts) and, where one is likely, a suggestion. A failed oneOf/anyOf is one error, not one per
// alternative (absorbBranchErrors); a tagged union reports the alternative its tag picks (taggedUnions), and a
// discriminated one is decided by its tag (settleDiscriminated, whose selected alternative is checked here again:
// checkedErrors / verdictOf). Split from validate.ts, which owns the caps, the compile cache and the argument quirks.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { suggestNames } from '../registry/suggest.js';
import type { JsonSchema } from '../types.js';
import { settleDiscriminated, taggedUnions } from './discriminator.js';
import { alternativesLabel, excerpt, schemaAt, schemaAtPointer } from './expected.js';
import type { FieldError } from './types.js';

/** Most field errors reported for one call. */
export const MAX_FIELD_ERRORS = 20;
/** How many discriminated unions deep a selected alternative is checked with its own unions settled. */
const MAX_UNION_DEPTH = 8;

export function pointer(parts: Array<string | number>): string {
  return parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export function describeValue(v: unknown): string {
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
      const holder = unionHolder(root, e);
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
  return absorbed;}


/**
 * The schema holding a failed oneOf/anyOf. Ajv reports the keyword of a `$ref`'d schema that holds `$ref`s itself
 * relative to that schema (`#/oneOf`), which read from the root names the input schema: then the schema at the
 * value's path, when it holds the keyword.
 */
function unionHolder(root: Record<string, unknown>, e: ErrorObject): Record<string, unknown> | undefined {
  const byPointer = schemaAtPointer(root, parentPointer(e.schemaPath));
  if (Array.isArray(byPointer?.[e.keyword]) && (byPointer !== root || e.instancePath === '')) return byPointer;
  const atPath = schemaAt(root, e.instancePath);
  return Array.isArray(atPath?.[e.keyword]) ? atPath : byPointer;
}

/** Validators of `#/$defs/...` refs of the input schema (validate.ts's defValidators). */
export type DefValidators = (ref: string) => ValidateFunction | undefined;

/** Whether a value is valid under the schema, OpenAPI's discriminators applied, and if not its field errors. */
export interface Checked {
  valid: boolean;
  errors: FieldError[];
}

/**
 * Ajv's errors `raw` for `value` under `root` as field errors. With `defs` (the schema holds a discriminator), every
 * discriminated union the value reaches is decided by its tag first (settleDiscriminated): Ajv's errors it accounts
 * for are replaced by the selected alternative's verdict (verdictOf), so a value Ajv's strict oneOf refused can be
 * valid, and one it accepted can be refused.
 */
export function checkedErrors(root: Record<string, unknown>, raw: readonly ErrorObject[], value: unknown, defs: DefValidators | undefined, depth = 0): Checked {
  const settled = defs === undefined ? undefined : settleDiscriminated(root, value, raw, defs, (ref, v, ajv) => verdictOf(root, ref, v, ajv, defs, depth + 1));
  const rest = settled === undefined ? [...raw] : raw.filter((e) => !settled.drop.has(e));
  const added = settled?.add ?? [];
  if (rest.length === 0 && added.length === 0) return { valid: true, errors: [] };
  // A tagged union (alternatives fixing the tag by const/enum): only the alternative the value's tag picks is reported.
  const tagged = taggedUnions(root, rest, value);
  const errors: FieldError[] = [...tagged.extra, ...added];
  const seen = new Set<string>(errors.map((e) => `${e.path}\u0000${e.message}`));
  const absorbed = absorbBranchErrors(root, rest);
  for (const i of tagged.keep) absorbed.delete(i);
  // Suggestions of alternatives folded into their union ("send it as the string ..."), by the union's index.
  const carried = new Map<number, string[]>();
  for (let i = 0; i < rest.length; i++) {
    if (tagged.drop.has(i)) continue;
    const fe = toFieldError(rest[i] as ErrorObject, root, value);
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
    if (errors.length >= MAX_FIELD_ERRORS) break;
  }
  return { valid: false, errors };
}

/**
 * The verdict of alternative `ref` (a `#/$defs/...` ref of `root`) on `value`: Ajv's own (`ajv`, the errors of its
 * validator already run on `value`: none when it passed), with the alternative's own discriminated unions settled (up
 * to MAX_UNION_DEPTH of them nested); error paths from `value`.
 */
function verdictOf(root: Record<string, unknown>, ref: string, value: unknown, ajv: readonly ErrorObject[], defs: DefValidators, depth: number): Checked {
  const raw = [...ajv];
  // the schema the validator compiled: errors' `expected` are read in it
  const sub = { $defs: root.$defs, $ref: ref };
  return checkedErrors(sub, raw, value, depth > MAX_UNION_DEPTH ? undefined : defs, depth);
}
