// Streamable HTTP transport on node:http (no Express): one endpoint (/mcp) for both protocol eras, behind our own
// Host/Origin checks (A1–A5), authentication (static token, named tokens or OAuth via ../auth: A6/A24) and scope
// checks, with JSON-RPC error bodies for every refusal (A8–A10, A21; with the explorer on, a browser opening /mcp or an
// address over the header limit, and every refusal or failure of a request the explorer answers, gets a small HTML
// page instead: http-pages.ts), a body cap, server timeouts, and the
// operations endpoints and lifecycle of ../ops (/healthz, /readyz, /metrics, the graceful drain). Each request is
// then routed by era: a 2026-07-28 request (its _meta envelope) to the stateless modern leg (http-modern.ts),
// anything else to the sessionful legacy leg (http-legacy.ts). The Host/Origin rules are http-origin.ts's, the
// answers to what Node's parser refuses http-client-error.ts's.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { DEFAULT_MAX_BODY_BYTES, MIN_HTTP_TOKEN_LENGTH, checkSecureUrl, isLoopbackHost } from '../../config.js';
import { AppError } from '../../errors.js';
import { silentLogger } from '../../logger.js';
import { MemoryStateStore, type StateStore } from '../../state/index.js';
import { SCOPE_EXECUTE, SCOPE_READ, createAuthenticator, type Authenticator, type AuthRefusal, type Principal } from '../auth/index.js';
import { toolNames } from '../core/names.js';
import type { ServerDeps } from '../create-server.js';
import { ConnectionCloser, DRAIN_QUIET_MS } from '../ops/connections.js';
import { CutOffCalls } from '../ops/cut-off-calls.js';
import { Drain } from '../ops/drain.js';
import { Readiness } from '../ops/readiness.js';
import { DRAIN_RETRY_AFTER_SECONDS, handleOpsEndpoint, readinessChecks, refuseDraining } from '../ops/http-endpoints.js';
import { auditRefusedCall } from '../ops/observe.js';
import { resolveSigner } from '../signing.js';
import { authorizationPlaceholder } from '../auth/client-config.js';
import { PAGE_HEADERS, mcpEndpointPage, type ClientAccess } from '../explorer/standalone.js';
import { sendBody } from '../explorer/compress.js';
import { clientErrorAnswer } from './http-client-error.js';
import { isJsonContentType, readBody, sendError } from './http-errors.js';
import { LegacySessions, refusedByVersion } from './http-legacy.js';
import { browserPageRequest, drainingPage, explorerRequest, failedPage, hostRefusedPage, originRefusedPage, pathnameOf, sendErrorPage, startingPage } from './http-pages.js';
import type { AuthenticatedRequest, HttpHandle, HttpServeOptions } from './http-types.js';
import { createModernLeg } from './http-modern.js';
import { bare, hostOriginPolicy } from './http-origin.js';
import { namesArrivalAddress } from './http-arrival.js';
import { toWebRequest } from './node-web.js';
import { boundTokenHeaders } from '../upstream-tokens.js';
import { rateLimits } from '../session.js';
import { HTTP_READ_RATE_LIMIT } from '../../config/options.js';

// The options, the handle and the authenticated request live in http-types.ts; importers keep this path.
export type { AuthenticatedRequest, HttpHandle, HttpServeOptions } from './http-types.js';

/** At the end of a drain, how long connections already accepted may still bring a request (it gets a 503). */
const CLOSE_WINDOW_MS = 1000;

/** The refusal of a browser page from another origin, with the fix for a page the operator trusts. */
const ORIGIN_REFUSED = 'Forbidden: Origin not allowed (an operator can allow a trusted page with --allow-origin <origin>, e.g. --allow-origin https://app.example.com)';

/** Default per-principal limit of read calls per minute over HTTP (a shared server): the option table's. */
export const DEFAULT_HTTP_READ_RATE_LIMIT = HTTP_READ_RATE_LIMIT;

function sendRefusal(res: ServerResponse, refusal: AuthRefusal): void {
  res.writeHead(refusal.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(refusal.body), ...refusal.headers });
  res.end(refusal.body);
}

/**
 * The headers a browser page may send (the preflight's answer; X-Upstream-Token-<catalog> names added as asked for),
 * with W3C Trace Context and Baggage: OpenTelemetry's fetch instrumentation adds them to every request.
 */
const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, X-Upstream-Token, traceparent, tracestate, baggage';

/** Headers only MCP clients send: a GET that carries one is a legacy stream or a resumption, never a page load. */
const MCP_REQUEST_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'last-event-id'];

/** Starts the Streamable HTTP server. Throws (EADDRINUSE, ...) when it cannot listen. */
export async function serveHttp(deps: ServerDeps, options: HttpServeOptions = {}): Promise<HttpHandle> {
  const logger = deps.logger ?? silentLogger;
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? 1000;
  const ttlMs = deps.sessionTtlMs ?? 30 * 60_000;
  const now = deps.now ?? Date.now;
  const ownStore = deps.state === undefined;
  const store: StateStore = deps.state ?? new MemoryStateStore(now);
  let port = options.port ?? 3333;
  let shuttingDown: Promise<{ finished: boolean; abandoned: number }> | undefined;
  const drain = new Drain();
  if (!isLoopbackHost(bare(host)) && !options.allowRemote) {
    throw new AppError('CONFIG_INVALID', `serveHttp: refusing to bind ${host}: a non-loopback address needs allowRemote and authToken`);
  }
  if (options.allowRemote && options.authToken === undefined && options.oauth === undefined && options.tokens === undefined) {
    throw new AppError('CONFIG_INVALID', 'serveHttp: allowRemote needs authToken (set API_CATALOG_HTTP_TOKEN), tokens (--tokens <file>) or oauth (--oauth-issuer); refusing to start');
  }
  if (options.oauth !== undefined && options.publicUrl === undefined && !isLoopbackHost(bare(host))) {
    throw new AppError('CONFIG_INVALID', `serveHttp: oauth on ${host} needs publicUrl (--public-url https://<name>${path}), the URL clients reach and tokens name as audience`);
  }
  const publicUrl = options.publicUrl !== undefined ? checkSecureUrl('publicUrl', options.publicUrl) : undefined;
  if (options.authToken !== undefined) {
    if (options.authToken.length < MIN_HTTP_TOKEN_LENGTH) {
      throw new AppError('CONFIG_INVALID', `serveHttp: authToken must be at least ${MIN_HTTP_TOKEN_LENGTH} characters (got ${options.authToken.length})`);
    }
    logger.addSecret(options.authToken);
  }

  // Which Host headers and browser Origins may reach this server (http-origin.ts); the port is known once listening.
  const { allowedHost, allowedOrigin } = hostOriginPolicy({ host, port: () => port, ...(publicUrl !== undefined ? { publicUrl } : {}), allowHosts: options.allowHosts ?? [], allowOrigins: options.allowOrigins ?? [] });

  /** Set once the port is known (the default public URL names it); requests cannot arrive before that. */
  let auth: Authenticator | undefined;

  // Both legs build their server instances from the same deps: one store, one signer (from API_CATALOG_SIGNING_KEY,
  // else shared through a shared store, else this process's own), the HTTP read limit, the X-Upstream-Token header.
  const signer = deps.signer ?? resolveSigner(undefined, store, logger).signer;
  const legDeps: ServerDeps = {
    ...deps,
    state: store,
    signer,
    readRateLimitPerMinute: deps.readRateLimitPerMinute ?? DEFAULT_HTTP_READ_RATE_LIMIT,
    acceptSessionCredential: true,
  };
  // requests in flight, each answered if the shutdown grace ends before it does (ops/cut-off-calls.ts)
  const cutOff = new CutOffCalls(toolNames(deps.toolPrefix ?? '').executeTool);
  const legacy = new LegacySessions({ deps: legDeps, store, path, maxBodyBytes: maxBody, maxSessions, ttlMs, now, logger, cutOff });
  const modern = createModernLeg(legDeps, logger, cutOff);
  const own = readinessChecks({ catalogs: () => deps.live?.current.catalogs ?? deps.catalogs, store, keysProblem: () => auth?.keysProblem() ?? Promise.resolve(undefined), drain });
  const readiness = new Readiness([...own.checks, ...(options.readinessChecks ?? [])], logger, () => ({ ...(options.readinessInfo?.() ?? {}), ...own.info() }));

  // The JSON-RPC messages whose scope check stands for an explorer action (the scopes /mcp would want for them).
  const READ_MESSAGE = { method: 'resources/list' };
  const dryRunMessage = { method: 'tools/call', params: { name: toolNames(deps.toolPrefix ?? '').executeTool } };

  /**
   * How MCP clients reach and authenticate to this server, for the pages a browser gets (/mcp's, the explorer's when
   * it cannot log in): the endpoint as this request reached it (or the --public-url), and the banner's decision on the
   * Authorization header, worded for anyone (no token names).
   */
  function clientAccess(req: IncomingMessage): ClientAccess {
    // the proxy nearest the client comes first in a list (`https, http`)
    const forwardedHttps = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
    const modes = { staticToken: options.authToken !== undefined, oauth: options.oauth !== undefined, ...(options.tokens !== undefined ? { tokenNames: [] } : {}) };
    const authorization = authorizationPlaceholder(modes, 'anyone');
    return {
      endpoint: publicUrl?.href ?? `${forwardedHttps ? 'https' : 'http'}://${String(req.headers.host)}${path}`,
      https: forwardedHttps || publicUrl?.protocol === 'https:',
      ...(authorization !== undefined ? { authorization } : {}),
      ...(options.oauth !== undefined && auth?.resourceMetadataUrl !== undefined ? { oauth: { issuer: options.oauth.issuer, metadataUrl: auth.resourceMetadataUrl } } : {}),
      staticToken: options.authToken !== undefined,
      namedTokens: options.tokens !== undefined,
    };
  }

  /** A request the explorer answers (http-pages.ts): its refusals and failures are pages too, not JSON-RPC errors. */
  const forExplorer = (req: IncomingMessage, pathname: string): boolean => options.explorer === true && explorerRequest(req, pathname, path);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = pathnameOf(req.url);
    if (pathname === undefined) return sendError(res, 400, -32600, 'Bad Request: invalid request target');
    // /healthz and /readyz come before the Host check (balancers and kubelets probe with their own Host); /metrics
    // after it and behind the same authentication as /mcp. A Host that is the IP and port this connection arrived on
    // (a scrape of a pod IP under 0.0.0.0) is no rebinding name: accepted on every path (http-arrival.ts).
    if (await handleOpsEndpoint(pathname, req, res, { stage: 'probe', readiness, drain, ...(options.metrics ? { metrics: options.metrics } : {}) })) return;
    if (!allowedHost(req.headers.host) && !namesArrivalAddress(req.headers.host, req.socket.localAddress, req.socket.localPort)) {
      options.metrics?.refusal('host');
      logger.log('warn', { event: 'http_refused', reason: 'host', host: String(req.headers.host ?? '').slice(0, 100) });
      if (forExplorer(req, pathname)) return sendErrorPage(req, res, hostRefusedPage(req.headers.host));
      return sendError(res, 403, -32000, 'Forbidden: Host header not allowed (an operator can add it with --allow-host)');
    }
    if (!auth) return forExplorer(req, pathname) ? sendErrorPage(req, res, startingPage()) : sendError(res, 503, -32000, 'Service Unavailable: starting', { 'Retry-After': '1' });
    if (pathname === '/metrics') {
      // The same Origin and authentication checks as /mcp; answered during the drain too (Prometheus sees it).
      if (req.headers.origin !== undefined && !allowedOrigin(req.headers.origin, req.headers.host)) return sendError(res, 403, -32000, ORIGIN_REFUSED);
      const authn = await auth.authenticate(req);
      if (!authn.ok) return sendRefusal(res, authn);
      if (await handleOpsEndpoint(pathname, req, res, { stage: 'metrics', readiness, drain, ...(options.metrics ? { metrics: options.metrics } : {}) })) return;
    }
    // Draining: nothing new is processed (a balancer may send it to another replica); calls in flight finish.
    if (drain.draining) {
      options.metrics?.refusal('draining');
      return forExplorer(req, pathname) ? sendErrorPage(req, res, drainingPage(DRAIN_RETRY_AFTER_SECONDS)) : refuseDraining(res);
    }
    // Protected Resource Metadata (RFC 9728): public, no token, readable from any origin.
    if (auth.serveMetadata(pathname, req.method ?? 'GET', res)) return;
    const origin = req.headers.origin;
    const cors: Record<string, string> = {};
    if (origin !== undefined) {
      if (!allowedOrigin(origin, req.headers.host)) {
        options.metrics?.refusal('origin');
        logger.log('warn', { event: 'http_refused', reason: 'origin', origin: origin.slice(0, 100) });
        return forExplorer(req, pathname) ? sendErrorPage(req, res, originRefusedPage(origin)) : sendError(res, 403, -32000, ORIGIN_REFUSED);
      }
      cors['Access-Control-Allow-Origin'] = origin;
      cors['Access-Control-Expose-Headers'] = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
      cors.Vary = 'Origin';
      for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    }
    if (forExplorer(req, pathname)) {
      // The explorer page (src/server/explorer), loaded on first use; auth is this transport's own check. It also
      // answers a browser that asks for a page the server does not have (an HTML 404 with the way home) and the tab
      // icon; MCP clients, which do not ask for HTML, keep the JSON-RPC errors below.
      const { handleExplorer } = await import('../explorer/index.js');
      const authn = await auth.authenticate(req);
      const principal: Principal | undefined = authn.ok ? ((req as AuthenticatedRequest).principal ?? authn.principal) : undefined;
      const checker = auth;
      return handleExplorer(req, res, {
        // the served version (hot reload): the page shows what agents get now
        deps: { ...deps, ...deps.live?.current, ...(deps.searchLog !== undefined ? { searchLogFile: deps.searchLog.file } : {}) },
        headerAuthorized: authn.ok,
        // credentials that could not be checked (the OAuth issuer unreachable) get /mcp's 503, not a 401
        ...(!authn.ok && authn.status === 503 ? { unavailable: { message: authn.message, retryAfter: authn.headers['Retry-After'] ?? '5' } } : {}),
        access: clientAccess(req),
        // the scope /mcp checks for the same thing: a page reads the catalog (as list_domains), a dry run is
        // execute_tool's dry run; a named token or an OAuth token may lack one (static token, no auth: never)
        ...(principal !== undefined
          ? {
              refused: (action: 'read' | 'dry-run') => {
                const forbidden = checker.authorize(principal, action === 'read' ? READ_MESSAGE : dryRunMessage);
                if (forbidden === undefined) return undefined;
                options.metrics?.refusal('scope');
                return { scope: action === 'read' ? SCOPE_READ : SCOPE_EXECUTE, message: forbidden.message };
              },
            }
          : {}),
        now,
        ...(options.authToken !== undefined ? { authToken: options.authToken, verifyToken: (t: string) => auth?.verifyStaticToken(t) === true } : {}),
        logger,
      });
    }
    const method = req.method ?? 'GET';
    if (pathname !== path) return sendError(res, 404, -32000, `Not Found: the MCP endpoint is ${path}`);
    if (options.explorer === true && browserPageRequest(req) && !MCP_REQUEST_HEADERS.some((h) => req.headers[h] !== undefined)) {
      // Someone opened the URL the banner prints in a browser: a page that says what this address is for, not a
      // JSON-RPC error. MCP clients never ask for text/html (a legacy stream asks for text/event-stream).
      return sendBody(res, 200, PAGE_HEADERS, mcpEndpointPage(clientAccess(req)), { head: method === 'HEAD' });
    }
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers': `${CORS_ALLOW_HEADERS}${boundTokenHeaders(req.headers['access-control-request-headers'])}`,
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return sendError(res, 405, -32000, 'Method Not Allowed', { Allow: 'GET, POST, DELETE, OPTIONS' });
    }
    const authn = await auth.authenticate(req);
    if (!authn.ok) {
      // Never log the header: a wrong token may be a near-miss of the real one.
      options.metrics?.refusal('auth');
      logger.log('warn', { event: 'http_refused', reason: 'auth', status: authn.status, detail: authn.reason });
      return sendRefusal(res, authn);
    }
    // An embedding application's own authentication step, run before this handler, may have named the principal.
    const principal: Principal = (req as AuthenticatedRequest).principal ?? authn.principal;
    const target = (req.url ?? path).startsWith('/') ? (req.url ?? path) : path;
    // GET (the legacy standalone stream) and DELETE (end a legacy session) have no body and no modern meaning.
    if (method !== 'POST') return refusedByVersion(req, res, undefined) ? undefined : legacy.serve(req, res, principal, target, undefined);

    if (!isJsonContentType(req.headers['content-type'])) {
      return sendError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const body = await readBody(req, maxBody);
    if (!body.ok) {
      if (body.tooLarge) {
        return sendError(res, 413, -32000, `Payload Too Large: the limit is ${maxBody} bytes`, { Connection: 'close' });
      }
      return sendError(res, 400, -32700, 'Parse error: the request body could not be read');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return sendError(res, 400, -32700, 'Parse error: invalid JSON');
    }
    if (Array.isArray(parsed)) {
      return sendError(res, 400, -32600, 'Invalid Request: JSON-RPC batches are not supported; send one message per request');
    }
    // Scopes are checked here, on the parsed message and before any transport sees it: the tool name is only
    // known from the body, and an execute_tool call without catalog:execute must never reach the upstream.
    const forbidden = auth.authorize(principal, parsed);
    if (forbidden !== undefined) {
      options.metrics?.refusal('scope');
      logger.log('warn', { event: 'http_refused', reason: 'scope', status: forbidden.status, detail: forbidden.reason });
      // An execute_tool refused here gets its audit line too (the others are written in MCP, which it never reaches).
      if (deps.observe !== undefined) {
        const era = (await isLegacyRequest(toWebRequest(req, target), parsed)) ? 'legacy' : 'modern';
        auditRefusedCall(deps, parsed, { era, principal: principal.id, outcome: 'INSUFFICIENT_SCOPE' }, logger);
      }
      return sendRefusal(res, forbidden);
    }
    if (refusedByVersion(req, res, parsed)) return;
    // The SDK's own classification (the per-request _meta envelope claim, and the MCP-Protocol-Version header),
    // so this routing never disagrees with its modern handler.
    if (await isLegacyRequest(toWebRequest(req, target), parsed)) {
      options.metrics?.request('legacy');
      return legacy.serve(req, res, principal, target, parsed);
    }
    options.metrics?.request('modern');
    return modern.serve(req, res, principal, target, parsed);
  }

  const httpServer: Server = createHttpServer((req, res) => {
    connections.noteRequest(req.url);
    // Work in flight, for the drain: every request but a legacy standalone GET stream (it stays open until the
    // session ends and is closed at the end of the drain) and the probes.
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
      res.once('close', drain.enter());
      connections.track(res);
    }
    handle(req, res).catch((error: unknown) => {
      logger.log('error', { event: 'http_internal_error', message: error instanceof Error ? error.message.slice(0, 300) : 'unknown' });
      // a page that failed (the catalog changed on disk, a damaged file) is a page with the reason and what to do
      const pathname = pathnameOf(req.url);
      if (pathname !== undefined && forExplorer(req, pathname)) return sendErrorPage(req, res, failedPage(error));
      sendError(res, 500, -32603, 'Internal error');
    });
  });
  const connections = new ConnectionCloser(httpServer);
  httpServer.headersTimeout = options.headersTimeoutMs ?? 10_000;
  httpServer.requestTimeout = options.requestTimeoutMs ?? 120_000;
  httpServer.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  // Malformed HTTP (bad request line, oversized headers): answered by http-client-error.ts.
  httpServer.on('clientError', clientErrorAnswer(options.explorer === true));

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const resource = publicUrl?.href ?? `http://${shownHost}:${port}${path}`;
  auth = createAuthenticator({
    ...(options.authToken !== undefined ? { staticToken: options.authToken } : {}),
    ...(options.oauth !== undefined ? { oauth: { ...options.oauth, resource } } : {}),
    ...(options.tokens !== undefined ? { tokens: options.tokens } : {}),
    ...(deps.toolPrefix !== undefined ? { toolPrefix: deps.toolPrefix } : {}),
    endpointPath: path,
  });
  const authenticator = auth;
  if (options.oauth !== undefined) {
    // Discovery now, so a wrong issuer shows in the log at start-up; requests retry it if it failed.
    void authenticator.warmUp().then((problem) => {
      if (problem !== undefined) logger.log('warn', { event: 'oauth_discovery_failed', message: problem.slice(0, 300) });
    });
  }

  options.metrics?.attach({ sessions: () => legacy.size, inFlight: () => drain.count, draining: () => drain.draining });
  readiness.watch(5000);

  async function shutdown(graceMs: number): Promise<{ finished: boolean; abandoned: number }> {
    drain.start();
    // Connections of the calls in flight end with their answer (no keep-alive into a closing process).
    connections.closeAfterResponses();
    // Unready at once (logged), so that probes and balancers take this replica out while calls finish.
    void readiness.evaluate();
    // the grace's end on the monotonic clock: a wall-clock step during the drain neither shortens nor stretches it
    const deadline = performance.now() + graceMs;
    const finished = await drain.idle(graceMs);
    const abandoned = drain.count;
    if (!finished) {
      // Each call still running gets its answer (CANCELLED: the server shut down, the upstream request may have run)
      // before the sockets go and the calls are aborted; the SDK itself never answers an aborted request.
      const answered = await cutOff.answerAll();
      logger.log('warn', { event: 'drain_timeout', graceMs, abandoned, answered, note: 'calls still in flight were answered CANCELLED and are cancelled now' });
    }
    // Listening (and answering 503) until the balancer stopped routing here, within the grace (close(): no wait).
    const unrouted = finished && graceMs > 0 ? await connections.quiet(DRAIN_QUIET_MS, deadline) : true;
    if (!unrouted) logger.log('warn', { event: 'drain_still_routed', quietMs: DRAIN_QUIET_MS, note: 'requests kept arriving until the grace ended: is the balancer health-checking /readyz?' });
    readiness.stop();
    const closed = connections.close(CLOSE_WINDOW_MS);
    // Sessions end (legacy standalone streams close; a call left after the grace is aborted).
    await Promise.all([legacy.closeAll(), modern.close()]);
    // The grace is over: what is still open is cut now (a 2026-07-28 call is cancelled with its connection).
    if (!finished) httpServer.closeAllConnections();
    await closed;
    if (ownStore) await store.close();
    return { finished, abandoned };
  }

  logger.log('info', { event: 'serve', transport: 'http', url: `http://${shownHost}:${port}${path}`, ...(options.oauth ? { resource } : {}) });
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    host,
    server: httpServer,
    sessionCount: () => legacy.size,
    state: store,
    limits: rateLimits(legDeps),
    ...(authenticator.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: authenticator.resourceMetadataUrl, resource } : {}),
    readiness,
    drain,
    shutdown(graceMs) {
      return (shuttingDown ??= shutdown(graceMs));
    },
    async close() {
      await (shuttingDown ??= shutdown(0));
    },
  };
}
