// OAuth access tokens must be access tokens, and name whose: explicit typing (RFC 8725 §3.11, RFC 9068 §2.1) accepts a
// `typ` of at+jwt (application/at+jwt), JWT (Keycloak, Entra ID) or none, in any case, and refuses every other type
// (a logout token, a security event, a DPoP proof signed by the same issuer) with a 401 invalid_token naming the
// type seen and the types accepted; a token without a subject (`sub` missing, empty, not a string) is refused the
// same way, or every such token would be one principal. A real OpenID provider (oidc-provider on loopback) publishes
// the key the tokens are signed with; the real HTTP server checks them.
import { SignJWT, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernRpc, type RpcReply } from '../helpers/mcp-raw.js';
import { nextKey, startProvider, type TestClient, type TestProvider } from './provider.js';

const BOTH = 'catalog:read catalog:execute';
const AGENT: TestClient = { id: 'typ-agent', secret: 'typ-agent-secret-4e2a9d', scope: BOTH };
const ACCEPTED = 'accepted are at+jwt (or application/at+jwt), JWT, or none';

let idp: TestProvider;
let srv: HttpHandle;
let key: JWK;

beforeAll(async () => {
  idp = await startProvider([AGENT]);
  // the provider signs with a key this file holds, so the tests can sign what the provider would not issue
  key = await nextKey();
  idp.rotate(key);
  srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 },
    { port: 0, oauth: { issuer: idp.issuer } },
  );
});
afterAll(async () => {
  await srv?.close();
  await idp?.close();
});

const listDomains = (token: string): Promise<RpcReply> =>
  modernRpc(srv.url, 'tools/call', { name: 'list_domains', arguments: {} }, { headers: { authorization: `Bearer ${token}` } });

/** A token the issuer's key signs, for this server, valid now: `typ` as given (absent when undefined), `sub` as given. */
async function signed(header: { typ?: unknown }, claims: Record<string, unknown> = { sub: 'someone' }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ scope: BOTH, ...claims }).setIssuer(idp.issuer).setAudience(srv.url).setIssuedAt(now).setExpirationTime(now + 600);
  // setProtectedHeader types typ as a string: a number is what a broken issuer could send
  jwt.setProtectedHeader({ alg: 'RS256', kid: key.kid as string, ...(header as { typ?: string }) });
  return jwt.sign(await importJWK(key, 'RS256'));
}

/** The 401's error_description, and the body's message. */
function refusal(r: RpcReply): { description: string | undefined; message: string } {
  const challenge = r.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer .*error="invalid_token"/);
  return { description: /error_description="([^"]*)"/.exec(challenge)?.[1], message: r.msg.error.message as string };
}

describe('the typ header', () => {
  test("the provider's own token (at+jwt) is accepted", async () => {
    const token = await idp.token(AGENT, srv.url, BOTH);
    expect(JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString())).toMatchObject({ typ: 'at+jwt', kid: key.kid });
    expect((await listDomains(token)).status).toBe(200);
  });

  test.each(['(none)', 'at+jwt', 'application/at+jwt', 'AT+JWT', 'Application/At+Jwt', 'JWT', 'jwt', 'application/jwt'])(
    'typ %s is accepted',
    async (typ) => {
      const r = await listDomains(await signed(typ === '(none)' ? {} : { typ }));
      expect(r.status).toBe(200);
      expect(r.msg.result.isError).not.toBe(true);
    },
  );

  test.each([['logout+jwt'], ['secevent+jwt'], ['dpop+jwt'], ['application/logout+jwt'], ['JOSE'], ['at+jwt; q=1', 'a value that is not a media type'], [42, 'a number']])(
    'typ %s is refused: 401 invalid_token naming the type seen and the ones accepted',
    async (typ, seen = String(typ)) => {
      const r = await listDomains(await signed({ typ }));
      expect(r.status).toBe(401);
      const { description, message } = refusal(r);
      const reason = `the token's typ header is ${seen}, which is not an access token's: ${ACCEPTED}`;
      expect(description).toBe(reason);
      expect(message).toMatch(new RegExp(`^Unauthorized: the token sent is not accepted \\(${reason.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\); send the header Authorization: Bearer`));
    },
  );
});

describe('the subject', () => {
  test.each([
    ['missing', {}],
    ['empty', { sub: '' }],
    ['a number, not a string', { sub: 42 }],
    ['null, not a string', { sub: null }],
  ])('a sub claim that is %s: 401 invalid_token saying the token has no subject', async (what, claims) => {
    const r = await listDomains(await signed({ typ: 'at+jwt' }, claims));
    expect(r.status).toBe(401);
    const reason = `the token has no subject: its sub claim is ${what}; the authorization server must say who the token is for`;
    expect(refusal(r).description).toBe(reason);
    expect(refusal(r).message).toContain(`the token sent is not accepted (${reason})`);
  });

  test('a token with a subject, signed the same way, is accepted (the refusals above are about sub alone)', async () => {
    expect((await listDomains(await signed({ typ: 'at+jwt' }, { sub: 'agent-7' }))).status).toBe(200);
  });
});
