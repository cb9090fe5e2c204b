// The search-time side of embeddings for a set of loaded catalogs: checks the stored vectors against the
// configured model at load, embeds queries (short timeout, LRU cache, back-off after failures) and fuses with the
// lexical ranking. A search never fails because of the endpoint: any problem answers lexically and says so.
import { silentLogger, type Logger } from '../logger.js';
import type { Operation } from '../types.js';
import { EmbeddingsClient, type ClientOptions } from './client.js';
import type { EmbeddingsConfig } from './config.js';
import { confidentPage, DenseIndex, hybridSearch, type DenseEntry, type Hit, type LexicalSearcher } from './hybrid.js';
import { mismatch, normalize, operationTexts, readEmbeddings, readManifest } from './store.js';

/** One loaded catalog as the semantic side needs it: local operations, its folder and its public-name prefix. */
export interface VectorSource {
  catalog: string;
  dir: string;
  /** `''` for a single catalog, `<catalog>.` when several share the namespace. */
  prefix: string;
  operations: readonly Operation[];
}

export interface CatalogVectorStatus {
  catalog: string;
  usable: boolean;
  /** Why not, with the fix. */
  problem?: string;
}

export interface SemanticAnswer {
  results: Hit[];
  total: number;
  /**
   * What the agent is told: `hybrid (<fusion>)`, `lexical (confident)`, `lexical (browse)`, or `lexical (embeddings
   * unavailable)` / `lexical (embeddings not usable)`. Never why: that names the registry's folder, the endpoint and
   * operator commands, which an agent cannot act on (the operator has it in the log and on stderr).
   */
  mode: string;
  /** Why the answer is lexical, for the operator (the CLI prints it); never sent to an agent. */
  reason?: string;
}

/** The agent-facing modes of a lexical fallback (the reason stays with the operator). */
const NOT_USABLE_MODE = 'lexical (embeddings not usable)';
const UNAVAILABLE_MODE = 'lexical (embeddings unavailable)';

export interface SemanticOptions extends ClientOptions {
  /** After a failed query embedding, skip the endpoint this long (default 30 s) so searches stay fast. */
  cooldownMs?: number;
  /** Query vectors kept (default 1000). */
  cacheSize?: number;
  now?: () => number;
}

/** Small LRU over a Map's insertion order. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
}

const WARN_EVERY_MS = 60_000;

export class SemanticSearch {
  readonly config: EmbeddingsConfig;
  readonly client: EmbeddingsClient;
  readonly catalogs: CatalogVectorStatus[];
  private readonly sources: VectorSource[];
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly cooldownMs: number;
  private readonly cache: Lru<Float32Array>;
  private readonly pending = new Map<string, Promise<Float32Array>>();
  private readonly exact = new Map<string, string>();
  private dense: DenseIndex | undefined;
  private denseError: string | undefined;
  private downUntil = 0;
  private downReason = '';
  private lastWarn = -Infinity;
  private suppressed = 0;
  /** Requests made to the endpoint at query time (tests, stats). */
  queryRequests = 0;

  constructor(config: EmbeddingsConfig, sources: readonly VectorSource[], options: SemanticOptions & { logger?: Logger } = {}) {
    this.config = config;
    this.logger = options.logger ?? silentLogger;
    this.client = new EmbeddingsClient(config, options);
    this.now = options.now ?? Date.now;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.cache = new Lru(options.cacheSize ?? 1000);
    this.sources = [...sources];
    this.catalogs = sources.map((s) => this.check(s));
    for (const s of sources) {
      for (const op of s.operations) {
        const pub = s.prefix + op.name;
        for (const key of [pub, op.name, op.operationId, `${op.method} ${op.path}`]) {
          const k = key.toLowerCase();
          if (!this.exact.has(k)) this.exact.set(k, pub);
        }
      }
    }
  }

  /** Checks a catalog's manifest against the configuration (cheap: the manifest and a hash of the texts). */
  private check(s: VectorSource): CatalogVectorStatus {
    const fix = `run \`api-catalog embed --registry ${s.dir} --embeddings-url <url> --embeddings-model ${this.config.model}\` (or re-import with --embeddings-url/--embeddings-model)`;
    try {
      const m = readManifest(s.dir);
      const why = mismatch(m, operationTexts(s.operations).fingerprint, { model: this.config.model, ...(this.config.dimensions !== undefined ? { dimensions: this.config.dimensions } : {}) });
      return why ? { catalog: s.catalog, usable: false, problem: `${why.message}; ${fix}` } : { catalog: s.catalog, usable: true };
    } catch (err) {
      return { catalog: s.catalog, usable: false, problem: `${err instanceof Error ? err.message : String(err)}` };
    }
  }

  /** True when at least one catalog has vectors for the configured model. */
  get usable(): boolean {
    return this.catalogs.some((c) => c.usable) && this.denseError === undefined;
  }

  /**
   * One line for list_domains and the start-up log. Agents read it, so a lexical one says no more than that. The
   * reasons are the operator's: each catalog's problem is printed at start, an endpoint failure is logged when it
   * arises (problems()).
   */
  describe(): string {
    const bad = this.catalogs.filter((c) => !c.usable);
    if (this.denseError !== undefined || bad.length === this.catalogs.length) return NOT_USABLE_MODE;
    const partial = bad.length > 0 ? `; lexical only for ${bad.map((b) => b.catalog).join(', ')}` : '';
    return `hybrid (lexical + embeddings from ${this.config.model}, ${this.config.fusion}${partial})`;
  }

  /** Why embeddings are not usable, for the operator (each catalog's problem with its fix); undefined when they are. */
  problems(): string | undefined {
    if (this.denseError !== undefined) return this.denseError;
    const bad = this.catalogs.filter((c) => !c.usable);
    return bad.length === this.catalogs.length ? bad.map((b) => `${b.catalog}: ${b.problem}`).join('; ') : undefined;
  }

  /** The dense matrix of the usable catalogs, read on first use. */
  private denseIndex(): DenseIndex | undefined {
    if (this.dense || this.denseError !== undefined) return this.dense;
    const entries: DenseEntry[] = [];
    const parts: Float32Array[] = [];
    let dims: number | undefined;
    try {
      for (const [i, s] of this.sources.entries()) {
        const st = this.catalogs[i] as CatalogVectorStatus;
        if (!st.usable) continue;
        const stored = readEmbeddings(s.dir);
        if (!stored) continue;
        const d = stored.manifest.dimensions;
        if (dims !== undefined && d !== dims) {
          st.usable = false;
          st.problem = `its vectors have ${d} dimensions, another catalog's ${dims}; embed all catalogs with one model and size`;
          continue;
        }
        dims = d;
        const byName = new Map(s.operations.map((o) => [o.name, o]));
        for (const [row, m] of stored.manifest.operations.entries()) {
          const op = byName.get(m.name);
          if (!op) continue;
          entries.push({ name: s.prefix + op.name, domain: s.prefix + op.domain, summary: op.summary, requiredParams: [...(op.inputSchema.required ?? [])] });
          parts.push(stored.matrix.subarray(row * d, (row + 1) * d));
        }
      }
    } catch (err) {
      this.denseError = err instanceof Error ? err.message : String(err);
      this.logger.log('warn', { event: 'embeddings_unusable', reason: this.denseError });
      return undefined;
    }
    if (dims === undefined || entries.length === 0) return undefined;
    const matrix = new Float32Array(entries.length * dims);
    for (const [i, p] of parts.entries()) matrix.set(p, i * dims);
    this.dense = new DenseIndex(entries, matrix, dims);
    return this.dense;
  }

  private warn(reason: string): void {
    const t = this.now();
    if (t - this.lastWarn < WARN_EVERY_MS) {
      this.suppressed++;
      return;
    }
    this.logger.log('warn', { event: 'embeddings_fallback', endpoint: this.client.label, reason, suppressedSinceLast: this.suppressed, cooldownMs: this.cooldownMs });
    this.lastWarn = t;
    this.suppressed = 0;
  }

  /** The unit query vector: from the cache, a request already in flight, or one new request. */
  private async queryVector(query: string): Promise<Float32Array> {
    const key = query.replace(/\s+/g, ' ').trim();
    const hit = this.cache.get(key);
    if (hit) return hit;
    let p = this.pending.get(key);
    if (!p) {
      this.queryRequests++;
      p = this.client.embed([key], 'query').then((r) => normalize(r.vectors[0] as Float32Array));
      this.pending.set(key, p);
      p.then((v) => this.cache.set(key, v), () => undefined).finally(() => this.pending.delete(key));
    }
    return p;
  }

  /** Hybrid search, or the lexical answer with the reason when embeddings cannot help. Never throws for the endpoint. */
  async search(lexical: LexicalSearcher, query: string, options: { domain?: string; limit?: number; offset?: number; keywords?: readonly string[] }): Promise<SemanticAnswer> {
    // The reason was logged when it arose (at load, or at most once a minute for the endpoint), not per search.
    const lexicalOnly = (mode: string, reason: string): SemanticAnswer => ({ ...lexical.search(query, options), mode, reason });
    if (query.trim() === '') return { ...lexical.search(query, options), mode: 'lexical (browse)' };
    const dense = this.denseIndex();
    if (!dense) return lexicalOnly(NOT_USABLE_MODE, this.problems() ?? 'no catalog has vectors for the configured model');
    // gated: a confident lexical answer is final, so the endpoint is not asked (agents' calls rarely wait on it)
    const gated = this.config.fusion === 'gated';
    const confident = gated ? confidentPage(lexical, query, options) : undefined;
    if (confident) return { ...confident, mode: 'lexical (confident)' };
    if (this.now() < this.downUntil) return lexicalOnly(UNAVAILABLE_MODE, this.downReason);
    let vector: Float32Array;
    try {
      vector = await this.queryVector(query);
      if (vector.length !== dense.dims) {
        throw new Error(`the endpoint returned ${vector.length} dimensions, the registry's vectors have ${dense.dims}; re-embed with the configured model`);
      }
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).replace(/^embeddings: /, '');
      this.downUntil = this.now() + this.cooldownMs;
      this.downReason = reason.length > 160 ? reason.slice(0, 160) + '…' : reason;
      this.warn(reason);
      return lexicalOnly(UNAVAILABLE_MODE, this.downReason);
    }
    this.downUntil = 0;
    const exact = this.exact.get(query.trim().toLowerCase());
    // an unsure gated answer (checked above) is mixed: `mix` spares hybridSearch checking the gate again
    const fusion = gated ? 'mix' : this.config.fusion;
    const found = hybridSearch(lexical, dense, vector, query, { ...options, fusion, ...(exact !== undefined ? { exact } : {}) });
    return { ...found, mode: `hybrid (${this.config.fusion})` };
  }
}

/** Builds the semantic side for loaded catalogs and logs (and returns) what is not usable. */
export function createSemanticSearch(
  config: EmbeddingsConfig,
  sources: readonly VectorSource[],
  options: SemanticOptions & { logger?: Logger } = {},
): SemanticSearch {
  const s = new SemanticSearch(config, sources, options);
  for (const c of s.catalogs) {
    if (!c.usable) (options.logger ?? silentLogger).log('warn', { event: 'embeddings_mismatch', catalog: c.catalog, problem: c.problem });
  }
  return s;
}
