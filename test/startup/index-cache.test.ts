// serve --index-cache: the index of several catalogs (or of filtered ones), which no registry snapshot describes,
// is built once, written to the cache folder (by default the user's cache folder) and restored by later starts —
// ranking exactly as a build, reading no operations file for a search, stale when a registry changes, safe with
// two replicas writing at once, pruned when unused, and never in the way when the folder is unusable.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { defaultCatalogDir } from '../../src/registry/catalog.js';
import { loadCatalogSet, type CatalogSetOptions } from '../../src/server/core/catalogs.js';
import { listDomains } from '../../src/server/core/domains.js';
import { pruneSetCache, UNUSED_SET_MS } from '../../src/server/core/index-cache.js';
import { toolNames } from '../../src/server/core/names.js';
import { builtCli, connectTracedServe, fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const statMtime = (file: string): number => statSync(file).mtimeMs;

const QUERIES = ['create an issue', 'list pull requests', 'add a pet', 'delete a repository webhook', 'get a pet by id', 'star a gist', 'find pets by status'];

let root: string;
let github: string;
let petstore: string;
beforeAll(() => {
  root = tempDir('index-cache-');
  github = join(root, 'registries', 'github');
  petstore = join(root, 'registries', 'petstore');
  cpSync(defaultCatalogDir(), github, { recursive: true });
  cpSync(fixtureRegistry('petstore'), petstore, { recursive: true });
});

function open(dirs: string[], options: CatalogSetOptions = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>), minLevel: 'debug' });
  const set = loadCatalogSet(dirs, { ...options, logger });
  return { set, lines };
}

const rankings = (set: ReturnType<typeof open>['set']) => QUERIES.map((q) => set.index.search(q, { limit: 10 }));
/** Every dev-set query of both catalogs, as agents send them: plain, within a domain, with keywords, a second page. */
function fullRankings(set: ReturnType<typeof open>['set']) {
  const lines = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'eval', 'queries-dev.jsonl'), 'utf8').split('\n').filter(Boolean);
  const queries = [...QUERIES, ...lines.map((l) => (JSON.parse(l) as { query: string }).query)];
  return queries.flatMap((q) => [
    set.index.search(q, { limit: 25 }),
    set.index.search(q, { limit: 10, domain: 'github.repos' }),
    set.index.search(q, { limit: 10, keywords: ['pet', 'issue'] }),
    set.index.search(q, { limit: 5, offset: 5 }),
    set.index.suggest(q),
  ]);
}
/** How the set's index was obtained (opening it first: it is made on first use). */
const kindOf = (set: ReturnType<typeof open>['set']) => (void set.index, set.indexSource?.kind);

describe('serve --index-cache', () => {
  test('several catalogs: built and cached once, then restored; same rankings; a search reads no operations file', () => {
    const cache = join(root, 'cache-1');
    const first = open([github, petstore], { indexCache: cache });
    const built = rankings(first.set);
    expect(first.set.indexSource).toMatchObject({ kind: 'built', reason: 'several catalogs; index cache: nothing cached yet' });
    expect(first.lines.find((l) => l.event === 'index_cached')).toBeDefined();
    expect(readdirSync(cache).filter((f) => /^set-[0-9a-f]{24}\.snapshot$/.test(f))).toHaveLength(1);

    const second = open([github, petstore], { indexCache: cache });
    expect(rankings(second.set)).toEqual(built);
    // every query of the dev sets, every way agents search: the same hits, order and scores as the fresh build
    expect(fullRankings(second.set)).toEqual(fullRankings(first.set));
    expect(second.set.indexSource?.kind).toBe('cache');
    expect(second.set.names).toEqual(first.set.names);
    for (const c of second.set.catalogs) expect(c.parsedFiles?.(), c.meta.name).toEqual([]);
    // the map of several catalogs counts each catalog's tools from catalog.json, parsing no operations file
    const map = listDomains(second.set, {}, toolNames());
    expect((map as { value: { catalogs: { name: string; toolCount: number }[] } }).value.catalogs).toEqual([
      expect.objectContaining({ name: 'github', toolCount: first.set.catalogs[0]?.operations.length }),
      expect.objectContaining({ name: 'petstore', toolCount: first.set.catalogs[1]?.operations.length }),
    ]);
    for (const c of second.set.catalogs) expect(c.parsedFiles?.(), c.meta.name).toEqual([]);
    // a lookup reads only its operation's domain file, in its own catalog, and answers with the public names
    const entry = second.set.byName.get('github.issues_create');
    expect(entry).toMatchObject({ localName: 'issues_create', op: { name: 'github.issues_create', domain: 'github.issues' } });
    expect(entry?.op).toEqual(first.set.byName.get('github.issues_create')?.op);
    expect(second.set.catalogs.map((c) => c.parsedFiles?.())).toEqual([['issues.json'], []]);
    expect(second.set.byName.has('github.no_such-operation')).toBe(false);
  });

  test('a registry changed since: the cached index is stale, rebuilt and replaced', () => {
    const cache = join(root, 'cache-2');
    const dirs = [join(root, 'changed', 'github'), petstore];
    cpSync(github, dirs[0]!, { recursive: true });
    open(dirs, { indexCache: cache }).set.index;
    const file = join(dirs[0]!, 'operations', 'issues.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"Create an issue"', '"Open a zebra ticket"'));
    const after = open(dirs, { indexCache: cache });
    expect(after.set.index.search('zebra ticket', { limit: 1 }).results[0]?.name).toBe('github.issues_create');
    expect(after.set.indexSource).toMatchObject({ kind: 'built' });
    expect(String(after.set.indexSource?.reason)).toMatch(/index cache: stale/);
    expect(kindOf(open(dirs, { indexCache: cache }).set)).toBe('cache');
  });

  test('serve-time filters: one cached index per set of filters; one registry alone uses its own snapshot', () => {
    const cache = join(root, 'cache-3');
    const a = { excludeDomains: ['gists'] };
    const b = { includeDomains: ['issues', 'pulls'] };
    expect(kindOf(open([github], { indexCache: cache, filters: a }).set)).toBe('built');
    expect(kindOf(open([github], { indexCache: cache, filters: b }).set)).toBe('built');
    const again = open([github], { indexCache: cache, filters: b });
    expect(kindOf(again.set)).toBe('cache');
    expect(again.set.index.search('star a gist', { limit: 10 }).results.every((h) => ['issues', 'pulls'].includes(h.domain))).toBe(true);
    const sets = () => readdirSync(cache).filter((f) => f.startsWith('set-'));
    expect(sets()).toHaveLength(2);
    expect(kindOf(open([github], { indexCache: cache }).set)).toBe('snapshot');
    expect(sets()).toHaveLength(2);
  });

  test('an unusable cache folder is a warning; the index is built and search works', () => {
    const blocked = join(root, 'not-a-folder');
    writeFileSync(blocked, 'x');
    const { set, lines } = open([github, petstore], { indexCache: blocked });
    expect(set.index.search('add a pet', { limit: 1 }).results[0]?.name).toMatch(/^petstore\./);
    expect(lines.find((l) => l.event === 'index_cache_unwritable')).toMatchObject({ level: 'warn' });
  });

  test('the built server: --index-cache makes the second start restore the index (start-up trace)', () => {
    const cache = join(root, 'cache-serve');
    const start = async (): Promise<{ kind: string }> => {
      const { client, trace } = await connectTracedServe(['--registry', github, '--registry', petstore, '--index-cache', cache]);
      try {
        expect((await client.listTools()).tools).toHaveLength(4);
        const r = await client.callTool({ name: 'search_tools', arguments: { query: 'add a pet', limit: 3 } });
        expect(JSON.stringify(r.structuredContent)).toContain('petstore.');
        return (await trace()).index;
      } finally {
        await client.close();
      }
    };
    return (async () => {
      expect((await start()).kind).toBe('built');
      expect(existsSync(cache)).toBe(true);
      expect((await start()).kind).toBe('cache');
    })();
  }, 60_000);

  test('two replicas writing the same set at once: one whole file, no temporary left, later starts restore it', async () => {
    const cache = join(root, 'cache-race');
    const args = ['--registry', github, '--registry', petstore, '--index-cache', cache];
    // two real servers, started together, each building the index and writing it when it is ready
    const [a, b] = await Promise.all([connectTracedServe(args), connectTracedServe(args)]);
    try {
      await Promise.all([a.client.listTools(), b.client.listTools()]);
      // a server writes the cache in the same step that makes its index ready, before its trace line
      const kinds = (await Promise.all([a.trace(), b.trace()])).map((t) => t.index.kind);
      expect(kinds).toContain('built');
      for (const k of kinds) expect(['built', 'cache']).toContain(k);
    } finally {
      await Promise.all([a.client.close(), b.client.close()]);
    }
    expect(readdirSync(cache)).toEqual([expect.stringMatching(/^set-[0-9a-f]{24}\.snapshot$/)]);
    const again = open([github, petstore], { indexCache: cache });
    expect(kindOf(again.set)).toBe('cache');
    expect(rankings(again.set)).toEqual(rankings(open([github, petstore]).set));
  }, 90_000);

  test('the same catalog names in other folders get their own file (two checkouts share the user cache folder)', () => {
    const cache = join(root, 'cache-dirs');
    const copy = join(root, 'elsewhere');
    cpSync(join(root, 'registries'), copy, { recursive: true });
    expect(kindOf(open([github, petstore], { indexCache: cache }).set)).toBe('built');
    expect(kindOf(open([join(copy, 'github'), join(copy, 'petstore')], { indexCache: cache }).set)).toBe('built');
    expect(readdirSync(cache)).toHaveLength(2);
    expect(kindOf(open([github, petstore], { indexCache: cache }).set)).toBe('cache');
    expect(kindOf(open([join(copy, 'github'), join(copy, 'petstore')], { indexCache: cache }).set)).toBe('cache');
  });

  test('pruning: set files unused for 30 days and abandoned temporaries go; fresh files and other files stay', () => {
    const dir = join(root, 'cache-prune');
    mkdirSync(dir);
    const now = Date.now();
    const files: Record<string, number> = {
      [`set-${'a'.repeat(24)}.snapshot`]: now - UNUSED_SET_MS - 60_000, // unused: deleted
      [`set-${'b'.repeat(24)}.snapshot`]: now - 24 * 3600_000, // used yesterday: kept
      [`set-${'c'.repeat(24)}.snapshot.123-0a1b2c.tmp`]: now - 2 * 3600_000, // a crashed writer's: deleted
      [`set-${'d'.repeat(24)}.snapshot.124-0a1b2c.tmp`]: now - 1000, // a write in progress: kept
      'notes.txt': now - UNUSED_SET_MS * 2, // not ours: kept
    };
    for (const [name, mtime] of Object.entries(files)) {
      writeFileSync(join(dir, name), 'x');
      utimesSync(join(dir, name), new Date(mtime), new Date(mtime));
    }
    pruneSetCache(dir, now);
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', `set-${'b'.repeat(24)}.snapshot`, `set-${'d'.repeat(24)}.snapshot.124-0a1b2c.tmp`]);
  });

  test('a restore marks the file as used (so pruning keeps what replicas restore)', () => {
    const cache = join(root, 'cache-touch');
    void open([github, petstore], { indexCache: cache }).set.index;
    const [name] = readdirSync(cache);
    const old = new Date(Date.now() - 10 * 24 * 3600_000);
    utimesSync(join(cache, name!), old, old);
    expect(kindOf(open([github, petstore], { indexCache: cache }).set)).toBe('cache');
    expect(Date.now() - statMtime(join(cache, name!))).toBeLessThan(24 * 3600_000);
  });

  test('by default the built server caches in the user cache folder; --index-cache off always builds', async () => {
    const home = tempDir('xdg-');
    const env = { XDG_CACHE_HOME: home };
    const start = async (extra: string[]): Promise<string> => {
      const { client, trace } = await connectTracedServe(['--registry', github, '--registry', petstore, ...extra], env);
      try {
        expect((await client.listTools()).tools).toHaveLength(4);
        const r = await client.callTool({ name: 'search_tools', arguments: { query: 'add a pet', limit: 3 } });
        expect(JSON.stringify(r.structuredContent)).toContain('petstore.');
        return (await trace()).index.kind;
      } finally {
        await client.close();
      }
    };
    expect(await start(['--index-cache', 'off'])).toBe('built');
    expect(existsSync(join(home, 'api-catalog'))).toBe(false);
    expect(await start([])).toBe('built');
    expect(readdirSync(join(home, 'api-catalog', 'index'))).toEqual([expect.stringMatching(/^set-[0-9a-f]{24}\.snapshot$/)]);
    expect(await start([])).toBe('cache');
    expect(await start(['--index-cache', 'off'])).toBe('built');
  }, 90_000);

  test('--index-cache is an option of serve (flag, env, config file key) with help text', () => {
    const help = spawnSync(process.execPath, [builtCli(), 'serve', '--help'], { encoding: 'utf8' });
    expect(help.stdout).toMatch(/--index-cache <dir>.*API_CATALOG_INDEX_CACHE/s);
  });
});
