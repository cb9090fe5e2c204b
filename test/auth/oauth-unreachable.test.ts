// An OAuth issuer that cannot be reached is reported with the cause (ECONNREFUSED, ENOTFOUND, a TLS code, no answer
// in time), in readiness and in oauth_discovery_failed: fetch's bare "TypeError: fetch failed" said nothing of it.
// Also when the issuer's metadata answers but its signing keys (jwks_uri) cannot be fetched.
import { createServer, type Server } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { OAuthVerifier, fetchFailure } from '../../src/server/auth/oauth.js';
import { freePort } from '../helpers/redis.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

test('nothing listens at the issuer: every URL tried names ECONNREFUSED', async () => {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}/realms/agents`;
  const v = new OAuthVerifier({ issuer, resource: 'http://127.0.0.1:3333/mcp', fetchTimeoutMs: 5000 });
  const problem = await v.keysProblem();
  expect(problem).toBe(
    `oauth: no authorization server metadata for ${issuer}; tried ` +
      `http://127.0.0.1:${port}/realms/agents/.well-known/openid-configuration (ECONNREFUSED), ` +
      `http://127.0.0.1:${port}/.well-known/oauth-authorization-server/realms/agents (ECONNREFUSED), ` +
      `http://127.0.0.1:${port}/.well-known/openid-configuration/realms/agents (ECONNREFUSED)`,
  );
  expect(problem).not.toMatch(/TypeError/);
});

test('the metadata answers but its jwks_uri does not: the keys problem names ECONNREFUSED', async () => {
  const dead = await freePort();
  const srv = createServer((req, res) => {
    const issuer = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `http://127.0.0.1:${dead}/jwks` }));
    } else res.writeHead(404).end();
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
  const v = new OAuthVerifier({ issuer, resource: 'http://127.0.0.1:3333/mcp', fetchTimeoutMs: 5000 });
  expect(await v.keysProblem()).toMatch(new RegExp(`^oauth: the signing keys of ${issuer.replace(/\./g, '\\.')} could not be fetched \\(ECONNREFUSED\\) and none younger than 600 s are cached`));
});

test('fetchFailure: the cause code, else its message; a timeout and a non-JSON answer in words', async () => {
  const refused = await fetch(`http://127.0.0.1:${await freePort()}/`).catch((e: unknown) => e);
  expect(fetchFailure(refused)).toBe('ECONNREFUSED');
  expect(fetchFailure(new TypeError('fetch failed', { cause: new Error('unexpected redirect') }))).toBe('unexpected redirect');
  expect(fetchFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe('no answer in time');
  expect(fetchFailure(new SyntaxError('Unexpected token < in JSON'))).toBe('the answer is not JSON');
  expect(fetchFailure('?')).toBe('error');
});
