// The operations endpoints of the HTTP transport: GET /healthz (liveness: the process and its event loop answer;
// no dependency is checked), GET /readyz (readiness: every check's reason), GET /metrics (Prometheus text; the
// transport authenticates it first) and the 503 a draining replica answers. Plain node:http, no MCP.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StateStore } from '../../state/index.js';
import type { CatalogSet } from '../core/catalogs.js';
import type { Drain } from './drain.js';
import type { OpsMetrics } from './metrics.js';
import type { CheckResult, Readiness, ReadinessCheck } from './readiness.js';
import { tokensReloadRefusals } from '../auth/tokens.js';
import { catalogsReadiness } from './catalog-readiness.js';

/** Seconds a client (or balancer) is told to wait before retrying a request a draining replica refused. */
export const DRAIN_RETRY_AFTER_SECONDS = 2;

function sendJson(res: ServerResponse, status: number, body: unknown, head: boolean, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store', ...headers });
  res.end(head ? undefined : text);
}

/**
 * The 503 of a draining replica. It means "not processed": the request was not read past its headers, so a
 * balancer may send it (any method) to another replica; Connection: close takes this connection out of its pool.
 */
export function refuseDraining(res: ServerResponse): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Service Unavailable: this replica is shutting down; nothing was processed; retry (another replica will answer) in ${DRAIN_RETRY_AFTER_SECONDS} s` }, id: null });
  res.writeHead(503, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': String(DRAIN_RETRY_AFTER_SECONDS),
    Connection: 'close',
  });
  res.end(body);
}

export interface OpsEndpointContext {
  /** `probe`: /healthz and /readyz (before the Host check); `metrics`: /metrics (after Host and auth). */
  stage: 'probe' | 'metrics';
  readiness: Readiness;
  drain: Drain;
  metrics?: OpsMetrics;
}

/** Answers /healthz, /readyz or /metrics and returns true; false for every other path. */
export async function handleOpsEndpoint(pathname: string, req: IncomingMessage, res: ServerResponse, ctx: OpsEndpointContext): Promise<boolean> {
  const method = req.method ?? 'GET';
  const readOnly = method === 'GET' || method === 'HEAD';
  if (ctx.stage === 'probe') {
    if (pathname === '/healthz' && readOnly) {
      // Liveness only: answering at all proves the process and its event loop. A dependency that is down makes
      // the replica unready (/readyz), never "dead": restarting it would not bring Redis or the issuer back.
      sendJson(res, 200, { status: 'ok', ...(ctx.drain.draining ? { draining: true } : {}) }, method === 'HEAD');
      return true;
    }
    if (pathname === '/readyz' && readOnly) {
      const report = await ctx.readiness.evaluate();
      ctx.metrics?.ready(report.ready, report.degraded);
      // A refused re-read of the --tokens file: the replica serves (the entries still on a valid line of the file), so
      // it stays ready; said here (no names, no lines: /readyz answers anyone) and in the log line with the reason.
      const refused = tokensReloadRefusals();
      sendJson(
        res,
        report.ready ? 200 : 503,
        {
          status: report.ready ? 'ready' : 'unready',
          reasons: report.reasons.map((r) => r.reason),
          checks: report.reasons.map((r) => r.check),
          ...(report.degraded.length > 0 ? { degraded: report.degraded.map((r) => r.reason), degradedChecks: report.degraded.map((r) => r.check) } : {}),
          ...(refused.length > 0 ? { tokensReloadFailed: refused } : {}),
          ...report.info,
        },
        method === 'HEAD',
      );
      return true;
    }
    return false;
  }
  if (pathname !== '/metrics') return false;
  if (!readOnly) {
    sendJson(res, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method Not Allowed: GET /metrics' }, id: null }, false, { Allow: 'GET, HEAD' });
    return true;
  }
  if (ctx.metrics === undefined) {
    sendJson(res, 404, { jsonrpc: '2.0', error: { code: -32000, message: 'Not Found: metrics are off' }, id: null }, false);
    return true;
  }
  const report = await ctx.readiness.evaluate();
  ctx.metrics.ready(report.ready, report.degraded);
  ctx.metrics.served(report.info);
  const text = await ctx.metrics.render();
  res.writeHead(200, { 'Content-Type': ctx.metrics.contentType, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(method === 'HEAD' ? undefined : text);
  return true;
}

export interface TransportReadinessSources {
  catalogs: () => CatalogSet;
  store: StateStore;
  /** The OAuth issuer's keys: a reason (unready), `{degraded}` (other principals are still served) or undefined. */
  keysProblem: () => Promise<CheckResult>;
  drain: Drain;
}

/**
 * The transport's own readiness checks: catalogs searchable and served (catalog-readiness.ts), the state store, the
 * OAuth issuer's keys, draining; and the facts the catalogs check found, for the /readyz body (`unservedCatalogs`).
 */
export function readinessChecks(s: TransportReadinessSources): { checks: ReadinessCheck[]; info: () => Record<string, unknown> } {
  const catalogs = catalogsReadiness(s.catalogs);
  const checks: ReadinessCheck[] = [
    catalogs.check,
    {
      name: 'state',
      check: async () => {
        const h = await s.store.health();
        return h.ok ? undefined : `state store (${h.kind}): ${h.detail ?? 'not reachable'}`;
      },
    },
    { name: 'oauth', check: () => s.keysProblem() },
    { name: 'draining', check: () => (s.drain.draining ? 'draining: the process is shutting down (SIGTERM/SIGINT); calls in flight are finishing' : undefined) },
  ];
  return { checks, info: catalogs.info };
}
