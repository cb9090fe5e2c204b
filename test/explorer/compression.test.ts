// The explorer's answers compressed (src/server/explorer/compress.ts), over real HTTP against the real transport
// serving the embedded GitHub catalog: a page, the stylesheet and the page a browser gets at /mcp come in brotli when
// the request takes it, else gzip, else as they are, each saying `Vary: Accept-Encoding`; the stylesheet's ETag differs
// per coding and a conditional request is answered 304 only for the copy it names; the pages stay `no-store`; /mcp's
// JSON-RPC answers and event streams are never compressed, whatever the request takes.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { negotiate, negotiation } from '../../src/server/explorer/compress.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let srv: HttpHandle;

beforeAll(async () => {
  srv = await serveHttp({ catalogs: loadCatalogSet([]), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0, explorer: true });
});

afterAll(async () => {
  await srv?.close();
});

/** One request; the body's bytes as they came (no decoding). `untilHeaders`: the answer once its headers are in. */
function send(method: string, path: string, headers: Record<string, string>, body?: string, untilHeaders = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: srv.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      if (untilHeaders) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) });
        res.destroy();
        return;
      }
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PAGE = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** The body as text, decoded per its Content-Encoding. */
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

describe('explorer pages and assets', () => {
  for (const [name, path, accept] of [
    ['the home page', '/', PAGE],
    ['a search page', '/?q=create%20an%20issue', PAGE],
    ['the stylesheet', '/explorer/style.css', { accept: 'text/css,*/*;q=0.1' }],
    ['the page a browser gets at /mcp', '/mcp', PAGE],
  ] as const) {
    test(`${name}: brotli, gzip or as it is, as the request takes; the same text; Vary: Accept-Encoding`, async () => {
      const plain = await send('GET', path, accept);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(varies(plain)).toBe(true);
      expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
      const text = plain.body.toString('utf8');
      for (const [acceptEncoding, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip, deflate', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
        ['*', 'br'],
        ['identity', undefined],
        ['deflate', undefined],
      ] as const) {
        const a = await send('GET', path, { ...accept, 'accept-encoding': acceptEncoding });
        expect(a.status).toBe(200);
        expect(a.headers['content-encoding'], acceptEncoding).toBe(coding);
        expect(varies(a)).toBe(true);
        expect(Number(a.headers['content-length'])).toBe(a.body.length);
        expect(a.headers['content-type']).toBe(plain.headers['content-type']);
        expect(a.headers['cache-control']).toBe(plain.headers['cache-control']);
        expect(decoded(a)).toBe(text);
        if (coding !== undefined) expect(a.body.length).toBeLessThan(plain.body.length / 2);
      }
    });
  }

  test('a page stays no-store; a HEAD says what its GET would send, without the body', async () => {
    const get = await send('GET', '/', { ...PAGE, 'accept-encoding': 'br' });
    expect(get.headers['cache-control']).toBe('no-store');
    expect(get.headers.etag).toBeUndefined();
    const head = await send('HEAD', '/', { ...PAGE, 'accept-encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.body.length).toBe(0);
  });

  test("the stylesheet: an ETag per coding, and a 304 only for the copy the request names", async () => {
    const css = { accept: 'text/css,*/*;q=0.1' };
    const copies = await Promise.all(['identity', 'gzip', 'br'].map((e) => send('GET', '/explorer/style.css', { ...css, 'accept-encoding': e })));
    const tags = copies.map((c) => String(c.headers.etag));
    for (const c of copies) {
      expect(c.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(c.headers['cache-control']).toBe('max-age=300');
    }
    expect(new Set(tags).size).toBe(3);
    const [identityTag, gzipTag, brTag] = tags as [string, string, string];
    // the copy the cache holds, asked for again with the coding it was sent in: 304, with the validators
    const again = await send('GET', '/explorer/style.css', { ...css, 'accept-encoding': 'br', 'if-none-match': brTag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(brTag);
    expect(again.headers['cache-control']).toBe('max-age=300');
    expect(varies(again)).toBe(true);
    expect((await send('GET', '/explorer/style.css', { ...css, 'if-none-match': `W/${identityTag}` })).status).toBe(304);
    // an uncompressed copy's tag does not stand for the brotli copy (nor the other way round): the whole answer
    const other = await send('GET', '/explorer/style.css', { ...css, 'accept-encoding': 'br', 'if-none-match': `${identityTag}, ${gzipTag}` });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('br');
    expect(other.headers.etag).toBe(brTag);
    expect((await send('GET', '/explorer/style.css', { ...css, 'if-none-match': brTag })).status).toBe(200);
  });

  test('a small answer (the icon) goes as it is, with its Vary and ETag', async () => {
    const icon = await send('GET', '/explorer/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.body.toString('utf8')).toMatch(/^<svg /);
    expect(varies(icon)).toBe(true);
    expect(icon.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });
});

describe('/mcp is never compressed', () => {
  const MCP = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'accept-encoding': 'br, gzip' };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'compression-test', version: '1.0.0' } },
  });

  test('a JSON-RPC answer and an event stream come as they are, even to a client that takes br and gzip', async () => {
    const init = await send('POST', '/mcp', MCP, initialize);
    expect(init.status).toBe(200);
    expect(init.headers['content-encoding']).toBeUndefined();
    expect(init.body.toString('utf8')).toContain('"protocolVersion"');
    const session = String(init.headers['mcp-session-id']);
    expect(session).not.toBe('undefined');
    const headers = { ...MCP, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    expect((await send('POST', '/mcp', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
    const list = await send('POST', '/mcp', headers, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBeUndefined();
    expect(list.body.toString('utf8')).toContain('search_tools');
    // the standalone event stream (open until the session ends): its headers
    const stream = await send('GET', '/mcp', { ...headers, accept: 'text/event-stream' }, undefined, true);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['content-encoding']).toBeUndefined();
    // a refusal's JSON-RPC error too
    const refused = await send('POST', '/mcp', { ...MCP, 'content-type': 'text/plain' }, 'x'.repeat(2000));
    expect(refused.status).toBe(415);
    expect(refused.headers['content-encoding']).toBeUndefined();
  });
});

describe('Accept-Encoding', () => {
  test('br before gzip on a tie; weights, q=0 and * as RFC 9110 reads them; no header: none', () => {
    expect(negotiate(undefined)).toBe('identity');
    expect(negotiate('')).toBe('identity');
    expect(negotiate('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiate('GZIP')).toBe('gzip');
    expect(negotiate('x-gzip')).toBe('gzip');
    expect(negotiate('br;q=0.2, gzip;q=0.8')).toBe('gzip');
    expect(negotiate('br; q=0')).toBe('identity');
    expect(negotiate('*;q=0.5, br;q=0')).toBe('gzip');
    expect(negotiate('*;q=0')).toBe('identity');
    expect(negotiate('br;q=abc, gzip')).toBe('gzip');
    expect(negotiate(['gzip', 'br'])).toBe('br');
  });

  test('q-values: the highest weight wins, whatever the order; * stands for what is not named; odd values are refused', () => {
    expect(negotiate('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(negotiate('gzip;q=0.9, br;q=0.95')).toBe('br');
    expect(negotiate('gzip;q=0.8, br;q=0.8')).toBe('br');
    expect(negotiate('gzip;q=1.000, br;q=0.999')).toBe('gzip');
    expect(negotiate('gzip;q=0.5, *')).toBe('br');
    expect(negotiate('br;q=0.5, *;q=0.8')).toBe('gzip');
    expect(negotiate('gzip, *;q=0')).toBe('gzip');
    expect(negotiate('deflate, zstd;q=0.9')).toBe('identity');
    expect(negotiate('br;q=-1, gzip;q=0.1')).toBe('gzip');
    expect(negotiate('gzip ; q=0.3 , br ; q=0.2')).toBe('gzip');
    expect(negotiate(' , ;, gzip')).toBe('gzip');
  });

  test("identity has a weight of its own: preferred to a coding weighted lower, refused by identity;q=0 or *;q=0", () => {
    expect(negotiate('gzip;q=0.5, identity')).toBe('identity');
    expect(negotiate('br;q=0.4, identity;q=0.5')).toBe('identity');
    expect(negotiate('br, identity')).toBe('br');
    expect(negotiation('br, gzip')).toEqual({ coding: 'br', identityRefused: false });
    expect(negotiation('gzip;q=0.5')).toEqual({ coding: 'gzip', identityRefused: false });
    expect(negotiation('br;q=0.5, identity;q=0')).toEqual({ coding: 'br', identityRefused: true });
    expect(negotiation('gzip, *;q=0')).toEqual({ coding: 'gzip', identityRefused: true });
    expect(negotiation('gzip, *;q=0, identity;q=0.1')).toEqual({ coding: 'gzip', identityRefused: false });
    // nothing offered is acceptable: the answer goes as it is all the same (no 406 for a page)
    expect(negotiation('identity;q=0')).toEqual({ coding: 'identity', identityRefused: true });
    expect(negotiation('*;q=0')).toEqual({ coding: 'identity', identityRefused: true });
    expect(negotiation(undefined)).toEqual({ coding: 'identity', identityRefused: false });
  });

  test('over HTTP: identity weighted higher gets the page as it is; identity;q=0 gets even a small answer compressed', async () => {
    const page = await send('GET', '/', { ...PAGE, 'accept-encoding': 'br;q=0.5, gzip;q=0.5, identity' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(varies(page)).toBe(true);
    const icon = await send('GET', '/explorer/favicon.svg', { 'accept-encoding': 'gzip, identity;q=0' });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-encoding']).toBe('gzip');
    expect(Number(icon.headers['content-length'])).toBe(icon.body.length);
    expect(icon.headers.etag).toMatch(/-gzip"$/);
    expect(decoded(icon)).toMatch(/^<svg /);
  });
});
