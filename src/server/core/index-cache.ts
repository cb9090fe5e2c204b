// The index cache: the search index of a set that no registry's own snapshot describes — several catalogs in one
// namespace, or one narrowed by serve-time filters — written after it is built and restored by later starts and by
// other replicas that share the folder. At 22 catalogs / 52k operations that build takes ~15 s and ~740 MB per
// start; a restore ~0.5 s and ~140 MB. On by default in the user's cache folder (`defaultIndexCacheDir`). One file
// per set (`set-<identity>.snapshot`, the identity being the registries' folders and names in prefix order and
// the filters), tied like a registry snapshot to the content of every registry in the set: their stat signatures
// first, else their content hashes. A stale file is rebuilt and replaced, never trusted. The same folder remembers,
// per registry, the stat signature its files were last verified with (`verified-<id>.json`), so that a fresh
// clone or an installed package hashes its registry once, not at every start.
import envPaths from 'env-paths';
import { sha256Hex } from '../../crypto.js';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Catalog } from '../../registry/catalog.js';
import { encodeSnapshot, readSnapshotFile, writeFileAtomic, writeFileAtomicAsync, writeSnapshotFile, type SnapshotRead, type VerifiedSignatures } from '../../registry/snapshot.js';
import type { CatalogFilters } from './filters.js';

/** The cache file of a set, and what its content is checked against; undefined for catalogs assembled in memory. */
export interface SetCacheEntry {
  path: string;
  /** Combined stat signature of every registry (cheap: stat only). */
  statSignature: () => string;
  /** Combined content hash of every registry (reads every file). */
  registryHash: () => string;
}

/** A set file nobody restored or wrote for this long is deleted by the next write into the folder. */
export const UNUSED_SET_MS = 30 * 24 * 3600_000;
/** A writer's temporary file this old was left by a crash (a write takes well under a second). */
const ABANDONED_TMP_MS = 3600_000;

const sha = (parts: readonly string[]): string => sha256Hex(parts.join('\n'));

/**
 * The content hash of a set of catalogs: sha256 over `<name> <registry content hash>` lines, in the set's order.
 * What a cache file is tied to, and (its first 12 digits) the catalog version list_domains shows.
 */
export function setContentHash(entries: ReadonlyArray<readonly [name: string, contentHash: string]>): string {
  return sha(entries.map(([name, hash]) => `${name} ${hash}`));
}

/**
 * Where `serve` keeps set indexes when `--index-cache` is not given: the user's cache folder
 * (`$XDG_CACHE_HOME/api-catalog/index`, else `~/.cache/api-catalog/index`; `~/Library/Caches/api-catalog/index` on
 * macOS, `%LOCALAPPDATA%\api-catalog\Cache\index` on Windows). Undefined when no home folder can be found.
 */
export function defaultIndexCacheDir(): string | undefined {
  try {
    return join(envPaths('api-catalog', { suffix: '' }).cache, 'index');
  } catch {
    return undefined;
  }
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
  // the folders too: two checkouts with catalogs of the same names share the user's cache folder without taking
  // turns at finding each other's file stale
  const identity = sha([JSON.stringify(catalogs.map((c) => [c.meta.name, resolve(c.dir)])), JSON.stringify(normalized)]).slice(0, 24);
  return {
    path: join(resolve(dir), `set-${identity}.snapshot`),
    statSignature: () => sha(catalogs.map((c) => `${c.meta.name} ${c.statSignature?.() ?? ''}`)),
    registryHash: () => setContentHash(catalogs.map((c) => [c.meta.name, c.contentHash ?? ''])),
  };
}

/**
 * Reads and verifies the set's cached index (a missing file is a refusal, as for a registry snapshot). A file
 * that verifies gets its modification time refreshed (best effort: a read-only folder is fine), which is how the
 * pruning in {@link writeSetCache} tells a file in use from one left behind.
 */
export function readSetCache(entry: SetCacheEntry): SnapshotRead {
  const read = readSnapshotFile(entry.path, { registryHash: entry.registryHash, statSignature: entry.statSignature });
  if (read.ok) {
    try {
      const now = new Date();
      utimesSync(entry.path, now, now);
    } catch {
      // a read-only cache (an image's, a shared volume mounted read-only) is used as it is
    }
  }
  return read;
}

/**
 * Writes the set's index into the cache folder (created, private to the user, if needed), atomically and safe
 * against other replicas writing the same file at once (writeSnapshotFile); then deletes set files unused for
 * {@link UNUSED_SET_MS} and temporary files a crashed writer left. Throws on I/O errors (the caller logs them).
 */
export function writeSetCache(entry: SetCacheEntry, payload: Uint8Array, writer: string): void {
  const dir = join(entry.path, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeSnapshotFile(entry.path, payload, { registryHash: entry.registryHash(), statSignature: entry.statSignature(), writer }, 0o600);
  pruneSetCache(dir, Date.now());
}

/**
 * {@link writeSetCache} without blocking the thread (fs.promises), for a reload: the file is megabytes (4.5 MB at
 * 6,400 operations) and a shared volume can take seconds to write it, while the server goes on answering. The same
 * file, the same atomic temporary-file-and-rename, the same pruning. Rejects on I/O errors (the caller logs them).
 */
export async function writeSetCacheAsync(entry: SetCacheEntry, payload: Uint8Array, writer: string): Promise<void> {
  const dir = join(entry.path, '..');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomicAsync(entry.path, encodeSnapshot(payload, { registryHash: entry.registryHash(), statSignature: entry.statSignature(), writer }), 0o600);
  // the pruning is a listing and a few stats of a small folder: the same rules as writeSetCache's, not a copy of them
  pruneSetCache(dir, Date.now());
}

/**
 * The stat signatures of the registry at `registryDir` that an earlier start verified against its content hash,
 * kept in the cache folder `dir` (the latest one: a registry has one state at a time). Best effort both ways: an
 * unreadable or damaged file is no entry, an unwritable folder remembers nothing (the next start hashes again).
 */
export function verifiedSignatures(dir: string, registryDir: string): VerifiedSignatures {
  const file = join(resolve(dir), `verified-${sha([resolve(registryDir)]).slice(0, 24)}.json`);
  return {
    lookup(statSignature) {
      try {
        const entry = JSON.parse(readFileSync(file, 'utf8')) as { statSignature?: unknown; registryHash?: unknown };
        return entry.statSignature === statSignature && typeof entry.registryHash === 'string' ? entry.registryHash : undefined;
      } catch {
        return undefined;
      }
    },
    remember(statSignature, registryHash) {
      try {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        writeFileAtomic(file, JSON.stringify({ registry: resolve(registryDir), statSignature, registryHash }) + '\n', 0o600);
      } catch {
        // best effort: the next start hashes again
      }
    },
  };
}

/** Deletes what nobody uses in a cache folder (best effort; only files this module names). */
export function pruneSetCache(dir: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const limit = unusedLimit(name);
    if (limit === undefined) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > limit) rmSync(join(dir, name), { force: true });
    } catch {
      // gone already (another replica pruned it) or not ours to delete
    }
  }
}

/** How long a file of a cache folder may go unused before it is deleted; undefined for a file this module does not name. */
function unusedLimit(name: string): number | undefined {
  if (/^(?:set-[0-9a-f]{24}\.snapshot|verified-[0-9a-f]{24}\.json)$/.test(name)) return UNUSED_SET_MS;
  if (/^(?:set-[0-9a-f]{24}\.snapshot|verified-[0-9a-f]{24}\.json)\.[0-9]+-[0-9a-f]+\.tmp$/.test(name)) return ABANDONED_TMP_MS;
  return undefined;
}
