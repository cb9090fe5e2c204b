// The result envelope every meta-tool returns: { success, tool, value | error, instruction? }. Plain data,
// shared by the MCP tools and the CLI.
import { isAppError, type ErrorCode } from '../../errors.js';
import { policyInstruction } from '../../execution/policy.js';

export interface EnvelopeError {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export type Envelope =
  | { success: true; tool: string; value: unknown; instruction?: string }
  | { success: false; tool: string; error: EnvelopeError; instruction?: string };

/** A success envelope. */
export function ok(tool: string, value: unknown, instruction?: string): Envelope {
  return instruction === undefined ? { success: true, tool, value } : { success: true, tool, value, instruction };
}

/** A failure envelope; `instruction` is the agent's next step in one sentence. */
export function fail(tool: string, code: ErrorCode, message: string, instruction: string, details?: unknown): Envelope {
  const error: EnvelopeError = details === undefined ? { code, message } : { code, message, details };
  return { success: false, tool, error, instruction };
}

/** The agent's next step for an error code raised as an AppError inside a meta-tool. */
const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  AUTH_MISSING: 'Tell the user which credential environment variable to set (see details); do not retry until it is set.',
  UNSAFE_REQUEST: 'Change the argument named in the message (no dot segments, CR/LF or URLs in path or header values), then retry.',
  INVALID_ARGUMENTS: 'Fix the argument named in the message, then retry.',
  CONFIG_INVALID: 'Tell the user the server is misconfigured (see the message); do not retry.',
  NOT_EXECUTABLE: 'This operation cannot be called through this server; pick another with search_tools.',
  READ_ONLY_MODE: 'Tell the user this server only allows read operations; do not retry this call.',
  REGISTRY_STALE: 'The catalog changed on disk and the server is loading the new version: retry the same call in a few seconds.',
};

/**
 * Turns an exception thrown inside a meta-tool into a failure envelope. AppErrors keep their code and
 * message (they are written for the agent and carry no secrets); anything else becomes a generic INTERNAL
 * error whose text is not copied, because unexpected exceptions can carry raw upstream data.
 */
export function failFromError(tool: string, err: unknown): Envelope {
  if (isAppError(err)) {
    const next = policyInstruction(err) ?? NEXT_STEP[err.code] ?? 'Do not retry this call unchanged; tell the user what failed.';
    return fail(tool, err.code, err.message, next, err.details);
  }
  return fail(tool, 'INTERNAL', `${tool}: the server failed unexpectedly while handling this call`, 'Tell the user the call failed inside api-catalog; do not retry it unchanged.');
}
