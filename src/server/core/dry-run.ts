// execute_tool's dry run (and `api-catalog call --dry-run`'s): the exact request, never sent, and what would stop the
// real call. A credential this server lacks does not stop it: the request shows `<VAR not set>` where it goes
// (stand-ins.ts) and a warning names the variable. What the real call would be refused for, each with the code it
// would answer, is `would_refuse`: arguments that still hold describe's placeholders (INVALID_ARGUMENTS), a credential
// not set (AUTH_MISSING), a credential over plain http the operator did not allow (UNSAFE_REQUEST); then the
// instruction says what to fix, never "send this request".
import { isAppError } from '../../errors.js';
import { prepareDryRun, prepareWithStandIns, unsetCredential, type CredentialStandIn, type ExecutionConfig, type PreparedRequest } from '../../execution/index.js';
import type { Operation } from '../../types.js';
import { failFromError, ok, type Envelope } from './envelope.js';
import { findPlaceholders, placeholderList, type PlaceholderAt } from './placeholders.js';

/** One reason the real call would be refused, with the error code it would answer. */
export type WouldRefuse =
  | { code: 'INVALID_ARGUMENTS'; placeholders: string[] }
  | { code: 'AUTH_MISSING'; env_vars: string[] }
  | { code: 'UNSAFE_REQUEST'; origin?: string; configKey?: string; flag?: string };

export interface DryRunAnswer {
  envelope: Envelope;
  /** The credentials not set, with the AUTH_MISSING message a real call gets (for the explorer's page). */
  unsetCredentials?: { envVars: string[]; message: string };
}

/** The warning a dry run carries for arguments that still hold placeholders. */
export function placeholderWarning(found: readonly PlaceholderAt[]): string {
  const one = found.length === 1;
  return `${placeholderList(found)} still ${one ? 'holds' : 'hold'} the operation example's placeholder: a real call is refused (INVALID_ARGUMENTS) until ${one ? 'it holds' : 'each holds'} the user's value`;
}

/**
 * Whose words a dry run's "what to fix" is in: an agent's (execute_tool's arguments, "tell the user") or a person's at
 * `api-catalog call` (its flags: --args, --base-url, --dry-run).
 */
export type FixWording = 'agent' | 'cli';

/** `put the user's value in place of the example's placeholder in name (ask the user …)`, or the CLI's `… (--args)`. */
export function placeholderFix(paths: readonly string[], wording: FixWording): string {
  const one = paths.length === 1;
  const value = wording === 'cli' ? (one ? 'a real value' : 'real values') : `the user's value${one ? '' : 's'}`;
  const where = wording === 'cli' ? '(--args)' : '(ask the user for any you do not know)';
  return `put ${value} in place of the example's placeholder${one ? '' : 's'} in ${paths.join(', ')} ${where}`;
}

/** A dry run's next step when the real call would be refused: what to fix (in `wording`'s words), never "send". */
export function fixSentence(tool: string, refusals: readonly WouldRefuse[], wording: FixWording): string {
  const cli = wording === 'cli';
  const fixes = refusals.map((r) => {
    switch (r.code) {
      case 'INVALID_ARGUMENTS':
        return placeholderFix(r.placeholders, wording);
      case 'AUTH_MISSING':
        return cli
          ? `set ${r.env_vars.join(', ')} (api-catalog describe ${tool} says what ${r.env_vars.length === 1 ? 'it' : 'each'} must hold)`
          : `the server lacks the credential ${r.env_vars.join(', ')}: tell the user to set it where the server runs`;
      case 'UNSAFE_REQUEST':
        return cli
          ? `use an https base URL (--base-url)${r.flag !== undefined ? `, or, on a network you trust, add ${r.flag}${r.configKey !== undefined ? ` (or set ${r.configKey} in the config file)` : ''}` : ''}`
          : `the server refuses to send the credential to ${r.origin ?? 'this address'} over plain http: tell the user (an https base URL fixes it; the operator can allow it with the config key ${r.configKey ?? 'allowHttpCredentials'}${r.flag !== undefined ? ` or the flag ${r.flag}` : ''})`;
    }
  });
  const refused = `Not ready to send, ${cli ? 'the' : 'a'} real call would be refused: ${fixes.join('; ')}.`;
  return cli ? `${refused} Then run it again without --dry-run.` : `${refused} Call ${tool} without "dry_run" only once ${fixes.length === 1 ? 'that is' : 'these are'} fixed.`;
}

/** The dry-run answer for validated arguments: the request, its warnings, what would refuse the real call, the next step. */
export function dryRunAnswer(op: Operation, args: Record<string, unknown>, config: ExecutionConfig, options: { tool: string; readOnly: boolean; standIn?: CredentialStandIn }): DryRunAnswer {
  let request: PreparedRequest;
  let refusal: unknown;
  let unsetCredentials: DryRunAnswer['unsetCredentials'];
  try {
    ({ request, refusal } = prepareDryRun(op, args, config));
  } catch (err) {
    const stood = isAppError(err) && err.code === 'AUTH_MISSING' ? prepareWithStandIns(op, args, config, options.standIn ?? unsetCredential) : undefined;
    if (stood === undefined) return { envelope: failFromError(op.name, err) };
    unsetCredentials = { envVars: stood.envVars, message: (err as Error).message };
    // what stops the request once the credential is there (an argument that would change the target) is the answer
    if ('error' in stood) return { unsetCredentials, envelope: failFromError(op.name, stood.error) };
    ({ request, refusal } = stood);
  }
  const warnings: string[] = [];
  const refusals: WouldRefuse[] = [];
  // in the order the real call meets them: the arguments, the credential, the address
  const found = findPlaceholders(args, op.inputSchema);
  if (found.length > 0) {
    warnings.push(placeholderWarning(found));
    refusals.push({ code: 'INVALID_ARGUMENTS', placeholders: found.map((p) => p.path) });
  }
  if (unsetCredentials !== undefined) {
    const vars = unsetCredentials.envVars;
    const shown = vars.map((v) => JSON.stringify((options.standIn ?? unsetCredential)(v))).join(', ');
    warnings.push(`${vars.join(', ')} ${vars.length === 1 ? 'is' : 'are'} not set: the request shows ${shown} where the credential goes, and a real call stops at AUTH_MISSING before sending anything`);
    refusals.push({ code: 'AUTH_MISSING', env_vars: vars });
  }
  // the plain-http warning itself is in request.warnings (the execution layer's)
  if (isAppError(refusal)) {
    const d = (refusal.details ?? {}) as { origin?: unknown; configKey?: unknown; flag?: unknown };
    const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
    const origin = str(d.origin);
    const configKey = str(d.configKey);
    const flag = str(d.flag);
    refusals.push({ code: 'UNSAFE_REQUEST', ...(origin !== undefined ? { origin } : {}), ...(configKey !== undefined ? { configKey } : {}), ...(flag !== undefined ? { flag } : {}) });
  }
  const extra = { ...(warnings.length > 0 ? { warnings } : {}), ...(refusals.length > 0 ? { would_refuse: refusals } : {}) };
  const envelope = options.readOnly
    ? ok(
        op.name,
        { dry_run: true, read_only_mode: true, request, ...extra },
        'This server is read-only: the request was not sent and cannot be sent here; show it to the user if they want to run it elsewhere.',
      )
    : ok(op.name, { dry_run: true, request, ...extra }, refusals.length > 0 ? fixSentence(options.tool, refusals, 'agent') : `Call ${options.tool} again without "dry_run" to send this request.`);
  return { envelope, ...(unsetCredentials !== undefined ? { unsetCredentials } : {}) };
}
