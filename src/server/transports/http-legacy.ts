// The legacy (handshake-era) leg of the HTTP endpoint, as before the 2026-07-28 revision: sessions (random UUID
// ids) recorded in the state store and bound to the principal that opened them, one server instance + SDK
// web-standard transport per session, rebuilt by any replica from the store (no sticky routing), 404 for an
// unknown session, DELETE, the standalone GET stream, idle expiry. With a shared store, a client's
// notifications/cancelled and a DELETE also reach the replica that holds the request or the stream (session
// signals). The caller has done every HTTP check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, isJSONRPCNotification, specTypeSchemas, SUPPORTED_PROTOCOL_VERSIONS, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import { STATE_UNAVAILABLE_MESSAGE, type SessionKey, type SessionRecord, type SessionSignal, type StateStore } from '../../state/index.js';
import type { Principal } from '../auth/index.js';
import { createServer, sessionTag, type CatalogServer, type ServerDeps } from '../create-server.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION, unsupportedVersionMessage } from '../eras.js';
import { oneLineInvalidParams } from '../invalid-params.js';
import type { CutOffCalls } from '../ops/cut-off-calls.js';
import { generateSessionId } from '../session.js';
import { sendError } from './http-errors.js';
import { HEADER_MISMATCH, legacyHeaderMismatch } from './http-legacy-headers.js';
import { toWebRequest, writeWebResponse } from './node-web.js';

export interface LegacySessionOptions {
  /** What every session's server is built from (state store, signer and read limit already set). */
  deps: ServerDeps;
  store: StateStore;
  path: string;
  maxBodyBytes: number;
  maxSessions: number;
  ttlMs: number;
  now: () => number;
  logger: Logger;
  /** Where requests in flight are tracked, so that one still running when the shutdown grace ends is answered. */
  cutOff?: CutOffCalls;
}

interface LiveSession {
  transport: WebStandardStreamableHTTPServerTransport;
  app: CatalogServer;
  /** The principal that initialized the session; only it may use the session id (B4). */
  principal: string;
  lastSeen: number;
}

const SESSION_ID_RE = /^[\x21-\x7E]{1,128}$/;

/**
 * Answers a request whose MCP-Protocol-Version it cannot carry and returns true (else false): a version we do not
 * speak gets the unsupported-version error (400, as the 2025-06-18 transport asks; the message names every version)
 * instead of the routing's guess that it is a newer modern one, which asks for a _meta envelope for a revision that
 * does not exist. Inside a legacy session data.supported lists what a session's requests may carry; a POST without
 * a session gets what the modern leg answers when the envelope names the same version (data.supported: the
 * versions a request's _meta may claim), _meta or not: an unsupported version is answered before anything else
 * about the request. A GET or DELETE naming 2026-07-28 with no session gets that revision's 405 (as from the SDK's
 * modern-only leg) instead of a call for a session id. `message`: the POST's body (its id is echoed).
 */
export function refusedByVersion(req: IncomingMessage, res: ServerResponse, message: unknown): boolean {
  const header = req.headers['mcp-protocol-version'];
  const version = Array.isArray(header) ? header[0] : header;
  if (version === undefined) return false;
  const inSession = req.headers['mcp-session-id'] !== undefined;
  if (!inSession && req.method !== 'POST' && MODERN_PROTOCOL_VERSIONS.includes(version)) {
    sendError(res, 405, -32000, `Method Not Allowed: ${version} has no sessions, GET stream or DELETE; send each request as a POST`, { Allow: 'POST' });
    return true;
  }
  if (LEGACY_PROTOCOL_VERSIONS.includes(version) || MODERN_PROTOCOL_VERSIONS.includes(version)) return false;
  // a GET or DELETE without a session has no version to refuse: it is told it needs a session (LegacySessions.serve)
  if (!inSession && req.method !== 'POST') return false;
  const data = { supported: [...(inSession ? LEGACY_PROTOCOL_VERSIONS : MODERN_PROTOCOL_VERSIONS)], requested: version.slice(0, 40) };
  sendRpcError(res, 400, message, { code: UNSUPPORTED_PROTOCOL_VERSION, message: unsupportedVersionMessage(version), data });
  return true;
}

/** A JSON-RPC error answer to `message`, with its id (sendError's answers have none). */
function sendRpcError(res: ServerResponse, status: number, message: unknown, error: { code: number; message: string; data?: unknown }): void {
  const id = (message as { id?: unknown } | null | undefined)?.id;
  const body = JSON.stringify({ jsonrpc: '2.0', error, id: typeof id === 'string' || typeof id === 'number' ? id : null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** The request a notifications/cancelled names, when `message` is one. */
function cancelledRequest(message: unknown): { requestId: string | number; reason?: string } | undefined {
  if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled') return undefined;
  const { requestId, reason } = (message.params ?? {}) as { requestId?: unknown; reason?: unknown };
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
  return { requestId, ...(typeof reason === 'string' ? { reason: reason.slice(0, 200) } : {}) };
}

/** What is wrong with an initialize request the SDK's schema refuses, in one line naming the field(s). */
function invalidInitialize(message: unknown): string {
  const checked = specTypeSchemas.InitializeRequest['~standard'].validate(message);
  const issues = 'issues' in checked && checked.issues !== undefined ? checked.issues : [];
  const listed = issues.map((i) => ({ path: (i.path ?? []).map((p) => (typeof p === 'object' ? p.key : p)), message: i.message }));
  const line = oneLineInvalidParams('initialize', new Error(JSON.stringify(listed)));
  return line instanceof Error && listed.length > 0 ? line.message : 'Invalid initialize request: params must hold protocolVersion, capabilities and clientInfo';
}

/** Legacy sessions this process holds a live transport for (created here or rebuilt from the store). */
export class LegacySessions {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly reaper: NodeJS.Timeout;
  private readonly stopSignals: (() => void) | undefined;

  constructor(private readonly o: LegacySessionOptions) {
    this.reaper = setInterval(() => {
      const t = o.now();
      for (const [id, s] of this.sessions) if (t - s.lastSeen > o.ttlMs) void this.end(id, 'idle');
    }, Math.max(1000, Math.min(60_000, Math.floor(o.ttlMs / 4))));
    this.reaper.unref();
    this.stopSignals = o.store.onSignal?.((signal) => this.onSignal(signal));
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Drops this process's transport for a session; the store keeps the session for other replicas unless `why` is delete. */
  private async end(id: string, why: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    this.o.logger.log('info', { event: 'session_end', session: sessionTag(id), reason: why });
    await s.transport.close().catch(() => undefined);
    await s.app.server.close().catch(() => undefined);
  }

  /** Makes room in the local cache (shared store only: the evicted session stays in the store). */
  private evictOldest(): void {
    let oldest: [string, LiveSession] | undefined;
    for (const e of this.sessions) if (!oldest || e[1].lastSeen < oldest[1].lastSeen) oldest = e;
    if (oldest) void this.end(oldest[0], 'evicted');
  }

  /**
   * Another replica's news about a session this process may hold: the session was deleted (its live transport and
   * GET stream end here too), or its client cancelled a request (delivered to the transport as the client's own
   * notification, so a call running here is aborted exactly as by a local cancellation). Only for the principal
   * that owns the session: the replica that published it found the session under the caller's principal (B4).
   */
  private onSignal(signal: SessionSignal): void {
    const id = signal.key.session;
    const live = this.sessions.get(id);
    if (live === undefined || live.principal !== signal.key.principal) return;
    if (signal.kind === 'deleted') {
      void this.end(id, 'deleted');
      return;
    }
    const params = { requestId: signal.requestId, ...(signal.reason !== undefined ? { reason: signal.reason } : {}) };
    this.o.logger.log('info', { event: 'cancel_relayed', session: sessionTag(id), requestId: typeof signal.requestId === 'string' ? signal.requestId.slice(0, 100) : signal.requestId });
    void this.post(live, id, { jsonrpc: '2.0', method: 'notifications/cancelled', params }, true)
      .then((r) => r.text())
      .catch(() => undefined);
  }

  /** Tells the other replicas (shared store); a signal that cannot be sent is logged, and the request goes on. */
  private async signal(signal: SessionSignal): Promise<void> {
    try {
      await this.o.store.publishSignal?.(signal);
    } catch {
      this.o.logger.log('warn', { event: 'signal_not_sent', kind: signal.kind, session: sessionTag(signal.key.session), note: 'other replicas did not hear of it' });
    }
  }

  /** A message handed to a session's transport by this process (not from the client's connection). */
  private post(live: LiveSession, id: string, body: unknown, withId: boolean): Promise<Response> {
    return live.transport.handleRequest(
      new Request(`http://localhost${this.o.path}`, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...(withId ? { 'mcp-session-id': id } : {}) },
      }),
      { parsedBody: body },
    );
  }

  /** One server + transport for a session id this process will serve. */
  private async makeLive(id: string, principal: string): Promise<LiveSession> {
    const app = createServer({ ...this.o.deps, era: 'legacy', principal, sessionId: id, touchedByTransport: true });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id, maxRequestBodySize: this.o.maxBodyBytes });
    const live: LiveSession = { transport, app, principal, lastSeen: this.o.now() };
    transport.onclose = () => {
      if (this.sessions.get(id) === live) this.sessions.delete(id);
    };
    await app.server.connect(transport);
    this.sessions.set(id, live);
    return live;
  }

  /**
   * Serves a session another replica created (or this one forgot): replays the client's stored initialize and
   * initialized notification through the transport's public API, which marks it initialized under this id and
   * restores the client's protocol version and capabilities in the server.
   */
  private async rehydrate(id: string, record: SessionRecord): Promise<LiveSession> {
    if (this.sessions.size >= this.o.maxSessions) this.evictOldest();
    const live = await this.makeLive(id, record.principal);
    const replayed = await this.untilMade(id, live, 'rehydrate_failed', async () => {
      const init = await this.post(live, id, { jsonrpc: '2.0', id: 'rehydrate', method: 'initialize', params: record.init }, false);
      await init.text();
      const done = await this.post(live, id, { jsonrpc: '2.0', method: 'notifications/initialized' }, true);
      await done.text();
      return [init.status, done.status];
    });
    if (replayed[0] !== 200 || replayed[1] !== 202) {
      await this.end(id, 'rehydrate_failed');
      throw new Error(`rehydrating a session failed (${replayed[0]}/${replayed[1]})`);
    }
    this.o.logger.log('info', { event: 'session_rehydrated', session: sessionTag(id) });
    return live;
  }

  /**
   * Runs the rest of a session's making (its initialize) on `live`, just made: when that throws, the session is
   * ended at once (its slot freed, its transport closed) instead of holding a slot until idle expiry.
   */
  private async untilMade<T>(id: string, live: LiveSession, why: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      if (this.sessions.get(id) === live) await this.end(id, why);
      else await Promise.all([live.transport.close().catch(() => undefined), live.app.server.close().catch(() => undefined)]);
      throw err;
    }
  }

  private storeDown(res: ServerResponse): void {
    sendError(res, 503, -32000, `Service Unavailable: ${STATE_UNAVAILABLE_MESSAGE}; retry in a few seconds`, { 'Retry-After': '2' });
  }

  /**
   * Serves one legacy request: `parsed` is the POST body (already read, parsed and scope-checked), undefined for
   * GET and DELETE.
   */
  async serve(req: IncomingMessage, res: ServerResponse, principal: Principal, target: string, parsed: unknown): Promise<void> {
    const { store, logger } = this.o;
    const method = req.method ?? 'GET';
    // Mcp-Method / Mcp-Name that disagree with the body: refused as the modern leg refuses them (a balancer may have
    // routed the request on them), before any session is looked up or made (http-legacy-headers.ts).
    const mismatch = parsed !== undefined ? legacyHeaderMismatch(req.headers, parsed) : undefined;
    if (mismatch !== undefined) {
      const message = `Bad Request: the request headers and body disagree: ${mismatch.body}`;
      logger.log('info', { event: 'mcp_refused', era: 'legacy', message: message.slice(0, 300) });
      return sendRpcError(res, 400, parsed, { code: HEADER_MISMATCH, message, data: { mismatch } });
    }
    const rawId = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(rawId) ? rawId[0] : rawId;
    let live: LiveSession | undefined;
    let key: SessionKey | undefined;
    if (sessionId !== undefined) {
      if (!SESSION_ID_RE.test(sessionId)) return sendError(res, 400, -32000, 'Bad Request: malformed Mcp-Session-Id');
      key = { principal: principal.id, session: sessionId };
      live = this.sessions.get(sessionId);
      if (live && live.principal !== principal.id) {
        // Same answer as an unknown id: a session id is no credential, and its existence is not disclosed.
        logger.log('warn', { event: 'http_refused', reason: 'session_principal', session: sessionTag(sessionId) });
        live = undefined;
      }
      let record: SessionRecord | undefined;
      let reachable = true;
      try {
        // Looked up under the caller's principal: another principal's session id finds nothing (B4).
        record = await store.touchSession(key, this.o.ttlMs);
      } catch {
        reachable = false;
      }
      if (!reachable) {
        // A live transport can still answer (its tool calls fail closed on their own); rebuilding one cannot.
        if (!live) return this.storeDown(res);
      } else if (!record) {
        if (live) await this.end(sessionId, 'gone');
        return sendError(res, 404, -32001, 'Session not found: initialize a new session');
      } else if (!live) {
        try {
          live = await this.rehydrate(sessionId, record);
        } catch {
          return sendError(res, 404, -32001, 'Session not found: initialize a new session');
        }
      }
      if (!live) return this.storeDown(res);
      live.lastSeen = this.o.now();
      if (method === 'DELETE') {
        const version = req.headers['mcp-protocol-version'];
        if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
          return sendError(res, 400, -32000, `Bad Request: Unsupported protocol version: ${version.slice(0, 40)}`);
        }
        try {
          // Every key of the session goes, on every replica's next request (A16).
          await store.deleteSession(key);
        } catch {
          return this.storeDown(res);
        }
        logger.log('info', { event: 'session_end', session: sessionTag(sessionId), reason: 'delete' });
        // another replica may hold the session live, with a GET stream open: it ends there now, not at idle expiry
        void this.signal({ kind: 'deleted', key });
      }
    }

    if (method !== 'POST') {
      if (!live) return sendError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      await writeWebResponse(res, await live.transport.handleRequest(toWebRequest(req, target)));
      return;
    }
    if (live && key) {
      // The request may be running on another replica (no sticky routing): every replica hears of the cancellation.
      const cancelled = cancelledRequest(parsed);
      if (cancelled !== undefined) void this.signal({ kind: 'cancel', key, ...cancelled });
      // at the end of the shutdown grace the session's transport writes the answer onto this request's SSE stream
      const transport = live.transport;
      const tracked = this.o.cutOff?.track(parsed, 'legacy', res, (m) => transport.send(m));
      const dispatch = () => transport.handleRequest(toWebRequest(req, target), { parsedBody: parsed });
      try {
        await writeWebResponse(res, await (tracked !== undefined ? tracked.run(dispatch) : dispatch()));
      } finally {
        tracked?.untrack();
      }
      return;
    }
    if (!isInitializeRequest(parsed)) {
      if ((parsed as { method?: unknown } | null)?.method === 'initialize') return sendRpcError(res, 400, parsed, { code: -32602, message: invalidInitialize(parsed) });
      // the body was read: its id is echoed, so that the client can match this answer to its request
      return sendRpcError(res, 400, parsed, { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required (initialize first, or send a 2026-07-28 request with its _meta)' });
    }
    if (this.sessions.size >= this.o.maxSessions) {
      if (!store.shared) return sendError(res, 503, -32000, 'Service Unavailable: too many sessions; retry later', { 'Retry-After': '30' });
      this.evictOldest();
    }
    const id = generateSessionId();
    const created = await this.makeLive(id, principal.id);
    const response = await this.untilMade(id, created, 'create_failed', () => created.transport.handleRequest(toWebRequest(req, target), { parsedBody: parsed }));
    // A refused initialize (406 for an Accept without text/event-stream, 400 for a bad header...) leaves no session:
    // its client never learns the id, so nobody could use or DELETE it, and enough of them would fill maxSessions.
    if (response.status < 200 || response.status > 299 || response.headers.get('mcp-session-id') !== id) {
      this.sessions.delete(id);
      await writeWebResponse(res, response);
      await created.transport.close().catch(() => undefined);
      await created.app.server.close().catch(() => undefined);
      return;
    }
    // Recorded before the client has the id, so that its next request may reach any replica.
    const record: SessionRecord = { principal: principal.id, init: parsed.params as unknown as Record<string, unknown>, createdAt: this.o.now() };
    try {
      await store.createSession({ principal: principal.id, session: id }, record, this.o.ttlMs);
    } catch {
      await response.body?.cancel().catch(() => undefined);
      await this.end(id, 'store_unavailable');
      return this.storeDown(res);
    }
    logger.log('info', { event: 'session_start', session: sessionTag(id) });
    await writeWebResponse(res, response);
  }

  /** Ends every session this process holds (shutdown: aborts in-flight calls); the store keeps them. */
  async closeAll(): Promise<void> {
    clearInterval(this.reaper);
    this.stopSignals?.();
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id, 'shutdown')));
  }
}
