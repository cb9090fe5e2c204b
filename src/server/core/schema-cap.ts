// Caps a JSON schema to a byte budget for describe_tools' Level 3 and one parameter's deep dive (K3): subschemas
// below a depth are summarized as `{type, description}`, descriptions cleaned. Pure: no catalog, no I/O.
import type { JsonSchema } from '../../types.js';
import { cleanText, jsonBytes, oneLine } from './text.js';

/** Replaces subschemas below `depth` by `{type, description}`; lowers depth until the JSON fits `maxBytes`. */
export function capSchema(
  schema: JsonSchema,
  maxBytes: number,
  defs?: unknown,
): { schema: unknown; truncated: boolean; depth: number } {
  const withDefs =
    defs !== undefined && typeof schema === 'object' && JSON.stringify(schema).includes('"$ref"') ? { ...schema, $defs: defs } : schema;
  if (jsonBytes(withDefs) <= maxBytes) return { schema: withDefs, truncated: false, depth: Infinity };
  for (const depth of [12, 8, 6, 4, 3, 2, 1]) {
    const pruned = prune(withDefs, depth);
    if (jsonBytes(pruned) <= maxBytes || depth === 1) return { schema: pruned, truncated: true, depth };
  }
  return { schema: prune(withDefs, 1), truncated: true, depth: 1 };
}

const SCHEMA_CHILD_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);

function prune(node: unknown, depth: number): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => prune(n, depth));
  const obj = node as Record<string, unknown>;
  if (depth <= 0) {
    const summary: Record<string, unknown> = {};
    if (obj.type !== undefined) summary.type = obj.type;
    if (typeof obj.description === 'string') summary.description = oneLine(obj.description, 100);
    summary.$comment = 'truncated';
    return summary;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (SCHEMA_CHILD_MAPS.has(k) && v && typeof v === 'object' && !Array.isArray(v)) {
      const m: Record<string, unknown> = {};
      for (const [pk, pv] of Object.entries(v)) m[pk] = prune(pv, depth - 1);
      out[k] = m;
    } else if (typeof v === 'string' && k === 'description') out[k] = cleanText(v, 300);
    else if (v && typeof v === 'object') out[k] = prune(v, depth - 1);
    else out[k] = v;
  }
  return out;
}
