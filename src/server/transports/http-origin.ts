// Which requests may reach the HTTP endpoint by where they say they come from: the Host header (DNS-rebinding
// protection: loopback or the bound address on our port, the --public-url's host, --allow-host values) and a browser
// page's Origin (--allow-origin values, a loopback page on our port, the --public-url's origin, or the page's own).
// Pure checks on header values; the transport (http.ts) answers the refusals.
import { isLoopbackHost, isWildcardHost, parseAllowHost } from '../../config.js';

/**
 * A Host header read as a URL reads it: its hostname (an IPv6 literal in brackets) and port (80 when none), or
 * undefined when it is no bare host and port (user info, a path, a query: never a Host a client sends).
 */
export function hostOf(hostHeader: string | undefined): { hostname: string; port: string } | undefined {
  if (!hostHeader) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${hostHeader}`);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return undefined;
  return { hostname: url.hostname, port: url.port === '' ? '80' : url.port };
}

/** `[::1]` -> `::1`, lower case. */
export function bare(hostname: string): string {
  const h = hostname.toLowerCase();
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

export interface HostOriginOptions {
  /** The address bound. */
  host: string;
  /** The port listened on (known once listening; no request arrives before). */
  port: () => number;
  publicUrl?: URL;
  allowHosts: readonly string[];
  allowOrigins: readonly string[];
}

export interface HostOriginPolicy {
  allowedHost(hostHeader: string | undefined): boolean;
  allowedOrigin(origin: string, hostHeader: string | undefined): boolean;
}

export function hostOriginPolicy(o: HostOriginOptions): HostOriginPolicy {
  const { publicUrl } = o;
  /** Host names (lower case, IPv6 without brackets) with the port they must come with; undefined: any port. */
  const extraHosts: Array<{ name: string; port?: string }> = [];
  // The canonical public name is this server's own: a proxy forwards it (with or without the port).
  if (publicUrl !== undefined) extraHosts.push({ name: bare(publicUrl.hostname) });
  for (const entry of o.allowHosts) {
    const allowed = parseAllowHost(entry);
    if (allowed !== undefined) extraHosts.push({ name: bare(allowed.host), ...(allowed.port !== undefined ? { port: allowed.port } : {}) });
  }
  const boundHost = bare(o.host);
  const wildcardBind = isWildcardHost(boundHost);

  return {
    allowedHost(hostHeader) {
      const host = hostOf(hostHeader);
      if (host === undefined) return false;
      const name = bare(host.hostname);
      const effectivePort = host.port;
      if (effectivePort === String(o.port()) && (isLoopbackHost(name) || (!wildcardBind && name === boundHost))) return true;
      return extraHosts.some((h) => h.name === name && (h.port === undefined || h.port === effectivePort));
    },

    /**
     * Whether a browser page of `origin` may call this server: an --allow-origin value, a loopback page on our port,
     * the --public-url's origin (this server's own, behind its proxy), or the page's own origin: an Origin whose
     * host[:port] is exactly the request's Host, which the Host allow-list has already accepted (so a DNS-rebound name
     * stays refused). Browsers send Origin on every form POST, same-origin ones included (the explorer's login).
     */
    allowedOrigin(origin, hostHeader) {
      if (o.allowOrigins.includes(origin)) return true;
      if (origin === 'null') return false;
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false;
      }
      // only a bare, canonical origin (scheme://host[:port], lower case): never a path or userinfo passed off as one
      if (url.origin !== origin.toLowerCase() || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
      if (url.protocol === 'http:' && isLoopbackHost(url.hostname) && url.port === String(o.port())) return true;
      if (publicUrl !== undefined && url.origin === publicUrl.origin) return true;
      return hostHeader !== undefined && url.host === hostHeader.toLowerCase();
    },
  };
}
