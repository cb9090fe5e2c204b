// SIGTERM/SIGINT for `serve`: the first signal starts the graceful drain (the caller's), a second one exits at
// once with 128 + the signal number (what a shell reports for a process killed by it), logging what it abandons and
// writing the audit line (outcome ABANDONED) of every execute_tool still in flight before it exits.
import type { Logger } from '../../logger.js';
import { abandonCalls } from './in-flight.js';

const NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Runs `drain` on the first SIGTERM/SIGINT; a second signal exits now. `inFlight` says what a forced exit abandons.
 * Returns the function that removes the listeners (a serve that returned, in a process that goes on).
 */
export function onShutdownSignals(logger: Logger, drain: (signal: string) => void, inFlight: () => number): () => void {
  let received = 0;
  const listeners: Array<[NodeJS.Signals, () => void]> = [];
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const listener = (): void => {
      received++;
      if (received === 1) {
        logger.log('info', { event: 'shutdown', signal, inFlight: inFlight() });
        drain(signal);
        return;
      }
      logger.log('warn', { event: 'shutdown_forced', signal, abandoned: inFlight(), note: 'second signal: exiting without waiting for calls in flight' });
      // Synchronous appends (the audit file is written with writeSync): every line is in the file before the exit.
      abandonCalls();
      process.exit(128 + NUMBERS[signal]);
    };
    process.on(signal, listener);
    listeners.push([signal, listener]);
  }
  return () => {
    for (const [signal, listener] of listeners.splice(0)) process.off(signal, listener);
  };
}
