// One typed server configuration from environment variables and `serve` flags (flags win). Pure: it reads
// the `env` and `argv` it is given, never process.* itself, and throws AppError CONFIG_INVALID on bad values.
import { AppError } from './errors.js';

/** Streamable HTTP options (`--http`). */
export interface HttpConfig {
  /** Bind address; default 127.0.0.1. Non-loopback needs `allowRemote`. */
  host: string;
  /** Default 3333; 0 picks a free port (tests). */
  port: number;
  /** Extra allowed `Origin` values (exact, e.g. `https://app.example`); loopback origins on our port always pass. */
  allowOrigins: string[];
  /** Permit binding a non-loopback address (A6). */
  allowRemote: boolean;
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

/** Env var holding a catalog's base URL override: `github` -> `GITHUB_BASE_URL`. */
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
}

/**
 * Parses `serve` argv into flags. Throws CONFIG_INVALID naming an unknown flag or a missing value.
 * Boolean flags: --read-only, --no-require-describe, --http, --allow-remote.
 */
export function parseServeArgs(argv: readonly string[]): ServeFlags {
  const flags: ServeFlags = {};
  const valued = new Set(['--registry', '--base-url', '--prefix', '--host', '--port', '--allow-origin']);
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i] as string;
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (valued.has(arg)) {
      if (value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new AppError('CONFIG_INVALID', `serve: ${arg} needs a value`);
      }
      switch (arg) {
        case '--registry':
          (flags.registry ??= []).push(value);
          break;
        case '--base-url':
          flags.baseUrl = value;
          break;
        case '--prefix':
          flags.prefix = value;
          break;
        case '--host':
          flags.host = value;
          break;
        case '--port':
          flags.port = value;
          break;
        case '--allow-origin':
          (flags.allowOrigin ??= []).push(value);
          break;
      }
      continue;
    }
    switch (arg) {
      case '--read-only':
        flags.readOnly = true;
        break;
      case '--no-require-describe':
        flags.requireDescribe = false;
        break;
      case '--http':
        flags.http = true;
        break;
      case '--allow-remote':
        flags.allowRemote = true;
        break;
      case '--verbose':
        break;
      default:
        throw new AppError('CONFIG_INVALID', `serve: unknown option ${JSON.stringify(arg)}; run \`api-catalog serve --help\``);
    }
  }
  return flags;
}

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
  if (flags.http) {
    const host = flags.host ?? env.API_CATALOG_HOST ?? '127.0.0.1';
    const port = intValue('--port', flags.port ?? env.API_CATALOG_PORT, DEFAULT_HTTP_PORT);
    if (port > 65535) throw new AppError('CONFIG_INVALID', `config: --port ${port} is above 65535`);
    const allowRemote = flags.allowRemote ?? false;
    if (!isLoopbackHost(host) && !allowRemote) {
      throw new AppError(
        'CONFIG_INVALID',
        `serve: refusing to bind ${host}: it is reachable from other machines and this server has no authentication; ` +
          'bind 127.0.0.1, or pass --allow-remote if a trusted proxy in front of it authenticates clients',
      );
    }
    const allowOrigins = [...(flags.allowOrigin ?? []), ...(env.API_CATALOG_ALLOW_ORIGINS?.split(',').filter(Boolean) ?? [])];
    config.http = {
      host,
      port,
      allowOrigins,
      allowRemote,
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
 * Base URL overrides for the given catalogs: `<CATALOG>_BASE_URL` from env, then `--base-url` for the first
 * catalog. Throws CONFIG_INVALID for a value that is not an http(s) URL.
 */
export function resolveBaseUrls(
  config: ServerConfig,
  catalogNames: readonly string[],
  env: Record<string, string | undefined> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of catalogNames) {
    const v = env[baseUrlEnvName(name)];
    if (v) out[name] = checkUrl(baseUrlEnvName(name), v);
  }
  const first = catalogNames[0];
  if (config.baseUrlFlag !== undefined && first !== undefined) out[first] = config.baseUrlFlag;
  return out;
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

/** Flags and positionals of a subcommand: valued flags collect every occurrence. */
export interface SplitArgs {
  positionals: string[];
  values: Record<string, string[]>;
  booleans: Set<string>;
}

/**
 * Splits argv by a flag table (`--name value`, `--name=value`, boolean `--flag`). Throws CONFIG_INVALID on an
 * unknown flag or a missing value, naming it.
 */
export function splitArgs(command: string, argv: readonly string[], valued: readonly string[], booleans: readonly string[]): SplitArgs {
  const out: SplitArgs = { positionals: [], values: {}, booleans: new Set() };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i] as string;
    if (!arg.startsWith('--') || arg === '--') {
      out.positionals.push(arg);
      continue;
    }
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (valued.includes(arg)) {
      value ??= argv[++i];
      if (value === undefined) throw new AppError('CONFIG_INVALID', `${command}: ${arg} needs a value`);
      (out.values[arg] ??= []).push(value);
    } else if (booleans.includes(arg)) {
      out.booleans.add(arg);
    } else {
      throw new AppError('CONFIG_INVALID', `${command}: unknown option ${JSON.stringify(arg)}; run \`api-catalog ${command} --help\``);
    }
  }
  return out;
}

/** Env var names that look like they hold credentials; their values are registered as log secrets. */
export function secretLookingEnv(env: Record<string, string | undefined>): string[] {
  return Object.entries(env)
    .filter(([k, v]) => v !== undefined && v.length >= 6 && /(TOKEN|SECRET|PASSWORD|API_?KEY|CREDENTIAL|AUTH)/i.test(k))
    .map(([, v]) => v as string);
}
