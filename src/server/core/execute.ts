// execute_tool's flow, shared by the MCP tool and `api-catalog call`: lookup -> describe-before-execute ->
// read-only -> validate -> dry run | placeholders -> confirm destructive -> execute. Every refusal happens before the
// network.
import { checkFields, executeOperation, validateArguments, type CheckedFields, type CredentialStandIn, type ExecuteOptions } from '../../execution/index.js';
import { encodePathParam } from '../../execution/encode.js';
import type { Operation } from '../../types.js';
import { executionConfigFor, suggestToolNames, type CatalogSet, type ExecutionSettings } from './catalogs.js';
import { operationFingerprint } from './describe.js';
import { refusedWhenReadOnly } from './describe-instruction.js';
import { dryRunAnswer } from './dry-run.js';
import { fail, failFromError, ok, type Envelope } from './envelope.js';
import { parseMetaArgs } from './meta-args.js';
import { LIMITS, type ToolNames } from './names.js';
import { findPlaceholders, placeholderList } from './placeholders.js';

export interface ExecuteToolInput {
  tool_name: string;
  args?: Record<string, unknown>;
  confirm?: string;
  dry_run?: boolean;
  fields?: string | string[];
  /** The handle describe_tools returned for the operation (the proof of a describe where nothing remembers it). */
  handle?: string;
}

/**
 * The user's answer to a destructive call: 'ask' means the client can be asked (the caller answers input_required
 * and the retry brings the answer); `refused` is a confirmation that cannot be used, with the reason (`reason`: its
 * code, for details.reason). `askAgain`: the client can ask its user, so the way on is the same call again (the user
 * is asked anew), not the agent's "confirm", which that client's calls ignore.
 */
export type ConfirmAnswer = 'accept' | 'decline' | 'cancel' | 'unavailable' | 'ask' | { refused: string; reason?: string; askAgain?: boolean };

/**
 * Why an operation is not authorized for execution: never described, described at Level 1 only (a summary shows
 * no parameters, so it never authorizes), or a handle that does not prove it.
 */
export type DescribeFailure = 'not_described' | 'summary_only' | 'malformed' | 'expired' | 'mismatch';
export type DescribeCheck = { ok: true } | { ok: false; reason: DescribeFailure };

export interface ExecuteContext {
  settings: ExecutionSettings;
  sessionCredential?: string;
  /** The transport reads X-Upstream-Token (HTTP), so AUTH_MISSING can name it. */
  sessionHeader?: boolean;
  signal?: AbortSignal;
  /** Describe-before-execute check (a remembered describe or the handle); omitted: not enforced (CLI, --no-require-describe). */
  checkDescribed?: (name: string, fingerprint: string, handle: string | undefined) => DescribeCheck | Promise<DescribeCheck>;
  /** Where the agent can fetch a description that authorizes `name` (e.g. a resource URI). */
  describeUri?: (name: string) => string;
  /** The user's answer to a destructive call (MCP elicitation through MRTR); omitted or 'unavailable': confirm is required. */
  askConfirmation?: (op: Operation) => Promise<ConfirmAnswer>;
  /** Keeps a truncated call's full result; returns the URI to read it, or undefined when not kept. */
  storeFull?: (full: unknown) => string | undefined | Promise<string | undefined>;
  /**
   * Claims an agent-supplied idempotency key while its request is in flight (shared across replicas); a second
   * request with the same key is refused until the first ends. Omitted: no claim.
   */
  claimIdempotencyKey?: (key: string) => Promise<{ claimed: boolean; release: () => Promise<void> }>;
  /**
   * Awaited when the execution layer is about to hand the request to fetch: from then on the upstream may act on it
   * (a forced exit's audit line says so); a throw stops the call with nothing sent (the execute rate limit). Never
   * for a call refused before that, inside the execution layer too.
   */
  onDispatch?: () => void | Promise<void>;
  /**
   * A dry run whose credential this server lacks shows the request with `credentialStandIn(VAR)` where each missing
   * credential goes, instead of stopping at AUTH_MISSING (a warning and the outcome's unsetCredentials say so).
   * Omitted: `<VAR not set>` (every dry run: execute_tool, `call --dry-run`, the explorer).
   */
  credentialStandIn?: CredentialStandIn;
}

export interface ExecuteOutcome {
  envelope: Envelope;
  /** The operation that was targeted, when it exists (for logs). */
  operation?: string;
  /**
   * Whether the request was handed to fetch (the execution layer's `sent`): false for every refusal, the execution
   * layer's too (AUTH_MISSING, a bad base URL, the address policy, ...), and for dry runs.
   */
  dispatched: boolean;
  /** The call waits for the user's confirmation: the caller answers input_required (the envelope is the fallback). */
  confirmationPending?: Operation;
  /** With confirmationPending: the concrete request the user is asked to allow ("DELETE /pets/31"). */
  confirmationRequest?: string;
  /**
   * Dispatched calls: the upstream round trip's milliseconds, measured by the execution layer from handing the
   * request to fetch until its response body was read (retries, back-off and redirects included). Not the request's
   * building, the answer's shaping, the describe check, the confirmation, the idempotency claim or storing the result.
   */
  upstreamMs?: number;
  /**
   * A dry run whose credential is not set: the envelope's request has stand-ins for `envVars`, and `message` is the
   * AUTH_MISSING a real call would get.
   */
  unsetCredentials?: { envVars: string[]; message: string };
}

/** The TOOL_DESCRIPTION_REQUIRED message for each reason; never the handle's MAC. */
function notDescribedMessage(op: Operation, reason: DescribeFailure, handle: string | undefined): string {
  switch (reason) {
    case 'malformed':
      return `execute_tool: ${JSON.stringify((handle ?? '').slice(0, 40))} is not a describe handle, so ${op.name} counts as not described`;
    case 'expired':
      return `execute_tool: the describe handle for ${op.name} expired`;
    case 'mismatch':
      return `execute_tool: the handle does not authorize ${op.name}: it was issued for another operation or another caller, or ${op.name}'s definition changed since it was described`;
    case 'summary_only':
      return `execute_tool: ${op.name} was described at summary level only, which does not authorize a call; describe it at level "parameters" (the default) or "full" first`;
    default:
      return `execute_tool: ${op.name} has not been described (no describe_tools for it here, and no "handle"; a "summary" describe does not count); you cannot execute it before describing it`;
  }
}

/** Longest request line in a confirmation message (the form stays readable; a dry run shows the whole request). */
const REQUEST_LINE_MAX = 300;

/**
 * What the user is asked to allow: the method and the path with this call's arguments filled in ("DELETE
 * /repos/o/r0"), so they approve one concrete target, not "some repository". Only the path: no query, headers or
 * body (credentials travel there), and the values are the agent's arguments, encoded as the request will send them.
 * A value that cannot be encoded keeps its {placeholder} (the execution layer refuses it before anything is sent).
 */
export function requestLine(op: Operation, args: Record<string, unknown>): string {
  const bindings = new Map(op.bindings.filter((b) => b.in === 'path').map((b) => [b.name, b]));
  const path = op.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const b = bindings.get(name);
    if (b === undefined || !Object.prototype.hasOwnProperty.call(args, b.arg) || args[b.arg] === undefined) return whole;
    try {
      return encodePathParam(b.arg, args[b.arg], b.style, b.explode);
    } catch {
      return whole;
    }
  });
  const line = `${op.method.toUpperCase()} ${path}`;
  return line.length > REQUEST_LINE_MAX ? `${line.slice(0, REQUEST_LINE_MAX - 1)}…` : line;
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
    handle: { kind: 'string', max: LIMITS.nameMaxChars },
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
  const { tool_name: name, confirm, dry_run: dryRun = false, fields, handle } = parsed.value;
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
  const described = ctx.checkDescribed ? await ctx.checkDescribed(op.name, operationFingerprint(op), handle) : { ok: true as const };
  if (!described.ok) {
    const call = { tool: names.describeTools, arguments: { tool_names: [op.name] } };
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'TOOL_DESCRIPTION_REQUIRED',
        notDescribedMessage(op, described.reason, handle),
        `Call ${names.describeTools} with {"tool_names": ["${op.name}"]}, then call ${tool} again with the "handle" it returns for ${op.name}.`,
        { reason: described.reason, describe_call: call, ...(ctx.describeUri ? { resource_uri: ctx.describeUri(op.name) } : {}) },
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
  if (refusedWhenReadOnly(op, ctx.settings.readOnly) && !dryRun) {
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'READ_ONLY_MODE',
        `execute_tool: the server is in read-only mode; ${op.method.toUpperCase()} ${op.name} is refused`,
        'Tell the user this server only allows operations that read; do not retry this call.',
        { method: op.method.toUpperCase() },
      ),
    };
  }
  const validated = validateArguments(op, args);
  if (!validated.ok) {
    // a "<count>" where a number goes: the fix is the user's value, not another type
    const found = findPlaceholders(args, op.inputSchema);
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
        found.length > 0
          ? `Replace the example's placeholders in ${found.map((p) => p.path).join(', ')} with the user's values (ask the user for any you do not know), fix any other listed field (see details), and call ${tool} again.`
          : `Fix the listed fields (see details) and call ${tool} again; ${names.describeTools} with "detail": "full" shows the schema.`,
        { errors: validated.errors, ...(found.length > 0 ? { placeholders: found.map((p) => p.path) } : {}) },
      ),
    };
  }
  // a projection that does not parse is an argument error like the others: refused before a dry run, a
  // confirmation or an idempotency claim, and never dispatched; the execution layer takes it as checked
  let projection: CheckedFields | undefined;
  try {
    if (fields !== undefined) projection = checkFields(fields);
  } catch (err) {
    return { ...base, dispatched: false, envelope: failFromError(op.name, err) };
  }
  const config = executionConfigFor(entry.catalog, ctx.settings, ctx.sessionCredential, ctx.sessionHeader);
  if (dryRun) {
    const answer = dryRunAnswer(op, validated.args, config, { tool, readOnly: refusedWhenReadOnly(op, ctx.settings.readOnly), ...(ctx.credentialStandIn ? { standIn: ctx.credentialStandIn } : {}) });
    return { ...base, dispatched: false, ...answer };
  }
  // describe's placeholders (`"<name>"`) are no values: a real call that still holds one is refused, nothing sent
  const placeholders = findPlaceholders(validated.args, op.inputSchema);
  if (placeholders.length > 0) {
    return {
      ...base,
      dispatched: false,
      envelope: fail(
        op.name,
        'INVALID_ARGUMENTS',
        `execute_tool: ${op.name} was not sent: ${placeholderList(placeholders)} still ${placeholders.length === 1 ? 'holds' : 'hold'} the placeholder from the operation's example, not a value`,
        `Replace each placeholder in details.placeholders with the user's value (ask the user for any you do not know), then call ${tool} again.`,
        {
          placeholders: placeholders.map((p) => p.path),
          errors: placeholders.map((p) => ({ path: p.pointer, message: `still holds the placeholder ${JSON.stringify(p.value)}; put the user's value here` })),
        },
      ),
    };
  }
  if (op.destructive && confirm !== op.name) {
    const answer: ConfirmAnswer = confirm === undefined && ctx.askConfirmation ? await ctx.askConfirmation(op) : 'unavailable';
    if (answer !== 'accept') {
      // decline: the user said no, so the agent must not push; cancel: they closed the form without answering
      const declined = answer === 'decline';
      const cancelled = answer === 'cancel';
      const refusedAnswer = typeof answer === 'object' ? answer : undefined;
      const refused = refusedAnswer?.refused;
      const reason = refusedAnswer?.reason !== undefined ? { reason: refusedAnswer.reason } : {};
      return {
        ...base,
        dispatched: false,
        ...(answer === 'ask' ? { confirmationPending: op, confirmationRequest: requestLine(op, validated.args) } : {}),
        envelope: fail(
          op.name,
          'CONFIRMATION_REQUIRED',
          declined
            ? `execute_tool: the user declined ${op.name}`
            : cancelled
              ? `execute_tool: the user cancelled the confirmation of ${op.name} without answering; it was not run`
              : refused !== undefined
                ? `execute_tool: ${op.name} was not run: ${refused}`
                : `execute_tool: ${op.name} is destructive (${requestLine(op, validated.args)}); it needs "confirm": "${op.name}"`,
          declined
            ? 'Do not retry; tell the user the action was not performed.'
            : cancelled
              ? 'Tell the user the action was not performed; call again only if they ask for it again.'
              : refusedAnswer?.askAgain === true
                ? `Call ${tool} again with the same arguments: the user will be asked to confirm again ("confirm" is not used on this client).`
                : `Ask the user to confirm, then call ${tool} again with "confirm": "${op.name}".`,
          refusedAnswer?.askAgain === true ? reason : { confirm: op.name, ...(confirm !== undefined ? { got: confirm.slice(0, 100) } : {}), ...reason },
        ),
      };
    }
  }
  const options: ExecuteOptions = {};
  if (ctx.signal) options.signal = ctx.signal;
  if (projection !== undefined) options.fields = projection;
  if (ctx.onDispatch) options.onSent = ctx.onDispatch;
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
  // What the execution layer says it sent, and the upstream round trip's time when it did.
  const wire = { dispatched: outcome.sent, ...(outcome.upstreamMs !== undefined ? { upstreamMs: outcome.upstreamMs } : {}) };
  if (!outcome.ok) {
    const details: Record<string, unknown> = {};
    if (outcome.status !== undefined) details.status = outcome.status;
    // an argument refused while building the request (a dot segment, CR/LF in a header) has the shape of the schema
    // refusals above: field errors in details.errors; details.upstream is for what the upstream said. A refusal
    // before anything was sent (the address policy, plain-http credentials, a missing credential) is ours: its
    // details sit at the top, like every other refusal's.
    const fieldErrors = outcome.code === 'INVALID_ARGUMENTS' ? (outcome.details as { errors?: unknown } | undefined)?.errors : undefined;
    if (Array.isArray(fieldErrors)) details.errors = fieldErrors;
    else if (outcome.details !== undefined && outcome.sent) details.upstream = outcome.details;
    else if (outcome.details !== undefined) Object.assign(details, outcome.details);
    return {
      ...base,
      ...wire,
      envelope: fail(op.name, outcome.code, outcome.message, outcome.instruction, Object.keys(details).length > 0 ? details : undefined),
    };
  }
  const value: Record<string, unknown> = { status: outcome.status, headers: outcome.headers, data: outcome.data };
  let instruction: string | undefined;
  if (outcome.truncated) {
    value.truncated = outcome.truncated;
    const uri = outcome.full !== undefined && ctx.storeFull ? await ctx.storeFull(outcome.full) : undefined;
    // the execution layer's own steps (a body cut at the byte cap, JSON kept as text, a charset read as UTF-8, ...)
    // say how it was cut; here only where the whole of it is kept
    if (uri) {
      value.full_result_uri = uri;
      instruction =
        outcome.instruction !== undefined
          ? `The full result is kept: read the resource ${uri} for all of it. ${outcome.instruction}`
          : `The result was cut to fit; read the resource ${uri} for all of it, or call again with "fields" to select only what you need.`;
    } else {
      instruction = outcome.instruction ?? 'The result was cut to fit; call again with "fields" or paging arguments to get the rest.';
    }
  }
  if (outcome.pagination) value.pagination = outcome.pagination;
  // a `fields` projection that matched nothing: said beside the data and in the instruction, or `{}` / `null`
  // reads as an empty answer from the API
  if (outcome.warnings) {
    value.warnings = outcome.warnings;
    instruction ??= outcome.instruction ?? 'Some "fields" paths matched nothing in this response (see warnings): fix them from the fields listed there, or call again without "fields".';
  }
  return { ...base, ...wire, envelope: ok(op.name, value, instruction) };
}
