// The audit log: one JSON line per execute_tool call (dry runs and refusals included, marked), saying who called
// which operation, how it ended and what the upstream answered. Never argument values, bodies or credentials. To
// the log stream (event "audit") or, with --audit-log <file>, to its own file (mode 0600, rotated to <file>.1).
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ToolCallRecord } from './observe.js';
import { RotatingFile } from '../rotating-file.js';

export const DEFAULT_AUDIT_LOG_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Audit records this process could not write whole to its --audit-log file (a full disk, a removed folder): what
 * /metrics counts as api_catalog_audit_write_failures_total (src/server/ops/metrics.ts). Per process, like the counter.
 */
let recordsLost = 0;

/** Audit records lost so far in this process. */
export function auditRecordsLost(): number {
  return recordsLost;
}

/** One audit line. */
export interface AuditLine {
  type: 'audit';
  time: string;
  principal: string;
  /** The legacy session's log tag (a hash, never the id); absent for 2026-07-28 requests over HTTP. */
  session?: string;
  era: 'legacy' | 'modern';
  /** The operation named by the call (absent when it named none that exists). */
  tool?: string;
  catalog?: string;
  method?: string;
  /** The path template, never the filled-in path (path parameters are argument values). */
  path?: string;
  /** `ok`, `input_required` (waiting for the user's confirmation), or the error code. */
  outcome: string;
  dry_run: boolean;
  /** The request was handed to fetch (the upstream may have acted on it); false for refusals, however late. */
  dispatched: boolean;
  upstream_status?: number;
  duration_ms: number;
  upstream_request_id?: string;
  /**
   * `outcome` is CANCELLED because the client was answered so at the end of the shutdown grace, but the call went on
   * to finish here: what it came to (`ok`: the upstream completed it; check before retrying, as the answer said).
   */
  completed_after_cancel?: string;
}

export function auditLine(r: ToolCallRecord, now: Date): AuditLine {
  return {
    type: 'audit',
    time: now.toISOString(),
    principal: r.principal,
    ...(r.session !== undefined ? { session: r.session } : {}),
    era: r.era,
    ...(r.operation !== undefined ? { tool: r.operation } : {}),
    ...(r.catalog !== undefined ? { catalog: r.catalog } : {}),
    ...(r.method !== undefined ? { method: r.method } : {}),
    ...(r.path !== undefined ? { path: r.path } : {}),
    outcome: r.outcome,
    dry_run: r.dryRun === true,
    dispatched: r.dispatched === true,
    ...(r.upstreamStatus !== undefined ? { upstream_status: r.upstreamStatus } : {}),
    duration_ms: Math.round(r.durationMs * 10) / 10,
    ...(r.requestId !== undefined ? { upstream_request_id: r.requestId.slice(0, 200) } : {}),
    ...(r.completedAfterCancel !== undefined ? { completed_after_cancel: r.completedAfterCancel } : {}),
  };
}

export interface AuditLogOptions {
  /** Its own file; absent: lines go to the logger as `{"event":"audit", ...}`. */
  file?: string;
  maxBytes?: number;
  logger: Logger;
  now?: () => Date;
}

/** Appends audit lines. With a file, construction opens it (CONFIG_INVALID naming the file when it cannot). */
export class AuditLog {
  readonly file: string | undefined;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly out: RotatingFile | undefined;

  constructor(options: AuditLogOptions) {
    this.file = options.file;
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
    if (this.file !== undefined) {
      const file = this.file;
      try {
        // an existing file keeps its mode on open: ownerOnly makes the audit log never readable by others
        this.out = new RotatingFile(file, {
          maxBytes: options.maxBytes ?? DEFAULT_AUDIT_LOG_MAX_BYTES,
          ownerOnly: true,
          onFirstFailure: (err) => {
            const code = (err as { code?: unknown }).code;
            this.logger.log('error', {
              event: 'audit_log_write_failed',
              file,
              error: typeof code === 'string' ? code : 'error',
              note: 'calls go on; their audit records are lost (api_catalog_audit_write_failures_total counts them) until a write works again (audit_log_write_recovered)',
            });
          },
          onRecovered: (lost) => {
            this.logger.log('warn', { event: 'audit_log_write_recovered', file, lost, note: `writing again; ${lost} audit record(s) were lost since audit_log_write_failed` });
          },
        });
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        throw new AppError('CONFIG_INVALID', `--audit-log: cannot open ${this.file} for appending (${typeof code === 'string' ? code : 'error'}); give a writable file path`);
      }
    }
  }

  /** The observer: execute_tool calls only. */
  observe = (r: ToolCallRecord): void => {
    if (r.kind !== 'execute_tool') return;
    const line = auditLine(r, this.now());
    if (this.out === undefined) {
      this.logger.log('info', { event: 'audit', ...line, type: undefined });
      return;
    }
    // synchronous append (a few hundred bytes): nothing queued to lose at exit
    if (!this.out.append(JSON.stringify(line) + '\n')) recordsLost++;
  };

  close(): void {
    this.out?.close();
  }
}
