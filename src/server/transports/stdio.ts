// stdio transport: the MCP protocol on stdin/stdout, nothing else on stdout (logs go to the logger). Both eras on
// one entry, the SDK's serveStdio: the opening message picks the connection's era (a 2026-07-28 request with its
// _meta envelope, or the legacy initialize) and one server instance is pinned for the connection; on a 2026-07-28
// connection every request's claimed version is checked again (each request stands alone). A line that is not a
// JSON-RPC message is answered as over HTTP (-32700 / -32600) and the session goes on (C3); a frame over the buffer
// cap closes the session with reason 'overflow' (C4); stdin EOF closes it with reason 'eof' (C5). Closing aborts
// in-flight tool calls (their AbortSignal); shutdown() drains first: new requests are refused, answers and
// notifications still pass, and the calls in flight finish (or the grace ends); a call the client cancelled is
// finished once its handler settles (no answer comes for it). A JSON-RPC batch is refused in every revision.
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, MessageExtraInfo, Server, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  UnsupportedProtocolVersionError,
  parseJSONRPCMessage,
} from '@modelcontextprotocol/server';
import { silentLogger, type Logger } from '../../logger.js';
import { createServer, type CatalogServer, type ServerDeps } from '../create-server.js';
import { MODERN_PROTOCOL_VERSIONS, withAllSupportedVersions } from '../eras.js';
import { CatalogMcpServer } from '../invalid-params.js';
import { Drain } from '../ops/drain.js';
import { loadSearchEngine, searchEngineLoaded } from '../core/search-engine.js';

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

/** Largest single stdin line (one JSON-RPC message): the SDK default, 10 MiB. */
export const STDIO_MAX_FRAME_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/**
 * The wire serveStdio owns, seen from here: we learn when it closes (serveStdio replaces the transport's own
 * callbacks) and widen the versions an UnsupportedProtocolVersionError lists to every one we speak.
 */
class ObservedWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  /** Requests from the client not answered yet (id -> counts it out of the drain). */
  private readonly pending = new Map<unknown, () => void>();
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
      if (drain !== undefined && typeof m.method === 'string' && m.id !== undefined) {
        if (drain.draining) {
          // Stop taking work: a new request gets an error answer at once instead of a call that would be cut short.
          void inner.send({ jsonrpc: '2.0', id: m.id as string | number, error: { code: -32000, message: 'the server is shutting down; this request was not processed' } }).catch(() => undefined);
          return;
        }
        this.pending.get(m.id)?.();
        this.cancelled.delete(m.id);
        this.pending.set(m.id, drain.enter());
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
    const leave = this.pending.get(id);
    this.pending.delete(id);
    leave?.();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as Message;
    if (m.method === undefined && m.id !== undefined && (m.result !== undefined || m.error !== undefined)) {
      const leave = this.pending.get(m.id);
      this.pending.delete(m.id);
      this.cancelled.delete(m.id);
      // Counted out once the answer is written (a drain that ends now must not cut it).
      if (leave !== undefined) return this.inner.send(withAllSupportedVersions(message), options).finally(leave);
    }
    return this.inner.send(withAllSupportedVersions(message), options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The SDK's stdio transport, but it reads the lines itself so that a line it cannot deliver gets an answer: the
 * SDK's own reader drops a line that is not JSON without a word and reports one that is not a JSON-RPC message only
 * to `onerror`, so a client waits for its timeout. Here (as the HTTP leg answers such a body) a line that is not JSON
 * gets -32700 and one that is JSON but no valid request gets -32600, both without an id unless the line carried a
 * usable one (the 2026-07-28 schema allows no `null` id, and SDK clients drop a line that has one). Not answered:
 * blank lines, notification-shaped lines (a `method` and no `id`: nobody waits for them) and response-shaped ones (a
 * `result` or `error` and no `method`: an answer to them could be taken for the answer to the client's own request
 * of that id). Every refused line is still reported to `onerror` (the log's `stdio_bad_message`). Writing, closing
 * and the frame cap (C4: the same check and message as the SDK's reader) are the SDK's.
 */
class AnsweringStdioTransport extends StdioServerTransport {
  private pending: Buffer | undefined;

  constructor(stdin: Readable, stdout: Writable, private readonly maxBufferSize: number) {
    super(stdin, stdout, { maxBufferSize });
    // start() subscribes whatever `_ondata` is then, and close() unsubscribes the same, so this replaces the reader.
    this._ondata = (chunk: Buffer) => {
      if ((this.pending?.length ?? 0) + chunk.length > this.maxBufferSize) {
        this.pending = undefined;
        this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`));
        void this.close().catch(() => undefined);
        return;
      }
      this.pending = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
      let newline: number;
      while (this.pending !== undefined && (newline = this.pending.indexOf(10)) >= 0) {
        const line = this.pending.toString('utf8', 0, newline).replace(/\r$/, '');
        this.pending = this.pending.subarray(newline + 1);
        try {
          this.receive(line);
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        }
      }
    };
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(undefined, ProtocolErrorCode.ParseError, 'Parse error: the line is not JSON; send one JSON-RPC message per line');
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.refuseInvalid(value);
      return;
    }
    this.onmessage?.(message);
  }

  /** A JSON value that is no JSON-RPC message: -32600 unless nobody waits for an answer to it. */
  private refuseInvalid(value: unknown): void {
    if (Array.isArray(value)) {
      // Every revision, 2025-03-26 and 2024-11-05 included (whose JSON-RPC allows batches): a deviation the README's
      // "Protocol versions" states with its reason, as the HTTP leg's refusal does.
      this.refuse(
        undefined,
        ProtocolErrorCode.InvalidRequest,
        'Invalid Request: this server accepts no JSON-RPC batches, in any protocol revision (2025-03-26 and earlier included); send one message per line',
      );
      return;
    }
    const m = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    if (m !== undefined && !('id' in m) && typeof m.method === 'string') {
      this.onerror?.(new Error(`Discarded an invalid notification ${JSON.stringify(m.method.slice(0, 60))} from stdin (notifications get no answer)`));
      return;
    }
    if (m !== undefined && !('method' in m) && ('result' in m || 'error' in m)) {
      this.onerror?.(new Error('Discarded an invalid JSON-RPC response from stdin (responses get no answer)'));
      return;
    }
    const id = m?.id;
    const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : undefined;
    this.refuse(
      usableId,
      ProtocolErrorCode.InvalidRequest,
      'Invalid Request: not a JSON-RPC 2.0 request; one needs "jsonrpc": "2.0", an "id" that is a string or an integer (never null) and a string "method"',
    );
  }

  private refuse(id: string | number | undefined, code: number, message: string): void {
    this.onerror?.(new Error(`Refused a stdin line: ${message}`));
    // An error response without an id: the 2026-07-28 schema's JSONRPCErrorResponse allows it (its `id` is optional).
    void this.send({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), error: { code, message } } as JSONRPCMessage).catch(() => undefined);
  }
}

/** The claimed protocol version of a request or notification (its `_meta`), when it names one. */
function claimedVersion(message: JSONRPCMessage): string | undefined {
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const version = (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY];
  return typeof version === 'string' ? version : undefined;
}

/**
 * A 2026-07-28 instance refuses every message claiming a version we do not speak, not only the connection's opening
 * one (which the SDK's entry checks): "the server accepts or rejects each request independently" (basic/versioning.mdx).
 * A request gets the UnsupportedProtocolVersionError the opening check and the HTTP leg send (-32022, data.supported
 * and data.requested; the wire rewrites its message as for those) and is not delivered; a notification is dropped,
 * as the entry drops one at the opening. A missing or malformed envelope stays the SDK's (-32602).
 */
function refuseUnsupportedVersions(server: Server, onerror?: (error: Error) => void): void {
  const connect = server.connect.bind(server);
  server.connect = async (channel: Transport) => {
    await connect(channel);
    // The entry's channel calls `onmessage` as it is when a message arrives: wrap what connect() installed.
    const deliver = channel.onmessage;
    channel.onmessage = (message, extra) => {
      const requested = claimedVersion(message);
      const method = (message as { method?: unknown }).method;
      if (requested === undefined || typeof method !== 'string' || MODERN_PROTOCOL_VERSIONS.includes(requested)) {
        deliver?.(message, extra);
        return;
      }
      const error = new UnsupportedProtocolVersionError({ supported: [...MODERN_PROTOCOL_VERSIONS], requested });
      onerror?.(error);
      const id = (message as { id?: unknown }).id;
      if (id === undefined) return;
      void channel
        .send({ jsonrpc: '2.0', id: id as string | number, error: { code: error.code, message: error.message, data: error.data } })
        .catch((e: unknown) => onerror?.(e instanceof Error ? e : new Error(String(e))));
    };
  };
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
      if (era === 'modern') refuseUnsupportedVersions(current.server, onerror);
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
