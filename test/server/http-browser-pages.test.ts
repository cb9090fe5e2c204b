// What a browser gets from the Streamable HTTP transport where an MCP client gets JSON-RPC (real servers on
// 127.0.0.1, requests written byte for byte on a socket): an address over Node's 16 KB header limit (a dry run's
// arguments in a GET) is a 431 page with the way back to the operation, and the MCP endpoint opened in a browser is a
// page that points to the explorer and shows the client configuration. MCP clients, and requests that do not ask for
// HTML, keep their JSON errors; without the explorer nothing changes.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';

const TOKEN = 'browser-pages-static-token-4e1a8b';
let srv: HttpHandle;
let withToken: HttpHandle;
let noExplorer: HttpHandle;

const deps = () => ({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 });

beforeAll(async () => {
  srv = await serveHttp(deps(), { port: 0, explorer: true });
  withToken = await serveHttp(deps(), { port: 0, explorer: true, authToken: TOKEN });
  noExplorer = await serveHttp(deps(), { port: 0 });
});
afterAll(async () => {
  await Promise.all([srv?.close(), withToken?.close(), noExplorer?.close()]);
});

/** Writes `head` (request line and headers, without the final blank line) in one piece; the whole answer, parsed. */
function rawRequest(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers: text.slice(0, end), body: text.slice(end + 4) });
    });
  });
}

// A dry run's address about 30 KB long, as a form GET encodes a long issue body (each quote %22, each newline %0D%0A).
const LONG_ARGS = encodeURIComponent(JSON.stringify({ petId: 7, note: 'A "long" report.\r\n'.repeat(900) }));

describe('an address too long for the server (431)', () => {
  test('a browser gets a page saying so, with the way back to the operation; the Host check never ran', async () => {
    expect(LONG_ARGS.length).toBeGreaterThan(16_384);
    const browser = await rawRequest(srv.port, `GET /?tool=pets.get&args=${LONG_ARGS} HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAccept: text/html,application/xhtml+xml,*/*;q=0.8`);
    expect(browser.status).toBe(431);
    expect(browser.headers).toMatch(/\r\nContent-Type: text\/html; charset=utf-8\r\n/);
    expect(browser.headers).toMatch(/\r\nContent-Security-Policy: default-src 'none'/);
    expect(browser.body).toContain('<h1>The address is too long</h1>');
    expect(browser.body).toContain('its arguments are too large to travel in a shareable address');
    expect(browser.body).toContain('<a href="/?tool=pets.get" id="back">the operation pets.get</a>');
    expect(Number(/\r\nContent-Length: (\d+)/.exec(browser.headers)?.[1])).toBe(Buffer.byteLength(browser.body));
    // the address alone passed the limit, before any Accept header arrived: a GET of the explorer's address is a page load
    const early = await rawRequest(srv.port, `GET /?args=${LONG_ARGS}&tool=pets.get HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}`);
    expect(early.status).toBe(431);
    expect(early.body).toContain('<a href="/?tool=pets.get" id="back">');
    // a name that is not one is not echoed: the way back is the explorer
    const odd = await rawRequest(srv.port, `GET /?tool=%3Cscript%3E&args=${LONG_ARGS} HTTP/1.1\r\nAccept: text/html`);
    expect(odd.body).toContain('<a href="/" id="back">the explorer</a>');
    expect(odd.body).not.toContain('<script>');
  });

  test('anything that does not ask for HTML, and every request without the explorer, keeps the JSON-RPC error', async () => {
    const json = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request"},"id":null}';
    const mcpClient = await rawRequest(srv.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAccept: application/json, text/event-stream\r\nX-Big: ${'x'.repeat(20_000)}`);
    expect(mcpClient.status).toBe(431);
    expect(mcpClient.headers).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(mcpClient.body).toBe(json);
    const stream = await rawRequest(srv.port, `GET /mcp?x=${'y'.repeat(20_000)} HTTP/1.1\r\nAccept: text/event-stream`);
    expect(stream.body).toBe(json);
    const api = await rawRequest(srv.port, `GET /?tool=pets.get&args=${LONG_ARGS} HTTP/1.1\r\nAccept: application/json`);
    expect(api.body).toBe(json);
    const off = await rawRequest(noExplorer.port, `GET /?tool=pets.get&args=${LONG_ARGS} HTTP/1.1\r\nAccept: text/html`);
    expect(off.status).toBe(431);
    expect(off.body).toBe(json);
  });
});

describe('the MCP endpoint opened in a browser', () => {
  const page = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

  test('a page: what the address is for, the link to the explorer, the client configuration with this URL', async () => {
    const res = await rawHttp(srv.port, 'GET', '/mcp', page);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('<h1>This is the MCP endpoint</h1>');
    expect(res.body).toContain('<a href="/" id="home">/</a>');
    const config = /<pre class="json" id="client-config"><code>([^<]*)<\/code><\/pre>/.exec(res.body)?.[1] ?? '';
    expect(JSON.parse(config.replace(/&quot;/g, '"'))).toEqual({ mcpServers: { 'api-catalog': { type: 'http', url: `http://127.0.0.1:${srv.port}/mcp` } } });
    expect(res.body).not.toContain('Bearer');
    expect((await rawHttp(srv.port, 'HEAD', '/mcp', page)).body).toBe('');
  });

  test('a server with a token: the page needs none and says the client sends one', async () => {
    const res = await rawHttp(withToken.port, 'GET', '/mcp', page);
    expect(res.status).toBe(200);
    const config = /<pre class="json" id="client-config"><code>([^<]*)<\/code><\/pre>/.exec(res.body)?.[1] ?? '';
    expect(JSON.parse(config.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>'))).toMatchObject({
      mcpServers: { 'api-catalog': { headers: { Authorization: 'Bearer <token>' } } },
    });
    expect(res.body).not.toContain(TOKEN);
  });

  test('MCP clients keep their JSON-RPC answers: a stream GET, a session’s GET, a POST, and every request without the explorer', async () => {
    const stream = await rawHttp(srv.port, 'GET', '/mcp', { accept: 'text/event-stream' });
    expect(stream.status).toBe(400);
    expect(stream.headers['content-type']).toBe('application/json');
    const session = await rawHttp(srv.port, 'GET', '/mcp', { ...page, 'mcp-session-id': 'not-a-session' });
    expect(session.headers['content-type']).toBe('application/json');
    expect(JSON.parse(session.body)).toMatchObject({ jsonrpc: '2.0', error: {} });
    const post = await rawHttp(srv.port, 'POST', '/mcp', { ...page, 'content-type': 'application/json' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(post.body).not.toContain('<!doctype html>');
    const off = await rawHttp(noExplorer.port, 'GET', '/mcp', page);
    expect(off.status).toBe(400);
    expect(off.headers['content-type']).toBe('application/json');
    // a foreign Host is still refused first
    expect((await rawHttp(srv.port, 'GET', '/mcp', { ...page, host: 'evil.example' })).status).toBe(403);
  });
});
