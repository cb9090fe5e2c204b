// A registry whose files disagree (catalog.json's counts against the operations files actually there) is refused,
// naming both files and both counts: at load for what catalog.json and the file list show, when an operations file is
// parsed for what it holds. A registry being replaced while it is read is not taken for a broken one: read again at
// load, REGISTRY_STALE (and onChanged) later. Every registry an import writes passes, the embedded one included.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { AppError } from '../../src/errors.js';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import type { CatalogMeta, Operation } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { errorOf } from '../helpers/errors.js';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join('test', 'fixtures', 'overlays', 'shop.yaml');
let root = '';
/** The shop registry as imported (orders 5, customers 3, admin 1: 9 operations), and with orders_delete hidden (8). */
let shopA = '';
let shopB = '';

async function importShop(out: string, overlay?: string): Promise<string> {
  const r = await runCaptured(importCli, [SPEC, '--name', 'shop', '--out', out, ...(overlay !== undefined ? ['--overlay', overlay] : [])]);
  expect(r.code, r.stderr).toBe(0);
  return join(out, 'shop');
}

beforeAll(async () => {
  root = tempDir('ac-integrity-');
  const hide = join(root, 'hide.yaml');
  writeFileSync(hide, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
  shopA = await importShop(join(root, 'a'));
  shopB = await importShop(join(root, 'b'), hide);
});

let copies = 0;
/** A fresh copy of registry A, as <tmp>/<n>/shop. */
function copyOfA(): string {
  const dir = join(root, `copy-${++copies}`, 'shop');
  cpSync(shopA, dir, { recursive: true });
  return dir;
}

const readMeta = (dir: string) => JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')) as CatalogMeta;
const writeMeta = (dir: string, meta: CatalogMeta) => writeFileSync(join(dir, 'catalog.json'), JSON.stringify(meta, null, 2) + '\n');
const readOps = (dir: string, domain: string) => JSON.parse(readFileSync(join(dir, 'operations', `${domain}.json`), 'utf8')) as Operation[];

test('the registries an import writes, and the embedded one, agree with themselves', () => {
  for (const dir of [shopA, shopB, defaultCatalogDir(), fixtureRegistry('petstore'), fixtureRegistry('zoo')]) {
    const c = loadCatalog(dir);
    expect(c.operations, dir).toHaveLength(c.meta.operationCount);
  }
  expect(loadCatalog(shopA).meta.domains.map((d) => [d.name, d.toolCount])).toEqual([['admin', 1], ['customers', 3], ['orders', 5]]);
});

describe('files that disagree are refused, naming both files and both counts', () => {
  test('the issue: operations/orders.json is [] while catalog.json still counts its 5 operations (9 in all)', () => {
    const dir = copyOfA();
    writeFileSync(join(dir, 'operations', 'orders.json'), '[]\n');
    // catalog.json and the file list agree: loaded, and what needs no operation answers
    const c = loadCatalog(dir);
    expect(c.meta.operationCount).toBe(9);
    const expected = `catalog: the registry's files disagree: ${join(dir, 'operations', 'orders.json')} holds 0 operations, but ${join(dir, 'catalog.json')} counts 5 in domain "orders" (9 in all); refusing to serve it`;
    for (const read of [() => c.operations, () => c.operationsInDomain?.('orders'), () => c.byName]) {
      const err = errorOf(read);
      expect(err.code).toBe('REGISTRY_INVALID');
      expect(err.message.startsWith(expected), err.message).toBe(true);
      expect(err.message).toContain(`Re-run the import, which writes a registry whole (api-catalog import ${SPEC} --name shop --out ${join(root, `copy-${copies}`)})`);
      expect(err.details).toEqual({ files: [join(dir, 'operations', 'orders.json'), join(dir, 'catalog.json')], expected: 5, found: 0 });
    }
    // the other domains are whole: they answer
    expect(c.operationsInDomain?.('customers')).toHaveLength(3);
  });

  test.each([
    [
      "catalog.json's operation count is not its domains' sum",
      (dir: string) => writeMeta(dir, { ...readMeta(dir), operationCount: 5 }),
      (dir: string) => `${join(dir, 'catalog.json')} counts 5 operations, but its domains' counts add up to 9 (admin 1, customers 3, orders 5)`,
    ],
    [
      'a domain catalog.json counts operations in has no file',
      (dir: string) => unlinkSync(join(dir, 'operations', 'orders.json')),
      (dir: string) => `${join(dir, 'catalog.json')} counts 5 operations in domain "orders", but ${join(dir, 'operations', 'orders.json')} does not exist`,
    ],
    [
      'an operations file for a domain catalog.json does not list',
      (dir: string) => writeFileSync(join(dir, 'operations', 'stray.json'), '[]\n'),
      (dir: string) => `${join(dir, 'operations', 'stray.json')} holds a domain ${join(dir, 'catalog.json')} does not list`,
    ],
    [
      'catalog.json has no operation count',
      (dir: string) => {
        const { operationCount: _drop, ...meta } = readMeta(dir);
        writeMeta(dir, meta as CatalogMeta);
      },
      (dir: string) => `${join(dir, 'catalog.json')} has no operation count (operationCount: missing)`,
    ],
  ] as const)('at load: %s', (_what, breakIt, message) => {
    const dir = copyOfA();
    breakIt(dir);
    const err = errorOf(() => loadCatalog(dir));
    expect(err.code).toBe('REGISTRY_INVALID');
    expect(err.message).toContain(`catalog: the registry's files disagree: ${message(dir)}; refusing to serve it`);
  });

  test.each([
    [
      'a file holds one operation more than its domain counts',
      (dir: string) => writeFileSync(join(dir, 'operations', 'admin.json'), JSON.stringify([...readOps(dir, 'admin'), { ...readOps(dir, 'admin')[0], name: 'admin_extra' }])),
      (dir: string) => `${join(dir, 'operations', 'admin.json')} holds 2 operations, but ${join(dir, 'catalog.json')} counts 1 in domain "admin" (9 in all)`,
    ],
    [
      'an operation in the file of another domain',
      (dir: string) => writeFileSync(join(dir, 'operations', 'admin.json'), JSON.stringify(readOps(dir, 'admin').map((op) => ({ ...op, domain: 'orders' })))),
      (dir: string) => `${join(dir, 'operations', 'admin.json')} holds ${JSON.stringify(readOps(dir, 'admin')[0]?.name)} of domain "orders", but ${join(dir, 'catalog.json')} puts domain "admin" there`,
    ],
  ] as const)('when parsed: %s', (_what, breakIt, message) => {
    const dir = copyOfA();
    breakIt(dir);
    const c = loadCatalog(dir);
    const expected = message(dir);
    const err = errorOf(() => c.operations);
    expect(err.code).toBe('REGISTRY_INVALID');
    expect(err.message).toContain(`catalog: the registry's files disagree: ${expected}`);
  });
});

describe('at start-up (the built CLI): refused, exit 1, one line naming the files and counts', () => {
  const serve = (args: string[]) => spawnSync(process.execPath, [builtCli(), 'serve', ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 });

  test('serve --http reads the operations before it listens: the emptied operations file stops the start', () => {
    const dir = copyOfA();
    writeFileSync(join(dir, 'operations', 'orders.json'), '[]\n');
    const r = serve(['--http', '--port', '0', '--registry', dir]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toContain(
      `api-catalog: catalog: the registry's files disagree: ${join(dir, 'operations', 'orders.json')} holds 0 operations, but ${join(dir, 'catalog.json')} counts 5 in domain "orders" (9 in all); refusing to serve it`,
    );
    expect(r.stderr).not.toMatch(/Stop with Ctrl-C|unexpected error/);
  });

  test('serve over stdio: catalog.json that disagrees with itself stops the start', () => {
    const dir = copyOfA();
    writeMeta(dir, { ...readMeta(dir), operationCount: 12 });
    const r = serve(['--registry', dir]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      `api-catalog: catalog: the registry's files disagree: ${join(dir, 'catalog.json')} counts 12 operations, but its domains' counts add up to 9 (admin 1, customers 3, orders 5); refusing to serve it. ` +
        `Re-run the import, which writes a registry whole (api-catalog import ${SPEC} --name shop --out ${join(dir, '..')}), or put the previous folder back`,
    );
  });
});

describe('a registry being replaced is not taken for a broken one', () => {
  test('a writer that replaced an operations file and then catalog.json: REGISTRY_STALE and onChanged, then the new version loads', () => {
    const dir = copyOfA();
    // the writer, half way: orders.json of version B (4 operations) is in, catalog.json (counting 5) not yet
    cpSync(join(shopB, 'operations', 'orders.json'), join(dir, 'operations', 'orders.json'));
    const told: string[] = [];
    const c = loadCatalog(dir, { onChanged: (d) => told.push(d) });
    // ...and done: catalog.json of B, before the half-way version reads orders.json
    cpSync(join(shopB, 'catalog.json'), join(dir, 'catalog.json'));
    const err = errorOf(() => c.operations);
    expect(err.code).toBe('REGISTRY_STALE');
    expect(err.message).toBe(`catalog: ${dir} changed on disk after this catalog was loaded (a re-import?); the server loads the new version: retry in a few seconds`);
    expect(told).toEqual([dir]);
    const next = loadCatalog(dir);
    expect(next.operations).toHaveLength(8);
    expect(next.meta.operationCount).toBe(8);
  });

  test('loads racing folder swaps (what an import does, over and over, in another process) never answer REGISTRY_INVALID', async () => {
    const served = join(root, 'swapped', 'shop');
    cpSync(shopA, served, { recursive: true });
    // The swapper: copies A or B beside the served folder and renames it into place, as writeRegistry does; it says
    // "swapping" once it has swapped the first time and stops when its stdin closes.
    const script = `
      const { cpSync, renameSync, rmSync } = require('node:fs');
      const [served, a, b] = process.argv.slice(1);
      let stop = false;
      process.stdin.on('end', () => (stop = true)).resume();
      (async () => {
        for (let k = 0; !stop; k++) {
          const tmp = served + '.tmp-' + k, old = served + '.old-' + k;
          cpSync(k % 2 === 0 ? b : a, tmp, { recursive: true });
          renameSync(served, old);
          renameSync(tmp, served);
          rmSync(old, { recursive: true, force: true });
          if (k === 0) process.stdout.write('swapping\\n');
          await new Promise((r) => setImmediate(r));
        }
      })();`;
    const swapper = spawn(process.execPath, ['-e', script, served, shopA, shopB], { stdio: ['pipe', 'pipe', 'inherit'] });
    await once(swapper.stdout, 'data');
    const outcomes = new Map<string, number>();
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    try {
      for (let i = 0; i < 300; i++) {
        try {
          const c = loadCatalog(served);
          const ops = c.operations;
          // whole: one version's catalog.json with that version's files
          count(ops.length === c.meta.operationCount && (ops.length === 9 || ops.length === 8) ? 'loaded' : `mixed ${ops.length}/${c.meta.operationCount}`);
        } catch (err) {
          count(err instanceof AppError ? err.code : `thrown: ${String(err)}`);
        }
      }
    } finally {
      swapper.stdin.end();
      await once(swapper, 'exit');
    }
    // the moments the folder is absent between the two renames are REGISTRY_NOT_FOUND; a read that met a swap is
    // read again or REGISTRY_STALE; never "the files disagree", never a mix, never a raw file-system error
    const kinds = [...outcomes.keys()];
    expect(kinds.filter((k) => !['loaded', 'REGISTRY_STALE', 'REGISTRY_NOT_FOUND'].includes(k)), JSON.stringify([...outcomes])).toEqual([]);
  });
});
