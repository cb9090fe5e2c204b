// `import --timeout` bounds the whole write, not only the import (importer audit finding 12: Microsoft Graph ran 69 s
// with --timeout 60, 14 s of it building the search snapshot after the importer's last deadline check). The CLI
// checks the same deadline after staging the registry and after building the snapshot; past it, the staged folder
// is removed and the previous registry stays byte-identical.
//
// No sleeps and no timing: the clock (performance.now, which the deadline reads) is made to jump past any deadline
// at the moment a step of the write has happened (a file appears in the staged folder), so the test decides exactly
// which step overran.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { run } from '../../src/cli/import.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = `openapi: 3.0.3
info: {title: Things, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /things:
    get: {operationId: listThings, summary: List things, responses: {"200": {description: OK}}}
`;
const MORE = `  /things/{id}:
    get: {operationId: getThing, summary: Get a thing, parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {"200": {description: OK}}}
`;

let dir = '';
let out = '';
beforeEach(() => {
  dir = tempDir('ac-deadline-');
  out = join(dir, 'reg');
  writeFileSync(join(dir, 'things.yaml'), SPEC);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The staged folders (`.things.tmp-*`) under the registry folder. */
const staged = (): string[] => (existsSync(out) ? readdirSync(out).filter((f) => f.startsWith('.things.tmp-')) : []);

/** From the moment `happened()` is first true, performance.now() reads a day later than it would. */
function jumpClockWhen(happened: () => boolean): void {
  const realNow = performance.now.bind(performance);
  let jumped = false;
  vi.spyOn(performance, 'now').mockImplementation(() => {
    jumped ||= happened();
    return realNow() + (jumped ? 86_400_000 : 0);
  });
}

describe('import --timeout covers writing the registry and its search snapshot', () => {
  test.each([
    ['building the search index snapshot', () => staged().some((t) => existsSync(join(out, t, 'search.snapshot')))],
    ['writing the registry', () => staged().some((t) => existsSync(join(out, t, 'catalog.json')))],
  ])('past the deadline while %s: gives up, removes the staged folder, keeps the previous registry', async (stage, happened) => {
    const first = await runCaptured(run, [join(dir, 'things.yaml'), '--out', out]);
    expect(first.code).toBe(0);
    const before = treeSnapshot(join(out, 'things'));
    writeFileSync(join(dir, 'things.yaml'), SPEC + MORE);

    jumpClockWhen(happened);
    const r = await runCaptured(run, [join(dir, 'things.yaml'), '--out', out, '--timeout', '60']);
    vi.restoreAllMocks();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`gave up on ${join(dir, 'things.yaml')} after 60 s while ${stage}; `);
    expect(r.stderr).toContain('raise it with --timeout <seconds>. Nothing was written: ');
    expect(r.stdout).toBe('');
    expect(readdirSync(out)).toEqual(['things']);
    expect(treeSnapshot(join(out, 'things'))).toEqual(before);

    // with time to spare the same import goes through
    const again = await runCaptured(run, [join(dir, 'things.yaml'), '--out', out, '--timeout', '60']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('imported 2 operations');
  });
});
