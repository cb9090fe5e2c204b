// A re-import that would remove most of a catalog (audit finding 8: a YAML spec cut at a line boundary, with no
// `$ref`s to give it away, replaced a 13-operation catalog with 4, exit 0) is refused unless --allow-removals says it
// is meant; smaller removals, and operations that are only renamed, go through as before.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
let out = '';
let spec = '';
beforeEach(() => {
  dir = tempDir('ac-removals-');
  out = join(dir, 'reg');
  spec = join(dir, 'shop.yaml');
});
const cli = (args: string[]) => runCaptured(run, args);

/** A spec with operations `GET /items{i}` for each i in `ids`, named `prefix{i}`. */
function writeSpec(ids: number[], prefix = 'getItem'): void {
  const paths = ids.map((i) => `  /items${i}:\n    get:\n      operationId: ${prefix}${i}\n      tags: [items]\n      summary: Get item ${i}\n      responses: {"200": {description: OK}}\n`).join('');
  writeFileSync(spec, `openapi: 3.0.3\ninfo: {title: Shop, version: "1"}\nservers: [{url: "https://shop.example.com"}]\npaths:\n${paths}`);
}
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('import refuses to remove most of a catalog without --allow-removals', () => {
  test('13 operations cut to 4: refused, exit 1, names the count, a few names and the flag; the registry byte-identical', async () => {
    writeSpec(range(1, 13));
    expect((await cli([spec, '--out', out, '--quiet'])).code).toBe(0);
    const before = treeSnapshot(out);
    writeSpec(range(1, 4));
    const r = await cli([spec, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^api-catalog import: refusing to replace \S*reg\/shop: this import would remove 9 of its 13 operations \(getItem10, getItem11, getItem12, getItem13, getItem5 and 4 more\), more than half of them\. If the API really dropped them, run it again with --allow-removals; if not, check that \S*shop\.yaml is the whole spec of this API \(not cut short, not another API's\)\. \S*reg\/shop is unchanged$/,
    );
    expect(treeSnapshot(out)).toEqual(before);

    const allowed = await cli([spec, '--out', out, '--allow-removals']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^imported 4 operations/);
    expect(allowed.stdout).toContain('-9 (getItem10, getItem11, getItem12, getItem13, getItem5 and 4 more)');
  });

  test('half or less, fewer than 5, or only renamed: imported as before', async () => {
    writeSpec(range(1, 12));
    expect((await cli([spec, '--out', out, '--quiet'])).code).toBe(0);
    writeSpec(range(1, 6)); // 6 of 12 removed: half, not more
    expect((await cli([spec, '--out', out, '--quiet'])).code).toBe(0);
    writeSpec(range(1, 2)); // 4 of 6: more than half, but fewer than 5
    expect((await cli([spec, '--out', out, '--quiet'])).code).toBe(0);
    writeSpec(range(1, 12));
    expect((await cli([spec, '--out', out, '--quiet'])).code).toBe(0);
    // every operation under a new name: the same method and path, nothing lost
    writeSpec(range(1, 12), 'fetchItem');
    const renamed = await cli([spec, '--out', out]);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toContain('-12 (getItem1, getItem10, getItem11, getItem12, getItem2 and 7 more)');
  });

  test('--help names --allow-removals', async () => {
    const help = await cli(['--help']);
    expect(help.stdout).toMatch(/--allow-removals {2}let a re-import remove more than half of the catalog's operations/);
  });
});
