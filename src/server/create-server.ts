// createServer(deps): one McpServer for one MCP session — the four meta-tools, resource:///tool_descriptions,
// truncated-result resources, per-session authorization and rate limit, one log line per call. No I/O here;
// transports (stdio, Streamable HTTP) connect it.
import { randomUUID, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
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
import { isAppError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { packageRoot } from '../registry/catalog.js';
import type { Operation } from '../types.js';
import { warmSearchIndex, type CatalogSet, type ExecutionSettings } from './core/catalogs.js';
import { describeTools, operationFingerprint } from './core/describe.js';
import { listDomains } from './core/domains.js';
import { fail, failFromError, type Envelope } from './core/envelope.js';
import type { ConfirmAnswer } from './core/execute.js';
import { toolNames, type ToolNames } from './core/names.js';
import { searchTools } from './core/search.js';
import { readToolDescriptions, TOOL_DESCRIPTIONS_URI } from './resources.js';
import { ResultStore, RESULT_URI_PREFIX } from './results.js';
import { SessionState } from './session.js';
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
  /** tools/call per minute per session; default 120, 0 disables. */
  rateLimitPerMinute?: number;
  /** Truncated results kept as resources: TTL (default 10 min) and count (default 20). */
  resultTtlMs?: number;
  maxStoredResults?: number;
  logger?: Logger;
  /** Clock for sessions and stored results (tests). */
  now?: () => number;
  /** Honour the X-Upstream-Token request header as this session's upstream credential (HTTP only). */
  acceptSessionCredential?: boolean;
}

export interface CatalogServer {
  server: McpServer;
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
let sdkAjv: AjvJsonSchemaValidator | undefined;
const lazySchemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => (sdkAjv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

let toolsListed = false;

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

/** A short, non-reversible tag of a session id for logs (the id itself is a bearer secret on HTTP). */
export function sessionTag(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 10);
}

/** Builds the server for one MCP session. Cheap: the catalogs and search index are shared via `deps`. */
export function createServer(deps: ServerDeps): CatalogServer {
  const names = toolNames(deps.toolPrefix ?? '');
  const logger = deps.logger ?? silentLogger;
  const requireDescribe = deps.requireDescribe ?? true;
  const now = deps.now ?? Date.now;
  const session = new SessionState(randomUUID(), {
    ttlMs: deps.sessionTtlMs ?? 30 * 60_000,
    rateLimitPerMinute: deps.rateLimitPerMinute ?? 120,
    now,
  });
  const results = new ResultStore(deps.resultTtlMs ?? 10 * 60_000, deps.maxStoredResults ?? 20, now);
  const tag = sessionTag(session.id);
  const definitions = toolDefinitions(names);
  // Capabilities are registered on the low-level Server, not passed to McpServer: McpServer would install its
  // own registry-backed tools/resources handlers, and ours are static (the four tools, one resource family).
  const server = new McpServer({ name: SERVER_NAME, version: VERSION }, { instructions: workflowText(names), jsonSchemaValidator: lazySchemaValidator });
  const low = server.server;
  low.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });

  type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

  function credentialOf(extra: Extra): string | undefined {
    if (!deps.acceptSessionCredential) return undefined;
    const raw = extra.requestInfo?.headers[SESSION_CREDENTIAL_HEADER];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value) logger.addSecret(value);
    return value || undefined;
  }

  function authorize(described: readonly string[], via: string): void {
    const entries: Array<{ name: string; fingerprint: string }> = [];
    for (const name of described) {
      const op = deps.catalogs.byName.get(name)?.op;
      if (op) entries.push({ name, fingerprint: operationFingerprint(op) });
    }
    if (entries.length === 0) return;
    session.authorize(entries);
    logger.log('info', { event: 'authorize', session: tag, via, tools: entries.map((e) => e.name) });
  }

  async function askConfirmation(op: Operation, extra: Extra): Promise<ConfirmAnswer> {
    if (!low.getClientCapabilities()?.elicitation) return 'unavailable';
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
      logger.log('info', { event: 'confirmation', session: tag, target: op.name, action: result.action });
      return result.action === 'accept' && result.content?.confirm === true ? 'accept' : 'decline';
    } catch {
      return 'unavailable';
    }
  }

  low.setRequestHandler(ListToolsRequestSchema, () => {
    // The client is up and about to think: build the search index now, after this answer is sent, so that
    // neither this answer nor (usually) the first search waits for it.
    if (!toolsListed) {
      // once per process: the start-up trace's "first tools/list" (marks are kept until cleared)
      toolsListed = true;
      performance.mark('api-catalog:tools-list');
    }
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
    const expired = session.touch();
    if (expired && session.authorizedCount() === 0) logger.log('info', { event: 'session_idle_reset', session: tag });
    try {
      const rate = session.takeToken();
      if (!rate.ok) {
        const seconds = Math.max(1, Math.ceil(rate.retryAfterMs / 1000));
        envelope = fail(
          tool,
          'RATE_LIMITED',
          `Too many tool calls in this session; the limit is ${deps.rateLimitPerMinute ?? 120} per minute`,
          `Wait ${seconds} s, then retry the same call.`,
          { retryAfterMs: rate.retryAfterMs },
        );
      } else if (tool === names.listDomains) {
        const credential = credentialOf(extra);
        envelope = listDomains(deps.catalogs, input, names, {
          settings: deps.settings,
          ...(credential !== undefined ? { sessionCredential: credential } : {}),
        });
      } else if (tool === names.searchTools) {
        envelope = searchTools(deps.catalogs, input, names);
      } else if (tool === names.describeTools) {
        const credential = credentialOf(extra);
        const outcome = describeTools(deps.catalogs, input, names, {
          settings: deps.settings,
          ...(credential !== undefined ? { sessionCredential: credential } : {}),
        });
        authorize(outcome.described, tool);
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
          storeFull: (full) => results.put(full),
        });
        envelope = outcome.envelope;
        target = outcome.operation;
        dispatched = outcome.dispatched;
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
      envelope = failFromError(tool, err);
      if (!isAppError(err)) logger.log('error', { event: 'tool_exception', session: tag, tool, error: err instanceof Error ? err.name : typeof err });
    }
    const line: Record<string, unknown> = {
      event: 'tool_call',
      session: tag,
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

  low.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: TOOL_DESCRIPTIONS_URI,
        name: 'tool_descriptions',
        title: 'Tool descriptions (progressive disclosure)',
        description: workflowText(names),
        mimeType: 'application/json',
      },
      ...results.list().map((r) => ({
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

  low.setRequestHandler(ReadResourceRequestSchema, (request, extra) => {
    const uri = request.params.uri;
    session.touch();
    if (uri.startsWith(RESULT_URI_PREFIX)) {
      const item = results.get(uri);
      if (!item) {
        throw new McpError(
          RpcErrorCode.InvalidParams,
          `Resource ${uri.slice(0, 120)} not found: stored results expire after a while; run the call again`,
        );
      }
      return { contents: [{ uri: item.uri, mimeType: 'application/json', text: item.text }] };
    }
    if (uri === TOOL_DESCRIPTIONS_URI || uri.startsWith(`${TOOL_DESCRIPTIONS_URI}?`)) {
      const rate = session.takeToken();
      if (!rate.ok) {
        throw new McpError(RpcErrorCode.InvalidRequest, `RATE_LIMITED: too many requests in this session; retry in ${Math.ceil(rate.retryAfterMs / 1000)} s`, {
          code: 'RATE_LIMITED',
          retryAfterMs: rate.retryAfterMs,
        });
      }
      const credential = credentialOf(extra);
      const read = readToolDescriptions(deps.catalogs, uri, names, {
        settings: deps.settings,
        ...(credential !== undefined ? { sessionCredential: credential } : {}),
      });
      authorize(read.described, 'resource');
      logger.log('info', { event: 'resource_read', session: tag, resource: 'tool_descriptions', tools: read.described.length });
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(read.body) }] };
    }
    throw new McpError(RpcErrorCode.InvalidParams, `Unknown resource ${JSON.stringify(uri.slice(0, 120))}; read ${TOOL_DESCRIPTIONS_URI}?tools=<name>`);
  });

  return { server, session, results, names };
}
