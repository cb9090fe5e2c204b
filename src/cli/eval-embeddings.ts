// `api-catalog eval --embeddings-url ... --embeddings-model ...`: measures hybrid search. Kept apart from eval.ts:
// the queries are embedded first (async), then evaluate() reads the fused rankings through the SearchIndex API.
import type { Catalog } from '../registry/catalog.js';
import { searchRequest, type EvalQuery, type EvalSettings } from '../search/eval.js';
import type { SearchIndex } from '../search/index.js';

export const EVAL_EMBEDDINGS_OPTIONS = {
  'embeddings-url': { type: 'string' },
  'embeddings-model': { type: 'string' },
  'embeddings-dimensions': { type: 'string' },
  fusion: { type: 'string' },
} as const;

export const EVAL_EMBEDDINGS_USAGE = `  --embeddings-url <url> --embeddings-model <m> [--embeddings-dimensions <n>] [--fusion gated|mix|rrf]
                          measure hybrid search with an embeddings endpoint (or env API_CATALOG_EMBEDDINGS_*)`;

type Flags = { 'embeddings-url'?: string; 'embeddings-model'?: string; 'embeddings-dimensions'?: string; fusion?: string };

/** The key of one search request: its text, domain filter and keywords (the page is always the first 10). */
function requestKey(text: string, options: { domain?: string; keywords?: readonly string[] } | undefined): string {
  return JSON.stringify([text, options?.domain ?? null, options?.keywords ?? []]);
}

/**
 * The index to evaluate: `index` itself without an endpoint; with one, a view of it whose search() answers each
 * query's own request (text, domain filter and keywords, as searchRequest builds it under `settings`) with the
 * answer the server gives it: the hybrid ranking computed here, or the lexical one where the server falls back.
 */
export async function withEmbeddings(flags: Flags, catalog: Catalog, index: SearchIndex, queries: readonly EvalQuery[], settings: EvalSettings): Promise<SearchIndex> {
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
    // the same request evaluate() makes, passed on as search_tools passes it (domain and keywords included)
    const { text, options } = searchRequest(q, settings);
    const key = requestKey(text, options);
    if (answers.has(key)) continue;
    let a;
    try {
      a = await semantic.search(index, text, options);
    } catch (err) {
      // a domain the catalog lacks: left to evaluate(), which names the line
      if ((err as { code?: string }).code === 'UNKNOWN_DOMAIN') continue;
      throw err;
    }
    answers.set(key, { results: a.results, total: a.total });
    const mode = a.mode.replace(/:.*$/, ')');
    modes.set(mode, (modes.get(mode) ?? 0) + 1);
  }
  process.stderr.write(`eval: ${catalog.meta.name}: ${[...modes].map(([m, n]) => `${n} ${m}`).join(', ')}\n`);
  const view = Object.create(index) as SearchIndex;
  view.search = (query, options) => (options?.limit === 10 && !options.offset ? answers.get(requestKey(query, options)) : undefined) ?? index.search(query, options);
  return view;
}
