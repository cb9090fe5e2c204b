// execute_tool's flow, shared by the MCP tool and `api-catalog call`: lookup -> describe-before-execute ->
// read-only -> validate -> dry run | confirm destructive -> execute. Every refusal happens before the network.
import { executeOperation, prepareRequest, validateArguments } from '../../execution/index.js';
import type { Operation } from '../../types.js';
import { executionConfigFor, suggestToolNames, type CatalogSet, type ExecutionSettings } from './catalogs.js';
import { operationFingerprint } from './describe.js';
import { fail, failFromError, ok, type Envelope } from './envelope.js';
import { parseMetaArgs } from './meta-args.js';
import { LIMITS, type ToolNames } from './names.js';

export interface ExecuteToolInput {
  tool_name: string;
  args?: Record<string, unknown>;
  confirm?: string;
  dry_run?: boolean;
  fields?: string | string[];
}

export type ConfirmAnswer = 'accept' | 'decline' | 'unavailable';

export interface ExecuteContext {
  settings: ExecutionSettings;
  sessionCredential?: string;
  signal?: AbortSignal;
  /** Describe-before-execute check; omitted: not enforced (CLI, --no-require-describe). */
  isAuthorized?: (name: string, fingerprint: string) => boolean | Promise<boolean>;
  /** Where the agent can fetch a description that authorizes `name` (e.g. a resource URI). */
  describeUri?: (name: string) => string;
  /** Asks the user to confirm a destructive call (MCP elicitation); omitted or 'unavailable': confirm is required. */
  askConfirmation?: (op: Operation) => Promise<ConfirmAnswer>;
  /** Keeps a truncated call's full result; returns the URI to read it, or undefined when not kept. */
  storeFull?: (full: unknown) => string | undefined | Promise<string | undefined>;
  /**
   * Claims an agent-supplied idempotency key while its request is in flight (shared across replicas); a second
   * request with the same key is refused until the first ends. Omitted: no claim.
   */
  claimIdempotencyKey?: (key: string) => Promise<{ claimed: boolean; release: () => Promise<void> }>;
}

export interface ExecuteOutcome {
  envelope: Envelope;
  /** The operation that was targeted, when it exists (for logs). */
  operation?: string;
  /** Whether a request went out (false for every refusal and for dry runs). */
  dispatched: boolean;
}

/** The idempotency key the agent put in the arguments (the argument bound to that header), if any. */
function agentIdempotencyKey(op: Operation, args: Record<string, unknown>, configured: string | undefined): string | undefined {
  const header = (op.idempotencyHeader ?? configured)?.toLowerCase();
  if (header === undefined || header === '') return undefined;
  const binding = op.bindings.find((b) => b.in === 'header' && b.name.toLowerCase() === header);
  const v = binding ? args[binding.arg] : undefined;
  return (typeof v === 'string' || typeof v === 'number') && String(v) !== '' ? String(v).slice(0, 200) : undefined;
}

/** Runs execute_tool. Never throws for expected failures: every outcome is an envelope. */
export async function executeTool(set: CatalogSet, input: unknown, names: ToolNames, ctx: ExecuteContext): Promise<ExecuteOutcome> {
  const tool = names.executeTool;
  const parsed = parseMetaArgs<ExecuteToolInput>(input, {
    tool_name: { kind: 'string', required: true, max: LIMITS.nameMaxChars },
    args: { kind: 'object' },
    confirm: { kind: 'string', max: LIMITS.nameMaxChars },
    dry_run: { kind: 'boolean' },
    fields: { kind: 'string|string[]', max: 50 },
  });
  if (!parsed.ok) {
    return {
      dispatched: false,
      envelope: fail(
        tool,
        'INVALID_ARGUMENTS',
        'execute_tool: invalid arguments',
        `Call ${tool} with {"tool_name": "<described name>", "args": {...}}.`,
        { errors: parsed.errors },
      ),
    };
  }
  const { tool_name: name, confirm, dry_run: dryRun = false, fields } = parsed.value;
  const args = parsed.value.args ?? {};
  const entry = set.byName.get(name);
  if (!entry) {
    const close = suggestToolNames(set, name);
    return {
      dispatched: false,
      envelope: fail(
        name,
        'UNKNOWN_TOOL',
        `execute_tool: no operation named ${JSON.stringify(name)}`,
        close.length > 0
          ? `Check the suggestions, then call ${names.describeTools} with the exact name before executing it.`
          : `Call ${names.searchTools} to find the operation's exact name.`,
        { suggestions: close },
      ),
    };
  }
  const op = entry.op;
  const base = { operation: op.name };
  if (ctx.isAuthorized && !(await ctx.isAuthorized(op.name, operationFingerprint(op)))) {
    const call = { tool: names.describeTools, arguments: { tool_names: [op.name] } };
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'TOOL_DESCRIPTION_REQUIRED',
        `execute_tool: ${op.name} has not been described in this session; you cannot execute it before describing it`,
        `Call ${names.describeTools} with {"tool_names": ["${op.name}"]}, then call ${tool} again.`,
        { describe_call: call, ...(ctx.describeUri ? { resource_uri: ctx.describeUri(op.name) } : {}) },
      ),
    };
  }
  if (!op.executable) {
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'NOT_EXECUTABLE',
        `execute_tool: ${op.name} cannot be executed: ${(op.problems ?? ['the spec is incomplete']).join('; ')}`,
        'Tell the user this operation cannot be called through this server and choose another one.',
      ),
    };
  }
  if (ctx.settings.readOnly && !op.readOnly && !dryRun) {
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'READ_ONLY_MODE',
        `execute_tool: the server is in read-only mode; ${op.method.toUpperCase()} ${op.name} is refused`,
        'Tell the user this server only allows read operations (GET/HEAD); do not retry this call.',
        { method: op.method.toUpperCase() },
      ),
    };
  }
  const validated = validateArguments(op, args);
  if (!validated.ok) {
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'INVALID_ARGUMENTS',
        `execute_tool: ${validated.errors.length} argument error(s) for ${op.name}: ${validated.errors
          .slice(0, 3)
          .map((e) => `${e.path || '/'} ${e.message}`)
          .join('; ')}`,
        `Fix the listed fields (see details) and call ${tool} again; ${names.describeTools} with "detail": "full" shows the schema.`,
        { errors: validated.errors },
      ),
    };
  }
  const config = executionConfigFor(entry.catalog, ctx.settings, ctx.sessionCredential);
  if (dryRun) {
    let request: ReturnType<typeof prepareRequest>;
    try {
      request = prepareRequest(op, validated.args, config);
    } catch (err) {
      return { ...base, dispatched: false, envelope: failFromError(op.name, err) };
    }
    return {
      ...base,
      dispatched: false,
      envelope:
        ctx.settings.readOnly && !op.readOnly
          ? ok(
              op.name,
              { dry_run: true, read_only_mode: true, request },
              'This server is read-only: the request was not sent and cannot be sent here; show it to the user if they want to run it elsewhere.',
            )
          : ok(op.name, { dry_run: true, request }, `Call ${tool} again without "dry_run" to send this request.`),
    };
  }
  if (op.destructive && confirm !== op.name) {
    const answer = confirm === undefined && ctx.askConfirmation ? await ctx.askConfirmation(op) : 'unavailable';
    if (answer !== 'accept') {
      return {
        ...base,
        dispatched: false,
        envelope: fail(
          op.name,
          'CONFIRMATION_REQUIRED',
          answer === 'decline'
            ? `execute_tool: the user declined ${op.name}`
            : `execute_tool: ${op.name} is destructive (${op.method.toUpperCase()} ${op.path}); it needs "confirm": "${op.name}"`,
          answer === 'decline'
            ? 'Do not retry; tell the user the action was not performed.'
            : `Ask the user to confirm, then call ${tool} again with "confirm": "${op.name}".`,
          { confirm: op.name, ...(confirm !== undefined ? { got: confirm.slice(0, 100) } : {}) },
        ),
      };
    }
  }
  const options: { signal?: AbortSignal; fields?: string | string[] } = {};
  if (ctx.signal) options.signal = ctx.signal;
  if (fields !== undefined) options.fields = fields;
  const idemKey = ctx.claimIdempotencyKey ? agentIdempotencyKey(op, validated.args, config.idempotencyHeader) : undefined;
  const claim = idemKey !== undefined && ctx.claimIdempotencyKey ? await ctx.claimIdempotencyKey(`${op.name}:${idemKey}`) : undefined;
  if (claim && !claim.claimed) {
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'IDEMPOTENCY_IN_FLIGHT',
        `execute_tool: a request to ${op.name} with the same idempotency key is still in flight; this one was not sent`,
        'Wait for the first call to finish; its result is the result of this one. Do not resend it with a new key.',
      ),
    };
  }
  let outcome: Awaited<ReturnType<typeof executeOperation>>;
  try {
    outcome = await executeOperation(op, validated.args, config, options);
  } finally {
    await claim?.release();
  }
  if (!outcome.ok) {
    const details: Record<string, unknown> = {};
    if (outcome.status !== undefined) details.status = outcome.status;
    if (outcome.details !== undefined) details.upstream = outcome.details;
    return {
      ...base,
      dispatched: true,
      envelope: fail(op.name, outcome.code, outcome.message, outcome.instruction, Object.keys(details).length > 0 ? details : undefined),
    };
  }
  const value: Record<string, unknown> = { status: outcome.status, headers: outcome.headers, data: outcome.data };
  let instruction: string | undefined;
  if (outcome.truncated) {
    value.truncated = outcome.truncated;
    const uri = outcome.full !== undefined && ctx.storeFull ? await ctx.storeFull(outcome.full) : undefined;
    if (uri) {
      value.full_result_uri = uri;
      instruction = `The result was cut to fit; read the resource ${uri} for all of it, or call again with "fields" to select only what you need.`;
    } else {
      instruction = 'The result was cut to fit; call again with "fields" or paging arguments to get the rest.';
    }
  }
  if (outcome.pagination) value.pagination = outcome.pagination;
  return { ...base, dispatched: true, envelope: ok(op.name, value, instruction) };
}
