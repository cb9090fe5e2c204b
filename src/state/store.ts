// The state-store contract: everything two replicas must agree on (legacy MCP session records, describe
// authorizations, rate-limit buckets, stored large results, idempotency keys in flight, used confirmations, the
// generated signing key), namespaced by principal and session, each with a TTL. Implementations: memory.ts (one process), redis.ts (shared).
import { AppError } from '../errors.js';

/** Who authenticated a request: `token:<sha256 prefix>`, `anonymous` (loopback), a JWT `sub`, `local` (stdio). */
export interface Principal {
  id: string;
  scopes?: string[];
}

/** A session's keys live under `<principal>:<session>` (RELIABILITY B4). */
export interface SessionKey {
  principal: string;
  session: string;
}

/** What a replica needs to serve a session it did not create: who owns it and how it was initialized. */
export interface SessionRecord {
  principal: string;
  /** The client's initialize params (protocolVersion, capabilities, clientInfo), replayed on rehydration. */
  init: Record<string, unknown>;
  createdAt: number;
}

/**
 * What one replica tells the others about a legacy session (shared stores only): its client cancelled a request,
 * which another replica may be running; or the session was deleted, which ends the live transport (and standalone
 * GET stream) another replica may hold. A replica acts on one only for a session it holds for that principal.
 */
export type SessionSignal =
  | { kind: 'cancel'; key: SessionKey; requestId: string | number; reason?: string }
  | { kind: 'deleted'; key: SessionKey };

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

export interface StoredResultInfo {
  id: string;
  createdAt: number;
}

/**
 * Whether the store can be used now (what readiness reads): `reachable` — a Redis answered on the last
 * connection; `authenticated` — it accepted our credentials (false while unknown); `code` and `detail` say why
 * not ok. The memory store is always ok.
 */
export interface StateHealth {
  ok: boolean;
  /** `memory` or `redis`. */
  kind: string;
  reachable: boolean;
  authenticated: boolean;
  /** Why not ok, for machines: see src/state/redis-problems.ts (`auth`, `unreachable`, `db`, ...). */
  code?: string;
  /** Why not ok, for people (secret-free; no host or URL): `state store unavailable (<what and the fix>)`. */
  detail?: string;
}

export interface StateStore {
  readonly kind: 'memory' | 'redis';
  /** True when other processes see the same state (then replicas can serve each other's sessions). */
  readonly shared: boolean;

  createSession(key: SessionKey, record: SessionRecord, ttlMs: number): Promise<void>;
  /**
   * Refreshes the idle TTL of the session's record and authorizations and returns the record; undefined when
   * there is none (unknown, expired, deleted, or another principal's). Authorizations are refreshed even when
   * there is no record (stdio and in-memory sessions have none).
   */
  touchSession(key: SessionKey, ttlMs: number): Promise<SessionRecord | undefined>;
  /** Removes every key of the session (record, authorizations, stored results). */
  deleteSession(key: SessionKey): Promise<void>;

  /** Marks operations as described at their fingerprint; the set expires `ttlMs` after the last touch. */
  authorize(key: SessionKey, entries: ReadonlyArray<{ name: string; fingerprint: string }>, ttlMs: number): Promise<void>;
  /** The fingerprint `name` was described at in this session, if it still is. */
  authorizedFingerprint(key: SessionKey, name: string): Promise<string | undefined>;
  /** Number of authorized operations (logs, tests). */
  authorizedCount(key: SessionKey): Promise<number>;

  /** Takes one token from the principal's bucket (capacity = perMinute, refilled perMinute per 60 s). */
  takeToken(principal: string, bucket: string, perMinute: number): Promise<RateDecision>;

  /**
   * Keeps a result text for `ttlMs`, at most `max` per session (oldest evicted). Returns its id, or undefined when
   * the store does not keep it: a text larger than its whole byte budget (Redis; nothing is evicted for it).
   */
  putResult(key: SessionKey, text: string, ttlMs: number, max: number): Promise<string | undefined>;
  getResult(key: SessionKey, id: string): Promise<string | undefined>;
  /** Results of the session younger than `ttlMs`, oldest first. */
  listResults(key: SessionKey, ttlMs: number): Promise<StoredResultInfo[]>;

  /**
   * The secret stored under `name`, storing `candidate` first when there is none (SET NX): every replica that
   * asks gets the first value written. No expiry. The memory store keeps it for this process.
   */
  sharedSecret(name: string, candidate: string): Promise<string>;

  /** Claims an idempotency key for one in-flight request; false when another request holds it. */
  claimIdempotencyKey(principal: string, idempotencyKey: string, ttlMs: number): Promise<{ claimed: boolean; release: () => Promise<void> }>;

  /**
   * Claims `name` for the principal once and for good (SET NX with a TTL, never released): true for the first
   * claim, false for every later one while `ttlMs` has not passed. What must be used at most once (an accepted
   * confirmation) claims here, so that every replica agrees it was used.
   */
  claimOnce(principal: string, name: string, ttlMs: number): Promise<boolean>;

  /**
   * The epoch of the claims that must hold for good (an accepted confirmation's): one value while every claim made
   * under it is still held, a new one once some may be gone. Memory: one value for the store's life (the process).
   * Redis: a value kept under one key that is replaced when the Redis lost its data (the key is gone), restarted (a
   * new run_id: an RDB snapshot or AOF may lack the last claims) or is another server than the one that wrote it (a
   * failover; a new replication id) — read inside the script, where this user may run INFO (otherwise only the
   * first).
   */
  claimEpoch(): Promise<string>;
  /**
   * claimOnce, in the same atomic step as a check that the store's claim epoch is still `epoch`: 'stale' (nothing
   * claimed) when it is not, since a claim made under that epoch may be gone; 'used' when claimed before.
   */
  claimOnceInEpoch(principal: string, name: string, ttlMs: number, epoch: string): Promise<'claimed' | 'used' | 'stale'>;

  /**
   * Shared stores: sends `signal` to every other process using this store, at most once and best effort (a process
   * whose connection is down at that moment misses it). Rejects with STATE_UNAVAILABLE when it could not be sent.
   */
  publishSignal?(signal: SessionSignal): Promise<void>;
  /** Shared stores: calls `listener` with each signal another process publishes; returns the way to stop. */
  onSignal?(listener: (signal: SessionSignal) => void): () => void;

  health(): Promise<StateHealth>;
  /**
   * Calls `listener` each time the store becomes usable again after it was not (a Redis back after a restart or
   * an outage; not the first connection). The memory store never calls it. Used to put back what a Redis that
   * lost its data no longer has (the shared signing key).
   */
  onRecovered?(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * Bytes of stored result text kept together (64 MiB): by one process in its memory, or by every replica in one Redis.
 * Without it, 1000 sessions x 20 results of up to 20 MiB each could hold hundreds of GB. The oldest results go first
 * when a new one needs room. Counted as the stored text's length (bytes in Redis).
 */
export const RESULT_BUDGET_BYTES = 64 * 1024 * 1024;

/** The message every caller sees when the store cannot be reached (fail closed). */
export const STATE_UNAVAILABLE_MESSAGE = 'state store unavailable';

/** A store operation that failed: the code agents see, with no connection details. */
export function stateUnavailable(detail?: string): AppError {
  return new AppError('STATE_UNAVAILABLE', `${STATE_UNAVAILABLE_MESSAGE}${detail ? ` (${detail})` : ''}: nothing was executed; retry in a few seconds`);
}

/** `<principal>:<session>` with the principal percent-encoded, so a `:` inside it cannot forge another key. */
export function sessionPrefix(key: SessionKey): string {
  return `${encodeURIComponent(key.principal)}:${key.session}`;
}

export function principalPrefix(principal: string): string {
  return encodeURIComponent(principal);
}
