// The HTTP client of execution: undici fetch with connect/headers timeouts, one total deadline (AbortSignal,
// because body timeouts reset per chunk; deadline.ts keeps a stalled event loop from cutting it short), caller
// cancellation, retries with exponential back-off + jitter that honour Retry-After (idempotent calls only, never
// past the deadline), same-origin-only manual redirects, and a cap on response bytes counted after decompression;
// optionally refuses private/loopback addresses on the resolved IP at connect time (F10, the one address policy of
// src/net). fetch, sleep, clock and randomness are injectable. What a failed fetch means: network-errors.ts.
import type { Agent } from 'undici';
import { AppError } from '../errors.js';
import { addressRefusal, checkAddress, guardedLookup, isIpLiteral } from '../net/address-policy.js';
import { deadlineTimer } from './deadline.js';
import { isBadPort, isReset, networkError } from './network-errors.js';
import type { BuiltRequest } from './request.js';

export const DEFAULTS = { connectMs: 10_000, totalMs: 30_000, maxResponseBytes: 5 * 1024 * 1024, maxRetries: 2, maxRedirects: 5 } as const;

export interface SendOptions {
  connectMs: number;
  totalMs: number;
  maxBytes: number;
  maxRetries: number;
  signal?: AbortSignal;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /**
   * Refuse hosts that are or resolve to non-public addresses (F10), except `exemptOrigin` (the operator's
   * configured base URL). Undefined: no check.
   */
  blockPrivate?: { exemptOrigin?: string };
  /**
   * Told each time an attempt is handed to fetch: from then on the request may reach the upstream (a forced exit
   * says so in its audit line). An attempt the address policy then refuses at connect time is not counted as sent.
   */
  onSend?: () => void;
}

/**
 * What `send` throws: the AppError the call ended with, and whether any attempt was handed to fetch. `sent: false`
 * means nothing can have reached the upstream (an address refused before connecting, a cancellation before the
 * first attempt); `sent: true` means it may have (a timeout, a reset, a refused redirect after an answer).
 */
export class SendError extends AppError {
  readonly sent: boolean;

  constructor(err: AppError, sent: boolean) {
    super(err.code, err.message, { details: err.details, cause: err.cause });
    this.sent = sent;
  }
}

export interface RawResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** Set when the body was cut at maxBytes (the number of bytes kept). */
  cutAt?: number;
  /** The URL that answered (after same-origin redirects). */
  url: string;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

type Undici = Pick<typeof import('undici'), 'Agent' | 'fetch'>;
let undiciModule: Promise<Undici> | undefined;
/** undici loads on the first upstream call, not at start-up (it is ~100+ ms of module loading). */
function undici(): Promise<Undici> {
  undiciModule ??= import('undici').then((m) => {
    // Node's ESM loader exposes undici's CommonJS exports by name; the bundled CLI (esbuild) only as `default`.
    const lib = (m.Agent !== undefined ? m : (m as { default?: Undici }).default) as Undici;
    return { Agent: lib.Agent, fetch: lib.fetch };
  });
  return undiciModule;
}

const agents = new Map<string, Agent>();
function agentFor(lib: Undici, connectMs: number, totalMs: number, guarded: boolean): Agent {
  const key = `${connectMs}/${totalMs}/${guarded ? 1 : 0}`;
  let a = agents.get(key);
  if (a === undefined) {
    a = new lib.Agent({
      // undici passes these options to net/tls.connect, which call `lookup` for host names (not IP literals).
      connect: { timeout: connectMs, ...(guarded ? { lookup: guardedLookup() } : {}) } as Agent.Options['connect'],
      headersTimeout: totalMs,
      bodyTimeout: totalMs,
      keepAliveTimeout: 4_000,
    });
    agents.set(key, a);
  }
  return a;
}

/**
 * Refuses an IP-literal host that the address policy refuses, before connecting (lookup is not called for
 * literals). True when the agent's connect-time lookup must check a host name; false for the exempt origin.
 */
function checkLiteralHost(url: string, exemptOrigin: string | undefined): boolean {
  const u = new URL(url);
  if (u.origin === exemptOrigin) return false;
  if (!isIpLiteral(u.hostname)) return true;
  const verdict = checkAddress(u.hostname);
  if (!verdict.allowed) {
    throw new AppError('UNSAFE_REQUEST', `refused to connect to ${u.origin}: ${verdict.address} is ${verdict.reason}, not a public address (blockPrivateAddresses is on)`, {
      details: { origin: u.origin, configKey: 'blockPrivateAddresses' },
    });
  }
  return false;
}

/** Abortable sleep. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/** Exponential back-off with jitter: 500 ms · 2^attempt, capped at 8 s, times 0.5–1.0. */
export function backoffMs(attempt: number, random: () => number): number {
  return Math.min(8_000, 500 * 2 ** attempt) * (0.5 + random() * 0.5);
}

/** May this request be retried? Idempotent methods, or POST/PATCH carrying an idempotency key. */
export function isRetryable(req: BuiltRequest): boolean {
  return IDEMPOTENT.has(req.method) || req.idempotencyKey !== undefined;
}

/**
 * Sends a built request. Returns the final response (any status; a response means the request went out) or
 * throws SendError, which says whether any attempt was handed to fetch.
 */
export async function send(req: BuiltRequest, opts: SendOptions): Promise<RawResponse> {
  const lib = opts.fetch === undefined ? await undici() : undefined;
  const fetchImpl = opts.fetch ?? (lib!.fetch as unknown as typeof globalThis.fetch);
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const redact = (s: string): string => req.redactor.string(s);
  const start = now();
  const deadline = start + opts.totalMs;

  const controller = new AbortController();
  let why: 'timeout' | 'cancelled' | undefined;
  const timer = deadlineTimer(opts.totalMs, () => {
    why = 'timeout';
    controller.abort(new Error('deadline'));
  });
  const onCancel = (): void => {
    why ??= 'cancelled';
    controller.abort(new Error('cancelled'));
  };
  if (opts.signal?.aborted) onCancel();
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  const aborted = (): AppError =>
    why === 'cancelled'
      ? new AppError('CANCELLED', 'the call was cancelled by the client; the upstream request was aborted')
      : new AppError('UPSTREAM_TIMEOUT', `no complete answer from ${redact(new URL(req.url).origin)} within ${opts.totalMs % 1000 === 0 ? `${opts.totalMs / 1000} s` : `${opts.totalMs} ms`}`, {
          details: { totalMs: opts.totalMs },
        });

  let url = req.url;
  let method = req.method;
  let body = req.body;
  const headers = { ...req.headers };
  let attempts = 0;
  let redirects = 0;
  /** An attempt was handed to fetch (and not refused by the address policy before connecting). */
  let sent = false;
  const retryable = isRetryable(req);
  try {
    for (;;) {
      attempts++;
      let res: Response;
      // F10: every hop is checked (an IP literal here, a resolved name in the agent's lookup).
      const guarded = opts.blockPrivate !== undefined && checkLiteralHost(url, opts.blockPrivate.exemptOrigin);
      // Cancelled (or out of time) before this attempt: it is not handed to fetch at all.
      if (controller.signal.aborted) throw aborted();
      const sentBefore: boolean = sent;
      sent = true;
      opts.onSend?.();
      try {
        const init: RequestInit & { dispatcher?: Agent } = {
          method,
          headers,
          redirect: 'manual',
          signal: controller.signal,
          ...(body !== undefined ? { body } : {}),
          ...(lib !== undefined ? { dispatcher: agentFor(lib, opts.connectMs, opts.totalMs, guarded) } : {}),
        };
        res = await fetchImpl(url, init);
      } catch (err) {
        if (controller.signal.aborted) throw aborted();
        // The address policy refused the resolved address in the connect lookup, or fetch refused the port before
        // connecting: this attempt never left the process.
        if (addressRefusal(err) !== undefined || isBadPort(err)) sent = sentBefore;
        if (retryable && isReset(err) && attempts <= opts.maxRetries) {
          const wait = backoffMs(attempts - 1, random);
          if (now() + wait < deadline) {
            await sleep(wait, controller.signal);
            continue;
          }
        }
        throw networkError(err, 'connect', url, redact);
      }

      // Redirects: only to the same origin, never a downgrade, at most maxRedirects (H4/H5).
      if ([301, 302, 303, 307, 308].includes(res.status) && res.headers.get('location') !== null) {
        await res.body?.cancel().catch(() => undefined);
        const location = res.headers.get('location')!;
        let target: URL;
        try {
          target = new URL(location, url);
        } catch {
          throw new AppError('UPSTREAM_RESPONSE_INVALID', `upstream sent a redirect with an invalid Location`);
        }
        // Checked before the origin: URL.origin ignores userinfo (F9), and a non-http(s) URL's origin is "null".
        // Neither the userinfo nor the rest of such a URL is echoed: the origin says where, and nothing more.
        if (target.protocol !== 'http:' && target.protocol !== 'https:') {
          throw new AppError('UPSTREAM_REDIRECT_REFUSED', `upstream redirected to a ${target.protocol.replace(':', '')}: URL; refused: only http(s) redirects to the same origin are followed`, {
            details: { status: res.status, scheme: target.protocol.replace(':', '') },
          });
        }
        if (target.username !== '' || target.password !== '') {
          throw new AppError('UPSTREAM_REDIRECT_REFUSED', `upstream redirected to a URL carrying a user name or password (${redact(target.origin)}); refused: URLs with userinfo are never followed`, {
            details: { status: res.status, location: redact(target.origin) },
          });
        }
        const from = new URL(url);
        if (from.protocol === 'https:' && target.protocol !== 'https:') {
          throw new AppError('UPSTREAM_REDIRECT_REFUSED', `upstream redirected from https to ${target.protocol.replace(':', '')} (${redact(target.origin)}); refused: credentials would travel unencrypted`, {
            details: { status: res.status, location: redact(target.origin) },
          });
        }
        if (target.origin !== from.origin) {
          throw new AppError('UPSTREAM_REDIRECT_REFUSED', `upstream redirected to another origin (${redact(target.origin)}); refused so credentials and the body are not sent there`, {
            details: { status: res.status, location: redact(target.origin) },
          });
        }
        if (++redirects > DEFAULTS.maxRedirects) {
          throw new AppError('UPSTREAM_REDIRECT_REFUSED', `upstream redirected more than ${DEFAULTS.maxRedirects} times; stopped`);
        }
        // RFC 9110 §15.4.2-4: a 303 turns any method but HEAD into GET; a 301/302 may do so for POST only (as
        // browsers do). PUT, PATCH and DELETE repeat with their body, as on 307/308: rewritten to a GET, a write
        // would be answered by a read and reported as done.
        if ((res.status === 303 && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        url = target.href;
        continue;
      }

      if (RETRY_STATUS.has(res.status) && retryable && attempts <= opts.maxRetries) {
        const wait = parseRetryAfter(res.headers.get('retry-after'), now()) ?? backoffMs(attempts - 1, random);
        if (now() + wait < deadline - 50) {
          await res.body?.cancel().catch(() => undefined);
          await sleep(wait, controller.signal);
          continue;
        }
      }

      // Read the body with a cap on decompressed bytes.
      const chunks: Buffer[] = [];
      let total = 0;
      let cutAt: number | undefined;
      if (res.body !== null) {
        const reader = res.body.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const room = opts.maxBytes - total;
            if (value.byteLength > room) {
              chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
              total += room;
              cutAt = total;
              await reader.cancel().catch(() => undefined);
              break;
            }
            chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
            total += value.byteLength;
          }
        } catch (err) {
          if (controller.signal.aborted) throw aborted();
          throw networkError(err, 'body', url, redact, res.headers.get('content-encoding') ?? undefined);
        }
      }
      return { status: res.status, headers: res.headers, bytes: Buffer.concat(chunks, total), ...(cutAt !== undefined ? { cutAt } : {}), url, attempts };
    }
  } catch (err) {
    const failure = err instanceof AppError ? err : controller.signal.aborted ? aborted() : networkError(err, 'connect', url, redact);
    throw new SendError(failure, sent);
  } finally {
    timer.clear();
    opts.signal?.removeEventListener('abort', onCancel);
  }
}
