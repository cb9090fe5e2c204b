// `GET /metrics` (Prometheus text format, prom-client): tool calls by tool and outcome, latency per tool, upstream
// calls by catalog, method and status class, search answers by confidence, rate-limit refusals, state-store errors
// and latency, legacy sessions open, requests by era, readiness (and degraded checks), registry reloads and the
// version served, a refused re-read of the tokens file, audit records lost, build info and the process's own metrics. Every label comes from a bounded set: never a query, an
// argument, a principal or a secret. Loaded only by `serve --http`.
import client from 'prom-client';
import type { StateStore } from '../../state/index.js';
import { reloadsInProcess } from '../core/reload.js';
import { tokensReloadRefusals } from '../auth/tokens.js';
import { auditRecordsLost } from './audit.js';
import type { ToolCallRecord } from './observe.js';

const PREFIX = 'api_catalog_';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']);
/** Error codes are a closed set in our code; anything else (a future code) still stays one bounded value. */
const OUTCOME_RE = /^[A-Z_]{2,40}$|^ok$|^input_required$/;

function statusClass(status: number | undefined): string {
  return status === undefined ? 'none' : `${Math.floor(status / 100)}xx`;
}

export interface MetricsSources {
  version: string;
  /** Legacy sessions this process holds. */
  sessions?: () => number;
  /** Requests in flight and whether the process drains. */
  inFlight?: () => number;
  draining?: () => boolean;
}

export class OpsMetrics {
  readonly registry = new client.Registry();
  readonly contentType = client.Registry.PROMETHEUS_CONTENT_TYPE;
  private readonly toolCalls: client.Counter<'tool' | 'outcome'>;
  private readonly toolSeconds: client.Histogram<'tool'>;
  private readonly upstreamCalls: client.Counter<'catalog' | 'method' | 'status_class'>;
  private readonly upstreamSeconds: client.Histogram<'catalog' | 'method'>;
  private readonly searches: client.Counter<'confidence'>;
  private readonly rateLimited: client.Counter<'bucket'>;
  private readonly storeErrors: client.Counter<'operation'>;
  private readonly storeSeconds: client.Histogram<'operation'>;
  private readonly requests: client.Counter<'era'>;
  private readonly refused: client.Counter<'reason'>;
  private readonly readyGauge: client.Gauge;
  private readonly degradedGauge: client.Gauge<'check'>;
  private readonly reloadFailedGauge: client.Gauge;
  private readonly reloadRefusedGauge: client.Gauge<'catalog' | 'state'>;
  private readonly versionGauge: client.Gauge<'version'>;
  private readonly unservedGauge: client.Gauge<'catalog' | 'served'>;
  private sources: MetricsSources;

  constructor(sources: MetricsSources) {
    this.sources = sources;
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
    this.toolCalls = new client.Counter({ name: `${PREFIX}tool_calls_total`, help: 'MCP tool calls by meta-tool and outcome (ok, input_required, or the error code)', labelNames: ['tool', 'outcome'], registers });
    this.toolSeconds = new client.Histogram({ name: `${PREFIX}tool_call_duration_seconds`, help: 'Time to answer a tool call, by meta-tool', labelNames: ['tool'], buckets, registers });
    this.upstreamCalls = new client.Counter({ name: `${PREFIX}upstream_requests_total`, help: 'execute_tool calls that went upstream, by catalog, method and status class (none: no response)', labelNames: ['catalog', 'method', 'status_class'], registers });
    this.upstreamSeconds = new client.Histogram({ name: `${PREFIX}upstream_request_duration_seconds`, help: 'Time of the upstream request of execute_tool calls that went upstream, from handing it to fetch until its response body was read (retries and redirects included; not building it or shaping the answer), by catalog and method', labelNames: ['catalog', 'method'], buckets, registers });
    this.searches = new client.Counter({ name: `${PREFIX}search_answers_total`, help: 'search_tools answers by confidence (none: nothing found; low: a weak match)', labelNames: ['confidence'], registers });
    this.rateLimited = new client.Counter({ name: `${PREFIX}rate_limited_total`, help: 'Tool calls refused by the per-principal rate limit, by bucket (execute, read, confirm)', labelNames: ['bucket'], registers });
    this.storeErrors = new client.Counter({ name: `${PREFIX}state_store_errors_total`, help: 'State store operations that failed (unreachable, timed out, refused)', labelNames: ['operation'], registers });
    this.storeSeconds = new client.Histogram({ name: `${PREFIX}state_store_duration_seconds`, help: 'State store operation latency', labelNames: ['operation'], buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers });
    this.requests = new client.Counter({ name: `${PREFIX}mcp_requests_total`, help: 'MCP requests over HTTP by protocol era (legacy: handshake revisions; modern: 2026-07-28)', labelNames: ['era'], registers });
    this.refused = new client.Counter({ name: `${PREFIX}http_refused_total`, help: 'HTTP requests refused before MCP, by reason (draining, auth, scope, host, origin)', labelNames: ['reason'], registers });
    // Known series start at 0, so that rate() and alerts see them before the first event.
    for (const tool of ['list_domains', 'search_tools', 'describe_tools', 'execute_tool']) this.toolCalls.inc({ tool, outcome: 'ok' }, 0);
    for (const confidence of ['none', 'low', 'normal']) this.searches.inc({ confidence }, 0);
    for (const bucket of ['execute', 'read', 'confirm']) this.rateLimited.inc({ bucket }, 0);
    for (const reason of ['draining', 'auth', 'scope']) this.refused.inc({ reason }, 0);
    for (const era of ['legacy', 'modern']) this.requests.inc({ era }, 0);
    const self = this;
    new client.Gauge({
      name: `${PREFIX}legacy_sessions_open`,
      help: 'Legacy (handshake-era) MCP sessions this process holds a transport for',
      registers,
      collect() {
        this.set(self.sources.sessions?.() ?? 0);
      },
    });
    new client.Gauge({
      name: `${PREFIX}requests_in_flight`,
      help: 'MCP requests being answered now',
      registers,
      collect() {
        this.set(self.sources.inFlight?.() ?? 0);
      },
    });
    new client.Gauge({
      name: `${PREFIX}draining`,
      help: '1 from SIGTERM/SIGINT until exit',
      registers,
      collect() {
        this.set(self.sources.draining?.() === true ? 1 : 0);
      },
    });
    this.readyGauge = new client.Gauge({ name: `${PREFIX}ready`, help: '1 when the last readiness evaluation was ready', registers });
    this.degradedGauge = new client.Gauge({
      name: `${PREFIX}degraded`,
      help: '1 per check that is degraded at the last readiness evaluation (degraded on /readyz): the replica is ready, but part of it does not work, e.g. check="oauth": the issuer\'s keys cannot be fetched, OAuth tokens get 503 while named and static tokens are served; check="catalogs": with several catalogs, one is not served whole (api_catalog_catalog_unserved names it)',
      labelNames: ['check'],
      registers,
    });
    this.degradedGauge.set({ check: 'oauth' }, 0);
    this.degradedGauge.set({ check: 'catalogs' }, 0);
    this.unservedGauge = new client.Gauge({
      name: `${PREFIX}catalog_unserved`,
      help: 'With several catalogs, 1 per catalog the version serving does not serve whole (unservedCatalogs on /readyz; the replica stays ready, degraded): served="none" (a reload refused its registry and could not keep its previous version: no tools) or "partly" (a file of it is damaged or refused: its domains fail)',
      labelNames: ['catalog', 'served'],
      registers,
    });
    new client.Gauge({
      name: `${PREFIX}tokens_reload_failed`,
      help: '1 while the last re-read of the --tokens file was refused (tokensReloadFailed on /readyz; tokens_reload_failed in the log names the line): new lines are not in force, and entries whose line is gone or changed are refused',
      registers,
      collect() {
        this.set(tokensReloadRefusals().length > 0 ? 1 : 0);
      },
    });
    // Registry reloads (SIGHUP, the watch): counted from the process's tally (src/server/core/reload.ts); the served
    // version and a standing refusal from what /readyz reports, set at each scrape (served()).
    new client.Counter({
      name: `${PREFIX}catalog_reloads_total`,
      help: 'Registry reloads by outcome: ok (the new version swapped in), failed (refused: the previous version goes on serving) or partial (swapped in, but some registries were refused and keep their previous catalog)',
      labelNames: ['outcome'],
      registers,
      collect() {
        const n = reloadsInProcess();
        this.reset();
        this.inc({ outcome: 'ok' }, n.ok);
        this.inc({ outcome: 'failed' }, n.failed);
        this.inc({ outcome: 'partial' }, n.partial);
      },
    });
    this.reloadFailedGauge = new client.Gauge({
      name: `${PREFIX}catalog_reload_failed`,
      help: '1 while the last registry reload was refused (reloadFailed on /readyz): this replica still serves the previous version',
      registers,
    });
    this.reloadRefusedGauge = new client.Gauge({
      name: `${PREFIX}catalog_reload_refused`,
      help: 'While a reload refusal stands, 1 per catalog it names: state failed (its new files were refused: its previous version is served) or not_applied (changed, but not served because another failed)',
      labelNames: ['catalog', 'state'],
      registers,
    });
    this.versionGauge = new client.Gauge({ name: `${PREFIX}catalog_version_info`, help: 'The catalog version served (the one list_domains and /readyz show), as a label', labelNames: ['version'], registers });
    new client.Counter({
      name: `${PREFIX}audit_write_failures_total`,
      help: 'Audit records that could not be written whole to the --audit-log file (a full disk, an unwritable file): missing from the audit log',
      registers,
      collect() {
        this.reset();
        this.inc(auditRecordsLost());
      },
    });
    new client.Gauge({ name: `${PREFIX}build_info`, help: 'The running version', labelNames: ['version', 'node_version'], registers }).set({ version: sources.version, node_version: process.version }, 1);
  }

  /** Adds sources known only once the transport is up (sessions, in-flight, draining). */
  attach(sources: Partial<MetricsSources>): void {
    this.sources = { ...this.sources, ...sources };
  }

  observe = (r: ToolCallRecord): void => {
    // Refused before MCP (scope): audited, and counted by http_refused_total{reason="scope"}, not as a tool call.
    if (r.refusedBeforeMcp === true) return;
    const outcome = OUTCOME_RE.test(r.outcome) ? r.outcome : 'other';
    this.toolCalls.inc({ tool: r.kind, outcome });
    this.toolSeconds.observe({ tool: r.kind }, r.durationMs / 1000);
    if (r.kind === 'search_tools' && r.outcome === 'ok') this.searches.inc({ confidence: r.confidence ?? 'normal' });
    if (r.rateLimited !== undefined) this.rateLimited.inc({ bucket: r.rateLimited });
    // Only calls whose request was handed to fetch: a refusal (AUTH_MISSING, the address policy, ...) is no upstream call.
    if (r.dispatched === true) {
      const method = r.method !== undefined && METHODS.has(r.method) ? r.method : 'OTHER';
      const catalog = r.catalog ?? 'unknown';
      this.upstreamCalls.inc({ catalog, method, status_class: statusClass(r.upstreamStatus) });
      // The upstream request's own time, not the tool call's (which includes the state store, a confirmation, ...).
      if (r.upstreamMs !== undefined) this.upstreamSeconds.observe({ catalog, method }, r.upstreamMs / 1000);
    }
  };

  /** One MCP request over HTTP, by era. */
  request(era: 'legacy' | 'modern'): void {
    this.requests.inc({ era });
  }

  /** A request refused before MCP (reason from a fixed list). */
  refusal(reason: 'draining' | 'auth' | 'scope' | 'host' | 'origin'): void {
    this.refused.inc({ reason });
  }

  /** The last readiness evaluation: ready or not, and the checks that are degraded (a bounded set of check names). */
  ready(value: boolean, degraded: ReadonlyArray<{ check: string }> = []): void {
    this.readyGauge.set(value ? 1 : 0);
    this.degradedGauge.reset();
    this.degradedGauge.set({ check: 'oauth' }, 0);
    this.degradedGauge.set({ check: 'catalogs' }, 0);
    for (const d of degraded) this.degradedGauge.set({ check: d.check.slice(0, 32) }, 1);
  }

  /** What /readyz reports as served (`version`, `reloadFailed`, `unservedCatalogs`): the version, refused-reload and unserved-catalog gauges. */
  served(info: Record<string, unknown> | undefined): void {
    this.reloadFailedGauge.set(info?.reloadFailed !== undefined ? 1 : 0);
    // which catalogs the refusal names (src/server/core/reload.ts ReloadFailure): one series each, replaced each time
    const refusal = info?.reloadFailed as { failed?: Array<{ catalog: string }>; notApplied?: string[] } | undefined;
    this.reloadRefusedGauge.reset();
    for (const f of refusal?.failed ?? []) this.reloadRefusedGauge.set({ catalog: f.catalog.slice(0, 64), state: 'failed' }, 1);
    for (const name of refusal?.notApplied ?? []) this.reloadRefusedGauge.set({ catalog: name.slice(0, 64), state: 'not_applied' }, 1);
    // the catalogs not served whole (src/server/ops/catalog-readiness.ts): one series each, replaced each time
    this.unservedGauge.reset();
    for (const u of (info?.unservedCatalogs as Array<{ catalog: string; served: string }> | undefined) ?? []) this.unservedGauge.set({ catalog: u.catalog.slice(0, 64), served: u.served }, 1);
    // one series, the version served now: a reload replaces it
    this.versionGauge.reset();
    if (typeof info?.version === 'string' && info.version !== '') this.versionGauge.set({ version: info.version.slice(0, 64) }, 1);
  }

  /**
   * The store with every operation timed and its failures counted. Reads and writes pass through unchanged;
   * `health` and `close` are not counted (probes would swamp the latency of real work).
   */
  instrumentStore(store: StateStore): StateStore {
    const errors = this.storeErrors;
    const seconds = this.storeSeconds;
    return new Proxy(store, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'health' || prop === 'close' || prop === 'onRecovered' || prop === 'constructor') return value;
        const fn = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const end = seconds.startTimer({ operation: prop });
          let result: unknown;
          try {
            result = fn.apply(target, args);
          } catch (err) {
            end();
            errors.inc({ operation: prop });
            throw err;
          }
          if (result instanceof Promise) {
            return result.then(
              (v) => {
                end();
                return v;
              },
              (err: unknown) => {
                end();
                errors.inc({ operation: prop });
                throw err;
              },
            );
          }
          end();
          return result;
        };
      },
    });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
