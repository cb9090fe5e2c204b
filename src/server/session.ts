// One MCP session's view of the state store: its key (<principal>:<session>), describe authorizations bound
// to each operation's fingerprint, idle expiry, and the principal's rate-limit buckets. Holds no state of its
// own: whatever a replica needs lives in the store, so any replica can serve the session.
import { randomUUID } from '../crypto.js';
import type { RateDecision, SessionKey, StateStore } from '../state/index.js';

/**
 * A new MCP session id: a version-4 UUID from `crypto.randomUUID` (122 random bits from the CSPRNG), so ids
 * are unguessable, never sequential, and only visible ASCII (`[0-9a-f-]`, A17). For the transport's
 * `sessionIdGenerator`.
 */
export function generateSessionId(): string {
  return randomUUID();
}

/** Rate-limit buckets, counted per principal: `execute` protects the upstream, `read` a shared server. */
export type RateBucket = 'execute' | 'read';

export interface SessionOptions {
  /** Idle time after which authorizations expire (the HTTP transport also drops the session). */
  ttlMs: number;
  /** execute_tool calls per minute per principal; 0 disables. */
  executePerMinute: number;
  /** list_domains / search_tools / describe_tools / resource reads per minute per principal; 0 disables. */
  readPerMinute: number;
}

export class SessionState {
  readonly key: SessionKey;

  constructor(
    readonly store: StateStore,
    key: SessionKey,
    private readonly options: SessionOptions,
  ) {
    this.key = key;
  }

  get id(): string {
    return this.key.session;
  }

  get principal(): string {
    return this.key.principal;
  }

  /** Records activity: the session's authorizations live another TTL from now (B5). */
  async touch(): Promise<void> {
    await this.store.touchSession(this.key, this.options.ttlMs);
  }

  /** Marks operations as described (authorized) at their current fingerprint, in one atomic update (B10). */
  async authorize(entries: ReadonlyArray<{ name: string; fingerprint: string }>): Promise<void> {
    await this.store.authorize(this.key, entries, this.options.ttlMs);
  }

  /** True when `name` was described in this session at this exact fingerprint (B1–B3). */
  async isAuthorized(name: string, fingerprint: string): Promise<boolean> {
    return (await this.store.authorizedFingerprint(this.key, name)) === fingerprint;
  }

  async authorizedCount(): Promise<number> {
    return this.store.authorizedCount(this.key);
  }

  /** The per-minute limit of a bucket (0: unlimited). */
  limit(bucket: RateBucket): number {
    return bucket === 'execute' ? this.options.executePerMinute : this.options.readPerMinute;
  }

  /** Takes one token from the principal's bucket (A23); unlimited buckets never touch the store. */
  async takeToken(bucket: RateBucket): Promise<RateDecision> {
    const perMinute = this.limit(bucket);
    if (perMinute <= 0) return { ok: true };
    return this.store.takeToken(this.key.principal, bucket, perMinute);
  }
}
