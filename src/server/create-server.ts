// createServer(deps): one MCP Server for one MCP session — the four meta-tools, resource:///tool_descriptions,
// truncated-result resources, per-session authorization and per-principal rate limits kept in the state
// store, one log line per call. No I/O of its own; transports (stdio, Streamable HTTP) connect it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ErrorCode as RpcErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { isAppError, type AppError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { MemoryStateStore, type StateStore } from '../state/index.js';
import { packageRoot } from '../registry/catalog.js';
import type { Operation } from '../types.js';
import { randomUUID, sha256Hex } from '../crypto.js';
import { mark } from '../startup-marks.js';
import { warmSearchIndex, type CatalogSet, type ExecutionSettings } from './core/catalogs.js';
import { describeTools, operationFingerprint } from './core/describe.js';
import { listDomains } from './core/domains.js';
import { fail, failFromError, type Envelope } from './core/envelope.js';
import type { ConfirmAnswer } from './core/execute.js';
import { toolNames, type ToolNames } from './core/names.js';
import { searchTools } from './core/search.js';
import { readToolDescriptions, TOOL_DESCRIPTIONS_URI } from './resources.js';
import { ResultStore, RESULT_URI_PREFIX } from './results.js';
import type { SearchLog } from './search-log.js';
import { SessionState, type RateBucket } from './session.js';
import { toolDefinitions, workflowText } from './surface.js';

export interface ServerDeps {
  catalogs: CatalogSet;
  settings: ExecutionSettings;
  /** Prefix for the four tool names; default none. */
  toolPrefix?: string;
  /** Enforce describe-before-execute; default true. */
  requireDescribe?: boolean;
  /** Idle session TTL; default 30 min. */
  sessionTtlMs?: number;
  /** execute_tool calls per minute per principal (protects the upstream); default 120, 0 disables. */
  rateLimitPerMinute?: number;
  /**
   * list_domains, search_tools, describe_tools and tool_descriptions reads per minute per principal; default 0
   * (unlimited: they are local and read-only). The HTTP transport sets its own default (a shared server).
   */
  readRateLimitPerMinute?: number;
  /**
   * Where sessions, authorizations, rate buckets and stored results live. Default: a fresh in-memory store for
   * this one server (stdio, tests). HTTP passes one store for all sessions (memory or Redis).
   */
  state?: StateStore;
  /** Who this session belongs to (keys are `<principal>:<session>`); default `local`. */
  principal?: string;
  /** The MCP session id (HTTP: the transport's); default a random UUID. */
  sessionId?: string;
  /** The transport refreshes the session's TTL on every request itself; then tool calls do not (one round trip less). */
  touchedByTransport?: boolean;
  /** Truncated results kept as resources: TTL (default 10 min) and count (default 20). */
  resultTtlMs?: number;
  maxStoredResults?: number;
  logger?: Logger;
  /** Clock for sessions and stored results (tests). */
  now?: () => number;
  /** Honour the X-Upstream-Token request header as this session's upstream credential (HTTP only). */
  acceptSessionCredential?: boolean;
  /** `--search-log`: records searches and their follow-ups (names and scores only). */
  searchLog?: SearchLog;
}

export interface CatalogServer {
  server: Server;
  session: SessionState;
  results: ResultStore;
  names: ToolNames;
}

export const SERVER_NAME = 'api-catalog';
export const SESSION_CREDENTIAL_HEADER = 'x-upstream-token';

function packageVersion(): string {
  try {
    // From the package root, not relative to this file: the bundled build moves modules into dist/cli/chunks/.
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
const VERSION = packageVersion();

// The SDK validates elicitation answers with Ajv and would build a new Ajv (with formats) for every session at
// construction; one shared instance, built on the first elicitation, keeps start-up and new sessions cheap.
// In the bundle, importing the provider loads no Ajv: scripts/postbuild.mjs swaps the module for one that requires
// Ajv when a validator is made.
let sdkAjv: AjvJsonSchemaValidator | undefined;
const lazySchemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => (sdkAjv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

/**
 * The executor (Ajv with RE2 patterns, JMESPath, the HTTP client) loads on the first execute_tool or in idle time
 * once the server is up (preloadExecutor), not at start-up: initialize, tools/list, search and describe never
 * need it. Shared by every session of the process.
 */
type Executor = typeof import('./core/execute.js');
let executor: Executor | undefined;
let executorLoad: Promise<Executor> | undefined;
export function preloadExecutor(): Promise<Executor> {
  executorLoad ??= import('./core/execute.js').then((m) => (executor = m));
  return executorLoad;
}

/** A result that carries the envelope as structuredContent and as JSON text; failures set isError. */
export function toCallToolResult(envelope: Envelope): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.success,
  };
}

/** How long an agent-supplied idempotency key stays claimed at most (longer than any upstream deadline). */
const IDEMPOTENCY_CLAIM_MS = 5 * 60_000;

/** The state store cannot be reached: fail closed with a retry instruction (RELIABILITY B6). */
function stateUnavailableEnvelope(tool: string, err: AppError): Envelope {
  return fail(tool, 'STATE_UNAVAILABLE', err.message, 'Nothing was executed. Retry the same call in a few seconds; if it keeps failing, tell the user the server\'s state store (Redis) is down.');
}

/** A short, non-reversible tag of a session id for logs (the id itself is a bearer secret on HTTP). */
export function sessionTag(id: string): string {
  return sha256Hex(id).slice(0, 10);
}

/** Builds the server for one MCP session. Cheap: the catalogs and search index are shared via `deps`. */
export function createServer(deps: ServerDeps): CatalogServer {
  const names = toolNames(deps.toolPrefix ?? '');
  const logger = deps.logger ?? silentLogger;
  const requireDescribe = deps.requireDescribe ?? true;
  const now = deps.now ?? Date.now;
  const state = deps.state ?? new MemoryStateStore(now);
  // The stdio session's id (and its log tag) are made on first use: a random id loads node:crypto (src/crypto.ts).
  let sessionId = deps.sessionId;
  const key = {
    principal: deps.principal ?? 'local',
    get session(): string {
      return (sessionId ??= randomUUID());
    },
  };
  const session = new SessionState(state, key, {
    ttlMs: deps.sessionTtlMs ?? 30 * 60_000,
    executePerMinute: deps.rateLimitPerMinute ?? 120,
    readPerMinute: deps.readRateLimitPerMinute ?? 0,
  });
  const results = new ResultStore(state, key, deps.resultTtlMs ?? 10 * 60_000, deps.maxStoredResults ?? 20);
  let tagOnce: string | undefined;
  const tag = (): string => (tagOnce ??= sessionTag(session.id));
  const definitions = toolDefinitions(names);
  // The SDK's low-level Server, not McpServer: the four tools and the resource family are static, so McpServer's
  // registries (and the modules they load at every start) would add nothing.
  const server = new Server(
    { name: SERVER_NAME, version: VERSION },
    { instructions: workflowText(names), jsonSchemaValidator: lazySchemaValidator, capabilities: { tools: { listChanged: false }, resources: { listChanged: false } } },
  );
  const low = server;

  type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

  function credentialOf(extra: Extra): string | undefined {
    if (!deps.acceptSessionCredential) return undefined;
    const raw = extra.requestInfo?.headers[SESSION_CREDENTIAL_HEADER];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value) logger.addSecret(value);
    return value || undefined;
  }

  async function authorize(described: readonly string[], via: string): Promise<void> {
    const entries: Array<{ name: string; fingerprint: string }> = [];
    for (const name of described) {
      const op = deps.catalogs.byName.get(name)?.op;
      if (op) entries.push({ name, fingerprint: operationFingerprint(op) });
    }
    if (entries.length === 0) return;
    await session.authorize(entries);
    logger.log('info', { event: 'authorize', session: tag(), via, tools: entries.map((e) => e.name) });
  }

  async function askConfirmation(op: Operation, extra: Extra): Promise<ConfirmAnswer> {
    if (!low.getClientCapabilities()?.elicitation) return 'unavailable';
    // With a shared store the client's answer may reach another replica, which cannot resume this call:
    // destructive calls then need the "confirm" argument (a deterministic refusal instead of a 2-minute wait).
    if (state.shared) return 'unavailable';
    try {
      const result = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: `Allow the destructive API call ${op.name} (${op.method.toUpperCase()} ${op.path})?`,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean', title: 'Confirm', description: `Run ${op.name}` } },
              required: ['confirm'],
            },
          },
        },
        ElicitResultSchema,
        { timeout: 120_000 },
      );
      logger.log('info', { event: 'confirmation', session: tag(), target: op.name, action: result.action });
      return result.action === 'accept' && result.content?.confirm === true ? 'accept' : 'decline';
    } catch {
      return 'unavailable';
    }
  }

  low.setRequestHandler(ListToolsRequestSchema, () => {
    // The client is up and about to think: build the search index now, after this answer is sent, so that
    // neither this answer nor (usually) the first search waits for it.
    mark('tools-list'); // the start-up trace's "first tools/list" (a mark keeps its first time)
    setImmediate(() => {
      warmSearchIndex(deps.catalogs, logger);
      // then, still before the agent is likely to call it, the executor
      setTimeout(() => void preloadExecutor().catch(() => undefined), 50).unref();
    });
    return { tools: definitions };
  });

  low.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const started = performance.now();
    const tool = request.params.name;
    if (executor === undefined && (tool === names.executeTool || executorLoad !== undefined)) {
      // While the executor loads, every call waits for it in arrival order (promise reactions run first in,
      // first out), so a describe_tools sent after an execute_tool still cannot authorize that execute_tool.
      await preloadExecutor().catch(() => undefined);
    }
    const input = request.params.arguments ?? {};
    let envelope: Envelope;
    let target: string | undefined;
    let dispatched = false;
    try {
      if (!deps.touchedByTransport) await session.touch();
      const bucket: RateBucket = tool === names.executeTool ? 'execute' : 'read';
      const rate = await session.takeToken(bucket);
      if (!rate.ok) {
        const seconds = Math.max(1, Math.ceil(rate.retryAfterMs / 1000));
        envelope = fail(
          tool,
          'RATE_LIMITED',
          bucket === 'execute'
            ? `Too many execute_tool calls; the limit is ${session.limit(bucket)} per minute (it protects the upstream API)`
            : `Too many catalog calls (list/search/describe); the limit is ${session.limit(bucket)} per minute`,
          `Wait ${seconds} s, then retry the same call.`,
          { retryAfterMs: rate.retryAfterMs, bucket },
        );
      } else if (tool === names.listDomains) {
        const credential = credentialOf(extra);
        envelope = listDomains(deps.catalogs, input, names, {
          settings: deps.settings,
          ...(credential !== undefined ? { sessionCredential: credential } : {}),
        });
      } else if (tool === names.searchTools) {
        const log = deps.searchLog;
        envelope = await searchTools(deps.catalogs, input, names, log && ((o) => {
          const catalog = o.domain !== undefined ? deps.catalogs.domains.find((d) => d.name === o.domain)?.catalog : undefined;
          log.recordSearch(tag(), { ...o, catalog: catalog ?? deps.catalogs.catalogs.map((c) => c.meta.name).join(',') });
        }));
      } else if (tool === names.describeTools) {
        const credential = credentialOf(extra);
        const outcome = describeTools(deps.catalogs, input, names, {
          settings: deps.settings,
          ...(credential !== undefined ? { sessionCredential: credential } : {}),
        });
        await authorize(outcome.described, tool);
        deps.searchLog?.recordFollowUp(tag(), 'describe', outcome.described);
        envelope = outcome.envelope;
        target = outcome.described.join(',') || undefined;
      } else if (tool === names.executeTool) {
        const credential = credentialOf(extra);
        if (executor === undefined) throw new Error('the executor module could not be loaded');
        const outcome = await executor.executeTool(deps.catalogs, input, names, {
          settings: deps.settings,
          ...(credential !== undefined ? { sessionCredential: credential } : {}),
          signal: extra.signal,
          ...(requireDescribe ? { isAuthorized: (n: string, fp: string) => session.isAuthorized(n, fp) } : {}),
          describeUri: (n) => `${TOOL_DESCRIPTIONS_URI}?tools=${encodeURIComponent(n)}`,
          askConfirmation: (op) => askConfirmation(op, extra),
          // The call already went out: if the store fails now, answer without the resource rather than fail.
          storeFull: (full) => results.put(full).catch(() => undefined),
          claimIdempotencyKey: (k) => state.claimIdempotencyKey(key.principal, k, IDEMPOTENCY_CLAIM_MS),
        });
        envelope = outcome.envelope;
        target = outcome.operation;
        dispatched = outcome.dispatched;
        const dryRun = envelope.success && (envelope.value as { dry_run?: unknown } | undefined)?.dry_run === true;
        if (target !== undefined && (dispatched || dryRun)) deps.searchLog?.recordFollowUp(tag(), dryRun ? 'dry_run' : 'execute', [target], envelope.success);
      } else {
        throw new McpError(
          RpcErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(tool.slice(0, 100))}; this server has ${definitions.map((d) => d.name).join(', ')}`,
        );
      }
    } catch (err) {
      // Protocol errors (unknown tool) stay protocol errors; anything else becomes an envelope so the agent
      // always gets a result it can act on, and no raw exception text (which may carry upstream data) leaks.
      if (err instanceof McpError) throw err;
      envelope =
        isAppError(err) && err.code === 'STATE_UNAVAILABLE'
          ? stateUnavailableEnvelope(tool, err)
          : failFromError(tool, err);
      if (!isAppError(err)) logger.log('error', { event: 'tool_exception', session: tag(), tool, error: err instanceof Error ? err.name : typeof err });
    }
    const line: Record<string, unknown> = {
      event: 'tool_call',
      session: tag(),
      tool,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      outcome: envelope.success ? 'ok' : 'error',
    };
    if (target !== undefined) line.target = target;
    if (!envelope.success) line.code = envelope.error.code;
    if (tool === names.executeTool) line.dispatched = dispatched;
    logger.log(envelope.success ? 'info' : 'warn', line as { event: string });
    return toCallToolResult(envelope);
  });

  low.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: TOOL_DESCRIPTIONS_URI,
        name: 'tool_descriptions',
        title: 'Tool descriptions (progressive disclosure)',
        description: workflowText(names),
        mimeType: 'application/json',
      },
      ...(await listStoredResults()).map((r) => ({
        uri: r.uri,
        name: `result-${r.id.slice(0, 8)}`,
        description: 'The full result of a truncated execute_tool call (kept for a limited time).',
        mimeType: 'application/json',
      })),
    ],
  }));

  low.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: `${TOOL_DESCRIPTIONS_URI}{?tools}`,
        name: 'tool_descriptions',
        title: 'Full descriptions of the named operations',
        description: 'Comma-separated exact operation names; reading authorizes them for this session.',
        mimeType: 'application/json',
      },
    ],
  }));

  /** Stored results for resources/list; a store failure leaves them out rather than failing the listing. */
  async function listStoredResults(): Promise<Array<{ id: string; uri: string }>> {
    try {
      return await results.list();
    } catch {
      return [];
    }
  }

  async function storeCall<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (isAppError(err) && err.code === 'STATE_UNAVAILABLE') throw new McpError(RpcErrorCode.InternalError, err.message, { code: err.code });
      throw err;
    }
  }

  low.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    if (!deps.touchedByTransport) await storeCall(() => session.touch());
    if (uri.startsWith(RESULT_URI_PREFIX)) {
      const item = await storeCall(() => results.get(uri));
      if (!item) {
        throw new McpError(
          RpcErrorCode.InvalidParams,
          `Resource ${uri.slice(0, 120)} not found: stored results expire after a while; run the call again`,
        );
      }
      return { contents: [{ uri: item.uri, mimeType: 'application/json', text: item.text ?? '' }] };
    }
    if (uri === TOOL_DESCRIPTIONS_URI || uri.startsWith(`${TOOL_DESCRIPTIONS_URI}?`)) {
      const rate = await storeCall(() => session.takeToken('read'));
      if (!rate.ok) {
        throw new McpError(RpcErrorCode.InvalidRequest, `RATE_LIMITED: too many catalog reads; retry in ${Math.ceil(rate.retryAfterMs / 1000)} s`, {
          code: 'RATE_LIMITED',
          retryAfterMs: rate.retryAfterMs,
        });
      }
      const credential = credentialOf(extra);
      const read = readToolDescriptions(deps.catalogs, uri, names, {
        settings: deps.settings,
        ...(credential !== undefined ? { sessionCredential: credential } : {}),
      });
      await storeCall(() => authorize(read.described, 'resource'));
      deps.searchLog?.recordFollowUp(tag(), 'describe', read.described);
      logger.log('info', { event: 'resource_read', session: tag(), resource: 'tool_descriptions', tools: read.described.length });
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(read.body) }] };
    }
    throw new McpError(RpcErrorCode.InvalidParams, `Unknown resource ${JSON.stringify(uri.slice(0, 120))}; read ${TOOL_DESCRIPTIONS_URI}?tools=<name>`);
  });

  return { server, session, results, names };
}
