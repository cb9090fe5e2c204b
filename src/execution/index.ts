// The execution layer's public API (docs/DESIGN.md "Execution"): validate arguments, prepare the exact request
// (dry run, secrets redacted), execute it over HTTP and shape the result. Knows nothing of MCP.
import { AppError, isAppError } from '../errors.js';
import type { Operation } from '../types.js';
import { configRedactor } from './execute.js';
import { buildRequest, toPrepared } from './request.js';
import type { ExecutionConfig, PreparedRequest } from './types.js';

export type {
  CredentialEnvNames,
  ExecuteOptions,
  ExecutionConfig,
  ExecutionOutcome,
  FieldError,
  PaginationHint,
  PreparedRequest,
  TruncationInfo,
  ValidationOutcome,
  WireFacts,
} from './types.js';
export { validateArguments, ARG_LIMITS } from './validate.js';
export { credentialStatus, envPrefix } from './auth.js';
export { executeOperation } from './execute.js';
export { CheckedFields, checkFields } from './projection.js';
export { policyInstruction } from './policy.js';
export { prepareWithStandIns, unsetCredential, type CredentialStandIn } from './stand-ins.js';

/**
 * The exact request an operation would send with these (already validated) arguments: method, URL, headers
 * and body with every credential replaced by `***`, plus a curl line. Throws AppError for arguments that
 * cannot be sent (INVALID_ARGUMENTS, UNSAFE_REQUEST), missing credentials (AUTH_MISSING) or configuration
 * (CONFIG_INVALID, NOT_EXECUTABLE, READ_ONLY_MODE).
 */
export function prepareRequest(op: Operation, args: Record<string, unknown>, config: ExecutionConfig): PreparedRequest {
  return prepareDryRun(op, args, config).request;
}

/**
 * prepareRequest, and `refusal`: what stops the real call once its request is built (a credential over plain http the
 * operator did not allow, executeOperation's UNSAFE_REQUEST), so a dry run can say the call would be refused.
 */
export function prepareDryRun(op: Operation, args: Record<string, unknown>, config: ExecutionConfig): { request: PreparedRequest; refusal?: AppError } {
  try {
    const req = buildRequest(op, args, config);
    req.redactor = req.redactor.merge(configRedactor(config));
    const refusal = req.plainHttp?.refusal;
    return { request: toPrepared(req), ...(refusal !== undefined ? { refusal } : {}) };
  } catch (err) {
    if (isAppError(err)) throw err;
    throw new AppError('INTERNAL', `${op.name}: could not build the request`, { cause: err });
  }
}
