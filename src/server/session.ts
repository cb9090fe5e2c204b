// One MCP session's view of the state store: its key (<principal>:<session>), describe authorizations bound
// to each operation's fingerprint, idle expiry, and the principal's rate-limit buckets. Holds no state of its
// own: whatever a replica needs lives in the store, so any replica can serve the session.
import { randomUUID } from '../crypto.js';
import { AppError } from '../errors.js';
import type { RateDecision, SessionKey, StateStore } from '../state/index.js';
import { fail, type Envelope } from './core/envelope.js';

/**
 * A new MCP session id: a version-4 UUID from `crypto.randomUUID` (122 random bits from the CSPRNG), so ids
 * are unguessable, never sequential, and only visible ASCII (`[0-9a-f-]`, A17). For the transport's
 * `sessionIdGenerator`.
 */
export function generateSessionId(): string {
  return randomUUID();
}

/**
 * Rate-limit buckets, counted per principal (over stdio: the connection's own in-memory store): `execute` protects
 * the upstream, `read` a shared server, `confirm` the user (confirmation questions, on every transport).
 */
export type RateBucket = 'execute' | 'read' | 'confirm';

/** Confirmation questions per minute when `confirmRateLimitPerMinute` is not given, on every transport. */
export const DEFAULT_CONFIRM_PER_MINUTE = 10;

/** The per-minute limits a server applies (0: unlimited). */
export interface RateLimits {
  /** execute_tool calls that send, per minute per principal. */
  executePerMinute: number;
  /** list_domains / search_tools / describe_tools / resource reads, dry runs, refusals per minute per principal. */
  readPerMinute: number;
  /** Confirmation questions (elicitation/create, input_required) per minute per principal. */
  confirmPerMinute: number;
}

/**
 * The limits a server built from these deps applies: createServer's, and what serveHttp's handle reports (its deps
 * carry the HTTP read default), so that a test can read the applied defaults.
 */
export function rateLimits(deps: { rateLimitPerMinute?: number; readRateLimitPerMinute?: number; confirmRateLimitPerMinute?: number }): RateLimits {
  return {
    executePerMinute: deps.rateLimitPerMinute ?? 120,
    readPerMinute: deps.readRateLimitPerMinute ?? 0,
    confirmPerMinute: deps.confirmRateLimitPerMinute ?? DEFAULT_CONFIRM_PER_MINUTE,
  };
}

export interface SessionOptions extends RateLimits {
  /** Idle time after which authorizations expire (the HTTP transport also drops the session). */
  ttlMs: number;
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
    return bucket === 'execute' ? this.options.executePerMinute : bucket === 'read' ? this.options.readPerMinute : this.options.confirmPerMinute;
  }

  /** Takes one token from the principal's bucket (A23); unlimited buckets never touch the store. */
  async takeToken(bucket: RateBucket): Promise<RateDecision> {
    const perMinute = this.limit(bucket);
    if (perMinute <= 0) return { ok: true };
    return this.store.takeToken(this.key.principal, bucket, perMinute);
  }
}

/**
 * RATE_LIMITED: which bucket, its limit, and when to retry (the same words for every call a limit refuses).
 * `unsent`: an execute_tool call refused before sending (invalid, not described, ...), which the read bucket limits.
 * `confirm`: a confirmation question not asked, so that a looping agent cannot raise prompts without end.
 */
export function rateLimitedEnvelope(tool: string, bucket: RateBucket, limit: number, retryAfterMs: number, unsent = false): Envelope {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  if (bucket === 'confirm') {
    return fail(
      tool,
      'RATE_LIMITED',
      `Too many confirmation questions (execute_tool calls that ask the user to allow a destructive request); the limit is ${limit} per minute (nothing was sent and the user was not asked)`,
      `Do not repeat a request the user declined. Otherwise wait ${seconds} s, then retry the same call.`,
      { retryAfterMs, bucket },
    );
  }
  return fail(
    tool,
    'RATE_LIMITED',
    bucket === 'execute'
      ? `Too many execute_tool calls sent to the API; the limit is ${limit} per minute (it protects the upstream API; nothing was sent)`
      : unsent
        ? `Too many execute_tool calls that sent nothing (refused before sending); with list/search/describe and dry runs the limit is ${limit} per minute (nothing was sent)`
        : `Too many catalog calls (list/search/describe, and execute_tool dry runs); the limit is ${limit} per minute`,
    `Wait ${seconds} s, then retry the same call.`,
    { retryAfterMs, bucket },
  );
}

/**
 * The execute bucket protects the upstream API, so an execute_tool call spends it only when its request is about to
 * be sent: `beforeSend` is the execution layer's onSent, awaited before the first attempt. A call refused before
 * (invalid arguments, not described, a confirmation round, a missing credential) spends none of it: such a call
 * spends the read bucket instead, a confirmation question the confirm bucket (`reached` false: execute-rounds.ts). A limit reached there stops the call with
 * nothing sent (`limited`: the answer), and so does a state store that cannot be asked (`stopped`: its error, which
 * the call answers with).
 */
export class ExecuteGate {
  limited: Envelope | undefined;
  stopped: { error: unknown } | undefined;
  /** The call got as far as the execute bucket (whatever the bucket said). */
  reached = false;

  constructor(
    private readonly session: SessionState,
    private readonly tool: string,
    /** Told once the call may go (the request is handed to fetch next). */
    private readonly passed: () => void,
  ) {}

  readonly beforeSend = async (): Promise<void> => {
    this.reached = true;
    let rate: RateDecision;
    try {
      rate = await this.session.takeToken('execute');
    } catch (error) {
      this.stopped = { error };
      throw error;
    }
    if (!rate.ok) {
      this.limited = rateLimitedEnvelope(this.tool, 'execute', this.session.limit('execute'), rate.retryAfterMs);
      throw new AppError('RATE_LIMITED', 'the execute rate limit stopped the call before it was sent');
    }
    this.passed();
  };
}
