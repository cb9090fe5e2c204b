// `api-catalog serve`: loads the catalogs, then serves MCP over stdio (default) or Streamable HTTP (--http).
// Logs are JSON lines on stderr; stdout carries nothing but the protocol in stdio mode.
import {
  cleartextTokenWarning, configuredCredentialNames, loadServerConfig, secretLookingEnv, type ConfigFile, type HttpConfig, type ServerConfig,
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
import { replayEarlySignals } from './early-signals.js';
import { tuneCollectorForServing } from '../server/ops/collector.js';
import { defaultIndexCacheDir } from '../server/core/index-cache.js';
import { engineLoadFailed } from '../server/core/engine-load.js';
import { loadSearchEngine } from '../server/core/search-engine.js';
import { serveInput } from './probe.js';
import { SearchLog } from '../server/search-log.js';
import { Signer, resolveSigner } from '../server/signing.js';
import { describeStateStore, openStateStore, type StateStore } from '../state/index.js';

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
    confirmRateLimitPerMinute: config.confirmRateLimitPerMinute,
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
function stopStartOnSignals(logger: Logger, added: Array<() => void>): OnSignal {
  const on: OnSignal = {
    stop: (signal) => {
      logger.log('warn', { event: 'exit', reason: 'stopped during start-up', signal, note: 'the signal came before the server was serving', code: 0 });
      process.exit(0);
    },
    inFlight: () => 0,
  };
  added.push(onShutdownSignals(logger, (signal) => on.stop(signal), () => on.inFlight()));
  return on;
}

/** The metrics and audit observers as one (each guarded by the server). */
function observers(list: Array<ToolCallObserver | undefined>): ToolCallObserver | undefined {
  const present = list.filter((o): o is ToolCallObserver => o !== undefined);
  return present.length === 0 ? undefined : (r) => present.forEach((o) => o(r));
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    // (the help text is its own module: a start never builds it)
    process.stdout.write((await import('./serve-help.js')).HELP + '\n');
    return 0;
  }
  // The process listeners serve adds (SIGHUP, SIGTERM/SIGINT) go when it returns: a process that starts and stops it
  // more than once (a test, an embedding) is left with the listeners it had.
  const added: Array<() => void> = [];
  try {
    return await serve(argv, added);
  } finally {
    for (const remove of added.splice(0)) remove();
  }
}

async function serve(argv: string[], added: Array<() => void>): Promise<number> {
  mark('serve-module');
  // SIGHUP from the first moment: with no listener it would end a process still loading its catalogs
  const reloadSignal = new ReloadSignal();
  added.push(() => reloadSignal.close());
  replayEarlySignals(['SIGHUP']);
  tuneCollectorForServing();
  const flags = parseServeArgs(argv);
  checkServeFlags(flags);
  const { config, file } = loadServerConfig(flags, process.env);
  const logger = createLogger({ write: (line) => process.stderr.write(line), minLevel: config.logLevel });
  const onSignal = stopStartOnSignals(logger, added);
  replayEarlySignals(['SIGTERM', 'SIGINT']);
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
  // (the search engine first: the bundle loads it on demand, search-engine-lazy.ts)
  setTimeout(() => {
    void loadSearchEngine().then(() => {
      warmSearchIndex(live.current.catalogs, logger);
      void preloadExecutor().catch(() => undefined);
      knownVersion(live, logger);
    }, (err: unknown) => engineLoadFailed(logger, err));
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
    await loadSearchEngine();
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
    }).catch(async (err: unknown) => {
      // A replica that cannot listen (a port in use, an address this machine does not have) closes what the start
      // opened (the store's Redis connections and their reconnect timers, the token file and registry watches, the
      // audit file): none may hold the process, which exits 1 with its one line (a supervisor restarts it).
      live.close();
      tokens?.close();
      audit.close();
      await state.close().catch(() => undefined);
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
    // meanwhile ends the wait: the verdict is no longer news, even one that comes while it drains (the stop wins).
    const reported = reportStateAtStart(opened, describeStateStore(config.stateUrl), stateVerdict);
    reported.catch(() => undefined);
    try {
      await Promise.race([reported, stopped]);
    } catch (err) {
      // (a signal's stop sets the phase meanwhile)
      if ((phase as string) !== 'stopping') {
        await handle.shutdown(0);
        tokens?.close();
        throw err;
      }
    }
    if (phase === 'starting') {
      phase = 'serving';
      reloadSignal.applyPending();
      const oauth = handle.resourceMetadataUrl !== undefined ? { resource: handle.resource ?? '', metadataUrl: handle.resourceMetadataUrl } : undefined;
      process.stderr.write(
        httpBanner({
          what, catalogNames: set.catalogs.map((c) => c.meta.name), listening: handle.url, port: handle.port, http: h, version, signing: signing.source, shutdownGraceMs: config.shutdownGraceMs,
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
