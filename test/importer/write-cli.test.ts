// Writing the registry (atomic, deterministic, change report) and the `import` subcommand end to end,
// in-process, on temporary folders.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { checkRegistry, importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
beforeEach(() => {
  dir = tempDir('ac-write-');
  cpSync('test/fixtures/specs/oas30.yaml', join(dir, 'things.yaml'));
});
const cli = (args: string[]) => runCaptured(run, args);


describe('writeRegistry', () => {
  test('writes catalog.json, one file per domain and diagnostics.json that loadCatalog reads back', async () => {
    const r = await importSpec(join(dir, 'things.yaml'));
    const report = writeRegistry(r, join(dir, 'reg'));
    expect(report).toMatchObject({ hadPrevious: false, unchanged: false, changes: [] });
    expect(Object.keys(treeSnapshot(join(dir, 'reg'))).sort()).toEqual(['things/catalog.json', 'things/diagnostics.json', 'things/operations/things.json']);
    const cat = loadCatalog(join(dir, 'reg', 'things'));
    expect(cat.operations.map((o) => o.name)).toEqual(r.operations.map((o) => o.name));
    const text = readFileSync(join(dir, 'reg', 'things', 'catalog.json'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "formatVersion": 1,');
  });

  test('a re-import is byte-identical and reports no changes', async () => {
    writeRegistry(await importSpec(join(dir, 'things.yaml')), join(dir, 'reg'));
    const before = treeSnapshot(join(dir, 'reg'));
    const report = writeRegistry(await importSpec(join(dir, 'things.yaml')), join(dir, 'reg'));
    expect(report.unchanged).toBe(true);
    expect(treeSnapshot(join(dir, 'reg'))).toEqual(before);
  });

  test('changes are reported per domain; a server change is called out (D19)', async () => {
    writeRegistry(await importSpec(join(dir, 'things.yaml')), join(dir, 'reg'));
    const spec = readFileSync(join(dir, 'things.yaml'), 'utf8')
      .replace('summary: Replace a thing', 'summary: Replace a thing entirely')
      .replace('https://{region}.things.example.com/v1', 'https://evil.example.net/v1')
      .replace(/  \/things\/\{id\}\/tags:[\s\S]*$/, '')
      .replace('paths:\n', 'paths:\n  /gadgets:\n    get:\n      operationId: gadgets/list\n      summary: List gadgets\n      responses: { "200": { description: OK } }\n');
    writeFileSync(join(dir, 'things.yaml'), spec);
    const report = writeRegistry(await importSpec(join(dir, 'things.yaml')), join(dir, 'reg'));
    expect(report.changes).toEqual([
      { domain: 'gadgets', added: ['gadgets_list'], removed: [], changed: [] },
      { domain: 'things', added: [], removed: ['things_add-tags'], changed: ['things_replace'] },
    ]);
    expect(report.serversChanged).toEqual({ before: ['https://{region}.things.example.com/v1'], after: ['https://evil.example.net/v1'] });
    expect(Object.keys(treeSnapshot(join(dir, 'reg'))).sort()).toContain('things/operations/gadgets.json');
    expect(readdirSync(join(dir, 'reg'))).toEqual(['things']); // no temporary folders left behind
  });

  test('checkRegistry names the stale files without writing', async () => {
    const r = await importSpec(join(dir, 'things.yaml'));
    expect(checkRegistry(r, join(dir, 'reg'))).toMatchObject({ upToDate: false, missing: ['catalog.json', 'operations/things.json', 'diagnostics.json'] });
    writeRegistry(r, join(dir, 'reg'));
    writeFileSync(join(dir, 'reg', 'things', 'operations', 'old.json'), '[]\n');
    expect(checkRegistry(r, join(dir, 'reg'))).toEqual({ upToDate: false, missing: [], extra: ['operations/old.json'], changed: [] });
  });
});

describe('api-catalog import', () => {
  test('imports, prints a summary, then --check passes; a spec change makes --check fail with the fix', async () => {
    const out = join(dir, 'reg');
    // (no api-catalog on PATH, as in a clone: the next step runs this checkout's CLI, test/cli/next-step.test.ts)
    const first = await runCaptured(run, [join(dir, 'things.yaml'), '--out', out], { PATH: '' });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^imported 5 operations in 1 domain from .*things.yaml into .*things in \d+\.\d s\n1 warning\(s\); lint: 0 instruction-like, 0 near-duplicate, 0 no description/);
    // A first import ends with the folder to pass on: `--out` names the registry, the catalog is one level down.
    expect(first.stdout).toMatch(/\nserve it: node dist\/cli\/index\.js serve --registry \S*reg\/things {3}\(or try: node dist\/cli\/index\.js search "<request>" --registry \S*reg\/things\)\n$/);
    expect((await cli([join(dir, 'things.yaml'), '--out', out, '--check'])).code).toBe(0);
    writeFileSync(join(dir, 'things.yaml'), readFileSync(join(dir, 'things.yaml'), 'utf8').replace('List things', 'List all things'));
    const stale = await cli([join(dir, 'things.yaml'), '--out', out, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/things is stale \(changed: catalog.json, operations\/things.json\); run `(?:node \S+|npx api-catalog|api-catalog) import .*things.yaml --out .*` and commit the result\n$/);
    const again = await cli([join(dir, 'things.yaml'), '--out', out]);
    expect(again.stdout).toContain('changes per domain (+added -removed ~changed):\n  things: ~1 (things_list)');
    expect(again.stdout).not.toContain('serve it:');
  });

  test('a broken spec is one error line, exit 1, and leaves the previous registry byte-identical', async () => {
    const out = join(dir, 'reg');
    expect((await cli([join(dir, 'things.yaml'), '--out', out, '--name', 'things'])).code).toBe(0);
    const before = treeSnapshot(out);
    writeFileSync(join(dir, 'things.yaml'), 'openapi: 3.2.0\ninfo: {title: x, version: "1"}\npaths: {}\n');
    const res = await cli([join(dir, 'things.yaml'), '--out', out]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^api-catalog import: .*things.yaml declares OpenAPI "3.2.0"; supported versions: Swagger 2.0, OpenAPI 3.0.x and 3.1.x\n$/);
    expect(res.stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack without --verbose
    expect(treeSnapshot(out)).toEqual(before);
  });

  test('--strict fails on warnings; usage errors exit 2; --help prints the options', async () => {
    const strict = await cli([join(dir, 'things.yaml'), '--out', join(dir, 'reg'), '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/--strict and 1 warning\(s\); first: HEADER_IGNORED/);
    expect((await cli([])).code).toBe(2);
    expect((await cli(['a', 'b'])).code).toBe(2);
    expect((await cli(['x.yaml', '--bogus'])).code).toBe(2);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--check');
    expect((await cli([join(dir, 'things.yaml'), '--name', 'Bad Name!'])).stderr).toMatch(/catalog name "Bad Name!" must match/);
  });
});
