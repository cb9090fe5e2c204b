// Readiness (`GET /readyz`): named checks (catalogs searchable, state store reachable and authenticated, the OAuth
// issuer's keys fetched, not draining), each answering a reason or nothing; the report lists every reason, and a
// change of the set of reasons is logged once. Liveness (`/healthz`) never comes here: it checks no dependency.
import type { Logger } from '../../logger.js';

export interface ReadinessCheck {
  name: string;
  /** Undefined when ready; else why not, in words an operator can act on (never a secret). */
  check(): Promise<string | undefined> | string | undefined;
}

export interface ReadinessReport {
  ready: boolean;
  /** `{check, reason}` for every check that is not ready. */
  reasons: Array<{ check: string; reason: string }>;
  /** Extra facts for the body (catalog versions, draining since). */
  info?: Record<string, unknown>;
}

/** A check that takes longer than this is reported as not ready (a hung Redis must not hang the probe). */
const CHECK_TIMEOUT_MS = 3000;

async function run(c: ReadinessCheck): Promise<string | undefined> {
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
        const results = await Promise.all(this.checks.map(async (c) => ({ check: c.name, reason: await run(c) })));
        const reasons = results.filter((r): r is { check: string; reason: string } => r.reason !== undefined);
        // The facts are read from what is served now; reading them can fail (a registry file changed or gone on
        // disk before its content hash was taken): that is a reason not to be ready, never a crash of the timer
        // below or a 500 from /readyz.
        let info: Record<string, unknown> = {};
        try {
          info = this.info();
        } catch (err) {
          reasons.push({ check: 'catalogs', reason: err instanceof Error ? err.message.slice(0, 300) : 'the served catalogs could not be read' });
        }
        const report: ReadinessReport = { ready: reasons.length === 0, reasons, info };
        const signature = JSON.stringify(reasons);
        if (signature !== this.last) {
          // The first evaluation is logged too: an operator sees from the start why a replica is not ready.
          if (this.last !== undefined || !report.ready) {
            this.logger.log(report.ready ? 'info' : 'warn', { event: 'readiness_changed', ready: report.ready, reasons: reasons.map((r) => r.reason) });
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
