// Closing an HTTP server at the end of a drain without cutting a request: Node's server.close() also destroys
// every connection it counts as idle, which includes a connection a balancer has just opened and sent a request on
// that is not parsed yet, so that request would die unanswered (a balancer cannot tell it was never processed).
// Closing the listener resets the connections the kernel accepted that Node has not taken yet (the same death), so
// it waits until the balancer has stopped routing here (no request but probes for a quiet period). Then the
// listener stops, and connections already accepted get a short window to bring their request (it gets the drain's
// 503, safe to re-send) before the rest go. Responses in flight close their connection when they end. Durations are
// measured on the monotonic clock (performance.now): a step of the wall clock (NTP, a VM resumed, `date -s`) during a
// drain would otherwise stretch the quiet period or the grace by the size of the step.
import { Server as NetServer, type Socket } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

/**
 * The listener closes once no request but probes has arrived for this long (within the grace): the balancer has
 * taken the replica out (HAProxy's check every 1 s, nginx's 503 `fail_timeout`), so no connection is reset unread.
 */
export const DRAIN_QUIET_MS = 1000;
/** Paths a balancer does not route (probes, scrapes come straight): they do not keep a draining listener open. */
const PROBE_PATH = /^\/(?:healthz|readyz|metrics)(?:[?#]|$)/;

export class ConnectionCloser {
  private readonly sockets = new Set<Socket>();
  private readonly responses = new Set<ServerResponse>();
  /** When the last routed request arrived (performance.now); none yet: long ago. */
  private lastTrafficAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly server: Server) {
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
  }

  /** A response in flight; once the drain starts, its connection is closed when it ends. */
  track(res: ServerResponse): void {
    this.responses.add(res);
    res.once('close', () => this.responses.delete(res));
  }

  /** A request arrived (its target, e.g. `/mcp`): all but probes and scrapes count as routed here by a balancer. */
  noteRequest(target: string | undefined, now = performance.now()): void {
    if (!PROBE_PATH.test(target ?? '/')) this.lastTrafficAt = now;
  }

  /**
   * Resolves true once no routed request has arrived for `quietMs` (the balancer has taken this replica out: its
   * health check saw the drain, or the 503s did), false if `deadline` (performance.now, ms) comes first. Closing the
   * listener while a balancer still opens connections here would reset the ones waiting in the kernel's accept queue.
   */
  async quiet(quietMs: number, deadline: number): Promise<boolean> {
    for (;;) {
      const now = performance.now();
      const left = this.lastTrafficAt + quietMs - now;
      if (left <= 0) return true;
      if (now >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, deadline - now)));
    }
  }

  /** Every response in flight that has not started answers with Connection: close (its connection ends with it). */
  closeAfterResponses(): void {
    for (const res of this.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  /**
   * Stops accepting connections, then waits up to `windowMs` for the accepted ones to end (a request arriving on
   * one is answered by the caller, with Connection: close), destroys what is left, and resolves once closed.
   */
  async close(windowMs: number): Promise<void> {
    // net.Server's own close: stop listening, keep the connections (http.Server.close would cut idle-looking ones).
    const closed = new Promise<void>((resolve) => (NetServer.prototype.close as (this: NetServer, cb: () => void) => NetServer).call(this.server, () => resolve()));
    if (this.sockets.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, windowMs);
        timer.unref();
        const check = () => {
          if (this.sockets.size === 0) done();
        };
        const listeners = [...this.sockets].map((s) => {
          s.once('close', check);
          return s;
        });
        function done() {
          clearTimeout(timer);
          for (const s of listeners) s.off('close', check);
          resolve();
        }
      });
    }
    for (const s of this.sockets) s.destroy();
    await closed;
    // Clears http.Server's connection-checking timer (the listener is already closed; the error is expected).
    this.server.close(() => undefined);
  }
}
