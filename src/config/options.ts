// The one table of `serve` options: name -> flag -> env var -> config-file key -> default, each with the zod
// schema that validates it (and phrases its error). src/config/resolve.ts resolves from it, src/cli/args.ts parses flags
// from it, the config file schema and docs/config.schema.json are built from it. No I/O here.
//
// Adding an option = one entry in SERVE_OPTIONS below:
//   { name: 'stateUrl', type: 'string', schema: redisUrl, flag: '--state', env: 'API_CATALOG_STATE',
//     file: 'serve.state', help: 'shared state store, redis://host:port' },
// then read it as `config.options.stateUrl` (typed from the entry). `schema` validates the value whatever its
// source; its messages follow the option's name ("must be ..."). `type` says how env and flag text become a value.
// Flags: `--x-y` fills ServeFlags.xY (typed from the table). Secrets get no `flag` (ps shows it) and no `file`.
import * as z from 'zod';

export type OptionType = 'string' | 'integer' | 'boolean' | 'list';

export interface OptionSpec {
  /** Key of the resolved value (`config.options.<name>`). */
  name: string;
  type: OptionType;
  /** Validates (and may normalize) a value from any source. Messages are phrased "must be ...". */
  schema: z.ZodType;
  /** Used when no source sets the option. */
  default?: unknown;
  /**
   * What --help, docs/CONFIGURATION.md and the JSON Schema show as the default when `default` does not say it: the
   * embedded catalog, or a default the code computes (from the listen address, the user's cache folder, ...). An
   * option without either shows "-", which must mean "unset: off" (test/config/declared-defaults.test.ts).
   */
  shownDefault?: string;
  /**
   * The value is a file or folder path (a list: each item): in the config file a relative one is relative to the
   * file's own folder; from a flag or env var, to the current directory. A `keep` word stays as it is (`off`).
   */
  path?: { keep?: readonly string[] };
  /** Command-line flag; lists repeat it; `negate` flags (`--no-x`) set a boolean option to false. */
  flag?: `--${string}`;
  negate?: boolean;
  /** Environment variable. Lists are split on `separator` (default `,`); booleans are 1/true/yes/on. */
  env?: string;
  separator?: string;
  /** The env var holds the opposite of the option (`API_CATALOG_NO_REQUIRE_DESCRIBE=1` -> false). */
  envNegate?: boolean;
  /** Dotted key in the config file (`serve.http.port`); none for secrets and per-invocation choices. */
  file?: string;
  /** Lists: flags, env and file are concatenated instead of the first source winning. */
  concat?: boolean;
  /** Only read with `--http`; its flag without `--http` is a usage error (httpFlagsWithoutHttp). */
  http?: boolean;
  /** Never echo the value in an error. */
  secret?: boolean;
  /** One line for --help, the table in docs/CONFIGURATION.md and the JSON Schema description. */
  help: string;
  /** The value's name in --help (`--state <url>`); default `n` for integers, `v` otherwise. */
  metavar?: string;
}

/** An integer option: `must be an integer >= min` (and `<= max`). */
export function integer(min: number, max?: number): z.ZodType<number> {
  const what = max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  const base = z.int({ error: `must be ${what}` }).min(min, { error: `must be ${what}` });
  return max === undefined ? base : base.max(max, { error: `must be ${what}` });
}

/** The longest delay setTimeout takes (2^31-1 ms); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Read calls (list/search/describe, dry runs, execute_tool calls that send nothing) per minute per principal over
 * HTTP when --read-rate-limit is not given: serveHttp's default (src/server/transports/http.ts); over stdio it is off.
 */
export const HTTP_READ_RATE_LIMIT = 600;

const bool = z.boolean({ error: 'must be true or false' });

/** An absolute http(s) URL (upstream base URLs). */
const httpUrl = z.string({ error: 'must be a string like "https://api.example.com"' }).superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a URL; give e.g. https://api.example.com' });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL' });
});

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;

/** https, or http on a loopback address; no userinfo, query or fragment (OAuth issuer, public URL). */
export const secureUrl = z.string({ error: 'must be a string like "https://auth.example.com"' }).superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a URL; give e.g. https://auth.example.com' });
    return;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    ctx.addIssue({ code: 'custom', message: 'must be https (http only on a loopback address)' });
  } else if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    ctx.addIssue({ code: 'custom', message: 'must not carry userinfo, a query or a fragment' });
  }
});

const stringList = (item: z.ZodType<string>) => z.array(item, { error: 'must be an array of strings' });
const allowedHost = z
  .string()
  .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, { error: 'must be a host name or host:port, e.g. mcp.example.com or mcp.example.com:443' });

/**
 * Every `serve` option. Order is the order of --help and the table in docs/CONFIGURATION.md. The config file's
 * `serve` section and docs/config.schema.json are generated from the entries with a `file` key.
 */
export const SERVE_OPTIONS = [
  { name: 'registries', metavar: 'dir', type: 'list', schema: stringList(z.string().min(1, { error: 'must be a registry folder path, not empty' })), default: [], shownDefault: 'the embedded GitHub catalog', path: {}, flag: '--registry', env: 'API_CATALOG_REGISTRY', separator: ':', file: 'serve.registries', help: 'registry folders to serve: --registry repeated, or `:`-separated in the env var like PATH, not commas' },
  { name: 'baseUrl', metavar: 'url', type: 'string', schema: httpUrl, flag: '--base-url', shownDefault: 'the API description\'s servers', help: 'upstream base URL for the first catalog (per catalog: env <CATALOG>_BASE_URL or catalogs.<name>.baseUrl)' },
  { name: 'configPath', metavar: 'file', type: 'string', schema: z.string().min(1, { error: 'must be a file path' }), flag: '--config', env: 'API_CATALOG_CONFIG', help: 'this config file' },
  { name: 'readOnly', type: 'boolean', schema: bool, default: false, flag: '--read-only', env: 'API_CATALOG_READ_ONLY', file: 'serve.readOnly', help: 'refuse every operation that does not only read (GET/HEAD that run no write action, or marked x-api-catalog-read-only)' },
  { name: 'allowHttpCredentials', type: 'boolean', schema: bool, default: false, flag: '--allow-http-credentials', env: 'API_CATALOG_ALLOW_HTTP_CREDENTIALS', help: 'send upstream credentials over plain http to hosts other than loopback (default: refused before connecting; per catalog: catalogs.<name>.allowHttpCredentials)' },
  {
    name: 'toolPrefix', metavar: 'p', type: 'string', default: '', flag: '--prefix', env: 'API_CATALOG_TOOL_PREFIX', file: 'serve.toolPrefix',
    schema: z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9_.-]{0,32}$/, { error: 'must be at most 32 characters of [A-Za-z0-9_.-]' }),
    help: 'text put before the four tool names as is, with no separator added: --prefix gh_ gives gh_search_tools (--prefix gh gives ghsearch_tools)',
  },
  { name: 'requireDescribe', type: 'boolean', schema: bool, default: true, flag: '--no-require-describe', negate: true, env: 'API_CATALOG_NO_REQUIRE_DESCRIBE', envNegate: true, file: 'serve.requireDescribe', help: 'execute_tool needs a prior describe_tools of the operation (--no-require-describe turns it off)' },
  {
    name: 'signingKey', type: 'string', env: 'API_CATALOG_SIGNING_KEY', secret: true, shownDefault: 'a random key per process, or one shared through --state',
    schema: z.string().min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -hex 32`)' }),
    help: 'key that signs describe handles and confirmation state (32+ characters; env only); replicas without a shared --state need the same one',
  },
  { name: 'sessionTtlSeconds', type: 'integer', schema: integer(1), default: 1800, env: 'API_CATALOG_SESSION_TTL_SECONDS', file: 'serve.sessionTtlSeconds', help: 'idle time after which a session and its authorizations expire, seconds' },
  { name: 'rateLimitPerMinute', type: 'integer', schema: integer(0), default: 120, flag: '--rate-limit', env: 'API_CATALOG_RATE_LIMIT', file: 'serve.rateLimitPerMinute', help: 'execute_tool calls per minute per principal (protects the upstream API: spent only as a request goes out; a dry_run, or a call refused before it (invalid, not described), counts against --read-rate-limit instead, a confirmation question against --confirm-rate-limit); 0 disables' },
  { name: 'readRateLimitPerMinute', type: 'integer', schema: integer(0), flag: '--read-rate-limit', env: 'API_CATALOG_READ_RATE_LIMIT', file: 'serve.readRateLimitPerMinute', shownDefault: `unlimited over stdio, ${HTTP_READ_RATE_LIMIT} over HTTP`, help: 'list_domains/search_tools/describe_tools calls, execute_tool dry runs and execute_tool calls refused before sending (not confirmation questions: --confirm-rate-limit) per minute per principal; 0 disables' },
  { name: 'confirmRateLimitPerMinute', type: 'integer', schema: integer(0), default: 10, flag: '--confirm-rate-limit', env: 'API_CATALOG_CONFIRM_RATE_LIMIT', file: 'serve.confirmRateLimitPerMinute', help: 'confirmation questions asked of the user (the form before a destructive request) per minute per principal, per connection over stdio, on every transport; past it execute_tool answers RATE_LIMITED and the user is not asked; 0 disables' },
  { name: 'includeDomains', metavar: 'd', type: 'list', schema: stringList(z.string().min(1, { error: 'must be a domain name, not empty' })), default: [], flag: '--include-domains', env: 'API_CATALOG_INCLUDE_DOMAINS', file: 'serve.includeDomains', help: 'serve only these domains (comma-separated or repeated)' },
  { name: 'excludeDomains', metavar: 'd', type: 'list', schema: stringList(z.string().min(1, { error: 'must be a domain name, not empty' })), default: [], flag: '--exclude-domains', env: 'API_CATALOG_EXCLUDE_DOMAINS', file: 'serve.excludeDomains', help: 'hide these domains (comma-separated or repeated)' },
  { name: 'excludeTools', metavar: 'glob', type: 'list', schema: stringList(z.string().min(1, { error: 'must be a glob, not empty' })), default: [], flag: '--exclude-tools', env: 'API_CATALOG_EXCLUDE_TOOLS', file: 'serve.excludeTools', help: 'hide operations whose name or operationId matches a glob, e.g. repos/delete-* (comma-separated or repeated)' },
  { name: 'indexCache', path: { keep: ['off'] }, metavar: 'dir', type: 'string', schema: z.string().min(1, { error: 'must be a folder path' }), flag: '--index-cache', env: 'API_CATALOG_INDEX_CACHE', file: 'serve.indexCache', shownDefault: 'api-catalog/index in the user cache folder (~/.cache, or $XDG_CACHE_HOME, on Linux)', help: 'where the search index of several --registry (or of filtered ones) is kept: built once, then restored by later starts and by replicas sharing the folder (`off`: build at every start; one registry uses its own search.snapshot)' },
  { name: 'watch', type: 'boolean', schema: bool, default: true, flag: '--no-watch', negate: true, env: 'API_CATALOG_NO_WATCH', envNegate: true, file: 'serve.watch', help: 'reload the catalogs when a registry\'s catalog.json changes (checked every 0.5 s, after 1 s of quiet; --no-watch turns it off; SIGHUP reloads either way)' },
  { name: 'watchJitterSeconds', metavar: 's', type: 'integer', schema: integer(0, 600), default: 5, flag: '--watch-jitter', env: 'API_CATALOG_WATCH_JITTER_SECONDS', file: 'serve.watchJitterSeconds', help: 'after a change the watch sees, wait a random 0 to this many seconds more before reloading, so replicas sharing a registry volume do not all reload at once (SIGHUP reloads at once); 0: no wait' },
  { name: 'searchLog', path: {}, metavar: 'file', type: 'string', schema: z.string().min(1, { error: 'must be a file path' }), flag: '--search-log', env: 'API_CATALOG_SEARCH_LOG', file: 'serve.searchLog', help: 'append one JSON line per search and per follow-up to this file (queries, result names, scores, hashed session ids; never arguments, credentials or data)' },
  { name: 'searchLogMaxBytes', type: 'integer', schema: integer(4096), default: 10 * 1024 * 1024, flag: '--search-log-max-bytes', env: 'API_CATALOG_SEARCH_LOG_MAX_BYTES', file: 'serve.searchLogMaxBytes', help: 'rotate the search log to <file>.1 at this size, bytes (at least 4096)' },
  { name: 'embeddingsUrl', metavar: 'url', type: 'string', schema: httpUrl, flag: '--embeddings-url', env: 'API_CATALOG_EMBEDDINGS_URL', file: 'serve.embeddings.url', help: 'OpenAI-compatible embeddings endpoint for hybrid search, e.g. http://localhost:11434/v1 (key: env API_CATALOG_EMBEDDINGS_KEY only)' },
  { name: 'embeddingsModel', metavar: 'm', type: 'string', schema: z.string().min(1, { error: 'must be a model name' }), flag: '--embeddings-model', env: 'API_CATALOG_EMBEDDINGS_MODEL', file: 'serve.embeddings.model', help: 'the embedding model the registry\'s vectors were made with' },
  { name: 'embeddingsDimensions', type: 'integer', schema: integer(1), flag: '--embeddings-dimensions', env: 'API_CATALOG_EMBEDDINGS_DIMENSIONS', file: 'serve.embeddings.dimensions', shownDefault: 'the model\'s own', help: 'requested vector size, for models that take one' },
  { name: 'resultTtlSeconds', type: 'integer', schema: integer(1), default: 600, env: 'API_CATALOG_RESULT_TTL_SECONDS', file: 'serve.resultTtlSeconds', help: 'how long truncated results stay readable as resources, seconds' },
  { name: 'maxStoredResults', type: 'integer', schema: integer(1), default: 20, env: 'API_CATALOG_MAX_STORED_RESULTS', file: 'serve.maxStoredResults', help: 'truncated results kept per session (2026-07-28 requests over HTTP: per principal)' },
  // at most 2^31-1 ms (~24.8 days): timers take no more, and a longer one fires at once (every call would time out)
  { name: 'timeoutMs', type: 'integer', schema: integer(1, MAX_TIMER_MS), default: 30_000, env: 'API_CATALOG_TIMEOUT_MS', file: 'serve.timeoutMs', help: 'total upstream time per call, ms: retries, redirects and the body included (also for `api-catalog call`); the 10 s connect timeout of each attempt is fixed' },
  { name: 'maxResponseBytes', type: 'integer', schema: integer(1024), default: 5 * 1024 * 1024, env: 'API_CATALOG_MAX_RESPONSE_BYTES', file: 'serve.maxResponseBytes', help: 'largest upstream response read, bytes, counted after decompression (5242880 is 5 MiB; at least 1024); a larger body is cut there, shown as text and marked truncated' },
  { name: 'shutdownGraceSeconds', metavar: 's', type: 'integer', schema: integer(0, 3600), default: 25, flag: '--shutdown-grace', env: 'API_CATALOG_SHUTDOWN_GRACE_SECONDS', file: 'serve.shutdownGraceSeconds', help: 'on SIGTERM/SIGINT, how long calls in flight may finish before the process exits (new requests are refused at once; a second signal exits at once), seconds' },
  { name: 'auditLog', path: {}, metavar: 'file', type: 'string', schema: z.string().min(1, { error: 'must be a file path' }), flag: '--audit-log', env: 'API_CATALOG_AUDIT_LOG', file: 'serve.auditLog', shownDefault: 'the log stream (stderr)', help: 'write the audit log (one JSON line per execute_tool: who, which operation, outcome, upstream status; never arguments) to this file, mode 0600, instead of the log stream' },
  { name: 'auditLogMaxBytes', type: 'integer', schema: integer(4096), default: 10 * 1024 * 1024, flag: '--audit-log-max-bytes', env: 'API_CATALOG_AUDIT_LOG_MAX_BYTES', file: 'serve.auditLogMaxBytes', help: 'rotate the audit log to <file>.1 at this size, bytes (at least 4096)' },
  {
    name: 'logLevel', type: 'string', default: 'info', env: 'API_CATALOG_LOG_LEVEL', file: 'serve.logLevel',
    schema: z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be one of debug, info, warn, error' }),
    help: 'least severe log level written to stderr',
  },
  { name: 'http', type: 'boolean', schema: bool, default: false, flag: '--http', help: 'serve Streamable HTTP instead of stdio' },
  { name: 'host', metavar: 'h', type: 'string', schema: z.string().min(1, { error: 'must be a host name or address' }), default: '127.0.0.1', flag: '--host', env: 'API_CATALOG_HOST', file: 'serve.http.host', http: true, help: 'bind address; non-loopback needs --allow-remote' },
  { name: 'port', type: 'integer', schema: integer(0, 65535), default: 3333, flag: '--port', env: 'API_CATALOG_PORT', file: 'serve.http.port', http: true, help: 'port; 0 picks a free one' },
  { name: 'allowOrigins', metavar: 'o', type: 'list', schema: stringList(z.string().min(1, { error: 'must be an Origin (https://host[:port]), not empty' })), default: [], flag: '--allow-origin', env: 'API_CATALOG_ALLOW_ORIGINS', concat: true, file: 'serve.http.allowOrigins', http: true, help: "browser Origin values allowed besides loopback, the --public-url's origin and the page's own (an Origin equal to the request's allowed Host)" },
  { name: 'allowRemote', type: 'boolean', schema: bool, default: false, flag: '--allow-remote', http: true, help: 'allow a non-loopback bind (needs API_CATALOG_HTTP_TOKEN, --tokens or --oauth-issuer)' },
  { name: 'allowHosts', metavar: 'h', type: 'list', schema: stringList(allowedHost), default: [], flag: '--allow-host', env: 'API_CATALOG_ALLOW_HOSTS', concat: true, file: 'serve.http.allowHosts', http: true, help: 'extra Host header values, name or name:port (e.g. what a proxy forwards)' },
  { name: 'authToken', type: 'string', schema: z.string(), env: 'API_CATALOG_HTTP_TOKEN', secret: true, http: true, help: 'static bearer token every request must carry (16+ characters; env only)' },
  { name: 'tokensFile', path: {}, metavar: 'file', type: 'string', schema: z.string().min(1, { error: 'must be a file path' }), flag: '--tokens', env: 'API_CATALOG_TOKENS_FILE', file: 'serve.http.tokensFile', http: true, help: 'named bearer tokens, one "<name> <scopes> sha256:<hash>" per line (api-catalog token new); each name is a principal; re-read on change' },
  { name: 'oauthIssuer', metavar: 'url', type: 'string', schema: secureUrl, flag: '--oauth-issuer', env: 'API_CATALOG_OAUTH_ISSUER', file: 'serve.http.oauthIssuer', http: true, help: 'accept OAuth JWT access tokens of this authorization server' },
  { name: 'publicUrl', metavar: 'url', type: 'string', schema: secureUrl, flag: '--public-url', env: 'API_CATALOG_PUBLIC_URL', file: 'serve.http.publicUrl', http: true, shownDefault: 'http://<host>:<port>/mcp, from the listen address', help: 'this server\'s URL as clients reach it: the OAuth audience' },
  { name: 'oauthKeysMaxAgeSeconds', type: 'integer', schema: integer(1), default: 600, env: 'API_CATALOG_OAUTH_KEYS_MAX_AGE_SECONDS', file: 'serve.http.oauthKeysMaxAgeSeconds', http: true, help: 'how long the OAuth issuer\'s signing keys are used without fetching them again; an issuer that stays down longer makes the replica unready, seconds' },
  { name: 'stateUrl', metavar: 'url', type: 'string', schema: z.string().min(1, { error: 'must be a redis:// URL' }), flag: '--state', env: 'API_CATALOG_STATE', http: true, secret: true, shownDefault: 'in memory, this process only', help: 'shared state for several replicas: redis://[user:password@]host:port[/db] (password: use the env var)' },
  { name: 'requireState', type: 'boolean', schema: bool, default: false, flag: '--require-state', env: 'API_CATALOG_REQUIRE_STATE', file: 'serve.http.requireState', http: true, help: 'this replica is one of several: refuse to start without --state (legacy sessions and rate limits must be shared)' },
  { name: 'explorer', type: 'boolean', schema: bool, default: true, flag: '--no-explorer', negate: true, env: 'API_CATALOG_NO_EXPLORER', envNegate: true, file: 'serve.http.explorer', http: true, help: 'serve the catalog explorer page at / (--no-explorer turns it off)' },
  { name: 'maxBodyBytes', type: 'integer', schema: integer(1024), default: 1024 * 1024, env: 'API_CATALOG_MAX_BODY_BYTES', file: 'serve.http.maxBodyBytes', http: true, help: 'largest accepted POST body, bytes' },
  { name: 'maxSessions', type: 'integer', schema: integer(1), default: 1000, env: 'API_CATALOG_MAX_SESSIONS', file: 'serve.http.maxSessions', http: true, help: 'live legacy MCP sessions at most; initialize beyond gets 503 (2026-07-28 requests open none)' },
] as const satisfies readonly OptionSpec[];

type Entry = (typeof SERVE_OPTIONS)[number];

/** The resolved value of every option, typed from its entry (absent optional ones are undefined). */
export type ResolvedOptions = {
  [E in Entry as E['name']]: E extends { default: unknown } ? z.output<E['schema']> : z.output<E['schema']> | undefined;
};

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type FlagKey<F extends string> = F extends `--no-${infer R}` ? Camel<R> : F extends `--${infer R}` ? Camel<R> : never;

/**
 * The `serve` flags as parsed from argv, typed from the table: `--allow-host h` -> `allowHost: string[]` (lists
 * repeat), `--port 7` -> `port: '7'`, `--read-only` -> `readOnly: true`, `--no-require-describe` ->
 * `requireDescribe: false`.
 */
export type ServeFlags = {
  [E in Entry as E extends { flag: string } ? FlagKey<E['flag']> : never]?: E['type'] extends 'boolean' ? boolean : E['type'] extends 'list' ? string[] : string;
};

/** `--allow-host` -> `allowHost`, `--no-require-describe` -> `requireDescribe` (the ServeFlags key). */
export function flagKey(flag: string): string {
  return flag
    .replace(/^--(no-)?/, '')
    .replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * The HTTP-only flags given on the command line without `--http` (`--port`, `--host`, `--allow-remote`, `--tokens`,
 * ...): serve over stdio would ignore them, so the CLI refuses them instead (a person typing `serve --port 8080`
 * expects a web server, not a stdio server waiting on the terminal). The same options from the environment or the
 * config file stay silent: one config serves both transports (a desktop client launches stdio with it).
 */
export function httpFlagsWithoutHttp(flags: ServeFlags): string[] {
  const f = flags as Record<string, unknown>;
  if (f.http === true) return [];
  return (SERVE_OPTIONS as readonly OptionSpec[]).filter((o) => o.http === true && o.flag !== undefined && f[flagKey(o.flag)] !== undefined).map((o) => o.flag as string);
}

/**
 * A default as shown in --help, docs/CONFIGURATION.md and the JSON Schema: `shownDefault` (a default the code
 * computes), else the declared `default`, else "-" (unset: the feature is off).
 */
export function shownDefault(o: OptionSpec): string {
  if (o.shownDefault !== undefined) return o.shownDefault;
  if (o.default === undefined) return '-';
  if (Array.isArray(o.default)) return o.default.length === 0 ? 'none' : o.default.join(', ');
  return o.default === '' ? 'none' : String(o.default);
}

/** The option table as text for `serve --help`: flag, env var, config-file key, default, then what it does. */
export function optionsHelp(): string {
  const rows = (SERVE_OPTIONS as readonly OptionSpec[]).map((o) => {
    const flag = o.flag === undefined ? '' : o.type === 'boolean' ? o.flag : `${o.flag} <${o.metavar ?? (o.type === 'integer' ? 'n' : 'v')}>`;
    const where = [o.env, o.file].filter(Boolean).join(', ');
    return `  ${(flag || '(no flag)').padEnd(24)} ${o.help}${o.http ? ' [--http]' : ''}\n  ${''.padEnd(24)} ${where ? `${where}; ` : ''}default: ${shownDefault(o)}`;
  });
  return rows.join('\n');
}

/** The option table as a Markdown table (docs/CONFIGURATION.md). */
export function optionsMarkdown(): string {
  const code = (v: string | undefined): string => (v === undefined ? '' : `\`${v}\``);
  const html = (v: string): string => v.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const lines = ['| option | flag | environment | config file | default |', '|---|---|---|---|---|'];
  for (const o of SERVE_OPTIONS as readonly OptionSpec[]) {
    const help = html(o.help);
    lines.push(`| ${help}${o.http ? ' (HTTP)' : ''} | ${code(o.flag)} | ${code(o.env)} | ${code(o.file)} | ${html(shownDefault(o))} |`);
  }
  return lines.join('\n');
}
