// Execution settings of a server or CLI run, beside the catalogs: base URLs (config file < <CATALOG>_BASE_URL <
// --base-url), read-only, timeouts, the response cap and the config file's per-catalog options, and the
// ExecutionConfig one operation's catalog gets from them.
import { catalogOptions, resolveBaseUrls, type ConfigFile, type ServerConfig } from '../../config.js';
import type { ExecutionConfig } from '../../execution/index.js';
import { defaultCatalogDir, type Catalog } from '../../registry/catalog.js';
import type { CatalogSet } from './catalogs.js';

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
export type CatalogExecutionSettings = Pick<ExecutionConfig, 'credentials' | 'idempotencyHeader' | 'allowedOrigins' | 'blockPrivateAddresses' | 'allowHttpCredentials' | 'credentialPrefix'>;

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
  if (per?.allowHttpCredentials !== undefined) config.allowHttpCredentials = per.allowHttpCredentials;
  if (per?.credentialPrefix !== undefined) config.credentialPrefix = per.credentialPrefix;
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
  const per = catalogOptions(file, names, config.allowHttpCredentials);
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
