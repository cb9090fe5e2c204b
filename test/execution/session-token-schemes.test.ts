// Which scheme a session's X-Upstream-Token fills: one credential, so one scheme of a requirement (its bearer /
// OAuth2 / OpenID Connect scheme, else its only header, cookie or basic scheme), never an API key in the URL query
// where access logs keep it; the requirement's other schemes read their env vars. And the credentials an operation
// accepts keep the spec's structure: schemes of one requirement all needed, requirements alternatives.
// Real request building against a recording upstream on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { credentialAlternatives } from '../../src/execution/auth.js';
import { credentialStatus, executeOperation, prepareRequest, type ExecutionConfig } from '../../src/execution/index.js';
import type { Operation } from '../../src/types.js';
import type { RecordedRequest, Upstream } from '../helpers/upstream.js';
import { fail, okay, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = c;
}, { path: '/v1' });

const SESSION = 'session-token-7f3a9c';
const schemes = withSchemes({
  key: { type: 'apiKey', in: 'query', name: 'api_key' },
  hkey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  ckey: { type: 'apiKey', in: 'cookie', name: 'sid' },
  bearer: { type: 'http', scheme: 'bearer' },
  basic: { type: 'http', scheme: 'basic' },
  oauth: { type: 'oauth2' },
  oidc: { type: 'openIdConnect' },
});
const secured = (...reqs: string[][]): Operation => op({ security: reqs.map((r) => Object.fromEntries(r.map((s) => [s, []]))) });
const session = (env: Record<string, string> = {}): ExecutionConfig => ({ ...cfg, catalog: schemes, env, sessionCredential: SESSION });

async function sent(o: Operation, config: ExecutionConfig): Promise<RecordedRequest> {
  okay(await executeOperation(o, {}, config));
  expect(up.requests).toHaveLength(1);
  return up.requests[0]!;
}

describe("the session's X-Upstream-Token fills one scheme, never the URL query", () => {
  it('API key in the query + bearer, both required: the token is the bearer; the key comes from its env var', async () => {
    const r = await sent(secured(['key', 'bearer']), session({ TESTAPI_API_KEY: 'operator-key-1' }));
    expect(r.headers.authorization).toBe(`Bearer ${SESSION}`);
    expect(r.url).toBe('/v1/things?api_key=operator-key-1');
  });

  it('API key in the query + bearer with no key in the environment: AUTH_MISSING, nothing sent, the rule said', async () => {
    const out = fail(await executeOperation(secured(['key', 'bearer']), {}, session()));
    expect(out.code).toBe('AUTH_MISSING');
    expect(out.message).toMatch(/key \(TESTAPI_API_KEY\) and bearer \(TESTAPI_TOKEN\)/);
    expect(out.message).toMatch(/X-Upstream-Token stands for a bearer .* never put into a URL query/);
    expect(out.message).not.toContain(SESSION);
    expect(up.requests).toHaveLength(0);
    expect(() => prepareRequest(secured(['key', 'bearer']), {}, session())).toThrow(/AUTH_MISSING|needs credentials/);
  });

  it('an operation whose only credential is an API key in the query: the env key, never the token', async () => {
    expect(fail(await executeOperation(secured(['key']), {}, session())).code).toBe('AUTH_MISSING');
    const r = await sent(secured(['key']), session({ TESTAPI_API_KEY: 'operator-key-2' }));
    expect(r.url).toBe('/v1/things?api_key=operator-key-2');
    expect(JSON.stringify(r.headers)).not.toContain(SESSION);
  });

  it.each([
    ['bearer', (r: RecordedRequest) => expect(r.headers.authorization).toBe(`Bearer ${SESSION}`)],
    ['oauth', (r: RecordedRequest) => expect(r.headers.authorization).toBe(`Bearer ${SESSION}`)],
    ['oidc', (r: RecordedRequest) => expect(r.headers.authorization).toBe(`Bearer ${SESSION}`)],
    ['hkey', (r: RecordedRequest) => expect(r.headers['x-api-key']).toBe(SESSION)],
    ['ckey', (r: RecordedRequest) => expect(r.headers.cookie).toBe(`sid=${SESSION}`)],
  ])('a requirement of %s alone: the token is its credential (env ignored)', async (scheme, check) => {
    const r = await sent(secured([scheme]), session({ TESTAPI_TOKEN: 'env-token', TESTAPI_API_KEY: 'env-key' }));
    check(r);
    expect(r.url).toBe('/v1/things');
  });

  it('basic alone takes user:password from the token', async () => {
    const r = await sent(secured(['basic']), { ...cfg, catalog: schemes, env: {}, sessionCredential: 'ann:pw-session-1' });
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from('ann:pw-session-1').toString('base64')}`);
  });

  it('a header API key + bearer: the token is the bearer only, never copied into the key header', async () => {
    const r = await sent(secured(['hkey', 'bearer']), session({ TESTAPI_API_KEY: 'operator-key-3' }));
    expect(r.headers.authorization).toBe(`Bearer ${SESSION}`);
    expect(r.headers['x-api-key']).toBe('operator-key-3');
  });

  it('describe says which schemes the token fills', () => {
    const status = credentialStatus(secured(['key', 'bearer']), session());
    expect(status.map((s) => [s.scheme, s.set])).toEqual([['key', false], ['bearer', true]]);
  });

  it('the statuses say where the value comes from, as resolveAuth chooses it: source "header" for the scheme the token fills', () => {
    // one place decides (auth.ts): the statuses themselves carry `source`, with no second pass by their callers
    expect(credentialStatus(secured(['key', 'bearer']), session({ TESTAPI_API_KEY: 'k-7' }))).toEqual([
      { scheme: 'key', envVars: ['TESTAPI_API_KEY'], set: true },
      { scheme: 'bearer', envVars: ['TESTAPI_TOKEN'], set: true, source: 'header' },
    ]);
    // the token fills the bearer alternative, not the query key's: only the bearer's value comes from the header
    expect(credentialAlternatives(secured(['key'], ['bearer']), session(), { envSet: true })).toEqual([
      [{ scheme: 'key', envVars: ['TESTAPI_API_KEY'], set: false, envSet: false }],
      [{ scheme: 'bearer', envVars: ['TESTAPI_TOKEN'], set: true, source: 'header', envSet: false }],
    ]);
    // the env var set too: still the header's (it wins), and `envSet` (asked for by the wording only) says both
    expect(credentialAlternatives(secured(['hkey']), session({ TESTAPI_API_KEY: 'k-8' }), { envSet: true })).toEqual([
      [{ scheme: 'hkey', envVars: ['TESTAPI_API_KEY'], set: true, source: 'header', envSet: true }],
    ]);
    // a token that is no user:password in a basic scheme's place: no value, the env vars are not read instead
    const basic = { ...session({ TESTAPI_USERNAME: 'u', TESTAPI_PASSWORD: 'p' }), sessionCredential: 'no-colon' };
    expect(credentialStatus(secured(['basic']), basic)).toEqual([{ scheme: 'basic', envVars: ['TESTAPI_USERNAME', 'TESTAPI_PASSWORD'], set: false }]);
    expect(() => prepareRequest(secured(['basic']), {}, basic)).toThrow(/takes the place of basic and is not user:password/);
    // each scheme once: from the header where one alternative takes it from the token (tried first), though another reads its env var
    const both = credentialStatus(secured(['hkey', 'key'], ['hkey']), session({ TESTAPI_API_KEY: 'k-10' }));
    expect(both.find((s) => s.scheme === 'hkey')).toEqual({ scheme: 'hkey', envVars: ['TESTAPI_API_KEY'], set: true, source: 'header' });
    // without a session token: no source, and no `envSet` unless asked for
    expect(credentialStatus(secured(['bearer']), { ...cfg, catalog: schemes, env: { TESTAPI_TOKEN: 't' } })).toEqual([{ scheme: 'bearer', envVars: ['TESTAPI_TOKEN'], set: true }]);
  });

  it('AUTH_MISSING whose variables are all set (a scheme this server cannot send) names no empty "not set" list', () => {
    const o = op({ security: [{ tls: [], key: [] }] });
    expect(() => prepareRequest(o, {}, { ...cfg, catalog: schemes, env: { TESTAPI_API_KEY: 'k-9' } })).toThrow(/^test_op: needs credentials: tls \(unsupported scheme\) and key \(TESTAPI_API_KEY\)$/);
  });
});

describe("alternatives: the session's X-Upstream-Token goes to the one it fills, a bearer one first", () => {
  it('[{header key}, {bearer}]: the token is the bearer, never sent as the API key', async () => {
    const r = await sent(secured(['hkey'], ['bearer']), session());
    expect(r.headers.authorization).toBe(`Bearer ${SESSION}`);
    expect(r.headers['x-api-key']).toBeUndefined();
  });

  it('[{cookie key}, {oauth2}] and [{basic}, {openIdConnect}]: the token-taking scheme, whatever the order', async () => {
    const a = await sent(secured(['ckey'], ['oauth']), session());
    expect(a.headers.authorization).toBe(`Bearer ${SESSION}`);
    expect(a.headers.cookie).toBeUndefined();
    up.clear();
    const b = await sent(secured(['basic'], ['oidc']), { ...session(), sessionCredential: 'ann:pw-session-2' });
    expect(b.headers.authorization).toBe('Bearer ann:pw-session-2');
  });

  it('[{}, {bearer}] (credentials optional): the token is sent, not dropped for the empty alternative', async () => {
    const r = await sent(op({ security: [{}, { bearer: [] }] }), session());
    expect(r.headers.authorization).toBe(`Bearer ${SESSION}`);
  });

  it('[{query key}, {bearer}] with the key in the environment: the session token wins, and no key goes into the URL', async () => {
    const r = await sent(secured(['key'], ['bearer']), session({ TESTAPI_API_KEY: 'operator-key-4' }));
    expect(r.headers.authorization).toBe(`Bearer ${SESSION}`);
    expect(r.url).toBe('/v1/things');
  });

  it('a bearer alternative that is not complete (its query key unset) gives way to one the token completes alone', async () => {
    const r = await sent(secured(['bearer', 'key'], ['hkey']), session());
    expect(r.headers['x-api-key']).toBe(SESSION);
    expect(r.headers.authorization).toBeUndefined();
    expect(r.url).toBe('/v1/things');
  });

  it('no alternative the token fills: the env vars, in the description\'s order; the token never goes into the query', async () => {
    const r = await sent(secured(['key']), session({ TESTAPI_API_KEY: 'operator-key-5' }));
    expect(r.url).toBe('/v1/things?api_key=operator-key-5');
    expect(JSON.stringify(r)).not.toContain(SESSION);
  });

  it('without a session token the description\'s order decides, as before', async () => {
    const r = await sent(secured(['hkey'], ['bearer']), { ...cfg, catalog: schemes, env: { TESTAPI_API_KEY: 'env-key-6', TESTAPI_TOKEN: 'env-token-6' } });
    expect(r.headers['x-api-key']).toBe('env-key-6');
    expect(r.headers.authorization).toBeUndefined();
  });
});

describe('credentialAlternatives keeps the spec structure: all of a requirement, any requirement', () => {
  const env = { TESTAPI_API_KEY: 'k-1' };
  it('[{key, bearer}] is one alternative of two required schemes, each with its own status', () => {
    const alts = credentialAlternatives(secured(['key', 'bearer']), { ...cfg, catalog: schemes, env }, { format: true });
    expect(alts).toEqual([
      [
        { scheme: 'key', envVars: ['TESTAPI_API_KEY'], set: true, format: 'the key alone; sent as query parameter api_key' },
        { scheme: 'bearer', envVars: ['TESTAPI_TOKEN'], set: false, format: 'the token alone; sent as "Authorization: Bearer <value>"' },
      ],
    ]);
  });

  it('[{bearer}, {hkey}] are two alternatives; {} is an empty (optional) one', () => {
    const alts = credentialAlternatives(op({ security: [{ bearer: [] }, { hkey: [] }, {}] }), { ...cfg, catalog: schemes, env });
    expect(alts.map((a) => a.map((s) => `${s.scheme}:${s.set}`))).toEqual([['bearer:false'], ['hkey:true'], []]);
  });
});
