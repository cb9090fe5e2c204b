// The loaded catalogs as one namespace: names and domains unique across several registries, one search index,
// and the execution config for an operation's catalog. No MCP here: the CLI and the server share it.
import { AppError } from '../../errors.js';
import { defaultCatalogDir, loadCatalog, type Catalog } from '../../registry/catalog.js';
import { SearchIndex } from '../../search/index.js';
import type { ExecutionConfig } from '../../execution/index.js';
import type { DomainInfo, Operation } from '../../types.js';

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
  index: SearchIndex;
}

/**
 * Merges catalogs into one namespace. One catalog: names and domains as imported. Several: every operation
 * name and domain becomes `<catalog>.<name>` (e.g. `github.issues.create`, domain `github.issues`), so that
 * adding a catalog never makes two names collide. Throws REGISTRY_INVALID when two catalogs share a name.
 */
export function buildCatalogSet(catalogs: readonly Catalog[]): CatalogSet {
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
  return {
    catalogs: [...catalogs],
    operations,
    byName,
    domains,
    domainNames: domains.map((d) => d.name),
    names: operations.map((o) => o.name),
    index: SearchIndex.build(operations, domains),
  };
}

/** Loads the given registry folders (none: the embedded GitHub catalog) and merges them. */
export function loadCatalogSet(dirs: readonly string[]): CatalogSet {
  const list = dirs.length > 0 ? dirs : [defaultCatalogDir()];
  return buildCatalogSet(list.map((d) => loadCatalog(d)));
}

/** What execution needs beyond the catalog, shared by every call of a server or CLI run. */
export interface ExecutionSettings {
  /** Base URL overrides by catalog name. */
  baseUrls: Record<string, string>;
  readOnly: boolean;
  env?: Record<string, string | undefined>;
  timeouts?: { connectMs?: number; totalMs?: number };
  maxResponseBytes?: number;
}

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
  return config;
}
