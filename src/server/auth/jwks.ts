// The issuer's signing keys (its JWKS), fetched by us rather than by jose's remote key set: so that a fetch that
// fails says why in words an operator can act on (`HTTP 503`, `ECONNREFUSED`, `the answer is not JSON`) and counts
// as "the keys could not be fetched" (a 503 for a token, unready), never as a bad token; and so that what an unknown
// key id may cost is ours to decide. A token naming a key id that is not in the set may make us fetch the set again
// (a key rotation at the issuer), but anyone can send such a token: those fetches are one at a time and at most one
// per `refetchIntervalMs` (requests wait for the next one, a second at most by default), never a 503 on their own.
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

/** Why the keys could not be fetched, in words (a status, an error code): never a token, the URL is the operator's. */
export class KeysFetchError extends Error {
  constructor(readonly why: string) {
    super(`the signing keys could not be fetched (${why})`);
    this.name = 'KeysFetchError';
  }
}

export interface IssuerKeysOptions {
  /** The issuer's jwks_uri. */
  url: URL;
  timeoutMs: number;
  /** How long a fetched set is used without fetching it again. */
  maxAgeMs: number;
  /** The least time between two fetches (an unknown key id, a down issuer): default 1000 ms. */
  refetchIntervalMs?: number;
  /** Words for an error thrown by fetch (oauth.ts fetchFailure). */
  describe: (err: unknown) => string;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** One issuer's key set: fetched when missing or older than maxAgeMs, and again (rate-limited) for an unknown key id. */
export class IssuerKeys {
  private set?: JWTVerifyGetKey;
  /** performance.now() when the set in use was fetched (the start of that fetch): every age and interval here is on the
   * monotonic clock, so a step of the wall clock (NTP, a VM resumed) neither locks fetches out nor skips the max age. */
  private fetchedAt?: number;
  /** performance.now() when the last fetch started, whatever came of it. */
  private lastStart?: number;
  private lastFailure?: KeysFetchError;
  private inflight?: Promise<void>;
  /** The next fetch, waiting for its slot; every request with an unknown key id until it starts shares it. */
  private next?: Promise<void>;
  private readonly intervalMs: number;

  constructor(private readonly options: IssuerKeysOptions) {
    this.intervalMs = Math.max(0, options.refetchIntervalMs ?? 1000);
  }

  /** The key set for jwtVerify; undefined before the first fetch that worked. */
  get current(): JWTVerifyGetKey | undefined {
    return this.set;
  }

  /** True while a set fetched less than maxAgeMs ago is held. */
  get fresh(): boolean {
    return this.set !== undefined && this.fetchedAt !== undefined && performance.now() - this.fetchedAt < this.options.maxAgeMs;
  }

  /**
   * Makes the set fresh: fetches it when it is missing or too old. Throws KeysFetchError when it cannot; a fetch
   * that failed less than refetchIntervalMs ago is not tried again at once (a down issuer is not asked on every
   * request): its failure is thrown again.
   */
  async ensureFresh(): Promise<void> {
    if (this.fresh) return;
    if (this.inflight !== undefined) return this.inflight;
    if (this.lastFailure !== undefined && this.lastStart !== undefined && performance.now() - this.lastStart < this.intervalMs) throw this.lastFailure;
    return this.fetchNow();
  }

  /**
   * A token names a key id the set lacks: fetch the set again, unless a fetch started after `since` (performance.now() when the
   * request came in: that set is the issuer's current one). The fetch waits for its slot (refetchIntervalMs after
   * the last one started) and is shared by every request waiting for it. Throws KeysFetchError when it fails.
   */
  async refetchFor(since: number): Promise<void> {
    if (this.lastStart !== undefined && this.lastStart >= since) {
      if (this.inflight !== undefined) await this.inflight;
      return;
    }
    if (this.next === undefined) {
      // cleared in a then-callback, which runs after this assignment even when there is nothing to wait for
      const next: Promise<void> = this.slot().then(() => {
        if (this.next === next) this.next = undefined;
        return this.fetchNow();
      });
      this.next = next;
    }
    return this.next;
  }

  /** Resolves when the next fetch may start: refetchIntervalMs after the last one started, and that one over. */
  private async slot(): Promise<void> {
    const wait = (this.lastStart ?? -Infinity) + this.intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    if (this.inflight !== undefined) await this.inflight.catch(() => undefined);
  }

  /** One fetch at a time: a call while one runs shares it. */
  private fetchNow(): Promise<void> {
    if (this.inflight !== undefined) return this.inflight;
    const startedAt = performance.now();
    this.lastStart = startedAt;
    const p = (this.inflight = (async () => {
      try {
        const set = await this.load();
        this.set = set;
        this.fetchedAt = startedAt;
        this.lastFailure = undefined;
      } catch (err) {
        this.lastFailure = err instanceof KeysFetchError ? err : new KeysFetchError(this.options.describe(err));
        throw this.lastFailure;
      } finally {
        this.inflight = undefined;
      }
    })());
    return p;
  }

  private async load(): Promise<JWTVerifyGetKey> {
    let res: Response;
    try {
      res = await fetch(this.options.url, { signal: AbortSignal.timeout(this.options.timeoutMs), headers: { accept: 'application/json' }, redirect: 'error' });
    } catch (err) {
      throw new KeysFetchError(this.options.describe(err));
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new KeysFetchError(`HTTP ${res.status}`);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch (err) {
      throw new KeysFetchError(this.options.describe(err));
    }
    try {
      return createLocalJWKSet(json as JSONWebKeySet);
    } catch {
      throw new KeysFetchError('the answer is not a JSON Web Key Set');
    }
  }
}
