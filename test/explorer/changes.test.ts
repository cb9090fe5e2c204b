// changes.json: a re-import that changes the registry records what it changed (for the explorer's import report);
// `import --check` still compares only what the spec determines, and an unchanged re-import keeps the record.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { checkRegistry, importSpec, writeRegistry, type ChangesFile } from '../../src/importer/index.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
beforeEach(() => {
  dir = tempDir('ac-changes-');
  cpSync('test/fixtures/specs/oas30.yaml', join(dir, 'things.yaml'));
});

describe('changes.json', () => {
  test('absent after a first import; written by a changing re-import; kept by an unchanged one; ignored by --check', async () => {
    const reg = join(dir, 'reg');
    const changesPath = join(reg, 'things', 'changes.json');
    writeRegistry(await importSpec(join(dir, 'things.yaml')), reg);
    expect(existsSync(changesPath)).toBe(false);

    const spec = readFileSync(join(dir, 'things.yaml'), 'utf8')
      .replace('summary: Replace a thing', 'summary: Replace a thing entirely')
      .replace('paths:\n', 'paths:\n  /gadgets:\n    get:\n      operationId: gadgets/list\n      summary: List gadgets\n      responses: { "200": { description: OK } }\n');
    writeFileSync(join(dir, 'things.yaml'), spec);
    const next = await importSpec(join(dir, 'things.yaml'));
    const report = writeRegistry(next, reg);
    const written = JSON.parse(readFileSync(changesPath, 'utf8')) as ChangesFile;
    expect(written.domains).toEqual(report.changes);
    expect(written.domains).toEqual([
      { domain: 'gadgets', added: ['gadgets_list'], removed: [], changed: [] },
      { domain: 'things', added: [], removed: [], changed: ['things_replace'] },
    ]);
    expect(written.before.operationCount).toBe(5);
    expect(written.after.operationCount).toBe(6);
    expect(written.before.sourceSha256).not.toBe(written.after.sourceSha256);

    // --check: up to date (changes.json is history, not derived from the spec)...
    expect(checkRegistry(next, reg)).toEqual({ upToDate: true, missing: [], extra: [], changed: [] });
    // ...and still meaningful: an edited operation file is stale
    writeFileSync(join(reg, 'things', 'operations', 'gadgets.json'), '[]\n');
    expect(checkRegistry(next, reg)).toMatchObject({ upToDate: false, changed: ['operations/gadgets.json'] });

    // a re-import that repairs the file only, then one with nothing to do: the record of the last real change stays
    const bytes = readFileSync(changesPath, 'utf8');
    expect(writeRegistry(next, reg).unchanged).toBe(false);
    const afterRepair = JSON.parse(readFileSync(changesPath, 'utf8')) as ChangesFile;
    expect(afterRepair.domains).toEqual([{ domain: 'gadgets', added: ['gadgets_list'], removed: [], changed: [] }]);
    const kept = readFileSync(changesPath, 'utf8');
    expect(writeRegistry(next, reg).unchanged).toBe(true);
    expect(readFileSync(changesPath, 'utf8')).toBe(kept);
    expect(bytes).not.toBe(kept);
  });
});
