// `api-catalog serve`: loads the catalogs, then serves MCP over stdio (default) or Streamable HTTP (--http).
// Logs are JSON lines on stderr; stdout carries nothing but the protocol in stdio mode.
import { configuredCredentialNames, readConfigFile, resolveServerConfig, secretLookingEnv, type ConfigFile, type ServerConfig } from '../config.js';
import { parseServeArgs } from './args.js';
import { createLogger, type LogLevel, type Logger } from '../logger.js';
import { loadCatalogSet, settingsFromConfig, warmSearchIndex, type CatalogSet } from '../server/core/catalogs.js';
import { preloadExecutor, type ServerDeps } from '../server/create-server.js';

const HELP = `usage: api-catalog serve [options]

Serves the four meta-tools over MCP: stdio by default, Streamable HTTP with --http.

  --registry <dir>       a registry folder (repeatable); default: the embedded GitHub catalog
  --base-url <url>       upstream base URL for the first catalog (or env <CATALOG>_BASE_URL)
  --config <file.json>   per-catalog settings (or env API_CATALOG_CONFIG): baseUrl, credentials (env var
                         NAMES), idempotencyHeader, allowedOrigins, blockPrivateAddresses; see docs/config.example.json
  --read-only            refuse every operation that is not GET/HEAD
  --prefix <p>           prefix the four tool names (or env API_CATALOG_TOOL_PREFIX)
  --no-require-describe  allow execute_tool without a prior describe_tools
  --http                 Streamable HTTP at http://<host>:<port>/mcp
    --host <h>           bind address (default 127.0.0.1; others need --allow-remote)
    --port <n>           default 3333
    --allow-origin <o>   allow a browser Origin (repeatable)
    --allow-remote       allow binding a non-loopback address; needs API_CATALOG_HTTP_TOKEN (refuses to start
                         without it). Host headers accepted: loopback, the bound address, --allow-host
    --allow-host <h>     also accept this Host header, name or name:port (repeatable; or API_CATALOG_ALLOW_HOSTS)

HTTP authentication: set API_CATALOG_HTTP_TOKEN (at least 16 characters, e.g. \`openssl rand -hex 32\`) in the
environment — never on the command line, where \`ps\` shows it. Every /mcp request must then carry
\`Authorization: Bearer <token>\` (else 401). The token is never sent upstream and never logged.
API_CATALOG_ALLOW_HOSTS=name[:port],... adds Host header values (e.g. the name a proxy forwards).

Environment: API_CATALOG_SESSION_TTL_SECONDS (1800), API_CATALOG_RATE_LIMIT (120 calls/min/session),
API_CATALOG_TIMEOUT_MS (30000), API_CATALOG_LOG_LEVEL (info), API_CATALOG_READ_ONLY, <CATALOG>_TOKEN etc.
API_CATALOG_STARTUP_TRACE=1 prints one JSON line on stderr saying where start-up went (for npm run bench).
A registry's search.snapshot (written by import) is used when it matches the registry; else the index is built.
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
    resultTtlMs: config.resultTtlMs,
    maxStoredResults: config.maxStoredResults,
    logger,
  };
}

/**
 * API_CATALOG_STARTUP_TRACE=1: once the search index is ready, one JSON line on stderr with the start-up marks
 * (ms since the process started): what `npm run bench` reports as "where start-up goes".
 */
function traceStartup(set: CatalogSet): void {
  let waited = 0;
  const timer = setInterval(() => {
    if (performance.getEntriesByName('api-catalog:index-ready').length === 0) return;
    // also wait (up to 10 s) for the first tools/list when the idle warm-up finished before it
    if (performance.getEntriesByName('api-catalog:tools-list').length === 0 && (waited += 20) < 10_000) return;
    clearInterval(timer);
    const marks: Record<string, number> = { 'node-bootstrap': performance.nodeTiming.bootstrapComplete };
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('api-catalog:')) marks[m.name.slice(12)] = m.startTime;
    const index = set.indexSource;
    const cpu = process.cpuUsage();
    const cpuMs = (cpu.user + cpu.system) / 1000;
    process.stderr.write(JSON.stringify({ event: 'startup_trace', marks, index, cpuMs, rssMB: process.memoryUsage().rss / 1048576 }) + '\n');
  }, 20);
  timer.unref();
}

function onSignals(handler: (signal: string) => void): void {
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => handler(s));
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  performance.mark('api-catalog:serve-module');
  const config = resolveServerConfig(parseServeArgs(argv), process.env);
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
  const set = loadCatalogSet(config.registries, { logger });
  for (const c of set.catalogs) {
    if (c.skipped.length === 0) continue;
    const first = c.skipped[0] as { pointer: string; message: string };
    logger.log('warn', { event: 'catalog_incomplete', catalog: c.meta.name, skippedOperations: c.skipped.length });
    process.stderr.write(
      `api-catalog: warning: ${c.meta.name} lacks ${c.skipped.length} operation(s) its import skipped (first: ${first.message}); see ${c.dir}/diagnostics.json\n`,
    );
  }
  const deps = depsFrom(config, set, logger, file);
  // The operation count from catalog.json: the operations themselves are read on first use, not here.
  const what = set.catalogs.map((c) => `${c.meta.title} (${c.meta.operationCount} operations)`).join(', ');
  performance.mark('api-catalog:catalogs');
  if (process.env.API_CATALOG_STARTUP_TRACE === '1') traceStartup(set);

  // An idle server builds its search index within a second even if no client has listed tools yet.
  setTimeout(() => {
    warmSearchIndex(set, logger);
    void preloadExecutor().catch(() => undefined);
  }, 1000).unref();

  if (config.http) {
    const h = config.http;
    // A long-running HTTP server is ready when it can answer: the operations and search index are prepared before
    // it listens. Prepared later, a large merged index (several catalogs have no snapshot) blocks the event loop
    // for as long as it builds, and requests already accepted run into the header/request timeouts.
    warmSearchIndex(set, logger);
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
        '  Client config (Claude Desktop, Cursor, VS Code "servers"):',
        '  ' + JSON.stringify(clientConfig),
        '  Upstream credential per session: send header X-Upstream-Token, or set the env vars describe_tools names.',
        '  Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
    await new Promise<void>((resolve) => {
      onSignals((signal) => {
        logger.log('info', { event: 'shutdown', signal });
        void handle.close().then(resolve, resolve);
      });
    });
    return 0;
  }

  process.stderr.write(`api-catalog: serving ${what} over stdio\n`);
  const { serveStdio } = await import('../server/transports/stdio.js');
  const handle = await serveStdio(deps, { logger });
  performance.mark('api-catalog:connected');
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
