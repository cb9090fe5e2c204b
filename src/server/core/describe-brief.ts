// The short forms of Level 2 (SEEDS.md §3, "enough to decide and to call"): the API's text cut to its first
// sentences, each parameter as one `type[, required]` string (with `from` where the registry knows which operations
// give its value), and what the call returns in one line. Pure functions of the operation; no I/O.
import type { CredentialStatus } from '../../execution/auth.js';
import { bodyMediaKind } from '../../execution/media-kind.js';
import type { Operation } from '../../types.js';
import type { CatalogEntry } from './catalogs.js';
import { FILE_LABEL, typeLabel, type LabelNotes } from './describe-labels.js';
import { oneLine, sentences } from './text.js';

export { FILE_LABEL, typeLabel };

/** A credential as the one-line forms word it: credentialStatus's (`source` and `envSet` when asked for). */
type WordedCredential = Pick<CredentialStatus, 'scheme' | 'envVars' | 'set' | 'source' | 'envSet' | 'format'>;

/** At most this many response fields in Level 2's `returns` (Level 3 lists up to 20). */
const BRIEF_FIELDS = 4;
/** Level 2's description: its first sentence, a second one only when the first is shorter than BRIEF_SHORT characters. */
const BRIEF_SHORT = 40;
const BRIEF_CHARS = 110;
/** Level 2 shows this many of a parameter's sources (`from`); Level 3 all the registry has (at most 3). */
const BRIEF_SOURCES = 3;
/** An operation's object arguments share this many characters of field lists at Level 2 (fieldLabels). */
const OPERATION_FIELDS_CHARS = 400;

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
    const type = (labels.get(b.arg)?.label ?? argumentLabel(op, b.arg, false)) + (b.required ? ', required' : '');
    const from = sources[b.arg]?.slice(0, BRIEF_SOURCES);
    const line: ParameterLine = from !== undefined ? { type, from } : type;
    Object.defineProperty(out, b.arg, { value: line, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** An argument's Level 2 label, and whether it leaves out fields the `parameter` call shows (LabelNotes, or bared). */
interface ArgumentLine {
  label: string;
  unshown: boolean;
}

const labelsOf = new WeakMap<Operation, Map<string, ArgumentLine>>();

/**
 * Level 2's labels of the operation's arguments, objects with their fields, within OPERATION_FIELDS_CHARS of field
 * lists for the whole operation (Stripe's PostCheckoutSessions has 18 object arguments): past it, optional objects lose
 * their fields, the last first, and read `object` (the instruction then names the `parameter` call). Each says
 * whether it shows all its fields, as the label was built (the label's text is the API's names and values).
 */
function fieldLabels(op: Operation): Map<string, ArgumentLine> {
  const cached = labelsOf.get(op);
  if (cached !== undefined) return cached;
  const rows = op.bindings.map((b) => {
    const notes: LabelNotes = { cut: false, unknown: false };
    const full = argumentLabel(op, b.arg, true, notes);
    return { b, full, bare: argumentLabel(op, b.arg, false), unshown: notes.cut || notes.unknown };
  });
  let extra = rows.reduce((n, r) => n + r.full.length - r.bare.length, 0);
  const out = new Map(rows.map((r) => [r.b.arg, { label: r.full, unshown: r.unshown }]));
  for (const r of [...rows].reverse()) {
    if (extra <= OPERATION_FIELDS_CHARS) break;
    if (r.b.required || r.full === r.bare) continue;
    out.set(r.b.arg, { label: r.bare, unshown: true });
    extra -= r.full.length - r.bare.length;
  }
  labelsOf.set(op, out);
  return out;
}

/**
 * An argument's type label: a file argument says how to pass a file (the operation sends a multipart or binary body:
 * its binary-marked fields, or a binary body's whole-body argument, are files); with `fields` (Level 2), an object
 * lists its fields one level deep, and `notes` records what it leaves out.
 */
export function argumentLabel(op: Operation, arg: string, fields: boolean, notes?: LabelNotes): string {
  const binding = op.bindings.find((b) => b.arg === arg);
  const kind = binding?.in === 'body' ? bodyMediaKind(op) : undefined;
  if (kind === 'binary' && op.requestBody?.mode === 'whole') return FILE_LABEL;
  return typeLabel(op.inputSchema.properties[arg], op.inputSchema.$defs, 0, { fields, files: kind !== undefined, ...(notes !== undefined ? { notes } : {}) });
}

/**
 * The Level 2 arguments of `op` whose fields their line does not all show: a list cut at its cap (`see parameter`), an
 * object with no fields known (`object`, a free-form one or a spec's broken schema), an object bared to fit the
 * operation's budget. describe's instruction names them.
 */
export function unshownFields(op: Operation): string[] {
  const labels = fieldLabels(op);
  return op.bindings.filter((b) => labels.get(b.arg)?.unshown === true).map((b) => b.arg);
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

/** The header that carries a caller's token, when none is named: the one of a server that serves one catalog. */
const UNBOUND_HEADER = 'X-Upstream-Token';

/**
 * The header a caller's token for `entry`'s catalog came in: with several catalogs served (operation names carry the
 * catalog's prefix) only `X-Upstream-Token-<catalog>` is that catalog's (src/server/upstream-tokens.ts); with one,
 * `X-Upstream-Token`, the header its README and banner name (the bound one is accepted there too).
 */
export function tokenHeaderOf(entry: CatalogEntry): string {
  return entry.op.name !== entry.localName ? `${UNBOUND_HEADER}-${entry.catalog.meta.name}` : UNBOUND_HEADER;
}

/**
 * Level 2's `credentials` in one line: the environment variables each accepted scheme reads and whether they are
 * set (`GITHUB_TOKEN (not set)`; `A_USERNAME + A_PASSWORD (set) or A_TOKEN (not set)`; a token from this request's
 * `header`: `A_TOKEN (not set; this request's X-Upstream-Token is used)`); `none` when the operation needs none.
 * Level 3 keeps the structured list.
 */
export function credentialsLine(status: ReadonlyArray<WordedCredential>, header = UNBOUND_HEADER): string {
  if (status.length === 0) return 'none';
  return status.map((s) => `${credentialWords(s, header)}${noteworthyFormat(s.format)}`).join(' or ');
}

/**
 * Level 2's `credentials` in one line with the API's structure kept: the schemes of one security requirement are all
 * needed (`A_API_KEY (set) and A_TOKEN (not set)`), requirements are alternatives, joined by `or` (one of several
 * schemes in parentheses); `none` when the operation needs none. An empty (optional) requirement is not listed, but
 * makes each scheme that is not set read optional (`A_TOKEN (optional)`; set, it reads `(set)`): also the default bearer of an API that declares
 * no credential. The value format is the short one (briefFormat): Level 3 has the whole of it.
 */
export function requirementsLine(alternatives: ReadonlyArray<ReadonlyArray<WordedCredential>>, header = UNBOUND_HEADER): string {
  const needed = alternatives.filter((alt) => alt.length > 0);
  const optional = needed.length < alternatives.length;
  const lines = [...new Set(needed.map((alt) => {
    const all = alt.map((s) => `${credentialWords(s, header, optional)}${briefFormat(s.format)}`).join(' and ');
    return alt.length > 1 && needed.length > 1 ? `(${all})` : all;
  }))];
  return lines.length > 0 ? lines.join(' or ') : 'none';
}

/**
 * One credential in words: `PETSTORE_TOKEN (set)`, `(not set)`, or, where the caller's token in this request's
 * `header` supplies it, `(not set; this request's X-Upstream-Token-petstore is used)` (`(set; …)` when the env var is
 * set too), so that a token from the header never reads as its env var being set, and the user is pointed at the
 * header that carried it (tokenHeaderOf). A token that takes a basic scheme's place but is no
 * `user:password` leaves the scheme without a value even when its env vars are set (resolveAuth does not fall back
 * to them): `(set, but not used: …)`. `optional`: the call may go without it: not set, it reads `(optional)` (no
 * shorter than `(not set)`: the line is paid on every describe), set, `(set)`, as it is sent then.
 */
function credentialWords(s: WordedCredential, header: string, optional = false): string {
  const name = s.envVars.length > 0 ? s.envVars.join(' + ') : s.scheme;
  if (s.source === 'header') return `${name} (${s.envSet === true ? 'set' : 'not set'}; this request's ${header} is used)`;
  if (!s.set && s.envSet === true) return `${name} (set, but not used: this request's ${header} takes its place and is not user:password)`;
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
