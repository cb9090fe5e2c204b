// An object schema's fields as its allOf parts give them together (AccountRequest = allOf [{$ref: Partial}, {type:
// object, required: [name, address]}], the usual generated composition): every part's properties (the first part to
// name a field gives its schema) and every part's required names. Read by describe's labels (server/core/
// describe-labels.ts) and the importer's examples (importer/examples.ts), each with its own way of following a $ref.

/** A schema node as both callers hold it. */
type Node = unknown;

export interface ObjectFields {
  properties: Record<string, Node>;
  required: Set<string>;
}

/**
 * The fields of `schema` and of its allOf parts, `$ref`s followed by `follow` (undefined: not followed), at most
 * `maxDepth` parts or references deep (recursive schemas end).
 */
export function objectFields(schema: Node, follow: (node: Record<string, unknown>) => Node | undefined, maxDepth: number): ObjectFields {
  const properties: Record<string, Node> = {};
  const required = new Set<string>();
  const add = (s: Node, depth: number): void => {
    if (s === null || typeof s !== 'object' || Array.isArray(s) || depth > maxDepth) return;
    const node = s as Record<string, unknown>;
    const target = typeof node.$ref === 'string' ? follow(node) : undefined;
    if (target !== undefined) return add(target, depth + 1);
    const props = node.properties;
    if (props !== null && typeof props === 'object') {
      for (const [k, v] of Object.entries(props as Record<string, Node>)) {
        if (!Object.hasOwn(properties, k)) Object.defineProperty(properties, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === 'string') required.add(r);
    if (Array.isArray(node.allOf)) for (const part of node.allOf) add(part, depth + 1);
  };
  add(schema, 0);
  return { properties, required };
}
