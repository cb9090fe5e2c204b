// OAuth for the Streamable HTTP transport, end to end against a real OpenID provider (oidc-provider on loopback):
// Protected Resource Metadata and discovery, JWT access tokens checked for issuer, audience, expiry, signature
// and scope (401/403 with RFC 6750 challenges), sessions bound to the principal (B4), no token passthrough (A24).
import { Client } from '@modelcontextprotocol/client';
import { ClientCredentialsProvider } from '@modelcontextprotocol/client';
import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { resolveServerConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { ERAS, REPO_ROOT, builtCli, call, catalogs, describeHandle, fixtureRegistry, newClient, type Era } from '../helpers/mcp.js';
import { rawHttp, type RawResponse } from '../helpers/raw-http.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { until } from '../helpers/timing.js';
import { startProvider, type TestClient, type TestProvider } from './provider.js';

const BOTH = 'catalog:read catalog:execute';
const AGENT_A: TestClient = { id: 'agent-a', secret: 'agent-a-secret-7d1e0c2b9f', scope: BOTH };
const AGENT_B: TestClient = { id: 'agent-b', secret: 'agent-b-secret-3c8a61f0e4', scope: BOTH };
const READER: TestClient = { id: 'reader', secret: 'reader-secret-0b5d2e9a71', scope: 'catalog:read' };
// 6 s: long enough that its first use comes before expiry on a loaded machine, short enough to wait out.
const SHORT: TestClient = { id: 'short-lived', secret: 'short-secret-9e4f1a6c2d', scope: BOTH, ttl: 6 };
const STATIC = 'static-token-canary-2b7e91c4d05f';

let provider: TestProvider;
let up: Upstream;
let srv: HttpHandle;
const logs: string[] = [];
const clients: Client[] = [];
/** Every bearer token this file obtained: none may reach the upstream or a log line. */
const issued: string[] = [];

beforeAll(async () => {
  provider = await startProvider([AGENT_A, AGENT_B, READER, SHORT]);
  up = await startUpstream();
  srv = await serveHttp(
    {
      catalogs: catalogs(fixtureRegistry('petstore')),
      settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
      rateLimitPerMinute: 0,
      logger: createLogger({ write: (line) => logs.push(line), minLevel: 'debug' }),
    },
    // No clock leeway here, so the short-lived token of SHORT is refused as soon as it has expired.
    { port: 0, oauth: { issuer: provider.issuer, clockToleranceSec: 0 }, authToken: STATIC },
  );
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await srv?.close();
  await up?.close();
  await provider?.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  up.clear();
});

async function token(client: TestClient, scope = client.scope, resource = srv.url): Promise<string> {
  const t = await provider.token(client, resource, scope);
  issued.push(t);
  return t;
}

/** A real MCP client of an era (2026-07-28 or legacy) sending a fixed bearer token. */
async function connectWith(bearer: string, era: Era): Promise<Client> {
  const c = newClient(era, {}, 'oauth-test');
  await c.connect(new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  clients.push(c);
  return c;
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const post = (headers: Record<string, string>, body: string): Promise<RawResponse> => rawHttp(srv.port, 'POST', '/mcp', { ...JSON_HEADERS, ...headers }, body);
const toolCall = (name: string, args: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });

/** Parses `Bearer a="x", b="y"` into { a: 'x', b: 'y' }. */
function challenge(r: RawResponse): Record<string, string> {
  const h = String(r.headers['www-authenticate'] ?? '');
  expect(h).toMatch(/^Bearer /);
  return Object.fromEntries([...h.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

function expectInvalidToken(r: RawResponse, description: RegExp): void {
  expect(r.status).toBe(401);
  const c = challenge(r);
  expect(c.error).toBe('invalid_token');
  expect(c.error_description).toMatch(description);
  expect(c.resource_metadata).toBe(srv.resourceMetadataUrl);
  expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
}

/** initialize over raw HTTP; returns the session id. */
async function rawSession(bearer: string): Promise<string> {
  const r = await post({ authorization: `Bearer ${bearer}` }, INIT);
  expect(r.status).toBe(200);
  const id = r.headers['mcp-session-id'] as string;
  await post({ authorization: `Bearer ${bearer}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return id;
}

describe('discovery: Protected Resource Metadata (RFC 9728) and the 401 challenge', () => {
  test('PRM is served without a token at the path-suffixed and the bare well-known URL', async () => {
    expect(srv.resource).toBe(srv.url);
    expect(srv.resourceMetadataUrl).toBe(`http://127.0.0.1:${srv.port}/.well-known/oauth-protected-resource/mcp`);
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const r = await rawHttp(srv.port, 'GET', path, { origin: 'https://any.example' });
      expect(r.status, path).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(JSON.parse(r.body)).toEqual({
        resource: srv.url,
        authorization_servers: [provider.issuer],
        scopes_supported: ['catalog:read', 'catalog:execute'],
        bearer_methods_supported: ['header'],
        resource_name: 'api-catalog MCP server',
      });
    }
    expect((await rawHttp(srv.port, 'POST', '/.well-known/oauth-protected-resource', {}, '{}')).status).toBe(405);
  });

  test('no token -> 401 whose challenge points at the PRM, without an error code (RFC 6750 §3.1); no session made', async () => {
    const before = srv.sessionCount();
    const r = await post({}, INIT);
    expect(r.status).toBe(401);
    const c = challenge(r);
    expect(c).toEqual({ realm: 'api-catalog', scope: BOTH, resource_metadata: srv.resourceMetadataUrl });
    expect(JSON.parse(r.body).error.message).toMatch(/Authorization: Bearer <access token> issued by http:\/\/127\.0\.0\.1:\d+/);
    expect(srv.sessionCount()).toBe(before);
  });

  test("the SDK client's own discovery walks challenge -> PRM -> the provider's metadata -> a token endpoint", async () => {
    const prm = await discoverOAuthProtectedResourceMetadata(srv.url);
    expect(prm.resource).toBe(srv.url);
    const asMeta = await discoverAuthorizationServerMetadata(prm.authorization_servers![0]!);
    expect(asMeta?.issuer).toBe(provider.issuer);
    expect(asMeta?.token_endpoint).toBe(`${provider.issuer}/token`);
    // The server itself discovered the same provider and fetched its keys.
    expect(provider.hits.some((h) => h.startsWith('GET /.well-known/openid-configuration'))).toBe(true);
  });

  test.each(ERAS)('a real MCP client with only client credentials: 401 -> PRM -> token for this resource -> tools work (%s client)', async (era) => {
    const c = newClient(era, {}, 'oauth-cc');
    const authProvider = new ClientCredentialsProvider({ clientId: AGENT_A.id, clientSecret: AGENT_A.secret, scope: BOTH, expectedIssuer: provider.issuer });
    await c.connect(new StreamableHTTPClientTransport(new URL(srv.url), { authProvider }));
    clients.push(c);
    const got = authProvider.tokens()?.access_token;
    expect(typeof got).toBe('string');
    issued.push(got!);
    const [, payload] = got!.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ aud: srv.url, iss: provider.issuer, sub: AGENT_A.id });
    expect((await call(c, 'list_domains', {})).success).toBe(true);
  });
});

describe('tokens: the right one works, everything else is refused', () => {
  test.each(ERAS)('a token for this resource: list/search/describe/execute work; the token never reaches the upstream or the logs (%s client)', async (era) => {
    const t = await token(AGENT_A);
    const c = await connectWith(t, era);
    expect((await call(c, 'list_domains', {})).success).toBe(true);
    expect((await call(c, 'search_tools', { query: 'find pet by id' })).success).toBe(true);
    // over HTTP a 2026-07-28 call is stateless: execute carries the describe's handle
    const handle = await describeHandle(c, 'pets.get');
    const r = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 3 }, handle });
    expect(r.success).toBe(true);
    expect(up.requests).toHaveLength(1);
    expect(up.requests[0]!.headers.authorization).toBeUndefined();
    const wire = JSON.stringify(up.requests.map((q) => ({ h: q.rawHeaders, u: q.url, b: q.text })));
    for (const secret of [t, t.split('.')[2]!, STATIC]) expect(wire).not.toContain(secret);
    expect(JSON.stringify(r)).not.toContain(t);
  });

  test.each(ERAS)('wrong audience: a token the provider issued for another resource -> 401 invalid_token (%s client)', async (era) => {
    const t = await token(AGENT_A, BOTH, 'https://other.example/mcp');
    expectInvalidToken(await post({ authorization: `Bearer ${t}` }, INIT), /another resource \(aud\)/);
    // The SDK client gives up as well (no auth provider to get a new token).
    await expect(connectWith(t, era)).rejects.toThrow();
  });

  test('expired: a short-lived token works, then is refused once it has expired', async () => {
    const t = await token(SHORT);
    const first = await post({ authorization: `Bearer ${t}` }, INIT);
    expect(first.status).toBe(200);
    // Await the expiry (no fixed sleep): retry until the server refuses it; only the deadline is on the clock.
    let last = first;
    await until(async () => (last = await post({ authorization: `Bearer ${t}` }, INIT)).status === 401, 'the token to expire', 20_000, 200);
    expectInvalidToken(last, /expired/);
    const id = first.headers['mcp-session-id'] as string;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expectInvalidToken(await post({ authorization: `Bearer ${t}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, list), /expired/);
  });

  test('tampered: a changed payload, a changed signature, alg "none" or a random string -> 401 invalid_token', async () => {
    const t = await token(READER, 'catalog:read');
    const [h, p, s] = t.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const escalated = Buffer.from(JSON.stringify({ ...claims, scope: BOTH })).toString('base64url');
    const flipped = (s[5] === 'A' ? 'B' : 'A');
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    const cases: Array<[string, RegExp]> = [
      [`${h}.${escalated}.${s}`, /signature is invalid/],
      [`${h}.${p}.${s.slice(0, 5)}${flipped}${s.slice(6)}`, /signature is invalid/],
      [`${noneHeader}.${escalated}.`, /not a valid signed JWT|algorithm is not allowed/],
      ['not-a-jwt-0123456789abcdef', /not a JWT/],
    ];
    for (const [bad, why] of cases) expectInvalidToken(await post({ authorization: `Bearer ${bad}` }, INIT), why);
  });

  test('another issuer: a token from a second provider, for this very resource, is refused', async () => {
    const other = await startProvider([AGENT_A]);
    try {
      const t = await other.token(AGENT_A, srv.url, BOTH);
      issued.push(t);
      expectInvalidToken(await post({ authorization: `Bearer ${t}` }, INIT), /another authorization server|no key/);
    } finally {
      await other.close();
    }
  });

  test.each(ERAS)('the static API_CATALOG_HTTP_TOKEN is accepted as well (fixed principal, every scope); a wrong static token is not (%s client)', async (era) => {
    const c = await connectWith(STATIC, era);
    const handle = await describeHandle(c, 'pets.get');
    expect((await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 4 }, handle })).success).toBe(true);
    expectInvalidToken(await post({ authorization: `Bearer ${STATIC}x` }, INIT), /not a JWT/);
  });
});

describe('scopes: catalog:read and catalog:execute', () => {
  test.each(ERAS)('a catalog:read token lists, searches and describes; execute_tool -> 403 insufficient_scope and no upstream request (%s client)', async (era) => {
    const t = await token(READER, 'catalog:read');
    const c = await connectWith(t, era);
    expect((await call(c, 'list_domains', {})).success).toBe(true);
    expect((await call(c, 'search_tools', { query: 'pets' })).success).toBe(true);
    expect((await call(c, 'describe_tools', { tool_names: ['pets.get'] })).success).toBe(true);
    expect((await c.listResources()).resources.length).toBeGreaterThan(0);
    // Through the SDK client the call fails with the HTTP 403...
    await expect(c.callTool({ name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 1 } } })).rejects.toThrow(/403|insufficient|scope/i);
    // ...and on the wire it carries the RFC 6750 challenge naming the missing scope.
    const id = await rawSession(t);
    const r = await post({ authorization: `Bearer ${t}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, toolCall('execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }));
    expect(r.status).toBe(403);
    expect(challenge(r)).toEqual({
      realm: 'api-catalog',
      error: 'insufficient_scope',
      error_description: 'this request needs the scope catalog:execute',
      scope: 'catalog:execute',
      resource_metadata: srv.resourceMetadataUrl,
    });
    expect(JSON.parse(r.body).error.message).toMatch(/needs the scope catalog:execute/);
    // An unknown tool name needs catalog:execute too (fail closed).
    const unknown = await post({ authorization: `Bearer ${t}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, toolCall('some_other_tool', {}));
    expect(unknown.status).toBe(403);
    expect(up.requests).toHaveLength(0);
    expect(logs.some((l) => l.includes('"reason":"scope"'))).toBe(true);
  });

  test('a catalog:execute-only token cannot search or read resources (403 naming catalog:read)', async () => {
    const t = await token(AGENT_A, 'catalog:execute');
    const id = await rawSession(t);
    const h = { authorization: `Bearer ${t}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    const search = await post(h, toolCall('search_tools', { query: 'pets' }));
    expect(search.status).toBe(403);
    expect(challenge(search).scope).toBe('catalog:read');
    const resources = await post(h, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/list' }));
    expect(resources.status).toBe(403);
    // tools/list needs only a valid token.
    expect((await post(h, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }))).status).toBe(200);
  });
});

describe('B4: a session belongs to the principal that created it', () => {
  test("agent B (or the static-token principal) presenting agent A's session id gets 404; A keeps working", async () => {
    const ta = await token(AGENT_A);
    const tb = await token(AGENT_B);
    const id = await rawSession(ta);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const withId = (bearer: string) => ({ authorization: `Bearer ${bearer}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    for (const other of [tb, STATIC]) {
      const r = await post(withId(other), list);
      expect(r.status).toBe(404);
      expect(JSON.parse(r.body).error.message).toMatch(/Session not found/);
      const del = await rawHttp(srv.port, 'DELETE', '/mcp', withId(other));
      expect(del.status).toBe(404);
      const sse = await rawHttp(srv.port, 'GET', '/mcp', { ...withId(other), accept: 'text/event-stream' });
      expect(sse.status).toBe(404);
    }
    expect(logs.some((l) => l.includes('"reason":"session_principal"'))).toBe(true);
    // A's own session is intact (B's DELETE did not end it), with a fresh token of A's as well.
    const again = await token(AGENT_A);
    for (const mine of [ta, again]) expect((await post(withId(mine), list)).status).toBe(200);
    expect((await rawHttp(srv.port, 'DELETE', '/mcp', withId(ta))).status).toBe(200);
  });
});

describe('behind a proxy: --public-url names the resource', () => {
  test('PRM and the audience are the public URL; its Host is accepted; a token for the loopback URL is refused', async () => {
    const PUBLIC = 'https://mcp.example.com/catalog/mcp';
    const behind = await serveHttp(
      { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} } },
      { port: 0, oauth: { issuer: provider.issuer }, publicUrl: PUBLIC },
    );
    try {
      expect(behind.resourceMetadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/catalog/mcp');
      // Served at the public path suffix, the local one (what a proxy that strips /catalog forwards) and bare.
      for (const path of ['/.well-known/oauth-protected-resource/catalog/mcp', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        const r = await rawHttp(behind.port, 'GET', path, { host: 'mcp.example.com' });
        expect(r.status, path).toBe(200);
        expect(JSON.parse(r.body).resource).toBe(PUBLIC);
      }
      const h = { ...JSON_HEADERS, host: 'mcp.example.com' };
      const unauth = await rawHttp(behind.port, 'POST', '/mcp', h, INIT);
      expect(challenge(unauth).resource_metadata).toBe(behind.resourceMetadataUrl);
      const good = await token(AGENT_A, BOTH, PUBLIC);
      expect((await rawHttp(behind.port, 'POST', '/mcp', { ...h, authorization: `Bearer ${good}` }, INIT)).status).toBe(200);
      const local = await token(AGENT_A, BOTH, behind.url);
      const refused = await rawHttp(behind.port, 'POST', '/mcp', { ...h, authorization: `Bearer ${local}` }, INIT);
      expect(refused.status).toBe(401);
      expect(challenge(refused).error_description).toMatch(/another resource \(aud\)/);
      // Another Host is still refused.
      expect((await rawHttp(behind.port, 'POST', '/mcp', { ...h, host: 'evil.example', authorization: `Bearer ${good}` }, INIT)).status).toBe(403);
    } finally {
      await behind.close();
    }
  });
});

describe('the authorization server down', () => {
  test('tokens cannot be checked -> 503 with Retry-After (not 401, so clients do not throw their token away)', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const deadPort = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const down = await serveHttp(
      { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} } },
      { port: 0, oauth: { issuer: `http://127.0.0.1:${deadPort}`, fetchTimeoutMs: 1000 } },
    );
    try {
      const t = await token(AGENT_A);
      const r = await rawHttp(down.port, 'POST', '/mcp', { ...JSON_HEADERS, authorization: `Bearer ${t}` }, INIT);
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
      expect(JSON.parse(r.body).error.message).toMatch(/authorization server cannot be reached/);
      expect(down.sessionCount()).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('secrets', () => {
  test('no bearer token issued in this file appears in any log line', () => {
    expect(issued.length).toBeGreaterThan(5);
    const all = logs.join('\n');
    for (const t of issued) {
      expect(all).not.toContain(t);
      expect(all).not.toContain(t.split('.')[2]!);
    }
    expect(all).not.toContain(STATIC);
    expect(logs.some((l) => l.includes('"reason":"auth"'))).toBe(true);
  });
});

describe('configuration: --oauth-issuer and --public-url', () => {
  test('flags and env map onto the HTTP config; --allow-remote accepts OAuth alone; bad values are named', () => {
    const c = resolveServerConfig({ http: true, oauthIssuer: 'https://auth.example.com', publicUrl: 'https://mcp.example.com/mcp', host: '0.0.0.0', allowRemote: true }, {});
    expect(c.http).toMatchObject({ oauthIssuer: 'https://auth.example.com', publicUrl: 'https://mcp.example.com/mcp', allowRemote: true });
    expect(c.http?.authToken).toBeUndefined();
    const e = resolveServerConfig({ http: true }, { API_CATALOG_OAUTH_ISSUER: 'http://127.0.0.1:9000', API_CATALOG_PUBLIC_URL: 'http://localhost:3333/mcp' });
    expect(e.http).toMatchObject({ oauthIssuer: 'http://127.0.0.1:9000', publicUrl: 'http://localhost:3333/mcp' });
    const refusals: Array<[Parameters<typeof resolveServerConfig>[0], RegExp]> = [
      [{ http: true, oauthIssuer: 'http://auth.example.com' }, /--oauth-issuer must be https \(http only on a loopback address\), got "http:\/\/auth\.example\.com"/],
      [{ http: true, oauthIssuer: 'auth.example.com' }, /--oauth-issuer is not a URL; give e\.g\. https:\/\/auth\.example\.com, got "auth\.example\.com"/],
      [{ http: true, oauthIssuer: 'https://auth.example.com', publicUrl: 'https://u:p@mcp.example.com/mcp' }, /--public-url must not carry userinfo/],
      [{ http: true, host: '0.0.0.0', allowRemote: true, oauthIssuer: 'https://auth.example.com' }, /--oauth-issuer on 0\.0\.0\.0 needs --public-url/],
      [{ http: true, host: '0.0.0.0', allowRemote: true }, /--allow-remote needs authentication: set API_CATALOG_HTTP_TOKEN.*--oauth-issuer/],
    ];
    for (const [flags, message] of refusals) expect(() => resolveServerConfig(flags, {})).toThrow(message);
  });

  test('the built CLI: `serve --http --oauth-issuer` serves PRM, refuses without a token and works with one', async () => {
    const child = spawn(process.execPath, [builtCli(), 'serve', '--registry', fixtureRegistry('petstore'), '--http', '--port', '0', '--oauth-issuer', provider.issuer], {
      cwd: REPO_ROOT,
      env: { ...process.env, API_CATALOG_HTTP_TOKEN: '' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const end = Date.now() + 10_000;
      while (!/OAuth: tokens from/.test(stderr) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      const m = /URL: (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/.exec(stderr);
      expect(m, stderr).not.toBeNull();
      const [url, port] = [m![1]!, Number(m![2])];
      expect(stderr).toContain(`OAuth: tokens from ${provider.issuer} for resource ${url}; metadata at http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`);
      const prm = JSON.parse((await rawHttp(port, 'GET', '/.well-known/oauth-protected-resource/mcp', {})).body) as { resource: string };
      expect(prm.resource).toBe(url);
      const denied = await rawHttp(port, 'POST', '/mcp', JSON_HEADERS, INIT);
      expect(denied.status).toBe(401);
      const t = await token(AGENT_A, BOTH, url);
      expect((await rawHttp(port, 'POST', '/mcp', { ...JSON_HEADERS, authorization: `Bearer ${t}` }, INIT)).status).toBe(200);
      expect(stderr).not.toContain(t);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('the test provider itself', () => {
  test('refuses a token for a resource it does not know (invalid_target), so audience tests are not vacuous', async () => {
    await expect(provider.token(AGENT_A, 'https://unknown.example/mcp', BOTH)).rejects.toThrow(/400 .*invalid_target/);
  });
});
