// The search engine (src/search/index.ts and the learned ranking build) as the catalog set reads it: here loaded with
// this module, as a plain import. The bundled CLI replaces this module with search-engine-lazy.ts (same exports;
// scripts/postbuild.mjs), which loads the engine on demand so that `serve` answers initialize and tools/list without
// it. Code that reads an index must therefore hold the engine first: await loadSearchEngine() (free here).
import { SearchIndex } from '../../search/index.js';
import { rankingWeights } from '../../search/semantic.js';

/** What the catalog set uses of the engine (its index type and the learned ranking build in use). */
export interface SearchEngine {
  SearchIndex: typeof SearchIndex;
  rankingWeights: typeof rankingWeights;
}

const engine: SearchEngine = { SearchIndex, rankingWeights };
const loaded = Promise.resolve(engine);

/** The engine, once loaded (here: at once). */
export function loadSearchEngine(): Promise<SearchEngine> {
  return loaded;
}

/** The loaded engine (the lazy module throws INTERNAL when it is not loaded yet). */
export function searchEngine(): SearchEngine {
  return engine;
}

/** True once the engine is loaded (here: always). */
export function searchEngineLoaded(): boolean {
  return true;
}
