// Text hygiene for everything the importer copies out of an (untrusted) spec: invisible-character stripping
// (RELIABILITY J2), HTML/Markdown to plain text, length caps (J3), short summaries, safe names and slugs, and
// the "reads like an instruction to an AI" detector (J1), and what an action's verb says it does (action-verbs.json).
// Pure functions; no I/O.
import actionVerbs from './action-verbs.json' with { type: 'json' };

/** Longest operation description kept (characters); longer text is cut at a word boundary. */
export const MAX_DESCRIPTION = 4000;
/** Longest description kept on a schema property or parameter. */
export const MAX_SCHEMA_DESCRIPTION = 1000;
/** Longest summary in words (Level 1 of describe / search hits). */
export const MAX_SUMMARY_WORDS = 12;
/** Longest safe operation name (MCP allows 128; 64 keeps them readable and fits every client). */
export const MAX_NAME = 64;

// Unicode tag characters (U+E0000–E007F, written as surrogate pairs), zero-width U+200B–U+200D and U+FEFF,
// bidi embeddings/overrides U+202A–U+202E and isolates U+2066–U+2069, plus C0/C1 controls except \t \n.
const INVISIBLE = /[\u{E0000}-\u{E007F}\u200B-\u200D\uFEFF\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;

/** Removes invisible and control characters (J2); CR/CRLF become LF. */
export function stripInvisible(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(INVISIBLE, '');
}

/** Cuts `text` to at most `max` characters, at a word boundary when one is near, adding `…`. */
export function capLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd() + '…';
}

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…',
  rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', copy: '©', reg: '®', trade: '™', times: '×',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** A Markdown link's `(target)`: balanced parentheses one level deep inside it, else up to the first `)`. */
const LINK_TARGET = String.raw`(?:\((?:[^()]|\([^()]*\))*\)|\([^)]*\))`;
const MD_IMAGE = new RegExp(String.raw`!\[([^\]]*)\]${LINK_TARGET}`, 'g');
const MD_LINK = new RegExp(String.raw`\[([^\]]+)\]${LINK_TARGET}`, 'g');

/**
 * HTML and Markdown to plain text: tags removed (block tags become line breaks, `<li>` a bullet), entities
 * decoded, links and images reduced to their text (URLs are not forwarded to the model, J4), emphasis and
 * heading marks removed, inline code kept with its backticks, whitespace collapsed (paragraphs kept).
 * Invisible characters are stripped before and after decoding so entities cannot smuggle them back in.
 */
export function toPlainText(input: string): string {
  let t = stripInvisible(input);
  // HTML comments, script/style blocks, then tags.
  t = t.replace(/<!--[\s\S]*?-->/g, '');
  t = t.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '');
  t = t.replace(/<\s*br\s*\/?>/gi, '\n');
  t = t.replace(/<\s*li\b[^>]*>/gi, '\n- ');
  t = t.replace(/<\/?\s*(p|div|ul|ol|table|tr|h[1-6]|pre|blockquote|section|details|summary)\b[^>]*>/gi, '\n\n');
  t = t.replace(/<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>/gi, '');
  t = decodeEntities(t);
  t = stripInvisible(t);
  // Markdown: images, links (inline and reference-style), autolinks, emphasis, headings, rules, code fences.
  // A link's target may hold balanced parentheses (`(https://en.wikipedia.org/wiki/X_(y))`, `(url "title (t)")`):
  // the whole of it goes. A target whose parentheses do not balance ends at its first `)`, as before.
  t = t.replace(MD_IMAGE, '$1');
  t = t.replace(MD_LINK, '$1');
  t = t.replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1');
  t = t.replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, '');
  t = t.replace(/<(https?:\/\/[^>\s]+)>/g, '$1');
  t = t.replace(/^```[^\n]*$/gm, '');
  t = t.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2');
  t = t.replace(/(^|[\s(])\*(?=\S)([^*\n]*?\S)\*(?=[\s).,;:!?]|$)/g, '$1$2');
  t = t.replace(/^\s{0,3}#{1,6}\s+/gm, '');
  t = t.replace(/^\s{0,3}([-*_])(\s*\1){2,}\s*$/gm, '');
  t = t.replace(/^\s*>\s?/gm, '');
  // Whitespace: trim lines, collapse runs of spaces, keep at most one blank line.
  t = t
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n');
  t = t.replace(/\n{3,}/g, '\n\n').trim();
  return t;
}

/** Cleaned, capped description text (plain text). */
export function cleanDescription(input: unknown, max = MAX_DESCRIPTION): string {
  if (typeof input !== 'string' || input.length === 0) return '';
  // Cap before the regexes too, so a 100 MB description cannot make them slow (J3).
  return capLength(toPlainText(input.length > max * 4 ? input.slice(0, max * 4) : input), max);
}

/** One line of plain text (newlines folded), capped. */
export function cleanLine(input: unknown, max = 300): string {
  return capLength(cleanDescription(input, max * 2).replace(/\s*\n+\s*/g, ' '), max);
}

/** The first sentence of plain text: up to the first `. ` / `! ` / `? ` or blank line ("e.g." does not end one). */
export function firstSentence(text: string): string {
  const para = text.split(/\n\s*\n/)[0] ?? '';
  const flat = para.replace(/\s*\n\s*/g, ' ').trim();
  const end = /[.!?](?=\s|$)/g;
  for (let m = end.exec(flat); m !== null; m = end.exec(flat)) {
    const upto = flat.slice(0, m.index + 1);
    if (/\b(e\.g|i\.e|etc|vs|approx|incl|Inc|Mr|Ms|Dr|No)\.$/i.test(upto)) continue;
    return upto;
  }
  return flat;
}

/** At most `maxWords` words; a trailing period of a cut sentence is dropped and `…` added. */
export function limitWords(text: string, maxWords = MAX_SUMMARY_WORDS): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= maxWords) return words.join(' ');
  return words.slice(0, maxWords).join(' ').replace(/[,;:.]+$/, '') + '…';
}

/**
 * The Level-1 summary: the spec's `summary` when present, else the first sentence of the description,
 * plain text, at most MAX_SUMMARY_WORDS words, without a trailing period.
 */
export function makeSummary(summary: unknown, description: string): string {
  const fromSummary = cleanLine(summary);
  const base = fromSummary !== '' ? fromSummary : firstSentence(description);
  return limitWords(base).replace(/\.$/, '');
}

/**
 * Whether a summary says its operation is deprecated, for specs that say so in words instead of `deprecated: true`:
 * "[OBSOLETE] Do not use this...", "(Deprecated) Search editorial content", "DEPRECATED: Create", "Deprecating: ...".
 * Only at the start: "Lists deprecated versions" is not.
 */
export function saysDeprecated(summary: string): boolean {
  return /^\W*(?:deprecated|deprecating|obsolete)\b/i.test(summary);
}

// What an action word says an operation does: action-verbs.json, which says why each list holds what it holds.
/** Verbs that take away what the API cannot give back as it was, as a named action's verb or a path's last segment. */
const DELETE_ACTIONS: ReadonlySet<string> = new Set(actionVerbs.deletes);
/** Verbs that delete only as a named action's verb (`ReleaseAddress`); as a path segment they name or publish a release. */
const NAMED_DELETE_ACTIONS: ReadonlySet<string> = new Set(actionVerbs.deletesAsNamedAction);
/** The verbs of an action that only reads. */
const READ_ACTIONS: ReadonlySet<string> = new Set(actionVerbs.reads);
/** Verbs that change something (for a GET whose path's action leads with one). */
const WRITE_ACTIONS: ReadonlySet<string> = new Set(actionVerbs.writes);
/** A summary led by one of these says its GET reads (`Returns the write permissions...`, `Check if...`). */
const SUMMARY_READS: ReadonlySet<string> = new Set([...actionVerbs.reads, ...actionVerbs.readsInSummary]);
/** A summary led by one of these makes or reads something, whatever its path says (`Create a remove token`). */
const MAKE_OR_READ: ReadonlySet<string> = new Set(actionVerbs.makesOrReads);

/** A summary led by a verb that makes or reads something (`Create a remove token`), whatever its path says. */
function summaryMakesOrReads(summary: string): boolean {
  const lead = (summary.trim().split(/\s+/)[0] ?? '').toLowerCase().replace(/[^a-z]/g, '');
  return MAKE_OR_READ.has(lead) || MAKE_OR_READ.has(lead.replace(/e?s$/, '')) || MAKE_OR_READ.has(lead.replace(/s$/, ''));
}

/** Whether a summary leads with a verb of `verbs` in any of its forms (`Deletes`, `Publishes`, `updatePathway...`). */
function summaryLeadsWith(summary: string, verbs: ReadonlySet<string>): boolean {
  const lead = identifierWords(summary.trim().split(/\s+/)[0] ?? '')[0] ?? '';
  return [lead, lead.replace(/ies$/, 'y'), lead.replace(/e?s$/, ''), lead.replace(/s$/, '')].some((w) => verbs.has(w));
}

/** The words of an identifier: camelCase, snake_case, kebab-case and digits apart, lower case (`DeleteVpcEndpoints` -> delete vpc endpoints). */
export function identifierWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/**
 * The verb an action leads with: the first word of its last dotted part (`Lightsail_20161128.DeleteDisk` -> delete,
 * `flickr.photos.delete` -> delete), after a leading `Batch` (`BatchDeleteAttributes` -> delete); '' when none.
 */
export function actionVerb(action: string): string {
  const words = identifierWords(action.split('.').filter((p) => p !== '').pop() ?? '');
  return (words[0] === 'batch' && words.length > 1 ? words[1] : words[0]) ?? '';
}

/**
 * Whether an operation that runs a named action deletes: the action leads with a delete verb (`DeleteVpc`,
 * `X-Amz-Target=Svc.DeleteStream`, `RemoveTagsFromResource`, `TerminateInstances`, `RevokeSecurityGroupIngress`,
 * `ReleaseAddress`), whatever the HTTP method, unless the summary says it makes or reads something.
 */
export function actionDeletes(action: string, summary = ''): boolean {
  const verb = actionVerb(action);
  return (DELETE_ACTIONS.has(verb) || NAMED_DELETE_ACTIONS.has(verb)) && !summaryMakesOrReads(summary);
}

/**
 * Whether an action a path key names only reads: its verb is one that reads (`DescribeInstances`, `GetObject`,
 * `flickr.photos.getInfo`). An RPC action is its verb, and a verb not known to read is not trusted to: AWS query
 * APIs declare `GET /#Action=TerminateInstances` beside the POST, and such a GET changes data.
 */
export function actionReads(action: string): boolean {
  return READ_ACTIONS.has(actionVerb(action));
}

/**
 * Whether a GET or HEAD changes data through its path. Its action is the last path segment when the path ends in
 * it (`GET /createPad`, Etherpad's `GET /movePad`, Slack-style `GET /views.update`, `GET /rides/{id}/cancel`) or
 * the spec's operationId when the path's last plain segment is that id (`GET /sendMessage`). An action led by a
 * write verb writes unless the summary, or the operationId, leads with a read verb (GitHub's `GET .../merge`:
 * "Check if a pull request has been merged"; `listDeployKeys`); with no summary it writes: failing closed, since a
 * curator can mark a read `x-api-catalog-read-only: true` but nobody sees a write served as a read. A segment
 * followed by a parameter names a collection or an item (`/run/{id}`, `/ChangeOrderCharges/{id}`): it writes only
 * when the summary leads with a write verb too. Nouns that are also verbs (`/schedule`, `/archive`) are not in the
 * write list (action-verbs.json). `operationId` is the spec's own, '' when the importer made one up.
 */
export function writesThroughPath(path: string, summary: string, operationId = ''): boolean {
  const segments = path.split('/').filter((s) => s !== '');
  const plain = segments.filter((s) => !s.includes('{'));
  const last = plain[plain.length - 1];
  if (last === undefined) return false;
  const segment = last.replace(/\.(?:json|xml)$/i, '');
  const writeVerb = (action: string): boolean => WRITE_ACTIONS.has(actionVerb(action));
  if (writeVerb(segment) && summaryLeadsWith(summary, WRITE_ACTIONS)) return true;
  const actions = [
    ...(segments[segments.length - 1] === last ? [segment] : []),
    ...(operationId !== '' && operationId.toLowerCase() === last.toLowerCase() ? [operationId] : []),
  ];
  if (!actions.some(writeVerb)) return false;
  const idReads = operationId !== '' && READ_ACTIONS.has(actionVerb(operationId.split('/').pop() ?? ''));
  return !summaryLeadsWith(summary, SUMMARY_READS) && !idReads;
}

/**
 * Whether a POST, PUT or PATCH deletes through its path: its last plain segment is an action led by a delete verb
 * (`POST /tags/delete.json`, `POST /orgs/{id}/secrets/delete`, `POST /coupons/deleteByCodes`, Slack-style
 * `POST /chat.delete`, `POST /members/remove_from_group`, `POST /jobs/{id}/terminate`, `POST /keys/{id}/revoke`;
 * not `release`, which a path uses for a release or a publication as often). RPC-style APIs delete that way, and
 * such an operation deserves the same confirmation as a DELETE. A resource named by a noun (`/removals`, `/deleted_items`) is not one,
 * nor is a path whose summary says it makes or reads something (`POST /runners/remove-token`: "Create a remove token").
 */
export function deletesThroughPath(method: string, path: string, summary = ''): boolean {
  if (method !== 'post' && method !== 'put' && method !== 'patch') return false;
  if (summaryMakesOrReads(summary)) return false;
  const plain = path.split('/').filter((s) => s !== '' && !s.includes('{'));
  const last = plain[plain.length - 1];
  if (last === undefined) return false;
  const action = last.replace(/\.(?:json|xml)$/i, '').split('.').pop() ?? '';
  const first = action.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_-]+/)[0]?.toLowerCase();
  return first !== undefined && DELETE_ACTIONS.has(first);
}

/** Characters allowed in operation names (MCP tool-name alphabet). */
export const SAFE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * An operationId made safe: characters outside `[A-Za-z0-9_.-]` become `_`, runs collapse, ends trimmed,
 * capped at MAX_NAME by `shortName` (a long id keeps its start and its last words). Returns '' when nothing
 * usable remains.
 */
export function safeName(raw: string): string {
  const s = cleanName(raw);
  return s.length > MAX_NAME ? shortName(s) : s;
}

/** An operationId made safe, before any cap on its length. */
export function cleanName(raw: string): string {
  return stripInvisible(raw)
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '');
}

/** A long name's last words that `shortName` keeps after its cut: the last word, or the last few up to 8 characters. */
const MIN_TAIL = 8;
/** ... and no more than this; a longer last word leaves the name to `hashedName`. */
const MAX_TAIL = 25;

/** Where a name may be cut: after a `_`, `.` or `-` (`seams`), or between a lower-case letter or digit and a capital (`humps`). */
function wordStarts(s: string): { seams: number[]; humps: number[] } {
  const seams: number[] = [];
  const humps: number[] = [];
  for (let i = 1; i < s.length; i++) {
    if (/[_.-]/.test(s[i - 1] as string) && !/[_.-]/.test(s[i] as string)) seams.push(i);
    else if (/[a-z0-9]/.test(s[i - 1] as string) && /[A-Z]/.test(s[i] as string)) humps.push(i);
  }
  return { seams, humps };
}

/** The start of the last words: the latest cut that keeps at least MIN_TAIL characters, if that is no more than MAX_TAIL. */
function tailStartIn(s: string, starts: readonly number[]): number | undefined {
  const i = [...starts].reverse().find((at) => s.length - at >= MIN_TAIL);
  return i !== undefined && s.length - i <= MAX_TAIL ? i : undefined;
}

/**
 * A safe name over MAX_NAME, cut at word boundaries to its start, `_`, and its last word (or last words, to
 * MIN_TAIL characters): `actions_get-github-actions-default-workflow-permissions-repository` becomes
 * `actions_get-github-actions-default-workflow_repository`. The end of a long id is what tells its siblings
 * apart (`-repository` / `-organization`), so it is kept; two ids that still meet are told apart by
 * `hashedName` (assignNames). Cuts fall at `_`, `.` and `-` where they can (`apiCredentials`, not `api`), else
 * between camelCase humps; a name without usable boundaries is `hashedName`'s.
 */
export function shortName(s: string): string {
  const { seams, humps } = wordStarts(s);
  const all = [...seams, ...humps].sort((a, b) => a - b);
  const tailStart = tailStartIn(s, seams) ?? tailStartIn(s, all);
  if (tailStart === undefined) return hashedName(s);
  const tail = s.slice(tailStart).replace(/^[_.-]+/, '');
  const room = MAX_NAME - 1 - tail.length;
  const last = (starts: readonly number[]): number | undefined => [...starts].reverse().find((i) => i <= room && i < tailStart);
  const atSeam = last(seams);
  const headEnd = atSeam !== undefined && atSeam >= room / 2 ? atSeam : last(all);
  const head = (headEnd === undefined ? '' : s.slice(0, headEnd)).replace(/[_.-]+$/, '');
  if (head === '') return hashedName(s);
  return `${head}_${tail}`;
}

/** A long name as its start and a hash of the whole: distinct for distinct ids, whatever they share. */
export function hashedName(raw: string): string {
  return cleanName(raw).slice(0, MAX_NAME - 9).replace(/[_.-]+$/, '') + '_' + shortHash(raw);
}

/** A domain/catalog slug: lower-case `[a-z0-9_-]`, other runs become `-`, at most 64 characters. */
export function slug(raw: string): string {
  return stripInvisible(raw)
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 64)
    .replace(/[-_]+$/g, '');
}

/**
 * A domain name: slug() of a tag, group or path segment with its camelCase humps and acronym runs as words, so a
 * glued identifier keeps the words list_domains folds on (`ArticleNotesChild` -> article-notes-child, `HTTPServer`
 * -> http-server, `getV2Items` -> get-v2-items, `APIsList` -> apis-list). A lone letter stays with the word it leads
 * (`OAuth` -> oauth, `iOS` -> ios). A curator's `x-api-catalog-domain` reads the same way, so naming a tag
 * (`ArticleNotes`) puts an operation in that tag's domain (article-notes); a name already written with `-` or `_`
 * (`article-notes`, `issues`) is unchanged. Catalog names keep slug().
 */
export function domainSlug(raw: string): string {
  return slug(stripInvisible(raw).replace(/[A-Za-z0-9]+/g, humpWords));
}

/**
 * The words of one camelCase token, `-`-joined: a lone letter joins the next word, an acronym's plural `s` stays on
 * it, and digits part from a capital only when it starts a word (`V2Items` -> v2-items; `2FA`, `C2C` stay whole).
 */
function humpWords(token: string): string {
  const words = token
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([0-9])([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z](?!s(?![a-z]))[a-z])/g, '$1 $2')
    .split(' ');
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (/^[A-Za-z]$/.test(w) && i + 1 < words.length) words[i + 1] = w + (words[i + 1] as string);
    else out.push(w);
  }
  return out.join('-');
}

/** 8 hex characters of FNV-1a: a stable, dependency-free disambiguator (not for security). */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

// What reads like an instruction to an AI: src/instruction-patterns.ts (the server checks stored text with it too).
export { instructionMatch, looksLikeInstruction } from '../instruction-patterns.js';

// Whether a name says it holds a credential: src/schema/credential-parameters.ts (execution reads it too).
export { credentialNamed } from '../schema/credential-parameters.js';
