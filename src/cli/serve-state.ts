// `serve --state`: what the state store says at start-up, for people (stderr) and the exit code.
import type { StateProblem, StateStore } from '../state/index.js';
import { AppError } from '../errors.js';
import { isConfigurationProblem, stateProblemAtStart } from '../state/index.js';

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
