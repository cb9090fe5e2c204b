// The server's signing key and what it signs: describe handles (HMAC-SHA256 over the tool, its definition
// fingerprint, the principal and an expiry) and the key of the MRTR requestState codec. One master key, two keys
// derived from it, so a handle can never pass for confirmation state or the reverse. Workflow enforcement, not a
// security boundary: what an upstream call may do is decided by the upstream credential.
import { AppError } from '../errors.js';
import { constantTimeEqual, hmacSha256, randomBytes } from '../crypto.js';
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';

/** The environment variable holding the master key (a secret: env only, never a flag or a file key). */
export const SIGNING_KEY_ENV = 'API_CATALOG_SIGNING_KEY';
/** Shortest accepted API_CATALOG_SIGNING_KEY, in characters (`openssl rand -hex 32` gives 64). */
export const MIN_SIGNING_KEY_LENGTH = 32;
/** How long a describe handle proves a describe. */
export const DEFAULT_HANDLE_TTL_MS = 60 * 60_000;
/** The name the generated key is shared under in a shared state store. */
export const SHARED_KEY_NAME = 'signing-key';

/** Why a handle does not authorize a call; `mismatch` covers tampering, another principal and a changed definition. */
export type HandleFailure = 'malformed' | 'expired' | 'mismatch';
export type HandleCheck = { ok: true } | { ok: false; reason: HandleFailure };

/** Bytes of the HMAC a handle keeps: 96 bits, ample for workflow enforcement, and ~4 o200k tokens fewer than 128. */
const HANDLE_MAC_BYTES = 12;
const HANDLE_RE = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{16})$/;

/**
 * Signs and checks describe handles; hands the requestState codec its key. Holds no per-call state. The keys are
 * derived on first use, so a server that never signs (a stdio start up to its first describe) loads no crypto. A
 * key kept in a shared store may not be known yet (the store was down at start): `ready()` fetches it, and every
 * signing path awaits it first, so such calls fail closed (STATE_UNAVAILABLE) until the store answers.
 */
export class Signer {
  private keys: { handle: Buffer; requestState: Uint8Array } | undefined;
  private master: (() => Buffer) | undefined;
  /** The master secret's text when it came from the store (what resync() offers back). */
  private shared: string | undefined;
  private fetching: Promise<void> | undefined;

  private constructor(
    master: (() => Buffer) | undefined,
    private readonly fetch?: (keep?: string) => Promise<string>,
  ) {
    this.master = master;
  }

  /** Derives the two keys from a master secret (the env var's text, or random bytes). */
  static fromSecret(secret: string | Uint8Array): Signer {
    return new Signer(() => (typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret)));
  }

  /** A signer with a key of its own (one process: stdio, one replica, tests). */
  static random(): Signer {
    return new Signer(() => randomBytes(32));
  }

  /**
   * A signer whose master secret comes from `fetch` (the shared store); a failed fetch is retried by the next
   * ready(). `fetch(keep)` offers `keep` (the key this process already uses) as the value to store when the
   * store has none, and returns the stored one.
   */
  static deferred(fetch: (keep?: string) => Promise<string>): Signer {
    return new Signer(undefined, fetch);
  }

  /** Whether the key is known (always, unless it comes from a store that has not answered yet). */
  get isReady(): boolean {
    return this.master !== undefined || this.fetch === undefined;
  }

  /** Resolves once the key is known (at once unless it comes from a store); rejects while the store is away. */
  ready(): Promise<void> {
    if (this.master !== undefined || this.fetch === undefined) return Promise.resolve();
    this.fetching ??= this.fetch().then(
      (secret) => {
        this.adopt(secret);
      },
      (err: unknown) => {
        this.fetching = undefined;
        throw err;
      },
    );
    return this.fetching;
  }

  private adopt(secret: string): void {
    this.shared = secret;
    this.master = () => Buffer.from(secret, 'utf8');
    this.keys = undefined;
  }

  /**
   * After the shared store came back (it may have lost its data in a restart without persistence): offers the
   * key this process uses back to the store, so replicas that keep running and replicas started later agree
   * again, and adopts whatever the store holds. Returns true when the key changed (handles made before are void).
   */
  async resync(): Promise<boolean> {
    if (this.fetch === undefined) return false;
    if (this.shared === undefined) {
      await this.ready();
      return false;
    }
    const stored = await this.fetch(this.shared);
    if (stored === this.shared) return false;
    this.adopt(stored);
    return true;
  }

  private derived(): { handle: Buffer; requestState: Uint8Array } {
    if (this.keys === undefined) {
      if (this.master === undefined) throw new Error('Signer: the shared key is not known yet (call ready() first)');
      const master = this.master();
      this.keys = {
        handle: hmacSha256(master, 'api-catalog/describe-handle/v1'),
        requestState: new Uint8Array(hmacSha256(master, 'api-catalog/request-state/v1')),
      };
    }
    return this.keys;
  }

  /** The key for the SDK's createRequestStateCodec (32 bytes). */
  get requestStateKey(): Uint8Array {
    return this.derived().requestState;
  }

  private mac(tool: string, fingerprint: string, principal: string, expiry: string): Buffer {
    return hmacSha256(this.derived().handle, JSON.stringify(['h1', tool, fingerprint, principal, expiry])).subarray(0, HANDLE_MAC_BYTES);
  }

  /** `<expiry in seconds, base36>.<first 12 bytes of the MAC, base64url>`: 23 characters. */
  handle(tool: string, fingerprint: string, principal: string, expiresAtMs: number): string {
    const expiry = Math.ceil(expiresAtMs / 1000).toString(36);
    return `${expiry}.${this.mac(tool, fingerprint, principal, expiry).toString('base64url')}`;
  }

  /** Recomputes the MAC with the operation's current fingerprint: a changed definition or another principal fails. */
  verify(handle: string, tool: string, fingerprint: string, principal: string, nowMs: number): HandleCheck {
    const m = HANDLE_RE.exec(handle);
    if (!m) return { ok: false, reason: 'malformed' };
    const expiry = m[1] as string;
    const given = Buffer.from(m[2] as string, 'base64url');
    if (!constantTimeEqual(given, this.mac(tool, fingerprint, principal, expiry))) return { ok: false, reason: 'mismatch' };
    if (parseInt(expiry, 36) * 1000 <= nowMs) return { ok: false, reason: 'expired' };
    return { ok: true };
  }
}

/** Where the key came from, for the start-up log line (never the key). */
export type SignerSource = 'env' | 'state' | 'process';

/** Checks an API_CATALOG_SIGNING_KEY value without echoing it. */
export function checkSigningKey(value: string): string {
  if (value.length < MIN_SIGNING_KEY_LENGTH) {
    throw new AppError(
      'CONFIG_INVALID',
      `config: ${SIGNING_KEY_ENV} must be at least ${MIN_SIGNING_KEY_LENGTH} characters (got ${value.length}); e.g. \`export ${SIGNING_KEY_ENV}=$(openssl rand -hex 32)\`, the same on every replica`,
    );
  }
  return value;
}

/**
 * The server's signer: from API_CATALOG_SIGNING_KEY when set; else, with a shared store, a random key stored once
 * (SET NX) so that every replica uses the first one written (fetched now, and again on first use if the store is
 * down at start: start-up never waits for it); else a random key for this process.
 */
export function resolveSigner(secret: string | undefined, store: StateStore, logger?: Logger, storeJudged?: Promise<unknown>): { signer: Signer; source: SignerSource } {
  if (secret !== undefined && secret !== '') {
    logger?.addSecret(secret);
    return { signer: Signer.fromSecret(checkSigningKey(secret)), source: 'env' };
  }
  if (store.shared) {
    const signer = Signer.deferred(async (keep) => {
      const shared = await store.sharedSecret(SHARED_KEY_NAME, keep ?? randomBytes(32).toString('base64url'));
      logger?.addSecret(shared);
      return shared;
    });
    // Fetched once the start-up verdict on the store is in (`storeJudged`): asked while the connection is still being
    // made, the store fails fast, and every start logged a store error and a pending key.
    const fetchNow = () => signer.ready().catch(() => logger?.log('warn', { event: 'signing_key_pending', message: 'the state store is not reachable; the shared signing key is fetched on first use' }));
    if (storeJudged === undefined) void fetchNow();
    else void storeJudged.then(fetchNow, fetchNow);
    // A Redis restarted without its data has no key: the first replica back stores the one they all used, the
    // others read it, so describe handles and confirmation state made before keep verifying everywhere.
    store.onRecovered?.(() => {
      signer.resync().then(
        (changed) => {
          if (changed) logger?.log('warn', { event: 'signing_key_changed', message: 'the state store holds another signing key than this replica used (a replica started while Redis had lost its data?); describe handles made before are void' });
        },
        () => undefined,
      );
    });
    return { signer, source: 'state' };
  }
  return { signer: Signer.random(), source: 'process' };
}
