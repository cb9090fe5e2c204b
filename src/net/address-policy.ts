// The one answer to "may we connect to this address?", for the importer (spec URLs, `$ref`s) and execution
// (upstream calls) alike: only public unicast addresses, judged by ipaddr.js's IANA special-purpose tables
// (RFC 6890 and successors), with IPv4 embedded in IPv6 (mapped, NAT64, 6to4, Teredo) judged as that IPv4.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** Why an address is refused, or that it is allowed. `address` is the literal as judged (brackets removed). */
export type AddressVerdict = { allowed: true; address: string } | { allowed: false; address: string; reason: string };

/**
 * Public addresses that are not public services: Azure's WireServer / instance metadata virtual IP answers
 * only inside Azure, and is the cloud-metadata address that no special-purpose range covers.
 */
const METADATA_V4 = new Map([['168.63.129.16', 'the Azure platform (WireServer, cloud metadata) address']]);

/** Readable names of ipaddr.js's range names, for refusals. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local (cloud metadata lives here: 169.254.169.254)',
  loopback: 'loopback',
  carrierGradeNat: 'shared address space (100.64.0.0/10, carrier-grade NAT)',
  private: 'private (RFC 1918)',
  reserved: 'reserved or documentation',
  as112: 'AS112 (DNS sink)',
  amt: 'AMT relay anycast',
  uniqueLocal: 'unique local (fc00::/7)',
  deprecatedSiteLocal: 'site-local (fec0::/10)',
  discard: 'discard-only (100::/64)',
  benchmarking: 'benchmarking',
  as112v6: 'AS112 (DNS sink)',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'drone remote ID tags',
  segmentRouting: 'segment routing (5f00::/16)',
};

/** Bare IP text of a host as URL.hostname gives it (`[::1]` -> `::1`). */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Is `host` an IP literal (any form ipaddr.js parses: `127.1`, `0x7f000001`, `[::1]`, ...)? */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(bareHost(host));
}

function judgeV4(ip: ipaddr.IPv4, shown: string, via?: string): AddressVerdict {
  const text = ip.toString();
  const suffix = via !== undefined ? ` (${via} of ${text})` : '';
  const metadata = METADATA_V4.get(text);
  if (metadata !== undefined) return { allowed: false, address: shown, reason: `${metadata}${suffix}` };
  const range = ip.range();
  if (range === 'unicast') return { allowed: true, address: shown };
  return { allowed: false, address: shown, reason: `${RANGE_NAMES[range] ?? range}${suffix}` };
}

function fromBytes(bytes: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes);
}

function judgeV6(ip: ipaddr.IPv6, shown: string): AddressVerdict {
  const range = ip.range();
  const bytes = ip.toByteArray();
  switch (range) {
    // IPv4 inside IPv6: the embedded IPv4 decides (a NAT64 or 6to4 gateway would carry the connection there).
    case 'ipv4Mapped':
    case 'rfc6145':
      return judgeV4(fromBytes(bytes.slice(12)), shown, 'IPv4-mapped form');
    case 'rfc6052': {
      // 64:ff9b::/96 embeds the IPv4 in its last 32 bits; the local-use 64:ff9b:1::/48 is a private network.
      if (ip.parts[2] !== 0) return { allowed: false, address: shown, reason: 'local-use NAT64 (64:ff9b:1::/48)' };
      return judgeV4(fromBytes(bytes.slice(12)), shown, 'NAT64 form');
    }
    case '6to4':
      // 2002:AABB:CCDD::/48 routes to the IPv4 AA.BB.CC.DD (RFC 3056).
      return judgeV4(fromBytes(bytes.slice(2, 6)), shown, '6to4 form');
    case 'teredo': {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC: server IPv4, then the client's IPv4 XOR 0xffffffff (RFC 4380).
      const server = judgeV4(fromBytes(bytes.slice(4, 8)), shown, 'Teredo server form');
      if (!server.allowed) return server;
      return judgeV4(fromBytes(bytes.slice(12).map((b) => b ^ 0xff)), shown, 'Teredo client form');
    }
    case 'unicast':
      // Only 2000::/3 is allocated global unicast; ::/8 holds the deprecated IPv4-compatible form (::127.0.0.1).
      if (ip.match(ipaddr.IPv6.parse('2000::'), 3)) return { allowed: true, address: shown };
      return { allowed: false, address: shown, reason: 'outside global unicast (2000::/3)' };
    default:
      return { allowed: false, address: shown, reason: RANGE_NAMES[range] ?? range };
  }
}

/**
 * May we connect to this IP address? Only public unicast: loopback, private, link-local (cloud metadata),
 * CGNAT, ULA, multicast, documentation, benchmarking and every other special-purpose range are refused, and so
 * is an IPv6 address whose embedded IPv4 (mapped, NAT64, 6to4, Teredo) is. A string that is not an IP address
 * is refused ("not an IP address"): a host name must be resolved first (see guardedLookup).
 */
export function checkAddress(address: string): AddressVerdict {
  const shown = bareHost(address);
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // ipaddr.parse accepts what inet_aton does (127.1, 0x7f000001, 0177.0.0.1) and IPv6 zone ids (fe80::1%eth0).
    ip = ipaddr.parse(shown);
  } catch {
    return { allowed: false, address: shown, reason: 'not an IP address' };
  }
  return ip.kind() === 'ipv4' ? judgeV4(ip as ipaddr.IPv4, shown) : judgeV6(ip as ipaddr.IPv6, shown);
}

/** True when checkAddress allows it. */
export function isPublicAddress(address: string): boolean {
  return checkAddress(address).allowed;
}

/**
 * A host whose connections stay on this machine: `localhost` itself (the hosts file answers it) or an address in
 * 127.0.0.0/8 or ::1 (also IPv4-mapped, and the other spellings ipaddr.js parses).
 * Callers let credentials go over plain http to it (execution's plainHttpCheck, import's warning), so a name
 * counts only if the connection cannot leave the machine. `*.localhost` (RFC 6761) and `localhost.` do not: the
 * system resolver looks them up like any name, and a search domain or a wildcard DNS answer can point them
 * anywhere; nothing pins them to 127.0.0.1 at connect time.
 */
export function isLoopbackHost(host: string): boolean {
  const h = bareHost(host).toLowerCase();
  if (h === 'localhost') return true;
  if (!ipaddr.isValid(h)) return false;
  const ip = ipaddr.process(h); // IPv4-mapped IPv6 -> IPv4
  return ip.range() === 'loopback';
}

/** The error a guarded lookup fails with; callers turn it into their own AppError. */
export class AddressRefused extends Error {
  readonly code = 'E_ADDRESS_REFUSED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(`${host} resolves to ${address}, ${reason}`);
    this.name = 'AddressRefused';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Resolver = (hostname: string, options: { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for net/tls.connect (and undici's `connect` option) that resolves every address of the host and
 * fails with AddressRefused if any of them is refused by checkAddress, so a DNS answer cannot point a public
 * name at a private address (the connection is made to the address checked: no rebinding window). `resolve`
 * defaults to dns.lookup (tests give a table).
 */
export function guardedLookup(resolve: Resolver = dnsLookup as unknown as Resolver) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolve(hostname, { all: true }, (err, addresses) => {
      if (err !== null) {
        callback(err, []);
        return;
      }
      const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : undefined;
      const usable = family === undefined ? addresses : addresses.filter((a) => a.family === family);
      for (const a of addresses) {
        const verdict = checkAddress(a.address);
        if (!verdict.allowed) {
          callback(new AddressRefused(hostname, a.address, verdict.reason) as unknown as NodeJS.ErrnoException, []);
          return;
        }
      }
      const first = usable[0];
      if (first === undefined) {
        const e = new Error(`no address for ${hostname}`) as NodeJS.ErrnoException;
        e.code = 'ENOTFOUND';
        callback(e, []);
        return;
      }
      if (options.all === true) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}

/** The AddressRefused in an error's cause chain (undici wraps connect errors), if any. */
export function addressRefusal(err: unknown): AddressRefused | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e !== null && typeof e === 'object'; i++) {
    if (e instanceof AddressRefused) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
