// What a failed fetch means: the error chain's code (undici's, Node's, zlib's) read into the AppError a caller
// can act on (UPSTREAM_UNREACHABLE, UPSTREAM_TIMEOUT, UPSTREAM_RESPONSE_INVALID, UNSAFE_REQUEST), and the failures
// http.ts treats specially: a reset (retried), fetch's bad port (never sent). Sends nothing itself.
import { AppError } from '../errors.js';
import { addressRefusal } from '../net/address-policy.js';

function errCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e !== null && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export type Phase = 'connect' | 'body';

/**
 * The innermost message of an error chain without a code, e.g. fetch's "bad port" for ports the Fetch
 * standard blocks (1, 9, 25, ...): better than "unknown", and short enough to redact and show.
 */
function causeMessage(err: unknown): string | undefined {
  let e: unknown = err;
  let message: string | undefined;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    message = e.message;
    e = e.cause;
  }
  return message !== undefined && message !== '' && message !== 'fetch failed' ? message.slice(0, 80) : undefined;
}

/**
 * fetch refused the URL's port before connecting: the Fetch standard's "bad ports" (1, 7, 9, 25, 6000, ...), which
 * Node's fetch (undici) will not open whatever the server does. Its only sign is the cause's message.
 */
export function isBadPort(err: unknown): boolean {
  return errCode(err) === undefined && causeMessage(err) === 'bad port';
}

/**
 * What the upstream did wrong when it answered, but not with HTTP this client can read: headers over the client's
 * limit, bytes that are not an HTTP response (another protocol on the port), or a body that does not decode as its
 * Content-Encoding says (zlib's Z_* codes, brotli's ERR__ERROR_FORMAT_*). Undefined for a network failure.
 */
function protocolFault(code: string, encoding: string | undefined): string | undefined {
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return 'answered with response headers larger than the HTTP client accepts';
  if (code.startsWith('HPE_')) return 'did not answer with a valid HTTP response (another protocol on that port, or a broken server)';
  if (/^Z_[A-Z_]+_ERROR$|^ERR__ERROR_FORMAT|^ERR_BROTLI/.test(code)) {
    return `sent a body that does not decode as its Content-Encoding${encoding !== undefined ? ` (${encoding.slice(0, 40)})` : ''} says`;
  }
  return undefined;
}

/** The AppError for a failed fetch (`phase`: connecting and sending, or reading the body); `encoding` is the answer's Content-Encoding. */
export function networkError(err: unknown, phase: Phase, url: string, redact: (s: string) => string, encoding?: string): AppError {
  const code = errCode(err) ?? causeMessage(err) ?? 'unknown';
  const origin = redact(new URL(url).origin);
  const fault = protocolFault(code, encoding);
  if (fault !== undefined) {
    // the upstream answered, wrongly: not "cannot reach" (the network is fine) nor a cut connection
    return new AppError('UPSTREAM_RESPONSE_INVALID', `upstream ${origin} ${fault} (${code})`, { details: { code, retryable: false } });
  }
  if (isBadPort(err)) {
    // not a network failure: no retry, no other network can get it through; only another port can
    const port = new URL(url).port;
    return new AppError(
      'UPSTREAM_UNREACHABLE',
      `cannot call ${origin}: the server's HTTP client (fetch) refuses port ${port}, one of the ports the Fetch standard blocks (bad port), so nothing was sent; retrying will not help, only a base URL with another port will`,
      { details: { code: 'bad port', port: Number(port), retryable: false } },
    );
  }
  const refusal = addressRefusal(err);
  if (refusal !== undefined) {
    return new AppError('UNSAFE_REQUEST', `refused to connect to ${origin}: its host resolves to ${refusal.address}, ${refusal.reason}, not a public address (blockPrivateAddresses is on)`, {
      details: { origin, configKey: 'blockPrivateAddresses' },
    });
  }
  if (phase === 'body') {
    return new AppError('UPSTREAM_RESPONSE_INVALID', `upstream ${origin} closed the connection before the response body was complete (${code})`, {
      details: { code },
    });
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AppError('UPSTREAM_TIMEOUT', `could not connect to ${origin} within the connect timeout`, { details: { code } });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new AppError('UPSTREAM_TIMEOUT', `upstream ${origin} did not answer in time`, { details: { code } });
  }
  if (isReset(err)) {
    return new AppError('UPSTREAM_UNREACHABLE', `upstream ${origin} closed the connection without answering (${code})`, { details: { code } });
  }
  return new AppError('UPSTREAM_UNREACHABLE', `cannot reach ${origin} (${code})`, { details: { code } });
}

/** The connection was reset or cut (a retry may get through). */
export function isReset(err: unknown): boolean {
  const code = errCode(err);
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}
