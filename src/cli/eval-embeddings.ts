// `api-catalog eval --embeddings-url ... --embeddings-model ...`: measures hybrid search. Kept apart from eval.ts:
// the queries are embedded first (async), then evaluate() reads the fused rankings through the SearchIndex API.
import type { Catalog } from '../registry/catalog.js';
import type { SearchIndex } from '../search/index.js';

export const EVAL_EMBEDDINGS_OPTIONS = {
  'embeddings-url': { type: 'string' },
  'embeddings-model': { type: 'string' },
  'embeddings-dimensions': { type: 'string' },
  fusion: { type: 'string' },
} as const;

export const EVAL_EMBEDDINGS_USAGE = `  --embeddings-url <url> --embeddings-model <m> [--embeddings-dimensions <n>] [--fusion rrf|mix]
                          measure hybrid search with an embeddings endpoint (or env API_CATALOG_EMBEDDINGS_*)`;

type Flags = { 'embeddings-url'?: string; 'embeddings-model'?: string; 'embeddings-dimensions'?: string; fusion?: string };

/**
 * The index to evaluate: `index` itself without an endpoint; with one, a view of it whose search() answers the
 * given queries with the hybrid ranking (computed here, endpoint failures answered lexically as in the server).
 */
export async function withEmbeddings(flags: Flags, catalog: Catalog, index: SearchIndex, queries: ReadonlyArray<{ query: string }>): Promise<SearchIndex> {
  if (flags['embeddings-url'] === undefined && flags['embeddings-model'] === undefined && !process.env.API_CATALOG_EMBEDDINGS_URL) return index;
  const { createSemanticSearch, resolveEmbeddingsConfig } = await import('../embeddings/index.js');
  const given = { url: flags['embeddings-url'], model: flags['embeddings-model'], dimensions: flags['embeddings-dimensions'], fusion: flags.fusion };
  const config = resolveEmbeddingsConfig(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)), process.env);
  if (config === undefined) return index;
  // Quality, not latency, is measured here: a generous timeout and no cool-down, so one slow answer does not
  // turn the rest of the set lexical (fallbacks are still counted and printed).
  const semantic = createSemanticSearch({ ...config, queryTimeoutMs: Math.max(config.queryTimeoutMs, 30_000) }, [{ catalog: catalog.meta.name, dir: catalog.dir, prefix: '', operations: catalog.operations }], { cooldownMs: 0 });
  const answers = new Map<string, ReturnType<SearchIndex['search']>>();
  const modes = new Map<string, number>();
  for (const q of queries) {
    if (answers.has(q.query)) continue;
    const a = await semantic.search(index, q.query, { limit: 10 });
    answers.set(q.query, { results: a.results, total: a.total });
    const mode = a.mode.replace(/:.*$/, ')');
    modes.set(mode, (modes.get(mode) ?? 0) + 1);
  }
  process.stderr.write(`eval: ${catalog.meta.name}: ${[...modes].map(([m, n]) => `${n} ${m}`).join(', ')}\n`);
  const view = Object.create(index) as SearchIndex;
  view.search = (query, options) => (options?.limit === 10 && options.domain === undefined && !options.offset ? answers.get(query) : undefined) ?? index.search(query, options);
  return view;
}
