// Secret scrubbing: a Redactor knows every credential value in use (and its encoded forms) and replaces them
// with *** in strings, headers and whole data trees. Every outcome of execution passes through one.
import { encodeStrict } from './encode.js';

const MASK = '***';

/** Percent-escapes in lower-case hex (`%2A` -> `%2a`): servers and proxies echo a URL in either case. */
function lowerHex(s: string): string {
  return s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
}

/**
 * Every spelling of a value that a request may carry or an upstream may echo: the value itself, its percent
 * encodings (encodeURIComponent; the strict form request.ts puts query credentials on the wire with, a cookie
 * credential going as it is, which also escapes `!'()*`; the form-urlencoded form URLSearchParams writes), each with `+` for spaces; those
 * encoded once more, as an upstream writes the URL that carried the value inside another URL (`?return_to=...`:
 * `%28` becomes `%2528`); each in lower-case hex too; and its base64. So a credential is registered once, as it is.
 */
function spellings(v: string): string[] {
  let uri: string;
  try {
    uri = encodeURIComponent(v);
  } catch {
    // a lone surrogate cannot be percent-encoded, so no encoded form of it can be on the wire either
    return [v, Buffer.from(v, 'utf8').toString('base64')];
  }
  const strict = encodeStrict(v);
  const form = new URLSearchParams([['', v]]).toString().slice(1);
  const plus = [uri, strict, form].flatMap((e) => [e, e.replace(/%20/g, '+')]);
  const once = [...plus, ...plus.map(lowerHex)];
  // a value with nothing to encode is its own encoding: nothing to encode again either
  const again = once.filter((e) => e !== v).flatMap((e) => [encodeURIComponent(e), encodeStrict(e)]);
  return [...new Set([v, ...once, ...again, ...again.map(lowerHex), Buffer.from(v, 'utf8').toString('base64')])];
}

/**
 * Does this JSON (or plain) text write every character as JSON.stringify does, so that a secret in a string it
 * holds appears in it either as it is or JSON.stringify-escaped? Not when it has `\/` (PHP's json_encode writes
 * every `/` so) or a `\u` escape (some encoders write characters as `\u00XX`). Errs towards no: `\\u` (an
 * escaped backslash before a `u`) also says no, which only costs a re-serialization.
 */
function canonicalEscapes(text: string): boolean {
  return !text.includes('\\/') && !text.includes('\\u');
}

export class Redactor {
  private readonly secrets: string[];
  /** The secrets as they appear in JSON text: as they are, and JSON.stringify-escaped where that differs. */
  private readonly probes: string[];
  private readonly values: string[];

  /**
   * Values shorter than 3 characters are ignored (they would mask ordinary text). Pass each credential as it is:
   * its encoded spellings are derived here, and a value the request sends inside a longer string (after a
   * credentialPrefix, percent-encoded in a query) is masked inside it.
   */
  constructor(values: Iterable<string>) {
    const set = new Set<string>();
    this.values = [...values];
    for (const v of this.values) {
      if (v.length < 3) continue;
      for (const s of spellings(v)) set.add(s);
    }
    // Longest first so that an encoded form containing another secret is masked whole.
    this.secrets = [...set].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
    this.probes = [...new Set(this.secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))];
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  /** A redactor that knows the secrets of both. */
  merge(other: Redactor): Redactor {
    return new Redactor([...this.values, ...other.values]);
  }

  string(s: string): string {
    if (this.secrets.length === 0) return s;
    let out = s;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  }

  /** Does this text hold a secret, plain or JSON-escaped (`"` and `\` as `\"` and `\\`)? */
  private mentions(text: string): boolean {
    return this.probes.some((p) => text.includes(p));
  }

  /**
   * Deep copy with every string (keys too) redacted; returns the same value when nothing matches.
   * `sourceText`, when given, is the text the value was parsed from (JSON, or the value itself when it is that
   * text): searched instead of re-serializing a large answer, but only when its escapes are the ones
   * JSON.stringify writes. An upstream that writes a secret's characters as `\/` (PHP's json_encode) or `\u00XX`
   * gives parsed strings that hold the secret while the raw text does not; such text is re-serialized instead.
   */
  deep<T>(value: T, sourceText?: string): T {
    if (this.secrets.length === 0) return value;
    if (sourceText !== undefined && canonicalEscapes(sourceText)) return this.mentions(sourceText) ? (this.walk(value) as T) : value;
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      text = undefined;
    }
    if (text !== undefined && !this.mentions(text)) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.string(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of Object.entries(value)) out[this.string(k)] = this.walk(v);
      return Object.setPrototypeOf(out, Object.prototype) as unknown;
    }
    return value;
  }
}
