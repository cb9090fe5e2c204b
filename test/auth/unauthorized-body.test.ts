// The 401 body says what is wrong with the request: no header (send one), a header that is not "Bearer <token>",
// or a token that is not accepted (unknown or revoked: a client that sends a token must not be told to send the
// header it sends). The token itself is never in the body, the challenge or the log reason.
import type { IncomingMessage } from 'node:http';
import { expect, test } from 'vitest';
import { createAuthenticator, newToken, type AuthRefusal } from '../../src/server/auth/index.js';
import { freePort } from '../helpers/redis.js';

const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

async function refused(auth: ReturnType<typeof createAuthenticator>, authorization?: string): Promise<AuthRefusal & { message: string }> {
  const r = await auth.authenticate(req(authorization));
  if (r.ok) throw new Error('accepted');
  return { ...r, message: (JSON.parse(r.body) as { error: { message: string } }).error.message };
}

const alice = newToken('alice', ['catalog:read']);
const WRONG = 'act_wrong-token-canary-000000000000000000000000';

test('named tokens: a missing header is told to send one; a wrong or revoked token is told it is not accepted', async () => {
  let live = true;
  const auth = createAuthenticator({ tokens: { match: (t) => (live && t === alice.token ? { name: 'alice', scopes: ['catalog:read'] } : undefined) } });
  const missing = await refused(auth);
  expect(missing.status).toBe(401);
  expect(missing.message).toBe('Unauthorized: send the header Authorization: Bearer <token> (a token the server operator gave you)');
  expect(missing.headers['WWW-Authenticate']).toBe('Bearer realm="api-catalog"');

  const wrong = await refused(auth, `Bearer ${WRONG}`);
  expect(wrong.status).toBe(401);
  expect(wrong.message).toBe(
    'Unauthorized: the token sent is not accepted (unknown, or revoked by the server operator); send the header Authorization: Bearer <token> (a token the server operator gave you)',
  );
  expect(wrong.headers['WWW-Authenticate']).toBe('Bearer realm="api-catalog", error="invalid_token"');
  expect(wrong.message).not.toBe(missing.message);

  expect((await auth.authenticate(req(`Bearer ${alice.token}`))).ok).toBe(true);
  live = false; // its line removed from the file
  const revoked = await refused(auth, `Bearer ${alice.token}`);
  expect(revoked.message).toBe(wrong.message);

  const malformed = await refused(auth, `Basic ${Buffer.from('u:p').toString('base64')}`);
  expect(malformed.message).toMatch(/^Unauthorized: the Authorization header is not "Bearer <token>"; send the header/);

  for (const r of [wrong, revoked, malformed]) {
    expect(r.body + JSON.stringify(r.headers) + r.reason).not.toContain(WRONG);
    expect(r.body + JSON.stringify(r.headers) + r.reason).not.toContain(alice.token);
  }
});

test('API_CATALOG_HTTP_TOKEN: a wrong token is told it is not the current one', async () => {
  const auth = createAuthenticator({ staticToken: 'static-token-canary-7c1d9e0a42' });
  expect((await refused(auth)).message).toBe("Unauthorized: send the header Authorization: Bearer <token> (the server operator's API_CATALOG_HTTP_TOKEN)");
  const wrong = await refused(auth, `Bearer ${WRONG}`);
  expect(wrong.message).toMatch(/^Unauthorized: the token sent is not accepted \(it is not the server operator's API_CATALOG_HTTP_TOKEN/);
  expect(wrong.body).not.toContain(WRONG);
});

test('OAuth with named tokens: an unknown token that is no JWT is not called "not a JWT" alone: it may be a revoked named token', async () => {
  // Never asked: a token that is not JWT-shaped is refused before discovery.
  const issuer = `http://127.0.0.1:${await freePort()}`;
  const auth = createAuthenticator({ oauth: { issuer, resource: 'http://127.0.0.1:3333/mcp' }, tokens: { match: () => undefined } });
  const missing = await refused(auth);
  expect(missing.message).toMatch(/^Unauthorized: send the header Authorization: Bearer <access token> issued by /);
  const wrong = await refused(auth, `Bearer ${WRONG}`);
  expect(wrong.message).toMatch(
    /^Unauthorized: the token sent is not accepted \(the token is not a JWT, nor a configured token \(unknown or revoked\)\); send the header Authorization: Bearer <access token> issued by /,
  );
  expect(wrong.headers['WWW-Authenticate']).toContain('error="invalid_token"');
  expect(wrong.body).not.toContain(WRONG);
});
