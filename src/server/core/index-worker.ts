// The worker thread that builds a reloaded catalog set's search index (started by index-thread.ts): it loads the
// registries from their folders (a catalog held in memory comes with the job), applies the set's filters, builds
// the index exactly as the serving thread would (catalogs.ts: SearchIndex.build over the merged operations and
// domains), and posts back the snapshot bytes, transferred, with each registry's content hash. It runs on load, and
// only inside such a worker; the bundle makes it an entry of its own (dist/cli/index-worker.js, scripts/postbuild.mjs).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import { loadCatalog, type Catalog } from '../../registry/catalog.js';
import { SearchIndex } from '../../search/index.js';
import { buildCatalogSet } from './catalogs.js';
import type { IndexJob, IndexReply } from './index-thread.js';

function build(job: IndexJob, changed: Set<string>): IndexReply {
  const t0 = performance.now();
  const catalogs = job.catalogs.map(({ dir, inline }): Catalog => {
    if (inline === undefined) return loadCatalog(dir, { onChanged: (d) => changed.add(d) });
    return { dir, ...inline, byName: new Map(inline.operations.map((op) => [op.name, op])) };
  });
  const set = buildCatalogSet(catalogs, job.filters !== undefined ? { filters: job.filters } : {});
  const operations = set.operations;
  const payload = SearchIndex.build(operations, set.domains).toSnapshot();
  const hashes = job.catalogs.map((c, i) => (c.inline === undefined ? ((catalogs[i] as Catalog).contentHash ?? '') : ''));
  return { ok: true, payload, hashes, operations: operations.length, ms: performance.now() - t0 };
}

const job = workerData as IndexJob | undefined;
if (!isMainThread && parentPort !== null && job?.kind === 'search-index') {
  const changed = new Set<string>();
  let reply: IndexReply;
  try {
    reply = build(job, changed);
  } catch (err) {
    const code = err instanceof AppError ? err.code : undefined;
    reply = { ok: false, ...(code !== undefined ? { code } : {}), message: err instanceof Error ? err.message : String(err), changed: [...changed] };
  }
  parentPort.postMessage(reply, reply.ok ? [reply.payload.buffer as ArrayBuffer] : []);
}
