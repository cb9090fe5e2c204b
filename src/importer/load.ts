// Loading a spec safely (RELIABILITY group D): read a file or URL under a size cap, parse JSON or YAML ourselves
// (YAML with an alias cap, so an alias bomb is refused before it expands), check the version, and resolve
// external `$ref`s through swagger-parser with our own confined resolvers: files only inside the spec's folder,
// http(s) only to public addresses (or the very origin the user typed). Internal refs stay as they are; the
// schema converter resolves them into per-operation `$defs`.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { AppError } from '../errors.js';
import type { Diagnostic } from '../types.js';
import { fetchBody, fetchText, redact } from './net.js';
import { METHODS } from './operations.js';
import { jsonErrorPosition, parseFailure, positionAt, type ParsePosition } from './parse-errors.js';
import { escapePointer, getPointer, isObject, unescapePointer } from './pointer.js';

/** Largest spec (and largest referenced document) accepted, in bytes, checked before parsing. */
export const MAX_SPEC_BYTES = 64 * 1024 * 1024;
/** YAML aliases allowed per document (the yaml package's exponential-expansion guard). */
export const MAX_YAML_ALIASES = 100;
/** Time allowed to fetch one URL, and to resolve all external references. */
export const FETCH_TIMEOUT_MS = 30_000;

export type SpecKind = 'swagger2' | 'oas30' | 'oas31';

export interface LoadedSpec {
  doc: Record<string, unknown>;
  kind: SpecKind;
  /** `2.0`, `3.0.3`, `3.1.0`, ... */
  specVersion: string;
  /** As shown in catalog.json: a repo-relative path (posix) or a URL without credentials or query. */
  sourceLabel: string;
  sha256: string;
  /** For URL specs: the URL relative server URLs resolve against. */
  baseUrl?: string;
  diagnostics: Diagnostic[];
  /** Every local `$ref` target in the (bundled) document. */
  refTargets: string[];
}

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

function sourceLabelFor(absPath: string): string {
  const rel = relative(process.cwd(), absPath);
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  return absPath.split(sep).pop() ?? absPath;
}

async function readSource(source: string): Promise<{ text: string; label: string; baseUrl?: string; filePath?: string }> {
  if (isUrl(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch (cause) {
      throw new AppError('SPEC_UNREADABLE', `import: ${JSON.stringify(source)} is not a valid URL`, { cause });
    }
    // The URL the user typed is trusted as-is (it may be a local server); its refs are not (see resolvers).
    const body = await fetchBody(url.toString(), { trustedOrigin: url.origin, maxBytes: MAX_SPEC_BYTES, timeoutMs: FETCH_TIMEOUT_MS, what: 'spec' });
    const label = redact(url.toString());
    return { text: decodeSpecBytes(body.bytes, label, body.contentType), label, baseUrl: url.toString() };
  }
  const abs = resolve(source);
  let size: number;
  try {
    const st = statSync(abs);
    if (!st.isFile()) throw new AppError('SPEC_UNREADABLE', `import: ${source} is not a file; pass an OpenAPI JSON or YAML file or an http(s) URL`);
    size = st.size;
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    throw new AppError('SPEC_UNREADABLE', `import: cannot read ${source} (${code ?? String(cause)}); check the path`, { cause });
  }
  if (size > MAX_SPEC_BYTES) {
    throw new AppError('SPEC_TOO_LARGE', `import: ${source} is ${size} bytes, over the ${MAX_SPEC_BYTES}-byte limit`);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (cause) {
    throw new AppError('SPEC_UNREADABLE', `import: cannot read ${source} (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, { cause });
  }
  return { text: decodeSpecBytes(bytes, source), label: sourceLabelFor(abs), filePath: abs };
}

/** Checks `swagger` / `openapi`; returns the kind. Throws SPEC_INVALID / SPEC_UNSUPPORTED_VERSION. */
export function detectVersion(doc: unknown, where: string): { kind: SpecKind; specVersion: string } {
  const supported = 'supported versions: Swagger 2.0, OpenAPI 3.0.x and 3.1.x';
  if (doc === null || doc === undefined) throw new AppError('SPEC_INVALID', `import: ${where} is empty or holds only null, not an OpenAPI document`);
  if (!isObject(doc)) {
    throw new AppError('SPEC_INVALID', `import: ${where} is not an OpenAPI document (its top level is ${Array.isArray(doc) ? 'an array' : `a ${typeof doc}`}, expected an object)`);
  }
  if (Object.hasOwn(doc, 'openapi')) {
    const v = doc.openapi;
    if (typeof v !== 'string') {
      throw new AppError('SPEC_INVALID', `import: ${where}: \`openapi\` must be a string such as "3.0.3" (found the ${typeof v} ${JSON.stringify(v)}); quote it`);
    }
    if (/^3\.0\.\d+$/.test(v)) return { kind: 'oas30', specVersion: v };
    if (/^3\.1\.\d+$/.test(v)) return { kind: 'oas31', specVersion: v };
    throw new AppError('SPEC_UNSUPPORTED_VERSION', `import: ${where} declares OpenAPI ${JSON.stringify(v)}; ${supported}`);
  }
  if (Object.hasOwn(doc, 'swagger')) {
    const v = doc.swagger;
    if (typeof v !== 'string') {
      throw new AppError('SPEC_INVALID', `import: ${where}: \`swagger\` must be the string "2.0" (found the ${typeof v} ${JSON.stringify(v)}); quote it`);
    }
    if (v === '2.0') return { kind: 'swagger2', specVersion: v };
    throw new AppError('SPEC_UNSUPPORTED_VERSION', `import: ${where} declares Swagger ${JSON.stringify(v)}; ${supported}`);
  }
  throw new AppError('SPEC_INVALID', `import: ${where} is not an OpenAPI document (no \`openapi\` or \`swagger\` field); ${supported}`);
}

// Keys whose children are names chosen by the spec author, not keywords (a property may be called `x-id`).
const NAME_MAPS = new Set([
  'properties', 'patternProperties', '$defs', 'definitions', 'schemas', 'parameters', 'responses', 'securitySchemes',
  'securityDefinitions', 'content', 'headers', 'encoding', 'examples', 'requestBodies', 'links', 'callbacks',
  'variables', 'paths', 'dependentSchemas', 'pathItems', 'webhooks', 'mapping', 'scopes',
]);
// Keys whose values are data (examples, defaults), never schema: a `$ref` inside them is not a reference.
const DATA_KEYS = new Set(['example', 'default', 'enum', 'const', 'value', 'examples']);

export interface RefSite {
  ref: string;
  /** JSON pointer of the object holding the `$ref`. */
  at: string;
  /** Set when the `$ref` sits inside an `x-` extension (which the importer never reads). */
  ext?: { parent: Record<string, unknown>; key: string; at: string };
}

/**
 * Every `$ref` in the document, iteratively (no recursion limit). Data values (`example`, `default`, `enum`,
 * ...) are not searched: their `$ref` keys are data.
 */
export function scanRefs(doc: unknown): RefSite[] {
  const refs: RefSite[] = [];
  // `extensible`: a name map whose `x-` keys are Specification Extensions, not names — the Paths Object and an
  // operation's Responses Object (OAS 3.x and Swagger 2.0). Under components (or Swagger's top-level
  // `responses`) an `x-` key is an ordinary name.
  type Frame = { node: unknown; at: string; inNameMap: boolean; extensible: boolean; ext: RefSite['ext'] };
  const stack: Frame[] = [{ node: doc, at: '#', inNameMap: false, extensible: false, ext: undefined }];
  while (stack.length > 0) {
    const { node, at, inNameMap, extensible, ext } = stack.pop() as Frame;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], at: `${at}/${i}`, inNameMap: false, extensible: false, ext });
      continue;
    }
    if (!isObject(node)) continue;
    const ref = node.$ref;
    if (!inNameMap && typeof ref === 'string') refs.push(ext ? { ref, at, ext } : { ref, at });
    for (const key of Object.keys(node)) {
      if (key === '$ref' && !inNameMap) continue;
      if (!inNameMap && DATA_KEYS.has(key) && key !== 'examples') continue;
      if (!inNameMap && key === 'examples' && Array.isArray(node[key])) continue; // JSON Schema examples: data
      const childAt = `${at}/${escapePointer(key)}`;
      const isExt = (!inNameMap || extensible) && key.startsWith('x-');
      const childIsNameMap = !inNameMap && NAME_MAPS.has(key) && isObject(node[key]);
      stack.push({
        node: node[key],
        at: childAt,
        inNameMap: childIsNameMap,
        extensible: childIsNameMap && (key === 'paths' || (key === 'responses' && at !== '#' && !at.startsWith('#/components'))),
        ext: ext ?? (isExt ? { parent: node, key, at: childAt } : undefined),
      });
    }
  }
  return refs;
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Resolves external `$ref`s with swagger-parser's `bundle`, through resolvers that enforce the rules above.
 * A refused reference fails the whole import (SPEC_REF_REFUSED): its target's contents never enter the output.
 */
async function bundleExternal(doc: Record<string, unknown>, base: { filePath?: string; baseUrl?: string }): Promise<Record<string, unknown>> {
  let refusal: AppError | undefined;
  const refuse = (err: AppError): never => {
    refusal ??= err;
    throw err;
  };
  const root = base.filePath ? realpathSync(dirname(base.filePath)) : undefined;
  const trustedOrigin = base.baseUrl ? new URL(base.baseUrl).origin : undefined;
  const basePath = base.filePath ?? base.baseUrl ?? '';
  const options = {
    resolve: {
      file: false,
      http: false,
      external: true,
      confined: {
        order: 1,
        canRead: true,
        read: async (file: { url: string }): Promise<string> => {
          const url = file.url;
          if (/^https?:/i.test(url)) {
            // Same origin as the URL the user typed is trusted; anything else must be public.
            return fetchText(url, { trustedOrigin, maxBytes: MAX_SPEC_BYTES, timeoutMs: FETCH_TIMEOUT_MS, what: '$ref' }).catch((e: unknown) =>
              e instanceof AppError && e.code === 'SPEC_REF_REFUSED' ? refuse(e) : Promise.reject(e instanceof Error ? e : new Error(String(e))),
            );
          }
          const shown = JSON.stringify(url.startsWith('file:') ? fileURLToPath(url) : url);
          if (!root) {
            return refuse(new AppError('SPEC_REF_REFUSED', `import: $ref ${shown} points at a local file from a URL spec; external file refs are disabled for URL specs`));
          }
          let abs: string;
          try {
            abs = url.startsWith('file:') ? fileURLToPath(url) : resolve(url);
          } catch {
            return refuse(new AppError('SPEC_REF_REFUSED', `import: $ref ${shown} is not a file path inside the spec's folder; external refs outside it are disabled`));
          }
          if (!isInside(root, abs)) {
            return refuse(new AppError('SPEC_REF_REFUSED', `import: $ref ${shown} leaves the spec's folder; external refs outside ${root} are disabled`));
          }
          let real: string;
          try {
            real = realpathSync(abs);
          } catch {
            throw new AppError('SPEC_INVALID', `import: $ref ${shown} names a file that does not exist; fix the reference`);
          }
          if (!isInside(root, real)) {
            return refuse(new AppError('SPEC_REF_REFUSED', `import: $ref ${shown} is a link leaving the spec's folder; external refs outside ${root} are disabled`));
          }
          if (statSync(real).size > MAX_SPEC_BYTES) throw new AppError('SPEC_TOO_LARGE', `import: $ref ${shown} is over ${MAX_SPEC_BYTES} bytes`);
          return readFileSync(real, 'utf8');
        },
      },
    },
    parse: {
      json: false,
      yaml: false,
      text: false,
      binary: false,
      safe: { order: 1, canParse: true, parse: (file: { url: string; data: unknown }) => parseSpecText(String(file.data), redact(file.url)) },
    },
    timeoutMs: FETCH_TIMEOUT_MS,
  };
  try {
    const baseUri = basePath.startsWith('http') ? basePath : pathToFileURL(basePath).toString();
    // swagger-parser's typings do not describe custom resolver objects; the shape follows its documentation.
    const bundled = await SwaggerParser.bundle(baseUri, doc as never, options as never);
    return bundled as unknown as Record<string, unknown>;
  } catch (cause) {
    if (refusal) throw refusal;
    if (cause instanceof AppError) throw cause;
    if (cause instanceof RangeError) {
      throw new AppError('SPEC_INVALID', 'import: external $ref chain too deep to resolve; flatten the references', { cause });
    }
    const msg = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new AppError('SPEC_INVALID', `import: cannot resolve external references (${msg})`, { cause });
  }
}

type ServerSnapshot = Array<{ holder: Record<string, unknown>; servers: unknown }>;

function snapshotServers(doc: Record<string, unknown>): ServerSnapshot {
  const out: ServerSnapshot = [];
  const keep = (holder: unknown): void => {
    if (isObject(holder) && Object.hasOwn(holder, 'servers')) out.push({ holder, servers: structuredClone(holder.servers) });
  };
  keep(doc);
  const paths = doc.paths;
  if (isObject(paths)) {
    for (const item of Object.values(paths)) {
      keep(item);
      if (isObject(item)) for (const op of Object.values(item)) keep(op);
    }
  }
  return out;
}

function restoreServers(doc: Record<string, unknown>, snapshot: ServerSnapshot): void {
  for (const { holder, servers } of snapshot) holder.servers = servers;
  // bundle may return a new root object; the snapshot's root entry refers to the old one.
  const root = snapshot.find((s) => s.holder === doc);
  if (!root && snapshot[0] && Object.hasOwn(snapshot[0].holder, 'openapi')) doc.servers = snapshot[0].servers;
}

/** The top-level key a local `$ref` points into (`#/components/schemas/X` -> `components`), or undefined. */
function topSection(ref: string): string | undefined {
  let frag: string;
  try {
    frag = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  const m = /^\/([^/]+)/.exec(frag);
  return m ? unescapePointer(m[1]!) : undefined;
}

/** How many different missing entries of the section a file ends in, mid-line, read as a cut, not as stray refs. */
const CUT_SECTION_MISSING = 5;

/** Whether the section at `ref` (`#/components/schemas`) is where the document ends: the last key at every level. */
function endsTheDocument(doc: Record<string, unknown>, ref: string): boolean {
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const token = unescapePointer(raw);
    if (!isObject(node) || Object.keys(node).at(-1) !== token) return false;
    node = node[token];
  }
  return isObject(node);
}

/**
 * Refuses a spec cut short. That is what the first part of a file looks like (YAML parses up to wherever it was
 * cut, and the shared definitions come last), and importing it would replace a good registry with a gutted one.
 * Two shapes: refs into a top-level section (`components`, `definitions`, ...) the document lacks altogether, so
 * many that they break at least half of its operations; or, when the text ends mid-line (`ragged`: no line break
 * at its end, as a cut-off download leaves it), refs naming at least five entries the section the file ends in
 * lacks (`#/components/schemas` the last key of the last key: the cut fell inside it), however many operations
 * they break. A spec that ends its lines and has many broken refs (RELIABILITY D12) imports with its report, as do a
 * few stray refs (to a missing entry, even one every operation names, or into a section the spec never had,
 * test/fixtures/specs/path-params.yaml): REF_BROKEN warnings, those operations skipped. An overlay that adds what is
 * missing (`components: {}`, the entries) lets such a spec in as it is.
 */
function refuseMissingSections(doc: Record<string, unknown>, broken: readonly RefSite[], where: string, ragged: boolean): void {
  const missing = new Map<string, RefSite[]>();
  // the entries missing from the section the document ends in, by that section (at most one: `#/a/b` or `#/a`)
  const tail = new Map<string, { sites: RefSite[]; names: Set<string> }>();
  for (const site of broken) {
    const top = topSection(site.ref);
    if (top === undefined) continue;
    if (!Object.hasOwn(doc, top) || doc[top] == null) {
      missing.set(top, [...(missing.get(top) ?? []), site]);
      continue;
    }
    const cut = site.ref.lastIndexOf('/');
    const section = site.ref.slice(0, cut);
    if (!ragged || section === '#' || !endsTheDocument(doc, section)) continue;
    const have = tail.get(section) ?? { sites: [], names: new Set<string>() };
    have.sites.push(site);
    have.names.add(site.ref.slice(cut + 1));
    tail.set(section, have);
  }
  for (const [section, { sites, names }] of tail) {
    if (names.size < CUT_SECTION_MISSING) continue;
    throw new AppError(
      'SPEC_INVALID',
      `import: ${where} looks cut short: it ends mid-line inside ${section}, and ${sites.length} $ref(s) name ${names.size} entries it does not have ` +
        `(first at ${sites[0]!.at}); check that the whole file was saved or downloaded`,
    );
  }
  if (missing.size === 0) return;
  // the operations such a ref sits in: under the operation itself, or at its path item (shared parameters)
  const operations: string[] = [];
  const paths = doc.paths;
  if (isObject(paths)) {
    for (const [path, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      for (const method of METHODS) if (isObject(item[method])) operations.push(`#/paths/${escapePointer(path)}/${method}`);
    }
  }
  const sites = [...missing.values()].flat();
  const within = (site: RefSite, at: string): boolean => site.at === at || site.at.startsWith(`${at}/`);
  const hit = operations.filter((op) => {
    const item = op.slice(0, op.lastIndexOf('/'));
    return sites.some((s) => within(s, op) || (within(s, item) && !METHODS.some((m) => within(s, `${item}/${m}`))));
  });
  if (operations.length === 0 || hit.length * 2 < operations.length) return;
  const sections = [...missing.entries()].sort((a, b) => b[1].length - a[1].length);
  const names = sections.map(([top]) => `#/${escapePointer(top)}`).join(', ');
  const first = sections[0]![1][0]!;
  throw new AppError(
    'SPEC_INVALID',
    `import: ${where} looks cut short: ${sites.length} $ref(s) in ${hit.length} of its ${operations.length} operations point into ${names}, ` +
      `which it does not have at all (first at ${first.at}); check that the whole file was saved or downloaded`,
  );
}

/**
 * Refuses an OAS 3.1 document whose only operations are `webhooks`: requests the API sends to its users, which an
 * agent cannot call, so the importer never reads them. Without this the import would fail later with "no
 * operations under `paths`", which reads as if the spec were broken. A path item given by `$ref` counts as having
 * operations (collectOperations resolves it).
 * @see https://spec.openapis.org/oas/v3.1.0#fixed-fields (webhooks)
 */
function refuseWebhooksOnly(doc: Record<string, unknown>, where: string): void {
  const webhooks = doc.webhooks;
  if (!isObject(webhooks)) return;
  const names = Object.keys(webhooks).filter((k) => !k.startsWith('x-'));
  if (names.length === 0) return;
  const paths = doc.paths;
  if (isObject(paths)) {
    for (const [path, item] of Object.entries(paths)) {
      if (path.startsWith('x-') || !isObject(item)) continue;
      if (typeof item.$ref === 'string' || METHODS.some((m) => isObject(item[m]))) return;
    }
  }
  const shown = names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  throw new AppError(
    'SPEC_NO_OPERATIONS',
    `import: ${where} has no operations under \`paths\`, only ${names.length} webhook(s) under \`webhooks\` (${shown}); webhooks are requests the ` +
      'API sends to you, not calls an agent can make, so they are not imported: nothing to import',
  );
}

export interface LoadOptions {
  /** Changes the parsed document in place before refs are resolved (import --overlay); may add warnings. */
  transform?: (doc: Record<string, unknown>, diagnostics: Diagnostic[]) => void;
}

/**
 * Reads, parses, version-checks and (when it has external refs) bundles a spec. Internal `$ref`s that point
 * nowhere give REF_BROKEN warnings here; the operations that need them are skipped later.
 */
export async function loadSpec(source: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  const read = await readSource(source);
  const where = read.baseUrl ? read.label : source;
  const sha256 = createHash('sha256').update(read.text).digest('hex');
  let parsed: unknown;
  try {
    parsed = parseSpecText(read.text, where);
  } catch (cause) {
    if (cause instanceof RangeError) throw new AppError('SPEC_INVALID', `import: ${where} is nested too deeply to parse`, { cause });
    throw cause;
  }
  if (parsed === null || parsed === undefined) {
    throw new AppError('SPEC_INVALID', `import: ${where} ${emptyDocument(read.text)}: there is no OpenAPI document in it; check that the whole file was saved or downloaded`);
  }
  let { kind, specVersion } = detectVersion(parsed, where);
  let doc = parsed as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [];
  if (options.transform) {
    // Overlays apply to the document as parsed, before any $ref is scanned or fetched: what they add passes the
    // same checks as the spec's own content. They may not turn it into another OpenAPI version by accident.
    options.transform(doc, diagnostics);
    ({ kind, specVersion } = detectVersion(doc, `${where} after its overlays`));
  }
  refuseWebhooksOnly(doc, where);

  // Extensions are never read by the importer: a $ref inside one is harmless unless it is external (it would
  // be fetched) or broken. Those extensions are removed with a warning; valid local ones are left alone.
  const scan = scanRefs(doc);
  const dropped = new Set<string>();
  for (const site of scan) {
    if (!site.ext || dropped.has(site.ext.at)) continue;
    const external = !site.ref.startsWith('#');
    if (!external && getPointer(doc, site.ref) !== undefined) continue;
    dropped.add(site.ext.at);
    diagnostics.push({
      level: 'warning',
      code: 'REF_IN_EXTENSION',
      pointer: site.at,
      message: `${external ? 'external' : 'broken'} $ref ${JSON.stringify(site.ref)} inside the extension ${site.ext.key}; the extension is ignored`,
    });
    delete site.ext.parent[site.ext.key];
  }
  const live = scan.filter((r) => !r.ext);
  const external = live.filter((r) => !r.ref.startsWith('#'));
  if (external.length > 0) {
    // swagger-parser rewrites relative `servers` of URL specs on its own (dropping the port); we resolve them
    // ourselves against the spec URL, so keep the originals.
    const servers = snapshotServers(doc);
    doc = await bundleExternal(doc, { filePath: read.filePath, baseUrl: read.baseUrl });
    restoreServers(doc, servers);
  }
  const finalRefs = external.length > 0 ? scanRefs(doc).filter((r) => !r.ext) : live;
  const broken = finalRefs.filter((site) => site.ref.startsWith('#') && getPointer(doc, site.ref) === undefined);
  refuseMissingSections(doc, broken, where, !/[\r\n]$/.test(read.text));
  for (const site of broken) {
    diagnostics.push({ level: 'warning', code: 'REF_BROKEN', pointer: site.at, message: `$ref ${JSON.stringify(site.ref)} points nowhere` });
  }
  const refTargets = [...new Set(finalRefs.filter((r) => r.ref.startsWith('#')).map((r) => r.ref))];
  return { doc, kind, specVersion, sourceLabel: read.label, sha256, ...(read.baseUrl ? { baseUrl: read.baseUrl } : {}), diagnostics, refTargets };
}
