// Full results of truncated execute_tool calls, kept for a while as MCP resources
// (`api-catalog://results/<id>`) in the state store under the session's key: bounded count per session,
// expiring after a TTL, readable from any replica. A store this process holds (memory) keeps only each result's
// entry; the texts live in the process's ResultBudget, which bounds them all together in bytes.
import { RESULT_BUDGET_BYTES } from '../state/store.js';
import type { SessionKey, StateStore } from '../state/index.js';

export const RESULT_URI_PREFIX = 'api-catalog://results/';

/**
 * Bytes of stored result text one process keeps in memory, all sessions and principals together (RESULT_BUDGET_BYTES,
 * 64 MiB; with Redis, the replicas together keep as much there: src/state/redis.ts).
 */
export { RESULT_BUDGET_BYTES };

/** Largest single stored text (20 MiB); bigger results are not kept, whatever the budget. */
const MAX_RESULT_BYTES = 20 * 1024 * 1024;

/**
 * The texts of stored results one process holds, under one byte budget shared by every session: oldest evicted
 * first, expired ones dropped as new ones come. Results are found by their random id; the state store's entry for
 * the same id (per session, with its TTL and count limit) decides who may read one and for how long.
 */
export class ResultBudget {
  /** Insertion order is age: the first entry is the oldest. */
  private readonly texts = new Map<string, { text: string; expiresAt: number }>();
  private used = 0;

  constructor(
    readonly maxBytes: number = RESULT_BUDGET_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.used;
  }

  /** Whether `text` can be kept at all (not larger than the whole budget). */
  fits(text: string): boolean {
    return text.length <= this.maxBytes;
  }

  /** Keeps `text` under `id` for `ttlMs`, evicting expired texts, then the oldest, until it fits. */
  keep(id: string, text: string, ttlMs: number): void {
    const t = this.now();
    for (const [k, v] of this.texts) if (v.expiresAt <= t) this.drop(k);
    for (const k of this.texts.keys()) {
      if (this.used + text.length <= this.maxBytes) break;
      this.drop(k);
    }
    this.texts.set(id, { text, expiresAt: t + ttlMs });
    this.used += text.length;
  }

  get(id: string): string | undefined {
    const v = this.texts.get(id);
    if (v === undefined) return undefined;
    if (v.expiresAt <= this.now()) {
      this.drop(id);
      return undefined;
    }
    return v.text;
  }

  /** Frees the text of a result that is gone from its store (evicted past its session's count). */
  drop(id: string): void {
    const v = this.texts.get(id);
    if (v === undefined) return;
    this.texts.delete(id);
    this.used -= v.text.length;
  }
}

/** The process's budget, shared by every ResultStore that is not given its own. */
const processBudget = new ResultBudget();

export interface StoredResult {
  id: string;
  uri: string;
  createdAt: number;
  text?: string;
}

export class ResultStore {
  /** The ids whose texts this store put in the budget and that its session may still hold (local stores only). */
  private readonly kept = new Set<string>();

  constructor(
    private readonly store: StateStore,
    private readonly key: SessionKey,
    private readonly ttlMs: number,
    private readonly max: number,
    /** Largest stored JSON text in bytes; bigger results are not kept. */
    private readonly maxBytes = MAX_RESULT_BYTES,
    /** Where the texts of a store that is not shared are kept (default: the process's, RESULT_BUDGET_BYTES). */
    private readonly budget: ResultBudget = processBudget,
  ) {}

  /**
   * The texts live in this process: the state store is memory, not shared. A shared store (Redis) keeps the texts
   * itself, so that every replica can read them (bounded there by the count per session, the TTL and one byte budget
   * for every replica).
   */
  private get local(): boolean {
    return !this.store.shared;
  }

  /** Keeps `value` as compact JSON; evicts the oldest beyond `max` (and beyond the byte budget). Returns the URI, or undefined when too large. */
  async put(value: unknown): Promise<string | undefined> {
    const text = JSON.stringify(value) ?? 'null';
    // the cap is on bytes, as a shared store keeps them (a non-ASCII text takes up to 3 bytes a character)
    if (Buffer.byteLength(text) > this.maxBytes || (this.local && !this.budget.fits(text))) return undefined;
    if (!this.local) {
      // a shared store keeps no text larger than its whole byte budget (undefined), as the local budget above
      const shared = await this.store.putResult(this.key, text, this.ttlMs, this.max);
      return shared === undefined ? undefined : RESULT_URI_PREFIX + shared;
    }
    // the store's entry (empty) says whose it is and until when; the budget holds the text
    const id = await this.store.putResult(this.key, '', this.ttlMs, this.max);
    if (id === undefined) return undefined;
    // the store evicts the session's oldest beyond `max`: their texts go first, or one busy session's unreadable
    // texts would push other sessions' live results out of the shared budget
    const alive = new Set((await this.store.listResults(this.key, this.ttlMs)).map((r) => r.id));
    for (const old of this.kept) {
      if (alive.has(old)) continue;
      this.kept.delete(old);
      this.budget.drop(old);
    }
    this.budget.keep(id, text, this.ttlMs);
    this.kept.add(id);
    return RESULT_URI_PREFIX + id;
  }

  async get(uri: string): Promise<StoredResult | undefined> {
    if (!uri.startsWith(RESULT_URI_PREFIX)) return undefined;
    const id = uri.slice(RESULT_URI_PREFIX.length);
    const entry = await this.store.getResult(this.key, id);
    const text = entry === undefined ? undefined : this.local ? this.budget.get(id) : entry;
    return text === undefined ? undefined : { id, uri, createdAt: 0, text };
  }

  async list(): Promise<StoredResult[]> {
    const items = await this.store.listResults(this.key, this.ttlMs);
    // a result the budget evicted is gone, whatever the store's entry says
    const live = this.local ? items.filter((r) => this.budget.get(r.id) !== undefined) : items;
    return live.map((r) => ({ id: r.id, uri: RESULT_URI_PREFIX + r.id, createdAt: r.createdAt }));
  }
}
