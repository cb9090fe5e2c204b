// Execution settings of a server or CLI run, beside the catalogs: base URLs (config file < <CATALOG>_BASE_URL <
// --base-url), read-only, timeouts, the response cap and the config file's per-catalog options, and the
// ExecutionConfig one operation's catalog gets from them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogOptions, parseConfigFile, resolveBaseUrls, type ConfigFile, type ServerConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { envPrefix, SERVER_ENV_PREFIX } from '../../execution/auth.js';
import { credentialNamesProblem } from '../../execution/credential-names.js';
import type { ExecutionConfig } from '../../execution/index.js';
import type { Catalog } from '../../registry/catalog.js';
import type { CatalogSet } from './catalogs.js';

/** A catalog's own settings file in its registry folder (written by hand; the importer keeps it, see write.ts). */
export const CATALOG_SETTINGS_FILE = 'settings.json';

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

/**
 * The ExecutionConfig for one catalog; `sessionCredential` is the caller's upstream token (X-Upstream-Token), if
 * any, and `sessionHeader` says the transport reads that header at all (HTTP).
 */
export function executionConfigFor(
  catalog: Catalog,
  settings: ExecutionSettings,
  sessionCredential?: string,
  sessionHeader?: boolean,
): ExecutionConfig {
  const config: ExecutionConfig = { catalog: catalog.meta, readOnly: settings.readOnly };
  if (sessionHeader === true) config.sessionHeader = true;
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
 * file names a catalog that is not loaded, or credential names that do not fit a catalog (credentialNamesProblem);
 * with `credentialProblem` (a reload), such a catalog is reported there instead and the others are served: its calls
 * are refused one by one with the same message (resolveCredentials), as they were before the start checked it.
 */
export function settingsFromConfig(
  config: ServerConfig,
  set: CatalogSet,
  env: Record<string, string | undefined>,
  file?: ConfigFile,
  credentialProblem?: (error: AppError) => void,
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
  // A catalog's publisher vouches for what its own settings file says (the embedded GitHub catalog's names
  // uploads.github.com, where GitHub's spec sends release-asset uploads and the F7 origin check would otherwise
  // refuse them), within what catalogSettings lets a publisher say; the operator's config file replaces any of it,
  // option by option.
  for (const catalog of set.catalogs) {
    const own = catalogSettings(catalog);
    const mine = per[catalog.meta.name];
    if (own !== undefined) per[catalog.meta.name] = { ...own, ...mine };
    const credentials = per[catalog.meta.name]?.credentials;
    if (credentials === undefined) continue;
    try {
      checkCredentialNames(catalog, credentials, mine?.credentials !== undefined ? file : undefined);
    } catch (e) {
      if (credentialProblem === undefined || !(e instanceof AppError)) throw e;
      credentialProblem(e);
    }
  }
  if (Object.keys(per).length > 0) settings.catalogs = per;
  return settings;
}

/**
 * Throws CONFIG_INVALID, naming the file that gave them (the operator's config file, else the catalog's own
 * settings.json), when a catalog's credential names do not fit it: an `apiKey:<scheme>` naming none of its API-key
 * schemes (with the one meant), or the lone `apiKey` of a catalog whose API keys each have their own variable
 * (credentialNamesProblem). Checked when the catalogs are loaded, like every other config error, rather than only when
 * a call would read them.
 */
function checkCredentialNames(catalog: Catalog, credentials: NonNullable<CatalogExecutionSettings['credentials']>, operatorFile: ConfigFile | undefined): void {
  const problem = credentialNamesProblem({ catalog: catalog.meta, credentials });
  if (problem === undefined) return;
  const path = operatorFile?.file ?? join(catalog.dir, CATALOG_SETTINGS_FILE);
  const where = operatorFile !== undefined ? `config file ${path}` : `catalog settings ${path}`;
  throw new AppError('CONFIG_INVALID', `${where}: ${problem.message}`, { details: { ...(problem.details as Record<string, unknown>), file: path } });
}

/**
 * The options of a catalog's own settings file (`<registry>/settings.json`): the format of the config file, with
 * only this catalog's section. Undefined when there is none; CONFIG_INVALID naming the file when it is wrong.
 *
 * Whoever published the registry wrote this file, not the operator, so it is held to what a publisher may vouch
 * for (docs/SECURITY.md): origins, the idempotency header, the credential prefix, credential env var names in the
 * catalog's own namespace (`<CATALOG>_*`), and turning protections on. A file that names another env var (the
 * server's signing key, HOME, a cloud key) or loosens the operator's choices (allowHttpCredentials: true,
 * blockPrivateAddresses: false, a `serve` section) is refused with CONFIG_INVALID naming the key and the config
 * file setting that does it with the operator's authority: refused rather than ignored, because a warning on a
 * stdio server's stderr goes unseen and a half-obeyed file fails later, far from its cause.
 */
export function catalogSettings(catalog: Catalog): CatalogExecutionSettings | undefined {
  const path = join(catalog.dir, CATALOG_SETTINGS_FILE);
  if (!existsSync(path)) return undefined;
  const parsed = parseConfigFile(readFileSync(path, 'utf8'), path);
  const own = catalogOptions(parsed, [catalog.meta.name])[catalog.meta.name];
  checkPublisherAuthority(parsed, catalog.meta.name, path);
  return own;
}

/** Throws CONFIG_INVALID for the first thing in a catalog's own settings file that only the operator may set. */
function checkPublisherAuthority(parsed: ConfigFile, name: string, path: string): void {
  const section = `catalogs.${name}`;
  const inFile = 'in your config file (--config)';
  const refuse = (key: string, why: string, instead: string): never => {
    throw new AppError(
      'CONFIG_INVALID',
      `catalog settings ${path}: ${key} ${why}; a catalog's own settings.json is written by its publisher and may not decide this, ` +
        `so the file is refused. Remove ${key} from that file; if you (the operator) want it, set ${instead}`,
      { details: { file: path, key } },
    );
  };
  if (parsed.serve !== undefined) refuse('serve', 'sets server options', `them in the serve section ${inFile}`);
  if (parsed.blockPrivateAddresses === false) {
    refuse('blockPrivateAddresses', 'is false (it may only turn the check on)', `"blockPrivateAddresses": false at the top level or in ${section} ${inFile}`);
  }
  const c = Object.hasOwn(parsed.catalogs, name) ? parsed.catalogs[name] : undefined;
  if (c === undefined) return;
  if (c.allowHttpCredentials === true) {
    refuse(`${section}.allowHttpCredentials`, 'is true (credentials over plain http)', `"allowHttpCredentials": true in ${section} ${inFile}, or pass --allow-http-credentials`);
  }
  if (c.blockPrivateAddresses === false) {
    refuse(`${section}.blockPrivateAddresses`, 'is false (it may only turn the check on)', `"blockPrivateAddresses": false in ${section} ${inFile}`);
  }
  // The catalog's own namespace is that of its default names (GITHUB_TOKEN for github): a publisher may rename
  // within it (GITHUB_APP_TOKEN), never reach outside it for a variable the operator set for something else.
  const prefix = `${envPrefix(name)}_`;
  for (const [kind, envName] of Object.entries(c.credentials ?? {})) {
    if (typeof envName !== 'string') continue;
    const own = envName.startsWith(prefix) && envName.length > prefix.length && !envName.startsWith(SERVER_ENV_PREFIX);
    if (own) continue;
    const why = envName.startsWith(SERVER_ENV_PREFIX)
      ? `names ${envName}, one of the server's own variables (${SERVER_ENV_PREFIX}*)`
      : `names ${envName}, outside this catalog's own variables (${prefix}*)`;
    refuse(`${section}.credentials.${kind}`, why, `"credentials": {"${kind}": "${envName}"} in ${section} ${inFile}`);
  }
}
