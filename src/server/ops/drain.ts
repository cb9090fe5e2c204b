// Graceful drain: counts the requests (HTTP) or calls (stdio) in flight, turns draining on at SIGTERM/SIGINT, and
// resolves once every one of them has finished or the grace period ran out. Knows nothing of HTTP or MCP.

/** Default --shutdown-grace, seconds: below Kubernetes' default terminationGracePeriodSeconds (30). */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 25;

export class Drain {
  private inFlight = 0;
  private waiters: Array<() => void> = [];
  private startedAt: number | undefined;

  /** True from the first signal on: new work is refused. */
  get draining(): boolean {
    return this.startedAt !== undefined;
  }

  /** Work in flight now. */
  get count(): number {
    return this.inFlight;
  }

  /** Counts one unit of work in; the returned function counts it out (idempotent). */
  enter(): () => void {
    this.inFlight++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight--;
      if (this.inFlight === 0) for (const w of this.waiters.splice(0)) w();
    };
  }

  /** Starts draining (idempotent). */
  start(now = Date.now()): void {
    this.startedAt ??= now;
  }

  /** Resolves true once nothing is in flight, false when `graceMs` passes first. */
  idle(graceMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(false);
      }, Math.max(0, graceMs));
      this.waiters.push(done);
    });
  }
}
