// A reloaded catalog set's search index, built off the server's thread. Building the index of a large set takes
// seconds of synchronous CPU (6,400 operations: 6-16 s on a loaded machine), and every replica that watches a shared
// registry folder reloads at about the same moment: built on the thread that answers MCP calls and probes, it
// stalled them all together, and a balancer took every replica out. So a reload hands the build to a worker thread
// (index-worker.ts), which reads the registries again, builds the index exactly as this thread would and sends back
// its snapshot bytes (transferred, not copied) with the content hash of each registry it read; this thread checks
// those hashes against its own catalogs and restores the index from the bytes (tens of ms). When no worker can run
// it (running from the .ts sources, a missing entry file, a crash) the caller builds here as before. Used by
// catalogs.ts (CatalogSet.prepareIndex); the first start still builds on its own thread (nothing is served yet).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { loadCatalog, type Catalog } from '../../registry/catalog.js';
import { SearchIndex } from '../../search/index.js';
import type { CatalogMeta, DomainInfo, Operation } from '../../types.js';
import type { CatalogFilters } from './filters.js';
import { logBuilt, type IndexSource } from './catalog-index.js';

/**
 * What the worker is asked to build: the set's catalogs in order, before serve-time filters (it applies them), each
 * a registry folder to load or, for a catalog held in memory (a reload keeps a refused registry's previous catalog
 * that way: its folder holds another version), what it holds; and the filters.
 */
export interface IndexJob {
  kind: 'search-index';
  catalogs: Array<{ dir: string; inline?: InlineCatalog }>;
  filters?: CatalogFilters;
}

/** A catalog held in memory, as sent to the worker (structured clone). */
export interface InlineCatalog {
  meta: CatalogMeta;
  skipped: Catalog['skipped'];
  operations: Operation[];
}

/** The worker's answer: the snapshot bytes and each folder's content hash ('' for one inline), or why it failed. */
export type IndexReply =
  | { ok: true; payload: Uint8Array; hashes: string[]; operations: number; ms: number }
  | { ok: false; code?: string; message: string; changed: string[] };

/** Codes a worker's failure keeps: the registries themselves are at fault, and this thread would fail the same way. */
const REGISTRY_CODES = new Set(['REGISTRY_NOT_FOUND', 'REGISTRY_INVALID', 'REGISTRY_STALE', 'CONFIG_INVALID']);

/**
 * The worker's entry file. tsc writes it beside this module (dist/server/core/); the bundle (scripts/postbuild.mjs)
 * writes it as dist/cli/index-worker.js, beside the entry when this module was bundled into it, one folder up when
 * it went into a chunk (dist/cli/chunks/). Undefined when neither exists.
 */
export function indexWorkerFile(): URL | undefined {
  for (const rel of ['./index-worker.js', '../index-worker.js']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** Running from the TypeScript sources (vitest, tsx): Node cannot start the .ts worker, and no build is expected. */
const fromSources = (): boolean => import.meta.url.endsWith('.ts');

/**
 * How long a worker may take before it is stopped and the index built on the main thread instead (10 min: the
 * largest sets measured build in about a minute): a worker that hangs must not hold every later reload behind it.
 */
export const INDEX_WORKER_TIMEOUT_MS = 10 * 60_000;

/** Runs `job` in a fresh worker; rejects when the worker could not answer (it crashed, exited without a reply, or took longer than `timeoutMs`). */
export function runIndexWorker(file: URL, job: IndexJob, timeoutMs = INDEX_WORKER_TIMEOUT_MS): Promise<IndexReply> {
  return new Promise((resolve, reject) => {
    // not the process's own Node options: those of `node -e`/`--input-type` (or a test runner's) stop a worker that
    // runs a file, and V8's (--max-old-space-size) apply to every thread anyway
    const worker = new Worker(file, { workerData: job, execArgv: [] });
    // a server that stops meanwhile does not wait for it
    worker.unref();
    let replied = false;
    const timer = setTimeout(() => {
      reject(new Error(`the index worker did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`));
      void worker.terminate();
    }, timeoutMs);
    timer.unref();
    worker.once('exit', () => clearTimeout(timer));
    worker.once('message', (reply: IndexReply) => {
      replied = true;
      clearTimeout(timer);
      resolve(reply);
      // its index (hundreds of MB for a large set) is given back now, not when its event loop ends
      void worker.terminate();
    });
    worker.once('error', (err) => reject(err));
    worker.once('exit', (code) => {
      if (!replied) reject(new Error(`the index worker exited with code ${code} without an answer`));
    });
  });
}

/** The set as catalogs.ts holds it, and what it needs to log and to ask for a reload. */
export interface OffThreadSet {
  /** The catalogs the set was built from, before serve-time filters. */
  loaded: readonly Catalog[];
  domains: ReadonlyArray<DomainInfo & { catalog: string }>;
  filters: CatalogFilters | undefined;
  /** Why no snapshot (or cached index) was used (`only`: the one catalog whose snapshot it was): logged. */
  why: { reason: string; only: Catalog | undefined };
  logger: Logger | undefined;
  onChanged: ((dir: string) => void) | undefined;
}

/** An index restored from a worker's bytes, and the bytes (for the index cache). */
export interface OffThreadIndex {
  index: SearchIndex;
  source: IndexSource;
  payload: Uint8Array;
}

/**
 * The set's index built in a worker and restored here, or undefined when no worker could build it (a warning is
 * logged, except from the sources; the caller builds on this thread). A registry fault the worker met (a damaged
 * file, files that disagree, a registry replaced while it read) is thrown as this thread would have thrown it; a
 * registry that changed between this thread's load and the worker's read is REGISTRY_STALE, and the reload follows.
 */
export async function buildIndexOffThread(set: OffThreadSet): Promise<OffThreadIndex | undefined> {
  const { loaded, logger } = set;
  const file = indexWorkerFile();
  if (file === undefined) {
    if (fromSources()) {
      logger?.log('debug', { event: 'index_worker_unavailable', reason: 'running from the TypeScript sources' });
    } else {
      logger?.log('warn', {
        event: 'index_worker_unavailable',
        reason: `no index-worker.js beside ${fileURLToPath(import.meta.url)}`,
        fix: 'rebuild (npm run build) or reinstall the package; until then a reload builds the index on the serving thread',
      });
    }
    return undefined;
  }
  const t0 = performance.now();
  // a catalog read from a folder has a stat signature; one assembled in memory is sent as it is
  const fromFolder = (c: Catalog): boolean => c.statSignature !== undefined;
  const job: IndexJob = {
    kind: 'search-index',
    catalogs: loaded.map((c) => (fromFolder(c) ? { dir: c.dir } : { dir: c.dir, inline: { meta: c.meta, skipped: c.skipped, operations: c.operations } })),
    ...(set.filters !== undefined ? { filters: set.filters } : {}),
  };
  let reply: IndexReply;
  try {
    reply = await runIndexWorker(file, job);
  } catch (err) {
    workerFailed(logger, err instanceof Error ? err.message : String(err));
    return undefined;
  }
  if (!reply.ok) {
    if (reply.code !== undefined && REGISTRY_CODES.has(reply.code)) {
      for (const dir of reply.changed) set.onChanged?.(dir);
      // a registry replaced after this thread loaded it: the worker read the new version, and the reload follows
      const moved = loaded.find((c) => fromFolder(c) && !stillLoaded(c));
      if (moved !== undefined) throw changedMeanwhile(moved, set.onChanged);
      throw new AppError(reply.code as ErrorCode, reply.message);
    }
    workerFailed(logger, reply.message);
    return undefined;
  }
  // The worker read the folders after this thread loaded them: its index describes this set only for the same bytes.
  // (Reading this thread's hashes reads its pinned files: one replaced since throws REGISTRY_STALE and asks for a reload.)
  loaded.forEach((c, i) => {
    if (fromFolder(c) && c.contentHash !== reply.hashes[i]) throw changedMeanwhile(c, set.onChanged);
  });
  let index: SearchIndex;
  const t1 = performance.now();
  try {
    index = SearchIndex.fromSnapshot(reply.payload, undefined, set.domains);
  } catch (err) {
    workerFailed(logger, `its index cannot be restored: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  const source: IndexSource = { kind: 'built', reason: set.why.reason, ms: performance.now() - t0 };
  logBuilt(logger, set.why, {
    thread: 'worker',
    ms: Math.round(source.ms),
    buildMs: Math.round(reply.ms),
    restoreMs: Math.round(performance.now() - t1),
    operations: reply.operations,
  });
  return { index, source, payload: reply.payload };
}

/** Whether the registry folder still holds the files `c` was loaded from (stat alone). */
function stillLoaded(c: Catalog): boolean {
  try {
    return loadCatalog(c.dir).statSignature?.() === c.statSignature?.();
  } catch {
    return false;
  }
}

/** A registry that changed between this thread's load and the worker's read: asks for the reload that serves it. */
function changedMeanwhile(c: Catalog, onChanged: ((dir: string) => void) | undefined): AppError {
  onChanged?.(c.dir);
  return new AppError('REGISTRY_STALE', `catalogs: ${c.dir} changed on disk while the reload built its search index; the server loads the new version`);
}

function workerFailed(logger: Logger | undefined, message: string): void {
  logger?.log('warn', { event: 'index_worker_failed', message: message.slice(0, 500), fallback: 'the index is built on the serving thread, which stalls MCP calls and probes until it is done' });
}
