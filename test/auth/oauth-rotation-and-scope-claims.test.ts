// OAuth against a real OpenID provider (oidc-provider on loopback) that rotates its signing key and issues the
// `scope` claim in other shapes: a token of a key rotated in since the last key fetch makes the server fetch the keys
// again (rate-limited, one fetch at a time) and is accepted; a made-up token naming an unknown key id is a 401 and
// never a 503 (which a balancer reads as "this replica is failing"), whatever its unverified claims say; a `scope`
// array of strings is read like `scp`; a `scope` claim of another type gets a 403 that says the claim was not
// understood.
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernRpc, type RpcReply } from '../helpers/mcp-raw.js';
import { nextKey, startProvider, type TestClient, type TestProvider } from './provider.js';

const BOTH = 'catalog:read catalog:execute';
const SCOPES = 'catalog:read catalog:execute';
const AGENT: TestClient = { id: 'agent', secret: 'agent-secret-rotation-5b0e13', scope: SCOPES };
const SPRING: TestClient = { id: 'spring-style', secret: 'spring-secret-9a7c42', scope: SCOPES, scopeClaim: 'array' };
const ODD: TestClient = { id: 'odd-scope', secret: 'odd-secret-2f6d80', scope: SCOPES, scopeClaim: 'number' };
const KEYS_MAX_AGE_MS = 600_000;

let idp: TestProvider;
const servers: HttpHandle[] = [];

beforeAll(async () => {
  idp = await startProvider([AGENT, SPRING, ODD]);
});
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await idp?.close();
});

async function serve(): Promise<HttpHandle> {
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 },
    { port: 0, oauth: { issuer: idp.issuer, keysMaxAgeMs: KEYS_MAX_AGE_MS } },
  );
  servers.push(srv);
  return srv;
}

const listDomains = (srv: HttpHandle, token: string): Promise<RpcReply> =>
  modernRpc(srv.url, 'tools/call', { name: 'list_domains', arguments: {} }, { headers: { authorization: `Bearer ${token}` } });

/** A JWT for `srv` signed by a key the issuer never published (its own kid), issued at `iat` (seconds). */
async function strangerToken(srv: HttpHandle, iat: number): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT({ scope: BOTH })
    .setProtectedHeader({ alg: 'RS256', kid: 'stranger-kid', typ: 'at+jwt' })
    .setIssuer(idp.issuer)
    .setAudience(srv.url)
    .setSubject('someone')
    .setIssuedAt(iat)
    .setExpirationTime(iat + 600)
    .sign(privateKey);
}

describe('a key rotation, and made-up tokens naming unknown keys', () => {
  test('a token of a key rotated in since the last fetch is accepted at once (the keys are fetched again); a made-up token with an unknown key id is a 401, never a 503', async () => {
    const srv = await serve();
    const rotated = await nextKey(); // made beforehand: the rotation itself is instant
    const first = await idp.token(AGENT, srv.url, BOTH);
    // the server fetches the keys now
    expect((await listDomains(srv, first)).status).toBe(200);

    // Made up from public facts only (iss and aud are in the PRM, iat from the clock), an unknown key id and a junk
    // signature: a 401 with no Retry-After, so nothing tells a balancer that the replica is failing. Before, such a
    // token got 503 + Retry-After for 30 s after each key fetch, and nginx (max_fails=1) took the replica out.
    const nowSec = Math.floor(Date.now() / 1000);
    for (const iat of [nowSec, nowSec + 5, nowSec - 120, nowSec + 3600]) {
      const forged = await listDomains(srv, await strangerToken(srv, iat));
      expect(forged.status).toBe(401);
      expect(forged.headers.get('retry-after')).toBeNull();
      expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="no key of the authorization server matches the token"/);
    }

    // Anyone can send such tokens, so what they cost the issuer is bounded: one key fetch at a time, at most one per
    // second (the default refetch interval), however many arrive (a bound that holds however slow the machine is).
    const jwksHits = () => idp.hits.filter((h) => h.startsWith('GET /jwks')).length;
    const before = jwksHits();
    const startedAt = Date.now();
    const burst = await Promise.all(Array.from({ length: 20 }, async () => listDomains(srv, await strangerToken(srv, Math.floor(Date.now() / 1000)))));
    const elapsedSec = (Date.now() - startedAt) / 1000;
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(401));
    expect(jwksHits() - before).toBeGreaterThanOrEqual(1);
    expect(jwksHits() - before).toBeLessThanOrEqual(Math.ceil(elapsedSec) + 1);

    const kid = idp.rotate(rotated);
    // a token of the new key for another resource is bad whatever its key: still a 401
    const elsewhere = await listDomains(srv, await idp.token(AGENT, 'https://other.example/mcp', BOTH));
    expect(elsewhere.status).toBe(401);
    const fresh = await idp.token(AGENT, srv.url, BOTH);
    expect(JSON.parse(Buffer.from(fresh.split('.')[0] as string, 'base64url').toString())).toMatchObject({ kid });
    // the new key is fetched for it (once its slot comes, a second at most): accepted, no 503, no retry needed
    const rotatedIn = await listDomains(srv, fresh);
    expect(rotatedIn.status).toBe(200);
    expect(rotatedIn.msg.result.isError).not.toBe(true);
    // and the old key is gone from the issuer's set: a token of it is refused now
    expect((await listDomains(srv, first)).status).toBe(401);
  }, 90_000);
});

describe('the scope claim in other shapes', () => {
  test('`scope` as a JSON array of strings (Spring Authorization Server) is read like `scp`', async () => {
    const srv = await serve();
    const token = await idp.token(SPRING, srv.url, 'catalog:read');
    const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { scope?: unknown };
    expect(claims.scope).toEqual(['catalog:read']);
    const r = await listDomains(srv, token);
    expect(r.status).toBe(200);
    expect(r.msg.result.isError).not.toBe(true);
    // and only what it holds: execute_tool needs catalog:execute, which this token lacks
    const exec = await modernRpc(srv.url, 'tools/call', { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 1 } } }, { headers: { authorization: `Bearer ${token}` } });
    expect(exec.status).toBe(403);
    expect(exec.msg.error.message).toMatch(/needs the scope catalog:execute; ask the authorization server for a token with it/);
  });

  test('a `scope` claim of another type: the 403 says the claim was not understood, not "ask the authorization server"', async () => {
    const srv = await serve();
    const token = await idp.token(ODD, srv.url, BOTH);
    expect(JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString())).toMatchObject({ scope: 42 });
    const r = await listDomains(srv, token);
    expect(r.status).toBe(403);
    const message = r.msg.error.message as string;
    expect(message).toBe(
      "Forbidden: this request needs the scope catalog:read; the token's scope claim is a number, not a space-separated string or an array of strings, " +
        "so this server could not read the token's scopes: the authorization server's administrator can issue scope as a space-separated string (RFC 9068)",
    );
    expect(message).not.toMatch(/ask the authorization server for a token/);
    expect(r.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", error_description="this request needs the scope catalog:read; the token's scope claim is a number/);
  });
});
