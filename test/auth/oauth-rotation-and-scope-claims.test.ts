// OAuth against a real OpenID provider (oidc-provider on loopback) that rotates its signing key and issues the
// `scope` claim in other shapes: a key rotated while jose's refetch cooldown is on makes a fresh token "could not be
// checked yet" (503 + Retry-After, which a client retries) rather than a bad token (401, which makes it discard the
// token), while a token with an unknown key id issued before the last key fetch stays a 401; a `scope` array of
// strings is read like `scp`; a `scope` claim of another type gets a 403 that says the claim was not understood.
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernRpc, type RpcReply } from '../helpers/mcp-raw.js';
import { until } from '../helpers/timing.js';
import { nextKey, startProvider, type TestClient, type TestProvider } from './provider.js';

const BOTH = 'catalog:read catalog:execute';
const SCOPES = 'catalog:read catalog:execute';
const AGENT: TestClient = { id: 'agent', secret: 'agent-secret-rotation-5b0e13', scope: SCOPES };
const SPRING: TestClient = { id: 'spring-style', secret: 'spring-secret-9a7c42', scope: SCOPES, scopeClaim: 'array' };
const ODD: TestClient = { id: 'odd-scope', secret: 'odd-secret-2f6d80', scope: SCOPES, scopeClaim: 'number' };
// jose's cooldown is min(30 s, the keys' max age): 20 s, so the wait for the retry to work stays short, and the
// requests between the key fetch and the fresh token (a token request, nothing slow) are far inside it.
const KEYS_MAX_AGE_MS = 20_000;

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

describe('a key rotation while jose cools down', () => {
  test('a token issued after the last key fetch: 503 with Retry-After (not 401), then accepted once the keys are fetched again', async () => {
    const srv = await serve();
    const rotated = await nextKey(); // made beforehand: the rotation itself is instant
    const first = await idp.token(AGENT, srv.url, BOTH);
    // the server fetches the keys now, and jose will not fetch them again for the cooldown
    expect((await listDomains(srv, first)).status).toBe(200);

    // an unknown key id on a token older than that fetch: checked against keys newer than it, so a bad token
    const old = await listDomains(srv, await strangerToken(srv, Math.floor(Date.now() / 1000) - 120));
    expect(old.status).toBe(401);
    expect(old.headers.get('www-authenticate')).toMatch(/error="invalid_token", error_description="no key of the authorization server matches the token"/);
    // nor does a claimed issue time in the future buy a 503
    expect((await listDomains(srv, await strangerToken(srv, Math.floor(Date.now() / 1000) + 3600))).status).toBe(401);

    const kid = idp.rotate(rotated);
    // a token of the new key for another resource is bad whatever its key: still a 401
    const elsewhere = await listDomains(srv, await idp.token(AGENT, 'https://other.example/mcp', BOTH));
    expect(elsewhere.status).toBe(401);
    const fresh = await idp.token(AGENT, srv.url, BOTH);
    expect(JSON.parse(Buffer.from(fresh.split('.')[0] as string, 'base64url').toString())).toMatchObject({ kid });
    const waiting = await listDomains(srv, fresh);
    expect(waiting.status).toBe(503);
    const retryAfter = Number(waiting.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(KEYS_MAX_AGE_MS / 1000);
    expect(waiting.msg.error.message).toMatch(/^Service Unavailable: the token cannot be checked yet \(the token's signing key is not among the authorization server's keys, which were fetched before the token was issued and are fetched again in \d+ s\); retry after \d+ s$/);
    // no invalid_token challenge: nothing tells the client to throw the token away
    expect(waiting.headers.get('www-authenticate')).toBeNull();

    // the client retries as told: once the cooldown is over the server fetches the new key and the same token works
    let last = waiting;
    await until(async () => (last = await listDomains(srv, fresh)).status !== 503, 'the cooldown to end', 60_000, 250);
    expect(last.status).toBe(200);
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
