// The short forms of Level 2 (SEEDS.md §3, "enough to decide and to call"): the API's text cut to its first
// sentences, each parameter as one `type[, required]` string (with `from` where the registry knows which operations
// give its value), and what the call returns in one line. Pure functions of the operation; no I/O.
import type { CredentialStatus } from '../../execution/auth.js';
import { resolveRef } from '../../execution/expected.js';
import type { JsonSchema, Operation } from '../../types.js';
import type { CatalogEntry } from './catalogs.js';
import { oneLine, sentences } from './text.js';

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

/**
 * A compact type label: `string`, `integer`, `array<string>`, `string (a|b|c)`, `string (""|exempt)`. A named
 * type (`$ref` into the operation's `defs`) reads as what it names, so an enum behind a `$ref` shows its values.
 */
export function typeLabel(schema: JsonSchema | undefined, defs?: unknown, hops = 0): string {
  if (schema === undefined || typeof schema === 'boolean') return 'any';
  if (schema.type === undefined && hops < REF_HOPS) {
    const named = referenced(schema, typeof defs === 'object' && defs !== null ? (defs as Record<string, JsonSchema>) : undefined);
    if (named !== undefined) return typeLabel(named, defs, hops + 1);
  }
  let t: string;
  const type = schema.type;
  if (Array.isArray(type)) t = type.filter((x) => x !== 'null').join('|') || 'null';
  else if (typeof type === 'string') t = type;
  else if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) t = alternativesLabel((schema.oneOf ?? schema.anyOf) as JsonSchema[], defs, hops);
  else if (schema.properties) t = 'object';
  else if (typeof schema.$ref === 'string') t = 'object';
  else t = 'any';
  if (t === 'array' && schema.items && typeof schema.items === 'object') t = `array<${typeLabel(schema.items as JsonSchema, defs, hops)}>`;
  const en = schema.enum;
  if (Array.isArray(en) && en.length > 0 && en.length <= ENUM_SHOWN) t += ` (${en.map(enumValue).join('|').slice(0, 120)})`;
  else if (Array.isArray(en) && en.length > ENUM_SHOWN) t += ` (${en.length} allowed values; see detail "full")`;
  return t;
}

/** An enum value in a type label: as it reads (`open`, `3`, `null`), but the empty string as `""`, which else vanishes. */
function enumValue(v: unknown): string {
  return v === '' ? '""' : String(v);
}

/** `string | integer` for a oneOf/anyOf: each alternative's own label, deduplicated, `null` left out, at most 4. */
function alternativesLabel(alternatives: JsonSchema[], defs: unknown, hops: number): string {
  const labels = [...new Set(alternatives.map((a) => typeLabel(a, defs, hops)).filter((l) => l !== 'null'))];
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
  for (const b of op.bindings) {
    const type = typeLabel(op.inputSchema.properties[b.arg], op.inputSchema.$defs) + (b.required ? ', required' : '');
    const from = sources[b.arg]?.slice(0, BRIEF_SOURCES);
    const line: ParameterLine = from !== undefined ? { type, from } : type;
    Object.defineProperty(out, b.arg, { value: line, enumerable: true, writable: true, configurable: true });
  }
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
 * schemes in parentheses); `none` when the operation needs none. An empty (optional) requirement is left out.
 */
export function requirementsLine(alternatives: ReadonlyArray<ReadonlyArray<WordedCredential>>): string {
  const needed = alternatives.filter((alt) => alt.length > 0);
  const lines = [...new Set(needed.map((alt) => {
    const all = alt.map((s) => `${credentialWords(s)}${noteworthyFormat(s.format)}`).join(' and ');
    return alt.length > 1 && needed.length > 1 ? `(${all})` : all;
  }))];
  return lines.length > 0 ? lines.join(' or ') : 'none';
}

/**
 * One credential in words: `PETSTORE_TOKEN (set)`, `(not set)`, or, where this request's X-Upstream-Token supplies
 * it, `(not set; this request's X-Upstream-Token is used)` (`(set; …)` when the env var is set too), so that a token
 * from the header never reads as its env var being set. A token that takes a basic scheme's place but is no
 * `user:password` leaves the scheme without a value even when its env vars are set (resolveAuth does not fall back
 * to them): `(set, but not used: …)`.
 */
function credentialWords(s: WordedCredential): string {
  const name = s.envVars.length > 0 ? s.envVars.join(' + ') : s.scheme;
  if (s.source === 'header') return `${name} (${s.envSet === true ? 'set' : 'not set'}; this request's X-Upstream-Token is used)`;
  if (!s.set && s.envSet === true) return `${name} (set, but not used: this request's X-Upstream-Token takes its place and is not user:password)`;
  return `${name} (${s.set ? 'set' : 'not set'})`;
}

/**
 * The value format at Level 2 only where it is not the usual one: a bearer token or a user name and password
 * need no words, an API key does (which header or parameter, and whether the value carries a scheme word).
 */
function noteworthyFormat(format: string | undefined): string {
  if (format === undefined || format.startsWith('the token alone') || format.startsWith('the user name')) return '';
  return `: ${format}`;
}
