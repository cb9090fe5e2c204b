// A reload's new index is written to the index cache in the background: prepareIndex (what the reload awaits before
// it swaps the new version in) no longer waits for that write, so a slow or full cache volume cannot hold the swap.
// The write still ends and says how (index_cached; index_cache_unwritable for a folder it cannot create), and its
// failure is never an unhandled rejection. The proof is the order of events in one process, not a clock: the
// caller's own line after prepareIndex resolved comes before the write's line (before: after it). From the built
// library in a fresh Node process, as the worker thread needs compiled JavaScript; `npm run build` first.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

let root = '';
const dist = (path: string): string => pathToFileURL(join(REPO_ROOT, 'dist', path)).href;

beforeAll(() => {
  root = tempDir('ac-cache-background-');
  const r = spawnSync(process.execPath, [builtCli(), 'import', join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml'), '--name', 'shop', '--out', join(root, 'reg')], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
});

/** Builds the set of GitHub and shop with `cache` as its index cache, off thread; the events in the order they came. */
function prepare(cache: string): { events: string[]; source: string } {
  const source = `
import { buildCatalogSet } from '${dist('server/core/catalogs.js')}';
import { loadCatalog } from '${dist('registry/catalog.js')}';
import { createLogger } from '${dist('logger.js')}';
const events = [];
process.on('unhandledRejection', () => events.push('unhandledRejection'));
const logger = createLogger({ write: (l) => events.push(JSON.parse(l).event) });
const set = buildCatalogSet([loadCatalog(${JSON.stringify(join(REPO_ROOT, 'registry', 'github'))}), loadCatalog(${JSON.stringify(join(root, 'reg', 'shop'))})], { logger, indexCache: ${JSON.stringify(cache)} });
await set.prepareIndex();
events.push('prepared');
while (!events.some((e) => e === 'index_cached' || e === 'index_cache_unwritable')) await new Promise((r) => setTimeout(r, 10));
await new Promise((r) => setImmediate(r));
console.log(JSON.stringify({ events, source: set.indexSource.kind }));
`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { events: string[]; source: string };
}

test('prepareIndex resolves before the index cache write ends; the write then ends and is logged', () => {
  const cache = join(root, 'cache');
  expect(prepare(cache)).toEqual({ events: ['search_index', 'prepared', 'index_cached'], source: 'built' });
  expect(readdirSync(cache).filter((f) => /^set-[0-9a-f]{24}\.snapshot$/.test(f))).toHaveLength(1);
});

test('a cache folder that cannot be made: prepareIndex resolves, the failure is logged, nothing is left unhandled', () => {
  const file = join(root, 'not-a-folder');
  writeFileSync(file, 'a file where the cache folder should be\n');
  expect(prepare(join(file, 'cache'))).toEqual({ events: ['search_index', 'prepared', 'index_cache_unwritable'], source: 'built' });
});
