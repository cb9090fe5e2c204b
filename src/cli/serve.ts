// `api-catalog serve`: loads the catalogs, then serves MCP over stdio (default) or Streamable HTTP (--http).
// Logs are JSON lines on stderr; stdout carries nothing but the protocol in stdio mode.
import { configuredCredentialNames, loadServerConfig, optionsHelp, secretLookingEnv, type ConfigFile, type ServerConfig } from '../config.js';
import { parseServeArgs } from './args.js';
import { clientConfigLines, listenError } from './serve-messages.js';
import { config as zodConfig } from 'zod';
import { mark, marked, markTimes } from '../startup-marks.js';
import { createLogger, type Logger } from '../logger.js';
import { attachEmbeddings, loadCatalogSet, settingsFromConfig, warmSearchIndex, type CatalogSet } from '../server/core/catalogs.js';
import { defaultIndexCacheDir } from '../server/core/index-cache.js';
import { serveInput } from './probe.js';
import { preloadExecutor, type ServerDeps } from '../server/create-server.js';
import { SearchLog } from '../server/search-log.js';
import { Signer, resolveSigner } from '../server/signing.js';
import { describeStateStore, openStateStore, type StateStore } from '../state/index.js';

const HELP = `usage: api-catalog serve [options]

Serves the four meta-tools over MCP: stdio by default, Streamable HTTP with --http (http://<host>:<port>/mcp).
Every option below can come from a flag, an environment variable or the config file (--config; its keys are
shown, e.g. serve.http.port); flags win over the environment, the environment over the file. Lists from
--allow-origin / --allow-host and their sources add up. See docs/config.example.json and docs/config.schema.json.

${optionsHelp()}

The config file also holds per-catalog settings (catalogs.<name>: baseUrl, credentials as env var NAMES,
idempotencyHeader, allowedOrigins, blockPrivateAddresses); upstream credentials come from <CATALOG>_TOKEN,
_API_KEY, _USERNAME, _PASSWORD (or the names the file gives) and <CATALOG>_BASE_URL overrides a base URL.

Filters (--include-domains, --exclude-domains, --exclude-tools): filtered operations cannot be listed, searched,
described or executed; an unknown domain or a glob matching nothing stops the start.

HTTP authentication: set API_CATALOG_HTTP_TOKEN (at least 16 characters, e.g. \`openssl rand -hex 32\`) in the
environment — never on the command line, where \`ps\` shows it. Every /mcp request must then carry
\`Authorization: Bearer <token>\` (else 401). The token is never sent upstream and never logged.
With --oauth-issuer, clients find the issuer at /.well-known/oauth-protected-resource and send its access
tokens for the --public-url resource (scopes catalog:read for list/search/describe and resources,
catalog:execute for execute_tool); API_CATALOG_HTTP_TOKEN, when also set, is accepted as well.
--allow-remote binds a non-loopback address only with one of them; Host headers accepted: loopback, the bound
address, the --public-url host and --allow-host values.

Protocol eras: one endpoint (stdio, or /mcp over HTTP) serves MCP 2026-07-28 clients (no handshake, no session:
every request stands alone) and handshake-era clients (initialize; 2024-10-07 ... 2025-11-25) alike.
describe_tools answers carry a signed "handle" per operation that execute_tool takes: over 2026-07-28 HTTP it is
the proof of the describe (any replica checks it); where a connection or legacy session remembers describes it
is optional. API_CATALOG_SIGNING_KEY (32+ characters, env only) is the key; unset, one is generated (and shared
through --state when given).

Several replicas: 2026-07-28 clients need no shared store, only the same API_CATALOG_SIGNING_KEY on every replica
(or --state). --state redis://... is what legacy sessions need (any replica serves any session, no sticky
routing), and it shares rate limits and stored large results between replicas. A principal is who authenticated
a request (the API_CATALOG_HTTP_TOKEN holder, an OAuth subject, or "anonymous" on loopback); legacy sessions,
handles and stored results are bound to it and rate limits count per principal. GET /healthz answers 200
{"status":"ok"} or 503 {"status":"degraded"} when the state store is unreachable.

Catalog explorer (with --http): open http://<host>:<port>/ in a browser to see the domains, search with the
agents' ranking and scores, read describe_tools at each level with its token count, dry-run a call, read the
import report and the search log. Deep links: /?q=<query>, /?tool=<name>, /?domain=<name>. With
API_CATALOG_HTTP_TOKEN set, the page asks for the token once and keeps an HttpOnly cookie derived from it.

Semantic search (off by default; no network unless configured): key from env API_CATALOG_EMBEDDINGS_KEY only
(API_CATALOG_EMBEDDINGS_AUTH=api-key for Azure); query timeout API_CATALOG_EMBEDDINGS_TIMEOUT_MS (1500). Vectors
come from \`import --embeddings-url\` or \`api-catalog embed\`. If the endpoint is down or slow, or the vectors do
not match the model, search answers lexically and says so.

API_CATALOG_STARTUP_TRACE=1 prints one JSON line on stderr saying where start-up went (for npm run bench).
A registry's search.snapshot (written by import) is used when it matches the registry; else the index is built.
Exit codes: 0 after stdin EOF, SIGINT or SIGTERM; 1 when a stdio message exceeds 10 MiB or on a startup error.`;

/** Where the HTTP server's signing key came from, for the start-up banner (never the key). */
const SIGNING_SOURCES = {
  env: 'API_CATALOG_SIGNING_KEY',
  state: 'generated once, shared through the state store',
  process: 'random for this process (replicas behind one balancer need API_CATALOG_SIGNING_KEY or --state)',
} as const;

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

/**
 * API_CATALOG_STARTUP_TRACE=1: once the search index is ready, one JSON line on stderr with the start-up marks
 * (ms since the process started): what `npm run bench` reports as "where start-up goes".
 */
function traceStartup(set: CatalogSet): void {
  let waited = 0;
  const timer = setInterval(() => {
    if (!marked('index-ready')) return;
    // also wait (up to 10 s) for the first tools/list when the idle warm-up finished before it
    if (!marked('tools-list') && (waited += 20) < 10_000) return;
    clearInterval(timer);
    const marks: Record<string, number> = { 'node-bootstrap': performance.nodeTiming.bootstrapComplete, ...markTimes() };
    const index = set.indexSource;
    const cpu = process.cpuUsage();
    const cpuMs = (cpu.user + cpu.system) / 1000;
    // operations files parsed by then: none when the index came from a snapshot and nothing was described yet
    const parsedFiles = set.catalogs.reduce((n, c) => n + (c.parsedFiles?.().length ?? 0), 0);
    process.stderr.write(JSON.stringify({ event: 'startup_trace', marks, index, parsedFiles, cpuMs, rssMB: process.memoryUsage().rss / 1048576 }) + '\n');
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
  mark('serve-module');
  const { config, file } = loadServerConfig(parseServeArgs(argv), process.env);
  const logger = createLogger({ write: (line) => process.stderr.write(line), minLevel: config.logLevel });
  for (const secret of secretLookingEnv(process.env)) logger.addSecret(secret);
  logger.addSecret(process.env.API_CATALOG_HTTP_TOKEN);
  const signingKey = config.options.signingKey as string | undefined;
  logger.addSecret(signingKey);
  // Credentials under operator-chosen names may not look like secrets by name: register their values too.
  for (const name of configuredCredentialNames(file)) {
    const v = process.env[name];
    if (v !== undefined && v !== '') logger.addSecret(v);
  }
  // the index of several (or filtered) catalogs is cached by default (index-cache.ts); `--index-cache off`: never
  const indexCache = config.indexCache === false ? undefined : (config.indexCache ?? defaultIndexCacheDir());
  const set = loadCatalogSet(config.registries, { filters: config.filters, logger, ...(indexCache !== undefined ? { indexCache } : {}) });
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
  if (config.embeddings !== undefined || process.env.API_CATALOG_EMBEDDINGS_URL) {
    const { resolveEmbeddingsConfig } = await import('../embeddings/config.js');
    const embeddings = resolveEmbeddingsConfig(config.embeddings ?? {}, process.env);
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
  // The operation count from catalog.json (recounted by the filters): the operations are read on first use, not here.
  const what = set.catalogs.map((c) => `${c.meta.title} (${c.meta.operationCount} operations)`).join(', ');
  mark('catalogs');
  if (process.env.API_CATALOG_STARTUP_TRACE === '1') traceStartup(set);

  // An idle server builds its search index within a second even if no client has listed tools yet.
  setTimeout(() => {
    warmSearchIndex(set, logger);
    void preloadExecutor().catch(() => undefined);
  }, 1000).unref();

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
    const state: StateStore = await openStateStore(config.stateUrl, { logger });
    const ready = (state as { waitUntilReady?: (ms: number) => Promise<boolean> }).waitUntilReady;
    if (ready !== undefined && !(await ready.call(state, 5000))) {
      process.stderr.write(`api-catalog: warning: the state store ${describeStateStore(config.stateUrl)} is not reachable yet; serving degraded (/healthz 503) and retrying\n`);
    }
    deps.state = state;
    // Describe handles and confirmation state verify on any replica that has the same key: the env var, else one
    // generated once and shared through a shared store, else this process's own.
    const signing = resolveSigner(signingKey, state, logger);
    deps.signer = signing.signer;
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
      ...(h.oauthIssuer !== undefined ? { oauth: { issuer: h.oauthIssuer } } : {}),
      ...(h.publicUrl !== undefined ? { publicUrl: h.publicUrl } : {}),
      maxBodyBytes: h.maxBodyBytes,
      headersTimeoutMs: h.headersTimeoutMs,
      requestTimeoutMs: h.requestTimeoutMs,
      keepAliveTimeoutMs: h.keepAliveTimeoutMs,
      maxSessions: h.maxSessions,
      explorer: h.explorer,
    }).catch((err: unknown) => {
      throw listenError(err, h.host, h.port);
    });
    // The token itself is never printed: the config shows where it goes.
    const headers = h.authToken !== undefined && h.oauthIssuer === undefined ? { Authorization: 'Bearer <API_CATALOG_HTTP_TOKEN>' } : undefined;
    process.stderr.write(
      [
        `api-catalog: serving ${what} over Streamable HTTP`,
        `  URL: ${handle.url}`,
        ...(handle.resourceMetadataUrl !== undefined
          ? [`  OAuth: tokens from ${h.oauthIssuer} for resource ${handle.resource}; metadata at ${handle.resourceMetadataUrl}`]
          : []),
        ...(h.explorer ? [`  Catalog explorer: ${handle.url.replace(/\/mcp$/, '/')}`] : []),
        ...clientConfigLines(handle.url, headers),
        '  Upstream credential per session: send header X-Upstream-Token, or set the env vars describe_tools names.',
        `  State: ${describeStateStore(config.stateUrl)}${state.shared ? ' (shared: replicas serve each other\'s legacy sessions and share rate limits)' : ' (this process only)'}; health: ${handle.url.replace(/\/mcp$/, '')}/healthz`,
        `  Signing key: ${SIGNING_SOURCES[signing.source]}`,
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

  // stdio: one connection remembers its describes; the key (the env var's, else random) signs handles lazily.
  if (signingKey !== undefined) deps.signer = Signer.fromSecret(signingKey);
  // The MCP SDK checks every message against zod schemas, which zod compiles to a fast path on first use. A stdio
  // server serves one client and meets each schema a few times, mostly while the client waits for its first
  // answers: interpreting them costs less than compiling them (measured: ~12 ms less to the first tools/list).
  // A long-lived HTTP server keeps the compiled path.
  zodConfig({ jitless: true });
  process.stderr.write(`api-catalog: serving ${what} over stdio\n`);
  const { serveStdio } = await import('../server/transports/stdio.js');
  // (what the entry read while looking for a probe comes first: probe.ts)
  const input = serveInput();
  const handle = await serveStdio(deps, { logger, ...(input !== undefined ? { stdin: input } : {}) });
  mark('connected');
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
