// What one tool call looked like, for the metrics and the audit log: the server builds one record per tools/call
// and hands it to the observers serve wires in (over stdio only the audit log). No library here.
import type { Logger } from '../../logger.js';
import type { CatalogSet } from '../core/catalogs.js';
import type { Envelope } from '../core/envelope.js';
import type { ToolNames } from '../core/names.js';

/** The meta-tool a call was for, without the --prefix (a bounded label). */
export type ToolKind = 'list_domains' | 'search_tools' | 'describe_tools' | 'execute_tool' | 'unknown';

export interface ToolCallRecord {
  era: 'legacy' | 'modern';
  /** Who: `oauth:<issuer>#<sub>`, `token:<name>`, `static-token`, `anonymous`, `local` (stdio). */
  principal: string;
  /** The session's log tag (legacy HTTP and stdio); absent for a 2026-07-28 request over HTTP (no session). */
  session?: string;
  kind: ToolKind;
  /** `ok`, `input_required`, or the envelope's error code (`RATE_LIMITED`, `UPSTREAM_ERROR`, ...). */
  outcome: string;
  durationMs: number;
  /** search_tools: the answer said `confidence: "low"`. */
  lowConfidence?: boolean;
  /** RATE_LIMITED: which bucket refused. */
  rateLimited?: 'execute' | 'read';
  /** execute_tool: the operation, when it exists. */
  operation?: string;
  catalog?: string;
  /** Upper-case HTTP method and the path template (`/repos/{owner}/{repo}/issues`), never the filled-in path. */
  method?: string;
  path?: string;
  /** A request went upstream (false for refusals and dry runs). */
  dispatched?: boolean;
  dryRun?: boolean;
  upstreamStatus?: number;
  /** The upstream's request id header, when it sent one (x-request-id, x-github-request-id, ...). */
  requestId?: string;
}

export type ToolCallObserver = (record: ToolCallRecord) => void;

/** Hands a record to the observer; an observer that throws is logged, never the caller's failure. */
export function notifyObserver(observe: ToolCallObserver, record: ToolCallRecord, logger: Logger): void {
  try {
    observe(record);
  } catch (err) {
    logger.log('error', { event: 'observer_failed', error: err instanceof Error ? err.name : 'error' });
  }
}

/** The upstream's request id among the headers shown to the agent, when it sent one. */
function requestIdOf(headers: unknown): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) if (/request-?id$/i.test(k) && typeof v === 'string') return v;
  return undefined;
}

export interface CallFacts {
  era: 'legacy' | 'modern';
  principal: string;
  session?: string;
  /** The tool name as called (with the prefix). */
  tool: string;
  outcome: string;
  durationMs: number;
  /** execute_tool: the operation targeted. */
  target: string | undefined;
  dispatched: boolean;
  limitedBucket: 'execute' | 'read' | undefined;
}

/** One record of a finished call: names, codes and the path template from the catalog, never argument values. */
export function toolCallRecord(catalogs: CatalogSet, names: ToolNames, envelope: Envelope, f: CallFacts): ToolCallRecord {
  const kinds: Record<string, ToolKind> = {
    [names.listDomains]: 'list_domains',
    [names.searchTools]: 'search_tools',
    [names.describeTools]: 'describe_tools',
    [names.executeTool]: 'execute_tool',
  };
  const kind = kinds[f.tool] ?? 'unknown';
  const value = (envelope.success ? envelope.value : undefined) as { dry_run?: unknown; status?: unknown; headers?: unknown; confidence?: unknown } | undefined;
  const entry = kind === 'execute_tool' && f.target !== undefined ? catalogs.byName.get(f.target) : undefined;
  const failedStatus = !envelope.success ? (envelope.error.details as { status?: unknown } | undefined)?.status : undefined;
  const status = typeof value?.status === 'number' ? value.status : typeof failedStatus === 'number' ? failedStatus : undefined;
  const requestId = f.dispatched ? requestIdOf(value?.headers) : undefined;
  return {
    era: f.era,
    principal: f.principal,
    ...(f.session !== undefined ? { session: f.session } : {}),
    kind,
    outcome: f.outcome,
    durationMs: f.durationMs,
    ...(kind === 'search_tools' ? { lowConfidence: value?.confidence === 'low' } : {}),
    ...(f.limitedBucket !== undefined ? { rateLimited: f.limitedBucket } : {}),
    ...(entry !== undefined ? { operation: entry.op.name, catalog: entry.catalog.meta.name, method: entry.op.method.toUpperCase(), path: entry.op.path } : {}),
    ...(kind === 'execute_tool' ? { dispatched: f.dispatched, dryRun: value?.dry_run === true } : {}),
    ...(f.dispatched && status !== undefined ? { upstreamStatus: status } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
  };
}
