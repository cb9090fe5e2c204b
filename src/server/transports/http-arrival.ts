// The Host a client names when it dials this process's own IP address directly: a Prometheus scrape of a pod IP, a
// probe, or a client of a replica bound to 0.0.0.0 / ::, where no --allow-host can list the address (pod IPs change
// on every reschedule). DNS rebinding needs a *name* the attacker controls that resolves here; a Host that is the
// very IP literal and port the connection arrived on names nothing an attacker can point elsewhere, so it is as safe
// to accept as the bound address itself. Any other name or IP still goes through http-origin.ts's allow-list.
import { isIP } from 'node:net';
import { hostOf } from './http-origin.js';

/**
 * One canonical text per IP address: IPv4 dotted, IPv6 in URL (WHATWG) form without brackets, an IPv4-mapped IPv6
 * address (`::ffff:192.0.2.2`, what a dual-stack socket reports for an IPv4 client) as its IPv4 address, a zone
 * (`%eth0`) dropped. Undefined for anything that is not an IP literal (a name).
 */
export function canonicalIp(address: string): string | undefined {
  const noZone = address.replace(/%.*$/, '');
  const family = isIP(noZone);
  if (family === 0) return undefined;
  let hostname: string;
  try {
    hostname = new URL(family === 6 ? `http://[${noZone}]/` : `http://${noZone}/`).hostname;
  } catch {
    return undefined;
  }
  if (family === 4) return hostname;
  const v6 = hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped === null) return v6;
  const hi = parseInt(mapped[1] as string, 16);
  const lo = parseInt(mapped[2] as string, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Whether `hostHeader` is exactly the IP literal and port this connection arrived on (`localAddress`, `localPort`
 * of its socket): `192.0.2.2:3001`, `[fd00::2]:3001`, or `192.0.2.2` on port 80. Names never are.
 */
export function namesArrivalAddress(hostHeader: string | undefined, localAddress: string | undefined, localPort: number | undefined): boolean {
  const host = hostOf(hostHeader);
  if (host === undefined || localAddress === undefined || localPort === undefined) return false;
  if (host.port !== String(localPort)) return false;
  const named = canonicalIp(host.hostname.startsWith('[') ? host.hostname.slice(1, -1) : host.hostname);
  // a name (even one that looks numeric to a resolver but not to URL) is never the arrival address
  if (named === undefined) return false;
  return named === canonicalIp(localAddress);
}
