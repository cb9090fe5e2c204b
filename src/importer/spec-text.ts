// A spec document's bytes and text (RELIABILITY group D): the limits on reading one, bytes to text (telling a
// screenshot, an archive or a documentation page from a spec, and saying so), and text to a value (JSON or YAML,
// YAML with an alias cap, so an alias bomb is refused before it expands). Reads no file and no URL itself.
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { AppError } from '../errors.js';
import { jsonErrorPosition, parseFailure, positionAt, type ParsePosition } from './parse-errors.js';

/** Largest spec (and largest referenced document) accepted, in bytes, checked before parsing. */
export const MAX_SPEC_BYTES = 64 * 1024 * 1024;
/** YAML aliases allowed per document (the yaml package's exponential-expansion guard). */
export const MAX_YAML_ALIASES = 100;
/** Time allowed to fetch one URL, and to resolve all external references. */
export const FETCH_TIMEOUT_MS = 30_000;

/** True when `source` is an http(s) URL rather than a file path. */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * Parses JSON or YAML text; YAML anchors/aliases are capped. Throws AppError SPEC_INVALID naming `where` and, when
 * the parser says where it stopped, the line and column (1-based), as `at:line:column` and with an excerpt of the
 * line (`at` is the bare file or URL, default `where`; details carry `{file, line, column, excerpt}`).
 */
export function parseSpecText(text: string, where: string, at: string = where): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = body.trimStart();
  let jsonError: { reason: string; pos: ParsePosition } | undefined;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(body) as unknown;
    } catch (cause) {
      // Not JSON after all (YAML flow style is rare); fall through to YAML, which also reports positions.
      if (!(cause instanceof SyntaxError)) throw cause;
      const pos = jsonErrorPosition(cause.message, body);
      const reason = cause.message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/( in JSON)? at position \d+/, '').replace(/^JSON\.parse: /, '');
      if (pos !== undefined) jsonError = { reason: `as JSON, ${reason}`, pos };
    }
  }
  try {
    return parseYaml(body, { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: false, prettyErrors: true }) as unknown;
  } catch (cause) {
    const first = cause instanceof Error ? (cause.message.split('\n')[0] ?? '') : String(cause);
    if (/alias/i.test(first)) {
      throw new AppError('SPEC_INVALID', `import: ${where} uses too many YAML aliases (more than ${MAX_YAML_ALIASES}); refused as a possible alias bomb`, { cause });
    }
    // Text that looks like JSON was written as JSON: JSON.parse's reason is the one its author can act on.
    if (jsonError !== undefined) throw parseFailure(where, at, body, jsonError.reason, jsonError.pos, cause);
    const reason = first.replace(/ at line \d+, column \d+:?$/, '');
    let pos: ParsePosition | undefined;
    if (cause instanceof YAMLParseError) {
      const lp = cause.linePos?.[0];
      if (lp !== undefined) pos = { line: lp.line, column: lp.col };
      else if (cause.pos[0] >= 0) pos = positionAt(body, cause.pos[0]);
    }
    throw parseFailure(where, at, body, reason, pos, cause);
  }
}

/** File signatures of formats people pass by mistake (a screenshot of the docs, an archive of the spec). */
const MAGIC: ReadonlyArray<{ bytes: readonly number[]; what: string; todo: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image', todo: "pass the spec's JSON or YAML file" },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image', todo: "pass the spec's JSON or YAML file" },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image', todo: "pass the spec's JSON or YAML file" },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document', todo: "pass the spec's JSON or YAML file" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP archive', todo: 'extract the JSON or YAML spec from it and pass that' },
  { bytes: [0x1f, 0x8b], what: 'gzip-compressed', todo: 'decompress it (gunzip) and pass the JSON or YAML file' },
];

/** How many leading bytes are looked at to tell text from binary (as git and grep do: a NUL means binary). */
const SNIFF_BYTES = 8192;

/**
 * Whether the text starts like UTF-16 without a byte order mark: ASCII characters (a spec starts with `{`, `openapi:`,
 * a comment) each followed (little-endian) or preceded (big-endian) by a zero byte.
 */
function utf16WithoutBom(bytes: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.min(Math.floor(bytes.length / 2), 256);
  if (pairs < 2) return undefined;
  let le = 0;
  let be = 0;
  for (let i = 0; i < pairs; i++) {
    const a = bytes[2 * i] as number;
    const b = bytes[2 * i + 1] as number;
    if (a !== 0 && b === 0) le++;
    else if (a === 0 && b !== 0) be++;
  }
  return le >= pairs * 0.9 ? 'utf-16le' : be >= pairs * 0.9 ? 'utf-16be' : undefined;
}

/**
 * The spec's bytes as text, after telling what they are when they cannot be a spec (RELIABILITY: a clear refusal,
 * never binary on the terminal): UTF-16 (with a byte order mark, or plainly ASCII with zero bytes between) is
 * decoded; UTF-32, images, PDFs, archives, anything else with a NUL byte, and HTML or XML pages are refused with
 * what they are and what to pass instead. `contentType` is the Content-Type a URL was served with. Plain UTF-8
 * (with or without a BOM) comes back exactly as `readFileSync(file, 'utf8')` reads it.
 */
export function decodeSpecBytes(bytes: Buffer, where: string, contentType?: string): string {
  const starts = (sig: readonly number[]): boolean => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
  const served = contentType !== undefined ? ` (served as ${contentType.split(';')[0]!.trim()})` : '';
  const refuse = (what: string, todo: string): never => {
    throw new AppError('SPEC_INVALID', `import: ${where} is ${what}${served}, not an OpenAPI document; ${todo}`);
  };
  const asUtf8 = 'save it as UTF-8 and import that';
  const notSpec = "pass the spec's JSON or YAML file";
  if (starts([0xff, 0xfe, 0, 0]) || starts([0, 0, 0xfe, 0xff])) refuse('UTF-32 text', asUtf8);
  let text: string;
  const utf16 = starts([0xff, 0xfe]) ? 'utf-16le' : starts([0xfe, 0xff]) ? 'utf-16be' : utf16WithoutBom(bytes);
  if (utf16 !== undefined) {
    try {
      // TextDecoder drops the byte order mark; a broken sequence fails here instead of becoming U+FFFD silently
      text = new TextDecoder(utf16, { fatal: true }).decode(bytes);
    } catch {
      return refuse(`${utf16.toUpperCase()} text with invalid characters`, asUtf8);
    }
    if (text.includes('\0')) refuse('a binary file', notSpec);
  } else {
    for (const m of MAGIC) if (starts(m.bytes)) refuse(m.what, m.todo);
    if (bytes.subarray(0, SNIFF_BYTES).includes(0)) refuse('a binary file', notSpec);
    text = bytes.toString('utf8');
  }
  // Markup: an API's documentation page (Swagger UI, Redoc) is the commonest wrong URL. A Content-Type of
  // text/html alone is not enough (some servers label every file so): the body must start with markup too.
  const head = text.replace(/^\uFEFF/, '').trimStart().slice(0, 1024);
  const markup = /^(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body|meta|title|script|link)[\s>/]/i.test(head);
  if (markup || (/^text\/html\b/i.test(contentType?.trim() ?? '') && head.startsWith('<'))) {
    refuse(
      'an HTML page',
      isUrl(where)
        ? "it looks like the API's documentation page: use the URL of the JSON or YAML spec file itself (such pages often link it as openapi.json, swagger.json or Download)"
        : "it looks like an API's documentation page: download the JSON or YAML spec file it is built from (often linked as openapi.json, swagger.json or Download) and import that",
    );
  }
  if (/^<\?xml[\s?]/.test(head)) refuse('an XML document', `OpenAPI specs are JSON or YAML; ${notSpec}`);
  return text;
}

/**
 * Why a parsed document is nothing (`null` or `undefined` at its top level), for the message: the file is empty,
 * holds only whitespace or comments, or holds only `null` (`null`, `~`, a bare `---`).
 */
export function emptyDocument(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body === '') return 'is empty (no content at all)';
  if (body.trim() === '') return 'holds only whitespace';
  const lines = body.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && l !== '---' && l !== '...');
  if (lines.length > 0 && lines.every((l) => l.startsWith('#'))) return 'holds only YAML comments';
  return 'holds only null';
}
