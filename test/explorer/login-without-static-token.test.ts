// The explorer and the /mcp page on servers a browser cannot log into, and the login itself behind a public name
// (real servers on 127.0.0.1, a real OpenID provider for OAuth): without a static token (OAuth, named tokens only)
// `/` is an HTML page saying what lets a browser in and how agents connect, not a bare text 401; credentials that
// could not be checked (the issuer down) get /mcp's 503 with Retry-After; /mcp's page on an OAuth server shows the
// configuration without an Authorization header, as the start banner does. The page's own origin and the
// --public-url's pass the Origin check (browsers send Origin on every form POST), an https --public-url makes the
// login cookie Secure, and a `next` with a control character goes back to `/`.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newToken } from '../../src/server/auth/tokens.js';
import { COOKIE_NAME } from '../../src/server/explorer/index.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { rawHttp, type RawResponse } from '../helpers/raw-http.js';
import { startProvider, type TestClient, type TestProvider } from '../auth/provider.js';

const STATIC = 'explorer-origin-static-token-61c0de';
const AGENT: TestClient = { id: 'explorer-agent', secret: 'explorer-agent-secret-4b2a', scope: 'catalog:read catalog:execute' };
const named = newToken('ci-bot', ['catalog:read']);
const PUBLIC = 'https://mcp.example.com/mcp';

let idp: TestProvider;
let oauthSrv: HttpHandle;
let namedSrv: HttpHandle;
let downSrv: HttpHandle;
let publicSrv: HttpHandle;
let proxiedSrv: HttpHandle;

const deps = () => ({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 });

/** A loopback port nothing listens on: the issuer that is down. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

beforeAll(async () => {
  idp = await startProvider([AGENT]);
  oauthSrv = await serveHttp(deps(), { port: 0, explorer: true, oauth: { issuer: idp.issuer } });
  namedSrv = await serveHttp(deps(), { port: 0, explorer: true, tokens: { match: (t) => (t === named.token ? { name: 'ci-bot', scopes: ['catalog:read'] } : undefined) } });
  downSrv = await serveHttp(deps(), { port: 0, explorer: true, oauth: { issuer: `http://127.0.0.1:${await deadPort()}`, fetchTimeoutMs: 1000 } });
  publicSrv = await serveHttp(deps(), { port: 0, explorer: true, authToken: STATIC, publicUrl: PUBLIC });
  // behind a proxy that forwards its own name and port (nginx's `Host $http_host`), given with --allow-host
  proxiedSrv = await serveHttp(deps(), { port: 0, explorer: true, authToken: STATIC, allowHosts: ['mcp.internal:8443'] });
});
afterAll(async () => {
  await Promise.all([oauthSrv, namedSrv, downSrv, publicSrv, proxiedSrv].map((s) => s?.close()));
  await idp?.close();
});

const PAGE = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** A page's text as a reader sees it: the markup left out, the entities escape-html writes decoded. */
const text = (body: string): string => body.replace(/<[^>]*>/g, '').replace(/&(quot|#39|lt|gt|amp);/g, (_, e: string) => ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' })[e] as string);
const clientConfig = (r: RawResponse): unknown => JSON.parse(text(/<pre class="json" id="client-config"><code>([^<]*)<\/code><\/pre>/.exec(r.body)?.[1] ?? ''));
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const login = (srv: HttpHandle, headers: Record<string, string>, fields: Record<string, string>): Promise<RawResponse> =>
  rawHttp(srv.port, 'POST', '/explorer/login', { ...FORM, ...headers }, new URLSearchParams(fields).toString());

describe('a server with no static token: the explorer says what lets a browser in', () => {
  test('OAuth: `/` is an HTML 401 naming API_CATALOG_HTTP_TOKEN, the header, and how MCP clients connect; an OAuth token in the header opens it', async () => {
    const r = await rawHttp(oauthSrv.port, 'GET', '/', PAGE);
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    const page = text(r.body);
    expect(page).toContain("The explorer's login form needs the server's static token, and this server has none set, so a browser cannot log in here.");
    expect(page).toContain('sets API_CATALOG_HTTP_TOKEN');
    expect(page).toContain(`Authorization: Bearer <token> with an OAuth access token from ${idp.issuer} with the scope catalog:read`);
    expect(page).toContain(`Agents connect to ${oauthSrv.url}`);
    expect(page).toContain(`An MCP client with OAuth support needs only the URL`);
    expect(page).toContain(oauthSrv.resourceMetadataUrl);
    expect(page).not.toContain('<form');
    // the header /mcp takes lets the browser in
    const token = await idp.token(AGENT, oauthSrv.url, 'catalog:read');
    const inside = await rawHttp(oauthSrv.port, 'GET', '/', { ...PAGE, authorization: `Bearer ${token}` });
    expect(inside.status).toBe(200);
    expect(inside.body).toContain('pets');
  });

  test('named tokens only: the same page, pointing at the tokens file; it names no token', async () => {
    const r = await rawHttp(namedSrv.port, 'GET', '/?q=pet', PAGE);
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = text(r.body);
    expect(page).toContain("a token of the server's tokens file (api-catalog token new) with the scope catalog:read");
    expect(page).toContain('This server needs a token: replace <token> with the one its operator gave you.');
    expect(page).not.toContain('ci-bot');
    expect((await rawHttp(namedSrv.port, 'HEAD', '/', PAGE)).body).toBe('');
  });

  test('the issuer down: a request with a token gets 503 with Retry-After (as /mcp), not a 401; without one, the 401 page', async () => {
    const token = await idp.token(AGENT, downSrv.url, 'catalog:read');
    const r = await rawHttp(downSrv.port, 'GET', '/', { ...PAGE, authorization: `Bearer ${token}` });
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('5');
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(text(r.body)).toContain('the authorization server cannot be reached to check the token');
    const mcp = await rawHttp(downSrv.port, 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(mcp.status).toBe(503);
    expect((await rawHttp(downSrv.port, 'GET', '/', PAGE)).status).toBe(401);
  });
});

describe('/mcp opened in a browser tells what the start banner tells', () => {
  test('OAuth: the configuration has no Authorization header, and the page says why', async () => {
    const r = await rawHttp(oauthSrv.port, 'GET', '/mcp', PAGE);
    expect(r.status).toBe(200);
    expect(clientConfig(r)).toEqual({ mcpServers: { 'api-catalog': { type: 'http', url: oauthSrv.url } } });
    const page = text(r.body);
    expect(page).not.toContain('Bearer <token>');
    expect(page).toContain(`This server takes OAuth access tokens from ${idp.issuer}. An MCP client with OAuth support needs only the URL, so the configuration has no Authorization header`);
    expect(r.body).toContain(`<a href="${oauthSrv.resourceMetadataUrl}">`);
  });

  test('named tokens: the header with a placeholder, naming no token', async () => {
    const r = await rawHttp(namedSrv.port, 'GET', '/mcp', PAGE);
    expect(clientConfig(r)).toEqual({ mcpServers: { 'api-catalog': { type: 'http', url: namedSrv.url, headers: { Authorization: 'Bearer <token>' } } } });
    expect(r.body).not.toContain('ci-bot');
  });
});

describe('the login behind a public name', () => {
  test('the --public-url origin passes the Origin check, and an https --public-url makes the cookie Secure without X-Forwarded-Proto', async () => {
    const r = await login(publicSrv, { host: 'mcp.example.com', origin: 'https://mcp.example.com' }, { token: STATIC, next: '/?q=pet' });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/?q=pet');
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${COOKIE_NAME}=[^;]+; Path=/; HttpOnly; SameSite=Strict; Max-Age=\\d+; Secure$`));
    // logout and the dry-run form from the same page pass too
    const session = cookie.split(';')[0] as string;
    const logout = await rawHttp(publicSrv.port, 'POST', '/explorer/logout', { ...FORM, host: 'mcp.example.com', origin: 'https://mcp.example.com', cookie: session }, '');
    expect(logout.status).toBe(303);
    const dry = await rawHttp(publicSrv.port, 'POST', '/explorer/dry-run', { ...FORM, host: 'mcp.example.com', origin: 'https://mcp.example.com', cookie: session }, 'tool=pets.get&args=%7B%22petId%22%3A1%7D');
    expect(dry.status).toBe(303);
    // a page of another origin is still refused, with a page naming the flag that would allow it
    const foreign = await login(publicSrv, { host: 'mcp.example.com', origin: 'https://evil.example' }, { token: STATIC });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(foreign.body).toContain('<code>--allow-origin https://evil.example</code>');
    expect(foreign.headers['set-cookie']).toBeUndefined();
  });

  test('the page’s own origin (Origin host:port = Host) passes; the same name on another port, or another name, does not', async () => {
    const host = { host: 'mcp.internal:8443' };
    const own = await login(proxiedSrv, { ...host, origin: 'https://mcp.internal:8443' }, { token: STATIC });
    expect(own.status).toBe(303);
    // no https --public-url and no X-Forwarded-Proto: nothing says the browser used https
    expect(String(own.headers['set-cookie'])).not.toContain('Secure');
    const mcp = await rawHttp(proxiedSrv.port, 'POST', '/mcp', { ...host, origin: 'https://mcp.internal:8443', 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${STATIC}` }, INIT);
    expect(mcp.status).toBe(200);
    expect(mcp.headers['access-control-allow-origin']).toBe('https://mcp.internal:8443');
    for (const origin of ['https://mcp.internal', 'https://mcp.internal:9443', 'https://evil.example:8443', 'null']) {
      const r = await login(proxiedSrv, { ...host, origin }, { token: STATIC });
      expect(r.status, origin).toBe(403);
      expect(r.body, origin).toContain(`<code>--allow-origin ${origin === 'null' ? '&lt;origin&gt;' : origin}</code>`);
    }
    // a Host the allow-list refuses is refused before its Origin is looked at (DNS rebinding)
    expect((await login(proxiedSrv, { host: 'evil.example', origin: 'http://evil.example' }, { token: STATIC })).status).toBe(403);
  });

  test('a `next` with a control character goes back to `/` (no 500, no header trouble)', async () => {
    for (const next of ['/\r\nSet-Cookie: x=1', '/\t/evil.example', '/\n/evil.example', '/x\u007f', '/a\u0000b']) {
      const r = await login(proxiedSrv, { host: 'mcp.internal:8443' }, { token: STATIC, next });
      expect(r.status, JSON.stringify(next)).toBe(303);
      expect(r.headers.location, JSON.stringify(next)).toBe('/');
      expect(String(r.headers['set-cookie'])).toMatch(new RegExp(`^${COOKIE_NAME}=`));
    }
    const plain = await login(proxiedSrv, { host: 'mcp.internal:8443' }, { token: STATIC, next: '/?tool=pets.get' });
    expect(plain.headers.location).toBe('/?tool=pets.get');
  });
});
