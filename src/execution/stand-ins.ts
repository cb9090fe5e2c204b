// A dry run without the catalog's credentials (execute_tool's and `api-catalog call --dry-run`'s, the explorer's
// operation page): the request is built as if each credential variable this server lacks held a readable stand-in
// (`<GITHUB_TOKEN not set>`), so the URL, headers and body still show where a real call would stop at AUTH_MISSING.
// Only the server's real credentials are masked (`***`); the stand-ins are no secret and are shown as written, not
// URL-encoded or inside base64.
import { isAppError, type AppError } from '../errors.js';
import type { Operation } from '../types.js';
import { credentialStatus } from './auth.js';
import { encodeStrict } from './encode.js';
import { configRedactor } from './execute.js';
import { buildRequest, toPrepared } from './request.js';
import type { ExecutionConfig, PreparedRequest } from './types.js';

/** Names the stand-in for a credential variable this server does not have. */
export type CredentialStandIn = (envVar: string) => string;

/** The stand-in every dry run uses unless told otherwise: `<GITHUB_TOKEN not set>`, the variable to set, named. */
export function unsetCredential(envVar: string): string {
  return `<${envVar} not set>`;
}

/**
 * The dry-run request for arguments already validated, with `standIn(VAR)` for each credential variable that is not
 * set; `envVars` are those variables. Undefined when no variable is missing or no stand-in makes the request
 * buildable (a scheme this server cannot send). `error` instead of `request`: what stops the request once the
 * credential is there (an argument that would change the target, the address policy), as prepareRequest throws it;
 * `refusal`: what stops the built request once the credential is there (a credential over plain http, as prepareDryRun).
 */
export function prepareWithStandIns(
  op: Operation,
  args: Record<string, unknown>,
  config: ExecutionConfig,
  standIn: CredentialStandIn,
): { envVars: string[]; request: PreparedRequest; refusal?: AppError } | { envVars: string[]; error: unknown } | undefined {
  const status = credentialStatus(op, config).filter((s) => !s.set);
  const realEnv = config.env ?? process.env;
  const unset = [...new Set(status.flatMap((s) => s.envVars))].filter((v) => realEnv[v] === undefined || realEnv[v] === '');
  if (unset.length === 0) return undefined;
  const env = { ...realEnv, ...Object.fromEntries(unset.map((v) => [v, standIn(v)])) };
  try {
    const built = buildRequest(op, args, { ...config, env });
    built.redactor = configRedactor(config);
    const refusal = built.plainHttp?.refusal;
    return { request: readable(toPrepared(built), unset, status, env, standIn), envVars: unset, ...(refusal !== undefined ? { refusal } : {}) };
  } catch (err) {
    if (isAppError(err) && err.code === 'AUTH_MISSING') return undefined;
    return { envVars: unset, error: err };
  }
}

/** The prepared request with each stand-in shown as written: not URL-encoded, and not inside a Basic header's base64. */
function readable<T>(
  request: T,
  unset: readonly string[],
  schemes: ReadonlyArray<{ envVars: string[] }>,
  env: Record<string, string | undefined>,
  standIn: CredentialStandIn,
): T {
  const swaps: Array<[string, string]> = [];
  for (const v of unset) {
    const text = standIn(v);
    swaps.push([encodeStrict(text), text], [encodeURIComponent(text).replace(/%20/g, '+'), text]);
  }
  for (const s of schemes) {
    const [user, pass] = s.envVars;
    if (s.envVars.length !== 2 || user === undefined || pass === undefined) continue;
    const pair = Buffer.from(`${env[user] ?? ''}:${env[pass] ?? ''}`, 'utf8').toString('base64');
    const missing = s.envVars.filter((v) => unset.includes(v));
    swaps.push([pair, `<base64 of ${user}:${pass}; ${missing.join(' and ')} not set>`]);
  }
  swaps.sort((a, b) => b[0].length - a[0].length);
  const swap = (s: string): string => swaps.reduce((out, [from, to]) => out.split(from).join(to), s);
  const walk = (v: unknown): unknown =>
    typeof v === 'string' ? swap(v) : Array.isArray(v) ? v.map(walk) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)])) : v;
  return walk(request) as T;
}
