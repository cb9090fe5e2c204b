// The reload's index worker (src/server/core/index-thread.ts) from the built library, as a process that imports
// dist/ runs it (a worker thread needs compiled JavaScript; `npm run build` first). Its index ranks every query exactly
// as one built on the serving thread, for a set that mixes a registry folder, a catalog held in memory (how a reload
// keeps a refused registry's previous catalog) and serve-time filters; a registry damaged after the set was loaded is
// refused as the serving thread would refuse it; and a job the worker cannot take falls back to building on the
// serving thread, with a warning.
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

let reg = '';
const dist = (path: string): string => pathToFileURL(join(REPO_ROOT, 'dist', path)).href;

beforeAll(() => {
  reg = join(tempDir('ac-index-worker-'), 'reg');
  const r = spawnSync(process.execPath, [builtCli(), 'import', join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml'), '--name', 'shop', '--out', reg], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
});

/** Runs an ES module script in a fresh Node process; returns its stdout parsed as JSON, and its stderr. */
function script(source: string): { out: any; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
  return { out: JSON.parse(r.stdout), stderr: r.stderr };
}

const PRELUDE = `
import { buildCatalogSet } from '${dist('server/core/catalogs.js')}';
import { loadCatalog } from '${dist('registry/catalog.js')}';
import { createLogger } from '${dist('logger.js')}';
const lines = [];
const logger = createLogger({ write: (l) => lines.push(JSON.parse(l)) });
const QUERIES = ['create an issue', 'refund an order', 'delete an order', 'list pull requests', 'purge the cache'];
const ranked = (set) => QUERIES.map((q) => set.index.search(q, { limit: 10 }));
`;

test('the worker\'s index ranks as the serving thread\'s: a folder, a catalog in memory and filters', () => {
  const { out } = script(`${PRELUDE}
const github = loadCatalog('${join(REPO_ROOT, 'registry', 'github')}');
const shop = loadCatalog('${join(reg, 'shop')}');
const kept = { dir: shop.dir, meta: shop.meta, skipped: shop.skipped, operations: shop.operations, byName: shop.byName };
const options = { filters: { excludeTools: ['shop.orders_delete'], excludeDomains: ['github.gists'] } };
const off = buildCatalogSet([github, kept], { ...options, logger });
const here = buildCatalogSet([github, kept], options);
await off.prepareIndex();
console.log(JSON.stringify({ same: JSON.stringify(ranked(off)) === JSON.stringify(ranked(here)), version: off.version === here.version, source: off.indexSource.kind, lines }));
`);
  expect(out).toMatchObject({ same: true, version: true, source: 'built' });
  expect(out.lines).toEqual([expect.objectContaining({ event: 'search_index', source: 'built', thread: 'worker', reason: 'several catalogs' })]);
});

test('a registry damaged after the set was loaded is refused as on the serving thread, and the reload is asked for', () => {
  const copy = join(tempDir('ac-index-worker-damaged-'), 'shop');
  cpSync(join(reg, 'shop'), copy, { recursive: true });
  const { out } = script(`${PRELUDE}
import { writeFileSync } from 'node:fs';
const changed = [];
const set = buildCatalogSet([loadCatalog('${join(REPO_ROOT, 'registry', 'github')}'), loadCatalog('${copy}')], { logger, onChanged: (d) => changed.push(d) });
writeFileSync('${join(copy, 'operations', 'orders.json')}', '[');
let error;
try { await set.prepareIndex(); } catch (err) { error = { code: err.code, message: err.message }; }
console.log(JSON.stringify({ error, changed }));
`);
  expect(out.error).toEqual({ code: 'REGISTRY_STALE', message: `catalogs: ${copy} changed on disk while the reload built its search index; the server loads the new version` });
  expect(out.changed).toEqual([copy]);
  // damaged before the set was loaded: the worker's reading is the answer (what the serving thread would say)
  writeFileSync(join(copy, 'operations', 'orders.json'), '[');
  const again = script(`${PRELUDE}
const set = buildCatalogSet([loadCatalog('${join(REPO_ROOT, 'registry', 'github')}'), loadCatalog('${copy}')], { logger });
let error;
try { await set.prepareIndex(); } catch (err) { error = { code: err.code, message: err.message }; }
console.log(JSON.stringify({ error }));
`);
  expect(again.out.error).toEqual({ code: 'REGISTRY_INVALID', message: `catalog: ${join(copy, 'operations', 'orders.json')} is not valid JSON; re-run the import` });
});

test('a job the worker cannot take: the index is built on the serving thread, with a warning', () => {
  const { out } = script(`${PRELUDE}
const shop = loadCatalog('${join(reg, 'shop')}');
// an operation that cannot be sent to a worker (a function is not structured-cloneable)
const operations = shop.operations.map((op, i) => (i === 0 ? { ...op, toJSON: () => op } : op));
const odd = { dir: shop.dir, meta: shop.meta, skipped: shop.skipped, operations, byName: new Map(operations.map((op) => [op.name, op])) };
const github = loadCatalog('${join(REPO_ROOT, 'registry', 'github')}');
const set = buildCatalogSet([github, odd], { logger });
await set.prepareIndex();
const here = buildCatalogSet([github, odd]);
console.log(JSON.stringify({ same: JSON.stringify(ranked(set)) === JSON.stringify(ranked(here)), source: set.indexSource.kind, lines }));
`);
  expect(out).toMatchObject({ same: true, source: 'built' });
  const events = out.lines.map((l: { event: string }) => l.event);
  expect(events).toEqual(['index_worker_failed', 'search_index']);
  expect(out.lines[0]).toMatchObject({ level: 'warn', message: expect.stringMatching(/could not be cloned/) });
  expect(out.lines[1].thread).toBeUndefined();
});
