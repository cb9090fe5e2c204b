// The import lint (reported with the summary and in diagnostics.json): operations without summary or
// description, near-duplicate operations, and text that reads like instructions to an AI (RELIABILITY J1).
// Flags are data on the operation; nothing here changes what the spec says.
import type { Diagnostic, Operation } from '../types.js';
import { isObject } from './pointer.js';
import { instructionMatch } from './text.js';

/** Diagnostic codes produced by the lint (all level `warning`; `--strict` does not fail on them). */
export const LINT_CODES = ['LINT_NO_DESCRIPTION', 'LINT_NEAR_DUPLICATE', 'LINT_INSTRUCTION_LIKE'] as const;

function opPointer(op: Operation): string {
  return `#/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method}`;
}

/** Every description and title string in a converted schema (bounded walk). */
function schemaTexts(node: unknown, out: string[], depth = 0): void {
  if (depth > 20 || out.length > 2000) return;
  if (Array.isArray(node)) {
    for (const n of node) schemaTexts(n, out, depth + 1);
    return;
  }
  if (!isObject(node)) return;
  for (const key of Object.keys(node)) {
    const v = node[key];
    if ((key === 'description' || key === 'title') && typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null && key !== 'examples' && key !== 'default' && key !== 'enum' && key !== 'const') schemaTexts(v, out, depth + 1);
  }
}

/**
 * Runs the lint over all operations: sets `flags: ['instruction-like']` on suspicious operations and returns
 * LINT_* diagnostics. `hadText` says whether the spec gave a summary or description for each operation;
 * `rawText` holds its uncleaned summary/description.
 */
export function lintOperations(ops: Operation[], hadText: Map<Operation, boolean>, rawText: Map<Operation, string[]> = new Map()): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const op of ops) {
    if (hadText.get(op) === false) {
      out.push({ level: 'warning', code: 'LINT_NO_DESCRIPTION', pointer: opPointer(op), message: `${op.name} has no summary or description; agents will find it by name and path only` });
    }
    // Raw spec text too: markup such as <IMPORTANT> is removed by cleaning but is itself the signal.
    const texts = [op.summary, op.description, ...(rawText.get(op) ?? [])];
    schemaTexts(op.inputSchema, texts);
    let hit: string | undefined;
    for (const t of texts) if ((hit = instructionMatch(t)) !== undefined) break;
    if (hit !== undefined) {
      op.flags = [...new Set([...(op.flags ?? []), 'instruction-like'])].sort();
      const excerpt = hit.length > 80 ? hit.slice(0, 80) + '…' : hit;
      out.push({ level: 'warning', code: 'LINT_INSTRUCTION_LIKE', pointer: opPointer(op), message: `${op.name}: text reads like an instruction to an AI (${JSON.stringify(excerpt)}); shown to agents as data only` });
    }
  }
  // Near duplicates: same method on the same path shape ({owner} and {user} count as the same slot).
  const shapes = new Map<string, Operation[]>();
  for (const op of ops) {
    const key = `${op.method} ${op.path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '').toLowerCase()}`;
    const list = shapes.get(key) ?? [];
    list.push(op);
    shapes.set(key, list);
  }
  for (const [key, list] of shapes) {
    if (list.length < 2) continue;
    const names = list.map((o) => o.name).sort();
    out.push({ level: 'warning', code: 'LINT_NEAR_DUPLICATE', pointer: opPointer(list[0] as Operation), message: `${names.join(', ')} have the same method and path shape (${key}); a router cannot tell them apart` });
  }
  return out;
}
