// One typed server configuration from environment variables, `serve` flags (flags win) and an optional
// per-catalog JSON config file (`--config`, lowest precedence). Reads only the env, the flags src/cli/args.ts
// parsed and the file it is given, never process.* itself; throws CONFIG_INVALID naming the bad key or value.
import { readFileSync } from 'node:fs';
import { AppError } from './errors.js';

/** Streamable HTTP options (`--http`). */
export interface HttpConfig {
  /** Bind address; default 127.0.0.1. Non-loopback needs `allowRemote`. */
  host: string;
  /** Default 3333; 0 picks a free port (tests). */
  port: number;
  /** Extra allowed `Origin` values (exact, e.g. `https://app.example`); loopback origins on our port always pass. */
  allowOrigins: string[];
  /** Permit binding a non-loopback address (A6); requires `authToken` (A24). */
  allowRemote: boolean;
  /**
   * Extra `Host` header values accepted besides loopback and the bound address (`--allow-host`, env
   * API_CATALOG_ALLOW_HOSTS comma-separated): `name` (any port) or `name:port`, e.g. the name a proxy forwards.
   */
  allowHosts: string[];
  /**
   * Bearer token every /mcp request must carry (`Authorization: Bearer <token>`), from env
   * API_CATALOG_HTTP_TOKEN only (never a flag, so it does not show in `ps`). Required with `allowRemote`.
   */
  authToken?: string;
  /**
   * OAuth authorization server whose JWT access tokens are accepted (`--oauth-issuer`, env
   * API_CATALOG_OAUTH_ISSUER); satisfies `allowRemote` like `authToken`. Both may be set: either is accepted.
   */
  oauthIssuer?: string;
  /**
   * This server's canonical URL (`--public-url`, env API_CATALOG_PUBLIC_URL), e.g. `https://mcp.example.com/mcp`:
   * the token audience (RFC 8707) and PRM `resource`. Default: the bound loopback URL; required for OAuth on a
   * non-loopback bind.
   */
  publicUrl?: string;
  /** Largest accepted POST body in bytes; default 1 MiB (A10). */
  maxBodyBytes: number;
  /** Node's server.headersTimeout / requestTimeout / keepAliveTimeout in ms (A22). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** At most this many live MCP sessions; initialize beyond it gets 503. Default 1000. */
  maxSessions: number;
}

export interface ServerConfig {
  /** Registry folders (`--registry`, repeatable; env API_CATALOG_REGISTRY, `:`-separated). Empty: the embedded catalog. */
  registries: string[];
  /** Upstream base URL overrides by catalog name (`--base-url` applies to the first catalog; env `<CATALOG>_BASE_URL`). */
  baseUrls: Record<string, string>;
  /** `--base-url` as given; applied to the first catalog once catalogs are known. */
  baseUrlFlag?: string;
  /** Refuse non-GET/HEAD operations (`--read-only`, env API_CATALOG_READ_ONLY=1). */
  readOnly: boolean;
  /** Prefix for the four tool names (`--prefix`, env API_CATALOG_TOOL_PREFIX); empty: none. */
  toolPrefix: string;
  /** Enforce "describe before execute" (default true; `--no-require-describe`). */
  requireDescribe: boolean;
  /** Idle time after which a session (and its authorizations) expires; env API_CATALOG_SESSION_TTL_SECONDS, default 1800 s. */
  sessionTtlMs: number;
  /** tools/call calls allowed per session per minute (env API_CATALOG_RATE_LIMIT, default 120; 0 disables). */
  rateLimitPerMinute: number;
  /** Truncated results kept as resources: how long (default 600 s) and how many per session (default 20). */
  resultTtlMs: number;
  maxStoredResults: number;
  /** Upstream timeouts (env API_CATALOG_TIMEOUT_MS, default 30000 total). */
  timeouts: { connectMs?: number; totalMs?: number };
  /** Largest upstream response read; passed to execution. */
  maxResponseBytes?: number;
  /** `--http`: serve Streamable HTTP instead of stdio. */
  http?: HttpConfig;
  /** The per-catalog config file (`--config`, env API_CATALOG_CONFIG); read with readConfigFile. */
  configPath?: string;
}

/** Credential env var NAMES of one catalog in the config file (never values). */
export interface CredentialNamesConfig {
  token?: string;
  apiKey?: string;
  username?: string;
  password?: string;
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
}

/** The config file: `{ "catalogs": { "<name>": {...} }, "blockPrivateAddresses"?: bool }`. */
export interface ConfigFile {
  /** Where it was read from (for error messages). */
  file: string;
  catalogs: Record<string, CatalogFileConfig>;
  /** Default for every catalog; default false. */
  blockPrivateAddresses?: boolean;
}

export const DEFAULT_HTTP_PORT = 3333;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for addresses that only the local machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function intValue(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new AppError('CONFIG_INVALID', `config: ${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function boolValue(raw: string | undefined): boolean {
  return raw !== undefined && /^(1|true|yes|on)$/i.test(raw.trim());
}

/**
 * Env var holding a catalog's base URL override: `github` -> `GITHUB_BASE_URL`. Same prefix rule as
 * execution's envPrefix (config may import only errors.ts, see test/architecture.test.ts).
 */
export function baseUrlEnvName(catalog: string): string {
  return `${catalog.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
}

/** The flags `serve` accepts, already split from argv by the CLI. */
export interface ServeFlags {
  registry?: string[];
  baseUrl?: string;
  readOnly?: boolean;
  prefix?: string;
  requireDescribe?: boolean;
  http?: boolean;
  host?: string;
  port?: string;
  allowOrigin?: string[];
  allowRemote?: boolean;
  /** `--allow-host` values (repeatable). */
  allowHost?: string[];
  oauthIssuer?: string;
  publicUrl?: string;
  config?: string;
}

/** Shortest accepted API_CATALOG_HTTP_TOKEN: 16 characters (e.g. `openssl rand -hex 32` gives 64). */
export const MIN_HTTP_TOKEN_LENGTH = 16;

const PREFIX_RE = /^[A-Za-z0-9_.-]{0,32}$/;

/**
 * Builds the server configuration. Flags win over env. Validates the prefix (tool names must stay within
 * `[A-Za-z0-9_.-]`), the port, and refuses a non-loopback `--host` without `--allow-remote` (A6).
 */
export function resolveServerConfig(flags: ServeFlags, env: Record<string, string | undefined> = {}): ServerConfig {
  const registries =
    flags.registry ?? (env.API_CATALOG_REGISTRY ? env.API_CATALOG_REGISTRY.split(':').filter(Boolean) : []);
  const toolPrefix = flags.prefix ?? env.API_CATALOG_TOOL_PREFIX ?? '';
  if (!PREFIX_RE.test(toolPrefix)) {
    throw new AppError(
      'CONFIG_INVALID',
      `config: tool prefix ${JSON.stringify(toolPrefix)} must be at most 32 characters of [A-Za-z0-9_.-]`,
    );
  }
  if (flags.baseUrl !== undefined) checkUrl('--base-url', flags.baseUrl);
  const config: ServerConfig = {
    registries,
    baseUrls: {},
    readOnly: flags.readOnly ?? boolValue(env.API_CATALOG_READ_ONLY),
    toolPrefix,
    requireDescribe: flags.requireDescribe ?? !boolValue(env.API_CATALOG_NO_REQUIRE_DESCRIBE),
    sessionTtlMs: intValue('API_CATALOG_SESSION_TTL_SECONDS', env.API_CATALOG_SESSION_TTL_SECONDS, 1800, 1) * 1000,
    rateLimitPerMinute: intValue('API_CATALOG_RATE_LIMIT', env.API_CATALOG_RATE_LIMIT, 120),
    resultTtlMs: intValue('API_CATALOG_RESULT_TTL_SECONDS', env.API_CATALOG_RESULT_TTL_SECONDS, 600, 1) * 1000,
    maxStoredResults: intValue('API_CATALOG_MAX_STORED_RESULTS', env.API_CATALOG_MAX_STORED_RESULTS, 20, 1),
    timeouts: { totalMs: intValue('API_CATALOG_TIMEOUT_MS', env.API_CATALOG_TIMEOUT_MS, 30_000, 1) },
  };
  if (env.API_CATALOG_MAX_RESPONSE_BYTES) {
    config.maxResponseBytes = intValue('API_CATALOG_MAX_RESPONSE_BYTES', env.API_CATALOG_MAX_RESPONSE_BYTES, 0, 1024);
  }
  if (flags.baseUrl !== undefined) config.baseUrlFlag = flags.baseUrl;
  const configPath = flags.config ?? env.API_CATALOG_CONFIG;
  if (configPath !== undefined && configPath !== '') config.configPath = configPath;
  if (flags.http) {
    const host = flags.host ?? env.API_CATALOG_HOST ?? '127.0.0.1';
    const port = intValue('--port', flags.port ?? env.API_CATALOG_PORT, DEFAULT_HTTP_PORT);
    if (port > 65535) throw new AppError('CONFIG_INVALID', `config: --port ${port} is above 65535`);
    const allowRemote = flags.allowRemote ?? false;
    const authToken = env.API_CATALOG_HTTP_TOKEN === '' ? undefined : env.API_CATALOG_HTTP_TOKEN;
    const oauthIssuer = nonEmpty(flags.oauthIssuer ?? env.API_CATALOG_OAUTH_ISSUER);
    const publicUrl = nonEmpty(flags.publicUrl ?? env.API_CATALOG_PUBLIC_URL);
    if (oauthIssuer !== undefined) checkSecureUrl('--oauth-issuer', oauthIssuer);
    if (publicUrl !== undefined) checkSecureUrl('--public-url', publicUrl);
    if (oauthIssuer !== undefined && publicUrl === undefined && !isLoopbackHost(host)) {
      throw new AppError(
        'CONFIG_INVALID',
        `serve: --oauth-issuer on ${host} needs --public-url (or API_CATALOG_PUBLIC_URL): the https URL clients use, e.g. ` +
          'https://mcp.example.com/mcp; tokens must name it as their audience',
      );
    }
    if (!isLoopbackHost(host) && !allowRemote) {
      throw new AppError(
        'CONFIG_INVALID',
        `serve: refusing to bind ${host}: it is reachable from other machines; bind 127.0.0.1, or pass ` +
          '--allow-remote and set API_CATALOG_HTTP_TOKEN so that every client must authenticate',
      );
    }
    if (allowRemote && authToken === undefined && oauthIssuer === undefined) {
      throw new AppError(
        'CONFIG_INVALID',
        'serve: --allow-remote needs authentication: set API_CATALOG_HTTP_TOKEN in the environment (e.g. ' +
          '`export API_CATALOG_HTTP_TOKEN=$(openssl rand -hex 32)`); clients then send `Authorization: Bearer <token>`. ' +
          'Or accept OAuth access tokens with --oauth-issuer <url> --public-url <url>',
      );
    }
    if (authToken !== undefined && (authToken.length < MIN_HTTP_TOKEN_LENGTH || !/^[\x21-\x7E]+$/.test(authToken))) {
      // The value itself is never echoed: only its length.
      throw new AppError(
        'CONFIG_INVALID',
        `serve: API_CATALOG_HTTP_TOKEN must be at least ${MIN_HTTP_TOKEN_LENGTH} visible ASCII characters without ` +
          `spaces (got ${authToken.length}); generate one with \`openssl rand -hex 32\``,
      );
    }
    const allowHosts = [...(flags.allowHost ?? []), ...(env.API_CATALOG_ALLOW_HOSTS?.split(',').map((h) => h.trim()).filter(Boolean) ?? [])];
    for (const h of allowHosts) {
      if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(h)) {
        throw new AppError('CONFIG_INVALID', `config: allowed host ${JSON.stringify(h.slice(0, 200))} must be a host name or host:port, e.g. mcp.example.com or mcp.example.com:443`);
      }
    }
    const allowOrigins = [...(flags.allowOrigin ?? []), ...(env.API_CATALOG_ALLOW_ORIGINS?.split(',').filter(Boolean) ?? [])];
    config.http = {
      host,
      port,
      allowOrigins,
      allowRemote,
      allowHosts,
      ...(authToken !== undefined ? { authToken } : {}),
      ...(oauthIssuer !== undefined ? { oauthIssuer } : {}),
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      maxBodyBytes: intValue('API_CATALOG_MAX_BODY_BYTES', env.API_CATALOG_MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES, 1024),
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      maxSessions: intValue('API_CATALOG_MAX_SESSIONS', env.API_CATALOG_MAX_SESSIONS, 1000, 1),
    };
  }
  return config;
}

/**
 * Base URL overrides for the given catalogs: the config file's `baseUrl`, then `<CATALOG>_BASE_URL` from env,
 * then `--base-url` for the first catalog (later wins). Throws CONFIG_INVALID for a value that is not an
 * http(s) URL.
 */
export function resolveBaseUrls(
  config: ServerConfig,
  catalogNames: readonly string[],
  env: Record<string, string | undefined> = {},
  file?: ConfigFile,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of catalogNames) {
    const fromFile = file !== undefined && Object.hasOwn(file.catalogs, name) ? file.catalogs[name]?.baseUrl : undefined;
    if (fromFile !== undefined) out[name] = fromFile;
  }
  for (const name of catalogNames) {
    const v = env[baseUrlEnvName(name)];
    if (v) out[name] = checkUrl(baseUrlEnvName(name), v);
  }
  const first = catalogNames[0];
  if (config.baseUrlFlag !== undefined && first !== undefined) out[first] = config.baseUrlFlag;
  return out;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * An https URL, or http on a loopback address (development, tests), without userinfo, query or fragment: for
 * the OAuth issuer, its key URLs and this server's public URL. Throws CONFIG_INVALID naming `what`.
 */
export function checkSecureUrl(what: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('CONFIG_INVALID', `config: ${what} ${JSON.stringify(value.slice(0, 200))} is not a URL; give e.g. https://auth.example.com`);
  }
  const loopback = isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new AppError('CONFIG_INVALID', `config: ${what} must be https (http only on a loopback address), got ${url.protocol}//${url.host}`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new AppError('CONFIG_INVALID', `config: ${what} must not carry userinfo, a query or a fragment`);
  }
  return url;
}

function checkUrl(what: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('CONFIG_INVALID', `config: ${what} ${JSON.stringify(value)} is not a URL; give e.g. https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('CONFIG_INVALID', `config: ${what} must be http(s), got ${url.protocol}`);
  }
  return value;
}

/** Env var names that look like they hold credentials; their values are registered as log secrets. */
export function secretLookingEnv(env: Record<string, string | undefined>): string[] {
  return Object.entries(env)
    .filter(([k, v]) => v !== undefined && v.length >= 6 && /(TOKEN|SECRET|PASSWORD|API_?KEY|CREDENTIAL|AUTH)/i.test(k))
    .map(([, v]) => v as string);
}

// ---- The per-catalog config file ------------------------------------------------------------------------

/** Largest config file read (it holds names and URLs only). */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

const CATALOG_KEYS = ['baseUrl', 'credentials', 'idempotencyHeader', 'allowedOrigins', 'blockPrivateAddresses'] as const;
const CREDENTIAL_KEYS = ['token', 'apiKey', 'username', 'password'] as const;
const TOP_KEYS = ['$schema', 'catalogs', 'blockPrivateAddresses'] as const;
/** An environment variable NAME: upper case, digits and `_` (a lower-case token such as `sk_live_…` is refused). */
const ENV_NAME_RE = /^[A-Z_][A-Z0-9_]{0,127}$/;
/** An RFC 9110 field-name token. */
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** Headers the transport or the credentials own; an idempotency header cannot be one of them. */
const RESERVED_IDEMPOTENCY_HEADERS = new Set([
  'authorization', 'proxy-authorization', 'cookie', 'host', 'content-type', 'content-length', 'accept',
  'transfer-encoding', 'connection', 'user-agent',
]);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function bad(file: string, key: string, why: string): AppError {
  return new AppError('CONFIG_INVALID', `config file ${file}: ${key} ${why}`, { details: { file, key } });
}

function checkKeys(file: string, where: string, obj: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) {
      throw bad(file, `${where}${where ? '.' : ''}${k}`, `is not a known key (allowed${where ? ` in ${where}` : ''}: ${allowed.join(', ')})`);
    }
  }
}

/** `https://api.example.com` from a URL that is exactly an origin; CONFIG_INVALID otherwise (F9: no userinfo, no path). */
function parseOrigin(file: string, key: string, raw: unknown): string {
  if (typeof raw !== 'string') throw bad(file, key, 'must be a string like "https://uploads.example.com"');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad(file, key, `${JSON.stringify(raw.slice(0, 200))} is not a URL; give an origin like "https://uploads.example.com"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad(file, key, `must be http(s), got ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw bad(file, key, 'must not carry userinfo (user:password@); give only scheme://host[:port]');
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(raw)) {
    throw bad(file, key, `${JSON.stringify(raw.slice(0, 200))} must be an origin (scheme://host[:port]) without a path, query or fragment`);
  }
  return url.origin;
}

function parseBaseUrl(file: string, key: string, raw: unknown): string {
  if (typeof raw !== 'string') throw bad(file, key, 'must be a string like "https://api.example.com/v1"');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad(file, key, `${JSON.stringify(raw.slice(0, 200))} is not a URL; give e.g. "https://api.example.com/v1"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad(file, key, `must be http(s), got ${url.protocol}`);
  if (url.username !== '' || url.password !== '') {
    throw bad(file, key, 'must not carry credentials (user:password@); name the credential env vars under "credentials"');
  }
  return raw;
}

function parseCatalog(file: string, name: string, raw: unknown): CatalogFileConfig {
  const where = `catalogs.${name}`;
  if (!isPlainObject(raw)) throw bad(file, where, 'must be an object');
  checkKeys(file, where, raw, CATALOG_KEYS);
  const out: CatalogFileConfig = {};
  if (raw.baseUrl !== undefined) out.baseUrl = parseBaseUrl(file, `${where}.baseUrl`, raw.baseUrl);
  if (raw.credentials !== undefined) {
    const c = raw.credentials;
    if (!isPlainObject(c)) throw bad(file, `${where}.credentials`, 'must be an object of environment variable names, e.g. {"token": "STRIPE_SECRET_KEY"}');
    checkKeys(file, `${where}.credentials`, c, CREDENTIAL_KEYS);
    const creds: CredentialNamesConfig = {};
    for (const k of CREDENTIAL_KEYS) {
      const v = c[k];
      if (v === undefined) continue;
      // The value is never echoed: if it is not a name it may well be the secret itself.
      if (typeof v !== 'string' || !ENV_NAME_RE.test(v)) {
        throw bad(
          file,
          `${where}.credentials.${k}`,
          'must be the NAME of an environment variable (A-Z, 0-9, _; e.g. "STRIPE_SECRET_KEY"), never the secret itself; the value given is not shown. Put the secret in that environment variable',
        );
      }
      creds[k] = v;
    }
    out.credentials = creds;
  }
  if (raw.idempotencyHeader !== undefined) {
    const h = raw.idempotencyHeader;
    if (typeof h !== 'string' || !HEADER_NAME_RE.test(h)) {
      throw bad(file, `${where}.idempotencyHeader`, 'must be an HTTP header name such as "Idempotency-Key"');
    }
    if (RESERVED_IDEMPOTENCY_HEADERS.has(h.toLowerCase())) {
      throw bad(file, `${where}.idempotencyHeader`, `cannot be ${JSON.stringify(h)}: the transport or the credentials own that header`);
    }
    out.idempotencyHeader = h;
  }
  if (raw.allowedOrigins !== undefined) {
    if (!Array.isArray(raw.allowedOrigins)) throw bad(file, `${where}.allowedOrigins`, 'must be an array of origins like ["https://uploads.example.com"]');
    out.allowedOrigins = raw.allowedOrigins.map((o, i) => parseOrigin(file, `${where}.allowedOrigins[${i}]`, o));
  }
  if (raw.blockPrivateAddresses !== undefined) {
    if (typeof raw.blockPrivateAddresses !== 'boolean') throw bad(file, `${where}.blockPrivateAddresses`, 'must be true or false');
    out.blockPrivateAddresses = raw.blockPrivateAddresses;
  }
  return out;
}

/**
 * Validates the text of a config file. Unknown keys anywhere are refused; credentials hold env var NAMES only
 * (a secret value in a file ends up in repositories, backups and bug reports; environment variables and secret
 * managers are the channel for secrets, and the server redacts the values of exactly the named variables).
 * Throws CONFIG_INVALID naming the file and the key.
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
  if (!isPlainObject(raw)) throw bad(file, '(top level)', 'must be a JSON object like {"catalogs": {"github": {...}}}');
  checkKeys(file, '', raw, TOP_KEYS);
  // A null-prototype map: a catalog called `__proto__` or `constructor` stays an ordinary key.
  const out: ConfigFile = { file, catalogs: Object.create(null) as Record<string, CatalogFileConfig> };
  if (raw.catalogs !== undefined) {
    if (!isPlainObject(raw.catalogs)) throw bad(file, 'catalogs', 'must be an object keyed by catalog name');
    for (const [name, section] of Object.entries(raw.catalogs)) {
      if (!/^[a-z0-9_-]{1,64}$/.test(name)) throw bad(file, `catalogs.${name.slice(0, 80)}`, 'is not a catalog name ([a-z0-9_-]); use the name list_domains shows');
      out.catalogs[name] = parseCatalog(file, name, section);
    }
  }
  if (raw.blockPrivateAddresses !== undefined) {
    if (typeof raw.blockPrivateAddresses !== 'boolean') throw bad(file, 'blockPrivateAddresses', 'must be true or false');
    out.blockPrivateAddresses = raw.blockPrivateAddresses;
  }
  return out;
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

/** What execution needs from the config file for one catalog (mirrors ExecutionConfig's fields). */
export interface CatalogExecutionOptions {
  credentials?: CredentialNamesConfig;
  idempotencyHeader?: string;
  allowedOrigins?: string[];
  blockPrivateAddresses?: boolean;
}

/**
 * Per-catalog execution options from the config file for the loaded catalogs. Throws CONFIG_INVALID when the
 * file names a catalog that is not loaded (a typo would otherwise silently drop its settings).
 */
export function catalogOptions(file: ConfigFile | undefined, catalogNames: readonly string[]): Record<string, CatalogExecutionOptions> {
  const out: Record<string, CatalogExecutionOptions> = {};
  if (file === undefined) return out;
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
    if (Object.keys(o).length > 0) out[name] = o;
  }
  return out;
}

/** The credential env var names a config file points at, so their values can be registered as log secrets. */
export function configuredCredentialNames(file: ConfigFile | undefined): string[] {
  if (file === undefined) return [];
  return Object.values(file.catalogs).flatMap((c) => Object.values(c.credentials ?? {}).filter((v): v is string => typeof v === 'string'));
}
