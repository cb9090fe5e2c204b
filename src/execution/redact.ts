// Secret scrubbing: a Redactor knows every credential value in use (and its encoded forms) and replaces them
// with *** in strings, headers and whole data trees. Every outcome of execution passes through one.

const MASK = '***';

export class Redactor {
  private readonly secrets: string[];
  private readonly values: string[];

  /** Values shorter than 3 characters are ignored (they would mask ordinary text). */
  constructor(values: Iterable<string>) {
    const set = new Set<string>();
    this.values = [...values];
    for (const v of this.values) {
      if (v.length < 3) continue;
      set.add(v);
      set.add(encodeURIComponent(v));
      set.add(Buffer.from(v, 'utf8').toString('base64'));
      set.add(encodeURIComponent(v).replace(/%20/g, '+'));
    }
    // Longest first so that an encoded form containing another secret is masked whole.
    this.secrets = [...set].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
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

  /** Could this text (e.g. a raw response body) contain a secret, plain or JSON-escaped? */
  mentions(text: string): boolean {
    return this.secrets.some((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)));
  }

  /**
   * Deep copy with every string (keys too) redacted; returns the same value when nothing matches.
   * `sourceText`, when given, is the text the value was parsed from: checked instead of re-serializing.
   */
  deep<T>(value: T, sourceText?: string): T {
    if (this.secrets.length === 0) return value;
    if (sourceText !== undefined && !this.mentions(sourceText)) return value;
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      text = undefined;
    }
    if (text !== undefined && !this.secrets.some((s) => text!.includes(s) || text!.includes(JSON.stringify(s).slice(1, -1)))) {
      return value;
    }
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
