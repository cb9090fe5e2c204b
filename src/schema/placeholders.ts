// describe's placeholder values, the one definition of them: where an argument has no example of the spec's own, the
// importer writes its name in angle brackets (src/importer/examples.ts, example-files.ts), and so do describe's own
// fallback example (describe.ts exampleCall) and the explorer's form: `{"owner": "<owner>"}`. They stand for the
// user's value and are never one: execute_tool refuses a real call that still holds one (nothing is sent), and a dry
// run warns of it (src/server/core/placeholders.ts). The importer keeps an example whose only schema errors are at
// placeholders this module finds, so what it writes and what the server refuses cannot drift apart.
//
// Only the exact form counts: the whole string is `<KEY>`, KEY being the name of the property that holds it (an
// argument, or a property of an object inside one; for an item of an array, at any depth of arrays, the property the
// array is in: `"InstanceIds": ["<InstanceIds>"]`), or that padded with `x` to a minLength of the schema at that place
// exactly (placeholderFor): `<id>xxxx` where `id` has minLength 8, never where it has none or another. The schema at a
// place is the property's, with its `$ref` target and allOf/anyOf/oneOf branches (the importer pads to the minLength of
// the branch it synthesizes from). A value with angle brackets anywhere else ("a <b> c", `"<b>"` under another name,
// `<id>xx` where no minLength asks for 6 characters) is the user's and is sent as it is. The literal text `<KEY>`
// itself cannot be sent in the property KEY (docs/TOOLS.md says why).
import type { JsonSchema } from '../types.js';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The placeholder of the property `key` whose schema has `minLength`: `<key>`, padded with `x` where it is shorter. */
export function placeholderFor(key: string, minLength?: number): string {
  const exact = `<${key}>`;
  return typeof minLength === 'number' && exact.length < minLength ? exact.padEnd(minLength, 'x') : exact;
}

/**
 * Whether `value` is the placeholder (placeholderFor) of the property named `key` whose schema has `minLength` (one
 * or several, the schema's branches; undefined: none, or not known): `<key>` itself, or `<key>` padded to one.
 */
export function isPlaceholder(value: unknown, key: string | undefined, minLength?: number | readonly number[]): value is string {
  if (typeof value !== 'string' || key === undefined || key === '') return false;
  if (value === `<${key}>`) return true;
  const lengths = typeof minLength === 'number' ? [minLength] : (minLength ?? []);
  return lengths.some((m) => value === placeholderFor(key, m));
}

/** Nodes kept per place and how deep `$ref`s and branches are followed: bounds for recursive or huge schemas. */
const MAX_NODES = 64;
const MAX_DEPTH = 8;

const unescapeToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');

/** The node a local `$ref` (`#/$defs/Id`) names in `root`; undefined for any other. */
function refTarget(root: Node, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const part of ref.slice(2).split('/').map(unescapeToken)) cur = isNode(cur) && Object.hasOwn(cur, part) ? cur[part] : undefined;
  return cur;
}

/** `schema`, its `$ref` target and its allOf/anyOf/oneOf branches, each followed in turn, added to `out`. */
function expand(root: Node, schema: unknown, out: Node[], depth = 0): Node[] {
  if (!isNode(schema) || out.length >= MAX_NODES || depth > MAX_DEPTH || out.includes(schema)) return out;
  out.push(schema);
  if (typeof schema.$ref === 'string') expand(root, refTarget(root, schema.$ref), out, depth + 1);
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[k];
    if (Array.isArray(list)) for (const b of list) expand(root, b, out, depth + 1);
  }
  return out;
}

/** The minLengths of the schema at the instance JSON pointer `pointer` (`/labels/0/name`) in `inputSchema`: see the top. */
export function placeholderMinLengths(inputSchema: JsonSchema | undefined, pointer: string): number[] {
  if (!isNode(inputSchema)) return [];
  let nodes = expand(inputSchema, inputSchema, []);
  for (const token of pointer.split('/').slice(1).map(unescapeToken)) {
    const next: Node[] = [];
    for (const n of nodes) {
      if (isNode(n.properties) && Object.hasOwn(n.properties, token)) expand(inputSchema, n.properties[token], next);
      else if (/^\d+$/.test(token)) {
        const prefix = Array.isArray(n.prefixItems) ? n.prefixItems : [];
        expand(inputSchema, Number(token) < prefix.length ? prefix[Number(token)] : n.items, next);
      }
    }
    if (next.length === 0) return [];
    nodes = next;
  }
  return [...new Set(nodes.map((n) => n.minLength).filter((m): m is number => typeof m === 'number'))];
}

/** One argument that still holds a placeholder: its path (`owner`, `labels[0].name`), JSON pointer and value. */
export interface PlaceholderAt {
  path: string;
  pointer: string;
  value: string;
}

/** Deeper than the arguments may nest (validate.ts caps them at 32) and more than anyone reads: the walk stops there. */
const MAX_WALK_DEPTH = 40;
const MAX_FOUND = 50;

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Every place in `args` that still holds a placeholder, in document order (at most 50); `inputSchema` (the
 * operation's) says where a padded one may stand.
 */
export function findPlaceholders(args: unknown, inputSchema: JsonSchema | undefined): PlaceholderAt[] {
  const found: PlaceholderAt[] = [];
  const walk = (value: unknown, key: string | undefined, path: string, pointer: string, depth: number): void => {
    if (found.length >= MAX_FOUND || depth > MAX_WALK_DEPTH) return;
    // the schema is looked up only for a value that starts like a placeholder for its key
    const padded = typeof value === 'string' && key !== undefined && value.length > key.length + 2 && value.startsWith(`<${key}>`);
    if (isPlaceholder(value, key, padded ? placeholderMinLengths(inputSchema, pointer) : undefined)) {
      found.push({ path, pointer, value });
      return;
    }
    if (Array.isArray(value)) {
      // an item stands for the property the array is in (the importer names it so: examples.ts)
      value.forEach((v, i) => walk(v, key, `${path}[${i}]`, `${pointer}/${i}`, depth + 1));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k, path === '' ? k : `${path}.${k}`, `${pointer}/${escapePointer(k)}`, depth + 1);
    }
  };
  walk(args, undefined, '', '', 0);
  return found;
}
