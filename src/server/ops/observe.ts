// What one tool call looked like, for the metrics and the audit log: the server builds one record per tools/call
// and hands it to the observers serve wires in (over stdio only the audit log). No library here.
import type { Logger } from '../../logger.js';
import type { CatalogSet } from '../core/catalogs.js';
import type { Envelope } from '../core/envelope.js';
import { toolNames, type ToolNames } from '../core/names.js';
import type { ServerDeps } from '../deps.js';

/** The meta-tool a call was for, without the --prefix (a bounded label). */
export type ToolKind = 'list_domains' | 'search_tools' | 'describe_tools' | 'execute_tool' | 'unknown';

export interface ToolCallRecord {
  era: 'legacy' | 'modern';
  /** Who: `oauth:<issuer>#<sub>`, `token:<name>`, `static-token`, `anonymous`, `local` (stdio). */
  principal: string;
  /** The session's log tag (legacy HTTP and stdio); absent for a 2026-07-28 request over HTTP (no session). */
  session?: string;
  kind: ToolKind;
  /**
   * `ok`, `input_required`, or the envelope's error code (`RATE_LIMITED`, `UPSTREAM_ERROR`, ...); for execute_tool
   * calls that never got an envelope: `INSUFFICIENT_SCOPE` (refused by the HTTP transport's scope check) and
   * `ABANDONED` (still running at a forced exit).
   */
  outcome: string;
  durationMs: number;
  /**
   * search_tools answered: `none` when it found nothing (no result and a total of 0), `low` when the answer said
   * `confidence: "low"` (a weak best match), else `normal` (a page past the end of a search that matched included).
   */
  confidence?: 'none' | 'low' | 'normal';
  /** RATE_LIMITED: which bucket refused. */
  rateLimited?: 'execute' | 'read' | 'confirm';
  /** execute_tool: the operation, when it exists. */
  operation?: string;
  catalog?: string;
  /** Upper-case HTTP method and the path template (`/repos/{owner}/{repo}/issues`), never the filled-in path. */
  method?: string;
  path?: string;
  /**
   * The execution layer handed the request to fetch, so the upstream may have acted on it (false for dry runs and
   * every refusal, the execution layer's own too: AUTH_MISSING, a bad base URL, the address policy, ...).
   */
  dispatched?: boolean;
  /** execute_tool: the call asked for a dry run (its arguments' `dry_run: true`), whether it ran or was refused. */
  dryRun?: boolean;
  upstreamStatus?: number;
  /** The upstream's request id header, when it sent one (x-request-id, x-github-request-id, ...). */
  requestId?: string;
  /**
   * Dispatched calls: milliseconds from handing the upstream request to fetch until its response body was read
   * (retries and redirects included), measured by the execution layer: not building the request or shaping the
   * answer, nor the rest of the tool call (the state store, a confirmation, ...).
   */
  upstreamMs?: number;
  /**
   * Refused by the HTTP transport before MCP (a token without catalog:execute): audited, but not a tool call the
   * metrics count (http_refused_total{reason="scope"} does).
   */
  refusedBeforeMcp?: boolean;
  /**
   * The call's client was answered CANCELLED at the end of the shutdown grace (`outcome` is then CANCELLED) before
   * the call finished here: the outcome it came to after (`ok`: the upstream completed it).
   */
  completedAfterCancel?: string;
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

/**
 * The operation an execute_tool call's arguments name (`tool_name`), when it exists in `catalogs`: known from the
 * request before anything can refuse the call, so every audit line of a valid name says which operation it was.
 */
export function namedOperation(catalogs: CatalogSet, args: unknown): string | undefined {
  const name = args !== null && typeof args === 'object' ? (args as { tool_name?: unknown }).tool_name : undefined;
  return typeof name === 'string' && entryOf(catalogs, name) !== undefined ? name : undefined;
}

/**
 * The record of an execute_tool call the HTTP transport refused before MCP (its scope check): `message` is the
 * parsed JSON-RPC body; undefined when it is not a tools/call of execute_tool. Nothing ran and nothing went
 * upstream; there is no session (the refusal comes before one is looked up).
 */
export function refusedCallRecord(
  catalogs: CatalogSet,
  names: ToolNames,
  message: unknown,
  f: { era: 'legacy' | 'modern'; principal: string; outcome: string },
): ToolCallRecord | undefined {
  const m = message !== null && typeof message === 'object' ? (message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } }) : undefined;
  if (m?.method !== 'tools/call' || m.params?.name !== names.executeTool) return undefined;
  const record = toolCallRecord(catalogs, names, undefined, {
    era: f.era,
    principal: f.principal,
    tool: names.executeTool,
    outcome: f.outcome,
    durationMs: 0,
    target: namedOperation(catalogs, m.params.arguments),
    args: m.params.arguments,
    dispatched: false,
    limitedBucket: undefined,
  });
  return { ...record, refusedBeforeMcp: true };
}

/** Hands the record of an execute_tool the HTTP transport refused to `deps.observe` (no-op for other messages). */
export function auditRefusedCall(deps: ServerDeps, message: unknown, f: { era: 'legacy' | 'modern'; principal: string; outcome: string }, logger: Logger): void {
  if (deps.observe === undefined) return;
  const record = refusedCallRecord(deps.live?.current.catalogs ?? deps.catalogs, toolNames(deps.toolPrefix ?? ''), message, f);
  if (record !== undefined) notifyObserver(deps.observe, record, logger);
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
  /** The call's arguments as sent (read for what it asked: `dry_run`); never copied into the record. */
  args?: unknown;
  dispatched: boolean;
  limitedBucket: 'execute' | 'read' | 'confirm' | undefined;
  /** Dispatched calls: the upstream request's time (see ToolCallRecord.upstreamMs). */
  upstreamMs?: number;
  /** See ToolCallRecord.completedAfterCancel. */
  completedAfterCancel?: string;
}

/**
 * The catalog entry a record names, or undefined: a lookup that throws (a registry file changed since it was read,
 * REGISTRY_STALE; a catalog a reload refused, REGISTRY_INVALID) was the call's own answer already, so the record
 * just goes without the operation's name.
 */
function entryOf(catalogs: CatalogSet, name: string): ReturnType<CatalogSet['byName']['get']> {
  try {
    return catalogs.byName.get(name);
  } catch {
    return undefined;
  }
}

/** Whether an execute_tool call's arguments ask for a dry run; undefined when the arguments are not known. */
function askedDryRun(args: unknown): boolean | undefined {
  if (args === undefined) return undefined;
  return args !== null && typeof args === 'object' && (args as { dry_run?: unknown }).dry_run === true;
}

/** A search_tools answer's confidence for the metrics: `none` (found nothing), `low` (a weak match) or `normal`. */
function searchConfidence(value: { confidence?: unknown; results?: unknown; total?: unknown } | undefined): 'none' | 'low' | 'normal' {
  if (Array.isArray(value?.results) && value.results.length === 0 && value.total === 0) return 'none';
  return value?.confidence === 'low' ? 'low' : 'normal';
}

/**
 * One record of a call: names, codes and the path template from the catalog, never argument values. `envelope` is
 * the answer; undefined for a call that never got one (refused before MCP, abandoned at a forced exit).
 */
export function toolCallRecord(catalogs: CatalogSet, names: ToolNames, envelope: Envelope | undefined, f: CallFacts): ToolCallRecord {
  const kinds: Record<string, ToolKind> = {
    [names.listDomains]: 'list_domains',
    [names.searchTools]: 'search_tools',
    [names.describeTools]: 'describe_tools',
    [names.executeTool]: 'execute_tool',
  };
  const kind = kinds[f.tool] ?? 'unknown';
  const value = (envelope?.success === true ? envelope.value : undefined) as { dry_run?: unknown; status?: unknown; headers?: unknown; confidence?: unknown; results?: unknown; total?: unknown } | undefined;
  const entry = kind === 'execute_tool' && f.target !== undefined ? entryOf(catalogs, f.target) : undefined;
  const failedStatus = envelope?.success === false ? (envelope.error.details as { status?: unknown } | undefined)?.status : undefined;
  const status = typeof value?.status === 'number' ? value.status : typeof failedStatus === 'number' ? failedStatus : undefined;
  const requestId = f.dispatched ? requestIdOf(value?.headers) : undefined;
  return {
    era: f.era,
    principal: f.principal,
    ...(f.session !== undefined ? { session: f.session } : {}),
    kind,
    outcome: f.outcome,
    durationMs: f.durationMs,
    ...(kind === 'search_tools' ? { confidence: searchConfidence(value) } : {}),
    ...(f.limitedBucket !== undefined ? { rateLimited: f.limitedBucket } : {}),
    ...(entry !== undefined ? { operation: entry.op.name, catalog: entry.catalog.meta.name, method: entry.op.method.toUpperCase(), path: entry.op.path } : {}),
    // what the call asked for (a refused dry run is still a dry run), else what the answer says
    ...(kind === 'execute_tool' ? { dispatched: f.dispatched, dryRun: askedDryRun(f.args) ?? value?.dry_run === true } : {}),
    ...(f.dispatched && status !== undefined ? { upstreamStatus: status } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(f.dispatched && f.upstreamMs !== undefined ? { upstreamMs: f.upstreamMs } : {}),
    ...(f.completedAfterCancel !== undefined ? { completedAfterCancel: f.completedAfterCancel } : {}),
  };
}
