// `serve --state`: what the state store says at start-up, for people (stderr) and the exit code, and the warning
// for a password given on the command line.
import type { StateProblem, StateStore } from '../state/index.js';
import { AppError } from '../errors.js';
import type { LogEvent } from '../logger.js';
import { isConfigurationProblem, redactRedisUrl, stateProblemAtStart } from '../state/index.js';

/**
 * The warning (a log event) for `--state` given on the command line with a password in its URL: a process's
 * arguments are readable by every user of the machine (`ps`, /proc/<pid>/cmdline), so the password should come
 * through the environment (API_CATALOG_STATE; the config file takes no state URL). The password is never in it: the
 * URL is shown redacted. Undefined when there is nothing to warn about (no flag, no password in it, or no URL at
 * all, which openStateStore refuses without echoing it).
 */
export function stateFlagPasswordWarning(flag: string | undefined): LogEvent | undefined {
  if (flag === undefined) return undefined;
  let password: string;
  try {
    password = new URL(flag).password;
  } catch {
    return undefined;
  }
  if (password === '') return undefined;
  return {
    event: 'state_password_in_arguments',
    state: redactRedisUrl(flag),
    note:
      'the --state URL carries a password, and the command line is visible to every user of this machine (ps); ' +
      "pass the URL in the environment instead: API_CATALOG_STATE='redis://:<password>@<host>:6379/0' (from a secret " +
      'manager, a systemd EnvironmentFile or a Kubernetes Secret) and drop --state; change the password if others could have seen it',
  };
}

/** Starts the wait (up to 5 s) for a fresh store's verdict: undefined when it is usable, else the problem seen. */
export function judgeStateAtStart(state: StateStore): Promise<StateProblem | undefined> {
  return stateProblemAtStart(state, 5000);
}

/**
 * The state store's verdict at start-up (`verdict`, from judgeStateAtStart, started earlier to overlap other work): a problem only the configuration can fix (a database the Redis does not
 * have, a cluster node or Sentinel) stops the start; any other (nothing listening yet, a refused password) is
 * said on stderr and the replica serves unready while the store keeps retrying.
 */
export async function reportStateAtStart(state: StateStore, where: string, verdict: Promise<StateProblem | undefined> = judgeStateAtStart(state)): Promise<void> {
  const problem = await verdict;
  if (problem === undefined) return;
  if (isConfigurationProblem(problem)) {
    await state.close();
    throw new AppError('CONFIG_INVALID', `the state store ${where} cannot be used: ${problem.detail}`);
  }
  const unreachable = problem.code === 'unreachable' || problem.code === 'timeout' || problem.code === 'connecting';
  process.stderr.write(
    `api-catalog: warning: the state store ${where} ${unreachable ? `is not reachable yet (${problem.detail})` : `is not usable: ${problem.detail}`}; serving unready (/readyz 503) and retrying\n`,
  );
}
