// Wire encodings: OpenAPI parameter styles (path simple/label/matrix, query form/spaceDelimited/
// pipeDelimited/deepObject, header simple, cookie form) and bodies (JSON, Stripe-style bracketed
// form-urlencoded, multipart with base64 file parts, text, octet-stream). Pure functions, no I/O.
// @see https://spec.openapis.org/oas/v3.1.0#style-values
import { AppError } from '../errors.js';

/** Primitive to its wire text: keeps 0, false and "" (presence, not truthiness). null -> "". */
export function primitiveText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** encodeURIComponent, plus the characters it leaves that some servers treat specially. */
export function encodeStrict(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** allowReserved: keep RFC 3986 reserved characters except the ones that would split the query. */
function encodeReserved(s: string): string {
  return encodeURIComponent(s).replace(/%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => decodeURIComponent(m));
}

function fullyDecoded(s: string): string {
  let cur = s;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(cur);
    } catch {
      return cur;
    }
    if (next === cur) return cur;
    cur = next;
  }
  return cur;
}

/**
 * True when `text`, as given or percent-decoded (up to four times, as fullyDecoded: `..%252Fx` too), split at `/` or
 * `\`, has a `..` segment, also with a `;` path parameter after it (`..;`, which Tomcat and Jetty read as `..`).
 */
function hasParentSegment(text: string): boolean {
  return [text, fullyDecoded(text)].some((t) => t.split(/[/\\]/).some((seg) => /^\.\.(;.*)?$/.test(seg.trim())));
}

/**
 * One path parameter as exactly one encoded segment (F1–F4): `/ ? #` and the rest are percent-encoded, so a value
 * can never add a segment or change the host. Refused, since URL parsers (or an upstream that decodes `%2F`) would
 * collapse them into a different path: `.`/`..` (also percent-encoded), values of dots and slashes only, a value
 * whose segments, split at `/` or `\` (as given or percent-decoded), include `..` (or `..;`) (`../x`, `a/../b`,
 * `..%2Fx`, `..\x`), and empty values. No real identifier looks like that.
 */
export function encodePathParam(name: string, value: unknown, style: string | undefined, explode: boolean | undefined): string {
  const check = (text: string): string => {
    const decoded = fullyDecoded(text).trim();
    if (decoded === '.' || decoded === '..' || /^[./\\]*$/.test(decoded) && decoded.includes('..')) {
      throw new AppError('INVALID_ARGUMENTS', `path parameter ${name}: ${JSON.stringify(text)} is a dot segment and would change the URL path; pass a real identifier`, {
        details: { errors: [{ path: `/${name}`, message: 'dot segments are not allowed in path parameters', expected: 'an identifier other than "." or ".." (also percent-encoded)', suggestion: 'pass the identifier of the resource itself' }] },
      });
    }
    if (hasParentSegment(text)) {
      throw new AppError(
        'INVALID_ARGUMENTS',
        `path parameter ${name}: ${JSON.stringify(text)} has a ".." segment (split at / or \\, also after percent-decoding), which a server that decodes %2F would read as a step up the URL path; pass the identifier of the resource itself`,
        {
          details: {
            errors: [{ path: `/${name}`, message: 'a ".." segment is not allowed in a path parameter', expected: 'one identifier; no ".." between / or \\ (also percent-encoded)', suggestion: 'pass the identifier of the resource itself' }],
          },
        },
      );
    }
    return encodeStrict(text);
  };
  let body: string;
  const prefix = style === 'label' ? '.' : style === 'matrix' ? `;${encodeStrict(name)}=` : '';
  if (Array.isArray(value)) {
    const sep = explode && style === 'label' ? '.' : explode && style === 'matrix' ? `;${encodeStrict(name)}=` : ',';
    body = value.map((v) => check(primitiveText(v))).join(sep);
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    body = explode
      ? entries.map(([k, v]) => `${encodeStrict(k)}=${check(primitiveText(v))}`).join(',')
      : entries.map(([k, v]) => `${encodeStrict(k)},${check(primitiveText(v))}`).join(',');
  } else {
    body = check(primitiveText(value));
  }
  if (body === '' && style !== 'matrix' && style !== 'label') {
    throw new AppError('INVALID_ARGUMENTS', `path parameter ${name}: empty value would remove a path segment; pass a non-empty value`, {
      details: { errors: [{ path: `/${name}`, message: 'must not be empty', expected: 'a non-empty value', suggestion: 'pass the identifier of the resource' }] },
    });
  }
  return prefix + body;
}

/** Query pairs (already encoded) for one parameter per its style/explode. */
export function encodeQueryParam(
  name: string,
  value: unknown,
  opts: { style?: string; explode?: boolean; allowReserved?: boolean; contentType?: string } = {},
): string[] {
  const enc = opts.allowReserved ? encodeReserved : encodeStrict;
  const key = encodeStrict(name);
  if (opts.contentType !== undefined && opts.contentType.includes('json')) return [`${key}=${enc(JSON.stringify(value))}`];
  const style = opts.style ?? 'form';
  const explode = opts.explode ?? style === 'form';
  if (style === 'deepObject') {
    const out: string[] = [];
    flattenBrackets([name], value, (path, v) => out.push(`${bracketKey(path)}=${enc(v)}`));
    return out;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (style === 'form' && explode) return value.map((v) => `${key}=${enc(primitiveText(v))}`);
    const sep = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
    return [`${key}=${value.map((v) => enc(primitiveText(v))).join(sep)}`];
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (explode) return entries.map(([k, v]) => `${encodeStrict(k)}=${enc(primitiveText(v))}`);
    return [`${key}=${entries.map(([k, v]) => `${encodeStrict(k)},${enc(primitiveText(v))}`).join(',')}`];
  }
  return [`${key}=${enc(primitiveText(value))}`];
}

/**
 * Header value per `simple` style; refuses CR, LF, NUL and other control characters (G1). `arg`: the argument that
 * holds it (the refusal's JSON path), when it is not named like the header.
 */
export function headerValue(name: string, value: unknown, explode?: boolean, arg = name): string {
  let text: string;
  if (Array.isArray(value)) text = value.map(primitiveText).join(',');
  else if (value !== null && typeof value === 'object') {
    text = Object.entries(value)
      .map(([k, v]) => (explode ? `${k}=${primitiveText(v)}` : `${k},${primitiveText(v)}`))
      .join(',');
  } else text = primitiveText(value);
  assertHeaderSafe(name, text, arg);
  return text;
}

export function assertHeaderSafe(name: string, text: string, arg = name): void {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(text) || /[^\u0000-\u00ff]/.test(text)) {
    throw new AppError('INVALID_ARGUMENTS', `header ${name}: invalid header value (control characters such as CR/LF/NUL or non-Latin-1 text are not allowed)`, {
      details: {
        errors: [{ path: `/${arg}`, message: 'invalid header value: no CR, LF, NUL or other control characters', expected: 'one line of Latin-1 text without control characters', suggestion: 'remove the line breaks and control characters from the value' }],
      },
    });
  }
}

/**
 * `a[b][0][c]` from its segments `['a', 'b', '0', 'c']`: every segment strictly percent-encoded, only the brackets
 * between them literal (Stripe's style). Built from the segments, never by re-parsing a joined string: an object key
 * such as `x]&api_key=1&y[` is one segment, so its `]`, `&`, `=` and `#` are encoded and cannot close the bracket,
 * start another query parameter ahead of a credential, or turn the rest of the URL into a fragment.
 */
function bracketKey(path: readonly string[]): string {
  const [head = '', ...segments] = path;
  return encodeStrict(head) + segments.map((s) => `[${encodeStrict(s)}]`).join('');
}

/**
 * Flattens nested objects/arrays to bracket keys, handing `emit` the segments (`['metadata', 'key']`,
 * `['items', '0', 'price']`) so the caller encodes each one. Empty containers -> `key=`.
 */
export function flattenBrackets(path: readonly string[], value: unknown, emit: (path: readonly string[], text: string) => void): void {
  if (Array.isArray(value)) {
    if (value.length === 0) emit(path, '');
    value.forEach((v, i) => flattenBrackets([...path, String(i)], v, emit));
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) emit(path, '');
    for (const [k, v] of entries) flattenBrackets([...path, k], v, emit);
    return;
  }
  emit(path, primitiveText(value));
}

/** application/x-www-form-urlencoded with bracketed nesting (OAS `encoding` honoured for style form and JSON parts). */
export function encodeFormBody(body: Record<string, unknown>, encoding?: Record<string, { contentType?: string; style?: string; explode?: boolean }>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    const enc = encoding?.[k];
    if (enc?.contentType?.includes('json')) {
      out.push(`${encodeStrict(k)}=${encodeStrict(JSON.stringify(v))}`);
    } else if (enc?.style === 'form' && enc.explode === false && Array.isArray(v)) {
      out.push(`${encodeStrict(k)}=${v.map((x) => encodeStrict(primitiveText(x))).join(',')}`);
    } else if (enc?.style === 'form' && enc.explode !== false && Array.isArray(v)) {
      for (const x of v) out.push(`${encodeStrict(k)}=${encodeStrict(primitiveText(x))}`);
    } else {
      flattenBrackets([k], v, (path, text) => out.push(`${bracketKey(path)}=${encodeStrict(text)}`));
    }
  }
  return out.join('&');
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,=]+=[^;,]*)*)(;base64)?,/;

/** A file passed as a `data:` URL (`data:image/png;base64,iVBOR...`): its bytes and content type, else undefined. */
export function parseDataUrl(s: string): { contentType: string; bytes: Buffer } | undefined {
  const m = DATA_URL.exec(s);
  if (m === null) return undefined;
  const payload = s.slice(m[0].length);
  const bytes = m[3] ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  return { contentType: m[1] || 'application/octet-stream', bytes };
}

/** A file object `{ base64, filename?, contentType? }` or `{ text, filename?, contentType? }`. */
function fileObject(v: unknown): { bytes: Buffer; filename?: string; contentType?: string } | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (!keys.every((k) => ['base64', 'text', 'filename', 'contentType'].includes(k))) return undefined;
  const bytes = typeof o.base64 === 'string' ? Buffer.from(o.base64, 'base64') : typeof o.text === 'string' ? Buffer.from(o.text, 'utf8') : undefined;
  if (bytes === undefined) return undefined;
  return {
    bytes,
    ...(typeof o.filename === 'string' ? { filename: o.filename } : {}),
    ...(typeof o.contentType === 'string' ? { contentType: o.contentType } : {}),
  };
}

// RFC 9110 §8.3.1 media type: `type/subtype *( OWS ";" OWS token "=" ( token / quoted-string ) )`, printable ASCII
// only. Anything else (CR/LF above all) would end the part's Content-Type line and let the argument add headers.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t !#-\\[\\]-~]|\\\\[\\t -~])*"';
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED_STRING}))*$`);

/** Refuses a file part's content type (from the argument) that is not one well-formed media type. */
function assertMediaType(contentType: string, pointer: string): void {
  if (MEDIA_TYPE.test(contentType)) return;
  const shown = contentType.length > 80 ? `${JSON.stringify(contentType.slice(0, 80))}…` : JSON.stringify(contentType);
  const rule = 'a content type must be type/subtype with optional ;name=value parameters, e.g. "image/png" or "text/plain; charset=utf-8", with no CR, LF or other control characters';
  throw new AppError('INVALID_ARGUMENTS', `file argument ${pointer}: content type ${shown} is not a media type; ${rule}`, {
    details: { errors: [{ path: pointer, message: rule, expected: 'a media type, e.g. "image/png"' }] },
  });
}

function quoteParam(s: string): string {
  return s.replace(/["\\\r\n]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ''));
}

/**
 * multipart/form-data. Each property is one part: strings are text parts, except a `data:` URL (or a
 * `{ base64, filename?, contentType? }` object) which becomes a file part; arrays repeat the part; other
 * objects are JSON parts. Returns the bytes and the boundary.
 */
export function encodeMultipart(
  body: Record<string, unknown>,
  encoding?: Record<string, { contentType?: string }>,
  boundary = `----api-catalog-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`,
): { bytes: Buffer; boundary: string; fileParts: number } {
  const chunks: Buffer[] = [];
  let fileParts = 0;
  // `pointer`: the argument's JSON pointer (`/file`, `/files/0`), named when its content type is refused.
  const part = (name: string, v: unknown, pointer: string): void => {
    let headers = `Content-Disposition: form-data; name="${quoteParam(name)}"`;
    let bytes: Buffer;
    const file = typeof v === 'string' ? parseDataUrl(v) : undefined;
    const obj = fileObject(v);
    if (file !== undefined || obj !== undefined) {
      fileParts++;
      const f = obj ?? { bytes: file!.bytes, contentType: file!.contentType };
      // Checked even when the spec's encoding overrides it: a malformed value is a bad argument either way.
      if (f.contentType !== undefined) assertMediaType(f.contentType, obj !== undefined ? `${pointer}/contentType` : pointer);
      headers += `; filename="${quoteParam(f.filename ?? name)}"\r\nContent-Type: ${encoding?.[name]?.contentType ?? f.contentType ?? 'application/octet-stream'}`;
      bytes = f.bytes;
    } else if (v !== null && typeof v === 'object') {
      headers += `\r\nContent-Type: ${encoding?.[name]?.contentType ?? 'application/json'}`;
      bytes = Buffer.from(JSON.stringify(v), 'utf8');
    } else {
      const ct = encoding?.[name]?.contentType;
      if (ct !== undefined && ct !== 'text/plain') headers += `\r\nContent-Type: ${ct}`;
      bytes = Buffer.from(primitiveText(v), 'utf8');
    }
    chunks.push(Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`, 'utf8'), bytes, Buffer.from('\r\n', 'utf8'));
  };
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    const pointer = `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (Array.isArray(v) && !(encoding?.[k]?.contentType ?? '').includes('json')) v.forEach((item, i) => part(k, item, `${pointer}/${i}`));
    else part(k, v, pointer);
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { bytes: Buffer.concat(chunks), boundary, fileParts };
}

/**
 * Bytes for an octet-stream (or other binary) body. How an agent passes a file: a `data:` URL
 * (`data:application/zip;base64,UEsDB...`), or plain base64 (length a multiple of 4); any other string is sent
 * as its UTF-8 bytes (e.g. a text file's content). Non-strings are sent as JSON.
 */
export function binaryBody(v: unknown): Buffer {
  if (typeof v !== 'string') return Buffer.from(JSON.stringify(v), 'utf8');
  const file = parseDataUrl(v);
  if (file !== undefined) return file.bytes;
  const compact = v.replace(/\s+/g, '');
  if (compact.length > 0 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return Buffer.from(compact, 'base64');
  return Buffer.from(v, 'utf8');
}
