// `serve --state`: what the state store says at start-up, for people (stderr) and the exit code.
import type { StateStore } from '../state/index.js';
import { AppError } from '../errors.js';
import { isConfigurationProblem, stateProblemAtStart } from '../state/index.js';

/**
 * The state store's verdict at start-up: a problem only the configuration can fix (a database the Redis does not
 * have, a cluster node or Sentinel) stops the start; any other (nothing listening yet, a refused password) is
 * said on stderr and the replica serves unready while the store keeps retrying.
 */
export async function reportStateAtStart(state: StateStore, where: string): Promise<void> {
  const problem = await stateProblemAtStart(state, 5000);
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
