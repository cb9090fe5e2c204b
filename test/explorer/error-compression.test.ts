// The explorer's error pages are compressed as its other pages are (src/server/explorer/compress.ts), over real HTTP:
// its own 404s and login page (index.ts), and the refusal and failure pages the transport writes for a browser
// (src/server/transports/http-pages.ts: a Host or Origin it does not accept, a replica that is draining or starting,
// a page that failed while it was built). Each says `Vary: Accept-Encoding`, keeps its status and own headers
// (Retry-After, the refused-Host page's CSP), and decodes to the very page an uncompressed request gets; a body under
// MIN_COMPRESS_BYTES goes as it is.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { MIN_COMPRESS_BYTES } from '../../src/server/explorer/compress.js';
import { drainingPage, failedPage, hostRefusedPage, originRefusedPage, sendErrorPage, startingPage, type ErrorPage } from '../../src/server/transports/http-pages.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const TOKEN = 'error-compression-static-token-9c2f';
let srv: HttpHandle;
let withToken: HttpHandle;
let bare: Server;
/** The page the bare server answers with, by path (the transport's own function writes it). */
const PAGES: Record<string, ErrorPage> = {
  '/host': hostRefusedPage('evil.example'),
  '/origin': originRefusedPage('https://evil.example'),
  '/draining': drainingPage(2),
  '/starting': startingPage(),
  '/stale': failedPage(new AppError('REGISTRY_STALE', 'changed on disk')),
  '/failed': failedPage(new Error('boom')),
};

beforeAll(async () => {
  const deps = () => ({ catalogs: loadCatalogSet([]), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 });
  srv = await serveHttp(deps(), { port: 0, explorer: true });
  withToken = await serveHttp(deps(), { port: 0, explorer: true, authToken: TOKEN });
  bare = createServer((req, res) => void sendErrorPage(req, res, PAGES[req.url ?? ''] ?? failedPage(undefined)));
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await Promise.all([srv?.close(), withToken?.close(), new Promise((resolve) => (bare ? bare.close(resolve) : resolve(undefined)))]);
});

function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(a: Answer): string {
  const coding = a.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(a.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(a.body).toString('utf8');
  expect(coding).toBeUndefined();
  return a.body.toString('utf8');
}

function varies(a: Answer): boolean {
  return String(a.headers.vary ?? '').split(',').some((v) => v.trim().toLowerCase() === 'accept-encoding');
}

const PAGE = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/**
 * The page at `path` asked for as it is, in brotli and in gzip (and as a HEAD): compressed when large enough, the same
 * status, headers and text either way. Returns the uncompressed size.
 */
async function expectCompressed(port: number, path: string, status: number, headers: Record<string, string> = {}): Promise<number> {
  const plain = await send(port, 'GET', path, { ...PAGE, ...headers });
  expect(plain.status).toBe(status);
  expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(varies(plain), `${path}: Vary`).toBe(true);
  expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
  const big = plain.body.length >= MIN_COMPRESS_BYTES;
  for (const coding of ['br', 'gzip'] as const) {
    const a = await send(port, 'GET', path, { ...PAGE, ...headers, 'accept-encoding': coding });
    expect(a.status).toBe(status);
    expect(a.headers['content-encoding'], `${path} in ${coding}`).toBe(big ? coding : undefined);
    expect(varies(a)).toBe(true);
    expect(Number(a.headers['content-length'])).toBe(a.body.length);
    for (const h of ['content-type', 'content-security-policy', 'cache-control', 'retry-after', 'www-authenticate', 'x-frame-options']) {
      expect(a.headers[h], h).toBe(plain.headers[h]);
    }
    expect(decoded(a)).toBe(plain.body.toString('utf8'));
    if (big) expect(a.body.length).toBeLessThan(plain.body.length);
    const head = await send(port, 'HEAD', path, { ...PAGE, ...headers, 'accept-encoding': coding });
    expect(head.status).toBe(status);
    expect(head.headers['content-encoding']).toBe(a.headers['content-encoding']);
    expect(head.headers['content-length']).toBe(a.headers['content-length']);
    expect(head.body.length).toBe(0);
  }
  return plain.body.length;
}

describe("the explorer's own error pages", () => {
  test('404s (an unknown view, operation, domain or explorer path) and the 401 login page', async () => {
    expect(await expectCompressed(srv.port, '/?view=nope', 404)).toBeGreaterThanOrEqual(MIN_COMPRESS_BYTES);
    await expectCompressed(srv.port, '/?tool=no.such.tool', 404);
    await expectCompressed(srv.port, '/?domain=nope', 404);
    await expectCompressed(srv.port, '/explorer/nope', 404);
    await expectCompressed(srv.port, '/robots.txt', 404);
    await expectCompressed(withToken.port, '/', 401);
  });
});

describe("the transport's refusal and failure pages", () => {
  test('a Host or Origin the server does not accept (403), end to end', async () => {
    expect(await expectCompressed(srv.port, '/', 403, { host: 'evil.example' })).toBeGreaterThanOrEqual(MIN_COMPRESS_BYTES);
    expect(await expectCompressed(srv.port, '/', 403, { origin: 'https://evil.example' })).toBeGreaterThanOrEqual(MIN_COMPRESS_BYTES);
  });

  test('each page sendErrorPage writes: refused Host and Origin, draining, starting, reloading, failed', async () => {
    const port = (bare.address() as AddressInfo).port;
    const statuses: Record<string, number> = { '/host': 403, '/origin': 403, '/draining': 503, '/starting': 503, '/stale': 503, '/failed': 500 };
    for (const [path, status] of Object.entries(statuses)) await expectCompressed(port, path, status);
    const draining = await send(port, 'GET', '/draining', { ...PAGE, 'accept-encoding': 'br' });
    expect(draining.headers['retry-after']).toBe('2');
    expect(draining.headers.connection).toBe('close');
    // a small page goes as it is, unless the browser refuses identity (the explorer's own rule, compress.ts)
    const failed = await send(port, 'GET', '/failed', { ...PAGE, 'accept-encoding': 'gzip, identity;q=0' });
    expect(failed.headers['content-encoding']).toBe('gzip');
    expect(decoded(failed)).toContain('The server failed while it built this page.');
    expect(decoded(failed)).not.toContain('boom');
  });
});
