// Local `$ref`s followed in an operation's inputSchema (whose refs point into its own `$defs`), and what a schema
// marks as file content: read alike by execution (what it encodes as a file, which field errors quote) and by the
// importer (which examples are files), so the two cannot drift apart. Pure functions; no I/O.
import type { JsonSchema } from '../types.js';

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Follows local `$ref`s (at most 8 hops); undefined for a boolean schema or a ref that points nowhere. */
export function resolveRef(root: Schema, schema: JsonSchema | Schema | undefined): Schema | undefined {
  let s: unknown = schema;
  for (let i = 0; i < 8 && isSchema(s); i++) {
    const ref = s.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return s;
    let cur: unknown = root;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      cur = isSchema(cur) && Object.hasOwn(cur, key) ? cur[key] : undefined;
    }
    s = cur;
  }
  return isSchema(s) && typeof s.$ref !== 'string' ? s : undefined;
}

/** Whether a schema marks its value as file content (also in a union's branch, e.g. a nullable binary string). */
export function isBinarySchema(root: Schema, schema: JsonSchema | Schema | undefined, depth = 0): boolean {
  const s = resolveRef(root, schema);
  if (s === undefined) return false;
  if (s.format === 'binary' || s.format === 'byte' || typeof s.contentMediaType === 'string' || typeof s.contentEncoding === 'string') return true;
  if (depth >= 4) return false;
  return ['anyOf', 'oneOf', 'allOf'].some((k) => Array.isArray(s[k]) && (s[k] as Schema[]).some((b) => isBinarySchema(root, b, depth + 1)));
}
