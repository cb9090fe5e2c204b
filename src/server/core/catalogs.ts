// The loaded catalogs as one namespace: names and domains unique across several registries, one search index,
// and the execution config for an operation's catalog. No MCP here: the CLI and the server share it.
import { catalogOptions, resolveBaseUrls, type ConfigFile, type ServerConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { defaultCatalogDir, loadCatalog, type Catalog } from '../../registry/catalog.js';
import { SearchIndex } from '../../search/index.js';
import type { ExecutionConfig } from '../../execution/index.js';
import type { DomainInfo, Operation } from '../../types.js';
import type { EmbeddingsConfig } from '../../embeddings/config.js';
import type { SemanticOptions, SemanticSearch } from '../../embeddings/semantic.js';
import { filterCatalogs, hasFilters, type CatalogFilters } from './filters.js';

/** One operation as exposed: `op.name`/`op.domain` are the public (possibly catalog-prefixed) names. */
export interface CatalogEntry {
  op: Operation;
  catalog: Catalog;
  /** The name inside its own catalog (differs from `op.name` only with several catalogs). */
  localName: string;
}

export interface CatalogSet {
  catalogs: Catalog[];
  /** Public operations, sorted by name. */
  operations: Operation[];
  byName: Map<string, CatalogEntry>;
  /** Public domains, sorted by name, with the catalog they belong to. */
  domains: Array<DomainInfo & { catalog: string }>;
  domainNames: string[];
  names: string[];
  /**
   * The search index, built on first access (a few hundred ms for GitHub) so that start-up and the first
   * tools/list never wait for it; warmSearchIndex() builds it in idle time right after the server is up.
   */
  readonly index: SearchIndex;
  /** Hybrid search when an embeddings endpoint is configured (attachEmbeddings); absent: lexical only. */
  embeddings?: SemanticSearch;
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

/** Builds the set's search index now if it is not built yet (idempotent). */
export function warmSearchIndex(set: CatalogSet): void {
  void set.index;
}

/**
 * Merges catalogs into one namespace. One catalog: names and domains as imported. Several: every operation
 * name and domain becomes `<catalog>.<name>` (e.g. `github.issues.create`, domain `github.issues`), so that
 * adding a catalog never makes two names collide. Throws REGISTRY_INVALID when two catalogs share a name.
 * `filters` (serve-time, see filters.ts) narrow the catalogs first; CONFIG_INVALID for a bad filter.
 */
export function buildCatalogSet(loaded: readonly Catalog[], filters?: CatalogFilters): CatalogSet {
  // Serve-time filters apply before anything else sees the catalogs: search, describe and "did you mean" alike.
  const catalogs = hasFilters(filters) ? filterCatalogs(loaded, filters, loaded.length > 1) : loaded;
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
  }
  const multi = catalogs.length > 1;
  const byName = new Map<string, CatalogEntry>();
  const operations: Operation[] = [];
  const domains: Array<DomainInfo & { catalog: string }> = [];
  for (const catalog of catalogs) {
    const p = multi ? `${catalog.meta.name}.` : '';
    for (const d of catalog.meta.domains) domains.push({ ...d, name: p + d.name, catalog: catalog.meta.name });
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
  domains.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let index: SearchIndex | undefined;
  return {
    catalogs: [...catalogs],
    operations,
    byName,
    domains,
    domainNames: domains.map((d) => d.name),
    names: operations.map((o) => o.name),
    get index(): SearchIndex {
      index ??= SearchIndex.build(operations, domains);
      return index;
    },
  };
}

/** Loads the given registry folders (none: the embedded GitHub catalog), filters and merges them. */
export function loadCatalogSet(dirs: readonly string[], filters?: CatalogFilters): CatalogSet {
  const list = dirs.length > 0 ? dirs : [defaultCatalogDir()];
  return buildCatalogSet(list.map((d) => loadCatalog(d)), filters);
}

/** What execution needs beyond the catalog, shared by every call of a server or CLI run. */
export interface ExecutionSettings {
  /** Base URL overrides by catalog name. */
  baseUrls: Record<string, string>;
  readOnly: boolean;
  env?: Record<string, string | undefined>;
  timeouts?: { connectMs?: number; totalMs?: number };
  maxResponseBytes?: number;
  /** Per-catalog options from the config file (credential env var names, idempotency header, origins, F10). */
  catalogs?: Record<string, CatalogExecutionSettings>;
}

/** One catalog's execution options (the config file's section, minus the base URL which is in `baseUrls`). */
export type CatalogExecutionSettings = Pick<ExecutionConfig, 'credentials' | 'idempotencyHeader' | 'allowedOrigins' | 'blockPrivateAddresses'>;

/** The ExecutionConfig for one catalog; `sessionCredential` is the per-session upstream token, if any. */
export function executionConfigFor(
  catalog: Catalog,
  settings: ExecutionSettings,
  sessionCredential?: string,
): ExecutionConfig {
  const config: ExecutionConfig = { catalog: catalog.meta, readOnly: settings.readOnly };
  const base = settings.baseUrls[catalog.meta.name];
  if (base !== undefined) config.baseUrl = base;
  if (settings.env !== undefined) config.env = settings.env;
  if (settings.timeouts !== undefined) config.timeouts = settings.timeouts;
  if (settings.maxResponseBytes !== undefined) config.maxResponseBytes = settings.maxResponseBytes;
  if (sessionCredential !== undefined && sessionCredential !== '') config.sessionCredential = sessionCredential;
  const per = settings.catalogs !== undefined && Object.hasOwn(settings.catalogs, catalog.meta.name) ? settings.catalogs[catalog.meta.name] : undefined;
  if (per?.credentials !== undefined) config.credentials = per.credentials;
  if (per?.idempotencyHeader !== undefined) config.idempotencyHeader = per.idempotencyHeader;
  if (per?.allowedOrigins !== undefined) config.allowedOrigins = per.allowedOrigins;
  if (per?.blockPrivateAddresses !== undefined) config.blockPrivateAddresses = per.blockPrivateAddresses;
  return config;
}

/**
 * The execution settings of a server or CLI run: base URLs (config file < `<CATALOG>_BASE_URL` < `--base-url`),
 * read-only, timeouts, response cap, and the config file's per-catalog options. Throws CONFIG_INVALID when the
 * file names a catalog that is not loaded.
 */
export function settingsFromConfig(
  config: ServerConfig,
  set: CatalogSet,
  env: Record<string, string | undefined>,
  file?: ConfigFile,
): ExecutionSettings {
  const names = set.catalogs.map((c) => c.meta.name);
  const settings: ExecutionSettings = {
    baseUrls: resolveBaseUrls(config, names, env, file),
    readOnly: config.readOnly,
    env,
    timeouts: config.timeouts,
  };
  if (config.maxResponseBytes !== undefined) settings.maxResponseBytes = config.maxResponseBytes;
  const per = catalogOptions(file, names);
  // The embedded catalog is ours to vouch for: GitHub's spec sends release-asset uploads to its own
  // uploads.github.com, which the F7 origin check would otherwise refuse. A config file's own
  // allowedOrigins for the catalog replaces this default.
  const embedded = set.catalogs.find((c) => c.dir === defaultCatalogDir());
  if (embedded !== undefined && per[embedded.meta.name]?.allowedOrigins === undefined) {
    per[embedded.meta.name] = { ...per[embedded.meta.name], allowedOrigins: [...EMBEDDED_ALLOWED_ORIGINS] };
  }
  if (Object.keys(per).length > 0) settings.catalogs = per;
  return settings;
}

/** Extra upstream origins the embedded GitHub catalog may use without configuration. */
export const EMBEDDED_ALLOWED_ORIGINS: readonly string[] = ['https://uploads.github.com'];
