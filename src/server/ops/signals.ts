// SIGTERM/SIGINT for `serve`: the first signal starts the graceful drain (the caller's), a second one exits at
// once with 128 + the signal number (what a shell reports for a process killed by it), logging what it abandons.
import type { Logger } from '../../logger.js';

const NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

/** Runs `drain` on the first SIGTERM/SIGINT; a second signal exits now. `inFlight` says what a forced exit abandons. */
export function onShutdownSignals(logger: Logger, drain: (signal: string) => void, inFlight: () => number): void {
  let received = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      received++;
      if (received === 1) {
        logger.log('info', { event: 'shutdown', signal, inFlight: inFlight() });
        drain(signal);
        return;
      }
      logger.log('warn', { event: 'shutdown_forced', signal, abandoned: inFlight(), note: 'second signal: exiting without waiting for calls in flight' });
      process.exit(128 + NUMBERS[signal]);
    });
  }
}
