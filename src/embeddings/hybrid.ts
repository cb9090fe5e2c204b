// Hybrid ranking: the lexical list (SearchIndex.search, called through a structural interface) fused with cosine
// similarity over the stored operation vectors: a normalized score mix only when the lexical answer is unsure
// (gated, the default), always (mix), or by reciprocal rank (rrf). Pure and synchronous: the query vector comes
// in; no HTTP, no files, no MCP.
import type { Fusion } from './config.js';

/** A search hit as SearchIndex returns it (structural: this layer does not import src/search). */
export interface Hit {
  name: string;
  domain: string;
  summary: string;
  requiredParams: string[];
  score: number;
}

export interface LexicalSearcher {
  search(query: string, options?: { domain?: string; limit?: number; offset?: number; keywords?: readonly string[] }): { results: Hit[]; total: number };
}

/** One row of the dense matrix: an operation under its public name. */
export interface DenseEntry {
  name: string;
  domain: string;
  summary: string;
  requiredParams: string[];
}

/** Unit vectors of the operations, one row per entry. */
export class DenseIndex {
  readonly entries: readonly DenseEntry[];
  readonly dims: number;
  private readonly matrix: Float32Array;
  private readonly rowOf: Map<string, number>;

  constructor(entries: readonly DenseEntry[], matrix: Float32Array, dims: number) {
    if (matrix.length !== entries.length * dims) throw new Error(`dense index: ${matrix.length} floats for ${entries.length} x ${dims}`);
    this.entries = entries;
    this.matrix = matrix;
    this.dims = dims;
    this.rowOf = new Map(entries.map((e, i) => [e.name, i]));
  }

  has(name: string): boolean {
    return this.rowOf.has(name);
  }

  /** Cosine similarity of every operation (in `domain`, if given) to the unit query vector, best first. */
  rank(query: Float32Array, domain?: string): Array<{ row: number; cos: number }> {
    const d = this.dims;
    const m = this.matrix;
    const n = this.entries.length;
    const scores = new Float32Array(n);
    const d4 = d - (d % 4);
    // Four accumulators: ~30% faster than one in V8 for 1536-float rows.
    for (let r = 0, base = 0; r < n; r++, base += d) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i < d4; i += 4) {
        s0 += m[base + i]! * query[i]!;
        s1 += m[base + i + 1]! * query[i + 1]!;
        s2 += m[base + i + 2]! * query[i + 2]!;
        s3 += m[base + i + 3]! * query[i + 3]!;
      }
      for (; i < d; i++) s0 += m[base + i]! * query[i]!;
      scores[r] = s0 + s1 + s2 + s3;
    }
    const out: Array<{ row: number; cos: number }> = [];
    for (let r = 0; r < n; r++) {
      if (domain !== undefined && this.entries[r]!.domain !== domain) continue;
      out.push({ row: r, cos: scores[r]! });
    }
    out.sort((a, b) => b.cos - a.cos || a.row - b.row);
    return out;
  }
}

export interface HybridOptions {
  domain?: string;
  /** The agent's other names for the thing (search_tools `keywords`): passed to the lexical side, as without embeddings. */
  keywords?: readonly string[];
  limit?: number;
  offset?: number;
  fusion: Fusion;
  /** Public name of the operation the query names exactly (name, operationId, METHOD /path), if any. */
  exact?: string;
}

/** Lexical candidates read (two pages of SearchIndex's maximum), and dense candidates fused. */
export const LEXICAL_DEPTH = 100;
export const DENSE_DEPTH = 50;
/** RRF constant (Cormack et al. 2009 use 60). */
export const RRF_K = 60;
/** Weight of the lexical score in `mix` (and in `gated` when the lexical answer is unsure). */
export const MIX_ALPHA = 0.5;
/**
 * `gated`: a lexical best score at or above this is a confident answer, which is then the answer as lexical search
 * gave it; under it the two mix as in `mix`. The same threshold as the search's low-confidence answer
 * (LOW_CONFIDENCE_SCORE in src/search/index.ts; a test holds them equal): the best score is the share of the query
 * the best operation covers. Measured in docs/EMBEDDINGS.md ("Fusion").
 */
export const GATE_SCORE = 0.4;
const LEXICAL_PAGE = 50;

/** A METHOD /concrete/path query: the lexical side resolves it exactly; fusion must not reorder it. */
const METHOD_PATH = /^(get|put|post|patch|delete|head|options)\s+\//i;

/**
 * `gated`: the lexical page asked for when the lexical answer is sure of itself, its best score (the share of the
 * query the best operation covers) at least GATE_SCORE, so the dense side has nothing to add; else undefined. The
 * first page's first hit is the best; a later page costs one more lexical search, for the best hit.
 */
export function confidentPage(
  lexical: LexicalSearcher, query: string, options: Pick<HybridOptions, 'domain' | 'keywords' | 'limit' | 'offset'>,
): { results: Hit[]; total: number } | undefined {
  const offset = options.offset ?? 0;
  const page = lexical.search(query, { ...filters(options), limit: options.limit ?? 10, offset });
  const best = offset === 0 ? page.results[0] : lexical.search(query, { ...filters(options), limit: 1 }).results[0];
  return (best?.score ?? 0) >= GATE_SCORE ? page : undefined;
}

/** The lexical search's filter options: the domain and the keywords, when given. */
function filters(options: Pick<HybridOptions, 'domain' | 'keywords'>): { domain?: string; keywords?: readonly string[] } {
  return {
    ...(options.domain !== undefined ? { domain: options.domain } : {}),
    ...(options.keywords !== undefined && options.keywords.length > 0 ? { keywords: options.keywords } : {}),
  };
}

function fetchLexical(lexical: LexicalSearcher, query: string, options: HybridOptions, depth: number): { hits: Hit[]; total: number } {
  const hits: Hit[] = [];
  let total = 0;
  for (let offset = 0; offset < depth; offset += LEXICAL_PAGE) {
    const page = lexical.search(query, { ...filters(options), limit: Math.min(LEXICAL_PAGE, depth - offset), offset });
    total = page.total;
    hits.push(...page.results);
    if (page.results.length === 0 || hits.length >= total) break;
  }
  return { hits, total };
}

/**
 * Fuses the lexical top-100 with the dense ranking; returns one page and the total. An empty query browses
 * lexically; an exact name or METHOD /path query keeps its operation first with score 1.
 */
export function hybridSearch(
  lexical: LexicalSearcher,
  dense: DenseIndex,
  queryVector: Float32Array,
  query: string,
  options: HybridOptions,
): { results: Hit[]; total: number } {
  const limit = options.limit ?? 10;
  const offset = options.offset ?? 0;
  const domain = options.domain;
  if (query.trim() === '' || METHOD_PATH.test(query.trim())) {
    return lexical.search(query, { ...filters(options), limit, offset });
  }
  // gated: a confident lexical answer is the answer (SemanticSearch does not even ask for the query's vector)
  const confident = options.fusion === 'gated' ? confidentPage(lexical, query, options) : undefined;
  if (confident) return confident;
  const lex = fetchLexical(lexical, query, options, LEXICAL_DEPTH);
  const ranked = dense.rank(queryVector, domain);
  const cosOf = new Map<string, number>();
  const denseRank = new Map<string, number>();
  for (const [i, r] of ranked.entries()) {
    const name = (dense.entries[r.row] as DenseEntry).name;
    cosOf.set(name, r.cos);
    denseRank.set(name, i);
  }
  // Candidates: lexical top-100 and dense top-50.
  const candidates = new Map<string, Hit>();
  for (const h of lex.hits) candidates.set(h.name, h);
  for (const r of ranked.slice(0, DENSE_DEPTH)) {
    const e = dense.entries[r.row] as DenseEntry;
    if (!candidates.has(e.name)) candidates.set(e.name, { ...e, requiredParams: [...e.requiredParams], score: 0 });
  }
  const lexRank = new Map(lex.hits.map((h, i) => [h.name, i]));
  const lexScore = new Map(lex.hits.map((h) => [h.name, h.score]));
  const fused = new Map<string, number>();
  if (options.fusion === 'rrf') {
    const best = 2 / (RRF_K + 1);
    for (const name of candidates.keys()) {
      const lr = lexRank.get(name);
      // An operation without a vector (a catalog not embedded) counts its lexical rank twice, not a missing dense one.
      const dr = dense.has(name) ? denseRank.get(name) : lr;
      const s = (lr !== undefined ? 1 / (RRF_K + lr + 1) : 0) + (dr !== undefined && dr < LEXICAL_DEPTH ? 1 / (RRF_K + dr + 1) : 0);
      fused.set(name, s / best);
    }
  } else {
    const top = ranked.slice(0, DENSE_DEPTH);
    const hi = top[0]?.cos ?? 0;
    const lo = top.at(-1)?.cos ?? 0;
    const span = hi - lo > 1e-9 ? hi - lo : 1;
    for (const name of candidates.keys()) {
      const c = cosOf.get(name);
      const lex = lexScore.get(name) ?? 0;
      // Without a vector (a catalog not embedded) the lexical score stands for both halves.
      const dn = !dense.has(name) ? lex : c === undefined ? 0 : Math.min(1, Math.max(0, (c - lo) / span));
      fused.set(name, MIX_ALPHA * lex + (1 - MIX_ALPHA) * dn);
    }
  }
  const order = [...candidates.keys()].sort((a, b) => (fused.get(b) as number) - (fused.get(a) as number) || (a < b ? -1 : a > b ? 1 : 0));
  if (options.exact !== undefined && candidates.has(options.exact)) {
    order.splice(order.indexOf(options.exact), 1);
    order.unshift(options.exact);
    fused.set(options.exact, 1);
  }
  const head: Hit[] = order.map((name) => ({ ...(candidates.get(name) as Hit), score: Math.min(1, fused.get(name) as number) }));
  const beyond = Math.max(0, lex.total - lex.hits.length);
  const total = head.length + beyond;
  if (offset + limit <= head.length || beyond === 0) return { results: head.slice(offset, offset + limit), total };
  // Past the fused head: the rest of the lexical ranking, in its own order.
  const page: Hit[] = head.slice(offset, offset + limit);
  const tailOffset = lex.hits.length + Math.max(0, offset - head.length);
  const more = lexical.search(query, { ...filters(options), limit: Math.min(LEXICAL_PAGE, limit - page.length), offset: tailOffset });
  for (const h of more.results) if (!candidates.has(h.name) && page.length < limit) page.push(h);
  return { results: page, total };
}
