// Readiness (`GET /readyz`): named checks (catalogs searchable, state store reachable and authenticated, the OAuth
// issuer's keys fetched, not draining), each answering a reason, a degradation or nothing; the report lists every
// reason (unready) and every degradation (still ready: some callers are served, e.g. named and static tokens while
// the OAuth issuer is down), and a change of either set is logged once. Liveness (`/healthz`) never comes here: it
// checks no dependency.
import type { Logger } from '../../logger.js';

/** A problem that does not make the replica unready: part of what it serves does not work (the reason says which). */
export interface Degraded {
  degraded: string;
}

export type CheckResult = string | Degraded | undefined;

export interface ReadinessCheck {
  name: string;
  /** Undefined when ready; else why not (or, as `{degraded}`, what does not work), in words an operator can act on (never a secret). */
  check(): Promise<CheckResult> | CheckResult;
}

export interface ReadinessReport {
  ready: boolean;
  /** `{check, reason}` for every check that is not ready. */
  reasons: Array<{ check: string; reason: string }>;
  /** `{check, reason}` for every check that is degraded (the replica stays ready). */
  degraded: Array<{ check: string; reason: string }>;
  /** Extra facts for the body (catalog versions, draining since). */
  info?: Record<string, unknown>;
}

/** A check that takes longer than this is reported as not ready (a hung Redis must not hang the probe). */
const CHECK_TIMEOUT_MS = 3000;

async function run(c: ReadinessCheck): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(() => c.check()),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`${c.name}: the check did not answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
        timer.unref();
      }),
    ]);
  } catch (err) {
    return `${c.name}: ${err instanceof Error ? err.message.slice(0, 300) : 'the check failed'}`;
  } finally {
    clearTimeout(timer);
  }
}

export class Readiness {
  private last: string | undefined;
  private running: Promise<ReadinessReport> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly checks: ReadinessCheck[],
    private readonly logger: Logger,
    private readonly info: () => Record<string, unknown> = () => ({}),
  ) {}

  /** Runs every check (concurrent probes share one run) and logs when the set of reasons changed. */
  evaluate(): Promise<ReadinessReport> {
    this.running ??= (async () => {
      try {
        const results = await Promise.all(this.checks.map(async (c) => ({ check: c.name, result: await run(c) })));
        const reasons: Array<{ check: string; reason: string }> = [];
        const degraded: Array<{ check: string; reason: string }> = [];
        for (const { check, result } of results) {
          if (typeof result === 'string') reasons.push({ check, reason: result });
          else if (result !== undefined) degraded.push({ check, reason: result.degraded });
        }
        // The facts are read from what is served now; reading them can fail (a registry file changed or gone on
        // disk before its content hash was taken): that is a reason not to be ready, never a crash of the timer
        // below or a 500 from /readyz.
        let info: Record<string, unknown> = {};
        try {
          info = this.info();
        } catch (err) {
          reasons.push({ check: 'catalogs', reason: err instanceof Error ? err.message.slice(0, 300) : 'the served catalogs could not be read' });
        }
        const report: ReadinessReport = { ready: reasons.length === 0, reasons, degraded, info };
        const signature = JSON.stringify([reasons, degraded]);
        if (signature !== this.last) {
          // The first evaluation is logged too: an operator sees from the start why a replica is not ready.
          if (this.last !== undefined || !report.ready || degraded.length > 0) {
            this.logger.log(report.ready && degraded.length === 0 ? 'info' : 'warn', {
              event: 'readiness_changed',
              ready: report.ready,
              reasons: reasons.map((r) => r.reason),
              ...(degraded.length > 0 ? { degraded: degraded.map((r) => r.reason) } : {}),
            });
          }
          this.last = signature;
        }
        return report;
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Re-evaluates every `everyMs` so that changes are logged even when nothing probes (unref'd timer). */
  watch(everyMs: number): void {
    this.timer ??= setInterval(() => void this.evaluate(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
