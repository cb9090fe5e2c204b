// One typed server configuration from `serve` flags, environment variables and the JSON config file (`--config`,
// read by ./config/file.ts), in that precedence, driven by the option table in ./config/options.ts (resolved by
// ./config/resolve.ts) and the zod schema in ./config/schema.ts; the env's secret values: ./config/secret-env.ts.
// Reads only the env, the flags src/cli/args.ts parsed and the file it is given, never process.* itself; throws
// CONFIG_INVALID naming the bad key or value.
import { AppError } from './errors.js';
import { SERVE_OPTIONS, secureUrl, type OptionSpec, type ResolvedOptions, type ServeFlags } from './config/options.js';
import { readConfigFile, type ConfigFile } from './config/file.js';
import { resolveOptions, validated } from './config/resolve.js';

export { SERVE_OPTIONS, flagKey, httpFlagsWithoutHttp, optionsHelp, type OptionSpec, type ResolvedOptions } from './config/options.js';
export { configJsonSchema } from './config/schema.js';
export { resolveOptions } from './config/resolve.js';
export { secretLookingEnv } from './config/secret-env.js';
export {
  MAX_CONFIG_FILE_BYTES, catalogOptions, configuredCredentialNames, parseConfigFile, readConfigFile,
  type CatalogExecutionOptions, type CatalogFileConfig, type ConfigFile, type CredentialNamesConfig,
} from './config/file.js';

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
  /** Serve the catalog explorer page at `/` (default true; `--no-explorer`, env API_CATALOG_NO_EXPLORER=1). */
  explorer: boolean;
  /** `--tokens <file>` (env API_CATALOG_TOKENS_FILE): named bearer tokens, each a principal. */
  tokensFile?: string;
  /** `--require-state`: refuse to start without `--state` (a replica of several). */
  requireState: boolean;
  /** How long the OAuth issuer's keys are used without a refetch (env API_CATALOG_OAUTH_KEYS_MAX_AGE_SECONDS). */
  oauthKeysMaxAgeMs: number;
}

export interface ServerConfig {
  /** Registry folders (`--registry`, repeatable; env API_CATALOG_REGISTRY, `:`-separated). Empty: the embedded catalog. */
  registries: string[];
  /** Upstream base URL overrides by catalog name (`--base-url` applies to the first catalog; env `<CATALOG>_BASE_URL`). */
  baseUrls: Record<string, string>;
  /** `--base-url` as given; applied to the first catalog once catalogs are known. */
  baseUrlFlag?: string;
  /** Refuse operations that do not only read (`--read-only`, env API_CATALOG_READ_ONLY=1): Operation.readOnly. */
  readOnly: boolean;
  /** Send credentials over plain http to non-loopback hosts, every catalog (`--allow-http-credentials`); default false. */
  allowHttpCredentials: boolean;
  /** Prefix for the four tool names (`--prefix`, env API_CATALOG_TOOL_PREFIX); empty: none. */
  toolPrefix: string;
  /** Enforce "describe before execute" (default true; `--no-require-describe`). */
  requireDescribe: boolean;
  /** Idle time after which a session (and its authorizations) expires; env API_CATALOG_SESSION_TTL_SECONDS, default 1800 s. */
  sessionTtlMs: number;
  /** execute_tool calls per minute per principal (`--rate-limit`, env API_CATALOG_RATE_LIMIT, default 120; 0 disables). */
  rateLimitPerMinute: number;
  /**
   * list_domains/search_tools/describe_tools calls, dry runs and execute_tool calls refused before sending (not
   * confirmation questions: confirmRateLimitPerMinute) per minute per principal (`--read-rate-limit`, env API_CATALOG_READ_RATE_LIMIT). Unset:
   * unlimited over stdio, 600 over HTTP; 0 disables.
   */
  readRateLimitPerMinute?: number;
  /**
   * Confirmation questions asked of the user per minute per principal (per connection over stdio), on every transport
   * (`--confirm-rate-limit`, env API_CATALOG_CONFIRM_RATE_LIMIT, default 10; 0 disables).
   */
  confirmRateLimitPerMinute: number;
  /** `--state <url>` (env API_CATALOG_STATE), HTTP only: the shared state store; unset = in memory. */
  stateUrl?: string;
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
  /**
   * `--search-log <file>` (env API_CATALOG_SEARCH_LOG): one JSON line per search and follow-up; rotates when the
   * file would pass `maxBytes` (`--search-log-max-bytes`, env API_CATALOG_SEARCH_LOG_MAX_BYTES, default 10 MiB).
   */
  searchLog?: { file: string; maxBytes: number };
  /**
   * `--index-cache <dir>` (env API_CATALOG_INDEX_CACHE): where the index of several or filtered registries is kept;
   * false for `off` (always build); absent: the user's cache folder (serve resolves it: defaultIndexCacheDir).
   */
  indexCache?: string | false;
  /**
   * Serve-time filters: `--include-domains`, `--exclude-domains`, `--exclude-tools` (repeatable or comma-separated;
   * env API_CATALOG_INCLUDE_DOMAINS, API_CATALOG_EXCLUDE_DOMAINS, API_CATALOG_EXCLUDE_TOOLS). Empty lists: no filter.
   */
  filters: { includeDomains: string[]; excludeDomains: string[]; excludeTools: string[] };
  /** `--embeddings-url`/`-model`/`-dimensions` as resolved (src/embeddings/config.ts reads the rest of the env). */
  embeddings?: { url?: string; model?: string; dimensions?: string };
  /** Least severe log level (env API_CATALOG_LOG_LEVEL, file serve.logLevel; default info). */
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** `--shutdown-grace <s>` (env API_CATALOG_SHUTDOWN_GRACE_SECONDS, default 25): how long calls in flight may finish. */
  shutdownGraceMs: number;
  /** `--audit-log <file>`: the audit log's own file; unset: audit lines go to the log stream. */
  auditLog?: { file: string; maxBytes: number };
  /** Every option of SERVE_OPTIONS as resolved (flags > env > file > default); new options are read here. */
  options: ResolvedOptions;
}

export const DEFAULT_HTTP_PORT = 3333;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for addresses that only the local machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** True for a bind address that listens on every interface (0.0.0.0, ::), which no client names as its Host. */
export function isWildcardHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === '0.0.0.0' || h === '::';
}

/** An --allow-host entry (`name`, `name:port`, `[v6]:port`): the host as written and the port it must come with. */
export function parseAllowHost(entry: string): { host: string; port?: string } | undefined {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim());
  if (m?.[1] === undefined) return undefined;
  return { host: m[1], ...(m[2] !== undefined ? { port: m[2] } : {}) };
}

/**
 * Env var holding a catalog's base URL override: `github` -> `GITHUB_BASE_URL`. Same prefix rule as
 * execution's envPrefix (config may import only errors.ts, see test/architecture.test.ts).
 */
export function baseUrlEnvName(catalog: string): string {
  return `${catalog.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
}

/** The flags `serve` accepts, already split from argv by the CLI. */
export type { ServeFlags } from './config/options.js';

/** Shortest accepted API_CATALOG_HTTP_TOKEN: 16 characters (e.g. `openssl rand -hex 32` gives 64). */
export const MIN_HTTP_TOKEN_LENGTH = 16;

/** A filter list: every value split at commas, trimmed, empties and repeats dropped. */
function splitList(values: readonly string[]): string[] {
  return [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
}

/**
 * Builds the server configuration: flags win over env, env over the config file's `serve` section (pass the
 * parsed file; the path comes from `--config` / API_CATALOG_CONFIG). Validates every value through the option
 * table, and refuses a non-loopback `--host` without `--allow-remote` (A6) or without authentication (A24).
 */
export function resolveServerConfig(flags: ServeFlags, env: Record<string, string | undefined> = {}, file?: ConfigFile): ServerConfig {
  const o = resolveOptions(flags, env, file);
  const config: ServerConfig = {
    registries: o.registries,
    baseUrls: {},
    readOnly: o.readOnly,
    allowHttpCredentials: o.allowHttpCredentials,
    toolPrefix: o.toolPrefix,
    requireDescribe: o.requireDescribe,
    sessionTtlMs: o.sessionTtlSeconds * 1000,
    rateLimitPerMinute: o.rateLimitPerMinute,
    confirmRateLimitPerMinute: o.confirmRateLimitPerMinute,
    resultTtlMs: o.resultTtlSeconds * 1000,
    maxStoredResults: o.maxStoredResults,
    timeouts: { totalMs: o.timeoutMs },
    filters: { includeDomains: splitList(o.includeDomains), excludeDomains: splitList(o.excludeDomains), excludeTools: splitList(o.excludeTools) },
    logLevel: o.logLevel,
    shutdownGraceMs: o.shutdownGraceSeconds * 1000,
    options: o,
  };
  const f = flags as Record<string, unknown>;
  if (f.state !== undefined && !o.http) {
    throw new AppError('CONFIG_INVALID', 'serve: --state needs --http: a shared state store is for HTTP replicas (stdio serves one client in one process)');
  }
  if (f.searchLogMaxBytes !== undefined && o.searchLog === undefined) {
    throw new AppError('CONFIG_INVALID', 'serve: --search-log-max-bytes needs --search-log <file> (or API_CATALOG_SEARCH_LOG)');
  }
  if (o.readRateLimitPerMinute !== undefined) config.readRateLimitPerMinute = o.readRateLimitPerMinute;
  if (o.http && o.stateUrl !== undefined) config.stateUrl = o.stateUrl;
  if (o.searchLog !== undefined) config.searchLog = { file: o.searchLog, maxBytes: o.searchLogMaxBytes };
  if (f.auditLogMaxBytes !== undefined && o.auditLog === undefined) {
    throw new AppError('CONFIG_INVALID', 'serve: --audit-log-max-bytes needs --audit-log <file> (or API_CATALOG_AUDIT_LOG)');
  }
  if (o.auditLog !== undefined) config.auditLog = { file: o.auditLog, maxBytes: o.auditLogMaxBytes };
  if (o.indexCache !== undefined) config.indexCache = o.indexCache === 'off' ? false : o.indexCache;
  const embeddings = {
    ...(o.embeddingsUrl !== undefined ? { url: o.embeddingsUrl } : {}),
    ...(o.embeddingsModel !== undefined ? { model: o.embeddingsModel } : {}),
    ...(o.embeddingsDimensions !== undefined ? { dimensions: String(o.embeddingsDimensions) } : {}),
  };
  if (Object.keys(embeddings).length > 0) config.embeddings = embeddings;
  if (o.maxResponseBytes !== undefined) config.maxResponseBytes = o.maxResponseBytes;
  if (o.baseUrl !== undefined) config.baseUrlFlag = o.baseUrl;
  if (o.configPath !== undefined) config.configPath = o.configPath;
  if (o.http) {
    const host = o.host as string;
    const allowRemote = o.allowRemote as boolean;
    const authToken = o.authToken;
    const oauthIssuer = o.oauthIssuer;
    const publicUrl = o.publicUrl;
    const tokensFile = o.tokensFile;
    if (o.requireState && o.stateUrl === undefined) {
      throw new AppError(
        'CONFIG_INVALID',
        'serve: --require-state (API_CATALOG_REQUIRE_STATE) is set but no --state is given: replicas must share legacy sessions and rate limits; ' +
          "set API_CATALOG_STATE='redis://:<password>@<host>:6379/0' on every replica (docs/DEPLOY.md)",
      );
    }
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
    if (allowRemote && authToken === undefined && oauthIssuer === undefined && tokensFile === undefined) {
      throw new AppError(
        'CONFIG_INVALID',
        'serve: --allow-remote needs authentication: set API_CATALOG_HTTP_TOKEN in the environment (e.g. ' +
          '`export API_CATALOG_HTTP_TOKEN=$(openssl rand -hex 32)`); clients then send `Authorization: Bearer <token>`. ' +
          'Or give each client its own token with --tokens <file> (api-catalog token new <name>), or accept OAuth access tokens with --oauth-issuer <url> --public-url <url>',
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
    config.http = {
      host,
      port: o.port as number,
      allowOrigins: o.allowOrigins as string[],
      allowRemote,
      allowHosts: o.allowHosts as string[],
      ...(authToken !== undefined ? { authToken } : {}),
      ...(oauthIssuer !== undefined ? { oauthIssuer } : {}),
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      maxBodyBytes: o.maxBodyBytes as number,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      maxSessions: o.maxSessions as number,
      explorer: o.explorer as boolean,
      ...(tokensFile !== undefined ? { tokensFile } : {}),
      requireState: o.requireState as boolean,
      oauthKeysMaxAgeMs: (o.oauthKeysMaxAgeSeconds as number) * 1000,
    };
  }
  return config;
}

/**
 * Reads the config file named by `--config` / API_CATALOG_CONFIG (if any), then resolves the configuration with
 * it: what `serve` and the people-facing commands use.
 */
export function loadServerConfig(flags: ServeFlags, env: Record<string, string | undefined> = {}): { config: ServerConfig; file?: ConfigFile } {
  const path = flags.config ?? (env.API_CATALOG_CONFIG === '' ? undefined : env.API_CATALOG_CONFIG);
  const file = path !== undefined ? readConfigFile(path) : undefined;
  const config = resolveServerConfig(flags, env, file);
  return file !== undefined ? { config, file } : { config };
}

/** `<CATALOG>_BASE_URL` values are checked like `--base-url`. */
const BASE_URL_OPTION = SERVE_OPTIONS.find((o) => o.name === 'baseUrl') as OptionSpec;

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
    if (v) out[name] = validated(BASE_URL_OPTION, v, { name: baseUrlEnvName(name), raw: v }) as string;
  }
  const first = catalogNames[0];
  if (config.baseUrlFlag !== undefined && first !== undefined) out[first] = config.baseUrlFlag;
  return out;
}

/**
 * The start-up warning for a server that takes a static or named bearer token from other machines with no TLS in
 * front that it knows of (no https --public-url): such a token is a password sent with every request, readable on
 * the network over plain http (RFC 6750 §5.3). OAuth alone needs no warning (an off-loopback --public-url must be
 * https already). Undefined when none applies. Never names a token.
 */
export function cleartextTokenWarning(http: Pick<HttpConfig, 'host' | 'allowRemote' | 'authToken' | 'tokensFile' | 'publicUrl'>): string | undefined {
  if (!http.allowRemote || isLoopbackHost(http.host)) return undefined;
  if (http.authToken === undefined && http.tokensFile === undefined) return undefined;
  if (http.publicUrl?.toLowerCase().startsWith('https:') === true) return undefined;
  const which = [http.authToken !== undefined ? 'API_CATALOG_HTTP_TOKEN' : undefined, http.tokensFile !== undefined ? 'the --tokens file\'s' : undefined].filter(Boolean).join(' and ');
  return (
    `--allow-remote on ${http.host} over plain http: bearer tokens (${which}) cross the network in clear text unless a ` +
    'TLS proxy is in front. Put one in front (docs/DEPLOY.md) and give the https address clients use with --public-url https://<name>/mcp'
  );
}

/**
 * An https URL, or http on a loopback address (development, tests), without userinfo, query or fragment: for
 * the OAuth issuer, its key URLs and this server's public URL. Throws CONFIG_INVALID naming `what`.
 */
export function checkSecureUrl(what: string, value: string): URL {
  const r = secureUrl.safeParse(value);
  if (!r.success) {
    throw new AppError('CONFIG_INVALID', `config: ${what} ${r.error.issues[0]?.message ?? 'is invalid'}, got ${JSON.stringify(value.slice(0, 200))}`);
  }
  return new URL(value);
}
