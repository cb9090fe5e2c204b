// Loading a spec safely (RELIABILITY group D): read a file or URL under a size cap, parse it (spec-text.ts), check
// the version, refuse a document cut short or holding only webhooks, and resolve external `$ref`s under our own
// confined resolvers (refs.ts). Internal refs stay as they are; the schema converter resolves them into
// per-operation `$defs`.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AppError } from '../errors.js';
import type { Diagnostic } from '../types.js';
import { fetchBody, redact } from './net.js';
import { METHODS } from './operations.js';
import { escapePointer, getPointer, isObject, unescapePointer } from './pointer.js';
import { bundleExternal, restoreServers, scanRefs, snapshotServers, type RefSite } from './refs.js';
import { decodeSpecBytes, emptyDocument, FETCH_TIMEOUT_MS, isUrl, MAX_SPEC_BYTES, parseSpecText } from './spec-text.js';

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
