// stdio transport: the MCP protocol on stdin/stdout, nothing else on stdout (logs go to the logger). Both eras on
// one entry, the SDK's serveStdio: the opening message picks the connection's era (a 2026-07-28 request with its
// _meta envelope, or the legacy initialize) and one server instance is pinned for the connection. Garbage lines
// are skipped (C3); a frame over the buffer cap closes the session with reason 'overflow' (C4); stdin EOF closes
// it with reason 'eof' (C5). Closing aborts in-flight tool calls (their AbortSignal); shutdown() drains first:
// new requests are refused, answers and notifications still pass, and the calls in flight finish (or the grace ends).
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { silentLogger, type Logger } from '../../logger.js';
import { createServer, type CatalogServer, type ServerDeps } from '../create-server.js';
import { withAllSupportedVersions } from '../eras.js';
import { Drain } from '../ops/drain.js';

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
        this.pending.set(m.id, drain.enter());
      }
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      onClosed?.();
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as Message;
    if (m.method === undefined && m.id !== undefined && (m.result !== undefined || m.error !== undefined)) {
      const leave = this.pending.get(m.id);
      this.pending.delete(m.id);
      // Counted out once the answer is written (a drain that ends now must not cut it).
      if (leave !== undefined) return this.inner.send(withAllSupportedVersions(message), options).finally(leave);
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
  const handle = sdkServeStdio(
    ({ era }) => {
      current = createServer({ ...deps, era });
      return current.server;
    },
    { transport: new ObservedWire(wire, onClosed, drain), ...(onerror !== undefined ? { onerror } : {}) },
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
  const wire = new StdioServerTransport(stdin, stdout, { maxBufferSize: STDIO_MAX_FRAME_BYTES });
  const drain = new Drain();
  const handle = serveConnection(deps, wire, (error: Error) => {
    if (/exceeded maximum size/i.test(error.message)) {
      reason ??= 'overflow';
      logger.log('error', {
        event: 'stdio_frame_too_large',
        message: `a stdin message exceeded ${STDIO_MAX_FRAME_BYTES} bytes; closing the session`,
      });
    } else {
      // Unparseable lines (C3) and messages the entry refused: report and keep serving.
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
