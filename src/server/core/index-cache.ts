// The index cache (`serve --index-cache <dir>`): the search index of a set that no registry's own snapshot
// describes — several catalogs in one namespace, or one narrowed by serve-time filters — written after it is
// built and restored by later starts and by other replicas that share the folder. At 22 catalogs / 52k operations
// that build takes ~10-17 s per start. One file per set (`set-<identity>.snapshot`, the identity being the
// catalog names, their order of prefixes and the filters), tied like a registry snapshot to the content of every
// registry in the set: their stat signatures first, else their content hashes. A stale file is rebuilt and
// replaced, never trusted.
import { sha256Hex } from '../../crypto.js';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Catalog } from '../../registry/catalog.js';
import { readSnapshotFile, writeSnapshotFile, type SnapshotRead } from '../../registry/snapshot.js';
import type { CatalogFilters } from './filters.js';

/** The cache file of a set, and what its content is checked against; undefined for catalogs assembled in memory. */
export interface SetCacheEntry {
  path: string;
  /** Combined stat signature of every registry (cheap: stat only). */
  statSignature: () => string;
  /** Combined content hash of every registry (reads every file). */
  registryHash: () => string;
}

const sha = (parts: readonly string[]): string => sha256Hex(parts.join('\n'));

/**
 * The content hash of a set of catalogs: sha256 over `<name> <registry content hash>` lines, in the set's order.
 * What a cache file is tied to, and (its first 12 digits) the catalog version list_domains shows.
 */
export function setContentHash(entries: ReadonlyArray<readonly [name: string, contentHash: string]>): string {
  return sha(entries.map(([name, hash]) => `${name} ${hash}`));
}

/** Where the set's cached index lives in `dir`, and how to check it. */
export function setCacheEntry(dir: string, catalogs: readonly Catalog[], filters: CatalogFilters | undefined): SetCacheEntry | undefined {
  // (catalogs read from folders have both; contentHash is not touched here: it reads every file)
  if (catalogs.some((c) => c.statSignature === undefined)) return undefined;
  const normalized = {
    include: [...(filters?.includeDomains ?? [])].sort(),
    exclude: [...(filters?.excludeDomains ?? [])].sort(),
    tools: [...(filters?.excludeTools ?? [])].sort(),
  };
  const identity = sha([JSON.stringify(catalogs.map((c) => c.meta.name)), JSON.stringify(normalized)]).slice(0, 24);
  return {
    path: join(resolve(dir), `set-${identity}.snapshot`),
    statSignature: () => sha(catalogs.map((c) => `${c.meta.name} ${c.statSignature?.() ?? ''}`)),
    registryHash: () => setContentHash(catalogs.map((c) => [c.meta.name, c.contentHash ?? ''])),
  };
}

/** Reads and verifies the set's cached index (a missing file is a refusal, as for a registry snapshot). */
export function readSetCache(entry: SetCacheEntry): SnapshotRead {
  return readSnapshotFile(entry.path, { registryHash: entry.registryHash, statSignature: entry.statSignature });
}

/** Writes the set's index into the cache folder (created if needed); throws on I/O errors (the caller logs them). */
export function writeSetCache(entry: SetCacheEntry, payload: Uint8Array, writer: string): void {
  mkdirSync(join(entry.path, '..'), { recursive: true });
  writeSnapshotFile(entry.path, payload, { registryHash: entry.registryHash(), statSignature: entry.statSignature(), writer });
}
