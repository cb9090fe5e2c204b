// Picks the state store from configuration: unset -> in-memory (one process); `redis://…` -> Redis, shared by
// replicas. The public face of src/state; the URL's password is registered as a log secret before anything.
// The Redis store (and ioredis) is loaded only when a redis:// URL is given: stdio and one-process HTTP never pay for it.
import type { Logger } from '../logger.js';
import { MemoryStateStore } from './memory.js';
import type { StateStore } from './store.js';
import type { StateProblem } from './redis-problems.js';
import { checkRedisUrl, redactRedisUrl } from './url.js';

export * from './store.js';
export { MemoryStateStore } from './memory.js';
export type { RedisStateStore } from './redis.js';
export { checkRedisUrl, redactRedisUrl } from './url.js';
export { isConfigurationProblem, type StateProblem, type StateProblemCode } from './redis-problems.js';

export interface OpenStateOptions {
  logger?: Logger;
  /** Clock of the in-memory store (tests). */
  now?: () => number;
  /** Redis per-command deadline. */
  commandTimeoutMs?: number;
}

/** Opens the store named by `url` (undefined or '' = memory). Rejects with CONFIG_INVALID for a bad URL. */
export async function openStateStore(url: string | undefined, options: OpenStateOptions = {}): Promise<StateStore> {
  if (url === undefined || url === '' || url === 'memory') return new MemoryStateStore(options.now);
  checkRedisUrl(url);
  const { RedisStateStore } = await import('./redis.js');
  return new RedisStateStore(url, {
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.commandTimeoutMs !== undefined ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
  });
}

/** A loggable description of the store: `memory` or the Redis URL without credentials. */
export function describeStateStore(url: string | undefined): string {
  return url === undefined || url === '' || url === 'memory' ? 'memory' : redactRedisUrl(url);
}

/**
 * Waits up to `ms` for a fresh store to become usable: undefined when it is (the memory store at once), else the
 * problem seen (a wrong password, a missing database, nothing listening, ...). Problems only the configuration
 * can fix end the wait early.
 */
export async function stateProblemAtStart(store: StateStore, ms: number): Promise<StateProblem | undefined> {
  const verdict = (store as { waitForVerdict?: (ms: number) => Promise<StateProblem | undefined> }).waitForVerdict;
  return verdict === undefined ? undefined : verdict.call(store, ms);
}
