// The issuer's key set (jwks_uri) answering an HTTP error or something that is not JSON, with a real OpenID provider
// (oidc-provider on loopback): once the cached keys are older than their max age, a valid token gets the documented
// 503 with Retry-After (the client keeps its token), naming `HTTP 503` or `the answer is not JSON`, and readiness says
// the same; before, jose's "Expected 200 OK" error was read as a bad token (401 invalid_token "not a valid signed
// JWT"), which makes an OAuth client throw its good token away. Within the max age a token of a key that cannot be
// fetched (a rotation during the outage) is a 401 that says why: an unknown key id is never a 503 (anyone can make
// one up). Only the clocks are faked (Date and performance.now: the keys' age is monotonic); timers and I/O are real.
import { afterEach, expect, test, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { serveHttp } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernRpc } from '../helpers/mcp-raw.js';
import { nextKey, startProvider } from './provider.js';

afterEach(() => {
  vi.useRealTimers();
});

const AGENT = { id: 'agent', secret: 'agent-secret-jwks-errors-41c9', scope: 'catalog:read catalog:execute' };

test('a key set answering 503 or HTML: 503 + Retry-After naming the cause (not a 401), readiness names it, and tokens work again once it answers', async () => {
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
  const idp = await startProvider([AGENT]);
  const logs: string[] = [];
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, logger: createLogger({ write: (l) => logs.push(l) }) },
    { port: 0, oauth: { issuer: idp.issuer, keysMaxAgeMs: 60_000 } },
  );
  const readyz = async () => {
    const res = await fetch(`http://127.0.0.1:${srv.port}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const list = (token: string) => modernRpc(srv.url, 'tools/call', { name: 'list_domains', arguments: {} }, { headers: { authorization: `Bearer ${token}` } });
  try {
    const token = await idp.token(AGENT, srv.url, AGENT.scope);
    expect((await list(token)).status).toBe(200);

    // Within the keys' max age the set is not asked for: a valid token still works while /jwks answers 503 ...
    idp.breakJwks(503);
    vi.advanceTimersByTime(30_000);
    expect((await list(token)).status).toBe(200);
    // ... but a token of a key rotated in meanwhile cannot be checked: a 401 that says the keys could not be fetched
    // (an unknown key id is what anyone can send, so it never gets the 503 a balancer reads as "replica failing")
    idp.rotate(await nextKey());
    const rotated = await list(await idp.token(AGENT, srv.url, AGENT.scope));
    expect(rotated.status).toBe(401);
    expect(rotated.headers.get('www-authenticate')).toContain('error_description="no key of the authorization server matches the token (its keys could not be fetched again: HTTP 503)"');

    // Past the max age no token can be checked: 503 with Retry-After and the status, never "not a valid signed JWT"
    vi.advanceTimersByTime(31_000);
    const down = await list(token);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(down.headers.get('www-authenticate')).toBeNull();
    expect(down.msg.error.message).toBe(
      'Service Unavailable: the authorization server cannot be reached to check the token (the authorization server keys could not be fetched (HTTP 503)); retry later',
    );
    vi.advanceTimersByTime(2_000); // past the refetch interval, so readiness asks again
    const unready = await readyz();
    expect(unready.status).toBe(503);
    expect(unready.body.reasons).toEqual([
      `oauth: the signing keys of ${idp.issuer} could not be fetched (HTTP 503) and none younger than 60 s are cached; tokens cannot be checked until the issuer answers`,
    ]);

    // A 200 that is not JSON (a maintenance page): the same, in its own words
    idp.breakJwks('not-json');
    vi.advanceTimersByTime(2_000);
    const html = await list(token);
    expect(html.status).toBe(503);
    expect(html.msg.error.message).toContain('(the answer is not JSON)');

    // Fixed: the next request fetches the set (the old key is gone from it: a new token is needed) and works
    idp.breakJwks(undefined);
    vi.advanceTimersByTime(2_000);
    expect((await list(await idp.token(AGENT, srv.url, AGENT.scope))).status).toBe(200);
    expect((await readyz()).status).toBe(200);
    expect(logs.join('\n')).not.toContain(token);
  } finally {
    await srv.close();
    await idp.close();
  }
}, 60_000);
