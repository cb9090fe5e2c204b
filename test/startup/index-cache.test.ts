// serve --index-cache: the index of several catalogs (or of filtered ones), which no registry snapshot describes,
// is built once, written to the cache folder and restored by later starts — ranking exactly as a build, reading
// no operations file for a search, stale when a registry changes, and never in the way when the folder is unusable.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { defaultCatalogDir } from '../../src/registry/catalog.js';
import { loadCatalogSet, type CatalogSetOptions } from '../../src/server/core/catalogs.js';
import { builtCli, connectTracedServe, fixtureRegistry } from '../helpers/mcp.js';

const QUERIES = ['create an issue', 'list pull requests', 'add a pet', 'delete a repository webhook', 'get a pet by id', 'star a gist', 'find pets by status'];

let root: string;
let github: string;
let petstore: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'index-cache-'));
  github = join(root, 'registries', 'github');
  petstore = join(root, 'registries', 'petstore');
  cpSync(defaultCatalogDir(), github, { recursive: true });
  cpSync(fixtureRegistry('petstore'), petstore, { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function open(dirs: string[], options: CatalogSetOptions = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>), minLevel: 'debug' });
  const set = loadCatalogSet(dirs, { ...options, logger });
  return { set, lines };
}

const rankings = (set: ReturnType<typeof open>['set']) => QUERIES.map((q) => set.index.search(q, { limit: 10 }));
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
    expect(second.set.indexSource?.kind).toBe('cache');
    expect(second.set.names).toEqual(first.set.names);
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
    expect(readdirSync(cache)).toHaveLength(2);
    expect(kindOf(open([github], { indexCache: cache }).set)).toBe('snapshot');
    expect(readdirSync(cache)).toHaveLength(2);
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

  test('--index-cache is an option of serve (flag, env, config file key) with help text', () => {
    const help = spawnSync(process.execPath, [builtCli(), 'serve', '--help'], { encoding: 'utf8' });
    expect(help.stdout).toMatch(/--index-cache <dir>.*API_CATALOG_INDEX_CACHE/s);
  });
});
