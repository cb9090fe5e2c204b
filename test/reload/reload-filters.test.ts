// A reload under serve-time filters (--exclude-tools and friends): the catalog_reloaded line counts the
// operations the new version serves. filterCatalogs already recounts meta.operationCount, so subtracting
// filteredOut again undercounted by the number filtered.
import { expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { buildCatalogSet } from '../../src/server/core/catalogs.js';
import { filterCatalogs } from '../../src/server/core/filters.js';
import { LiveCatalogs, type ServedCatalogs } from '../../src/server/core/reload.js';
import { fixtureRegistry } from '../helpers/mcp.js';

test('catalog_reloaded counts the served operations once the filters have dropped theirs', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) });
  const all = loadCatalog(fixtureRegistry('petstore')).operations.length;
  const dropped = 'pets.create';
  const load = async (): Promise<ServedCatalogs> => ({
    catalogs: buildCatalogSet(filterCatalogs([loadCatalog(fixtureRegistry('petstore'))], { excludeTools: [dropped] }, false)),
    settings: { baseUrls: {}, readOnly: false, env: {} },
  });
  const first = await load();
  const served = first.catalogs.catalogs[0]!;
  expect(served.filteredOut).toBe(1);
  expect(served.operations.some((o) => o.name === dropped)).toBe(false);
  const live = new LiveCatalogs(first, { load, logger });
  expect((await live.reload('request')).ok).toBe(true);
  const line = lines.find((l) => l.event === 'catalog_reloaded');
  expect(line?.operations).toBe(all - 1);
  expect(line?.operations).toBe(live.current.catalogs.catalogs[0]!.operations.length);
});
