// Reading an upstream response body: its text in the declared charset (a byte-order mark wins), JSON parsed with
// numbers kept exact (integers past 2^53 and numbers out of a double's range become strings), JSON nested past
// MAX_JSON_DEPTH kept as text, other textual types (NDJSON, TOML, SQL, UTF-8 text under an unlisted type) as text,
// binary summarized. projection.ts then selects and projects, and shape.ts cuts, what this returns.
import { AppError } from '../errors.js';

/**
 * Whether JSON.parse would change this number token: an integer beyond Number.MAX_SAFE_INTEGER (rounded), or a
 * number a double cannot hold at all (`1.5e400` becomes Infinity, shown as null; `1e-400` becomes 0).
 */
function unrepresentable(token: string): boolean {
  if (/^-?\d{16,}$/.test(token)) return !Number.isSafeInteger(Number(token));
  const n = Number(token);
  if (Number.isNaN(n)) return false; // not a number token (a stray `-`): JSON.parse says what is wrong
  return !Number.isFinite(n) || (n === 0 && /[1-9]/.test(token.replace(/[eE].*$/, '')));
}

/**
 * JSON.parse that keeps numbers exact by turning them into strings when a double would change them (E7): integers
 * beyond Number.MAX_SAFE_INTEGER, and numbers out of a double's range. Only pays the rewrite cost when a 16+ digit
 * number or a 3-digit exponent appears.
 */
export function parseJson(text: string): unknown {
  if (!/\d{16,}|[eE][+-]?\d{3,}/.test(text)) return JSON.parse(text);
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text[j]!)) j++;
      const token = text.slice(i, j);
      if (unrepresentable(token)) {
        out += `${text.slice(last, i)}"${token}"`;
        last = j;
      }
      i = j - 1;
    }
  }
  return JSON.parse(out + text.slice(last));
}

const TEXT_TYPE = /^(text\/|application\/(.+\+)?(json|xml|javascript|x-www-form-urlencoded|yaml|x-yaml|csv|graphql|problem\+json)\b)/i;
/**
 * Textual types TEXT_TYPE does not name: newline-delimited JSON in its spellings (`application/x-ndjson`, `jsonl`,
 * `jsonlines`, `json-seq`), TOML, SQL, scripts, and any structured-syntax suffix of a text format (`+yaml`, `+csv`,
 * `+toml`). Export and log APIs answer NDJSON: summarized as binary the agent would get nothing.
 */
const MORE_TEXT = /^application\/((.+\+)?(x-)?(ndjson|jsonl|jsonlines|json-seq|toml|sql|yaml|csv|ecmascript|sh|shellscript|x?html|markdown)|(.+\+)(yaml|csv|toml|ndjson))\b|^message\/(http|rfc822|global)\b/i;
/** Types that are binary whatever their bytes look like. */
const BINARY_FAMILY = /^(image|audio|video|font|model)\/|^application\/(octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z|vnd\.|x-protobuf|protobuf|grpc|msgpack|x-msgpack|cbor|wasm)/i;

/**
 * Whether a body of a type neither list names is text after all: valid UTF-8 with no NUL or other control characters
 * besides tab, line breaks, form feed and escape (a cut body may end inside a character: its last 3 bytes are spared).
 */
function looksLikeText(bytes: Buffer, ct: string, cut: boolean): boolean {
  if (BINARY_FAMILY.test(ct)) return false;
  const sample = bytes.subarray(0, cut ? Math.max(0, Math.min(bytes.length, 65536) - 3) : Math.min(bytes.length, 65536));
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f\u007f]/.test(sample.toString('latin1'))) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.length > 65536 ? sample.subarray(0, Math.max(0, sample.length - 3)) : sample);
    return true;
  } catch {
    return false;
  }
}

/** Whether a response of this content type is returned as text (else summarized as binary). */
export function isTextual(bytes: Buffer, ct: string, cut: boolean): boolean {
  return ct === '' || TEXT_TYPE.test(ct) || MORE_TEXT.test(ct) || looksLikeText(bytes, ct, cut);
}

function isJson(ct: string): boolean {
  // not `application/json-seq` (RFC 7464: JSON texts each after a record separator), which is returned as text
  return /^application\/(.+\+)?json(?![-\w])/i.test(ct) || /^text\/json(?![-\w])/i.test(ct);
}

/**
 * Deepest nesting of arrays and objects a JSON response is parsed at. Shaping, redaction and projection walk parsed
 * data level by level (JSON.stringify too), so a small body nested thousands of levels deep (30 KB reach 5,000)
 * would overflow the stack; such a body is returned as its text instead. Real APIs stay far below it.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Whether JSON text nests arrays and objects deeper than `max` (brackets inside strings do not count). One pass,
 * jumping over strings with indexOf (most of a typical body's bytes): about half the time of reading every character.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // to the closing quote: the next `"` preceded by an even number of backslashes
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end === -1) return false;
        let k = end - 1;
        while (text.charCodeAt(k) === 92) k--;
        i = end;
        if ((end - 1 - k) % 2 === 0) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** The charset a Content-Type names (`text/plain; charset="ISO-8859-1"` -> `iso-8859-1`); undefined when none. */
function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
}

/**
 * A body's text: a byte-order mark decides the encoding (and is dropped: RFC 8259 §8.1 lets JSON parsers ignore
 * it), else the declared charset, else UTF-8. A charset this runtime cannot decode is read as UTF-8, with a warning.
 */
export function bodyText(bytes: Uint8Array, contentType: string): { text: string; warning?: string } {
  let label = charsetOf(contentType) ?? 'utf-8';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) label = 'utf-8';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    const warning = `the response declares the charset ${JSON.stringify(label.slice(0, 40))}, which this server cannot decode: it was read as UTF-8, so some characters in data may be wrong`;
    return { text: new TextDecoder('utf-8').decode(bytes), warning };
  }
  return { text: decoder.decode(bytes) };
}

/** What decodeBody made of a body. */
export interface DecodedBody {
  /** Parsed JSON, text, or a summary of binary content. */
  data: unknown;
  /** The text the data came from (undefined for binary). */
  text?: string;
  /** What the agent must know to read data right (a charset that could not be decoded, JSON kept as text). */
  warnings?: string[];
  /** JSON returned as text because it nests deeper than MAX_JSON_DEPTH (nothing can be projected from it). */
  tooDeep?: boolean;
  /** The declared charset could not be decoded: the text was read as UTF-8 (one of the warnings says so). */
  charsetMisread?: boolean;
}

/**
 * Decoded body: JSON parsed, text kept, binary summarized; text is decoded with the declared charset (or a BOM's).
 * JSON nested deeper than MAX_JSON_DEPTH is kept as text, with a warning. Throws UPSTREAM_RESPONSE_INVALID on bad
 * JSON.
 */
export function decodeBody(bytes: Buffer, contentType: string, cut: boolean): DecodedBody {
  if (bytes.length === 0) return { data: null, text: '' };
  const ct = contentType.toLowerCase();
  if (!isTextual(bytes, ct, cut)) {
    const summary: Record<string, unknown> = { binary: true, contentType: ct, bytes: bytes.length };
    if (ct.startsWith('image/') && bytes.length <= 48 * 1024 && !cut) summary.base64 = bytes.toString('base64');
    return { data: summary };
  }
  const { text, warning } = bodyText(bytes, ct);
  const warnings = warning !== undefined ? [warning] : [];
  const misread = warning !== undefined ? { charsetMisread: true } : {};
  const plain = (): DecodedBody => ({ data: text, text, ...(warnings.length > 0 ? { warnings } : {}), ...misread });
  if (cut) return plain(); // a cut JSON document cannot be parsed; the caller marks it truncated
  if (isJson(ct) || (ct === '' && /^\s*[[{]/.test(text))) {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      warnings.push(`data is the response's text, not parsed: its JSON nests deeper than ${MAX_JSON_DEPTH} levels, more than this server parses, so "fields" cannot select from it`);
      return { ...plain(), tooDeep: true };
    }
    try {
      return { data: parseJson(text), text, ...(warnings.length > 0 ? { warnings } : {}), ...misread };
    } catch {
      if (ct === '') return plain();
      throw new AppError('UPSTREAM_RESPONSE_INVALID', `upstream declared ${contentType} but sent invalid JSON: ${JSON.stringify(text.slice(0, 200))}`, {
        details: { snippet: text.slice(0, 500) },
      });
    }
  }
  return plain();
}
