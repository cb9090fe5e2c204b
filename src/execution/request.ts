// Builds the exact HTTP request of an operation from validated arguments: base URL (servers, variables,
// operator override, explicit base-path join), parameters by location and style, body by media type, auth.
// Arguments can never change the host: every value is encoded into its own slot and the result is re-parsed
// and checked against the base origin and the intended path.
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Operation } from '../types.js';
import { credentialPrefixKey, envPrefix, resolveAuth, type AppliedAuth } from './auth.js';
import { resolveBase } from './base-url.js';
import { assertHeaderSafe, encodeFormBody, encodePathParam, encodeQueryParam, encodeStrict, headerValue, primitiveText } from './encode.js';
import { refuseCredentialNames } from './credential-slots.js';
import { binaryBody, encodeMultipart, multipartFileFields } from './files.js';
import { xmlBodyArg } from './media-kind.js';
import { isXmlMediaType } from '../schema/media-types.js';
import { isLoopbackHost } from '../net/address-policy.js';
import { Redactor } from './redact.js';
import type { ExecutionConfig, PreparedRequest } from './types.js';

export { allowedOriginsKey, originOf, resolveBaseUrl } from './base-url.js';

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
  /** Why the URL is not where the operation's own server names (a base URL on another host): the dry run says so. */
  baseNote?: string;
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

/** RFC 6265 cookie-octets: visible US-ASCII except DQUOTE, comma, semicolon and backslash. */
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/** A character a cookie value cannot hold, in words: never the value around it (it is a secret). */
function cookieCharName(c: string): string {
  const code = c.codePointAt(0)!;
  const named: Record<string, string> = { ' ': 'a space', ';': 'a semicolon', ',': 'a comma', '"': 'a double quote', '\\': 'a backslash' };
  if (named[c] !== undefined) return named[c];
  if (code < 0x20 || code === 0x7f) return `a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')}${code === 0x0a || code === 0x0d ? ', a line break' : code === 0x09 ? ', a tab' : ''})`;
  return 'a non-ASCII character';
}

/**
 * A cookie credential's value as it goes on the wire: as it is, the way a browser stores and sends it (an
 * express-session `s%3A<id>.<sig>` re-encoded to `s%253A...` would be another session). Percent-encoding is the
 * API's business: a value with a character outside RFC 6265's cookie-octets (`;`, `,`, whitespace, DQUOTE,
 * backslash, controls, non-ASCII) is refused, naming the character and where the value came from, never the value.
 * Agent-supplied cookie parameters are still percent-encoded (their text is data, not a stored cookie).
 */
function cookieCredential(op: Operation, name: string, value: string, source: string, config: ExecutionConfig): string {
  if (COOKIE_OCTETS.test(value)) return value;
  const bad = [...value].find((c) => !COOKIE_OCTETS.test(c))!;
  const prefix = config.credentialPrefix !== undefined && config.credentialPrefix !== '' ? ` with ${credentialPrefixKey(config.catalog.name)} before it` : '';
  throw new AppError(
    'CONFIG_INVALID',
    `${op.name}: the credential for cookie ${name} (${source}${prefix}) holds ${cookieCharName(bad)}, which a cookie value cannot carry ` +
      '(RFC 6265: visible ASCII characters other than " , ; and \\). It is sent as it is, not percent-encoded: ' +
      `set ${source} to the cookie's value exactly as the API sets it (already percent-encoded where it needs to be, e.g. %3B for ;)`,
    { details: { reason: 'cookie-credential', cookie: name, source } },
  );
}

function has(args: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(args, k) && args[k] !== undefined;
}

function isJsonType(mt: string): boolean {
  return /^application\/(.+\+)?json\b/i.test(mt) || mt === '*/*';
}

/**
 * Why an XML body that is not a string is not sent: the server builds no XML from arguments (docs/TOOLS.md rule 3).
 * INVALID_ARGUMENTS naming the argument that takes the document; NOT_EXECUTABLE where the catalog was imported before
 * XML bodies were one string argument (its arguments cannot carry a document: re-import).
 */
function xmlBodyRefusal(op: Operation, mediaType: string): AppError {
  const arg = xmlBodyArg(op);
  if (typeof arg !== 'string') {
    return new AppError('NOT_EXECUTABLE', `${op.name}: the request body is XML (${mediaType}), which the server does not build from arguments, and this catalog was imported before such a body was taken as a string; re-import the catalog (api-catalog import) so that ${op.name} takes the XML document as a string; nothing was sent`);
  }
  return new AppError('INVALID_ARGUMENTS', `${op.name}: the request body is XML (${mediaType}): pass the XML document as a string in ${arg}; the server does not turn arguments into XML, and nothing was sent`, {
    details: { errors: [{ path: `/${arg.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: 'must be a string: the XML document, sent as it is', expected: 'string' }] },
  });
}

/** Builds the request (unredacted). Throws AppError (INVALID_ARGUMENTS, AUTH_MISSING, CONFIG_INVALID, UNSAFE_REQUEST, NOT_EXECUTABLE). */
export function buildRequest(op: Operation, args: Record<string, unknown>, config: ExecutionConfig): BuiltRequest {
  const { url: base, note: baseNote } = resolveBase(op, config);
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
      const pairs = encodeQueryParam(b.name, v, { style: b.style, explode: b.explode, allowReserved: b.allowReserved, contentType: b.contentType });
      refuseCredentialNames(op.name, 'query', b.arg, v, pairs, auth.reservedQuery); // an exploded object's keys (G4)
      query.push(...pairs);
    } else if (b.in === 'header') {
      const lower = b.name.toLowerCase();
      if (RESERVED_HEADERS.has(lower) || auth.reservedHeaders.has(lower)) continue; // G2
      assertHeaderSafe(b.name, b.name);
      headers[lower] = headerValue(b.name, v, b.explode, b.arg);
    } else if (b.in === 'cookie') {
      if (auth.reservedCookies.has(b.name)) continue;
      const text = Array.isArray(v) ? v.map(primitiveText).join(',') : primitiveText(v);
      const pair = `${encodeStrict(b.name)}=${encodeStrict(text)}`;
      refuseCredentialNames(op.name, 'cookie', b.arg, v, [pair], auth.reservedCookies);
      cookies.push(pair);
    }
  }
  for (const [k, v] of auth.query) query.push(`${encodeStrict(k)}=${encodeStrict(v)}`);
  for (const [k, v, source] of auth.cookies) cookies.push(`${encodeStrict(k)}=${cookieCredential(op, k, v, source, config)}`);
  if (cookies.length > 0) headers.cookie = cookies.join('; ');

  // Body.
  let body: string | Buffer | undefined;
  let bodyPreview: string | undefined;
  const rb = op.requestBody;
  if (rb !== undefined) {
    const mediaType = rb.mediaTypes[0] ?? 'application/json';
    let value: unknown;
    let present = false;
    // The whole body's argument: its object keys are the agent's, checked against the query credential's name.
    let wholeArg: string | undefined;
    if (rb.mode === 'whole') {
      const b = op.bindings.find((x) => x.in === 'body' && x.wholeBody) ?? op.bindings.find((x) => x.in === 'body');
      wholeArg = b?.arg;
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
        if (wholeArg !== undefined) refuseCredentialNames(op.name, 'form body', wholeArg, obj, Object.keys(obj).map(encodeStrict), auth.reservedQuery);
        body = encodeFormBody(obj, rb.encoding);
        headers['content-type'] = 'application/x-www-form-urlencoded';
        bodyPreview = body;
      } else if (lower.startsWith('multipart/')) {
        const obj = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { file: value };
        if (wholeArg !== undefined) refuseCredentialNames(op.name, 'multipart body', wholeArg, obj, Object.keys(obj).map(encodeStrict), auth.reservedQuery);
        const mp = encodeMultipart(obj, rb.encoding, multipartFileFields(op));
        body = mp.bytes;
        headers['content-type'] = `${lower.startsWith('multipart/form-data') ? 'multipart/form-data' : mediaType}; boundary=${mp.boundary}`;
        bodyPreview = mp.fileParts === 0 && mp.bytes.length <= 65536 ? mp.bytes.toString('utf8') : `<multipart ${mp.bytes.length} bytes, ${mp.fileParts} file part(s)>`;
      } else if (lower.startsWith('text/') || /xml|csv|yaml/.test(lower)) {
        // an XML body is the document the agent wrote: never JSON text under an XML media type
        if (isXmlMediaType(lower) && typeof value !== 'string') throw xmlBodyRefusal(op, mediaType);
        body = typeof value === 'string' ? value : JSON.stringify(value ?? '');
        headers['content-type'] = mediaType;
        bodyPreview = body;
      } else {
        body = binaryBody(value ?? '', `/${(wholeArg ?? 'body').replace(/~/g, '~0').replace(/\//g, '~1')}`);
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
    ...(baseNote !== undefined ? { baseNote } : {}),
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
  const warnings = [...(req.plainHttp !== undefined ? [req.plainHttp.warning] : []), ...(req.baseNote !== undefined ? [req.baseNote] : [])];
  return { method: req.method, url, headers, ...(body !== undefined ? { body } : {}), curl: parts.join(' '), ...(warnings.length > 0 ? { warnings } : {}) };
}
