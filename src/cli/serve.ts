// `api-catalog serve`: loads the catalogs, then serves MCP over stdio (default) or Streamable HTTP (--http).
// Logs are JSON lines on stderr; stdout carries nothing but the protocol in stdio mode.
import { configuredCredentialNames, readConfigFile, resolveServerConfig, secretLookingEnv, type ConfigFile, type ServerConfig } from '../config.js';
import { parseServeArgs } from './args.js';
import { createLogger, type LogLevel, type Logger } from '../logger.js';
import { attachEmbeddings, loadCatalogSet, settingsFromConfig, warmSearchIndex, type CatalogSet } from '../server/core/catalogs.js';
import type { ServerDeps } from '../server/create-server.js';
import { SearchLog } from '../server/search-log.js';
import { describeStateStore, openStateStore, RedisStateStore, type StateStore } from '../state/index.js';

const HELP = `usage: api-catalog serve [options]

Serves the four meta-tools over MCP: stdio by default, Streamable HTTP with --http.

  --registry <dir>       a registry folder (repeatable); default: the embedded GitHub catalog
  --base-url <url>       upstream base URL for the first catalog (or env <CATALOG>_BASE_URL)
  --config <file.json>   per-catalog settings (or env API_CATALOG_CONFIG): baseUrl, credentials (env var
                         NAMES), idempotencyHeader, allowedOrigins, blockPrivateAddresses; see docs/config.example.json
  --read-only            refuse every operation that is not GET/HEAD
  --include-domains <d>  serve only these domains (comma-separated or repeated; or API_CATALOG_INCLUDE_DOMAINS)
  --exclude-domains <d>  leave these domains out (or API_CATALOG_EXCLUDE_DOMAINS)
  --exclude-tools <glob> leave out operations whose name or operationId matches, e.g. 'repos_delete*'
                         (or API_CATALOG_EXCLUDE_TOOLS). Filtered operations cannot be listed, searched,
                         described or executed; an unknown domain or a glob matching nothing stops the start
  --prefix <p>           prefix the four tool names (or env API_CATALOG_TOOL_PREFIX)
  --no-require-describe  allow execute_tool without a prior describe_tools
  --http                 Streamable HTTP at http://<host>:<port>/mcp
    --host <h>           bind address (default 127.0.0.1; others need --allow-remote)
    --port <n>           default 3333
    --allow-origin <o>   allow a browser Origin (repeatable)
    --allow-remote       allow binding a non-loopback address; needs API_CATALOG_HTTP_TOKEN (refuses to start
                         without it). Host headers accepted: loopback, the bound address, --allow-host
    --allow-host <h>     also accept this Host header, name or name:port (repeatable; or API_CATALOG_ALLOW_HOSTS)
    --no-explorer        do not serve the catalog explorer page at http://<host>:<port>/ (or API_CATALOG_NO_EXPLORER=1)
  --search-log <file>    append one JSON line per search and per follow-up (describe/execute of a result) to
                         <file> (or API_CATALOG_SEARCH_LOG); queries, result names, scores, hashed session ids:
                         never arguments, credentials or response data. Off by default
    --search-log-max-bytes <n>  rotate to <file>.1 at this size (default 10485760; one .1 file is kept)

    --state <url>        shared state for several replicas: redis://[user:password@]host:port[/db] (or env
                         API_CATALOG_STATE; put a password in the env, not on the command line). Sessions,
                         describe authorizations, rate limits and stored results then live in Redis, and any
                         replica serves any session (no sticky routing). Default: in memory, one process
  --rate-limit <n>       execute_tool calls per minute per principal (env API_CATALOG_RATE_LIMIT; default 120;
                         0 = off). Protects the upstream API
  --read-rate-limit <n>  list_domains/search_tools/describe_tools calls per minute per principal (env
                         API_CATALOG_READ_RATE_LIMIT; default: unlimited over stdio, 600 over HTTP; 0 = off)

Semantic search (off by default; no network unless configured):
  --embeddings-url <url>         OpenAI-compatible embeddings endpoint, e.g. https://api.openai.com/v1 or
                                 http://localhost:11434/v1 (or env API_CATALOG_EMBEDDINGS_URL)
  --embeddings-model <m>         the model the registry's vectors were made with (or API_CATALOG_EMBEDDINGS_MODEL)
  --embeddings-dimensions <n>    requested vector size, if the model takes one (or API_CATALOG_EMBEDDINGS_DIMENSIONS)
  Key: env API_CATALOG_EMBEDDINGS_KEY only (API_CATALOG_EMBEDDINGS_AUTH=api-key for Azure); query timeout
  API_CATALOG_EMBEDDINGS_TIMEOUT_MS (1500). Vectors come from \`import --embeddings-url\` or \`api-catalog embed\`.
  If the endpoint is down or slow, or the vectors do not match the model, search answers lexically and says so.

HTTP authentication: set API_CATALOG_HTTP_TOKEN (at least 16 characters, e.g. \`openssl rand -hex 32\`) in the
environment — never on the command line, where \`ps\` shows it. Every /mcp request must then carry
\`Authorization: Bearer <token>\` (else 401). The token is never sent upstream and never logged.
API_CATALOG_ALLOW_HOSTS=name[:port],... adds Host header values (e.g. the name a proxy forwards).

Catalog explorer (with --http): open http://<host>:<port>/ in a browser to see the domains, search with the
agents' ranking and scores, read describe_tools at each level with its token count, dry-run a call, read the
import report and the search log. Deep links: /?q=<query>, /?tool=<name>, /?domain=<name>. With
API_CATALOG_HTTP_TOKEN set, the page asks for the token once and keeps an HttpOnly cookie derived from it.


A principal is who authenticated a request: the API_CATALOG_HTTP_TOKEN holder, or "anonymous" on loopback
without a token. Sessions are bound to the principal that created them; rate limits count per principal.
GET /healthz answers 200 {"status":"ok"} or 503 {"status":"degraded"} when the state store is unreachable.

Environment: API_CATALOG_SESSION_TTL_SECONDS (1800), API_CATALOG_RATE_LIMIT (120 execute_tool calls/min/principal),
API_CATALOG_TIMEOUT_MS (30000), API_CATALOG_LOG_LEVEL (info), API_CATALOG_READ_ONLY, <CATALOG>_TOKEN etc.
Exit codes: 0 after stdin EOF, SIGINT or SIGTERM; 1 when a stdio message exceeds 10 MiB or on a startup error.`;

function depsFrom(config: ServerConfig, set: CatalogSet, logger: Logger, file?: ConfigFile): ServerDeps {
  const settings = settingsFromConfig(config, set, process.env, file);
  return {
    catalogs: set,
    settings,
    toolPrefix: config.toolPrefix,
    requireDescribe: config.requireDescribe,
    sessionTtlMs: config.sessionTtlMs,
    rateLimitPerMinute: config.rateLimitPerMinute,
    ...(config.readRateLimitPerMinute !== undefined ? { readRateLimitPerMinute: config.readRateLimitPerMinute } : {}),
    resultTtlMs: config.resultTtlMs,
    maxStoredResults: config.maxStoredResults,
    logger,
  };
}

function onSignals(handler: (signal: string) => void): void {
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => handler(s));
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const flags = parseServeArgs(argv);
  const config = resolveServerConfig(flags, process.env);
  const level = (process.env.API_CATALOG_LOG_LEVEL ?? 'info') as LogLevel;
  const logger = createLogger({ write: (line) => process.stderr.write(line), minLevel: ['debug', 'info', 'warn', 'error'].includes(level) ? level : 'info' });
  for (const secret of secretLookingEnv(process.env)) logger.addSecret(secret);
  logger.addSecret(process.env.API_CATALOG_HTTP_TOKEN);
  const file = config.configPath !== undefined ? readConfigFile(config.configPath) : undefined;
  // Credentials under operator-chosen names may not look like secrets by name: register their values too.
  for (const name of configuredCredentialNames(file)) {
    const v = process.env[name];
    if (v !== undefined && v !== '') logger.addSecret(v);
  }
  const set = loadCatalogSet(config.registries, config.filters);
  const filteredOut = set.catalogs.reduce((n, c) => n + (c.filteredOut ?? 0), 0);
  if (filteredOut > 0) process.stderr.write(`api-catalog: --include-domains/--exclude-domains/--exclude-tools leave out ${filteredOut} operation(s)\n`);
  for (const c of set.catalogs) {
    if (c.skipped.length === 0) continue;
    const first = c.skipped[0] as { pointer: string; message: string };
    logger.log('warn', { event: 'catalog_incomplete', catalog: c.meta.name, skippedOperations: c.skipped.length });
    process.stderr.write(
      `api-catalog: warning: ${c.meta.name} lacks ${c.skipped.length} operation(s) its import skipped (first: ${first.message}); see ${c.dir}/diagnostics.json\n`,
    );
  }
  // Embeddings endpoint (off by default): loaded only when configured; mismatched vectors warn and search lexically.
  if (flags.embeddings !== undefined || process.env.API_CATALOG_EMBEDDINGS_URL) {
    const { resolveEmbeddingsConfig } = await import('../embeddings/config.js');
    const embeddings = resolveEmbeddingsConfig(flags.embeddings ?? {}, process.env);
    if (embeddings !== undefined) {
      const semantic = await attachEmbeddings(set, embeddings, { logger });
      const mode = semantic.describe();
      process.stderr.write(`api-catalog: search: ${mode}\n`);
      if (!semantic.usable || semantic.catalogs.some((c) => !c.usable)) {
        for (const c of semantic.catalogs.filter((x) => !x.usable)) process.stderr.write(`api-catalog: warning: embeddings for ${c.catalog}: ${c.problem}\n`);
      }
    }
  }
  const deps = depsFrom(config, set, logger, file);
  if (config.searchLog !== undefined) {
    // The same values the logger redacts: credential-looking env vars, the HTTP token, the config file's credentials.
    const named = configuredCredentialNames(file).map((n) => process.env[n] ?? '');
    const secrets = [...secretLookingEnv(process.env), process.env.API_CATALOG_HTTP_TOKEN ?? '', ...named].filter((v) => v !== '');
    deps.searchLog = new SearchLog({ file: config.searchLog.file, maxBytes: config.searchLog.maxBytes, logger, secrets });
  }
  const what = set.catalogs.map((c) => `${c.meta.title} (${c.operations.length} operations)`).join(', ');

  // An idle server builds its search index within a second even if no client has listed tools yet.
  setTimeout(() => warmSearchIndex(set), 1000).unref();

  if (config.http) {
    const h = config.http;
    // The store URL may hold a password: registered as a secret before anything can print it.
    if (config.stateUrl !== undefined) {
      try {
        const u = new URL(config.stateUrl);
        logger.addSecret(u.password);
        logger.addSecret(decodeURIComponent(u.password));
      } catch {
        // openStateStore reports the bad URL without echoing it.
      }
    }
    const state: StateStore = openStateStore(config.stateUrl, { logger });
    if (state instanceof RedisStateStore && !(await state.waitUntilReady(5000))) {
      process.stderr.write(`api-catalog: warning: the state store ${describeStateStore(config.stateUrl)} is not reachable yet; serving degraded (/healthz 503) and retrying\n`);
    }
    deps.state = state;
    // Transports load on demand: stdio clients never pay for the HTTP stack, and the reverse.
    const { serveHttp } = await import('../server/transports/http.js');
    const handle = await serveHttp(deps, {
      host: h.host,
      port: h.port,
      allowOrigins: h.allowOrigins,
      allowRemote: h.allowRemote,
      allowHosts: h.allowHosts,
      ...(h.authToken !== undefined ? { authToken: h.authToken } : {}),
      maxBodyBytes: h.maxBodyBytes,
      headersTimeoutMs: h.headersTimeoutMs,
      requestTimeoutMs: h.requestTimeoutMs,
      keepAliveTimeoutMs: h.keepAliveTimeoutMs,
      maxSessions: h.maxSessions,
      explorer: h.explorer,
    });
    // The token itself is never printed: the config shows where it goes.
    const clientConfig = {
      mcpServers: {
        'api-catalog': {
          type: 'http',
          url: handle.url,
          ...(h.authToken !== undefined ? { headers: { Authorization: 'Bearer <API_CATALOG_HTTP_TOKEN>' } } : {}),
        },
      },
    };
    process.stderr.write(
      [
        `api-catalog: serving ${what} over Streamable HTTP`,
        `  URL: ${handle.url}`,
        ...(h.explorer ? [`  Catalog explorer: ${handle.url.replace(/\/mcp$/, '/')}`] : []),
        '  Client config (Claude Desktop, Cursor, VS Code "servers"):',
        '  ' + JSON.stringify(clientConfig),
        '  Upstream credential per session: send header X-Upstream-Token, or set the env vars describe_tools names.',
        `  State: ${describeStateStore(config.stateUrl)}${state.shared ? ' (shared: replicas serve each other\'s sessions)' : ' (this process only)'}; health: ${handle.url.replace(/\/mcp$/, '')}/healthz`,
        '  Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
    await new Promise<void>((resolve) => {
      onSignals((signal) => {
        logger.log('info', { event: 'shutdown', signal });
        void handle
          .close()
          .then(() => state.close())
          .then(resolve, resolve);
      });
    });
    return 0;
  }

  process.stderr.write(`api-catalog: serving ${what} over stdio\n`);
  const { serveStdio } = await import('../server/transports/stdio.js');
  const handle = await serveStdio(deps, { logger });
  onSignals((signal) => {
    logger.log('info', { event: 'shutdown', signal });
    void handle.close();
  });
  const reason = await handle.closed;
  const code = reason === 'overflow' ? 1 : 0;
  logger.log('info', { event: 'exit', reason, code });
  // In-flight upstream sockets were aborted; do not let keep-alive handles hold the process open.
  setTimeout(() => process.exit(code), 100).unref();
  return code;
}
