// The result envelope every meta-tool returns: { success, tool, value | error, instruction? }. Plain data,
// shared by the MCP tools and the CLI.
import type { ErrorCode } from '../../errors.js';

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
