// Full results of truncated execute_tool calls, kept for a while as MCP resources
// (`api-catalog://results/<id>`) in the state store under the session's key: bounded count per session,
// expiring after a TTL, readable from any replica. No state of its own.
import type { SessionKey, StateStore } from '../state/index.js';

export const RESULT_URI_PREFIX = 'api-catalog://results/';

export interface StoredResult {
  id: string;
  uri: string;
  createdAt: number;
  text?: string;
}

export class ResultStore {
  constructor(
    private readonly store: StateStore,
    private readonly key: SessionKey,
    private readonly ttlMs: number,
    private readonly max: number,
    /** Largest stored JSON text in bytes; bigger results are not kept. */
    private readonly maxBytes = 20 * 1024 * 1024,
  ) {}

  /** Keeps `value`; evicts the oldest beyond `max`. Returns the URI, or undefined when too large. */
  async put(value: unknown): Promise<string | undefined> {
    const text = JSON.stringify(value, null, 2) ?? 'null';
    if (Buffer.byteLength(text, 'utf8') > this.maxBytes) return undefined;
    const id = await this.store.putResult(this.key, text, this.ttlMs, this.max);
    return RESULT_URI_PREFIX + id;
  }

  async get(uri: string): Promise<StoredResult | undefined> {
    if (!uri.startsWith(RESULT_URI_PREFIX)) return undefined;
    const id = uri.slice(RESULT_URI_PREFIX.length);
    const text = await this.store.getResult(this.key, id);
    return text === undefined ? undefined : { id, uri, createdAt: 0, text };
  }

  async list(): Promise<StoredResult[]> {
    const items = await this.store.listResults(this.key, this.ttlMs);
    return items.map((r) => ({ id: r.id, uri: RESULT_URI_PREFIX + r.id, createdAt: r.createdAt }));
  }
}
