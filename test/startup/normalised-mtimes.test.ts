// Registries deployed with normalised modification times (SOURCE_DATE_EPOCH builds, Nix, Bazel/ko/jib images,
// `touch -d`, `cp -p`, tar): an edit that keeps a file's length then keeps its size and mtime too. The stat signature
// that lets a start skip hashing (registry snapshot, index cache) also holds each file's change time and inode,
// which none of those can carry over, so such an edit is seen: no stale search index, no stale catalog version.
// The production audit's reproduction, with the real tools: find -exec touch -h -d, then sed -i.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { loadCatalogSet, writeSearchSnapshot } from '../../src/server/core/catalogs.js';
import { call, connectTracedServe, fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

/** What a reproducible build leaves: every file and folder at one fixed time (1980-01-01, as zip and Nix do). */
function normalise(dir: string): void {
  const r = spawnSync('find', [dir, '-exec', 'touch', '-h', '-d', '@315532800', '{}', '+'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** The same length as the summary it replaces, so that the file keeps its size. */
const OLD = 'List pets, newest first';
const NEW = 'Feed seals, oldest last';

/** Replaces OLD by NEW in the petstore's pets.json with `sed -i` (a new file renamed over the old: a new inode). */
function sedEdit(registry: string): void {
  const file = join(registry, 'operations', 'pets.json');
  const size = statSync(file).size;
  const r = spawnSync('sed', ['-i', `s/${OLD}/${NEW}/`, file], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(statSync(file).size).toBe(size);
}

/** Two catalogs (a set: the index cache's case), copied so that their files can be edited. */
function twoRegistries(): { petstore: string; zoo: string } {
  const root = tempDir('normalised-');
  const petstore = join(root, 'petstore');
  const zoo = join(root, 'zoo');
  cpSync(fixtureRegistry('petstore'), petstore, { recursive: true });
  cpSync(fixtureRegistry('zoo'), zoo, { recursive: true });
  return { petstore, zoo };
}

describe('normalised modification times', () => {
  test('the audit reproduction: serve with --index-cache, a same-length sed -i edit, times put back: the new text is served', async () => {
    const { petstore, zoo } = twoRegistries();
    const cache = tempDir('normalised-cache-');
    const start = async (indexCache: string) => {
      const { client, trace } = await connectTracedServe(['--registry', petstore, '--registry', zoo, '--index-cache', indexCache]);
      try {
        const found = await call(client, 'search_tools', { query: 'feed seals oldest', limit: 3 });
        const version = (await call(client, 'list_domains', {})).value.catalogVersion as string;
        const t = await trace();
        return { kind: t.index.kind, version, top: JSON.stringify(found.value) };
      } finally {
        await client.close();
      }
    };
    normalise(petstore);
    normalise(zoo);
    const first = await start(cache);
    expect(first.kind).toBe('built');
    // untouched files: the next start restores the cache (the fast path stays)
    expect(await start(cache)).toMatchObject({ kind: 'cache', version: first.version });

    sedEdit(petstore);
    normalise(petstore);
    const edited = await start(cache);
    const uncached = await start('off');
    expect(uncached.top).toContain('pets.list');
    expect(uncached.version).not.toBe(first.version);
    // before: `search_index source=cache`, no result, and the old catalogVersion
    expect(edited.kind).toBe('built');
    expect(edited.top).toContain('pets.list');
    expect(edited.version).toBe(uncached.version);
    // the rewritten cache file is restored by the start after
    expect(await start(cache)).toMatchObject({ kind: 'cache', version: uncached.version });
  }, 120_000);

  test('an edit that keeps the inode (written in place) and the mtime is seen by its change time', () => {
    const { petstore, zoo } = twoRegistries();
    const cache = tempDir('normalised-cache-');
    const open = () => {
      const set = loadCatalogSet([petstore, zoo], { indexCache: cache, logger: createLogger({ write: () => {}, minLevel: 'error' }) });
      return { set, kind: (void set.index, set.indexSource?.kind) };
    };
    normalise(petstore);
    expect(open().kind).toBe('built');
    expect(open().kind).toBe('cache');
    const file = join(petstore, 'operations', 'pets.json');
    const ino = statSync(file).ino;
    writeFileSync(file, readFileSync(file, 'utf8').replace(OLD, NEW));
    normalise(petstore);
    expect(statSync(file).ino).toBe(ino);
    const after = open();
    expect(after.kind).toBe('built');
    expect(after.set.index.search('feed seals oldest', { limit: 1 }).results[0]?.name).toBe('petstore.pets.list');
  });

  test("one registry's own search.snapshot, already verified once on this machine: the edit is seen, not trusted", () => {
    const { petstore } = twoRegistries();
    const cache = tempDir('normalised-verified-');
    writeSearchSnapshot(petstore, 'test');
    // the times change after the import (an image build): the content is hashed once and the signature remembered
    normalise(petstore);
    const open = () => {
      const set = loadCatalogSet([petstore], { indexCache: cache, logger: createLogger({ write: () => {}, minLevel: 'error' }) });
      return { set, kind: (void set.index, set.indexSource?.kind) };
    };
    expect(open().kind).toBe('snapshot');
    expect(readdirSync(cache)).toEqual([expect.stringMatching(/^verified-[0-9a-f]{24}\.json$/)]);
    // remembered: the next start hashes nothing, so nothing is remembered again (the file stays the same one)
    const verified = join(cache, readdirSync(cache)[0]!);
    const before = statSync(verified, { bigint: true });
    expect(open().kind).toBe('snapshot');
    expect(statSync(verified, { bigint: true }).ino).toBe(before.ino);
    sedEdit(petstore);
    normalise(petstore);
    const after = open();
    expect(after.kind).toBe('built');
    expect(after.set.index.search('feed seals oldest', { limit: 1 }).results[0]?.name).toBe('pets.list');
  });
});
