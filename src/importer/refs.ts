// A spec's `$ref`s: finding every one (scanRefs), and resolving the external ones through swagger-parser with our
// own confined resolvers: files only inside the spec's folder, http(s) only to public addresses (or the very
// origin the user typed). Internal refs stay as they are; the schema converter resolves them into `$defs`.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { AppError } from '../errors.js';
import { fetchText, redact } from './net.js';
import { escapePointer, isObject } from './pointer.js';
import { FETCH_TIMEOUT_MS, MAX_SPEC_BYTES, parseSpecText } from './spec-text.js';

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
export async function bundleExternal(doc: Record<string, unknown>, base: { filePath?: string; baseUrl?: string }): Promise<Record<string, unknown>> {
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

/** The `servers` of the root, each path item and each operation, as they were (bundle rewrites relative ones). */
export type ServerSnapshot = Array<{ holder: Record<string, unknown>; servers: unknown }>;

export function snapshotServers(doc: Record<string, unknown>): ServerSnapshot {
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

export function restoreServers(doc: Record<string, unknown>, snapshot: ServerSnapshot): void {
  for (const { holder, servers } of snapshot) holder.servers = servers;
  // bundle may return a new root object; the snapshot's root entry refers to the old one.
  const root = snapshot.find((s) => s.holder === doc);
  if (!root && snapshot[0] && Object.hasOwn(snapshot[0].holder, 'openapi')) doc.servers = snapshot[0].servers;
}
