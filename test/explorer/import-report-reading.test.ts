// The import report links what a diagnostic names through the catalog's own reading of each domain's file (the files
// as the catalog loaded them, parsed once whoever asks), not by reading the operations folder again: an operations
// file a re-import replaced after the catalog was loaded gives no link (the server does not serve its names yet; it
// loads the new version), where reading the folder again linked a name the server does not have (a 404).
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { importPage } from '../../src/server/explorer/report.js';
import { tempDir } from '../helpers/temp.js';

let reg = '';
beforeEach(async () => {
  const dir = tempDir('ac-report-');
  cpSync('test/fixtures/specs/oas30.yaml', join(dir, 'things.yaml'));
  writeRegistry(await importSpec(join(dir, 'things.yaml')), join(dir, 'reg'));
  reg = join(dir, 'reg', 'things');
  // a warning about POST /things, for the report to link
  writeFileSync(join(reg, 'diagnostics.json'), JSON.stringify([{ level: 'warning', code: 'SOME_WARNING', pointer: '#/paths/~1things/post', message: 'about creating things' }]));
});

const body = async (set: ReturnType<typeof loadCatalogSet>): Promise<string> => String((await importPage(set)).body);

describe('the import report', () => {
  test("reads each domain's operations through the catalog, and links the operation a warning names", async () => {
    const set = loadCatalogSet([reg]);
    const catalog = set.catalogs[0];
    expect(catalog?.parsedFiles?.()).toEqual([]);
    const page = await body(set);
    expect(page).toContain('<a href="/?tool=things_create">things_create</a>');
    expect(catalog?.parsedFiles?.()).toEqual(readdirSync(join(reg, 'operations')).sort());
  });

  test('an operations file replaced after the catalog was loaded: no link to a name the server does not serve', async () => {
    let changed = 0;
    const set = loadCatalogSet([reg], { onChanged: () => changed++ });
    const file = join(reg, 'operations', 'things.json');
    const ops = JSON.parse(readFileSync(file, 'utf8')) as Array<{ name: string }>;
    writeFileSync(file, JSON.stringify(ops.map((o) => (o.name === 'things_create' ? { ...o, name: 'things_make' } : o))));
    const page = await body(set);
    expect(page).toContain('#/paths/~1things/post');
    expect(page).not.toContain('things_make');
    expect(page).not.toContain('?tool=things_create');
    // the catalog noticed and asked for the new version to be loaded
    expect(changed).toBe(1);
  });
});
