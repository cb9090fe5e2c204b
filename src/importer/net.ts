// Network access for the importer (build time only): fetching a spec URL the user typed, and `$ref`s to http(s)
// documents. Refs must never reach loopback, private, link-local or metadata addresses (RELIABILITY D3): literal
// IPs are checked before any socket is opened and host names are checked at connection time (DNS result pinned
// through `lookup`, so a rebinding answer cannot slip through), both by the one address policy (src/net).
// Sizes and times are capped.
import http from 'node:http';
import https from 'node:https';
import { AppError } from '../errors.js';
import { addressRefusal, checkAddress, guardedLookup, isIpLiteral, isPublicAddress } from '../net/address-policy.js';

/**
 * True for anything the address policy (src/net/address-policy.ts) refuses: loopback, private, link-local
 * (169.254.169.254), CGNAT, ULA, NAT64/6to4/Teredo forms of those, multicast, reserved, and any non-IP string.
 */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

export interface FetchOptions {
  /** Allow private/loopback addresses for this exact origin (the spec URL the user typed). */
  trustedOrigin?: string;
  maxBytes: number;
  timeoutMs: number;
  /** What is being fetched, for messages: "spec" or "$ref". */
  what: string;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** What a URL answered: the body's bytes and the Content-Type it was served with (absent when none was sent). */
export interface FetchedBody {
  bytes: Buffer;
  contentType?: string;
}

/**
 * The body of `url` with redirects followed (at most 5), every hop checked; throws AppError. As bytes, with the
 * Content-Type, so the caller can tell a spec from an HTML page, an image or UTF-16 text before decoding it.
 */
export async function fetchBody(rawUrl: string, options: FetchOptions): Promise<FetchedBody> {
  let url = new URL(rawUrl);
  for (let hop = 0; hop < 6; hop++) {
    const result = await fetchOnce(url, options);
    if (!('location' in result)) return result;
    url = new URL(result.location, url);
  }
  throw new AppError('SPEC_UNREADABLE', `import: too many redirects fetching ${options.what} ${redact(rawUrl)}`);
}

/** Text (UTF-8) of `url` with redirects followed (at most 5), every hop checked; throws AppError. */
export async function fetchText(rawUrl: string, options: FetchOptions): Promise<string> {
  return (await fetchBody(rawUrl, options)).bytes.toString('utf8');
}

/** A URL as it may be shown: no credentials, no query string (tokens often travel there). */
export function redact(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return '<invalid URL>';
  }
}

function fetchOnce(url: URL, options: FetchOptions): Promise<FetchedBody | { location: string }> {
  const shown = redact(url.toString());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new AppError('SPEC_REF_REFUSED', `import: ${options.what} ${shown} uses ${url.protocol}; only http(s) is allowed`));
  }
  const trusted = options.trustedOrigin !== undefined && url.origin === options.trustedOrigin;
  const host = hostOf(url);
  if (!trusted && isIpLiteral(host)) {
    const verdict = checkAddress(host);
    if (!verdict.allowed) return Promise.reject(refused(options.what, shown, verdict.address, verdict.reason));
  }
  return new Promise((resolvePromise, reject) => {
    const lookup = trusted ? undefined : guardedLookup();
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.get(url, { ...(lookup !== undefined ? { lookup } : {}), timeout: options.timeoutMs, headers: { accept: 'application/json, application/yaml, */*' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolvePromise({ location: res.headers.location });
        return;
      }
      if (status !== 200) {
        res.resume();
        reject(new AppError('SPEC_UNREADABLE', `import: ${options.what} ${shown} answered HTTP ${status}; check the URL`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          req.destroy();
          reject(new AppError('SPEC_TOO_LARGE', `import: ${options.what} ${shown} is larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      const contentType = res.headers['content-type'];
      res.on('end', () => resolvePromise({ bytes: Buffer.concat(chunks), ...(contentType !== undefined && contentType !== '' ? { contentType } : {}) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new AppError('SPEC_UNREADABLE', `import: ${options.what} ${shown} timed out after ${options.timeoutMs} ms`)));
    req.on('error', (err: unknown) => {
      if (err instanceof AppError) return reject(err);
      const refusal = addressRefusal(err);
      if (refusal !== undefined) return reject(refused(options.what, shown, refusal.address, refusal.reason));
      const reason = err instanceof Error ? err.message : String(err);
      reject(new AppError('SPEC_UNREADABLE', `import: cannot fetch ${options.what} ${shown} (${reason}); check the URL and the network`, { cause: err }));
    });
  });
}

function refused(what: string, shown: string, address: string, reason: string): AppError {
  return new AppError(
    'SPEC_REF_REFUSED',
    `import: ${what} ${shown} resolves to a private or loopback address (${address}), ${reason}; refused (only the spec URL you pass may be local)`,
  );
}
