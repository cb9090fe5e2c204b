// The search engine loaded on demand: what the bundled CLI uses in place of search-engine.ts (scripts/postbuild.mjs
// swaps the module). `serve`'s first answers (initialize, tools/list) never search, so the engine (src/search: the
// index, the ranking, the word tables it builds as it loads; ~90 KB of JS) loads after the first tools/list, when
// the index is warmed, or when a request that reads the catalogs comes first (the stdio transport holds it, and
// whatever follows it, until then: stdio.ts). Every other command loads it before it runs (main.ts). Same exports as
// search-engine.ts.
import { AppError } from '../../errors.js';
import { mark } from '../../startup-marks.js';
import type { SearchEngine } from './search-engine.js';

let engine: SearchEngine | undefined;
let loading: Promise<SearchEngine> | undefined;

/** Loads the engine (once; later calls return the same promise; after a failed load, the next call tries again). */
export function loadSearchEngine(): Promise<SearchEngine> {
  loading ??= Promise.all([import('../../search/index.js'), import('../../search/semantic.js')]).then(([index, semantic]) => {
    engine = { SearchIndex: index.SearchIndex, rankingWeights: semantic.rankingWeights };
    mark('search-engine'); // the start-up trace: when the engine was there (serve: after the first tools/list)
    return engine;
  }, (err: unknown) => {
    // (a package replaced under a running server): the next caller tries again rather than meet this failure forever
    loading = undefined;
    throw err;
  });
  return loading;
}

/** The loaded engine; INTERNAL when it is used before it was loaded (a path that forgot to await it). */
export function searchEngine(): SearchEngine {
  if (engine === undefined) throw new AppError('INTERNAL', 'search: the search engine is not loaded yet; await loadSearchEngine() before reading the index');
  return engine;
}

/** True once the engine is loaded. */
export function searchEngineLoaded(): boolean {
  return engine !== undefined;
}
