// The base URL of an operation's request: the catalog's server (or the operator's `baseUrl` in its place), or the
// operation's (or path's) own server when its origin is trusted (F7). Server variables take their defaults (F6);
// URLs with userinfo are refused and origins are compared parsed, never as string prefixes (F9).
import { AppError } from '../errors.js';
import type { Operation, ServerInfo } from '../types.js';
import { credentialStatus, envPrefix } from './auth.js';
import type { ExecutionConfig } from './types.js';

function serverUrl(server: ServerInfo): string {
  // Server variables take their defaults; arguments never reach them (F6). A default outside its enum is refused.
  return server.url.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = server.variables?.[name];
    if (v === undefined) {
      throw new AppError('CONFIG_INVALID', `server URL ${server.url}: variable {${name}} has no default; set the base URL explicitly (--base-url)`);
    }
    if (v.enum !== undefined && v.enum.length > 0 && !v.enum.includes(v.default)) {
      throw new AppError('CONFIG_INVALID', `server URL ${server.url}: default ${JSON.stringify(v.default)} of {${name}} is not in its enum; set --base-url`);
    }
    return v.default;
  });
}

/**
 * The origin (`scheme://host[:port]`) of an absolute http(s) URL without userinfo, else undefined. Origins
 * are compared only in this parsed form, never as string prefixes (F9: `https://api.example.com.evil.com`
 * and `https://api.example.com@evil.com` are other hosts).
 */
export function originOf(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return url.origin;
}

/** Where a base URL came from, for a refusal to name: the operator's setting or the API description's servers. */
type BaseSource = { operator: boolean; op: Operation; config: ExecutionConfig };

function checkedUrl(raw: string, source?: BaseSource): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('CONFIG_INVALID', `base URL ${JSON.stringify(raw)} is not an absolute URL; set --base-url to e.g. https://api.example.com/v1`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('CONFIG_INVALID', `base URL ${JSON.stringify(raw)}: only http and https are supported`);
  }
  if (url.username !== '' || url.password !== '') {
    // never echoed: the userinfo is a credential; the origin says which URL
    const name = source?.config.catalog.name;
    const where =
      name === undefined
        ? 'the base URL'
        : source!.operator
          ? `the base URL setting (--base-url, ${envPrefix(name)}_BASE_URL or catalogs.${name}.baseUrl)`
          : `the API description's servers (or set a base URL without them: --base-url, ${envPrefix(name)}_BASE_URL or catalogs.${name}.baseUrl)`;
    const credentialEnv = source !== undefined ? credentialStatus(source.op, source.config).flatMap((c) => c.envVars) : [];
    const env = credentialEnv.length > 0 ? ` (${credentialEnv.join(', ')})` : '';
    throw new AppError('CONFIG_INVALID', `base URL ${url.origin} carries a user name or password, which is never sent from a URL: remove them from ${where} and set the credential environment variables${env} instead`, {
      details: { reason: 'userinfo', origin: url.origin, ...(credentialEnv.length > 0 ? { credentialEnv } : {}) },
    });
  }
  return url;
}

/** The config key that lets an operation's own server origin be used (named in F7 refusals). */
export function allowedOriginsKey(catalogName: string): string {
  return `catalogs.${catalogName}.allowedOrigins`;
}

/**
 * An operation server on the catalog's own origin, moved onto the operator's base URL the way the catalog server is:
 * the part of its path below the catalog server's path is appended to the base URL (catalog `/v1`, operation
 * `/v1/uploads`, base `http://127.0.0.1:4010/v1` -> `http://127.0.0.1:4010/v1/uploads`); a path beside it (`/v2`) keeps
 * whatever the base URL puts before the catalog's path (base `https://proxy/stripe/v1` -> `https://proxy/stripe/v2`).
 */
function rebase(own: URL, catalogRaw: string | undefined, base: URL): URL {
  let catalogPath = '';
  try {
    catalogPath = catalogRaw !== undefined ? new URL(catalogRaw).pathname.replace(/\/+$/, '') : '';
  } catch {
    catalogPath = '';
  }
  const ownPath = own.pathname.replace(/\/+$/, '');
  const basePath = base.pathname.replace(/\/+$/, '');
  let path: string;
  if (ownPath === catalogPath || ownPath.startsWith(`${catalogPath}/`)) path = basePath + ownPath.slice(catalogPath.length);
  else path = (catalogPath !== '' && basePath.endsWith(catalogPath) ? basePath.slice(0, basePath.length - catalogPath.length) : basePath) + ownPath;
  return new URL(`${base.origin}${path}${base.search}`);
}

/** The base URL an operation's request goes to, and for dry runs a note when the operation's own server was not used. */
export interface ResolvedBase {
  url: URL;
  note?: string;
}

/**
 * The base URL. The operator's `baseUrl` takes the place of the catalog's server: operations without servers of their
 * own use it, and so do those whose own server is on the catalog's origin (moved onto it by rebase). Then:
 * - a base URL on the catalog's own origin (the operator pins the path or version of the real API): an operation's own
 *   server on another origin is used when that origin is listed in `allowedOrigins` (Stripe's files.stripe.com,
 *   GitHub's uploads.github.com), else refused (UNSAFE_REQUEST naming the origin and the config key that allows it, F7),
 *   exactly as without a base URL;
 * - a base URL on another origin (a proxy, a mock, an enterprise install): every operation goes there, also one with
 *   its own server elsewhere (the dry run's note names the server not used), so no call and no credential of a
 *   catalog pointed at a test or private host reaches the public one behind the operator's back.
 * The first usable entry of the operation's servers wins. Must be absolute http(s) without userinfo.
 */
export function resolveBase(op: Operation, config: ExecutionConfig): ResolvedBase {
  const source = (operator: boolean): BaseSource => ({ operator, op, config });
  const operatorBase = config.baseUrl !== undefined && config.baseUrl !== '' ? checkedUrl(config.baseUrl, source(true)) : undefined;
  const first = config.catalog.servers[0];
  if (op.servers.length === 0) {
    if (operatorBase !== undefined) return { url: operatorBase };
    const catalogRaw = first !== undefined ? serverUrl(first) : undefined;
    if (catalogRaw === undefined || catalogRaw === '') {
      throw new AppError('CONFIG_INVALID', `${config.catalog.name}: the API description names no server; set the base URL (--base-url or ${envPrefix(config.catalog.name)}_BASE_URL)`);
    }
    return { url: checkedUrl(catalogRaw, source(false)) };
  }
  // Operation- or path-level servers (F7): never a new origin unless the operator allowed it.
  const own = new Set<string>();
  for (const s of config.catalog.servers) {
    try {
      const o = originOf(serverUrl(s));
      if (o !== undefined) own.add(o);
    } catch {
      // a catalog server without usable defaults trusts nothing
    }
  }
  const allowed = new Set<string>();
  for (const a of config.allowedOrigins ?? []) {
    const o = originOf(a);
    if (o !== undefined) allowed.add(o);
  }
  let catalogRaw: string | undefined;
  try {
    catalogRaw = first !== undefined ? serverUrl(first) : undefined;
  } catch {
    catalogRaw = undefined;
  }
  const elsewhere = operatorBase !== undefined && !own.has(operatorBase.origin) ? operatorBase : undefined;
  let refused: string | undefined;
  for (const s of op.servers) {
    const raw = serverUrl(s);
    // A relative server URL is relative to the catalog's server (OAS 3 "relative to the document").
    let url: URL;
    try {
      url = raw.startsWith('/') && !raw.startsWith('//') && catalogRaw !== undefined ? new URL(raw, checkedUrl(catalogRaw).origin) : new URL(raw);
    } catch {
      throw new AppError('CONFIG_INVALID', `${op.name}: server URL ${JSON.stringify(raw)} is not a URL; set the base URL explicitly (--base-url)`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new AppError('UNSAFE_REQUEST', `${op.name}: the operation's server URL carries userinfo (${url.host}); refused`, {
        details: { origin: url.origin },
      });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new AppError('CONFIG_INVALID', `${op.name}: server URL ${JSON.stringify(raw)}: only http and https are supported`);
    }
    if (own.has(url.origin)) return { url: operatorBase !== undefined ? rebase(url, catalogRaw, operatorBase) : url };
    if (elsewhere === undefined && allowed.has(url.origin)) return { url };
    refused ??= url.origin;
  }
  if (elsewhere !== undefined) {
    const note = `${op.name}'s own server ${refused ?? '(none)'} is not used: the base URL ${elsewhere.origin} is not the API's origin (${[...own].join(', ') || 'none'}), so every call of this catalog goes to it; to call ${refused ?? 'that server'} itself, set the base URL on the API's origin or remove it`;
    return { url: elsewhere, note };
  }
  const key = allowedOriginsKey(config.catalog.name);
  throw new AppError(
    'UNSAFE_REQUEST',
    `${op.name}: the operation's server ${refused ?? '(none)'} is not the API's origin (${[...own].join(', ') || 'none'}); refused so no request, argument or credential goes there. To allow it, add ${JSON.stringify(refused)} to ${key} in the config file (--config or API_CATALOG_CONFIG), or set the base URL`,
    { details: { origin: refused, allowedOrigins: [...own, ...allowed], configKey: key } },
  );
}

/** resolveBase's URL. */
export function resolveBaseUrl(op: Operation, config: ExecutionConfig): URL {
  return resolveBase(op, config).url;
}
