// docs/TOOLS.md's list of error codes is every code an agent can get from the four tools. The codes are defined
// once, as the ErrorCode union of src/errors.ts; a code added there fails this test until TOOLS.md lists it, or
// until it is named below as one that never reaches an agent, with the reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** Codes of the ErrorCode union that no tool call answers, and why. */
const NEVER_FROM_A_TOOL: Record<string, string> = {
  SPEC_UNREADABLE: 'import only (the CLI reading an OpenAPI file or URL)',
  SPEC_INVALID: 'import only',
  SPEC_UNSUPPORTED_VERSION: 'import only',
  SPEC_NO_OPERATIONS: 'import only',
  SPEC_TOO_LARGE: 'import only',
  SPEC_REF_REFUSED: 'import only',
  REGISTRY_NOT_FOUND: 'start-up and reload only: a server without its catalog does not start, and a failed reload keeps the old one',
  MISSING_TOOL_SELECTION: "the tool_descriptions resource's protocol error (data.code), listed in TOOLS.md's resource section",
};

/** The members of `export type ErrorCode = | 'A' | 'B' ...;` in src/errors.ts. */
function errorCodes(): string[] {
  const source = read('src/errors.ts');
  const union = /export type ErrorCode =([\s\S]*?);/.exec(source)?.[1];
  if (union === undefined) throw new Error('src/errors.ts has no `export type ErrorCode = ...;`: update this test to read where the codes are defined');
  // comments inside the union name groups, not codes
  return [...union.replace(/\/\/[^\n]*/g, '').matchAll(/'([A-Z][A-Z_]*)'/g)].map((m) => m[1] as string);
}

/** The codes in TOOLS.md's envelope section, from "Error codes" to the paragraph after the list. */
function listedCodes(): string[] {
  const page = read('docs/TOOLS.md');
  const start = page.indexOf('Error codes');
  const end = page.indexOf('## The rules the server enforces');
  if (start < 0 || end < start) throw new Error('docs/TOOLS.md: no "Error codes" list before "## The rules the server enforces"');
  return [...page.slice(start, end).matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1] as string);
}

describe("docs/TOOLS.md's error codes", () => {
  const codes = errorCodes();
  const listed = listedCodes();

  test('the ErrorCode union is read (a change of its form fails here, not silently)', () => {
    expect(codes.length).toBeGreaterThan(30);
    expect(codes).toContain('UPSTREAM_ERROR');
    expect(new Set(codes).size).toBe(codes.length);
  });

  test('every code a tool can answer is listed', () => {
    const missing = codes.filter((c) => !(c in NEVER_FROM_A_TOOL) && !listed.includes(c));
    expect(missing, 'list these in docs/TOOLS.md ("## The envelope"), or name them in NEVER_FROM_A_TOOL with the reason').toEqual([]);
  });

  test('the list names only codes that exist, and none of those said never to reach a tool', () => {
    expect(listed.filter((c) => !codes.includes(c))).toEqual([]);
    expect(listed.filter((c) => c in NEVER_FROM_A_TOOL)).toEqual([]);
  });

  test('every code named as never from a tool is a real code; the resource-only one is documented with the resource', () => {
    expect(Object.keys(NEVER_FROM_A_TOOL).filter((c) => !codes.includes(c))).toEqual([]);
    const page = read('docs/TOOLS.md');
    expect(page.slice(page.indexOf('## The tool_descriptions resource'))).toContain('"MISSING_TOOL_SELECTION"');
  });
});
