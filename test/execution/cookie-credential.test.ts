// A cookie API key goes on the wire as the operator gave it (audit imp50 defect 9): an express-session cookie
// `s%3A<id>.<sig>` re-encoded to `s%253A...` is another session, so cookie auth never worked for such APIs. A value
// with a character a cookie cannot carry (RFC 6265 cookie-octets) is refused as a configuration error that names the
// variable and the character, never the value. Agent-supplied cookie parameters stay percent-encoded. Real request
// building and a real recording upstream on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { executeOperation, prepareRequest, type ExecutionConfig } from '../../src/execution/index.js';
import type { Upstream } from '../helpers/upstream.js';
import { fail, okay, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = c;
}, { path: '/api' });

// Intellifi's shape: the session cookie brain.sid as one alternative
const schemes = withSchemes({ CookieSid: { type: 'apiKey', in: 'cookie', name: 'brain.sid' } });
const getSpots = op({ name: 'getSpots', path: '/spots', security: [{ CookieSid: [] }], params: [{ arg: 'pref', in: 'cookie' }] });
const VAR = 'TESTAPI_API_KEY';
const config = (value: string, extra: Partial<ExecutionConfig> = {}): ExecutionConfig => ({ ...cfg, catalog: schemes, env: { [VAR]: value }, ...extra });

describe('a cookie credential from the environment', () => {
  it('goes out exactly as given: an express-session value keeps its %3A (not %253A)', async () => {
    const sid = 's%3Asess-42.Ab+/=sig!*()~';
    okay(await executeOperation(getSpots, {}, config(sid)));
    expect(up.requests.map((r) => r.headers.cookie)).toEqual([`brain.sid=${sid}`]);
  });

  it('is masked in a dry run in the form it is sent', () => {
    const p = prepareRequest(getSpots, {}, config('s%3Asess-42.sig'));
    expect(p.headers.cookie).toBe('brain.sid=***');
    expect(JSON.stringify(p)).not.toContain('sess-42');
  });

  it("keeps the catalog's credentialPrefix before it, unencoded", async () => {
    okay(await executeOperation(getSpots, {}, config('s%3Aabc', { credentialPrefix: 'v1|' })));
    expect(up.requests[0]!.headers.cookie).toBe('brain.sid=v1|s%3Aabc');
  });

  it.each([
    ['a semicolon', 'sess;admin=1', 'a semicolon'],
    ['a comma', 'a,b-secret', 'a comma'],
    ['a space', 'sess secret-part', 'a space'],
    ['a double quote', '"quoted-secret"', 'a double quote'],
    ['a backslash', 'xq\\zz-secret', 'a backslash'],
    ['a trailing line break', 'sess-secret\n', 'a control character (U+000A, a line break)'],
    ['a tab', 'sess\tsecret', 'a control character (U+0009, a tab)'],
    ['DEL', 'sess\x7fsecret', 'a control character (U+007F)'],
    ['a non-ASCII letter', 'séss-secret', 'a non-ASCII character'],
  ])('with %s is refused before sending, naming the variable and the character, never the value', async (_what, value, said) => {
    const out = fail(await executeOperation(getSpots, {}, config(value)));
    expect(out.code).toBe('CONFIG_INVALID');
    expect(out.message).toContain(`getSpots: the credential for cookie brain.sid (${VAR}) holds ${said}, which a cookie value cannot carry`);
    expect(out.message).toContain(`set ${VAR} to the cookie's value exactly as the API sets it`);
    expect(out.details).toEqual({ reason: 'cookie-credential', cookie: 'brain.sid', source: VAR });
    expect(out.instruction).toBe(`Tell the user that ${VAR} holds a character a cookie cannot carry (see the message): it must be the cookie's value exactly as the API sets it. Do not retry until then.`);
    const text = JSON.stringify(out);
    for (const piece of value.split(/[^A-Za-z0-9-]+/).filter((p) => p.length >= 4)) expect(text).not.toContain(piece);
    expect(up.requests).toHaveLength(0);
    // a dry run says the same (it would show a request that can never be sent)
    expect(() => prepareRequest(getSpots, {}, config(value))).toThrow(/CONFIG_INVALID|cannot carry/);
  });

  it("the session's X-Upstream-Token in the cookie's place: sent as given, refused likewise", async () => {
    okay(await executeOperation(getSpots, {}, config('', { env: {}, sessionCredential: 's%3Aclient.sig' })));
    expect(up.requests[0]!.headers.cookie).toBe('brain.sid=s%3Aclient.sig');
    const out = fail(await executeOperation(getSpots, {}, config('', { env: {}, sessionCredential: 'client secret' })));
    expect(out.message).toContain("(the session's X-Upstream-Token) holds a space");
    expect(JSON.stringify(out)).not.toContain('client secret');
    expect(up.requests).toHaveLength(1);
  });
});

describe('an agent-supplied cookie parameter', () => {
  it('is still percent-encoded next to the credential', async () => {
    okay(await executeOperation(getSpots, { pref: 'a;b=c %3A' }, config('s%3Asess')));
    expect(up.requests[0]!.headers.cookie).toBe('pref=a%3Bb%3Dc%20%253A; brain.sid=s%3Asess');
  });
});
