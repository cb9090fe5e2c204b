// How a catalog set gets its search index: restored from the registry's search.snapshot (one whole catalog) or
// from the index cache (several catalogs, or filters), else built from the operations, with one log line that
// says which and why; a built set index is written to the index cache. No MCP here. Used by catalogs.ts.
import { dirname } from 'node:path';
import type { Logger } from '../../logger.js';
import type { Catalog } from '../../registry/catalog.js';
import { readSnapshot } from '../../registry/snapshot.js';
import type { SearchIndex } from '../../search/index.js';
import { searchEngine } from './search-engine.js';
import type { DomainInfo, Operation } from '../../types.js';
import { readSetCache, verifiedSignatures, writeSetCache, writeSetCacheAsync, type SetCacheEntry } from './index-cache.js';

/** Where the search index came from, and what it cost. */
export interface IndexSource {
  /** snapshot: the registry's own; cache: the index cache's (index-cache.ts); built: from the operations. */
  kind: 'snapshot' | 'cache' | 'built';
  /** Why no snapshot was used (kind 'built'). */
  reason?: string;
  ms: number;
}

/**
 * The set's search index restored from the registry's search.snapshot, when the set is that one catalog and the
 * snapshot verifies (format, registry unchanged, checksum, layout); else why not. Never builds.
 */
export function restoreIndex(
  catalogs: readonly Catalog[],
  domains: ReadonlyArray<DomainInfo & { catalog: string }>,
  cache: SetCacheEntry | undefined,
  cacheDir: string | undefined,
  logger?: Logger,
): { index: SearchIndex; source: IndexSource; registryHash: string } | { reason: string; only: Catalog | undefined } {
  const t0 = performance.now();
  // (before anything is read: an engine not loaded yet must not pass for a refused snapshot)
  const { SearchIndex } = searchEngine();
  // Verified bytes vouch for the operations (the registry hash, or every registry's for the cache): none is parsed,
  // the cards carry what answers show. Throws for a payload this build cannot read (never trusted).
  const opened = (payload: Uint8Array, registryHash: string, kind: 'snapshot' | 'cache', log: Record<string, unknown>) => {
    const index = SearchIndex.fromSnapshot(payload, undefined, domains);
    const source: IndexSource = { kind, ms: performance.now() - t0 };
    logger?.log('info', { event: 'search_index', source: kind, ...log, ms: Math.round(source.ms), operations: index.size, ...weightsField() });
    return { index, source, registryHash };
  };
  // A snapshot describes one whole catalog: several merged catalogs, or one narrowed by serve-time filters, are
  // built, or restored from the index cache when one is configured.
  const single = catalogs.length === 1 ? catalogs[0] : undefined;
  const only = single !== undefined && !single.filteredOut ? single : undefined;
  if (only === undefined) {
    const why = single === undefined ? 'several catalogs' : 'serve-time filters';
    if (cache === undefined) return { reason: why, only };
    const read = readSetCache(cache);
    if (!read.ok) return { reason: `${why}; index cache: ${read.reason === 'missing' ? 'nothing cached yet' : `${read.reason} (${read.message})`}`, only };
    try {
      return opened(read.payload, read.header.registryHash, 'cache', { file: cache.path });
    } catch (err) {
      return { reason: `${why}; index cache refused: ${err instanceof Error ? err.message : String(err)}`, only };
    }
  }
  // a catalog read from a folder has both; the stat signature spares reading the files when they are untouched
  if (only.statSignature === undefined) return { reason: 'catalog assembled in memory', only };
  const verified = cacheDir === undefined ? {} : { verified: verifiedSignatures(cacheDir, only.dir) };
  const read = readSnapshot(only.dir, { registryHash: () => only.contentHash ?? '', statSignature: () => only.statSignature?.(), ...verified });
  if (!read.ok) return { reason: read.reason === 'missing' ? 'no search snapshot' : `search snapshot refused (${read.reason}): ${read.message}`, only };
  try {
    return opened(read.payload, read.header.registryHash, 'snapshot', {});
  } catch (err) {
    // a payload this build cannot read: never trusted
    return { reason: `search snapshot refused: ${err instanceof Error ? err.message : String(err)}`, only };
  }
}

/** `weights: <dir>` for the search_index line when the ranking uses a learned build other than the built-in one. */
function weightsField(): { weights?: string } {
  const { dir } = searchEngine().rankingWeights();
  return dir === undefined ? {} : { weights: dir };
}

/**
 * The set's index built from its operations, with a line that says why no snapshot was used: a warning for one
 * catalog (a missing, stale or damaged snapshot, with the command that writes a fresh one), an info line for
 * several catalogs or serve-time filters (nothing is wrong: no single snapshot describes their namespace).
 */
export function buildIndex(
  operations: readonly Operation[],
  domains: ReadonlyArray<DomainInfo & { catalog: string }>,
  why: { reason: string; only: Catalog | undefined },
  logger?: Logger,
): { index: SearchIndex; source: IndexSource } {
  const t0 = performance.now();
  const index = searchEngine().SearchIndex.build(operations, domains);
  const source: IndexSource = { kind: 'built', reason: why.reason, ms: performance.now() - t0 };
  logBuilt(logger, why, { ms: Math.round(source.ms), operations: operations.length });
  return { index, source };
}

/**
 * The search_index line of a built index (here, or in a worker: index-thread.ts), saying why no snapshot was used:
 * a warning for one catalog, with the command that writes a fresh snapshot; an info line otherwise.
 */
export function logBuilt(logger: Logger | undefined, why: { reason: string; only: Catalog | undefined }, fields: Record<string, unknown>): void {
  const only = why.only;
  const fix = only !== undefined ? `; \`api-catalog import <spec> --name ${only.meta.name} --out ${dirname(only.dir)}\` writes a fresh one` : '';
  logger?.log(only !== undefined ? 'warn' : 'info', { event: 'search_index', source: 'built', reason: `${why.reason}${fix}`, ...fields, ...weightsField() });
}

/** Writes a built set index into the index cache; a failure is a warning (the next start builds again). */
export function cacheIndex(entry: SetCacheEntry, index: SearchIndex, logger?: Logger): void {
  const t0 = performance.now();
  try {
    writeSetCache(entry, index.toSnapshot(), 'api-catalog serve');
    cached(entry, t0, undefined, logger);
  } catch (err) {
    cached(entry, t0, err, logger);
  }
}

/** {@link cacheIndex} for a reload: the snapshot bytes a worker built, written without blocking the thread. */
export async function cacheIndexAsync(entry: SetCacheEntry, payload: Uint8Array, logger?: Logger): Promise<void> {
  const t0 = performance.now();
  try {
    await writeSetCacheAsync(entry, payload, 'api-catalog serve');
    cached(entry, t0, undefined, logger);
  } catch (err) {
    cached(entry, t0, err, logger);
  }
}

function cached(entry: SetCacheEntry, t0: number, err: unknown, logger: Logger | undefined): void {
  if (err === undefined) {
    logger?.log('info', { event: 'index_cached', file: entry.path, ms: Math.round(performance.now() - t0) });
    return;
  }
  const fix = 'every start builds this index until it can be kept: pass --index-cache <a writable folder> (or off)';
  logger?.log('warn', { event: 'index_cache_unwritable', file: entry.path, message: err instanceof Error ? err.message : String(err), fix });
}
