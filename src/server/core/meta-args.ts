// Validation of the meta-tools' own inputs (not the API operations' arguments). Hand-written so failures are
// envelopes with field details and a fix, not SDK protocol errors, and so limits (K1, K2) are enforced first.
import { suggestNames } from '../../registry/suggest.js';
import type { FieldError } from '../../execution/index.js';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

type Kind = 'string' | 'integer' | 'boolean' | 'object' | 'string[]' | 'string|string[]';

interface FieldSpec {
  kind: Kind;
  required?: boolean;
  min?: number;
  max?: number;
  enum?: readonly string[];
}

/** Some clients send arrays/objects as JSON strings: accept a string that parses to the expected shape. */
function unquote(value: unknown, want: 'array' | 'object'): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if ((want === 'array' && t.startsWith('[')) || (want === 'object' && t.startsWith('{'))) {
    try {
      return JSON.parse(t);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * Checks `input` against a flat field spec. Unknown properties are errors with the closest known name.
 * Returns the cleaned object (JSON-string arrays/objects parsed, integers as numbers).
 */
export function parseMetaArgs<T>(input: unknown, spec: Record<string, FieldSpec>): ParseResult<T> {
  const errors: FieldError[] = [];
  const raw = unquote(input ?? {}, 'object');
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ path: '', message: 'arguments must be an object' }] };
  }
  const out: Record<string, unknown> = {};
  const known = Object.keys(spec);
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const s = spec[key];
    if (!s) {
      const [guess] = suggestNames(key, known, 1);
      const e: FieldError = { path: `/${key}`, message: `unknown property ${JSON.stringify(key)}`, expected: known };
      if (guess !== undefined) e.suggestion = `did you mean ${JSON.stringify(guess)}?`;
      errors.push(e);
      continue;
    }
    if (value === undefined || value === null) continue;
    const err = checkField(key, value, s);
    if (typeof err === 'string') errors.push({ path: `/${key}`, message: err, expected: describeKind(s) });
    else out[key] = err.value;
  }
  for (const [key, s] of Object.entries(spec)) {
    if (s.required && !(key in out) && !errors.some((e) => e.path === `/${key}`)) {
      errors.push({ path: `/${key}`, message: `missing required property ${JSON.stringify(key)}`, expected: describeKind(s) });
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: out as T };
}

function describeKind(s: FieldSpec): string {
  let d: string = s.kind;
  if (s.enum) d += ` (one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')})`;
  if (s.min !== undefined || s.max !== undefined) d += ` (${s.min ?? ''}..${s.max ?? ''})`;
  return d;
}

function checkField(key: string, value: unknown, s: FieldSpec): string | { value: unknown } {
  switch (s.kind) {
    case 'string': {
      if (typeof value !== 'string') return `${key} must be a string`;
      if (s.enum && !s.enum.includes(value)) {
        const [guess] = suggestNames(value, s.enum, 1);
        return `${key} must be one of ${s.enum.join(', ')}${guess ? `; did you mean ${JSON.stringify(guess)}?` : ''}`;
      }
      if (s.max !== undefined && value.length > s.max) return `${key} is longer than ${s.max} characters`;
      return { value };
    }
    case 'integer': {
      const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) return `${key} must be an integer`;
      if (s.min !== undefined && n < s.min) return `${key} must be >= ${s.min}`;
      if (s.max !== undefined && n > s.max) return `${key} must be <= ${s.max}`;
      return { value: n };
    }
    case 'boolean': {
      if (value === 'true' || value === 'false') return { value: value === 'true' };
      if (typeof value !== 'boolean') return `${key} must be true or false`;
      return { value };
    }
    case 'object': {
      const v = unquote(value, 'object');
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return `${key} must be an object`;
      return { value: v };
    }
    case 'string[]':
    case 'string|string[]': {
      let v = unquote(value, 'array');
      if (typeof v === 'string') v = s.kind === 'string|string[]' ? v : v.split(',').map((x) => x.trim()).filter(Boolean);
      if (typeof v === 'string') return { value: v };
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
        return s.kind === 'string|string[]' ? `${key} must be a string or an array of strings` : `${key} must be an array of strings`;
      }
      if (s.min !== undefined && v.length < s.min) return `${key} needs at least ${s.min} item(s)`;
      if (s.max !== undefined && v.length > s.max) return `${key} has ${v.length} items; at most ${s.max} are allowed`;
      return { value: v };
    }
  }
}
