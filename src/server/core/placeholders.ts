// describe's placeholder values: where an argument has no example, the importer (src/importer/examples.ts
// placeholder()), describe's own fallback example (describe.ts exampleCall) and the explorer's form put the argument's
// name in angle brackets, `{"owner": "<owner>"}`. They stand for the user's value and are never one: execute_tool
// refuses a real call that still holds one (nothing is sent), and a dry run warns of it.
//
// Only the exact form the importer writes counts: the whole string is `<KEY>`, KEY being the name of the property that
// holds it (an argument, or a property of an object inside one), optionally padded with `x` up to the schema's
// minLength as the importer pads it (`<id>xxxx`). A value with angle brackets anywhere else ("a <b> c", `"<b>"` under
// another name) is the user's and is sent as it is.

/** Whether `value` is the placeholder the importer writes for the property named `key`. */
export function isPlaceholder(value: unknown, key: string | undefined): value is string {
  if (typeof value !== 'string' || key === undefined || key === '') return false;
  const exact = `<${key}>`;
  return value === exact || (value.startsWith(exact) && /^x+$/.test(value.slice(exact.length)));
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

/** Every place in `args` that still holds a placeholder, in document order (at most 50). */
export function findPlaceholders(args: unknown): PlaceholderAt[] {
  const found: PlaceholderAt[] = [];
  const walk = (value: unknown, key: string | undefined, path: string, pointer: string, depth: number): void => {
    if (found.length >= MAX_FOUND || depth > MAX_DEPTH) return;
    if (isPlaceholder(value, key)) {
      found.push({ path, pointer, value });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, undefined, `${path}[${i}]`, `${pointer}/${i}`, depth + 1));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k, path === '' ? k : `${path}.${k}`, `${pointer}/${escapePointer(k)}`, depth + 1);
    }
  };
  walk(args, undefined, '', '', 0);
  return found;
}

/** The argument paths (`owner`, `labels[0].name`, `config.url`) in `args` that still hold a placeholder. */
export function placeholderPaths(args: unknown): string[] {
  return findPlaceholders(args).map((p) => p.path);
}

/** `name ("<name>")`, `owner ("<owner>") and repo ("<repo>")`: the arguments, for a message. */
export function placeholderList(found: readonly PlaceholderAt[]): string {
  const items = found.map((p) => `${p.path} (${JSON.stringify(p.value)})`);
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
