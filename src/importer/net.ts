// Network access for the importer (build time only): fetching a spec URL the user typed, and `$ref`s to http(s)
// documents. Refs must never reach loopback, private, link-local or metadata addresses (RELIABILITY D3): literal
// IPs are checked before any socket is opened and host names are checked at connection time (DNS result pinned
// through `lookup`, so a rebinding answer cannot slip through). Sizes and times are capped.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { AppError } from '../errors.js';

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** True for loopback, private (RFC 1918, ULA), link-local (incl. 169.254.169.254), CGNAT, multicast, reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return BLOCKED.check(mapped[1], 'ipv4');
    return BLOCKED.check(address, 'ipv6');
  }
  return true; // not an IP at all: refuse rather than guess
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

/** Text of `url` with redirects followed (at most 5), every hop checked; throws AppError. */
export async function fetchText(rawUrl: string, options: FetchOptions): Promise<string> {
  let url = new URL(rawUrl);
  for (let hop = 0; hop < 6; hop++) {
    const result = await fetchOnce(url, options);
    if (typeof result === 'string') return result;
    url = new URL(result.location, url);
  }
  throw new AppError('SPEC_UNREADABLE', `import: too many redirects fetching ${options.what} ${redact(rawUrl)}`);
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

function fetchOnce(url: URL, options: FetchOptions): Promise<string | { location: string }> {
  const shown = redact(url.toString());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new AppError('SPEC_REF_REFUSED', `import: ${options.what} ${shown} uses ${url.protocol}; only http(s) is allowed`));
  }
  const trusted = options.trustedOrigin !== undefined && url.origin === options.trustedOrigin;
  const host = hostOf(url);
  if (!trusted && isIP(host) !== 0 && isPrivateAddress(host)) {
    return Promise.reject(refused(options.what, shown, host));
  }
  return new Promise((resolvePromise, reject) => {
    const lookup = (
      hostname: string,
      opts: object,
      cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
    ): void => {
      dnsLookup(hostname, { all: true }, (err, addresses) => {
        if (err) return cb(err, '', 0);
        const bad = addresses.find((a) => isPrivateAddress(a.address));
        if (!trusted && bad) return cb(refused(options.what, shown, bad.address) as NodeJS.ErrnoException, '', 0);
        if ((opts as { all?: boolean }).all) return cb(null, addresses);
        const first = addresses[0];
        if (!first) return cb(new Error(`no address for ${hostname}`), '', 0);
        cb(null, first.address, first.family);
      });
    };
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.get(url, { lookup, timeout: options.timeoutMs, headers: { accept: 'application/json, application/yaml, */*' } }, (res) => {
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
      res.on('end', () => resolvePromise(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new AppError('SPEC_UNREADABLE', `import: ${options.what} ${shown} timed out after ${options.timeoutMs} ms`)));
    req.on('error', (err: unknown) => {
      if (err instanceof AppError) return reject(err);
      const reason = err instanceof Error ? err.message : String(err);
      reject(new AppError('SPEC_UNREADABLE', `import: cannot fetch ${options.what} ${shown} (${reason}); check the URL and the network`, { cause: err }));
    });
  });
}

function refused(what: string, shown: string, address: string): AppError {
  return new AppError(
    'SPEC_REF_REFUSED',
    `import: ${what} ${shown} resolves to a private or loopback address (${address}); refused (only the spec URL you pass may be local)`,
  );
}
