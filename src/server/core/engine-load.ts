// What a failed load of the search engine leaves behind (the bundle loads it on demand: search-engine-lazy.ts): a
// line in the log, never an unhandled rejection that ends the process. The next call that needs the engine tries
// the load again; until one succeeds, every call that reads an index answers INTERNAL.
import type { Logger } from '../../logger.js';

export function engineLoadFailed(logger: Logger | undefined, err: unknown): void {
  logger?.log('error', {
    event: 'search_engine_load_failed',
    error: err instanceof Error ? err.message : String(err),
    note: 'calls that read the index answer INTERNAL; the next one tries to load it again',
  });
}
