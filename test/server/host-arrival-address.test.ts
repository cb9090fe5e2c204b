// A replica bound to every interface (0.0.0.0, ::) answers a client that names the IP and port the connection arrived
// on (audit ops50 #3: Prometheus scraping `http://<pod IP>:<port>/metrics` got 403 "Host header not allowed"), on every
// path, while a Host naming another IP, another port or a name stays refused (DNS-rebinding protection). Real HTTP to
// this machine's own non-loopback addresses; the address forms (IPv6 brackets, IPv4-mapped IPv6) are checked on the
// pure function too, so they are covered where the machine has no such interface.
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OpsMetrics } from '../../src/server/ops/metrics.js';
import { namesArrivalAddress } from '../../src/server/transports/http-arrival.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';

const TOKEN = 'arrival-address-token-3c9e1f7a2b';
const external = Object.values(networkInterfaces())
  .flat()
  .filter((i) => i !== undefined && !i.internal);
const v4 = external.find((i) => i?.family === 'IPv4')?.address;
const v6 = external.find((i) => i?.family === 'IPv6' && !i.address.toLowerCase().startsWith('fe80'))?.address;

interface Answer {
  status: number;
  body: string;
}

/** One request to `address`:`port` with exactly the Host given. */
function get(address: string, port: number, path: string, host: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, authorization: `Bearer ${TOKEN}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    const req = httpRequest({ host: address, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const deps = () => ({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} } });
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe('the Host naming the arrival address (pure)', () => {
  test.each([
    ['192.0.2.2:3001', '192.0.2.2', 3001],
    ['192.0.2.2:3001', '::ffff:192.0.2.2', 3001],
    ['[::ffff:192.0.2.2]:3001', '::ffff:192.0.2.2', 3001],
    ['[::ffff:c000:202]:3001', '192.0.2.2', 3001],
    ['[fd00::2]:3001', 'fd00::2', 3001],
    ['[FD00:0:0::2]:3001', 'fd00::2', 3001],
    ['[fe80::1]:3001', 'fe80::1%eth0', 3001],
    ['192.0.2.2', '192.0.2.2', 80],
  ] as const)('%s arriving on %s port %s: accepted', (host, local, port) => {
    expect(namesArrivalAddress(host, local, port)).toBe(true);
  });
  test.each([
    ['192.0.2.3:3001', '192.0.2.2', 3001],
    ['192.0.2.2:3002', '192.0.2.2', 3001],
    ['192.0.2.2', '192.0.2.2', 3001],
    ['rebind.example:3001', '192.0.2.2', 3001],
    ['192.0.2.2.nip.io:3001', '192.0.2.2', 3001],
    ['[fd00::3]:3001', 'fd00::2', 3001],
    ['u@192.0.2.2:3001', '192.0.2.2', 3001],
    ['192.0.2.2:3001/x', '192.0.2.2', 3001],
    ['', '192.0.2.2', 3001],
    [undefined, '192.0.2.2', 3001],
  ] as const)('%s arriving on %s port %s: refused', (host, local, port) => {
    expect(namesArrivalAddress(host, local, port)).toBe(false);
  });
});

describe.each([
  ['0.0.0.0', v4],
  ['::', v4],
  ['::', v6],
] as const)('bound to %s, reached on %s', (bind, address) => {
  let srv: HttpHandle;
  beforeAll(async () => {
    if (address === undefined) return;
    srv = await serveHttp(deps(), { host: bind, port: 0, allowRemote: true, authToken: TOKEN, allowHosts: ['mcp.example.com'], metrics: new OpsMetrics({ version: 'test' }) });
  });
  afterAll(async () => {
    await srv?.close();
  });
  const shown = (a: string) => (a.includes(':') ? `[${a}]` : a);

  test.skipIf(address === undefined)('/metrics and /mcp answer a Host naming the address and port the client dialled', async () => {
    const a = address as string;
    const scrape = await get(a, srv.port, '/metrics', `${shown(a)}:${srv.port}`);
    expect(scrape.status, scrape.body).toBe(200);
    expect(scrape.body).toContain('api_catalog_ready');
    const init = await get(a, srv.port, '/mcp', `${shown(a)}:${srv.port}`, 'POST', LIST);
    expect(init.status, init.body).toBe(200);
    // the names already allowed still are
    expect((await get(a, srv.port, '/metrics', 'mcp.example.com')).status).toBe(200);
  });

  test.skipIf(address === undefined)('a Host naming another IP, another port or a name is still refused', async () => {
    const a = address as string;
    const other = a.includes(':') ? '[2001:db8::7]' : '198.51.100.7';
    for (const host of [`${other}:${srv.port}`, `${shown(a)}:${srv.port + 1}`, shown(a), `rebind.example:${srv.port}`, `${a.includes(':') ? 'x' : a}.nip.io:${srv.port}`]) {
      for (const path of ['/metrics', '/mcp']) {
        const r = await get(a, srv.port, path, host, path === '/mcp' ? 'POST' : 'GET', path === '/mcp' ? LIST : undefined);
        expect(r.status, `${host} ${path}`).toBe(403);
        expect(r.body).toMatch(/Host header not allowed/);
      }
    }
  });
});
