// Builds the exact HTTP request of an operation from validated arguments: base URL (servers, variables,
// operator override, explicit base-path join), parameters by location and style, body by media type, auth.
// Arguments can never change the host: every value is encoded into its own slot and the result is re-parsed
// and checked against the base origin and the intended path.
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Operation, ServerInfo } from '../types.js';
import { credentialStatus, envPrefix, resolveAuth, type AppliedAuth } from './auth.js';
import { assertHeaderSafe, binaryBody, encodeFormBody, encodeMultipart, encodePathParam, encodeQueryParam, encodeStrict, headerValue, primitiveText } from './encode.js';
import { isLoopbackHost } from '../net/address-policy.js';
import { Redactor } from './redact.js';
import type { ExecutionConfig, PreparedRequest } from './types.js';

/** Headers arguments can never set (G2): transport-owned or credential-owned. */
export const RESERVED_HEADERS = new Set([
  'authorization', 'proxy-authorization', 'cookie', 'host', 'content-length', 'transfer-encoding', 'content-type',
  'accept', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'accept-encoding',
]);

export const USER_AGENT = 'api-catalog/0.1';

/** The internal, unredacted request. */
export interface BuiltRequest {
  method: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Text of the body for dry runs, or a summary for binary bodies. */
  bodyPreview?: string;
  redactor: Redactor;
  /** Set when the request carries a generated idempotency key (so retries are safe and reuse it). */
  idempotencyKey?: string;
  /** A credential on a plain-http, non-loopback URL: why it is refused (unless allowed) and the dry run's warning. */
  plainHttp?: { refusal: AppError | undefined; warning: string };
}

/** The config key that allows credentials over plain http for a catalog. */
export function allowHttpCredentialsKey(catalogName: string): string {
  return `catalogs.${catalogName}.allowHttpCredentials`;
}

/**
 * A request that would carry a credential to a non-loopback `http://` URL: the refusal (undefined when the
 * operator allowed it) and a warning for dry runs. Loopback stays allowed: a local proxy or a test upstream.
 */
function plainHttpCheck(op: Operation, base: URL, auth: AppliedAuth, config: ExecutionConfig): BuiltRequest['plainHttp'] {
  if (base.protocol !== 'http:' || auth.secrets.length === 0 || isLoopbackHost(base.hostname)) return undefined;
  const name = config.catalog.name;
  const key = allowHttpCredentialsKey(name);
  const what = [...new Set(auth.sources)].join(' and ') || 'the credential';
  const https = `https://${base.host}${base.pathname.replace(/\/+$/, '')}`;
  if (config.allowHttpCredentials === true) {
    return { refusal: undefined, warning: `${what} will be sent to ${base.origin} over plain http, unencrypted (allowed by ${key} or --allow-http-credentials)` };
  }
  const refusal = new AppError(
    'UNSAFE_REQUEST',
    `${op.name}: refused to send ${what} to ${base.origin} over plain http: the credential would cross the network unencrypted. ` +
      `Use https if the API offers it (--base-url ${https}, or ${envPrefix(name)}_BASE_URL), or, on a network you trust, allow it with "allowHttpCredentials": true in ${key.replace(/\.allowHttpCredentials$/, '')} of the config file (or the flag --allow-http-credentials)`,
    { details: { origin: base.origin, configKey: key, flag: '--allow-http-credentials' } },
  );
  return { refusal, warning: `${what} would be sent to ${base.origin} over plain http, unencrypted: the call is refused unless ${key} is true or --allow-http-credentials is given; prefer an https base URL (--base-url ${https})` };
}

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
 * The base URL: operator override (`baseUrl`), else the operation's (or path's) `servers`, else the catalog's
 * first server. Must be absolute http(s) without userinfo. An operation-level server is used only when its
 * origin is the catalog's own (its servers with variable defaults) or listed in `allowedOrigins` (F7): the
 * first such entry wins; none -> UNSAFE_REQUEST naming the origin and the config key that allows it.
 */
export function resolveBaseUrl(op: Operation, config: ExecutionConfig): URL {
  const source = (operator: boolean): BaseSource => ({ operator, op, config });
  if (config.baseUrl !== undefined && config.baseUrl !== '') return checkedUrl(config.baseUrl, source(true));
  const first = config.catalog.servers[0];
  if (op.servers.length === 0) {
    const catalogRaw = first !== undefined ? serverUrl(first) : undefined;
    if (catalogRaw === undefined || catalogRaw === '') {
      throw new AppError('CONFIG_INVALID', `${config.catalog.name}: the API description names no server; set the base URL (--base-url or ${envPrefix(config.catalog.name)}_BASE_URL)`);
    }
    return checkedUrl(catalogRaw, source(false));
  }
  // Operation- or path-level servers (F7): never a new origin unless the operator allowed it.
  const trusted = new Set<string>();
  for (const s of config.catalog.servers) {
    try {
      const o = originOf(serverUrl(s));
      if (o !== undefined) trusted.add(o);
    } catch {
      // a catalog server without usable defaults trusts nothing
    }
  }
  for (const a of config.allowedOrigins ?? []) {
    const o = originOf(a);
    if (o !== undefined) trusted.add(o);
  }
  let catalogRaw: string | undefined;
  try {
    catalogRaw = first !== undefined ? serverUrl(first) : undefined;
  } catch {
    catalogRaw = undefined;
  }
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
    if (trusted.has(url.origin)) return url;
    refused ??= url.origin;
  }
  const key = allowedOriginsKey(config.catalog.name);
  throw new AppError(
    'UNSAFE_REQUEST',
    `${op.name}: the operation's server ${refused ?? '(none)'} is not the API's origin (${[...trusted].join(', ') || 'none'}); refused so no request, argument or credential goes there. To allow it, add ${JSON.stringify(refused)} to ${key} in the config file (--config or API_CATALOG_CONFIG), or set the base URL`,
    { details: { origin: refused, allowedOrigins: [...trusted], configKey: key } },
  );
}

function has(args: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(args, k) && args[k] !== undefined;
}

function isJsonType(mt: string): boolean {
  return /^application\/(.+\+)?json\b/i.test(mt) || mt === '*/*';
}

/** Builds the request (unredacted). Throws AppError (INVALID_ARGUMENTS, AUTH_MISSING, CONFIG_INVALID, UNSAFE_REQUEST, NOT_EXECUTABLE). */
export function buildRequest(op: Operation, args: Record<string, unknown>, config: ExecutionConfig): BuiltRequest {
  const base = resolveBaseUrl(op, config);
  const auth = resolveAuth(op, config);
  const method = op.method.toUpperCase();

  // Path: each template variable becomes exactly one encoded segment.
  const pathBindings = new Map(op.bindings.filter((b) => b.in === 'path').map((b) => [b.name, b]));
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const b = pathBindings.get(name);
    if (b === undefined) throw new AppError('NOT_EXECUTABLE', `${op.name}: path parameter {${name}} is not declared in the API description`);
    if (!has(args, b.arg)) {
      throw new AppError('INVALID_ARGUMENTS', `${op.name}: path parameter ${b.arg} is required`, {
        details: { errors: [{ path: `/${b.arg}`, message: 'required property is missing', expected: 'a value for this path parameter' }] },
      });
    }
    return encodePathParam(b.arg, args[b.arg], b.style, b.explode);
  });
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new AppError('UNSAFE_REQUEST', `${op.name}: the path ${JSON.stringify(op.path)} is not a relative path below the base URL`);
  }

  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const b of op.bindings) {
    if (!has(args, b.arg)) continue;
    const v = args[b.arg];
    if (b.in === 'query') {
      if (auth.reservedQuery.has(b.name)) continue; // the credential owns this name (G4)
      query.push(...encodeQueryParam(b.name, v, { style: b.style, explode: b.explode, allowReserved: b.allowReserved, contentType: b.contentType }));
    } else if (b.in === 'header') {
      const lower = b.name.toLowerCase();
      if (RESERVED_HEADERS.has(lower) || auth.reservedHeaders.has(lower)) continue; // G2
      assertHeaderSafe(b.name, b.name);
      headers[lower] = headerValue(b.name, v, b.explode, b.arg);
    } else if (b.in === 'cookie') {
      if (auth.reservedCookies.has(b.name)) continue;
      const text = Array.isArray(v) ? v.map(primitiveText).join(',') : primitiveText(v);
      cookies.push(`${encodeStrict(b.name)}=${encodeStrict(text)}`);
    }
  }
  for (const [k, v] of auth.query) query.push(`${encodeStrict(k)}=${encodeStrict(v)}`);
  for (const [k, v] of auth.cookies) cookies.push(`${encodeStrict(k)}=${encodeStrict(v)}`);
  if (cookies.length > 0) headers.cookie = cookies.join('; ');

  // Body.
  let body: string | Buffer | undefined;
  let bodyPreview: string | undefined;
  const rb = op.requestBody;
  if (rb !== undefined) {
    const mediaType = rb.mediaTypes[0] ?? 'application/json';
    let value: unknown;
    let present = false;
    if (rb.mode === 'whole') {
      const b = op.bindings.find((x) => x.in === 'body' && x.wholeBody) ?? op.bindings.find((x) => x.in === 'body');
      if (b !== undefined && has(args, b.arg)) {
        value = args[b.arg];
        present = true;
      }
    } else {
      // A null-prototype object: a `__proto__` argument stays an ordinary own key (G5).
      const obj = Object.create(null) as Record<string, unknown>;
      for (const b of op.bindings) {
        if (b.in !== 'body' || !has(args, b.arg)) continue;
        obj[b.name] = args[b.arg];
        present = true;
      }
      value = obj;
    }
    if (present || rb.required) {
      const lower = mediaType.toLowerCase();
      if (isJsonType(lower)) {
        body = JSON.stringify(value ?? {});
        headers['content-type'] = mediaType === '*/*' ? 'application/json' : mediaType;
        bodyPreview = body;
      } else if (lower.startsWith('application/x-www-form-urlencoded')) {
        const obj = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { body: value };
        body = encodeFormBody(obj, rb.encoding);
        headers['content-type'] = 'application/x-www-form-urlencoded';
        bodyPreview = body;
      } else if (lower.startsWith('multipart/')) {
        const obj = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { file: value };
        const mp = encodeMultipart(obj, rb.encoding);
        body = mp.bytes;
        headers['content-type'] = `${lower.startsWith('multipart/form-data') ? 'multipart/form-data' : mediaType}; boundary=${mp.boundary}`;
        bodyPreview = mp.fileParts === 0 && mp.bytes.length <= 65536 ? mp.bytes.toString('utf8') : `<multipart ${mp.bytes.length} bytes, ${mp.fileParts} file part(s)>`;
      } else if (lower.startsWith('text/') || /xml|csv|yaml/.test(lower)) {
        body = typeof value === 'string' ? value : JSON.stringify(value ?? '');
        headers['content-type'] = mediaType;
        bodyPreview = body;
      } else {
        body = binaryBody(value ?? '');
        headers['content-type'] = mediaType.includes('*') ? 'application/octet-stream' : mediaType;
        bodyPreview = `<binary ${body.length} bytes>`;
      }
    }
  }

  const accept = op.response?.mediaType;
  headers.accept = accept !== undefined && accept !== '' && !accept.includes('*') ? accept : 'application/json';
  headers['user-agent'] = USER_AGENT;
  let idempotencyKey: string | undefined;
  // The operation's documented header, else the one the operator configured for the catalog (Stripe's spec
  // does not declare Idempotency-Key).
  const idemHeader = op.idempotencyHeader ?? config.idempotencyHeader;
  if (idemHeader !== undefined && idemHeader !== '' && !RESERVED_HEADERS.has(idemHeader.toLowerCase()) && (method === 'POST' || method === 'PATCH')) {
    const h = idemHeader.toLowerCase();
    if (headers[h] === undefined) headers[h] = idempotencyKey = randomUUID();
    else idempotencyKey = headers[h];
  }
  Object.assign(headers, auth.headers);

  // Join the base path explicitly (new URL('/x', base) would drop /v1, F5), then verify the parse kept
  // both the origin and the exact path we built (no dot-segment collapse, no host change).
  const basePath = base.pathname.replace(/\/+$/, '');
  const search = [base.search.replace(/^\?/, ''), ...query].filter((s) => s !== '').join('&');
  const intended = `${basePath}${path}`;
  const url = `${base.origin}${intended}${search !== '' ? `?${search}` : ''}`;
  const parsed = new URL(url);
  if (parsed.origin !== base.origin || parsed.pathname !== intended) {
    throw new AppError('UNSAFE_REQUEST', `${op.name}: the arguments would change the request target; refused`, {
      details: { intendedPath: intended },
    });
  }
  const plainHttp = plainHttpCheck(op, base, auth, config);
  return {
    method,
    url: parsed.href,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(bodyPreview !== undefined ? { bodyPreview } : {}),
    // Each credential once: the Redactor masks every spelling the request or an echo of it can carry (the strict
    // percent-encoding the query and cookie send, that encoded again inside another URL, ...).
    redactor: new Redactor(auth.secrets),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    ...(plainHttp !== undefined ? { plainHttp } : {}),
  };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The dry-run view of a built request: secrets redacted, with a curl line. */
export function toPrepared(req: BuiltRequest): PreparedRequest {
  const r = req.redactor;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k] = r.string(v);
  const url = r.string(req.url);
  const body = req.bodyPreview !== undefined ? r.string(req.bodyPreview) : undefined;
  const parts = ['curl', '-X', req.method, shellQuote(url)];
  for (const [k, v] of Object.entries(headers)) if (k !== 'user-agent') parts.push('-H', shellQuote(`${k}: ${v}`));
  if (body !== undefined) parts.push(typeof req.body === 'string' ? '--data-raw' : '--data-binary', shellQuote(typeof req.body === 'string' ? body : '@file'));
  const warnings = req.plainHttp !== undefined ? [req.plainHttp.warning] : [];
  return { method: req.method, url, headers, ...(body !== undefined ? { body } : {}), curl: parts.join(' '), ...(warnings.length > 0 ? { warnings } : {}) };
}
