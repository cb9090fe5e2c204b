// The test suite leaves nothing in the system temp folder: every test makes its temp folders with tempDir()
// (test/helpers/temp.ts), which removes them when the test file ends, after the file's own afterAll hooks (which
// stop the servers and CLIs writing there). A raw mkdtemp or tmpdir() elsewhere under test/ fails the scan below.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const made: string[] = [];
// Registered before the helper registers its own afterAll (it is imported below, after this line), so with hooks
// run as a stack this one runs last: by then every folder tempDir made in this file must be gone.
afterAll(() => {
  expect(made).toHaveLength(3);
  for (const dir of made) expect(existsSync(dir), `${dir} was left behind`).toBe(false);
});
const { tempDir } = await import('../helpers/temp.js');

const atLoad = tempDir('ac-temp-load-');
made.push(atLoad);
let inBeforeAll = '';
beforeAll(() => {
  inBeforeAll = tempDir('ac-temp-before-');
  made.push(inBeforeAll);
});
// The test file's own afterAll (where it stops its servers) still finds the folders: they go after it.
afterAll(() => {
  for (const dir of made) expect(existsSync(dir), `${dir} was removed before the file's own afterAll`).toBe(true);
});

const HERE = relative(REPO_ROOT, fileURLToPath(import.meta.url));
/** Where mkdtemp and tmpdir() may appear under test/, and why. */
const EXCEPTIONS: Record<string, string> = {
  'test/helpers/temp.ts': 'the helper itself',
  'test/helpers/global-cache.ts': "vitest's globalSetup: runs outside any test file; removes its folder in its teardown",
  [HERE]: 'this check, which names the patterns and compares with tmpdir()',
};
const RAW = /\bmkdtemp(?:Sync)?\b|\btmpdir\b/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' || name === 'node_modules' ? [] : sources(path);
    return /\.[cm]?[jt]s$/.test(name) ? [path] : [];
  });
}

describe('temp folders of the test suite', () => {
  test('tempDir makes an empty folder under the system temp folder, at load, in beforeAll and inside a test', () => {
    const inTest = tempDir('ac-temp-test-');
    made.push(inTest);
    for (const [dir, prefix] of [[atLoad, 'ac-temp-load-'], [inBeforeAll, 'ac-temp-before-'], [inTest, 'ac-temp-test-']] as const) {
      expect(dirname(dir)).toBe(tmpdir());
      expect(basename(dir).startsWith(prefix), dir).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
    }
    // what a test writes there goes with it (removal is recursive)
    writeFileSync(join(inTest, 'tokens.json'), '{}');
  });

  test('no test file makes a temp folder without tempDir (mkdtemp and tmpdir() only in the documented exceptions)', () => {
    const files = sources(join(REPO_ROOT, 'test')).map((f) => relative(REPO_ROOT, f));
    expect(files).toContain('test/helpers/temp.ts');
    const raw = files.filter((f) => EXCEPTIONS[f] === undefined && RAW.test(readFileSync(join(REPO_ROOT, f), 'utf8')));
    expect(raw, `make temp folders with tempDir(prefix) from test/helpers/temp.ts (removed when the test file ends), not mkdtemp/tmpdir(): ${raw.join(', ')}`).toEqual([]);
    // the scan sees what it looks for: the helper does call mkdtempSync, and the suite does use tempDir
    expect(RAW.test(readFileSync(join(REPO_ROOT, 'test/helpers/temp.ts'), 'utf8'))).toBe(true);
    expect(files.filter((f) => readFileSync(join(REPO_ROOT, f), 'utf8').includes("tempDir('")).length).toBeGreaterThan(40);
  });
});
