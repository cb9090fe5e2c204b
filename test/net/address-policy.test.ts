// The one address policy (src/net/address-policy.ts), as one table: every special-purpose range refused, public
// unicast allowed, IPv4 embedded in IPv6 judged as that IPv4; then names resolved through the guarded lookup, and
// redirects followed by the importer and by execution, which both use it.
import { createServer, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused, checkAddress, guardedLookup, isIpLiteral, isLoopbackHost } from '../../src/net/address-policy.js';
import { fetchText } from '../../src/importer/net.js';
import { executeOperation } from '../../src/execution/index.js';
import { catalog, op } from '../execution/fixtures.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

// [address, allowed, reason pattern (refused) or undefined]
const TABLE: Array<[string, boolean, RegExp?]> = [
  // public unicast
  ['8.8.8.8', true],
  ['140.82.112.3', true],
  ['172.32.0.1', true], // just past 172.16.0.0/12
  ['100.128.0.1', true], // just past 100.64.0.0/10
  ['2606:4700:4700::1111', true],
  ['[2606:4700:4700::1111]', true],
  ['::ffff:8.8.8.8', true],
  ['64:ff9b::808:808', true], // NAT64 of 8.8.8.8 (DNS64 gives these on IPv6-only networks)
  ['2002:808:808::1', true], // 6to4 of 8.8.8.8
  ['2001:0:4136:e378:8000:63bf:f7f7:fbfb', true], // Teredo: server 65.54.227.120, client 8.8.4.4
  // RFC 6890 IPv4 and friends
  ['0.0.0.0', false, /unspecified/],
  ['0.1.2.3', false, /unspecified/],
  ['10.0.0.1', false, /private/],
  ['172.16.0.1', false, /private/],
  ['172.31.255.255', false, /private/],
  ['192.168.1.1', false, /private/],
  ['100.64.0.1', false, /carrier-grade NAT/],
  ['100.100.100.200', false, /carrier-grade NAT/], // Alibaba Cloud metadata
  ['127.0.0.1', false, /loopback/],
  ['127.255.255.254', false, /loopback/],
  ['127.1', false, /loopback/], // inet_aton short form
  ['2130706433', false, /loopback/], // decimal
  ['0x7f000001', false, /loopback/], // hex
  ['0177.0.0.1', false, /loopback/], // octal
  ['169.254.169.254', false, /link-local.*metadata/], // AWS, GCP, Azure IMDS
  ['169.254.170.2', false, /link-local/], // ECS task metadata
  ['168.63.129.16', false, /Azure/], // Azure WireServer: a public-range address
  ['192.0.0.8', false, /reserved/],
  ['192.0.2.1', false, /reserved/],
  ['192.88.99.1', false, /reserved/],
  ['198.18.0.1', false, /reserved/],
  ['198.51.100.1', false, /reserved/],
  ['203.0.113.1', false, /reserved/],
  ['224.0.0.1', false, /multicast/],
  ['240.0.0.1', false, /reserved/],
  ['255.255.255.255', false, /broadcast/],
  // IPv6 special purpose
  ['::', false, /unspecified/],
  ['::1', false, /loopback/],
  ['[::1]', false, /loopback/],
  ['fe80::1', false, /link-local/],
  ['fe80::1%eth0', false, /link-local/],
  ['fc00::1', false, /unique local/],
  ['fd00::1', false, /unique local/],
  ['fd00:ec2::254', false, /unique local/], // AWS IMDS over IPv6
  ['fec0::1', false, /site-local/],
  ['ff02::1', false, /multicast/],
  ['100::1', false, /discard/],
  ['2001:db8::1', false, /documentation/],
  ['2001:2::1', false, /benchmarking/],
  ['3fff::1', false, /documentation/],
  ['5f00::1', false, /segment routing/],
  ['4000::1', false, /global unicast/],
  ['::127.0.0.1', false, /loopback/], // deprecated IPv4-compatible form (ipaddr.js reads it as mapped)
  ['::7f00:1', false, /global unicast/], // the same written in hex: in ::/8, refused as reserved
  // IPv4 embedded in IPv6: the IPv4 decides
  ['::ffff:127.0.0.1', false, /loopback \(IPv4-mapped form/],
  ['::ffff:7f00:1', false, /loopback/],
  ['[::ffff:7f00:1]', false, /loopback/],
  ['::ffff:169.254.169.254', false, /link-local/],
  ['::ffff:0:a00:1', false, /private.*IPv4-mapped form/], // RFC 6145 translated
  ['64:ff9b::7f00:1', false, /loopback \(NAT64 form of 127\.0\.0\.1\)/],
  ['64:ff9b::a9fe:a9fe', false, /link-local.*NAT64/],
  ['64:ff9b::a00:1', false, /private.*NAT64/],
  ['64:ff9b:1::1', false, /local-use NAT64/],
  ['2002:7f00:1::1', false, /loopback \(6to4 form of 127\.0\.0\.1\)/],
  ['2002:a00:1::1', false, /private.*6to4/],
  ['2002:a9fe:a9fe::1', false, /link-local.*6to4/],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', false, /private.*Teredo client form of 10\.0\.0\.1/],
  ['2001:0:a00:1:8000:63bf:f7f7:fbfb', false, /private.*Teredo server form of 10\.0\.0\.1/],
  // not IP addresses at all: a name must go through the lookup
  ['api.example.com', false, /not an IP address/],
  ['localhost', false, /not an IP address/],
  ['', false, /not an IP address/],
  ['8.8.8.8.evil.com', false, /not an IP address/],
  ['[::1', false, /not an IP address/],
  [' 8.8.8.8', false, /not an IP address/],
];

describe('checkAddress: one table for importer and execution', () => {
  it.each(TABLE)('%s -> allowed %s', (address, allowed, reason) => {
    const verdict = checkAddress(address);
    expect(verdict.allowed).toBe(allowed);
    if (!verdict.allowed) expect(verdict.reason).toMatch(reason!);
  });

  it('the importer and execution agree with the table (no second list anywhere)', async () => {
    const { isPrivateAddress } = await import('../../src/importer/net.js');
    for (const [address, allowed] of TABLE) expect(isPrivateAddress(address), address).toBe(!allowed);
  });

  it.each([
    ['localhost', true], ['LOCALHOST', true], ['127.0.0.2', true], ['::1', true], ['[::1]', true], ['::ffff:127.0.0.1', true],
    ['0x7f000001', true], ['10.0.0.1', false], ['example.com', false], ['localhost.example.com', false], ['0.0.0.0', false],
    // Names the system resolver looks up (a search domain or wildcard DNS can answer): not loopback for credentials.
    ['api.localhost', false], ['A.B.LOCALHOST', false], ['localhost.', false], ['LOCALHOST.', false],
  ])('isLoopbackHost(%s) = %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it('knows IP literals in every spelling URL hosts take', () => {
    for (const h of ['127.0.0.1', '[::1]', '::ffff:7f00:1', '2130706433']) expect(isIpLiteral(h), h).toBe(true);
    for (const h of ['api.example.com', 'localhost', '']) expect(isIpLiteral(h), h).toBe(false);
  });
});

describe('names that resolve to refused addresses (guardedLookup)', () => {
  const DNS: Record<string, LookupAddress[]> = {
    'public.test': [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }],
    'private.test': [{ address: '10.0.0.5', family: 4 }],
    'mixed.test': [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }],
    'metadata.google.internal': [{ address: '169.254.169.254', family: 4 }],
    'nat64.test': [{ address: '64:ff9b::a00:1', family: 6 }],
    'rebind.test': [{ address: '::ffff:192.168.0.1', family: 6 }],
  };
  const resolve = (host: string, _o: { all: true }, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void): void => {
    const a = DNS[host];
    if (a === undefined) {
      const e = new Error(`getaddrinfo ENOTFOUND ${host}`) as NodeJS.ErrnoException;
      e.code = 'ENOTFOUND';
      cb(e, []);
    } else cb(null, a);
  };
  const lookup = (host: string, options: { all?: boolean; family?: number } = {}): Promise<{ address: string | LookupAddress[]; family?: number }> =>
    new Promise((res, rej) => guardedLookup(resolve)(host, options, (err, address, family) => (err ? rej(err) : res({ address, ...(family !== undefined ? { family } : {}) }))));

  it('passes public answers through (first address, or all of them, by family)', async () => {
    expect(await lookup('public.test')).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await lookup('public.test', { family: 6 })).toEqual({ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 });
    expect((await lookup('public.test', { all: true })).address).toHaveLength(2);
  });

  it.each([
    ['private.test', '10.0.0.5', /private/],
    ['mixed.test', '127.0.0.1', /loopback/], // any refused answer refuses the name: no picking the good one
    ['metadata.google.internal', '169.254.169.254', /metadata/],
    ['nat64.test', '64:ff9b::a00:1', /NAT64/],
    ['rebind.test', '::ffff:192.168.0.1', /private/],
  ])('%s -> refused (%s)', async (host, address, reason) => {
    const err = await lookup(host).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressRefused);
    expect(err).toMatchObject({ host, address, code: 'E_ADDRESS_REFUSED' });
    expect((err as AddressRefused).reason).toMatch(reason);
  });

  it('a name that does not resolve is the resolver\'s own error', async () => {
    await expect(lookup('nowhere.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('the system resolver: localhost is refused on its resolved address', async () => {
    const err = await new Promise<unknown>((res) => guardedLookup()('localhost', {}, (e) => res(e)));
    expect(err).toBeInstanceOf(AddressRefused);
    expect((err as AddressRefused).reason).toMatch(/loopback/);
  });
});

describe('redirects: every hop passes the policy', () => {
  let trusted: Server;
  let trustedUrl: string;
  let target: Upstream;
  beforeAll(async () => {
    target = await startUpstream();
    trusted = createServer((req, res) => {
      const to = req.url === '/to-literal' ? `${target.url}/spec.json` : req.url === '/to-name' ? `http://localhost:${target.port}/spec.json` : '/final';
      if (req.url === '/final') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        return;
      }
      res.writeHead(302, { location: to }).end();
    });
    await new Promise<void>((r) => trusted.listen(0, '127.0.0.1', r));
    trustedUrl = `http://127.0.0.1:${(trusted.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await target.close();
    await new Promise((r) => trusted.close(r));
  });

  it('import: the spec URL the user typed may be local; a redirect from it to another local origin is refused', async () => {
    const opts = { trustedOrigin: trustedUrl, maxBytes: 1 << 20, timeoutMs: 10_000, what: 'spec' };
    expect(await fetchText(`${trustedUrl}/same-origin`, opts)).toBe('{"ok":true}');
    await expect(fetchText(`${trustedUrl}/to-literal`, opts)).rejects.toMatchObject({ code: 'SPEC_REF_REFUSED', message: expect.stringMatching(/127\.0\.0\.1.*loopback/) });
    await expect(fetchText(`${trustedUrl}/to-name`, opts)).rejects.toMatchObject({ code: 'SPEC_REF_REFUSED', message: expect.stringMatching(/loopback/) });
    expect(target.requests).toHaveLength(0);
  });

  it('execute: a redirect never takes a request to a refused address, even from the exempt base URL', async () => {
    const o = op({ path: '/to-literal' });
    const out = await executeOperation(o, {}, { catalog: catalog(), baseUrl: trustedUrl, env: {}, blockPrivateAddresses: true });
    expect(out).toMatchObject({ ok: false, code: 'UPSTREAM_REDIRECT_REFUSED' });
    const hop = await executeOperation(op({ path: '/same-origin' }), {}, { catalog: catalog(), baseUrl: trustedUrl, env: {}, blockPrivateAddresses: true });
    expect(hop).toMatchObject({ ok: true, status: 200, data: { ok: true } });
    expect(target.requests).toHaveLength(0);
  });
});
