// Reading the bundled CLI (dist/cli): which chunks a file reaches through static imports, and the chunk one of its
// dynamic import()s names (bundle.test.ts, search-deferred.test.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Files reached from `files` through static imports (not `import()`), with their text. */
export function staticClosure(files: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (file: string): void => {
    if (out.has(file)) return;
    const text = readFileSync(file, 'utf8');
    out.set(file, text);
    for (const m of text.matchAll(/(?:from|import)\s*"(\.\.?\/[^"]+\.js)"/g)) visit(join(dirname(file), m[1] as string));
  };
  files.forEach(visit);
  return out;
}

/** The chunk a dynamic `import("./<prefix>-HASH.js")` in file `from` names; throws when there is none. */
export function dynamicChunk(from: string, prefix: string): string {
  const m = new RegExp(`import\\("(\\.\\/(?:chunks\\/)?${prefix}-[A-Z0-9]+\\.js)"\\)`).exec(readFileSync(from, 'utf8'));
  if (m === null) throw new Error(`no dynamic import of ${prefix} in ${from}`);
  return join(dirname(from), m[1] as string);
}
