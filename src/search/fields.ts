// The field names a request body nests under wrapper objects: JSON:API keeps what a PATCH changes under
// `data.attributes` (App Store Connect: `data.attributes.expired`), many APIs wrap a body in the resource's name
// (`{"user": {...}}`). The top-level parameter names are then only `id` and `data`, while the list operation's
// `filter[expired]` parameters name every field: the index reads these nested names beside the top-level ones.
import type { JsonSchema } from '../types.js';

/** At most this many nested fields per operation, and this many levels below a top-level parameter. */
export const MAX_NESTED_FIELDS = 40;
const MAX_DEPTH = 3;

interface SchemaLike {
  properties?: Record<string, unknown>;
}

const propertiesOf = (schema: unknown): Record<string, unknown> | undefined => {
  const p = (schema as SchemaLike | null)?.properties;
  return p !== null && typeof p === 'object' && Object.keys(p).length > 0 ? p : undefined;
};

/**
 * The dotted paths of the properties nested in an operation's input schema's object parameters (`data.attributes`,
 * `data.attributes.expired`), depth first in schema order, at most {@link MAX_NESTED_FIELDS}.
 */
export function nestedFields(inputSchema: unknown): string[] {
  const out: string[] = [];
  const walk = (schema: unknown, prefix: string, depth: number): void => {
    const props = propertiesOf(schema);
    if (props === undefined) return;
    for (const [name, child] of Object.entries(props)) {
      if (out.length >= MAX_NESTED_FIELDS) return;
      const path = `${prefix}.${name}`;
      out.push(path);
      if (depth < MAX_DEPTH) walk(child, path, depth + 1);
    }
  };
  for (const [name, child] of Object.entries(propertiesOf(inputSchema) ?? {})) walk(child, name, 1);
  return out;
}

/** The names the index reads of nested fields: each path's last part, once. */
export function nestedFieldNames(inputSchema: unknown): string[] {
  return [...new Set(nestedFields(inputSchema).map((p) => p.slice(p.lastIndexOf('.') + 1)))];
}

/** An input schema's properties rebuilt from top-level names and nested paths (what a search fixture keeps). */
export function schemaFromFields(params: readonly string[], nested: readonly string[]): Record<string, JsonSchema> {
  const root: Record<string, { properties?: Record<string, unknown> }> = Object.fromEntries(params.map((p) => [p, {}]));
  for (const path of nested) {
    const parts = path.split('.');
    let node = root[parts[0] as string] ?? (root[parts[0] as string] = {});
    for (const part of parts.slice(1)) {
      node.properties ??= {};
      node = (node.properties[part] ??= {}) as { properties?: Record<string, unknown> };
    }
  }
  return root;
}
