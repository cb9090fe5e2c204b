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

/** True when `text` (as given or percent-decoded) has a `.` segment between `/` or `\` (`./x`, `a/./b`, `x/.`), also `.;`. */
function hasDotSegment(text: string): boolean {
  return [text, fullyDecoded(text)].some((t) => /[/\\]/.test(t) && t.split(/[/\\]/).some((seg) => /^\.(;.*)?$/.test(seg.trim())));
}

/**
 * One path parameter as exactly one encoded segment (F1–F4): `/ ? #` and the rest are percent-encoded, so a value
 * can never add a segment or change the host. Refused, since URL parsers (or an upstream that decodes `%2F`) would
 * collapse them into a different path: `.`/`..` (also percent-encoded), values of dots and slashes only (`/`, `//`,
 * `./`, `/.`, `.\`), a value whose segments, split at `/` or `\` (as given or percent-decoded), include `.` or `..`
 * (or `..;`) (`./x`, `a/./b`, `../x`, `a/../b`, `..%2Fx`, `..\x`), and empty values. No real identifier looks like that.
 * Matrix and label objects with explode are `;k=v;k2=v2` and `.k=v.k2=v2` (OAS 3 style table).
 */
export function encodePathParam(name: string, value: unknown, style: string | undefined, explode: boolean | undefined): string {
  const check = (text: string): string => {
    const decoded = fullyDecoded(text).trim();
    if (decoded === '.' || decoded === '..' || /^[./\\]+$/.test(decoded) || hasDotSegment(text)) {
      throw new AppError('INVALID_ARGUMENTS', `path parameter ${name}: ${JSON.stringify(text)} is a dot segment (or only dots and slashes, or has a "." segment), which a server that decodes %2F would read as a different path (the collection, not the item); pass a real identifier`, {
        details: { errors: [{ path: `/${name}`, message: 'dot segments are not allowed in path parameters', expected: 'an identifier other than ".", "..", "/", "./" or another value of only dots and slashes, with no "." segment (also percent-encoded)', suggestion: 'pass the identifier of the resource itself' }] },
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
    if (explode && (style === 'matrix' || style === 'label')) {
      // OAS 3 style table: matrix `;k=v;k2=v2`, label `.k=v.k2=v2` (each pair its own parameter, no name prefix)
      const lead = style === 'matrix' ? ';' : '.';
      return entries.map(([k, v]) => `${lead}${encodeStrict(k)}=${check(primitiveText(v))}`).join('');
    }
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
