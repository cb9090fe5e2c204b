// Tool poisoning above the operations (RELIABILITY J1), through a real SDK client: a spec whose title, description
// and tag descriptions address the agent is imported, and list_domains shows the catalog name and a neutral note in
// their place, never the text; ordinary text of the same spec is shown as it was.
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { WITHHELD_TEXT } from '../../src/importer/lint.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { ERAS, call, connectInMemory, type Connected, type Era } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const POISON = /ignore all previous|id_rsa|\.aws|disregard|SYSTEM|deleteAll (first|now)/i;

let set: CatalogSet;
beforeAll(async () => {
  const out = tempDir('ac-poisoned-catalog-');
  writeRegistry(await importSpec('test/fixtures/specs/poisoned-catalog-text.yaml', { name: 'inventory' }), out);
  set = loadCatalogSet([join(out, 'inventory')]);
});

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe.each(ERAS)('poisoned catalog text, %s era (J1)', (era: Era) => {
  async function connect(): Promise<Connected> {
    const c = await connectInMemory({ catalogs: set }, { era });
    open.push(c);
    return c;
  }

  test('list_domains withholds the poisoned catalog and domain text: the catalog name and a note instead', async () => {
    const { client } = await connect();
    const r = await call(client, 'list_domains', {});
    expect(r.success).toBe(true);
    expect(r.value.catalog).toEqual({ name: 'inventory', title: 'inventory', description: WITHHELD_TEXT });
    expect(r.value.domains).toEqual([
      { name: 'items', toolCount: 2, description: WITHHELD_TEXT },
      { name: 'notes', toolCount: 2, description: 'Notes: Create a note' },
      { name: 'orders', toolCount: 1, description: 'Orders placed by customers.' },
    ]);
    expect(JSON.stringify(r)).not.toMatch(POISON);
  });
});
