// The stdin side of the stdio transport: the SDK's StdioServerTransport with our own line reader, so that a line it
// cannot deliver gets an answer (C3) and the frame cap (C4) holds. Only the stdio path (transports/stdio.ts) uses it.
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { ProtocolErrorCode, parseJSONRPCMessage } from '@modelcontextprotocol/server';

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
export class AnsweringStdioTransport extends StdioServerTransport {
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
