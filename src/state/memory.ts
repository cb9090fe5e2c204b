// The in-process state store (default; stdio and single-process HTTP): Maps with expiry times on an injectable
// clock. Single-threaded JS makes every method atomic (B10). Nothing here is visible to another process.
import { randomUUID } from '../crypto.js';
import { principalPrefix, sessionPrefix, type RateDecision, type SessionKey, type SessionRecord, type StateHealth, type StateStore, type StoredResultInfo } from './store.js';

/** The secret name claimEpoch keeps its value under (closing the store forgets it, as it forgets the claims). */
const CLAIM_EPOCH = 'confirm-epoch';

interface Expiring<T> {
  value: T;
  expiresAt: number;
}

export class MemoryStateStore implements StateStore {
  readonly kind = 'memory' as const;
  readonly shared = false;
  private readonly sessions = new Map<string, Expiring<SessionRecord>>();
  private readonly auth = new Map<string, Expiring<Map<string, string>>>();
  private readonly results = new Map<string, Map<string, { text: string; createdAt: number; expiresAt: number }>>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly idem = new Map<string, Expiring<string>>();
  private readonly once = new Map<string, Expiring<true>>();
  private readonly secrets = new Map<string, string>();
  private ops = 0;

  constructor(private readonly now: () => number = Date.now) {}

  private live<T>(map: Map<string, Expiring<T>>, k: string): Expiring<T> | undefined {
    const e = map.get(k);
    if (e && e.expiresAt <= this.now()) {
      map.delete(k);
      return undefined;
    }
    return e;
  }

  /** Drops expired entries now and then, so a long-lived process does not keep dead sessions. */
  private maybeSweep(): void {
    if (++this.ops % 1000 !== 0) return;
    const t = this.now();
    for (const m of [this.sessions, this.auth, this.idem, this.once] as Array<Map<string, Expiring<unknown>>>) {
      for (const [k, e] of m) if (e.expiresAt <= t) m.delete(k);
    }
    for (const [k, m] of this.results) {
      for (const [id, r] of m) if (r.expiresAt <= t) m.delete(id);
      if (m.size === 0) this.results.delete(k);
    }
    for (const [k, b] of this.buckets) if (t - b.at > 120_000) this.buckets.delete(k);
  }

  async createSession(key: SessionKey, record: SessionRecord, ttlMs: number): Promise<void> {
    this.maybeSweep();
    this.sessions.set(sessionPrefix(key), { value: record, expiresAt: this.now() + ttlMs });
  }

  async touchSession(key: SessionKey, ttlMs: number): Promise<SessionRecord | undefined> {
    this.maybeSweep();
    const k = sessionPrefix(key);
    const until = this.now() + ttlMs;
    const a = this.live(this.auth, k);
    if (a) a.expiresAt = until;
    const s = this.live(this.sessions, k);
    if (!s) return undefined;
    s.expiresAt = until;
    return s.value;
  }

  async deleteSession(key: SessionKey): Promise<void> {
    const k = sessionPrefix(key);
    this.sessions.delete(k);
    this.auth.delete(k);
    this.results.delete(k);
  }

  async authorize(key: SessionKey, entries: ReadonlyArray<{ name: string; fingerprint: string }>, ttlMs: number): Promise<void> {
    const k = sessionPrefix(key);
    let a = this.live(this.auth, k);
    if (!a) {
      a = { value: new Map(), expiresAt: 0 };
      this.auth.set(k, a);
    }
    for (const e of entries) a.value.set(e.name, e.fingerprint);
    a.expiresAt = this.now() + ttlMs;
  }

  async authorizedFingerprint(key: SessionKey, name: string): Promise<string | undefined> {
    return this.live(this.auth, sessionPrefix(key))?.value.get(name);
  }

  async authorizedCount(key: SessionKey): Promise<number> {
    return this.live(this.auth, sessionPrefix(key))?.value.size ?? 0;
  }

  async takeToken(principal: string, bucket: string, perMinute: number): Promise<RateDecision> {
    if (perMinute <= 0) return { ok: true };
    const k = `${principalPrefix(principal)}:rate:${bucket}`;
    const t = this.now();
    const b = this.buckets.get(k) ?? { tokens: perMinute, at: t };
    const elapsed = t - b.at;
    if (elapsed > 0) {
      b.tokens = Math.min(perMinute, b.tokens + (elapsed * perMinute) / 60_000);
      b.at = t;
    }
    this.buckets.set(k, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil(((1 - b.tokens) * 60_000) / perMinute) };
  }

  private resultMap(key: SessionKey): Map<string, { text: string; createdAt: number; expiresAt: number }> {
    const k = sessionPrefix(key);
    let m = this.results.get(k);
    if (!m) {
      m = new Map();
      this.results.set(k, m);
    }
    const t = this.now();
    for (const [id, r] of m) if (r.expiresAt <= t) m.delete(id);
    return m;
  }

  async putResult(key: SessionKey, text: string, ttlMs: number, max: number): Promise<string> {
    const m = this.resultMap(key);
    const id = randomUUID();
    const t = this.now();
    m.set(id, { text, createdAt: t, expiresAt: t + ttlMs });
    while (m.size > max) m.delete(m.keys().next().value as string);
    return id;
  }

  async getResult(key: SessionKey, id: string): Promise<string | undefined> {
    return this.resultMap(key).get(id)?.text;
  }

  async listResults(key: SessionKey, _ttlMs: number): Promise<StoredResultInfo[]> {
    return [...this.resultMap(key)].map(([id, r]) => ({ id, createdAt: r.createdAt }));
  }

  async claimIdempotencyKey(principal: string, idempotencyKey: string, ttlMs: number): Promise<{ claimed: boolean; release: () => Promise<void> }> {
    const k = `${principalPrefix(principal)}:idem:${idempotencyKey}`;
    if (this.live(this.idem, k)) return { claimed: false, release: async () => undefined };
    const token = randomUUID();
    this.idem.set(k, { value: token, expiresAt: this.now() + ttlMs });
    return {
      claimed: true,
      release: async () => {
        if (this.idem.get(k)?.value === token) this.idem.delete(k);
      },
    };
  }

  async claimOnce(principal: string, name: string, ttlMs: number): Promise<boolean> {
    this.maybeSweep();
    const k = `${principalPrefix(principal)}:once:${name}`;
    if (this.live(this.once, k)) return false;
    this.once.set(k, { value: true, expiresAt: this.now() + ttlMs });
    return true;
  }

  /** One epoch for the store's life: every claim it made is held while the process runs. */
  async claimEpoch(): Promise<string> {
    return this.sharedSecret(CLAIM_EPOCH, randomUUID());
  }

  async claimOnceInEpoch(principal: string, name: string, ttlMs: number, epoch: string): Promise<'claimed' | 'used' | 'stale'> {
    if (epoch !== (await this.claimEpoch())) return 'stale';
    return (await this.claimOnce(principal, name, ttlMs)) ? 'claimed' : 'used';
  }

  async sharedSecret(name: string, candidate: string): Promise<string> {
    if (!this.secrets.has(name)) this.secrets.set(name, candidate);
    return this.secrets.get(name) as string;
  }

  async health(): Promise<StateHealth> {
    return { ok: true, kind: 'memory', reachable: true, authenticated: true };
  }

  async close(): Promise<void> {
    this.sessions.clear();
    this.auth.clear();
    this.results.clear();
    this.buckets.clear();
    this.idem.clear();
    this.once.clear();
    this.secrets.clear();
  }
}
