// `api-catalog serve`: loads the catalogs, then serves MCP over stdio (default) or Streamable HTTP (--http).
// Logs are JSON lines on stderr; stdout carries nothing but the protocol in stdio mode.
import {
  cleartextTokenWarning, configuredCredentialNames, loadServerConfig, optionsHelp, secretLookingEnv, type ConfigFile, type HttpConfig, type ServerConfig,
} from '../config.js';
import { checkServeFlags, parseServeArgs } from './args.js';
import { httpBanner, listenError } from './serve-messages.js';
import { config as zodConfig } from 'zod';
import { mark, marked, markTimes } from '../startup-marks.js';
import { createLogger, type Logger } from '../logger.js';
import { settingsFromConfig, warmSearchIndex, type CatalogSet, type CatalogSetOptions } from '../server/core/catalogs.js';
import type { LiveCatalogs } from '../server/core/reload.js';
import { knownVersion, loadRegistries, registryLoader, ReloadSignal, startReloading, useEmbeddings } from './serve-reload.js';
import { judgeStateAtStart, reportStateAtStart, stateFlagPasswordWarning } from './serve-state.js';
import { preloadExecutor, SERVER_VERSION, type ServerDeps } from '../server/create-server.js';
import { AuditLog } from '../server/ops/audit.js';
import type { ToolCallObserver } from '../server/ops/observe.js';
import { onShutdownSignals } from '../server/ops/signals.js';
import { tuneCollectorForServing } from '../server/ops/collector.js';
import { defaultIndexCacheDir } from '../server/core/index-cache.js';
import { serveInput } from './probe.js';
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
idempotencyHeader, allowedOrigins, blockPrivateAddresses, allowHttpCredentials, credentialPrefix); upstream
credentials come from <CATALOG>_TOKEN, _API_KEY, _USERNAME, _PASSWORD (or the names the file gives) and
<CATALOG>_BASE_URL overrides a base URL.

Filters (--include-domains, --exclude-domains, --exclude-tools): filtered operations cannot be listed, searched,
described or executed; an unknown domain or a glob matching nothing stops the start.

HTTP authentication: set API_CATALOG_HTTP_TOKEN (at least 16 characters, e.g. \`openssl rand -hex 32\`) in the
environment — never on the command line, where \`ps\` shows it. Every /mcp request must then carry
\`Authorization: Bearer <token>\` (else 401). The token is never sent upstream and never logged.
With --oauth-issuer, clients find the issuer at /.well-known/oauth-protected-resource and send its access
tokens for the --public-url resource (scopes catalog:read for list/search/describe and resources,
catalog:execute for execute_tool); API_CATALOG_HTTP_TOKEN, when also set, is accepted as well.
--allow-remote binds a non-loopback address only with one of them; Host headers accepted: loopback, the bound
address, the --public-url host and --allow-host values. Origins accepted (browser pages): loopback on this port,
the page's own (Origin matching Host), the --public-url's and --allow-origin values. Static and named tokens are
passwords: off loopback without an https --public-url (a TLS proxy in front) the start warns that they travel in
clear text.

Protocol eras: one endpoint (stdio, or /mcp over HTTP) serves MCP 2026-07-28 clients (no handshake, no session:
every request stands alone) and handshake-era clients (initialize; 2024-10-07 ... 2025-11-25) alike.
describe_tools answers carry a signed "handle" per operation that execute_tool takes: over 2026-07-28 HTTP it is
the proof of the describe (any replica checks it), over HTTP and stdio alike; where a legacy connection or
session remembers describes it is optional. API_CATALOG_SIGNING_KEY (32+ characters, env only) is the key;
unset, one is generated (and shared through --state when given).

Several replicas: 2026-07-28 clients need no shared store, only the same API_CATALOG_SIGNING_KEY on every replica
(or --state). --state redis://... is what legacy sessions need (any replica serves any session, no sticky
routing), and it shares rate limits and stored large results between replicas. A principal is who authenticated
a request (the API_CATALOG_HTTP_TOKEN holder, an OAuth subject, or "anonymous" on loopback); legacy sessions,
handles and stored results are bound to it and rate limits count per principal. GET /readyz answers 503 with
the reason while the state store is unreachable; --require-state refuses to start without --state.
State store URL: redis://[user]:password@host:port/db, or rediss://... for TLS (a private CA through
NODE_EXTRA_CA_CERTS). The database number is selected and checked; a database Redis lacks, a Cluster node or a
Sentinel stop the start; a wrong password (WRONGPASS/NOAUTH), a TLS problem or a read-only replica keep the
replica unready, named in the log and /readyz, until fixed. Run Redis with AOF (docs/DEPLOY.md).

Registry updates: SIGHUP reloads the catalogs, and so does a change of a registry's catalog.json (unless
--no-watch): the new version (operations, search index, settings) replaces the old one whole, or the old one goes
on serving when the new one does not load (logged as catalog_reload_failed; /readyz shows it as reloadFailed).
With several registries each reloads on its own: a broken one keeps its previous catalog, the others' changes
are served, and the refusal names it. A watch reload waits a random 0..--watch-jitter seconds (replicas on one
volume spread out); one refused because the files disagree (a copy still under way) is retried after 2, 5 and
15 s, then at each change of the files. A SIGHUP during start-up is applied once the server serves.
A registry whose files disagree (catalog.json's operation counts against the operations files) is refused, at
start and on reload, naming both files and both counts. list_domains and /readyz show the catalog version.

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
Operations (with --http): GET /healthz is liveness (200 while the process answers; it checks no dependency);
GET /readyz is readiness (503 with every reason while the catalogs are not searchable, the state store is not
reachable or authenticated, the OAuth issuer's keys are not fetched, or the replica drains); GET /metrics is
Prometheus text (same authentication as /mcp). Each execute_tool writes one audit line (who, which operation,
outcome, upstream status; never arguments) to the log stream, or to --audit-log <file>.

Named tokens: --tokens <file> holds one "<name> <scopes> sha256:<hash>" line per client; \`api-catalog token new
<name> [--scopes catalog:read,catalog:execute]\` prints a new token and its line. Each name is its own principal
(sessions, handles, rate limits, audit lines); the file is re-read when it changes.

Shutdown: on SIGTERM or SIGINT the server stops taking work (HTTP: /readyz 503, new requests 503 with Retry-After
and Connection: close, which a balancer may retry elsewhere; stdio: new requests get an error), lets calls in
flight finish for up to --shutdown-grace seconds (default 25), then exits 0. A second signal exits at once
(130 for SIGINT, 143 for SIGTERM). See docs/DEPLOY.md.
Exit codes: 0 after stdin EOF or a drain; 1 when a stdio message exceeds 10 MiB or on a startup error.`;

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

/** What SIGTERM/SIGINT does now (onShutdownSignals calls it on the first signal): set by each stage of run(). */
interface OnSignal {
  stop: (signal: string) => void;
  inFlight: () => number;
}

/**
 * Signals from the moment `serve` has a logger (with no listener a signal ends the process without a word). Until a
 * transport can drain, the start stops at once, saying so, exit 0 as after a drain; each transport then sets `stop`.
 */
function stopStartOnSignals(logger: Logger): OnSignal {
  const on: OnSignal = {
    stop: (signal) => {
      logger.log('warn', { event: 'exit', reason: 'stopped during start-up', signal, note: 'the signal came before the server was serving', code: 0 });
      process.exit(0);
    },
    inFlight: () => 0,
  };
  onShutdownSignals(logger, (signal) => on.stop(signal), () => on.inFlight());
  return on;
}

/** The metrics and audit observers as one (each guarded by the server). */
function observers(list: Array<ToolCallObserver | undefined>): ToolCallObserver | undefined {
  const present = list.filter((o): o is ToolCallObserver => o !== undefined);
  return present.length === 0 ? undefined : (r) => present.forEach((o) => o(r));
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  mark('serve-module');
  // SIGHUP from the first moment: with no listener it would end a process still loading its catalogs
  const reloadSignal = new ReloadSignal();
  tuneCollectorForServing();
  const flags = parseServeArgs(argv);
  checkServeFlags(flags);
  const { config, file } = loadServerConfig(flags, process.env);
  const logger = createLogger({ write: (line) => process.stderr.write(line), minLevel: config.logLevel });
  const onSignal = stopStartOnSignals(logger);
  reloadSignal.useLogger(logger);
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
  // Hot reload (serve-reload.ts): an old version that finds one of its files changed asks for the new one.
  let live: LiveCatalogs | undefined;
  const loadOptions: CatalogSetOptions = {
    filters: config.filters,
    logger,
    ...(indexCache !== undefined ? { indexCache } : {}),
    onChanged: (dir) => live?.changed(dir),
  };
  const set = loadRegistries(config.registries, loadOptions).set;
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
  await useEmbeddings(set, config, logger, true);
  const deps = depsFrom(config, set, logger, file);
  live = startReloading(deps, {
    registries: config.registries, watch: config.options.watch as boolean, jitterMs: (config.options.watchJitterSeconds as number) * 1000,
    logger, signal: reloadSignal, load: registryLoader(config, loadOptions, logger, file),
  });
  if (config.searchLog !== undefined) {
    // The same values the logger redacts: credential-looking env vars, the HTTP token, the config file's credentials.
    const named = configuredCredentialNames(file).map((n) => process.env[n] ?? '');
    const secrets = [...secretLookingEnv(process.env), process.env.API_CATALOG_HTTP_TOKEN ?? '', ...named].filter((v) => v !== '');
    deps.searchLog = new SearchLog({ file: config.searchLog.file, maxBytes: config.searchLog.maxBytes, logger, secrets });
  }
  // One audit line per execute_tool: to its own file with --audit-log, else on the log stream.
  const audit = new AuditLog({ ...(config.auditLog !== undefined ? { file: config.auditLog.file, maxBytes: config.auditLog.maxBytes } : {}), logger });
  // The operation count from catalog.json (recounted by the filters): the operations are read on first use, not here.
  const what = set.catalogs.map((c) => `${c.meta.title} (${c.meta.operationCount} operations)`).join(', ');
  mark('catalogs');
  if (process.env.API_CATALOG_STARTUP_TRACE === '1') traceStartup(set);

  // An idle server builds its search index within a second even if no client has listed tools yet.
  setTimeout(() => {
    warmSearchIndex(live.current.catalogs, logger);
    void preloadExecutor().catch(() => undefined);
    knownVersion(live, logger);
  }, 1000).unref();

  if (config.http) {
    const h = config.http;
    // Bearer tokens over plain http from other machines: said once, before anything listens.
    const cleartext = cleartextTokenWarning(h);
    if (cleartext !== undefined) process.stderr.write(`api-catalog: warning: ${cleartext}\n`);
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
    // A password on the command line is readable by every user of the machine: said once, before any connection.
    const stateWarning = stateFlagPasswordWarning(flags.state);
    if (stateWarning !== undefined) logger.log('warn', stateWarning);
    // Named tokens are read before anything listens: an unreadable or malformed file stops the start, naming the line.
    const { TokenFile } = await import('../server/auth/tokens.js');
    const tokens = h.tokensFile !== undefined ? new TokenFile(h.tokensFile, logger) : undefined;
    tokens?.watch();
    const { OpsMetrics } = await import('../server/ops/metrics.js');
    const metrics = new OpsMetrics({ version: SERVER_VERSION });
    const opened = await openStateStore(config.stateUrl, { logger });
    // The store's start-up verdict is judged while the index warms and the server starts listening; it is said (or
    // stops the start) once the server listens, below.
    const stateVerdict = judgeStateAtStart(opened);
    const state: StateStore = metrics.instrumentStore(opened);
    deps.state = state;
    deps.observe = observers([metrics.observe, audit.observe]);
    // Describe handles and confirmation state verify on any replica that has the same key: the env var, else one
    // generated once and shared through a shared store, else this process's own.
    const signing = resolveSigner(signingKey, state, logger, stateVerdict);
    deps.signer = signing.signer;
    // A long-running HTTP server is ready when it can answer: the operations and search index are prepared before
    // it listens. Prepared later, a large merged index (several catalogs have no snapshot) blocks the event loop
    // for as long as it builds, and requests already accepted run into the header/request timeouts.
    warmSearchIndex(set, logger, { refuseInvalid: true });
    const version = knownVersion(live, logger);
    // Transports load on demand: stdio clients never pay for the HTTP stack, and the reverse.
    const { serveHttp } = await import('../server/transports/http.js');
    const handle = await serveHttp(deps, {
      host: h.host,
      port: h.port,
      allowOrigins: h.allowOrigins,
      allowRemote: h.allowRemote,
      allowHosts: h.allowHosts,
      ...(h.authToken !== undefined ? { authToken: h.authToken } : {}),
      ...(h.oauthIssuer !== undefined ? { oauth: { issuer: h.oauthIssuer, keysMaxAgeMs: h.oauthKeysMaxAgeMs } } : {}),
      ...(tokens !== undefined ? { tokens } : {}),
      metrics,
      readinessInfo: () => {
        // Which registry content is served now (hot reload swaps it): the catalog version list_domains shows, and each
        // catalog's content hash prefix, so replicas can be compared.
        const served = live.current.catalogs;
        return {
          version: served.version,
          catalogs: served.catalogs.map((c) => ({ name: c.meta.name, operations: c.meta.operationCount, version: c.contentHash?.slice(0, 12) })),
          state: state.kind,
          // A refused reload (files that disagree, a damaged file): the version above goes on serving, so the replica
          // stays ready; the refusal is shown until a reload succeeds.
          ...(live.lastFailure !== undefined ? { reloadFailed: live.lastFailure } : {}),
        };
      },
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
    // Listening: a signal now drains (requests may already be in flight), logged as a stop during start-up until the
    // banner is out; no banner once it came.
    let phase: 'starting' | 'serving' | 'stopping' = 'starting';
    const stopped = new Promise<void>((resolve) => {
      onSignal.inFlight = () => handle.drain.count;
      onSignal.stop = () => {
        const early = phase === 'starting';
        phase = 'stopping';
        live.close();
        void handle
          .shutdown(config.shutdownGraceMs)
          .then((r) => logger.log(early ? 'warn' : 'info', { event: 'exit', reason: early ? 'stopped during start-up' : 'shutdown', drained: r.finished, abandoned: r.abandoned, code: 0 }))
          .then(() => state.close())
          .finally(() => { tokens?.close(); audit.close(); resolve(); });
      };
    });
    // The state store's verdict is awaited once the server listens, so that /healthz answers at once and /readyz says
    // why the replica is unready (a Redis that is not reachable yet takes up to 5 s to judge). A wrong password is
    // named now; a problem only the configuration can fix (a missing database) stops the start, exit 1. A signal
    // meanwhile ends the wait: the verdict is no longer news.
    const reported = reportStateAtStart(opened, describeStateStore(config.stateUrl), stateVerdict);
    reported.catch(() => undefined);
    try {
      await Promise.race([reported, stopped]);
    } catch (err) {
      await handle.shutdown(0);
      tokens?.close();
      throw err;
    }
    if (phase === 'starting') {
      phase = 'serving';
      reloadSignal.applyPending();
      const oauth = handle.resourceMetadataUrl !== undefined ? { resource: handle.resource ?? '', metadataUrl: handle.resourceMetadataUrl } : undefined;
      process.stderr.write(
        httpBanner({
          what, listening: handle.url, port: handle.port, http: h, version, signing: signing.source, shutdownGraceMs: config.shutdownGraceMs,
          ...(oauth !== undefined ? { oauth } : {}),
          ...(tokens !== undefined ? { tokens } : {}),
          ...(config.auditLog !== undefined ? { auditLog: config.auditLog.file } : {}),
          state: { where: describeStateStore(config.stateUrl), shared: state.shared },
          watch: config.options.watch as boolean,
        }),
      );
    }
    await stopped;
    // Nothing should be left to keep the process up; if a library left a handle open, it must not hold the exit.
    setTimeout(() => process.exit(0), 1000).unref();
    return 0;
  }

  // stdio: a legacy connection remembers its describes, a 2026-07-28 one needs the handles; the key (the env var's,
  // else random) signs handles lazily.
  if (signingKey !== undefined) deps.signer = Signer.fromSecret(signingKey);
  deps.observe = audit.observe;
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
  reloadSignal.applyPending();
  onSignal.inFlight = () => handle.inFlight();
  onSignal.stop = () => {
    live.close();
    void handle.shutdown(config.shutdownGraceMs);
  };
  const reason = await handle.closed;
  audit.close();
  const code = reason === 'overflow' ? 1 : 0;
  logger.log('info', { event: 'exit', reason, code });
  // In-flight upstream sockets were aborted; do not let keep-alive handles hold the process open.
  setTimeout(() => process.exit(code), 100).unref();
  return code;
}
