// The page a browser gets for a Host the server does not answer to (DNS-rebinding protection). It suggests
// `--allow-host <the Host sent>` only when that Host is a value the flag takes (host or host:port); for one that is
// not (empty, a space, a path, user@) it says how to find the right name. And it is self-contained: the browser would
// fetch a linked /explorer/style.css with the same Host, refused too, so the page came without its styles; now the few
// it needs are inline, allowed by the CSP by their hash (no 'unsafe-inline'), and the tab icon is a data: URL.
// Real parts: serveHttp on 127.0.0.1, raw HTTP requests with any Host.
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';

const PAGE = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
let srv: HttpHandle;

/** `GET /` with an empty `Host:` line (Node's client leaves an empty Host out), written on a socket. */
async function emptyHost(port: number): Promise<{ status: number; body: string }> {
  const socket = connect(port, '127.0.0.1');
  socket.end(`GET / HTTP/1.1\r\nHost: \r\nAccept: ${PAGE.accept}\r\nConnection: close\r\n\r\n`);
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

beforeAll(async () => {
  srv = await serveHttp({ catalogs: loadCatalogSet([fixtureRegistry('petstore')]), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0, explorer: true });
});
afterAll(async () => {
  await srv.close();
});

describe('the refused-Host page suggests only a Host that --allow-host takes', () => {
  test.each(['catalog.example.com', 'catalog.example.com:8443', '[2001:db8::1]:3333'])('%s: --allow-host with it', async (host) => {
    const r = await rawHttp(srv.port, 'GET', '/', { ...PAGE, host });
    expect(r.status).toBe(403);
    expect(r.body).toContain(`<code>--allow-host ${host}</code>`);
    expect(r.body).not.toContain('id="host-name"');
  });

  test.each([
    ['a space', 'catalog example.com', 'catalog example.com'],
    ['a path', 'catalog.example.com/mcp', 'catalog.example.com/mcp'],
    ['user@', 'me@catalog.example.com', 'me@catalog.example.com'],
    ['markup', 'a"><b>x', 'a&quot;&gt;&lt;b&gt;x'],
    ['nothing', '', '(none)'],
  ])('%s: the Host is shown, never suggested; the page says how to find the right name', async (_, host, shown) => {
    const r = host === '' ? await emptyHost(srv.port) : await rawHttp(srv.port, 'GET', '/', { ...PAGE, host });
    expect(r.status).toBe(403);
    expect(r.body).toContain(`<code>Host: ${shown}</code>`);
    expect(r.body).toContain('<code>--allow-host &lt;name&gt;</code>');
    expect(r.body).not.toContain(`--allow-host ${shown}`);
    expect(r.body).toContain("That <code>Host</code> is not a host name (or <code>host:port</code>), so there is nothing to allow as it is. The name to allow is the one in the browser's address bar");
    expect(r.body).not.toContain('<b>x');
  });
});

test('the page loads nothing from the server: inline styles the CSP allows by hash, a data: icon', async () => {
  const r = await rawHttp(srv.port, 'GET', '/', { ...PAGE, host: 'catalog.example.com' });
  expect(r.status).toBe(403);
  // what a linked stylesheet or icon would get: the same refusal
  const css = await rawHttp(srv.port, 'GET', '/explorer/style.css', { accept: 'text/css,*/*;q=0.1', host: 'catalog.example.com' });
  expect(css.status).toBe(403);
  expect(r.body).not.toMatch(/<link[^>]+rel="stylesheet"/);
  expect(r.body).not.toMatch(/(href|src)="\//);
  expect(r.body).toContain('<link rel="icon" href="data:,">');
  const styles = [...r.body.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1]!);
  expect(styles).toHaveLength(1);
  expect(styles[0]).toContain('.error{color:#b42318');
  const csp = String(r.headers['content-security-policy']);
  expect(csp).toMatch(/^default-src 'none'; /);
  expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`);
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(r.headers['x-frame-options']).toBe('DENY');
  // the other pages keep the explorer's stylesheet (their Host is accepted) and its CSP
  const notFound = await rawHttp(srv.port, 'GET', '/no-such-page', PAGE);
  expect(notFound.body).toContain('<link rel="stylesheet" href="/explorer/style.css">');
  expect(String(notFound.headers['content-security-policy'])).toContain("style-src 'self'");
});
