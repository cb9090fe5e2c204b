// The importer's public API (build time only): importSpec turns a spec file or URL into an ImportResult;
// writeRegistry / checkRegistry put it on disk or compare it. Pipeline: load (safe read, parse, overlays, version,
// external refs) -> operations (flat arguments, responses, x-api-catalog-* extensions) -> names -> hidden ones
// dropped -> domains -> schemas compiled + examples (compile.ts) -> parameter sources (sources.ts) -> lint.
import { basename } from 'node:path';
import { AppError } from '../errors.js';
import type { CatalogMeta, Diagnostic, Operation, SecurityRequirement, SecuritySchemeInfo } from '../types.js';
import { checkSchemas } from './compile.js';
import { EXT, INFO_EXT, catalogDescription, catalogTitle, readAgentExtensions, readCatalogExtensions, warnMisplacedExtensions, type AgentExtensions } from './curation.js';
import { lintCatalogText, lintCredentialParameters, lintOperations, lintSchemeDescription, lintTagDescriptions, LINT_CODES, WITHHELD_TEXT } from './lint.js';
import { loadSpec } from './load.js';
import type { LoadedSpec } from './load.js';
import { splitDominantDomain } from './domains.js';
import { applyRenames, assignNames, buildDomains, domainOf, tagDescriptions, tagGroups } from './names.js';
import { buildOperation, collectOperations } from './operations.js';
import type { BuildContext, RawOperation } from './context.js';
import { documentServers } from './servers.js';
import { linkSources } from './sources.js';
import { isUrl } from './spec-text.js';
import { applyOverlay, extendsMismatch, readOverlay, shownPointer } from './overlay.js';
import { escapePointer, isObject, own, setOwn } from './pointer.js';
import { SchemaConverter } from './schema.js';
import { cleanLine, slug } from './text.js';

export type { ImportResult, WriteReport, CheckReport, DomainChange, ChangesFile } from './write.js';
export { writeRegistry, checkRegistry, renderRegistry, CHANGES_FILE } from './write.js';
import type { ImportResult } from './write.js';

export interface ImportOptions {
  /** Catalog name (`[a-z0-9_-]+`); default: the slug of the spec's file name (`github.json` -> `github`). */
  name?: string;
  /** Fail (SPEC_INVALID) on any import warning; lint findings do not count. Default false. */
  strict?: boolean;
  /** Progress lines for people (the CLI prints them on stderr). */
  onProgress?: (message: string) => void;
  /**
   * OpenAPI Overlay 1.0 documents applied in order to the parsed spec before normalizing (`import --overlay`).
   * `label` is the path recorded in catalog.json (default: `file` as given).
   */
  overlays?: Array<{ file: string; label?: string }>;
  /**
   * The catalog's display name and description (`import --title` / `--description`), over the spec's
   * `info.x-api-catalog-title` / `-description` and its `info.title` / `info.description`. Recorded in
   * catalog.json (`importArgs`) so `import --check` re-applies them.
   */
  title?: string;
  description?: string;
  /**
   * Give up (SPEC_TOO_LARGE) when the import runs longer than this, checked after parsing and between
   * operations, so a pathological spec cannot hold a CI job or a server start hostage. Default 300,000 ms
   * (Microsoft Graph beta, 22,000 operations, takes 40-90 s on this 2-core machine, depending on load). The
   * CLI checks the same deadline (importDeadline) while it writes the registry and its search snapshot.
   */
  timeoutMs?: number;
}

/** Default import deadline (ms). */
export const IMPORT_TIMEOUT_MS = 300_000;

/** A deadline check, started now: throws SPEC_TOO_LARGE naming the stage and how far it got. */
export function importDeadline(timeoutMs: number, source: string): (stage: string, done?: number, total?: number) => void {
  const started = performance.now();
  return (stage, done, total) => {
    if (performance.now() - started <= timeoutMs) return;
    const where = done !== undefined && total !== undefined ? ` (${done} of ${total} done)` : '';
    throw new AppError(
      'SPEC_TOO_LARGE',
      `import: gave up on ${source} after ${Math.round(timeoutMs / 1000)} s while ${stage}${where}; the spec is too large or too complex for the deadline — raise it with --timeout <seconds>`,
    );
  };
}

/** The catalog name for a source: `--name`, else the spec file's name without extension, slugged. */
export function catalogNameFor(source: string, name?: string): string {
  if (name !== undefined) {
    const s = slug(name);
    if (s === '' || s !== name.toLowerCase()) {
      throw new AppError('CONFIG_INVALID', `import: catalog name ${JSON.stringify(name)} must match [a-z0-9_-]+ (try ${JSON.stringify(s || 'api')})`);
    }
    return s;
  }
  let file = source;
  if (isUrl(source)) {
    try {
      file = new URL(source).pathname.split('/').filter(Boolean).pop() ?? '';
    } catch {
      file = '';
    }
  } else file = basename(source);
  file = file.replace(/\.(json|ya?ml)$/i, '').replace(/\.(openapi|swagger)$/i, '');
  return slug(file) || 'api';
}

const SCHEME_TYPES = new Set(['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS']);

/**
 * components.securitySchemes (OAS 3) or securityDefinitions (Swagger 2.0), in OAS 3 terms, sorted by name. A
 * description that reads like instructions to an AI is withheld (list_domains shows it plainly) and its finding
 * appended to `lint`.
 */
function securitySchemes(loaded: LoadedSpec, lint: Diagnostic[]): Record<string, SecuritySchemeInfo> {
  const at = loaded.kind === 'swagger2' ? '#/securityDefinitions' : '#/components/securitySchemes';
  const src = loaded.kind === 'swagger2' ? own(loaded.doc, 'securityDefinitions') : own(own(loaded.doc, 'components'), 'securitySchemes');
  const out: Record<string, SecuritySchemeInfo> = {};
  if (!isObject(src)) return out;
  for (const name of Object.keys(src).sort()) {
    let s = src[name];
    const ref = own(s, '$ref');
    if (typeof ref === 'string') s = undefined;
    if (!isObject(s) || typeof s.type !== 'string') continue;
    let info: SecuritySchemeInfo;
    if (s.type === 'basic') info = { type: 'http', scheme: 'basic' };
    else if (SCHEME_TYPES.has(s.type)) info = { type: s.type as SecuritySchemeInfo['type'] };
    else continue;
    if (info.type === 'apiKey') {
      if (s.in === 'header' || s.in === 'query' || s.in === 'cookie') info.in = s.in;
      if (typeof s.name === 'string') info.name = s.name;
    }
    if (info.type === 'http' && typeof s.scheme === 'string') info.scheme = s.scheme.toLowerCase();
    if (typeof s.bearerFormat === 'string') info.bearerFormat = cleanLine(s.bearerFormat, 60);
    const d = cleanLine(s.description, 300);
    const finding = d !== '' ? lintSchemeDescription(`${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}/description`, s.description, d, name) : undefined;
    if (finding !== undefined) lint.push(finding);
    if (d !== '') info.description = finding !== undefined ? WITHHELD_TEXT : d;
    setOwn(out, name, info);
  }
  return out;
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  for (const k of ['pointer', 'code', 'message'] as const) {
    if (a[k] < b[k]) return -1;
    if (a[k] > b[k]) return 1;
  }
  return 0;
}

/**
 * x-api-catalog-read-only: a curator's word on whether an operation only reads, over its method's (GET and HEAD read).
 * Only-reads and destructive contradict each other: a destructive operation stays writing, with a warning.
 */
function applyReadOnly(op: Operation, readOnly: boolean, at: string, diagnostics: Diagnostic[]): void {
  if (readOnly && op.destructive) {
    diagnostics.push({
      level: 'warning',
      code: 'EXTENSION_INVALID',
      pointer: `${at}/${escapePointer(EXT.readOnly)}`,
      message: `${EXT.readOnly}: true contradicts a destructive operation (${op.method.toUpperCase()} ${op.path}); ignored (set ${EXT.destructive}: false as well if it only reads)`,
    });
    return;
  }
  op.readOnly = readOnly;
}

/**
 * Lets the event loop run between the phases of an import (a large spec's phases take seconds each): a server or a
 * test worker that imports in process keeps answering its timers and messages meanwhile.
 */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** "imported 5 operations in 1 domain": the summary of an import, for its progress and the CLI's report. */
export function importedCounts(operations: number, domains: number): string {
  const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `imported ${count(operations, 'operation')} in ${count(domains, 'domain')}`;
}

/**
 * Imports a Swagger 2.0 / OpenAPI 3.0 / 3.1 spec (JSON or YAML file, or http(s) URL) into registry entries.
 * Usable operations are imported with warnings for the rest; with `strict`, any warning fails the import.
 * Throws AppError (SPEC_UNREADABLE, SPEC_INVALID, SPEC_UNSUPPORTED_VERSION, SPEC_NO_OPERATIONS, SPEC_TOO_LARGE,
 * SPEC_REF_REFUSED) with one line naming the problem and where.
 */
export async function importSpec(source: string, options: ImportOptions = {}): Promise<ImportResult> {
  const progress = options.onProgress ?? ((): void => {});
  const name = catalogNameFor(source, options.name);
  const importArgs = displayArgs(options);
  const checkDeadline = importDeadline(options.timeoutMs ?? IMPORT_TIMEOUT_MS, source);
  // Overlays are read and validated before the spec, so a broken one fails fast and names itself.
  const overlays = (options.overlays ?? []).map((o) => readOverlay(o.file, o.label ?? o.file));
  const loaded = await loadSpec(source, overlays.length === 0 ? {} : {
    transform: (doc, found) => {
      for (const overlay of overlays) {
        const mismatch = extendsMismatch(overlay, source);
        if (mismatch) found.push(mismatch);
        applyOverlay(doc, overlay, found);
        progress(`applied overlay ${overlay.file} (${overlay.actions.length} action(s))`);
      }
    },
  });
  checkDeadline('parsing');
  progress(`parsed ${loaded.sourceLabel} (${loaded.kind === 'swagger2' ? 'Swagger' : 'OpenAPI'} ${loaded.specVersion})`);
  await breathe();
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  const ctx: BuildContext = {
    doc: loaded.doc,
    kind: loaded.kind,
    conv: new SchemaConverter(loaded.doc, loaded.kind, loaded.refTargets),
    diagnostics,
    ...(loaded.baseUrl ? { baseUrl: loaded.baseUrl } : {}),
  };
  const raws = collectOperations(ctx);
  if (raws.length === 0) {
    throw new AppError('SPEC_NO_OPERATIONS', `import: ${loaded.sourceLabel} has no operations under \`paths\`; nothing to import`);
  }
  let operations: Operation[] = [];
  const hadText = new Map<Operation, boolean>();
  const rawText = new Map<Operation, string[]>();
  const curated = new Map<Operation, AgentExtensions>();
  const rawOf = new Map<Operation, RawOperation>();
  for (const [i, raw] of raws.entries()) {
    checkDeadline('building operations', i, raws.length);
    const op = buildOperation(raw, ctx);
    if (op) {
      operations.push(op);
      rawOf.set(op, raw);
      const ext = readAgentExtensions(raw.op, raw.at, diagnostics);
      if (ext.summary !== undefined) op.summary = ext.summary;
      if (ext.keywords !== undefined) op.keywords = ext.keywords;
      if (ext.destructive !== undefined) op.destructive = ext.destructive;
      if (ext.readOnly !== undefined) applyReadOnly(op, ext.readOnly, raw.at, diagnostics);
      curated.set(op, ext);
      const t = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
      hadText.set(op, t(raw.op.summary) || t(raw.op.description));
      rawText.set(op, [raw.op.summary, raw.op.description].filter((v): v is string => typeof v === 'string').map((v) => v.slice(0, 20_000)));
    }
    if ((i + 1) % 250 === 0) {
      progress(`built ${i + 1}/${raws.length} operations`);
      await breathe();
    }
  }
  if (operations.length === 0) {
    throw new AppError('SPEC_NO_OPERATIONS', `import: none of the ${raws.length} operations in ${loaded.sourceLabel} could be imported (see the warnings); fix the spec`, { details: diagnostics });
  }
  // Names are assigned with hidden operations still present, so hiding one never renames another; the curators'
  // renames (x-api-catalog-name) come after, among the operations kept.
  assignNames(operations, diagnostics);
  const hiddenOperations = operations.filter((op) => curated.get(op)?.hidden === true).length;
  if (hiddenOperations > 0) {
    operations = operations.filter((op) => curated.get(op)?.hidden !== true);
    progress(`dropped ${hiddenOperations} operation(s) marked x-api-catalog-hidden`);
    if (operations.length === 0) {
      throw new AppError('SPEC_NO_OPERATIONS', `import: every operation of ${loaded.sourceLabel} is marked x-api-catalog-hidden; nothing to serve`);
    }
  }
  const renames = new Map<Operation, string>();
  for (const op of operations) {
    const wanted = curated.get(op)?.name;
    if (wanted !== undefined) renames.set(op, wanted);
  }
  const renamed = applyRenames(operations, renames);
  const groups = tagGroups(loaded.doc);
  for (const op of operations) op.domain = curated.get(op)?.domain ?? domainOf(op, groups);
  const placedAt = new Map(operations.map((op) => [op, op.domain]));
  const split = splitDominantDomain(operations, (op) => curated.get(op)?.domain !== undefined);
  const moved = operations.filter((op) => placedAt.get(op) !== op.domain);
  const grouped = (by: 'path' | 'action', n: number): string => `grouped them ${by === 'path' ? 'by path' : 'by the resource their actions name'} into ${n} domains`;
  if (split !== undefined) {
    progress(`domain "${split.domain}" held ${split.operations} of ${operations.length} operations: ${grouped(split.by, split.parts)} (a map of one domain tells an agent nothing)`);
  } else if (moved.length > 0) {
    // an RPC-style spec's one domain per operation, regrouped by action (splitDominantDomain names no domain for it)
    progress(`${moved.length} operations were in ${new Set(moved.map((op) => placedAt.get(op))).size} domains, about one each: ${grouped('action', new Set(moved.map((op) => op.domain)).size)} (a domain per operation is no map)`);
  }

  await breathe();
  checkSchemas(operations, diagnostics, progress, checkDeadline);
  await breathe();
  checkDeadline('matching parameters to the responses that give them');
  progress('matching parameters to the operations whose answers give them');
  linkSources(operations, rawOf, ctx);
  const linkedParams = operations.reduce((n, op) => n + Object.keys(op.paramSources ?? {}).length, 0);
  progress(`matched ${linkedParams} parameter(s) to the operations that give them`);
  await breathe();

  const lint = lintOperations(operations, hadText, rawText);
  // credentials the API takes as arguments: a warning (fails --strict), with the overlay that fixes it
  diagnostics.push(...lintCredentialParameters(operations, loaded.doc, loaded.kind === 'swagger2'));
  // schemas whose own example contradicts their type, widened at conversion (example-types.ts)
  lint.push(...ctx.conv.exampleFindings.values());
  operations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // a tag description that reads like instructions is withheld before it becomes a domain's (lint.ts)
  const described = tagDescriptions(loaded.doc);
  lint.push(...lintTagDescriptions(loaded.doc, described));
  const domains = buildDomains(operations, described);
  const info = own(loaded.doc, 'info');
  // The display name and description: import's own arguments, else the curators' info extensions, else the spec's.
  const display = readCatalogExtensions(info, diagnostics);
  warnMisplacedExtensions(loaded.doc, new Set(raws.map((raw) => raw.op)), diagnostics);
  // The spec's title or description as shown (the curators' extension, else info's own), withheld when it reads
  // like instructions to an AI: an empty title (the catalog name is shown), WITHHELD_TEXT for the description.
  const specText = (key: 'title' | 'description', extension: string | undefined, clean: (raw: unknown) => string): string => {
    const field = extension !== undefined ? INFO_EXT[key] : key;
    const text = extension ?? clean(own(info, key));
    const finding = lintCatalogText(key, `#/info/${field}`, own(info, field), text, name);
    if (finding === undefined) return text;
    lint.push(finding);
    return key === 'title' ? '' : WITHHELD_TEXT;
  };
  const meta: CatalogMeta = {
    formatVersion: 1,
    name,
    title: importArgs.title ?? (specText('title', display.title, catalogTitle) || name),
    version: cleanLine(String(own(info, 'version') ?? ''), 60),
    description: importArgs.description ?? specText('description', display.description, catalogDescription),
    specVersion: loaded.specVersion,
    source: loaded.sourceLabel,
    sourceSha256: loaded.sha256,
    ...(overlays.length > 0 ? { overlays: overlays.map((o) => ({ path: o.label, sha256: o.sha256 })) } : {}),
    servers: documentServers(ctx),
    securitySchemes: securitySchemes(loaded, lint),
    securityRequirements: distinctSecurity(operations),
    domains,
    operationCount: operations.length,
    ...(hiddenOperations > 0 ? { hiddenOperations } : {}),
    ...(Object.keys(renamed).length > 0 ? { renamed } : {}),
    ...(flaggedOperations(operations) ?? {}),
    ...(Object.keys(importArgs).length > 0 ? { importArgs } : {}),
  };
  const all = [...diagnostics, ...lint].sort(compareDiagnostics);
  const unique = all.filter((d, i) => i === 0 || compareDiagnostics(d, all[i - 1] as Diagnostic) !== 0);
  if (options.strict) {
    const lintCodes: readonly string[] = LINT_CODES;
    const warnings = unique.filter((d) => !lintCodes.includes(d.code));
    if (warnings.length > 0) {
      const first = warnings[0] as Diagnostic;
      throw new AppError('SPEC_INVALID', `import: --strict and ${warnings.length} warning(s); first: ${first.code} at ${shownPointer(first.pointer, overlays)}: ${first.message}`, { details: warnings });
    }
  }
  progress(importedCounts(operations.length, domains.length));
  return { meta, operations, diagnostics: unique };
}

/**
 * `title` / `description` import options as stored (cleaned like the spec's own); CONFIG_INVALID naming the
 * option when nothing is left of a given value.
 */
function displayArgs(options: ImportOptions): NonNullable<CatalogMeta['importArgs']> {
  const out: NonNullable<CatalogMeta['importArgs']> = {};
  for (const [key, clean] of [['title', catalogTitle], ['description', catalogDescription]] as const) {
    const raw = options[key];
    if (raw === undefined) continue;
    const value = clean(raw);
    if (value === '') throw new AppError('CONFIG_INVALID', `import: --${key} is empty; give the catalog's display ${key === 'title' ? 'name, e.g. --title "SendGrid v3"' : 'description in a sentence'}`);
    out[key] = value;
  }
  return out;
}

/** CatalogMeta.flaggedOperations of the operations (sorted by name), or undefined when the lint flagged none. */
function flaggedOperations(operations: readonly Operation[]): Pick<CatalogMeta, 'flaggedOperations'> | undefined {
  const flagged = operations.filter((op) => (op.flags ?? []).length > 0).map((op) => [op.name, op.flags as string[]] as const);
  return flagged.length > 0 ? { flaggedOperations: Object.fromEntries(flagged) } : undefined;
}

/** The distinct `security` lists of operations (in name order), first seen first (CatalogMeta.securityRequirements). */
function distinctSecurity(operations: readonly Operation[]): SecurityRequirement[][] {
  const seen = new Map<string, SecurityRequirement[]>();
  for (const op of operations) {
    const signature = JSON.stringify(op.security);
    if (!seen.has(signature)) seen.set(signature, op.security);
  }
  return [...seen.values()];
}
