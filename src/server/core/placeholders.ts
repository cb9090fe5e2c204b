// describe's placeholder values: where an argument has no example, the importer (src/importer/examples.ts
// placeholder()), describe's own fallback example (describe.ts exampleCall) and the explorer's form put the argument's
// name in angle brackets, `{"owner": "<owner>"}`. They stand for the user's value and are never one: execute_tool
// refuses a real call that still holds one (nothing is sent), and a dry run warns of it.
//
// Only the exact form the importer writes counts: the whole string is `<KEY>`, KEY being the name of the property that
// holds it (an argument, or a property of an object inside one; for an item of an array, at any depth of arrays, the
// property the array is in: `"InstanceIds": ["<InstanceIds>"]`), or that padded with `x` to the schema's minLength
// exactly as the importer pads it (examples.ts: `padEnd(minLength, 'x')` when `<KEY>` is shorter): `<id>xxxx` where
// `id` has minLength 8, never where it has none or another. A value with angle brackets anywhere else ("a <b> c",
// `"<b>"` under another name, `<id>xx` where no minLength asks for 6 characters) is the user's and is sent as it is.
// The literal text `<KEY>` itself cannot be sent in the property KEY (docs/TOOLS.md says why).
import { schemaAt } from '../../execution/expected.js';
import type { JsonSchema } from '../../types.js';

/**
 * Whether `value` is the placeholder the importer writes for the property named `key` whose schema has `minLength`
 * (undefined: none, or not known): `<key>` itself, or `<key>` padded with `x` to exactly that minLength.
 */
export function isPlaceholder(value: unknown, key: string | undefined, minLength?: number): value is string {
  if (typeof value !== 'string' || key === undefined || key === '') return false;
  const exact = `<${key}>`;
  if (value === exact) return true;
  return minLength !== undefined && minLength > exact.length && value.length === minLength && value.startsWith(exact) && /^x+$/.test(value.slice(exact.length));
}

/** One argument that still holds a placeholder: its path (`owner`, `labels[0].name`), JSON pointer and value. */
export interface PlaceholderAt {
  path: string;
  pointer: string;
  value: string;
}

/** Deeper than the arguments may nest (validate.ts caps them at 32) and more than anyone reads: the walk stops there. */
const MAX_DEPTH = 40;
const MAX_FOUND = 50;

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The minLength of the schema at `pointer` in the operation's `inputSchema`, if it has one. */
function minLengthAt(inputSchema: JsonSchema | undefined, pointer: string): number | undefined {
  if (inputSchema === undefined || typeof inputSchema !== 'object') return undefined;
  const min = schemaAt(inputSchema as Record<string, unknown>, pointer)?.minLength;
  return typeof min === 'number' ? min : undefined;
}

/**
 * Every place in `args` that still holds a placeholder, in document order (at most 50); `inputSchema` (the
 * operation's) says where a padded one may stand.
 */
export function findPlaceholders(args: unknown, inputSchema: JsonSchema | undefined): PlaceholderAt[] {
  const found: PlaceholderAt[] = [];
  const walk = (value: unknown, key: string | undefined, path: string, pointer: string, depth: number): void => {
    if (found.length >= MAX_FOUND || depth > MAX_DEPTH) return;
    // the schema is looked up only for a value that starts like a placeholder for its key
    const padded = typeof value === 'string' && key !== undefined && value.length > key.length + 2 && value.startsWith(`<${key}>`);
    if (isPlaceholder(value, key, padded ? minLengthAt(inputSchema, pointer) : undefined)) {
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

/** `name ("<name>")`, `owner ("<owner>") and repo ("<repo>")`: the arguments, for a message. */
export function placeholderList(found: readonly PlaceholderAt[]): string {
  const items = found.map((p) => `${p.path} (${JSON.stringify(p.value)})`);
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The argument paths (`owner`, `labels[0].name`, `config.url`) in `args` that still hold a placeholder. */
export function placeholderPaths(args: unknown, inputSchema: JsonSchema | undefined): string[] {
  return findPlaceholders(args, inputSchema).map((p) => p.path);
}
