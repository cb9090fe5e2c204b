// The agent-facing `x-api-catalog-*` extensions a spec or an overlay may set: on an operation hidden, name,
// summary, keywords, domain, destructive, read-only; on `info` the catalog's display title and description. Reads and checks
// them (a bad value is a warning and is ignored); the importer applies them. Nothing here reads files or knows
// about overlays. Any other `x-api-catalog-` key on those objects is a warning (EXTENSION_UNKNOWN, "did you mean"):
// a misspelt `x-api-catalog-hiden: true` would otherwise leave the operation served without a word.
import { closest, distance } from 'fastest-levenshtein';
import type { Diagnostic } from '../types.js';
import { METHODS } from './operations.js';
import { escapePointer, isObject, own } from './pointer.js';
import { MAX_NAME, MAX_SUMMARY_WORDS, cleanDescription, cleanLine, domainSlug, makeSummary, safeName } from './text.js';

export const EXT = {
  hidden: 'x-api-catalog-hidden',
  name: 'x-api-catalog-name',
  summary: 'x-api-catalog-summary',
  keywords: 'x-api-catalog-keywords',
  domain: 'x-api-catalog-domain',
  destructive: 'x-api-catalog-destructive',
  readOnly: 'x-api-catalog-read-only',
} as const;

/** The extensions on the Info Object: the catalog's display name and description. */
export const INFO_EXT = {
  title: 'x-api-catalog-title',
  description: 'x-api-catalog-description',
} as const;

/** Longest catalog display title and description, in characters (as for `info.title` / `info.description`). */
export const MAX_TITLE_CHARS = 200;
export const MAX_CATALOG_DESCRIPTION_CHARS = 1000;

/** At most this many keywords per operation, each at most MAX_KEYWORD_CHARS characters. */
export const MAX_KEYWORDS = 32;
export const MAX_KEYWORD_CHARS = 60;

/** What an operation's extensions ask for; a field is absent when the extension is absent or invalid. */
export interface AgentExtensions {
  hidden: boolean;
  /** The tool name agents use instead of the one derived from the operationId. */
  name?: string;
  summary?: string;
  keywords?: string[];
  domain?: string;
  destructive?: boolean;
  /** Whether the operation only reads (a POST that searches: true; a GET that changes something: false). */
  readOnly?: boolean;
}

/**
 * Reads the `x-api-catalog-*` extensions of one Operation Object (`at` is its JSON pointer). Invalid values add
 * an EXTENSION_INVALID warning naming the extension and are ignored.
 */
export function readAgentExtensions(op: Record<string, unknown>, at: string, diagnostics: Diagnostic[]): AgentExtensions {
  const out: AgentExtensions = { hidden: false };
  warnUnknown(op, at, Object.values(EXT), { keys: Object.values(INFO_EXT), where: 'the Info Object (target $.info)' }, diagnostics);
  const warn = (ext: string, message: string): void => {
    diagnostics.push({ level: 'warning', code: 'EXTENSION_INVALID', pointer: `${at}/${escapePointer(ext)}`, message: `${ext} ${message}; ignored` });
  };
  const hidden = own(op, EXT.hidden);
  if (hidden !== undefined) {
    if (typeof hidden === 'boolean') out.hidden = hidden;
    else warn(EXT.hidden, `must be true or false (found ${JSON.stringify(hidden)})`);
  }
  const name = own(op, EXT.name);
  if (name !== undefined) {
    const problem = toolNameProblem(name);
    if (problem !== undefined) warn(EXT.name, problem);
    else out.name = name as string;
  }
  const summary = own(op, EXT.summary);
  if (summary !== undefined) {
    const line = typeof summary === 'string' ? cleanLine(summary) : '';
    if (line === '') warn(EXT.summary, 'must be a non-empty string');
    else {
      out.summary = makeSummary(line, '');
      if (line.split(/\s+/).length > MAX_SUMMARY_WORDS) {
        diagnostics.push({
          level: 'warning',
          code: 'EXTENSION_SUMMARY_SHORTENED',
          pointer: `${at}/${escapePointer(EXT.summary)}`,
          message: `${EXT.summary} is longer than a level-1 summary (about 12 words); shortened to ${JSON.stringify(out.summary)}`,
        });
      }
    }
  }
  const keywords = own(op, EXT.keywords);
  if (keywords !== undefined) {
    const list = typeof keywords === 'string' ? keywords.split(',') : Array.isArray(keywords) && keywords.every((k) => typeof k === 'string') ? (keywords as string[]) : undefined;
    if (list === undefined) warn(EXT.keywords, 'must be an array of strings or a comma-separated string');
    else {
      const cleaned = [...new Set(list.map((k) => cleanLine(k, MAX_KEYWORD_CHARS).toLowerCase()).filter((k) => k !== ''))];
      if (cleaned.length > MAX_KEYWORDS) {
        diagnostics.push({
          level: 'warning',
          code: 'EXTENSION_INVALID',
          pointer: `${at}/${escapePointer(EXT.keywords)}`,
          message: `${EXT.keywords} has ${cleaned.length} entries; the first ${MAX_KEYWORDS} are kept`,
        });
      }
      if (cleaned.length > 0) out.keywords = cleaned.slice(0, MAX_KEYWORDS);
    }
  }
  const domain = own(op, EXT.domain);
  if (domain !== undefined) {
    const s = typeof domain === 'string' ? domainSlug(domain) : '';
    if (s === '') warn(EXT.domain, 'must be a domain name such as "issues" (letters, digits, - and _)');
    else out.domain = s;
  }
  const destructive = own(op, EXT.destructive);
  if (destructive !== undefined) {
    if (typeof destructive === 'boolean') out.destructive = destructive;
    else warn(EXT.destructive, `must be true or false (found ${JSON.stringify(destructive)})`);
  }
  const readOnly = own(op, EXT.readOnly);
  if (readOnly !== undefined) {
    if (typeof readOnly === 'boolean') out.readOnly = readOnly;
    else warn(EXT.readOnly, `must be true or false (found ${JSON.stringify(readOnly)})`);
  }
  return out;
}

/** The prefix of every api-catalog extension (compared case-insensitively: `X-API-Catalog-Hidden` is a typo too). */
const PREFIX = 'x-api-catalog-';

/**
 * EXTENSION_UNKNOWN for every `x-api-catalog-` key of `node` (at JSON pointer `at`) that is not one of `known`: with
 * the nearest known name within a few edits ("did you mean"), or, for a key that belongs on the other kind of
 * object (`elsewhere`), where it is read; else the names known here. The key is ignored, as it always was.
 */
function warnUnknown(node: unknown, at: string, known: readonly string[], elsewhere: { keys: readonly string[]; where: string }, diagnostics: Diagnostic[]): void {
  if (!isObject(node)) return;
  for (const key of Object.keys(node)) {
    if (!key.toLowerCase().startsWith(PREFIX) || known.includes(key)) continue;
    const typed = key.toLowerCase();
    const near = closest(typed, known as string[]);
    const n = typed.length - PREFIX.length;
    const limit = n <= 3 ? 1 : n <= 8 ? 2 : 3; // a swapped pair of letters is 2 edits
    const message = elsewhere.keys.includes(key)
      ? `${key} is read on ${elsewhere.where}, not on this object; ignored`
      : `${key} is not a known x-api-catalog-* extension${distance(typed, near) <= limit ? ` (did you mean ${near}?)` : ` (known here: ${known.join(', ')})`}; ignored`;
    diagnostics.push({ level: 'warning', code: 'EXTENSION_UNKNOWN', pointer: `${at}/${escapePointer(key)}`, message });
  }
}

/**
 * EXTENSION_UNKNOWN for every `x-api-catalog-*` key anywhere but on an Operation Object under `paths` or on `info`,
 * where they are read: `x-api-catalog-hidden: true` on a Path Item, a parameter or the document's root was ignored
 * without a word, so the operations it was meant to hide stayed served. `read` are the Operation Objects the
 * importer read its extensions from, wherever they sit (a Path Item `$ref` into `components/pathItems`). Walks the
 * document once, iteratively.
 */
export function warnMisplacedExtensions(doc: unknown, read: ReadonlySet<unknown>, diagnostics: Diagnostic[]): void {
  const stack: Array<[unknown, string, number]> = [[doc, '#', 0]];
  const seen = new WeakSet<object>(); // an object shared by two places (or a cycle) is read once
  while (stack.length > 0) {
    const [node, at, depth] = stack.pop() as [unknown, string, number];
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        if (typeof item === 'object' && item !== null) stack.push([item, `${at}/${i}`, depth + 1]);
      });
      continue;
    }
    if (!isObject(node)) continue;
    // an operation (#/paths/<path>/<method>) and #/info read their own extensions (readAgentExtensions, readCatalogExtensions)
    const reads = at === '#/info' || read.has(node) || (depth === 3 && at.startsWith('#/paths/') && (METHODS as readonly string[]).includes(at.slice(at.lastIndexOf('/') + 1)));
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${escapePointer(key)}`;
      if (!reads && key.toLowerCase().startsWith(PREFIX)) {
        const onPathItem = depth === 2 && at.startsWith('#/paths/');
        diagnostics.push({
          level: 'warning',
          code: 'EXTENSION_UNKNOWN',
          pointer: here,
          message: `${key} is read only on an Operation Object (under paths) or on info, not here; ignored${onPathItem ? ': set it on each operation of this path' : ''}`,
        });
      }
      if (typeof value === 'object' && value !== null) stack.push([value, here, depth + 1]);
    }
  }
}

/**
 * Why a value cannot be a tool name, or undefined when it can: a string of letters, digits, `_`, `.` and `-`, at
 * most 64 characters, not starting or ending with `_`, `.` or `-` (what the importer's own names look like, so a
 * rename never produces a name the registry contract forbids). The message suggests the nearest valid name.
 */
export function toolNameProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a tool name such as "contacts_list" (found ${JSON.stringify(value)})`;
  const safe = safeName(value);
  if (value !== '' && value === safe && value.length <= MAX_NAME) return undefined;
  const hint = safe !== '' && safe.length <= MAX_NAME ? `, e.g. ${JSON.stringify(safe)}` : '';
  return `must be a tool name of letters, digits, _, . and - (at most ${MAX_NAME} characters, not starting or ending with _ . -)${hint}; found ${JSON.stringify(value.slice(0, 100))}`;
}

/** What the Info Object's extensions ask for; a field is absent when the extension is absent or invalid. */
export interface CatalogExtensions {
  title?: string;
  description?: string;
}

/**
 * Reads `x-api-catalog-title` and `x-api-catalog-description` from the spec's Info Object (`#/info`): the catalog's
 * display name and description for agents and people, kept apart from the spec's own `info.title` (SendGrid's
 * whole API is titled "Email Activity (beta)"). A value that is not a non-empty string is a warning and is ignored.
 */
export function readCatalogExtensions(info: unknown, diagnostics: Diagnostic[]): CatalogExtensions {
  const out: CatalogExtensions = {};
  warnUnknown(info, '#/info', Object.values(INFO_EXT), { keys: Object.values(EXT), where: 'an Operation Object' }, diagnostics);
  const check = (ext: string, raw: unknown, clean: (v: string) => string): string | undefined => {
    if (raw === undefined) return undefined;
    const value = typeof raw === 'string' ? clean(raw) : '';
    if (value !== '') return value;
    diagnostics.push({ level: 'warning', code: 'EXTENSION_INVALID', pointer: `#/info/${escapePointer(ext)}`, message: `${ext} must be a non-empty string; ignored` });
    return undefined;
  };
  const title = check(INFO_EXT.title, own(info, INFO_EXT.title), catalogTitle);
  if (title !== undefined) out.title = title;
  const description = check(INFO_EXT.description, own(info, INFO_EXT.description), catalogDescription);
  if (description !== undefined) out.description = description;
  return out;
}

/** A catalog title as stored: one plain line of at most {@link MAX_TITLE_CHARS} characters ('' when nothing is left). */
export function catalogTitle(raw: unknown): string {
  return cleanLine(raw, MAX_TITLE_CHARS);
}

/** A catalog description as stored: the first paragraph of the plain text, at most {@link MAX_CATALOG_DESCRIPTION_CHARS}. */
export function catalogDescription(raw: unknown): string {
  return cleanDescription(raw, MAX_CATALOG_DESCRIPTION_CHARS).split(/\n\s*\n/)[0] ?? '';
}
