// The loaded catalogs as one namespace: names and domains unique across several registries, one search index
// (restored from the registry's snapshot or the index cache when it matches, else built), and lookups by name that
// read one domain's file. Everything past catalog.json is read on first use. No MCP here: the CLI and server share
// it. How the index is restored or built is in catalog-index.ts; the execution settings an operation's catalog
// gets are in settings.ts.
import { AppError } from '../../errors.js';
import { inServerEnvNamespace, serverNamespaceMessage } from '../../execution/auth.js';
import type { Logger } from '../../logger.js';
import { mark } from '../../startup-marks.js';
import { defaultCatalogDir, loadCatalog, type Catalog } from '../../registry/catalog.js';
import { suggestNames } from '../../registry/suggest.js';
import { readSnapshot, writeSnapshot } from '../../registry/snapshot.js';
import type { SearchIndex } from '../../search/index.js';
import type { DomainInfo, Operation } from '../../types.js';
import type { EmbeddingsConfig } from '../../embeddings/config.js';
import type { SemanticOptions, SemanticSearch } from '../../embeddings/semantic.js';
import { filterCatalogs, hasFilters, type CatalogFilters } from './filters.js';
import { buildIndex, cacheIndex, cacheIndexAsync, restoreIndex, type IndexSource } from './catalog-index.js';
import { setCacheEntry, setContentHash } from './index-cache.js';
import { sha256Hex } from '../../crypto.js';
// (the bundled CLI loads the engine on demand: whatever reads an index awaits loadSearchEngine() first, search-engine.ts)
import { loadSearchEngine, searchEngine, searchEngineLoaded } from './search-engine.js';

// Where the search index came from: declared with the code that restores or builds it; re-exported for callers.
export type { IndexSource } from './catalog-index.js';

/** One operation as exposed: `op.name`/`op.domain` are the public (possibly catalog-prefixed) names. */
export interface CatalogEntry {
  op: Operation;
  catalog: Catalog;
  /** The name inside its own catalog (differs from `op.name` only with several catalogs). */
  localName: string;
}

/** Operations by public name (what describe, execute and the explorer look up). */
export interface EntryLookup {
  get(name: string): CatalogEntry | undefined;
  has(name: string): boolean;
}

/**
 * The catalogs as one namespace. Only `catalogs` (their catalog.json) and `domains` are read at start; the
 * operations, names and index are read or built on first access, so initialize and tools/list never wait. With
 * one catalog whose search snapshot verifies, a search reads no operation at all and a lookup by name reads
 * only that operation's domain file; anything that needs the whole list (`operations`) reads every file.
 */
export interface CatalogSet {
  catalogs: Catalog[];
  /** Public operations, sorted by name. */
  readonly operations: Operation[];
  readonly byName: EntryLookup;
  /** Public domains, sorted by name, with the catalog they belong to. */
  domains: Array<DomainInfo & { catalog: string }>;
  domainNames: string[];
  readonly names: string[];
  /**
   * The search index, restored from the registry's snapshot or built, on first access, so that start-up and
   * the first tools/list never wait for it; warmSearchIndex() prepares it in idle time once the server is up.
   */
  readonly index: SearchIndex;
  /**
   * Makes `index` ready without building it on this thread: restored now when a snapshot or the index cache has it,
   * else built in a worker thread and restored from its bytes (index-thread.ts), and then written to the index cache
   * in the background (it resolves before that write ends). What a reload uses, so the server keeps answering
   * meanwhile; when no worker can build it, it is built here (logged). Throws what reading the index would (a
   * damaged registry, one replaced meanwhile).
   */
  prepareIndex(): Promise<void>;
  /** Hybrid search when an embeddings endpoint is configured (attachEmbeddings); absent: lexical only. */
  embeddings?: SemanticSearch;
  /** How the index was obtained, once it exists (for logs and the start-up trace). */
  readonly indexSource: IndexSource | undefined;
  /**
   * The catalog version: the first 12 hex digits of the registry content hash (catalog.json and every operations
   * file; with several catalogs, of a sha256 over each one's name and content hash). Equal on two replicas = the
   * same registry content. Taken from a verified snapshot's (or index cache file's) header when the index came
   * from one, else hashed from the files as they were loaded.
   */
  readonly version: string;
}

/**
 * Configures the embeddings endpoint for this set: checks each catalog's stored vectors against the model
 * (mismatches are logged and reported by `describe()`), loaded lazily so that an unconfigured run never pays for it.
 */
export async function attachEmbeddings(set: CatalogSet, config: EmbeddingsConfig, options: SemanticOptions & { logger?: Logger } = {}): Promise<SemanticSearch> {
  const { createSemanticSearch } = await import('../../embeddings/semantic.js');
  const multi = set.catalogs.length > 1;
  set.embeddings = createSemanticSearch(
    config,
    set.catalogs.map((c) => ({ catalog: c.meta.name, dir: c.dir, prefix: multi ? `${c.meta.name}.` : '', operations: c.operations })),
    options,
  );
  return set.embeddings;
}

/**
 * "Did you mean" for a tool name nothing has: first the name an `x-api-catalog-name` gave the operation that had
 * this name before (catalog.json `renamed`, so no operation is read), then the closest names.
 */
export function suggestToolNames(set: CatalogSet, name: string, max = 3): string[] {
  const multi = set.catalogs.length > 1;
  const close = suggestNames(name, set.names, max);
  for (const c of set.catalogs) {
    const p = multi ? `${c.meta.name}.` : '';
    const renamed = c.meta.renamed;
    const local = name.slice(p.length);
    if (renamed === undefined || !name.startsWith(p) || !Object.hasOwn(renamed, local)) continue;
    const now = p + (renamed[local] as string);
    // a serve-time filter may have taken the renamed operation away: then it is not suggested either
    if (set.byName.has(now)) return [now, ...close.filter((n) => n !== now)].slice(0, max);
  }
  return close;
}

/**
 * Prepares the set's operations and search index now if they are not ready yet (idempotent). A registry that cannot
 * be read is logged here and reported by every tool call that needs it; with `refuseInvalid` (serve --http, before
 * it listens) one that cannot be served at all — files that disagree or a damaged one, REGISTRY_INVALID naming the
 * files — is thrown instead, to stop the start as a broken catalog.json does at load. Other failures (a file that
 * changed since it was loaded: the reload follows) are only logged.
 */
export function warmSearchIndex(set: CatalogSet, logger?: Logger, { refuseInvalid = false }: { refuseInvalid?: boolean } = {}): void {
  try {
    const index = set.index;
    // then, in idle time, what a first search would pay for: the typo reading's word lists, compiled code (search)
    setTimeout(() => index.warm(), 100).unref();
  } catch (err) {
    if (refuseInvalid && err instanceof AppError && err.code === 'REGISTRY_INVALID') throw err;
    logger?.log('error', { event: 'catalog_unreadable', message: err instanceof Error ? err.message : String(err) });
  }
}

/** Options of a catalog set. */
export interface CatalogSetOptions {
  /** Receives one line when the index is ready (and a warning when a snapshot could not be used). */
  logger?: Logger;
  /** Serve-time filters (see filters.ts); CONFIG_INVALID for a bad filter. */
  filters?: CatalogFilters;
  /**
   * A folder for the index of a set no registry snapshot describes (several catalogs, or filters): restored from
   * it when it matches, else built and written there (`serve --index-cache`, index-cache.ts). Absent: built. One
   * catalog's verified stat signature is kept there too (no content hash at every start of a fresh clone).
   */
  indexCache?: string;
  /** Told when a registry file read after loading changed on disk since (loadCatalog's onChanged). */
  onChanged?: (dir: string) => void;
}

/**
 * Merges catalogs into one namespace. One catalog: names and domains as imported. Several: every operation
 * name and domain becomes `<catalog>.<name>` (e.g. `github.issues.create`, domain `github.issues`), so that
 * adding a catalog never makes two names collide. Throws REGISTRY_INVALID when two catalogs share a name.
 * `filters` (serve-time, see filters.ts) narrow the catalogs first; CONFIG_INVALID for a bad filter.
 */
export function buildCatalogSet(loaded: readonly Catalog[], options: CatalogSetOptions = {}): CatalogSet {
  // Serve-time filters apply before anything else sees the catalogs: search, describe and "did you mean" alike.
  const catalogs = hasFilters(options.filters) ? filterCatalogs(loaded, options.filters, loaded.length > 1) : loaded;
  if (catalogs.length === 0) throw new AppError('REGISTRY_NOT_FOUND', 'catalogs: no catalog loaded; pass --registry <dir>');
  const seen = new Set<string>();
  for (const c of catalogs) {
    if (seen.has(c.meta.name)) {
      throw new AppError(
        'REGISTRY_INVALID',
        `catalogs: two registries are both named ${JSON.stringify(c.meta.name)}; load each catalog once`,
      );
    }
    seen.add(c.meta.name);
    if (inServerEnvNamespace(c.meta.name)) throw new AppError('REGISTRY_INVALID', `catalogs: ${serverNamespaceMessage(c.meta.name)}`);
  }
  const multi = catalogs.length > 1;
  const domains: Array<DomainInfo & { catalog: string }> = [];
  for (const catalog of catalogs) {
    const p = multi ? `${catalog.meta.name}.` : '';
    for (const d of catalog.meta.domains) domains.push({ ...d, name: p + d.name, catalog: catalog.meta.name });
  }
  domains.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  // The operations of every catalog, merged on first use (each catalog reads its files then).
  let merged: { operations: Operation[]; byName: Map<string, CatalogEntry>; names: string[] } | undefined;
  const merge = () => {
    if (merged) return merged;
    const byName = new Map<string, CatalogEntry>();
    const operations: Operation[] = [];
    for (const catalog of catalogs) {
      const p = multi ? `${catalog.meta.name}.` : '';
      for (const original of catalog.operations) {
        const op: Operation = multi ? { ...original, name: p + original.name, domain: p + original.domain } : original;
        if (byName.has(op.name)) {
          throw new AppError('REGISTRY_INVALID', `catalogs: operation name ${JSON.stringify(op.name)} appears twice`);
        }
        byName.set(op.name, { op, catalog, localName: original.name });
        operations.push(op);
      }
    }
    operations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return (merged = { operations, byName, names: operations.map((o) => o.name) });
  };
  let index: SearchIndex | undefined;
  let indexSource: IndexSource | undefined;
  // The snapshot (or the index cache) is tried once; its refusal is kept so that a build later says why.
  const cacheEntry = options.indexCache !== undefined && (multi || hasFilters(options.filters)) ? setCacheEntry(options.indexCache, catalogs, options.filters) : undefined;
  let restoreFailure: { reason: string; only: Catalog | undefined } | undefined;
  // the registry hash a restored snapshot (or cache file) verified against: the content the index describes
  let verifiedHash: string | undefined;
  // the index came from bytes that vouch for the operations: a snapshot, the cache, or a worker's build (index-thread.ts)
  let fromBytes = false;
  const restored = (): boolean => {
    if (index !== undefined) return fromBytes;
    if (restoreFailure !== undefined) return false;
    const r = restoreIndex(catalogs, domains, cacheEntry, options.indexCache, options.logger);
    if ('reason' in r) {
      restoreFailure = r;
      return false;
    }
    index = r.index;
    indexSource = r.source;
    fromBytes = true;
    verifiedHash = r.registryHash;
    mark('index-ready');
    return true;
  };
  const openedIndex = (): SearchIndex => {
    if (index === undefined && !restored()) {
      const built = buildIndex(merge().operations, domains, restoreFailure as { reason: string; only: Catalog | undefined }, options.logger);
      index = built.index;
      indexSource = built.source;
      mark('index-ready');
      if (cacheEntry !== undefined) cacheIndex(cacheEntry, built.index, options.logger);
    }
    return index as SearchIndex;
  };
  const prepareIndex = async (): Promise<void> => {
    await loadSearchEngine();
    if (index !== undefined || restored()) return;
    const { buildIndexOffThread } = await import('./index-thread.js');
    const why = restoreFailure as { reason: string; only: Catalog | undefined };
    const built = await buildIndexOffThread({ loaded, domains, filters: options.filters, why, logger: options.logger, onChanged: options.onChanged });
    // (nothing reads a set a reload has not swapped in yet; should something have built it meanwhile, it stays)
    if (index !== undefined) return;
    if (built === undefined) {
      void openedIndex();
      return;
    }
    index = built.index;
    indexSource = built.source;
    fromBytes = true;
    // Written in the background: the reload swaps the new version in without waiting for the disk (a slow or full
    // volume). cacheIndexAsync logs how the write went (index_cached, or index_cache_unwritable) and throws nothing.
    if (cacheEntry !== undefined) void cacheIndexAsync(cacheEntry, built.payload, options.logger).catch(() => undefined);
  };
  // An index restored from a snapshot, the index cache or a worker's bytes finds a name's domain, so only that
  // domain's file is parsed (of the catalog it belongs to). Filters (which read every file to apply them) or an index
  // built on this thread: all read.
  const byDomain = !hasFilters(options.filters) && catalogs.every((c) => c.operationsInDomain !== undefined);
  const catalogByName = new Map(catalogs.map((c) => [c.meta.name, c]));
  const domainCatalog = new Map(domains.map((d) => [d.name, d.catalog]));
  const entries = new Map<string, CatalogEntry>();
  const fromDomainFile = (name: string): CatalogEntry | undefined | 'read all' => {
    // (a lookup never builds an index: without a usable snapshot it reads every file, as before there was one)
    if (merged !== undefined || !byDomain || !restored()) return 'read all';
    const cached = entries.get(name);
    if (cached !== undefined) return cached;
    const domain = (index as SearchIndex).domainOf(name);
    // the index verified against the registries' content: a name it lacks is not in them
    if (domain === undefined) return undefined;
    const catalog = catalogByName.get(domainCatalog.get(domain) ?? '');
    if (catalog === undefined) return 'read all';
    const p = multi ? `${catalog.meta.name}.` : '';
    if (!domain.startsWith(p) || !name.startsWith(p)) return 'read all';
    const localName = name.slice(p.length);
    const original = catalog.operationsInDomain?.(domain.slice(p.length))?.find((o) => o.name === localName);
    if (original === undefined) return 'read all';
    const entry: CatalogEntry = { op: multi ? { ...original, name, domain } : original, catalog, localName };
    entries.set(name, entry);
    return entry;
  };
  const byName: EntryLookup = {
    get(name) {
      const found = fromDomainFile(name);
      return found === 'read all' ? merge().byName.get(name) : found;
    },
    has(name) {
      return byName.get(name) !== undefined;
    },
  };
  let names: string[] | undefined;
  let version: string | undefined;
  return {
    catalogs: [...catalogs],
    get version(): string {
      if (version !== undefined) return version;
      // a verified snapshot or cache file names the content without reading it again (a search engine that serve
      // has not loaded yet: the same hash, read from the files; a reload can ask before it loads, search-engine-lazy.ts)
      if (index === undefined && searchEngineLoaded()) restored();
      const hashOf = (c: Catalog): string => c.contentHash ?? sha256Hex(JSON.stringify(c.operations));
      const only = catalogs.length === 1 ? (catalogs[0] as Catalog) : undefined;
      const combined =
        only !== undefined
          ? verifiedHash !== undefined && indexSource?.kind === 'snapshot'
            ? verifiedHash
            : hashOf(only)
          : verifiedHash !== undefined && indexSource?.kind === 'cache'
            ? verifiedHash
            : setContentHash(catalogs.map((c) => [c.meta.name, hashOf(c)]));
      return (version = combined.slice(0, 12));
    },
    get operations() {
      return merge().operations;
    },
    byName,
    domains,
    domainNames: domains.map((d) => d.name),
    get names() {
      if (merged !== undefined) return merged.names;
      names ??= restored() ? (index as SearchIndex).names() : merge().names;
      return names;
    },
    get index(): SearchIndex {
      return openedIndex();
    },
    prepareIndex,
    get indexSource() {
      return indexSource;
    },
  };
}

/**
 * Builds the search index of the registry at `dir` (exactly as a server serving that one catalog would) and
 * writes it as `<dir>/search.snapshot`, tied to the registry's content hash. Run by `api-catalog import` after
 * the registry is written. Returns the file, its size and the build time.
 */
export function writeSearchSnapshot(dir: string, writer?: string): { path: string; bytes: number; ms: number } {
  const t0 = performance.now();
  const catalog = loadCatalog(dir);
  const set = buildCatalogSet([catalog]);
  const payload = searchEngine().SearchIndex.build(set.operations, set.domains).toSnapshot();
  const registryHash = catalog.contentHash;
  if (registryHash === undefined) throw new AppError('INTERNAL', `catalogs: ${dir} has no content hash`);
  const statSignature = catalog.statSignature?.();
  const path = writeSnapshot(catalog.dir, payload, {
    registryHash,
    ...(statSignature !== undefined ? { statSignature } : {}),
    ...(writer !== undefined ? { writer } : {}),
  });
  return { path, bytes: payload.byteLength, ms: performance.now() - t0 };
}

/**
 * Whether `<dir>/search.snapshot` would be used as it is: undefined when it verifies and restores for the
 * registry's current content, else why not (for `import --check`).
 */
export function searchSnapshotProblem(dir: string): string | undefined {
  const catalog = loadCatalog(dir);
  const registryHash = catalog.contentHash;
  if (registryHash === undefined) return 'no content hash';
  const read = readSnapshot(catalog.dir, { registryHash });
  if (!read.ok) return read.reason === 'missing' ? 'search.snapshot is missing' : `search.snapshot is ${read.reason}: ${read.message}`;
  try {
    const set = buildCatalogSet([catalog]);
    searchEngine().SearchIndex.fromSnapshot(read.payload, set.operations, set.domains);
    return undefined;
  } catch (err) {
    return `search.snapshot cannot be restored: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Loads the given registry folders (none: the embedded GitHub catalog), filters and merges them. */
export function loadCatalogSet(dirs: readonly string[], options: CatalogSetOptions = {}): CatalogSet {
  const list = dirs.length > 0 ? dirs : [defaultCatalogDir()];
  const onChanged = options.onChanged;
  return buildCatalogSet(list.map((d) => loadCatalog(d, onChanged !== undefined ? { onChanged } : {})), options);
}

// Execution settings (base URLs, credentials' env names, limits) live in settings.ts; re-exported for callers.
export { CATALOG_SETTINGS_FILE, catalogSettings, executionConfigFor, settingsFromConfig, type CatalogExecutionSettings, type ExecutionSettings } from './settings.js';
