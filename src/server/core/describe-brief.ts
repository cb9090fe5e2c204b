// The short forms of Level 2 (SEEDS.md §3, "enough to decide and to call"): the API's text cut to its first
// sentences, each parameter as one `type[, required]` string (with `from` where the registry knows which operations
// give its value), and what the call returns in one line. Pure functions of the operation; no I/O.
import type { CredentialStatus } from '../../execution/auth.js';
import { resolveRef } from '../../execution/expected.js';
import { bodyMediaKind } from '../../execution/media-kind.js';
import type { JsonSchema, Operation } from '../../types.js';
import type { CatalogEntry } from './catalogs.js';
import { cleanText, oneLine, sentences } from './text.js';

/** A credential as the one-line forms word it: credentialStatus's (`source` and `envSet` when asked for). */
type WordedCredential = Pick<CredentialStatus, 'scheme' | 'envVars' | 'set' | 'source' | 'envSet' | 'format'>;

/** At most this many response fields in Level 2's `returns` (Level 3 lists up to 20). */
const BRIEF_FIELDS = 4;
/** Level 2's description: its first sentence, a second one only when the first is shorter than BRIEF_SHORT characters. */
const BRIEF_SHORT = 40;
const BRIEF_CHARS = 110;
/** Level 2 shows this many of a parameter's sources (`from`); Level 3 all the registry has (at most 3). */
const BRIEF_SOURCES = 3;
/** An enum with more values than this is shown by its count. */
const ENUM_SHOWN = 8;

/** How many `$ref`s a type label follows (a chain of named types; a cycle stops here as `object`). */
const REF_HOPS = 4;

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

/** Level 2 lists an object argument's fields up to about this many characters, then says how many it has. */
const FIELDS_CHARS = 160;
/** An operation's object arguments share this many characters of field lists at Level 2 (fieldLabels). */
const OPERATION_FIELDS_CHARS = 400;
/** A oneOf's object alternatives share this many characters of field lists. */
const ALTERNATIVES_CHARS = 240;
/** An object's required fields are named past FIELDS_CHARS, up to this many. */
const REQUIRED_SHOWN = 8;
/** A field name longer than this is cut in a label (names are the API's text). */
const FIELD_NAME_CHARS = 40;

/**
 * How a label reads a schema. `fields`: an object lists its fields one level deep, required ones marked, and each
 * alternative of a oneOf/anyOf does the same (Level 2's arguments: GitHub's whole-body `body`, SoundCloud's wrapped
 * `playlist`); nested objects stay `object`. `files`: a string the schema marks binary is a file, and the label says
 * how to pass one (the argument is a multipart or binary body's: execution takes a `data:` URL or a file object there).
 */
export interface LabelOptions {
  fields?: boolean;
  files?: boolean;
  /** The characters an object's field list may take (FIELDS_CHARS, shared out among a oneOf's alternatives). */
  fieldChars?: number;
}

/** How an agent passes a file (src/execution/files.ts reads both forms). */
export const FILE_LABEL = 'file (a data: URL, or {base64, filename, contentType})';

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
  else if (Array.isArray(alternatives)) t = alternativesLabel(alternatives, defs, hops, options);
  else if (typeof schema.$ref === 'string') t = 'object';
  else t = 'any';
  if (t === 'object' && options.fields === true) t = objectLabel(schema, defs, hops, options);
  // nested labels never list fields (one level), but a file stays a file
  const inner: LabelOptions = options.files === true ? { files: true } : {};
  if (t === 'array' && schema.items && typeof schema.items === 'object') t = `array<${typeLabel(schema.items as JsonSchema, defs, hops, inner)}>`;
  const en = schema.enum;
  if (Array.isArray(en) && en.length > 0 && en.length <= ENUM_SHOWN) t += ` (${en.map(enumValue).join('|').slice(0, 120)})`;
  else if (Array.isArray(en) && en.length > ENUM_SHOWN) t += ` (${en.length} allowed values; see detail "full")`;
  return t;
}

/** Whether a schema marks a string as file content (what src/execution/files.ts treats as a file in a multipart body). */
function binaryMarked(s: Exclude<JsonSchema, boolean>): boolean {
  return s.format === 'binary' || s.format === 'byte' || typeof s.contentMediaType === 'string' || typeof s.contentEncoding === 'string';
}

/**
 * An object argument at Level 2: its fields one level deep (fieldsLabel); a `type: object` whose shapes are a
 * oneOf/anyOf's alternatives, each alternative's (GitHub's "either subject_digests or attestation_ids"); a map
 * (`additionalProperties` only) as `object{any key: <its values' label>}`; else `object`.
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
  return 'object';
}

/** An object's properties and required names, its own and its allOf parts' (named types followed, REF_HOPS at most). */
function objectShape(schema: Exclude<JsonSchema, boolean>, defs: unknown): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const add = (s: JsonSchema | undefined, depth: number): void => {
    if (s === undefined || typeof s === 'boolean' || depth > REF_HOPS) return;
    const named = s.type === undefined ? referenced(s, typeof defs === 'object' && defs !== null ? (defs as Record<string, JsonSchema>) : undefined) : undefined;
    if (named !== undefined && typeof s.$ref === 'string') return add(named, depth + 1);
    const props = s.properties;
    if (props !== null && typeof props === 'object') {
      for (const [k, v] of Object.entries(props as Record<string, JsonSchema>)) if (!Object.hasOwn(properties, k)) Object.defineProperty(properties, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
    if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') required.add(r);
    if (Array.isArray(s.allOf)) for (const part of s.allOf) add(part as JsonSchema, depth + 1);
  };
  add(schema, 0);
  return { properties, required };
}

/**
 * An object's fields, one level: `{name: string, required; labels: array<string>}`, required ones first; past
 * `options.fieldChars` (FIELDS_CHARS), `{...; ...} (23 fields; see parameter)` (describe_tools' `parameter` gives the
 * whole schema). Nested objects read `object`; a file stays a file.
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
  return parts.length < ordered.length ? `{${parts.join('; ')}; ...} (${ordered.length} fields; see parameter)` : `{${parts.join('; ')}}`;
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
  return labels.length > 4 ? `${labels.slice(0, 4).join(' | ')} | ...` : labels.join(' | ');
}

/**
 * Level 2's `api_text`, one string: the description's first sentence (a second one when the first is short), led
 * by the summary when the description does not already say it; the summary alone when there is no description.
 */
export function briefText(op: Operation): string {
  const summary = oneLine(op.summary, 120);
  const first = sentences(op.description, 1, BRIEF_CHARS);
  const description = first.length < BRIEF_SHORT ? sentences(op.description, 2, BRIEF_CHARS) : first;
  if (description === '') return summary;
  const words = (t: string): string[] => t.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2);
  const said = new Set(words(description));
  // "Create an issue" is said by "Any user ... can create an issue": every word of the summary is in the description
  if (summary === '' || words(summary).every((w) => said.has(w) || said.has(w.replace(/s$/, '')) || said.has(`${w}s`))) return description;
  return `${summary.replace(/[.!?]$/, '')}. ${description}`;
}

/** A parameter as Level 2 shows it: `type[, required]`, or that and the operations that give its value. */
export type ParameterLine = string | { type: string; from: string[] };

/**
 * Every argument in one line each, by name: its type label and whether it is required; an entity parameter whose
 * value other operations give carries `from` (public names, those the server does not serve left out).
 */
export function parameterLines(entry: CatalogEntry, known?: (name: string) => boolean): Record<string, ParameterLine> {
  const op = entry.op;
  const sources = parameterSources(entry, known);
  const out: Record<string, ParameterLine> = {};
  const labels = fieldLabels(op);
  for (const b of op.bindings) {
    const type = (labels.get(b.arg) ?? argumentLabel(op, b.arg, false)) + (b.required ? ', required' : '');
    const from = sources[b.arg]?.slice(0, BRIEF_SOURCES);
    const line: ParameterLine = from !== undefined ? { type, from } : type;
    Object.defineProperty(out, b.arg, { value: line, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Level 2's labels of the operation's arguments, objects with their fields, within OPERATION_FIELDS_CHARS of field
 * lists for the whole operation (Stripe's PostCheckoutSessions has 18 object arguments): past it, optional objects lose
 * their fields, the last first, and read `object` (the instruction then names the `parameter` call).
 */
function fieldLabels(op: Operation): Map<string, string> {
  const rows = op.bindings.map((b) => ({ b, full: argumentLabel(op, b.arg, true), bare: argumentLabel(op, b.arg, false) }));
  let extra = rows.reduce((n, r) => n + r.full.length - r.bare.length, 0);
  const out = new Map(rows.map((r) => [r.b.arg, r.full]));
  for (const r of [...rows].reverse()) {
    if (extra <= OPERATION_FIELDS_CHARS) break;
    if (r.b.required || r.full === r.bare) continue;
    out.set(r.b.arg, r.bare);
    extra -= r.full.length - r.bare.length;
  }
  return out;
}

/**
 * An argument's type label: a file argument says how to pass a file (the operation sends a multipart or binary body:
 * its binary-marked fields, or a binary body's whole-body argument, are files); with `fields` (Level 2), an object
 * lists its fields one level deep.
 */
export function argumentLabel(op: Operation, arg: string, fields: boolean): string {
  const binding = op.bindings.find((b) => b.arg === arg);
  const kind = binding?.in === 'body' ? bodyMediaKind(op) : undefined;
  if (kind === 'binary' && op.requestBody?.mode === 'whole') return FILE_LABEL;
  return typeLabel(op.inputSchema.properties[arg], op.inputSchema.$defs, 0, { fields, files: kind !== undefined });
}

/**
 * The Level 2 arguments whose fields their line does not all show: a list cut at its cap (`see parameter`), an
 * object with no fields known (`object`, a free-form one or a spec's broken schema). describe's instruction names them.
 */
export function unshownFields(lines: Record<string, ParameterLine>): string[] {
  return Object.entries(lines)
    .filter(([, line]) => {
      const label = (typeof line === 'string' ? line : line.type).replace(/, required$/, '');
      return label.includes(' fields; see parameter)') || topLevelAlternatives(label).includes('object');
    })
    .map(([arg]) => arg);
}

/** A label's alternatives (`a | b`), not those inside `array<…>`, `{…}` or `(…)`. */
function topLevelAlternatives(label: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < label.length; i++) {
    const c = label[i];
    if (c === '<' || c === '{' || c === '(') depth++;
    else if (c === '>' || c === '}' || c === ')') depth--;
    else if (depth === 0 && label.startsWith(' | ', i)) {
      out.push(label.slice(start, i));
      start = i + 3;
    }
  }
  out.push(label.slice(start));
  return out;
}

/**
 * The registry's `paramSources` of the entry's operation under the names the server serves: with several
 * catalogs names carry the catalog's prefix; a name `known` refuses (filtered out at serve time) is left out.
 */
export function parameterSources(entry: CatalogEntry, known?: (name: string) => boolean): Record<string, string[]> {
  const sources = entry.op.paramSources;
  const out: Record<string, string[]> = {};
  if (sources === undefined) return out;
  const prefix = entry.op.name.endsWith(entry.localName) ? entry.op.name.slice(0, entry.op.name.length - entry.localName.length) : '';
  for (const [arg, names] of Object.entries(sources)) {
    const served = names.map((n) => prefix + n).filter((n) => known === undefined || known(n));
    if (served.length > 0) Object.defineProperty(out, arg, { value: served, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** What the call returns in one line: status, type and the first fields, identifiers first (`201 object: id, number, ...`). */
export function briefReturns(op: Operation): string {
  const r = op.response;
  if (!r) return 'Not documented.';
  const head = [r.status, r.type].filter(Boolean).join(' ');
  if (r.fields.length === 0) return head;
  const ids = r.fields.filter((f) => IDENTIFIER_FIELD.test(f));
  const ordered = [...ids, ...r.fields.filter((f) => !IDENTIFIER_FIELD.test(f))];
  const shown = ordered.slice(0, BRIEF_FIELDS);
  const more = r.fields.length - shown.length;
  return `${head}: ${shown.join(', ')}${more > 0 ? ', ...' : ''}`;
}

/** Field names that identify a thing (what a later call usually needs): `id`, `user_id`, `userId`, `name`, `number`, `key`, `slug`. */
const IDENTIFIER_FIELD = /^(id|name|number|key|slug|uuid|title)$|(_id|Id|_key|_number)$/;

/**
 * Level 2's `credentials` in one line: the environment variables each accepted scheme reads and whether they are
 * set (`GITHUB_TOKEN (not set)`; `A_USERNAME + A_PASSWORD (set) or A_TOKEN (not set)`; a token from this request's
 * X-Upstream-Token: `A_TOKEN (not set; this request's X-Upstream-Token is used)`); `none` when the operation
 * needs none. Level 3 keeps the structured list.
 */
export function credentialsLine(status: ReadonlyArray<WordedCredential>): string {
  if (status.length === 0) return 'none';
  return status.map((s) => `${credentialWords(s)}${noteworthyFormat(s.format)}`).join(' or ');
}

/**
 * Level 2's `credentials` in one line with the API's structure kept: the schemes of one security requirement are all
 * needed (`A_API_KEY (set) and A_TOKEN (not set)`), requirements are alternatives, joined by `or` (one of several
 * schemes in parentheses); `none` when the operation needs none. An empty (optional) requirement is not listed, but
 * makes each scheme that is not set read optional (`A_TOKEN (optional)`; set, it reads `(set)`): also the default bearer of an API that declares
 * no credential. The value format is the short one (briefFormat): Level 3 has the whole of it.
 */
export function requirementsLine(alternatives: ReadonlyArray<ReadonlyArray<WordedCredential>>): string {
  const needed = alternatives.filter((alt) => alt.length > 0);
  const optional = needed.length < alternatives.length;
  const lines = [...new Set(needed.map((alt) => {
    const all = alt.map((s) => `${credentialWords(s, optional)}${briefFormat(s.format)}`).join(' and ');
    return alt.length > 1 && needed.length > 1 ? `(${all})` : all;
  }))];
  return lines.length > 0 ? lines.join(' or ') : 'none';
}

/**
 * One credential in words: `PETSTORE_TOKEN (set)`, `(not set)`, or, where this request's X-Upstream-Token supplies
 * it, `(not set; this request's X-Upstream-Token is used)` (`(set; …)` when the env var is set too), so that a token
 * from the header never reads as its env var being set. A token that takes a basic scheme's place but is no
 * `user:password` leaves the scheme without a value even when its env vars are set (resolveAuth does not fall back
 * to them): `(set, but not used: …)`. `optional`: the call may go without it: not set, it reads `(optional)` (no
 * shorter than `(not set)`: the line is paid on every describe), set, `(set)`, as it is sent then.
 */
function credentialWords(s: WordedCredential, optional = false): string {
  const name = s.envVars.length > 0 ? s.envVars.join(' + ') : s.scheme;
  if (s.source === 'header') return `${name} (${s.envSet === true ? 'set' : 'not set'}; this request's X-Upstream-Token is used)`;
  if (!s.set && s.envSet === true) return `${name} (set, but not used: this request's X-Upstream-Token takes its place and is not user:password)`;
  if (optional && !s.set) return `${name} (optional)`;
  return `${name} (${s.set ? 'set' : 'not set'})`;
}

/**
 * The value format where it is not the usual one: a bearer token or a user name and password need no words, an API
 * key does (which header or parameter, and whether the value carries a scheme word).
 */
function noteworthyFormat(format: string | undefined): string {
  if (format === undefined || format.startsWith('the token alone') || format.startsWith('the user name')) return '';
  return `: ${format}`;
}

/**
 * noteworthyFormat for Level 2, without the operator's advice (a config-file key; Level 3's `format` has it, once per
 * scheme): a whole Authorization header value reads `: the whole Authorization header value, sent as is`, a
 * configured prefix drops its config key.
 */
function briefFormat(format: string | undefined): string {
  const full = noteworthyFormat(format);
  if (full.startsWith(': the whole Authorization header value')) return ': the whole Authorization header value, sent as is';
  return full.replace(/ \(catalogs\.[^()]*\.credentialPrefix\)$/, '');
}
