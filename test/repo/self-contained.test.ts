// A clone needs nothing beside it: no source, script or test reads ../shared (the specs and query sets are in the
// repository: openapi/, test/fixtures/real-specs/, test/fixtures/eval/); every file is held to the rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

/** Code that builds a path into ../shared (comments that mention it are fine). */
const READS_SHARED = /(['"`])\.\.\1\s*,\s*(['"`])shared\2|['"`](?:\.\.\/)+shared\//;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? (name === 'fixtures' ? [] : files(p)) : /\.(ts|mjs|js)$/.test(name) ? [p] : [];
  });
}

describe('a self-contained repository', () => {
  it('no source, script or test reads ../shared', () => {
    const offenders = ['src', 'scripts', 'test']
      .flatMap((d) => files(join(REPO_ROOT, d)))
      .map((f) => relative(REPO_ROOT, f))
      .filter((f) => f !== 'test/repo/self-contained.test.ts' && READS_SHARED.test(readFileSync(join(REPO_ROOT, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('no npm script reads ../shared', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(Object.entries(scripts).filter(([, cmd]) => cmd.includes('../shared'))).toEqual([]);
  });

  it('the pattern finds the ways a path into ../shared is written', () => {
    for (const code of [`join(root, '..', 'shared', 'specs')`, `resolve(ROOT, "..", "shared")`, `startPrism('../shared/specs/github.json')`]) expect(READS_SHARED.test(code), code).toBe(true);
    for (const code of [`// ../shared is never read`, `const sharedAjv = 1`, `join(root, 'shared')`]) expect(READS_SHARED.test(code), code).toBe(false);
  });
});
