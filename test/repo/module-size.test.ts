// The house limit on module size (modules stay under ~400 lines): no src/**/*.ts file is over 400 lines, counted as
// `wc -l` counts them, unless it is listed below with the reason it is not split yet. A module that grows past it is
// split along a real seam (a group of functions with one job, named for it), as load.ts, shape.ts, units.ts, eval.ts
// and http.ts were. A listed module that is back under the limit, or gone, fails too: the list never goes stale.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const MAX_LINES = 400;
const SRC = join(REPO_ROOT, 'src');

/**
 * Modules allowed over MAX_LINES (path from the repository root -> why it is not split yet). Empty: every module is
 * within the limit. An entry needs a reason a reader can check, and goes once the module is split.
 */
const OVER_WITH_REASON: Readonly<Record<string, string>> = {};

/** Every .ts file under `dir`, recursively. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.isFile() && e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Lines as `wc -l` counts them: the newline characters. */
function lineCount(file: string): number {
  let n = 0;
  for (const ch of readFileSync(file, 'utf8')) if (ch === '\n') n++;
  return n;
}

const rel = (f: string): string => relative(REPO_ROOT, f).split(sep).join('/');

describe('module size', () => {
  const files = tsFiles(SRC);

  test('the scan finds the source modules', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map(rel)).toContain('src/search/units.ts');
  });

  test(`no src/**/*.ts module is over ${MAX_LINES} lines, but those listed with a reason`, () => {
    const over = files
      .map((f) => ({ file: rel(f), lines: lineCount(f) }))
      .filter((m) => m.lines > MAX_LINES && OVER_WITH_REASON[m.file] === undefined)
      .sort((a, b) => b.lines - a.lines)
      .map((m) => `${m.file} (${m.lines} lines)`);
    expect(over, `over ${MAX_LINES} lines: split each along a real seam (a group of functions with one job, named for it)`).toEqual([]);
  });

  test('every listed module is still over the limit and says why', () => {
    const stale = Object.entries(OVER_WITH_REASON)
      .filter(([file, why]) => why.trim().length < 20 || !existsSync(join(REPO_ROOT, file)) || lineCount(join(REPO_ROOT, file)) <= MAX_LINES)
      .map(([file]) => file);
    expect(stale, 'listed but within the limit, gone, or without a reason: take it off the list (or say why)').toEqual([]);
  });
});
