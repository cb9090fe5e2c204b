// Full results of truncated execute_tool calls, kept for a while as MCP resources
// (`api-catalog://results/<id>`): bounded count per session, expiring after a TTL. In memory only.
import { randomUUID } from 'node:crypto';

export const RESULT_URI_PREFIX = 'api-catalog://results/';

export interface StoredResult {
  id: string;
  uri: string;
  createdAt: number;
  text: string;
}

export class ResultStore {
  private readonly items = new Map<string, StoredResult>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number = Date.now,
    /** Largest stored JSON text in bytes; bigger results are not kept. */
    private readonly maxBytes = 20 * 1024 * 1024,
  ) {}

  /** Keeps `value`; evicts the oldest beyond `max`. Returns the URI, or undefined when too large. */
  put(value: unknown): string | undefined {
    this.sweep();
    const text = JSON.stringify(value, null, 2) ?? 'null';
    if (Buffer.byteLength(text, 'utf8') > this.maxBytes) return undefined;
    const id = randomUUID();
    const item = { id, uri: RESULT_URI_PREFIX + id, createdAt: this.now(), text };
    this.items.set(id, item);
    while (this.items.size > this.max) {
      const oldest = this.items.keys().next().value as string;
      this.items.delete(oldest);
    }
    return item.uri;
  }

  get(uri: string): StoredResult | undefined {
    this.sweep();
    if (!uri.startsWith(RESULT_URI_PREFIX)) return undefined;
    return this.items.get(uri.slice(RESULT_URI_PREFIX.length));
  }

  list(): StoredResult[] {
    this.sweep();
    return [...this.items.values()];
  }

  private sweep(): void {
    const t = this.now();
    for (const [id, item] of this.items) if (t - item.createdAt > this.ttlMs) this.items.delete(id);
  }
}
