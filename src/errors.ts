// One error type for the whole product. Expected outcomes (validation failures, HTTP >= 400) are values,
// not exceptions; AppError is for what the caller cannot continue past. Messages name the bad value and
// the next step, and never carry credentials.

/** Every error code the product can report. Agents see these in the result envelope. */
export type ErrorCode =
  // meta-tool workflow
  | 'UNKNOWN_TOOL'
  | 'UNKNOWN_DOMAIN'
  | 'INVALID_ARGUMENTS'
  | 'TOOL_DESCRIPTION_REQUIRED'
  | 'CONFIRMATION_REQUIRED'
  | 'READ_ONLY_MODE'
  | 'MISSING_TOOL_SELECTION'
  | 'RATE_LIMITED'
  | 'LIMIT_EXCEEDED'
  | 'NOT_EXECUTABLE'
  | 'IDEMPOTENCY_IN_FLIGHT'
  // shared state (sessions, authorizations, rate limits) in the state store
  | 'STATE_UNAVAILABLE'
  // execution
  | 'AUTH_MISSING'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNREACHABLE'
  | 'UPSTREAM_REDIRECT_REFUSED'
  | 'UPSTREAM_RESPONSE_INVALID'
  | 'UNSAFE_REQUEST'
  | 'CANCELLED'
  // import and configuration
  | 'SPEC_UNREADABLE'
  | 'SPEC_INVALID'
  | 'SPEC_UNSUPPORTED_VERSION'
  | 'SPEC_NO_OPERATIONS'
  | 'SPEC_TOO_LARGE'
  | 'SPEC_REF_REFUSED'
  | 'REGISTRY_NOT_FOUND'
  | 'REGISTRY_INVALID'
  | 'REGISTRY_STALE'
  | 'CONFIG_INVALID'
  | 'INTERNAL';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
