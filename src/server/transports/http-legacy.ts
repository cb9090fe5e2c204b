// The legacy (handshake-era) leg of the HTTP endpoint, as before the 2026-07-28 revision: sessions (random UUID
// ids) recorded in the state store and bound to the principal that opened them, one server instance + SDK
// web-standard transport per session, rebuilt by any replica from the store (no sticky routing), 404 for an
// unknown session, DELETE, the standalone GET stream, idle expiry. The caller has done every HTTP check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import { STATE_UNAVAILABLE_MESSAGE, type SessionRecord, type StateStore } from '../../state/index.js';
import type { Principal } from '../auth/index.js';
import { createServer, sessionTag, type CatalogServer, type ServerDeps } from '../create-server.js';
import { generateSessionId } from '../session.js';
import { sendError } from './http-errors.js';
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
}

interface LiveSession {
  transport: WebStandardStreamableHTTPServerTransport;
  app: CatalogServer;
  /** The principal that initialized the session; only it may use the session id (B4). */
  principal: string;
  lastSeen: number;
}

const SESSION_ID_RE = /^[\x21-\x7E]{1,128}$/;

/** Legacy sessions this process holds a live transport for (created here or rebuilt from the store). */
export class LegacySessions {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly reaper: NodeJS.Timeout;

  constructor(private readonly o: LegacySessionOptions) {
    this.reaper = setInterval(() => {
      const t = o.now();
      for (const [id, s] of this.sessions) if (t - s.lastSeen > o.ttlMs) void this.end(id, 'idle');
    }, Math.max(1000, Math.min(60_000, Math.floor(o.ttlMs / 4))));
    this.reaper.unref();
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
    const post = (body: unknown, withId: boolean) =>
      live.transport.handleRequest(
        new Request(`http://localhost${this.o.path}`, {
          method: 'POST',
          headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...(withId ? { 'mcp-session-id': id } : {}) },
        }),
        { parsedBody: body },
      );
    const init = await post({ jsonrpc: '2.0', id: 'rehydrate', method: 'initialize', params: record.init }, false);
    await init.text();
    const done = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, true);
    await done.text();
    if (init.status !== 200 || done.status !== 202) {
      await this.end(id, 'rehydrate_failed');
      throw new Error(`rehydrating a session failed (${init.status}/${done.status})`);
    }
    this.o.logger.log('info', { event: 'session_rehydrated', session: sessionTag(id) });
    return live;
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
    const rawId = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(rawId) ? rawId[0] : rawId;
    let live: LiveSession | undefined;
    if (sessionId !== undefined) {
      if (!SESSION_ID_RE.test(sessionId)) return sendError(res, 400, -32000, 'Bad Request: malformed Mcp-Session-Id');
      const key = { principal: principal.id, session: sessionId };
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
      }
    }

    if (method !== 'POST') {
      if (!live) return sendError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      await writeWebResponse(res, await live.transport.handleRequest(toWebRequest(req, target)));
      return;
    }
    if (live) {
      await writeWebResponse(res, await live.transport.handleRequest(toWebRequest(req, target), { parsedBody: parsed }));
      return;
    }
    if (!isInitializeRequest(parsed)) {
      return sendError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required (initialize first, or send a 2026-07-28 request with its _meta)');
    }
    if (this.sessions.size >= this.o.maxSessions) {
      if (!store.shared) return sendError(res, 503, -32000, 'Service Unavailable: too many sessions; retry later', { 'Retry-After': '30' });
      this.evictOldest();
    }
    const id = generateSessionId();
    const record: SessionRecord = { principal: principal.id, init: parsed.params as unknown as Record<string, unknown>, createdAt: this.o.now() };
    try {
      await store.createSession({ principal: principal.id, session: id }, record, this.o.ttlMs);
    } catch {
      return this.storeDown(res);
    }
    const created = await this.makeLive(id, principal.id);
    logger.log('info', { event: 'session_start', session: sessionTag(id) });
    await writeWebResponse(res, await created.transport.handleRequest(toWebRequest(req, target), { parsedBody: parsed }));
  }

  /** Ends every session this process holds (shutdown: aborts in-flight calls); the store keeps them. */
  async closeAll(): Promise<void> {
    clearInterval(this.reaper);
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id, 'shutdown')));
  }
}
