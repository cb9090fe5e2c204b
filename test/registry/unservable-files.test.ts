// What a loaded catalog reports as files it cannot serve (Catalog.unservable, read by /readyz) and how a refused
// reload changes the answer for a file it found changed (Catalog.reloadRefused): REGISTRY_STALE while a new version
// may be on its way, REGISTRY_INVALID with the refusal and the fix once a reload has refused it, and a file that
// changes again (a repair) asks for a reload once more. Real files from a real import; the HTTP side is in
// test/server/damaged-operations-file.test.ts.
import { rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { AppError } from '../../src/errors.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

async function importShop(): Promise<string> {
  const out = join(tempDir('ac-unservable-'), 'reg');
  const r = await runCaptured(importCli, [join('test', 'fixtures', 'overlays', 'shop.yaml'), '--name', 'shop', '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  return join(out, 'shop');
}

function errorOf(f: () => unknown): AppError {
  try {
    f();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

test('a file gone since load: stale, then refused with the reason and the fix, then stale again once it is back', async () => {
  const dir = await importShop();
  const orders = join(dir, 'operations', 'orders.json');
  const bytes = readFileSync(orders);
  const told: string[] = [];
  const c = loadCatalog(dir, { onChanged: (d) => told.push(d) });
  expect(c.unservable?.()).toEqual([]);
  rmSync(orders);
  expect(errorOf(() => c.operationsInDomain?.('orders')).code).toBe('REGISTRY_STALE');
  expect(told).toEqual([dir]);
  expect(c.unservable?.()).toEqual([expect.objectContaining({ file: orders, code: 'REGISTRY_STALE' })]);

  c.reloadRefused?.('catalog: the registry\'s files disagree: orders is missing');
  const refused = errorOf(() => c.operationsInDomain?.('orders'));
  expect(refused.code).toBe('REGISTRY_INVALID');
  expect(refused.message).toBe(
    `catalog: ${orders} is gone after this version was loaded, and the reload of the registry now on disk was refused (catalog: the registry's files disagree: orders is missing); ` +
      `its domain cannot be served until the registry is repaired: re-run its import (\`api-catalog import <spec> --name shop --out ${join(dir, '..')}\`) or put the previous files back; it is served again without a restart`,
  );
  expect(c.unservable?.()).toEqual([{ file: orders, code: 'REGISTRY_INVALID', reason: refused.message }]);
  // the other domains are served; nothing more is asked of the reloader while the file stays as it is
  expect(c.operationsInDomain?.('customers')?.length).toBe(3);
  expect(told).toEqual([dir]);

  // put back: a file this version cannot mix in, but a new state to judge: a reload is asked for again
  writeFileSync(orders, bytes);
  expect(c.unservable?.()).toEqual([expect.objectContaining({ file: orders, code: 'REGISTRY_STALE' })]);
  expect(told).toEqual([dir, dir]);
});

test('a file damaged before it was loaded: REGISTRY_INVALID when parsed, listed as unservable, no reload asked for', async () => {
  const dir = await importShop();
  const admin = join(dir, 'operations', 'admin.json');
  writeFileSync(admin, '[{"name": ');
  const told: string[] = [];
  const c = loadCatalog(dir, { onChanged: (d) => told.push(d) });
  const err = errorOf(() => c.operationsInDomain?.('admin'));
  expect(err.message).toBe(`catalog: ${admin} is not valid JSON; re-run the import`);
  expect(c.unservable?.()).toEqual([{ file: admin, code: 'REGISTRY_INVALID', reason: err.message }]);
  expect(told).toEqual([]);
});
