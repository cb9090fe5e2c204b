// Per-MCP-session state kept in this process: which operations were described (authorized, bound to each
// operation's fingerprint), idle expiry, and a tool-call rate limit. Nothing is shared between sessions.
import { randomUUID } from 'node:crypto';

/**
 * A new MCP session id: a version-4 UUID from `crypto.randomUUID` (122 random bits from the CSPRNG), so ids
 * are unguessable, never sequential, and only visible ASCII (`[0-9a-f-]`, A17). For the transport's
 * `sessionIdGenerator`.
 */
export function generateSessionId(): string {
  return randomUUID();
}

export interface SessionOptions {
  /** Idle time after which authorizations expire (the HTTP transport also drops the session). */
  ttlMs: number;
  /** tools/call calls per minute; 0 disables the limit. */
  rateLimitPerMinute: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

/** One MCP session's state. Single-threaded JS: every method is atomic with respect to other calls (B10). */
export class SessionState {
  readonly id: string;
  private readonly ttlMs: number;
  private readonly perMinute: number;
  private readonly now: () => number;
  private readonly authorized = new Map<string, string>();
  private lastActivity: number;
  /** Token bucket: capacity = perMinute, refills perMinute tokens per 60 s. */
  private tokens: number;
  private refilledAt: number;

  constructor(id: string, options: SessionOptions) {
    this.id = id;
    this.ttlMs = options.ttlMs;
    this.perMinute = options.rateLimitPerMinute;
    this.now = options.now ?? Date.now;
    this.lastActivity = this.now();
    this.tokens = this.perMinute;
    this.refilledAt = this.lastActivity;
  }

  /** Idle longer than the TTL? Then authorizations are gone. */
  isExpired(): boolean {
    return this.now() - this.lastActivity > this.ttlMs;
  }

  /** Records activity; an expired session first loses every authorization (B5). Returns true if it had expired. */
  touch(): boolean {
    const expired = this.isExpired();
    if (expired) this.authorized.clear();
    this.lastActivity = this.now();
    return expired;
  }

  /** Marks operations as described (authorized) at their current fingerprint. */
  authorize(entries: ReadonlyArray<{ name: string; fingerprint: string }>): void {
    for (const e of entries) this.authorized.set(e.name, e.fingerprint);
  }

  /** True when `name` was described in this session at this exact fingerprint. */
  isAuthorized(name: string, fingerprint: string): boolean {
    if (this.isExpired()) {
      this.authorized.clear();
      return false;
    }
    return this.authorized.get(name) === fingerprint;
  }

  authorizedCount(): number {
    return this.authorized.size;
  }

  /** Takes one tool-call token (A23). */
  takeToken(): RateDecision {
    if (this.perMinute <= 0) return { ok: true };
    const t = this.now();
    const elapsed = t - this.refilledAt;
    if (elapsed > 0) {
      this.tokens = Math.min(this.perMinute, this.tokens + (elapsed * this.perMinute) / 60_000);
      this.refilledAt = t;
    }
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil(((1 - this.tokens) * 60_000) / this.perMinute) };
  }
}
