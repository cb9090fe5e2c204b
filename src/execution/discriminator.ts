// Field errors of a tagged union: a oneOf/anyOf whose alternatives each fix one property to their own values (an
// OpenAPI discriminator's `kind: cat` / `kind: dog`, as `const` or `enum`). Ajv reports every alternative's failures,
// so `{"kind": "cat", "bark": true}` read "kind must be dog" (the last alternative's) beside "matches none": advice
// to switch variant. The value's own tag picks the alternative, and only that alternative's errors are reported
// ("meow is missing"); a tag no alternative has is one error listing every allowed tag. The tag values are read from
// the alternatives (any catalog); where an alternative leaves the tag a plain string, from the discriminator's
// `mapping` the importer keeps beside the union (src/importer/discriminator.ts: catalogs imported since).
// The mapping also decides what is accepted (settleDiscriminated): per OAS the tag selects the alternative, so a body
// whose tag names one alternative but which matches another (`{"petType": "bird", "meow": 1}`, bird mapped to Bird,
// the body a valid Cat) is refused, as is a tag the mapping does not have (Ajv alone accepts both: the oneOf passes),
// and a body matching the selected alternative is accepted though it matches another too (ix-api's allow/deny rules,
// whose Deny is a subset of Allow: Ajv's strict oneOf refuses every such body). Unions reached through a `$ref` are
// settled by the value's path, not Ajv's schemaPaths (relative to the `$ref`'d schema there), so they report the
// selected alternative's errors as inline ones do.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../types.js';
import { jsonTypeOf, typesAllow } from '../schema/json-types.js';
import { resolveRef } from '../schema/refs.js';
import { excerpt, schemaAtPointer } from './expected.js';
import type { FieldError } from './types.js';

type Schema = Record<string, unknown>;

function parentPointer(schemaPath: string): string {
  const cut = schemaPath.lastIndexOf('/');
  return cut <= 0 ? '#' : schemaPath.slice(0, cut);
}

function valueAt(args: unknown, path: string): unknown {
  if (path === '') return args;
  let cur: unknown = args;
  for (const part of path.slice(1).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur !== null && typeof cur === 'object' && Object.hasOwn(cur, key) ? (cur as Record<string, unknown>)[key] : undefined;
  }
  return cur;
}

/** The values an alternative allows for property `key` (its `const` or `enum`, also in an allOf member), else undefined. */
function tagValues(root: Schema, branch: Schema, key: string, depth = 0): unknown[] | undefined {
  const props = branch.properties;
  const own = props !== null && typeof props === 'object' && Object.hasOwn(props, key) ? resolveRef(root, (props as Record<string, JsonSchema>)[key]) : undefined;
  if (own !== undefined) {
    if (Object.hasOwn(own, 'const')) return [own.const];
    if (Array.isArray(own.enum)) return own.enum as unknown[];
  }
  if (depth < 3 && Array.isArray(branch.allOf)) {
    for (const member of branch.allOf as JsonSchema[]) {
      const m = resolveRef(root, member);
      const found = m !== undefined ? tagValues(root, m, key, depth + 1) : undefined;
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The values a union's discriminator maps to alternative `branch` (the union's own `discriminator.mapping`, whose
 * targets are the alternatives' `$ref`s) when its tag property is `key`; else undefined.
 */
function mappedValues(union: Schema | undefined, branch: unknown, key: string): unknown[] | undefined {
  const d = union?.discriminator as { propertyName?: unknown; mapping?: unknown } | undefined;
  const ref = branch !== null && typeof branch === 'object' ? (branch as { $ref?: unknown }).$ref : undefined;
  if (d?.propertyName !== key || d.mapping === null || typeof d.mapping !== 'object' || typeof ref !== 'string') return undefined;
  const values = Object.entries(d.mapping as Record<string, unknown>).filter(([, to]) => to === ref).map(([value]) => value);
  return values.length > 0 ? values : undefined;
}

/** The schemaPath prefixes under which Ajv reports alternative `i`'s errors: its place in the list, and its `$ref` targets. */
function branchPrefixes(root: Schema, unionPath: string, branch: unknown, i: number): string[] {
  const out = [`${unionPath}/${i}/`];
  let b: unknown = branch;
  for (let hop = 0; hop < 8 && b !== null && typeof b === 'object' && typeof (b as { $ref?: unknown }).$ref === 'string'; hop++) {
    const ref = (b as { $ref: string }).$ref;
    if (!ref.startsWith('#/')) break;
    out.push(`${ref}/`);
    b = schemaAtPointer(root, ref);
  }
  return out;
}

function escapeKey(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}

export interface TaggedUnions {
  /** Errors not to report: the union's own, and the failures of alternatives the tag did not pick. */
  drop: Set<number>;
  /** Errors of the picked alternative: reported as they are, not folded into the union's. */
  keep: Set<number>;
  /** A tag no alternative allows: one error naming every allowed value. */
  extra: FieldError[];
}

/** Reads Ajv's errors (allErrors) for tagged unions; see the file comment. */
export function taggedUnions(root: Schema, errors: readonly ErrorObject[], args: unknown): TaggedUnions {
  const out: TaggedUnions = { drop: new Set(), keep: new Set(), extra: [] };
  errors.forEach((u, iu) => {
    if (u.keyword !== 'oneOf' && u.keyword !== 'anyOf') return;
    const value = valueAt(args, u.instancePath);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const union = schemaAtPointer(root, parentPointer(u.schemaPath));
    const list = union?.[u.keyword];
    if (!Array.isArray(list) || list.length < 2) return;
    const branches = list.map((b) => resolveRef(root, b as JsonSchema));
    if (branches.some((b) => b === undefined)) return;
    for (const [key, tag] of Object.entries(value)) {
      if (typeof tag !== 'string' && typeof tag !== 'number' && typeof tag !== 'boolean') continue;
      const allowed = branches.map((b, i) => tagValues(root, b as Schema, key) ?? mappedValues(union, list[i], key));
      if (allowed.some((a) => a === undefined)) continue;
      const picked = allowed.flatMap((a, i) => ((a as unknown[]).includes(tag) ? [i] : []));
      if (picked.length > 1) continue;
      const prefixes = list.map((b, i) => branchPrefixes(root, u.schemaPath, b, i));
      const mine = picked.length === 1 ? prefixes[picked[0] as number] ?? [] : [];
      const others = prefixes.flat().filter((p) => !mine.includes(p));
      const under = (e: ErrorObject): boolean => e.instancePath === u.instancePath || e.instancePath.startsWith(`${u.instancePath}/`);
      const keep: number[] = [];
      const drop: number[] = [];
      errors.forEach((e, i) => {
        if (i === iu || !under(e)) return;
        if (mine.some((p) => e.schemaPath.startsWith(p))) keep.push(i);
        else if (others.some((p) => e.schemaPath.startsWith(p))) drop.push(i);
      });
      // The picked alternative's failures were not found (reported under a shared definition): say it as before.
      if (picked.length === 1 && keep.length === 0) return;
      for (const i of keep) out.keep.add(i);
      for (const i of [...drop, iu]) out.drop.add(i);
      if (picked.length === 0) {
        const values = [...new Set(allowed.flat())];
        out.extra.push({
          path: `${u.instancePath}/${escapeKey(key)}`,
          message: `${JSON.stringify(tag)} is not one of the allowed values of ${JSON.stringify(key)}, which selects the kind of object`,
          expected: values,
          suggestion: `set ${JSON.stringify(key)} to the kind meant (${values.map((v) => JSON.stringify(v)).join(', ')}) and pass the properties that kind requires`,
        });
      }
      return;
    }
  });
  return out;
}

/** How deep settleDiscriminated follows the value into the schema. */
const MAX_TAG_DEPTH = 32;
/** Most errors settleDiscriminated adds. */
const MAX_ADDED = 20;

/** Whether a schema's own `type` (if any) admits `v`. */
function admits(schema: Schema | undefined, v: unknown): boolean {
  if (schema === undefined) return false;
  const t = schema.type;
  if (t === undefined) return true;
  return typesAllow(Array.isArray(t) ? (t as unknown[]) : [t], jsonTypeOf(v));
}

/** What an alternative's validation failures say the value lacks: `wings is missing`, `/age must be integer`. */
function lacks(errors: readonly ErrorObject[]): string {
  const said = new Set<string>();
  for (const e of errors) {
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'required') said.add(`${JSON.stringify(String(p.missingProperty))} is missing`);
    else if (e.keyword === 'additionalProperties') said.add(`${JSON.stringify(String(p.additionalProperty))} is not one of its properties`);
    else if (e.keyword !== 'if' && e.keyword !== 'oneOf' && e.keyword !== 'anyOf') said.add(`${e.instancePath === '' ? 'the value' : e.instancePath.slice(1)} ${e.message ?? e.keyword}`);
    if (said.size >= 4) break;
  }
  return [...said].join('; ') || 'it does not match';
}

/** An alternative's verdict on a value (checkedErrors in field-errors.ts): error paths from the value. */
export interface Verdict {
  valid: boolean;
  errors: FieldError[];
}

/** What settleDiscriminated decided. */
export interface Settled {
  /** Ajv's errors a discriminated union accounts for: its own oneOf/anyOf error and its alternatives' failures. */
  drop: Set<ErrorObject>;
  /** The errors in their place (paths from `args`): the selected alternative's, or the tag's own. */
  add: FieldError[];
}

/** Ajv's identity of an error, the same whichever compiled function reports it (schemaPaths differ). */
function signature(e: ErrorObject, prefix = ''): string {
  return `${prefix}${e.instancePath}\u0000${e.keyword}\u0000${JSON.stringify(e.params)}`;
}

/**
 * Decides every oneOf/anyOf with a discriminator `mapping` (kept beside it by the importer) that `args` reaches and
 * whose tag property is a string, as OpenAPI does: the tag selects the alternative. `root` is the schema Ajv
 * validated `args` against, `raw` its errors; `validatorAt(ref)` validates against root's `#/$defs/...` schema, and
 * `verdict(ref, value, ajv)` is that alternative's verdict from its validator's errors `ajv`, with its own
 * discriminated unions settled.
 * - The tag selects an alternative the value matches: the union holds, even where the value also matches another
 *   (overlapping alternatives, which Ajv's strict oneOf refuses: "matches 2 of the alternatives").
 * - It selects one the value does not match: that alternative's errors; where another alternative matches, one error
 *   at the tag naming the selected alternative and what it lacks (Ajv alone accepts that value).
 * - A tag the mapping does not have: one error listing the mapped values.
 * Where Ajv failed the union, its error and its alternatives' failures (matched by instance path, keyword and
 * parameters, as often as the alternatives report them: a `$ref`'d union's schemaPaths are relative to itself) are
 * dropped. Alternatives written inline, which a discriminator does not select (OAS), keep their errors. The value is
 * followed through properties, additionalProperties, items, allOf, `$ref`s, and a union without a discriminator
 * only where one alternative alone admits the value's type; a union whose tag is missing is left to Ajv's errors.
 */
export function settleDiscriminated(
  root: Schema,
  args: unknown,
  raw: readonly ErrorObject[],
  validatorAt: (ref: string) => ValidateFunction | undefined,
  verdict: (ref: string, value: unknown, ajv: readonly ErrorObject[]) => Verdict,
): Settled {
  const out: Settled = { drop: new Set(), add: [] };
  const prefixed = (errors: readonly FieldError[], path: string): FieldError[] => errors.map((e) => ({ ...e, path: `${path}${e.path}` }));
  /** Settles one union at `path`; false where an alternative's validator cannot be compiled (then Ajv decides). */
  const settle = (kind: 'oneOf' | 'anyOf', key: string, tag: string, mapping: Record<string, unknown>, value: Record<string, unknown>, path: string): boolean => {
    const targets = [...new Set(Object.values(mapping).filter((t): t is string => typeof t === 'string'))];
    const runs: Array<{ target: string; ok: boolean; errors: ErrorObject[] }> = [];
    for (const target of targets) {
      const check = validatorAt(target);
      if (check === undefined) return false;
      const ok = check(value) === true;
      runs.push({ target, ok, errors: ok ? [] : [...(check.errors ?? [])] });
    }
    // Ajv keeps the alternatives' errors only where it failed the union.
    const own = raw.find((e) => e.keyword === kind && e.instancePath === path && !out.drop.has(e));
    if (own !== undefined) {
      out.drop.add(own);
      const counts = new Map<string, number>();
      for (const r of runs) for (const e of r.errors) counts.set(signature(e, path), (counts.get(signature(e, path)) ?? 0) + 1);
      for (const e of raw) {
        if (out.drop.has(e) || (e.instancePath !== path && !e.instancePath.startsWith(`${path}/`))) continue;
        const n = counts.get(signature(e)) ?? 0;
        if (n === 0) continue;
        out.drop.add(e);
        counts.set(signature(e), n - 1);
      }
    }
    const tagPath = `${path}/${escapeKey(key)}`;
    const values = Object.keys(mapping);
    const selected = Object.hasOwn(mapping, tag) ? mapping[tag] : undefined;
    if (typeof selected !== 'string') {
      out.add.push({
        path: tagPath,
        message: `${JSON.stringify(tag)} is not one of the allowed values of ${JSON.stringify(key)}, which selects the kind of object`,
        expected: values,
        suggestion: `set ${JSON.stringify(key)} to the kind meant (${values.map((v) => JSON.stringify(v)).join(', ')}) and pass the properties that kind requires`,
      });
      return true;
    }
    // every mapped alternative was run above: the selected one's errors are not computed again
    const run = runs.find((r) => r.target === selected);
    if (run === undefined) return false;
    const mine = verdict(selected, value, run.errors);
    if (mine.valid) return true;
    const name = selected.split('/').pop() ?? selected;
    const others = runs.filter((r) => r.ok && r.target !== selected).map((r) => r.target);
    if (!run.ok && others.length > 0) {
      const matching = values.filter((v) => others.includes(mapping[v] as string));
      out.add.push({
        path: tagPath,
        message: `${JSON.stringify(key)} ${JSON.stringify(tag)} selects ${name}, and the value does not match ${name}: ${lacks(run.errors)} (the tag, not the other properties, decides the kind of object)`,
        expected: excerpt(root, resolveRef(root, { $ref: selected })) ?? name,
        suggestion: `pass what ${name} requires, or set ${JSON.stringify(key)} to ${matching.map((v) => JSON.stringify(v)).join(' or ')} if the value is meant as that kind`,
      });
      return true;
    }
    out.add.push(...(mine.errors.length > 0 ? prefixed(mine.errors, path) : [{ path, message: `the value does not match ${name}, which ${JSON.stringify(key)} ${JSON.stringify(tag)} selects` }]));
    return true;
  };
  const visit = (node: JsonSchema | undefined, value: unknown, path: string, depth: number): void => {
    const s = resolveRef(root, node);
    if (s === undefined || depth > MAX_TAG_DEPTH || out.add.length >= MAX_ADDED) return;
    if (Array.isArray(s.allOf)) for (const m of s.allOf as JsonSchema[]) visit(m, value, path, depth + 1);
    const kind = Array.isArray(s.oneOf) ? 'oneOf' : Array.isArray(s.anyOf) ? 'anyOf' : undefined;
    const list = kind === undefined ? [] : (s[kind] as JsonSchema[]);
    const d = s.discriminator as { propertyName?: unknown; mapping?: unknown } | undefined;
    const isObj = value !== null && typeof value === 'object' && !Array.isArray(value);
    if (kind !== undefined && isObj && typeof d?.propertyName === 'string' && d.mapping !== null && typeof d.mapping === 'object') {
      const tag = Object.hasOwn(value, d.propertyName) ? (value as Record<string, unknown>)[d.propertyName] : undefined;
      if (typeof tag === 'string' && settle(kind, d.propertyName, tag, d.mapping as Record<string, unknown>, value as Record<string, unknown>, path)) return;
    } else if (kind !== undefined) {
      const fits = list.filter((b) => admits(resolveRef(root, b), value));
      if (fits.length === 1) visit(fits[0], value, path, depth + 1);
    }
    if (isObj) {
      const props = s.properties !== null && typeof s.properties === 'object' ? (s.properties as Record<string, JsonSchema>) : {};
      for (const [k, v] of Object.entries(value)) {
        if (Object.hasOwn(props, k)) visit(props[k], v, `${path}/${escapeKey(k)}`, depth + 1);
        else if (s.additionalProperties !== null && typeof s.additionalProperties === 'object') visit(s.additionalProperties as JsonSchema, v, `${path}/${escapeKey(k)}`, depth + 1);
      }
    } else if (Array.isArray(value)) {
      const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]) : [];
      value.forEach((item, i) => {
        const sub = i < prefix.length ? prefix[i] : (s.items as JsonSchema | undefined);
        if (sub !== undefined && typeof sub === 'object') visit(sub, item, `${path}/${i}`, depth + 1);
      });
    }
  };
  visit(root as JsonSchema, args, '', 0);
  return out;
}
