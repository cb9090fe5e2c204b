// stdio transport: the MCP protocol on stdin/stdout, nothing else on stdout (logs go to the logger). Both eras on
// one entry, the SDK's serveStdio: the opening message picks the connection's era (a 2026-07-28 request with its
// _meta envelope, or the legacy initialize) and one server instance is pinned for the connection; every later
// request is held to that era (stdio-era.ts: each request stands alone). A line that is not a
// JSON-RPC message is answered as over HTTP (-32700 / -32600) and the session goes on (C3); a frame over the buffer
// cap closes the session with reason 'overflow' (C4); stdin EOF closes it with reason 'eof' (C5). Closing aborts
// in-flight tool calls (their AbortSignal); shutdown() drains first: new requests are refused, answers and
// notifications still pass, and the calls in flight finish (or the grace ends); a call the client cancelled is
// finished once its handler settles (no answer comes for it); a subscriptions/listen is a standing subscription, not
// a call: it never holds the drain. A JSON-RPC batch is refused in every revision.
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { silentLogger, type Logger } from '../../logger.js';
import { createServer, type CatalogServer, type ServerDeps } from '../create-server.js';
import { withAllSupportedVersions } from '../eras.js';
import { CatalogMcpServer } from '../invalid-params.js';
import { Drain } from '../ops/drain.js';
import { loadSearchEngine, searchEngineLoaded } from '../core/search-engine.js';
import { checkEachRequest, withInitializeRefusal } from './stdio-era.js';
import { AnsweringStdioTransport } from './stdio-reader.js';

export type StdioCloseReason = 'eof' | 'overflow' | 'shutdown' | 'error';

export interface StdioHandle {
  /** Resolves once the session is over, with why. */
  closed: Promise<StdioCloseReason>;
  /** Ends the session now: aborts in-flight calls and stops reading. */
  close(): Promise<void>;
  /**
   * SIGTERM/SIGINT: refuses new requests (an error answer each), lets the calls in flight finish for up to
   * `graceMs` (answers from the client, e.g. to an elicitation, still arrive), then closes.
   */
  shutdown(graceMs: number): Promise<{ finished: boolean; abandoned: number }>;
  /** Requests of the client not answered yet. */
  inFlight(): number;
}

type Message = { id?: unknown; method?: unknown; result?: unknown; error?: unknown };

/** What the server answers without reading the catalogs' index: delivered while the bundle's search engine loads. */
const WITHOUT_INDEX = new Set(['initialize', 'ping', 'tools/list', 'server/discover']);
const needsIndex = (m: Message): boolean => typeof m.method === 'string' && !WITHOUT_INDEX.has(m.method) && !m.method.startsWith('notifications/');

/**
 * The 2026-07-28 subscription request. The SDK's entry serves it itself: it acknowledges it with a notification and
 * answers it only when the connection closes (the subscription's graceful end) or never (the client cancelled it).
 */
const LISTEN = 'subscriptions/listen';

/** Largest single stdin line (one JSON-RPC message): the SDK default, 10 MiB. */
export const STDIO_MAX_FRAME_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/**
 * The wire serveStdio owns, seen from here: we learn when it closes (serveStdio replaces the transport's own
 * callbacks), count the client's requests in flight for the drain, and reword the SDK's -32022 answers (every version
 * we speak; for an initialize on a 2026-07-28 connection, why it is refused and what to do).
 */
class ObservedWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  /** Requests from the client not answered yet: id -> its method, and what counts it out of the drain. */
  private readonly pending = new Map<unknown, { method: string; leave: (() => void) | undefined }>();
  /** Pending requests the client cancelled (notifications/cancelled): no answer will come for them. */
  private readonly cancelled = new Set<unknown>();
  /** Messages held, in arrival order, while the bundle's search engine loads (deliver()). */
  private held: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> | undefined;
  private closed = false;

  constructor(
    private readonly inner: Transport,
    onClosed?: () => void,
    private readonly drain?: Drain,
  ) {
    inner.onmessage = (message, extra) => {
      const m = message as Message;
      if (typeof m.method === 'string' && m.id !== undefined) {
        if (drain?.draining === true) {
          // Stop taking work: a new request gets an error answer at once instead of a call that would be cut short.
          void inner.send({ jsonrpc: '2.0', id: m.id as string | number, error: { code: -32000, message: 'the server is shutting down; this request was not processed' } }).catch(() => undefined);
          return;
        }
        this.pending.get(m.id)?.leave?.();
        this.pending.delete(m.id);
        this.cancelled.delete(m.id);
        // A subscription is no call to wait for: it lasts until the client cancels it or the connection closes, and
        // serveStdio ends it at close (its graceful result). Counted, it held every drain for the whole grace.
        if (m.method !== LISTEN) this.pending.set(m.id, { method: m.method, leave: drain?.enter() });
      }
      if (m.method === 'notifications/cancelled' && m.id === undefined) {
        const id = (message as { params?: { requestId?: unknown } }).params?.requestId;
        if (this.pending.has(id)) this.cancelled.add(id);
      }
      this.deliver(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.closed = true;
      onClosed?.();
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  /**
   * Hands a message on. The bundled `serve` loads the search engine after its first answers (search-engine-lazy.ts): the first message
   * that may read the index (a tool call, a resource read) waits for it, and every message after it waits behind it,
   * so that the order the client sent them in holds (a cancellation still follows its request). Counted in flight
   * (the drain) from its arrival.
   */
  private deliver(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (this.held !== undefined) {
      this.held.push([message, extra]);
      return;
    }
    if (!searchEngineLoaded() && needsIndex(message as Message)) {
      const held: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> = [[message, extra]];
      this.held = held;
      // (should the engine fail to load, each call says so: catalogs.ts throws INTERNAL when it is missing)
      void loadSearchEngine()
        .catch(() => undefined)
        .then(() => {
          this.held = undefined;
          if (!this.closed) for (const [m, e] of held) this.onmessage?.(m, e);
        });
      return;
    }
    this.onmessage?.(message, extra);
  }

  /**
   * A request's handler settled (CatalogMcpServer.onHandlerSettled). One the client cancelled gets no answer (the
   * SDK sends none), so it is counted out now, or a drain would wait for it until the grace ran out; any other is
   * counted out once its answer is written (send()).
   */
  settled(id: unknown, aborted: boolean): void {
    if (!aborted || !this.cancelled.delete(id)) return;
    const entry = this.pending.get(id);
    this.pending.delete(id);
    entry?.leave?.();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as Message;
    if (m.method === undefined && m.id !== undefined && (m.result !== undefined || m.error !== undefined)) {
      const entry = this.pending.get(m.id);
      this.pending.delete(m.id);
      this.cancelled.delete(m.id);
      // (an initialize reaches the SDK's -32022 only on a 2026-07-28 connection: a handshake one negotiates)
      const answer = entry?.method === 'initialize' ? withInitializeRefusal(message) : withAllSupportedVersions(message);
      // Counted out once the answer is written (a drain that ends now must not cut it).
      if (entry?.leave !== undefined) return this.inner.send(answer, options).finally(entry.leave);
      return this.inner.send(answer, options);
    }
    return this.inner.send(withAllSupportedVersions(message), options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** What was served on one connection: the instance of its era (the last the factory built; a probe is replaced). */
export interface ConnectionHandle {
  close(): Promise<void>;
  /** The server instance pinned for the connection, once its opening message arrived. */
  current(): CatalogServer | undefined;
}

/**
 * Serves one MCP connection on any transport with the SDK's serveStdio entry (either era, chosen by the opening
 * message). `onerror` sees the wire's errors and refused messages; `onClosed` runs when the wire closes.
 */
export function serveConnection(deps: ServerDeps, wire: Transport, onerror?: (error: Error) => void, onClosed?: () => void, drain?: Drain): ConnectionHandle {
  let current: CatalogServer | undefined;
  const observed = new ObservedWire(wire, onClosed, drain);
  const handle = sdkServeStdio(
    ({ era }) => {
      current = createServer({ ...deps, era });
      checkEachRequest(current.server, era, onerror);
      if (current.server instanceof CatalogMcpServer) current.server.onHandlerSettled = (id, aborted) => observed.settled(id, aborted);
      return current.server;
    },
    { transport: observed, ...(onerror !== undefined ? { onerror } : {}) },
  );
  return { close: () => handle.close(), current: () => current };
}

/** Serves MCP on the given streams (default process.stdin/stdout), either era, one connection. */
export async function serveStdio(
  deps: ServerDeps,
  streams: { stdin?: Readable; stdout?: Writable; logger?: Logger } = {},
): Promise<StdioHandle> {
  const stdin = streams.stdin ?? process.stdin;
  const stdout = streams.stdout ?? process.stdout;
  const logger = streams.logger ?? deps.logger ?? silentLogger;
  let reason: StdioCloseReason | undefined;
  let resolveClosed!: (r: StdioCloseReason) => void;
  const closed = new Promise<StdioCloseReason>((r) => (resolveClosed = r));
  const wire = new AnsweringStdioTransport(stdin, stdout, STDIO_MAX_FRAME_BYTES);
  const drain = new Drain();
  const handle = serveConnection(deps, wire, (error: Error) => {
    if (/exceeded maximum size/i.test(error.message)) {
      reason ??= 'overflow';
      logger.log('error', {
        event: 'stdio_frame_too_large',
        message: `a stdin message exceeded ${STDIO_MAX_FRAME_BYTES} bytes; closing the session`,
      });
    } else {
      // Refused lines (C3: answered already) and messages the entry refused: report and keep serving.
      logger.log('warn', { event: 'stdio_bad_message', message: error.message.slice(0, 200) });
    }
  }, () => resolveClosed(reason ?? 'eof'), drain);
  logger.log('info', { event: 'serve', transport: 'stdio' });
  return {
    closed,
    async close() {
      reason ??= 'shutdown';
      await handle.close();
    },
    inFlight: () => drain.count,
    async shutdown(graceMs) {
      drain.start();
      const finished = await drain.idle(graceMs);
      const abandoned = drain.count;
      if (!finished) logger.log('warn', { event: 'drain_timeout', graceMs, abandoned, note: 'calls still in flight are cancelled now' });
      reason ??= 'shutdown';
      await handle.close();
      return { finished, abandoned };
    },
  };
}
