// createServer(deps): one MCP Server instance — for a stdio connection (either era), a legacy HTTP session, or one
// 2026-07-28 HTTP request — with the four meta-tools, resource:///tool_descriptions, stored results, describe
// authorization (remembered by a legacy connection or session only, proven by signed handles everywhere),
// confirmations through MRTR, per-principal rate limits in the state store, one log line per call.
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  TRACEPARENT_META_KEY,
  type CallToolResult,
  type InputRequiredResult,
  type ListToolsResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isAppError } from '../errors.js';
import { silentLogger } from '../logger.js';
import { MemoryStateStore, stateUnavailable } from '../state/index.js';
import { randomUUID } from '../crypto.js';
import type { Operation } from '../types.js';
import { mark } from '../startup-marks.js';
import { Confirmations, LEGACY_ELICITATION_TIMEOUT_MS, withoutAgentConfirm } from './confirm.js';
import { warmSearchIndex, type CatalogSet } from './core/catalogs.js';
import { engineLoadFailed } from './core/engine-load.js';
import { loadSearchEngine, searchEngineLoaded } from './core/search-engine.js';
import type { ServedCatalogs } from './core/reload.js';
import { describeTools, operationFingerprint } from './core/describe.js';
import { listDomains } from './core/domains.js';
import { failFromError, type Envelope } from './core/envelope.js';
import type { ConfirmAnswer, DescribeCheck } from './core/execute.js';
import { toolNames, type ToolNames } from './core/names.js';
import type { ServerDeps } from './deps.js';
import { attachHandles } from './handles.js';
import { CatalogMcpServer } from './invalid-params.js';
import { registerResourceHandlers, TOOL_DESCRIPTIONS_URI } from './resources.js';
import { ResultStore } from './results.js';
import { cutOffMark } from './ops/cut-off-mark.js';
import { trackCall } from './ops/in-flight.js';
import { namedOperation, notifyObserver, toolCallRecord } from './ops/observe.js';
import { runExecuteRounds } from './execute-rounds.js';
import { ExecuteGate, rateLimitedEnvelope, rateLimits, SessionState, type RateBucket } from './session.js';
import { DEFAULT_HANDLE_TTL_MS, Signer } from './signing.js';
import { CACHE_HINTS, IDEMPOTENCY_CLAIM_MS, lazySchemaValidator, SERVER_VERSION, sessionTag, stateUnavailableEnvelope, toCallToolResult } from './server-setup.js';
import { toolDefinitions, workflowText } from './surface.js';
import { explainUnboundToken, readUpstreamTokens, redactTokens, UpstreamTokens } from './upstream-tokens.js';

export { SERVER_VERSION, sessionTag, toCallToolResult } from './server-setup.js';

// What createServer is given is declared in deps.ts; re-exported so that importers keep this path.
export type { ServerDeps } from './deps.js';

export interface CatalogServer {
  server: Server;
  session: SessionState;
  results: ResultStore;
  names: ToolNames;
}

export const SERVER_NAME = 'api-catalog';
export { SESSION_CREDENTIAL_HEADER } from './upstream-tokens.js';
/** The session part of the state keys of a stateless instance: its results and describes belong to the principal. */
export const PRINCIPAL_SCOPE = '-';

/** One key for the process when none is given: describe handles must verify across this process's instances. */
let processSigner: Signer | undefined;

/**
 * The executor (Ajv with RE2 patterns, JMESPath, the HTTP client) loads on the first execute_tool or in idle time
 * once the server is up (preloadExecutor), not at start-up: initialize, tools/list, search and describe never
 * need it. Shared by every instance of the process.
 */
type Executor = typeof import('./core/execute.js');
let executor: Executor | undefined;
let executorLoad: Promise<Executor> | undefined;
export function preloadExecutor(): Promise<Executor> {
  executorLoad ??= import('./core/execute.js').then((m) => (executor = m));
  return executorLoad;
}

/** search_tools' module (it imports the search engine): loaded after the first tools/list or with the first call. */
const searchToolsModule = ((load?: Promise<typeof import('./core/search.js')>) => () => (load ??= import('./core/search.js')))();
/** Builds the server for one connection, session or request. Cheap: the catalogs and search index are shared via `deps`. */
export function createServer(deps: ServerDeps): CatalogServer {
  const names = toolNames(deps.toolPrefix ?? '');
  const logger = deps.logger ?? silentLogger;
  const requireDescribe = deps.requireDescribe ?? true;
  const now = deps.now ?? Date.now;
  const state = deps.state ?? new MemoryStateStore(now);
  const era = deps.era ?? 'legacy';
  // A 2026-07-28 instance never remembers, on any transport: "Servers MUST NOT rely on prior requests over the same
  // connection to establish context" (basic/index.mdx, Statelessness); a stdio connection is not a conversation, and
  // unrelated requests may share it. What spans requests is an identifier the client passes (the describe handle),
  // and stored results belong to the principal, as over HTTP. Only the legacy handshake era keeps connection memory.
  const stateless = deps.stateless === true || era === 'modern';
  const principal = deps.principal ?? 'local';
  const handleTtlMs = deps.handleTtlMs ?? DEFAULT_HANDLE_TTL_MS;
  // The stdio session's id (and its log tag) are made on first use: a random id loads node:crypto (src/crypto.ts).
  let sessionId = deps.sessionId;
  const key = {
    principal,
    get session(): string {
      return stateless ? PRINCIPAL_SCOPE : (sessionId ??= randomUUID());
    },
  };
  const session = new SessionState(state, key, { ttlMs: deps.sessionTtlMs ?? 30 * 60_000, ...rateLimits(deps) });
  const results = new ResultStore(state, key, deps.resultTtlMs ?? 10 * 60_000, deps.maxStoredResults ?? 20);
  let tagOnce: string | undefined;
  // Stateless instances log (and link search follow-ups) per principal: there is no session to name.
  const tag = (): string => (tagOnce ??= sessionTag(stateless ? `principal:${principal}` : session.id));
  const signer = (): Signer => deps.signer ?? (processSigner ??= Signer.random());
  /** The key is known (a shared one may still be on its way from the store): else STATE_UNAVAILABLE, nothing signed. */
  async function keyReady(): Promise<void> {
    try {
      await signer().ready();
    } catch (err) {
      throw isAppError(err) ? err : stateUnavailable('the shared signing key');
    }
  }
  const definitions = toolDefinitions(names, { requireDescribe });
  // The SDK's low-level Server, not McpServer: the four tools and the resource family are static, so McpServer's
  // registries (and the modules they load at every start) would add nothing.
  // (CatalogMcpServer: the SDK's schema refusals, like a tools/call without params, answered in one line)
  const server = new CatalogMcpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions: workflowText(names, { requireDescribe }),
      jsonSchemaValidator: lazySchemaValidator,
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      cacheHints: CACHE_HINTS,
      // The SDK shim's bound on a legacy client's answer, should a handler ever return input_required to one (the
      // confirmation asks such a client inside the call instead: confirm.ts): the same as that ask's.
      inputRequired: { roundTimeoutMs: LEGACY_ELICITATION_TIMEOUT_MS },
    },
  );
  server.onerror = (error) => logger.log('warn', { event: 'mcp_error', session: tag(), message: error.message.slice(0, 300) });
  const confirmations = new Confirmations({
    era,
    principal,
    signer,
    keyReady,
    legacyCapabilities: () => server.getClientCapabilities(),
    legacySharedHttp: era === 'legacy' && state.shared,
    // an accepted confirmation is claimed once in the shared store, so a replay on any replica is refused
    state,
  });

  /** This request's X-Upstream-Token(-<catalog>) headers (upstream-tokens.ts), kept out of the logs. */
  function tokensOf(ctx: ServerContext): UpstreamTokens {
    if (!deps.acceptSessionCredential) return UpstreamTokens.none;
    const tokens = readUpstreamTokens(ctx.http?.req?.headers, served().catalogs.catalogs.map((c) => c.meta.name));
    for (const value of tokens.values) logger.addSecret(value);
    return tokens;
  }

  /** The version this call answers from: read once per call (hot reload swaps it between calls, never within one). */
  const served = (): ServedCatalogs => deps.live?.current ?? deps;

  /** Handles for the described operations (and, where something remembers, the describe itself). */
  async function authorize(catalogs: CatalogSet, described: readonly string[], via: string): Promise<Map<string, string>> {
    const handles = new Map<string, string>();
    // Only a key still on its way from the store costs a wait: describe answers keep their place in the order of
    // calls (a describe sent before an execute_tool authorizes it first, as the stdio tests pin).
    if (described.length > 0 && !signer().isReady) await keyReady();
    const entries: Array<{ name: string; fingerprint: string }> = [];
    const expiresAt = now() + handleTtlMs;
    for (const name of described) {
      const op = catalogs.byName.get(name)?.op;
      if (!op) continue;
      const fingerprint = operationFingerprint(op);
      entries.push({ name, fingerprint });
      handles.set(name, signer().handle(name, fingerprint, principal, expiresAt));
    }
    if (entries.length === 0) return handles;
    if (!stateless) await session.authorize(entries);
    logger.log('info', { event: 'authorize', session: tag(), via, remembered: !stateless, tools: entries.map((e) => e.name) });
    return handles;
  }

  /**
   * Operations this instance described at Level 1 only. A summary never authorizes (it shows no parameters); this
   * only lets TOOL_DESCRIPTION_REQUIRED say why (a hint, not state: another replica falls back to the general
   * message). Kept by a legacy instance only: a 2026-07-28 request is answered the same whatever came before it on
   * the connection, as it is over HTTP, where each request gets a fresh instance.
   */
  const summarized = new Set<string>();

  /** A remembered describe (connection or session) or a valid handle authorizes; else the reason. */
  async function checkDescribed(name: string, fingerprint: string, handle: string | undefined): Promise<DescribeCheck> {
    if (handle !== undefined && !signer().isReady) await keyReady();
    const byHandle = handle !== undefined ? signer().verify(handle, name, fingerprint, principal, now()) : undefined;
    if (byHandle?.ok) return byHandle;
    if (!stateless && (await session.isAuthorized(name, fingerprint))) return { ok: true };
    return byHandle ?? { ok: false, reason: summarized.has(name) ? 'summary_only' : 'not_described' };
  }

  server.setRequestHandler('tools/list', (request) => {
    // One page holds every tool and no cursor is ever issued, so any cursor is one we did not give out: the
    // pagination spec's SHOULD (-32602) rather than silently answering the whole list again.
    const cursor = request.params?.cursor;
    if (cursor !== undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `invalid cursor ${JSON.stringify(cursor.slice(0, 40))}: this server lists every tool in one page and never issues cursors; call tools/list without one`,
      );
    }
    // The client is about to think: build the index after this answer (the bundle loads the search engine only now).
    mark('tools-list'); // the start-up trace's "first tools/list" (a mark keeps its first time)
    setImmediate(() => {
      void Promise.all([loadSearchEngine(), searchToolsModule()]).then(() => {
        warmSearchIndex(served().catalogs, logger);
        // then, still before the agent is likely to call it, the executor
        setTimeout(() => void preloadExecutor().catch(() => undefined), 50).unref();
      }, (err: unknown) => engineLoadFailed(logger, err));
    });
    return { tools: definitions } as unknown as ListToolsResult;
  });

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    if (!searchEngineLoaded()) await loadSearchEngine(); // every tool reads the catalogs' index (search-engine-lazy.ts)
    const started = performance.now();
    const tool = request.params.name;
    const input = request.params.arguments ?? {};
    const { catalogs, settings } = served();
    let envelope: Envelope;
    // execute_tool: the operation its tool_name names, known before anything can refuse the call (a rate limit,
    // the state store), so that every audit line of a valid name says which operation it was.
    let target: string | undefined = tool === names.executeTool ? namedOperation(catalogs, input) : undefined;
    let dispatched = false;
    /** The execution layer handed the request to fetch (a forced exit's audit line says dispatched: true). */
    let sending = false;
    let upstreamMs: number | undefined;
    let pending: InputRequiredResult | undefined;
    /** How a legacy client's confirmation of this call ended (its elicitation's action, or 'failed'). */
    let confirmation: string | undefined;
    let limitedBucket: RateBucket | undefined;
    const observe = deps.observe;
    // Set when the end of the shutdown grace answered this request CANCELLED before the call finished (HTTP).
    const cutOff = cutOffMark();
    // Until it ends, an execute_tool is in flight: a forced exit (a second signal) writes its audit line then.
    const untrack =
      observe !== undefined && tool === names.executeTool
        ? trackCall(() => {
            const facts = { era, principal, ...(stateless ? {} : { session: tag() }), tool, outcome: 'ABANDONED', durationMs: performance.now() - started, target, args: input, dispatched: sending, limitedBucket: undefined };
            notifyObserver(observe, toolCallRecord(catalogs, names, undefined, facts), logger);
          })
        : undefined;
    if (executor === undefined && (tool === names.executeTool || executorLoad !== undefined)) {
      // While the executor loads, every call waits for it in arrival order (promise reactions run first in,
      // first out), so a describe_tools sent after an execute_tool still cannot authorize that execute_tool.
      await preloadExecutor().catch(() => undefined);
    }
    try {
      if (!deps.touchedByTransport && !stateless) await session.touch();
      // A real execute_tool spends the execute bucket, which protects the upstream API, only when its request is about
      // to be sent (onDispatch below); one refused before (invalid, not described) spends the read bucket instead, a
      // confirmation question the confirm bucket (execute-rounds.ts). A dry run sends nothing: like every other call, it spends the read bucket.
      const dryRunCall = tool === names.executeTool && typeof input === 'object' && input !== null && (input as { dry_run?: unknown }).dry_run === true;
      const rate = tool === names.executeTool && !dryRunCall ? ({ ok: true } as const) : await session.takeToken('read');
      if (!rate.ok) {
        limitedBucket = 'read';
        envelope = rateLimitedEnvelope(tool, 'read', session.limit('read'), rate.retryAfterMs);
      } else if (tool === names.listDomains) {
        const tokens = tokensOf(ctx);
        envelope = listDomains(catalogs, input, names, { settings, credentialFor: (c) => tokens.forCatalog(c) });
      } else if (tool === names.searchTools) {
        const log = deps.searchLog;
        // the caller's own tokens, pasted into a query, are no more logged than the configured credentials
        const tokens = tokensOf(ctx);
        const { searchTools } = await searchToolsModule();
        envelope = await searchTools(catalogs, input, names, log && ((o) => {
          const catalog = o.domain !== undefined ? catalogs.domains.find((d) => d.name === o.domain)?.catalog : undefined;
          log.recordSearch(tag(), { ...o, catalog: catalog ?? catalogs.catalogs.map((c) => c.meta.name).join(',') }, tokens.values);
        }));
      } else if (tool === names.describeTools) {
        const credential = tokensOf(ctx).forOperations(catalogs, (input as { tool_names?: unknown }).tool_names);
        const outcome = describeTools(catalogs, input, names, {
          settings,
          ...(credential !== undefined ? { sessionCredential: credential } : {}),
        });
        if (!stateless) {
          for (const n of outcome.summarized) summarized.add(n);
          for (const n of outcome.described) summarized.delete(n);
        }
        const handles = await authorize(catalogs, outcome.described, tool);
        // the log and the audit line count what the agent looked at, summaries included (they authorize nothing)
        const shown = [...outcome.described, ...outcome.summarized];
        deps.searchLog?.recordFollowUp(tag(), 'describe', shown);
        envelope = attachHandles(outcome.envelope, (n) => handles.get(n));
        target = shown.join(',') || undefined;
      } else if (tool === names.executeTool) {
        const exec = executor;
        if (exec === undefined) throw new Error('the executor module could not be loaded');
        // the token of the operation's own catalog only (upstream-tokens.ts)
        const tokens = tokensOf(ctx);
        const catalog = target !== undefined ? catalogs.byName.get(target)?.catalog.meta.name : undefined;
        const credential = catalog !== undefined ? tokens.forCatalog(catalog) : undefined;
        // A client that can ask its user is asked: the agent's own "confirm" never stands in for the user's answer.
        const callInput = confirmations.canAsk(ctx) ? withoutAgentConfirm(input) : input;
        const gate = new ExecuteGate(session, tool, () => (sending = true));
        const run = (askConfirmation: (op: Operation) => Promise<ConfirmAnswer>) => exec.executeTool(catalogs, callInput, names, {
          settings,
          ...(credential !== undefined ? { sessionCredential: credential } : {}),
          ...(deps.acceptSessionCredential ? { sessionHeader: true } : {}),
          signal: ctx.mcpReq.signal,
          ...(requireDescribe ? { checkDescribed } : {}),
          describeUri: (n) => `${TOOL_DESCRIPTIONS_URI}?tools=${encodeURIComponent(n)}`,
          askConfirmation,
          // The call already went out: if the store fails now, answer without the resource rather than fail.
          storeFull: (full) => results.put(full).catch(() => undefined),
          claimIdempotencyKey: (k) => state.claimIdempotencyKey(principal, k, IDEMPOTENCY_CLAIM_MS),
          onDispatch: gate.beforeSend,
        });
        // the first run, the read unit of a call that sends nothing, a legacy client's elicitation and the run after it
        const rounds = await runExecuteRounds(run, { era, tool, input, ctx, confirmations, session, gate, readSpent: dryRunCall });
        const outcome = rounds.outcome;
        confirmation = rounds.confirmation;
        if (gate.stopped !== undefined) throw gate.stopped.error;
        limitedBucket = gate.limited !== undefined ? 'execute' : rounds.limitedBucket;
        envelope = explainUnboundToken(gate.limited ?? outcome.envelope, tokens, catalog);
        if (tokens.values.some((v) => v !== credential)) envelope = await redactTokens(envelope, tokens.values);
        target = outcome.operation ?? target;
        dispatched = outcome.dispatched;
        upstreamMs = outcome.upstreamMs;
        if (outcome.confirmationPending) pending = await confirmations.ask(outcome.confirmationPending, input, ctx, outcome.confirmationRequest);
        const dryRun = envelope.success && (envelope.value as { dry_run?: unknown } | undefined)?.dry_run === true;
        if (target !== undefined && (dispatched || dryRun)) deps.searchLog?.recordFollowUp(tag(), dryRun ? 'dry_run' : 'execute', [target], envelope.success);
      } else {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(tool.slice(0, 100))}; this server has ${definitions.map((d) => d.name).join(', ')}`,
        );
      }
    } catch (err) {
      // Protocol errors (unknown tool) stay protocol errors; anything else becomes an envelope so the agent
      // always gets a result it can act on, and no raw exception text (which may carry upstream data) leaks.
      if (err instanceof ProtocolError) {
        untrack?.();
        throw err;
      }
      envelope =
        isAppError(err) && err.code === 'STATE_UNAVAILABLE'
          ? stateUnavailableEnvelope(tool, err)
          : failFromError(tool, err);
      if (!isAppError(err)) logger.log('error', { event: 'tool_exception', session: tag(), tool, error: err instanceof Error ? err.name : typeof err });
    }
    // Answered: from here on its own audit line is written (and a forced exit has nothing to add).
    untrack?.();
    const line: Record<string, unknown> = {
      event: 'tool_call',
      session: tag(),
      era,
      tool,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      outcome: pending !== undefined ? 'input_required' : envelope.success ? 'ok' : 'error',
    };
    if (target !== undefined) line.target = target;
    if (pending === undefined && !envelope.success) line.code = envelope.error.code;
    if (tool === names.executeTool) line.dispatched = dispatched;
    if (confirmation !== undefined) line.confirmation = confirmation;
    if (cutOff?.answered === true) line.shutdownAnswer = 'CANCELLED';
    // A 2026-07-28 request's trace context, so a call can be followed across services: its per-request _meta (the MCP
    // convention) wins, else, over HTTP, the W3C `traceparent` header that proxies and OpenTelemetry agents inject.
    const traceparent = ctx.mcpReq._meta?.[TRACEPARENT_META_KEY] ?? (era === 'modern' ? ctx.http?.req?.headers.get('traceparent') : undefined);
    if (typeof traceparent === 'string') line.traceparent = traceparent.slice(0, 100);
    logger.log(envelope.success || pending !== undefined ? 'info' : 'warn', line as { event: string });
    // Metrics and the audit log (src/server/ops): names, codes and the path template, never arguments.
    if (observe !== undefined) {
      const reached = pending !== undefined ? 'input_required' : envelope.success ? 'ok' : envelope.error.code;
      // its client was told CANCELLED at the end of the shutdown grace: so says the record, with what it came to after
      const told = cutOff?.answered === true && reached !== 'CANCELLED';
      const outcome = told ? 'CANCELLED' : reached;
      const facts = { era, principal, ...(stateless ? {} : { session: tag() }), tool, outcome, durationMs: performance.now() - started, target, args: input, dispatched, limitedBucket, upstreamMs, ...(told ? { completedAfterCancel: reached } : {}) };
      notifyObserver(observe, toolCallRecord(catalogs, names, envelope, facts), logger);
    }
    return pending ?? toCallToolResult(envelope);
  });

  registerResourceHandlers(server, {
    names,
    requireDescribe,
    served,
    resultTtlMs: deps.resultTtlMs ?? 10 * 60_000,
    ...(deps.searchLog !== undefined ? { searchLog: deps.searchLog } : {}),
    logger,
    session,
    results,
    touch: !deps.touchedByTransport && !stateless,
    tag,
    tokensOf,
    authorize,
  });

  return { server, session, results, names };
}
