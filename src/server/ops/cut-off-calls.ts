// Calls cut off by the end of the shutdown grace still get an answer. The SDK never answers a request it aborts
// (a closed transport, a cancellation), so a call still upstream when --shutdown-grace ends used to leave its
// client with nothing: a 2026-07-28 client saw an empty reply, a legacy client waited for its own request timeout
// (its answer belongs on the POST's SSE stream, which closed without it). Each HTTP request in flight is tracked
// here with a way to send a JSON-RPC message through its own SDK transport (which frames it: JSON, or an event on
// the request's SSE stream, then ends the response); at the end of the grace every one still running is answered
// with the CANCELLED envelope (execute_tool: the upstream request was aborted and may have run), within a short
// bound, before the sockets are destroyed and the calls aborted. Knows nothing of node:http beyond the response.
import type { ServerResponse } from 'node:http';
import { fail } from '../core/envelope.js';
import { toCallToolResult } from '../create-server.js';
import type { Era } from '../eras.js';
import { withCutOffMark, type CutOffMark } from './cut-off-mark.js';

/** How long the calls cut off at the end of the grace get to write their answer before the sockets are destroyed. */
export const SHUTDOWN_ANSWER_MS = 200;

/** A JSON-RPC response for the request's SDK transport to send. */
export type RpcResponse =
  | { jsonrpc: '2.0'; id: string | number; result: { [key: string]: unknown } }
  | { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } };

interface Tracked {
  message: { id: string | number; method: string; params?: Record<string, unknown> };
  era: Era;
  res: ServerResponse;
  send: (response: RpcResponse) => Promise<void> | void;
  /** Set once the shutdown answer went out: the call's own audit line then says CANCELLED (create-server.ts). */
  mark: CutOffMark;
}

/** A tracked request: `run` dispatches it (inside its mark), `untrack` forgets it once its response is written. */
export interface TrackedRequest {
  run<T>(fn: () => T): T;
  untrack(): void;
}

/** The requests in flight that can still be answered when the grace ends. */
export class CutOffCalls {
  private readonly calls = new Set<Tracked>();

  /** `executeTool`: the execute_tool meta-tool's name as served (with the --tool-prefix). */
  constructor(private readonly executeTool: string) {}

  /**
   * Tracks a request (a JSON-RPC message with an id; anything else is ignored) while its response is written;
   * `send` hands a JSON-RPC message to the request's own SDK transport. The request is to be dispatched through
   * `run` (so that its tool call can tell it was answered at shutdown), and forgotten with `untrack`.
   */
  track(message: unknown, era: Era, res: ServerResponse, send: Tracked['send']): TrackedRequest {
    const m = message as Partial<Tracked['message']> | null;
    if (m === null || typeof m !== 'object' || typeof m.method !== 'string' || (typeof m.id !== 'string' && typeof m.id !== 'number')) {
      return { run: (fn) => fn(), untrack: () => undefined };
    }
    const tracked: Tracked = { message: m as Tracked['message'], era, res, send, mark: { answered: false } };
    this.calls.add(tracked);
    return { run: (fn) => withCutOffMark(tracked.mark, fn), untrack: () => void this.calls.delete(tracked) };
  }

  /**
   * The grace ended: answers every request still unanswered with its shutdown answer and waits, up to `ms`, for
   * those responses to end. Resolves with how many were answered (sent to a transport that took them).
   */
  async answerAll(ms = SHUTDOWN_ANSWER_MS): Promise<number> {
    const open = [...this.calls].filter((c) => !c.res.writableEnded && !c.res.destroyed);
    this.calls.clear();
    const sent = await Promise.all(
      open.map(async (c) => {
        // marked first: a call that finishes while its answer is being written still says CANCELLED
        c.mark.answered = true;
        try {
          await c.send(this.answer(c));
          return true;
        } catch {
          // the request's stream is gone already (its client left): nothing to answer, nothing was told
          c.mark.answered = false;
          return false;
        }
      }),
    );
    const answered = open.filter((_, i) => sent[i]);
    await ended(answered.map((c) => c.res), ms);
    return answered.length;
  }

  /** The shutdown answer of one request: a tools/call gets its failure envelope, anything else a JSON-RPC error. */
  private answer({ message, era }: Tracked): RpcResponse {
    if (message.method !== 'tools/call') {
      return { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'Service Unavailable: the server shut down before this request finished; send it again' } };
    }
    const name = typeof message.params?.name === 'string' ? message.params.name : 'tool';
    const args = message.params?.arguments as { tool_name?: unknown } | undefined;
    const envelope =
      name === this.executeTool
        ? fail(
            typeof args?.tool_name === 'string' ? args.tool_name.slice(0, 200) : name,
            'CANCELLED',
            'the server shut down before the call finished (its shutdown grace ended): the upstream request was aborted and may have run',
            'Check whether it took effect (read the resource back) before retrying: the upstream may have acted on it.',
          )
        : fail(name, 'CANCELLED', 'the server shut down before the call finished (its shutdown grace ended)', 'Retry the same call: it changed nothing.');
    // 2026-07-28 results carry resultType (what the SDK's encoder adds to a handler's result); legacy ones do not
    const result = { ...toCallToolResult(envelope), ...(era === 'modern' ? { resultType: 'complete' } : {}) };
    return { jsonrpc: '2.0', id: message.id, result };
  }
}

/** Resolves once every response has ended (finished or closed), or after `ms`. */
function ended(responses: readonly ServerResponse[], ms: number): Promise<void> {
  const open = responses.filter((r) => !r.writableFinished && !r.destroyed);
  if (open.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = open.length;
    const timer = setTimeout(resolve, ms);
    const one = () => {
      if (--left === 0) {
        clearTimeout(timer);
        resolve();
      }
    };
    for (const r of open) {
      let done = false;
      const once = () => {
        if (done) return;
        done = true;
        one();
      };
      r.once('finish', once);
      r.once('close', once);
    }
  });
}
