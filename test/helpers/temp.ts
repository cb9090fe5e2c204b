// Temp folders for tests that leave nothing behind: `tempDir(prefix)` makes a fresh folder under os.tmpdir() and
// removes it (recursive, force) when the current test file ends. Call it anywhere in a test file: at the top level,
// in beforeAll/beforeEach, or inside a test.
//
// How: importing this module registers one file-level afterAll. Vitest evaluates a test file's imports afresh for
// every file (`isolate`, on by default), so each file gets its own hook and its own list. Hooks run as a stack
// (`sequence.hooks: 'stack'`, vitest's default): this afterAll is registered before any the test file registers, so
// it runs after them; servers and CLIs that a test file stops in its afterAll (or a describe's) are gone before
// their folders are removed.
//
// test/repo/temp-folders.test.ts fails on mkdtemp or tmpdir() anywhere else under test/ (global-cache.ts, vitest's
// globalSetup, is the one exception: it runs outside any test file and removes its folder in its teardown).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder under os.tmpdir() named `<prefix>XXXXXX`, removed when the current test file ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
