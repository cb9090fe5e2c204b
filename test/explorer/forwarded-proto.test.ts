// One reading of X-Forwarded-Proto for the whole HTTP server: the explorer's login cookie gets `Secure` exactly when
// the transport's own view of the request (the endpoint /mcp's page shows a browser) is https. Real requests to a
// real server on 127.0.0.1, with the header as proxies send it: one value, any case, a list (the proxy nearest the
// client first), two header lines, none; and an https --public-url, which says https whatever the header.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COOKIE_NAME } from '../../src/server/explorer/index.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';

const STATIC = 'forwarded-proto-static-token-7d31e9';
let direct: HttpHandle;
let publicSrv: HttpHandle;

const deps = () => ({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 });

beforeAll(async () => {
  direct = await serveHttp(deps(), { port: 0, explorer: true, authToken: STATIC });
  publicSrv = await serveHttp(deps(), { port: 0, explorer: true, authToken: STATIC, publicUrl: 'https://mcp.example.com/mcp' });
});
afterAll(async () => {
  await Promise.all([direct, publicSrv].map((s) => s?.close()));
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request; a header given as an array is sent as that many header lines (node:http does so). */
function send(port: number, method: string, path: string, headers: Record<string, string | string[]>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The two views of one forwarded request: the login cookie's Secure flag, and the endpoint the /mcp page shows. */
async function views(srv: HttpHandle, forwarded: Record<string, string | string[]>): Promise<{ secureCookie: boolean; endpoint: string }> {
  const login = await send(srv.port, 'POST', '/explorer/login', { 'content-type': 'application/x-www-form-urlencoded', ...forwarded }, `token=${STATIC}&next=%2F`);
  expect(login.status).toBe(303);
  const cookie = String(login.headers['set-cookie']);
  expect(cookie).toMatch(new RegExp(`^${COOKIE_NAME}=`));
  const page = await send(srv.port, 'GET', '/mcp', { accept: 'text/html', ...forwarded });
  expect(page.status).toBe(200);
  const endpoint = /&quot;url&quot;: &quot;([^&]+)&quot;/.exec(page.body)?.[1] ?? /"url": "([^"]+)"/.exec(page.body)?.[1];
  expect(endpoint, page.body).toBeDefined();
  return { secureCookie: /; Secure$/.test(cookie), endpoint: endpoint as string };
}

describe('X-Forwarded-Proto: the login cookie and the transport agree', () => {
  const cases: Array<[string, Record<string, string | string[]>, boolean]> = [
    ['https', { 'x-forwarded-proto': 'https' }, true],
    ['HTTPS (any case)', { 'x-forwarded-proto': 'HTTPS' }, true],
    ['a list, the nearest proxy first', { 'x-forwarded-proto': ' https , http' }, true],
    ['two header lines, https first', { 'x-forwarded-proto': ['https', 'http'] }, true],
    ['http', { 'x-forwarded-proto': 'http' }, false],
    ['a list with https second', { 'x-forwarded-proto': 'http, https' }, false],
    ['not a scheme', { 'x-forwarded-proto': 'httpsx' }, false],
    ['no header', {}, false],
  ];
  test.each(cases)('%s', async (_name, forwarded, https) => {
    const seen = await views(direct, forwarded);
    expect(seen).toEqual({ secureCookie: https, endpoint: `${https ? 'https' : 'http'}://127.0.0.1:${direct.port}/mcp` });
  });

  test('an https --public-url: https for both, whatever the proxy says', async () => {
    const headers: Array<Record<string, string>> = [{}, { 'x-forwarded-proto': 'http' }];
    for (const forwarded of headers) {
      expect(await views(publicSrv, forwarded)).toEqual({ secureCookie: true, endpoint: 'https://mcp.example.com/mcp' });
    }
  });
});
