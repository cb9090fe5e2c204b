// The per-catalog config file (`--config`, env API_CATALOG_CONFIG): its shape, reading and validating it against
// configFileSchema (./schema.ts), and what execution takes from it per catalog. Credentials are env var NAMES, never
// values. Reads only the file it is given; throws CONFIG_INVALID naming the file and the key.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type * as z from 'zod';
import { AppError } from '../errors.js';
import { catalogSectionSchema, configFileSchema, formatIssue } from './schema.js';

/** Credential env var NAMES of one catalog in the config file (never values). */
export interface CredentialNamesConfig {
  token?: string;
  apiKey?: string;
  username?: string;
  password?: string;
  /** One API-key scheme's variable, for a catalog that uses several (`"apiKey:clientId": "MBSE_CLIENT_ID"`). */
  [scheme: `apiKey:${string}`]: string | undefined;
}

/** One catalog's section of the config file. */
export interface CatalogFileConfig {
  /** Upstream base URL (lowest precedence: `<CATALOG>_BASE_URL` and `--base-url` win). */
  baseUrl?: string;
  /** Env var names replacing `<CATALOG>_TOKEN`, `_API_KEY`, `_USERNAME`, `_PASSWORD`. */
  credentials?: CredentialNamesConfig;
  /** Idempotency header for POST/PATCH when the spec declares none, e.g. `Idempotency-Key` for Stripe. */
  idempotencyHeader?: string;
  /** Extra origins an operation's own `servers` may use (normalized `scheme://host[:port]`). */
  allowedOrigins?: string[];
  /** Refuse upstream hosts resolving to private/loopback/link-local addresses; overrides the top-level value. */
  blockPrivateAddresses?: boolean;
  /** Send credentials over plain http to non-loopback hosts (default false: refused). */
  allowHttpCredentials?: boolean;
  /** Put before an apiKey credential's value, e.g. `"Bearer "` (SendGrid's apiKey in the Authorization header). */
  credentialPrefix?: string;
}

/** The config file: `{ "catalogs": { "<name>": {...} }, "blockPrivateAddresses"?: bool, "serve"?: {...} }`. */
export interface ConfigFile {
  /** Where it was read from (for error messages). */
  file: string;
  catalogs: Record<string, CatalogFileConfig>;
  /** Default for every catalog; default false. */
  blockPrivateAddresses?: boolean;
  /** The validated `serve` section (keys as in SERVE_OPTIONS' `file`, without the leading `serve.`). */
  serve?: Record<string, unknown>;
}

/** Largest config file read (it holds names and URLs only). */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

function bad(file: string, key: string, why: string): AppError {
  return new AppError('CONFIG_INVALID', `config file ${file}: ${key} ${why}`, { details: { file, key } });
}

/**
 * Validates the text of a config file against configFileSchema (src/config/schema.ts). Unknown keys anywhere are
 * refused; credentials hold env var NAMES only (a secret value in a file ends up in repositories, backups and
 * bug reports; environment variables and secret managers are the channel for secrets, and the server redacts the
 * values of exactly the named variables). Throws CONFIG_INVALID naming the file and the key.
 */
export function parseConfigFile(text: string, file: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    // V8's message can quote the file's content; report only the position.
    const pos = /position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1];
    let where = '';
    if (pos !== undefined) {
      const before = text.slice(0, Number(pos));
      const line = before.split('\n').length;
      where = ` at line ${line}, column ${Number(pos) - before.lastIndexOf('\n')}`;
    }
    throw new AppError('CONFIG_INVALID', `config file ${file}: not valid JSON${where}`, { details: { file } });
  }
  const checked = configFileSchema.safeParse(raw);
  if (!checked.success) {
    const { key, why } = formatIssue(checked.error.issues[0] as z.core.$ZodIssue);
    throw bad(file, key, why);
  }
  const top = raw as { catalogs?: Record<string, unknown> };
  // A null-prototype map: a catalog called `__proto__` or `constructor` stays an ordinary key (zod's record
  // output would turn `__proto__` into a prototype), so the sections are taken from the input, each re-parsed.
  const out: ConfigFile = { file, catalogs: Object.create(null) as Record<string, CatalogFileConfig> };
  for (const [name, section] of Object.entries(top.catalogs ?? {})) out.catalogs[name] = catalogSectionSchema.parse(section) as CatalogFileConfig;
  if (checked.data.blockPrivateAddresses !== undefined) out.blockPrivateAddresses = checked.data.blockPrivateAddresses;
  if (checked.data.serve !== undefined) out.serve = checked.data.serve as Record<string, unknown>;
  return out;
}

/**
 * A path-valued setting of the config file (serve.registries, indexCache, searchLog, auditLog, http.tokensFile), or
 * a list of them, made absolute against the file's own folder, so that a config works whatever folder the server is
 * started in (desktop clients start it anywhere). Absolute paths and the `keep` words (`off`) stay as they are.
 */
export function fromConfigFolder(file: Pick<ConfigFile, 'file'>, value: unknown, keep: readonly string[] = []): unknown {
  const folder = dirname(resolve(file.file));
  const one = (v: unknown): unknown => (typeof v !== 'string' || isAbsolute(v) || keep.includes(v) ? v : resolve(folder, v));
  return Array.isArray(value) ? value.map(one) : one(value);
}

/** Reads and validates a config file (at most 1 MiB). Throws CONFIG_INVALID naming the file. */
export function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    const buf = readFileSync(file);
    if (buf.length > MAX_CONFIG_FILE_BYTES) {
      throw new AppError('CONFIG_INVALID', `config file ${file}: larger than ${MAX_CONFIG_FILE_BYTES} bytes`, { details: { file } });
    }
    text = buf.toString('utf8');
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: unknown }).code;
    throw new AppError('CONFIG_INVALID', `config file ${file}: cannot read it (${typeof code === 'string' ? code : 'error'}); check --config / API_CATALOG_CONFIG`, {
      details: { file },
    });
  }
  return parseConfigFile(text, file);
}

/** What execution needs from the config file for one catalog: its section but the base URL (mirrors ExecutionConfig's fields). */
export type CatalogExecutionOptions = Omit<CatalogFileConfig, 'baseUrl'>;

/**
 * Per-catalog execution options from the config file for the loaded catalogs (`allowHttpCredentials`, the
 * --allow-http-credentials flag, allows it for every catalog). Throws CONFIG_INVALID when the
 * file names a catalog that is not loaded (a typo would otherwise silently drop its settings).
 */
export function catalogOptions(file: ConfigFile | undefined, catalogNames: readonly string[], allowHttpCredentials = false): Record<string, CatalogExecutionOptions> {
  const out: Record<string, CatalogExecutionOptions> = {};
  if (file === undefined) {
    // --allow-http-credentials without a config file: every catalog.
    if (allowHttpCredentials) for (const name of catalogNames) out[name] = { allowHttpCredentials: true };
    return out;
  }
  for (const name of Object.keys(file.catalogs)) {
    if (!catalogNames.includes(name)) {
      throw bad(file.file, `catalogs.${name}`, `names no loaded catalog (loaded: ${catalogNames.join(', ')}); fix the name or load its registry with --registry`);
    }
  }
  for (const name of catalogNames) {
    const c = Object.hasOwn(file.catalogs, name) ? file.catalogs[name] : undefined;
    const o: CatalogExecutionOptions = {};
    if (c?.credentials !== undefined) o.credentials = c.credentials;
    if (c?.idempotencyHeader !== undefined) o.idempotencyHeader = c.idempotencyHeader;
    if (c?.allowedOrigins !== undefined) o.allowedOrigins = c.allowedOrigins;
    const block = c?.blockPrivateAddresses ?? file.blockPrivateAddresses;
    if (block !== undefined) o.blockPrivateAddresses = block;
    // The flag allows every catalog; without it, each catalog's own setting decides.
    if (allowHttpCredentials || c?.allowHttpCredentials !== undefined) o.allowHttpCredentials = allowHttpCredentials || c?.allowHttpCredentials === true;
    if (c?.credentialPrefix !== undefined) o.credentialPrefix = c.credentialPrefix;
    if (Object.keys(o).length > 0) out[name] = o;
  }
  return out;
}

/** The credential env var names a config file points at, so their values can be registered as log secrets. */
export function configuredCredentialNames(file: ConfigFile | undefined): string[] {
  if (file === undefined) return [];
  return Object.values(file.catalogs).flatMap((c) => Object.values(c.credentials ?? {}).filter((v): v is string => typeof v === 'string'));
}
