// describe's placeholder values (`{"owner": "<owner>"}`) as execute_tool, dry runs and the explorer meet them: what a
// placeholder is, and where one stands in an operation's arguments, is src/schema/placeholders.ts's (the importer
// writes and checks its examples by the same rule); here, how a refusal or warning names them.
import { findPlaceholders, type PlaceholderAt } from '../../schema/placeholders.js';
import type { JsonSchema } from '../../types.js';

export { findPlaceholders, isPlaceholder, type PlaceholderAt } from '../../schema/placeholders.js';

/** `name ("<name>")`, `owner ("<owner>") and repo ("<repo>")`: the arguments, for a message. */
export function placeholderList(found: readonly PlaceholderAt[]): string {
  const items = found.map((p) => `${p.path} (${JSON.stringify(p.value)})`);
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The argument paths (`owner`, `labels[0].name`, `config.url`) in `args` that still hold a placeholder. */
export function placeholderPaths(args: unknown, inputSchema: JsonSchema | undefined): string[] {
  return findPlaceholders(args, inputSchema).map((p) => p.path);
}
