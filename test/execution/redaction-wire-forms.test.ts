// A credential is masked in every form the request put on the wire and in every way an upstream may echo it back:
// the strict percent-encoding query and cookie credentials are sent with (`KEY(abc)*123!` -> `KEY%28abc%29%2A123%21`),
// its lower-case-hex spelling, and JSON that escapes the secret's characters (`\/` as PHP's json_encode writes,
// `\u00XX`). Real request building, a real upstream on 127.0.0.1 that echoes what it received.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { executeOperation, prepareRequest, type ExecutionConfig } from '../../src/execution/index.js';
import { Redactor } from '../../src/execution/redact.js';
import type { RecordedRequest, Upstream } from '../helpers/upstream.js';
import { fail, okay, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = c;
}, { path: '/v1' });

/** A credential with every character encodeURIComponent leaves alone but a strict encoder escapes. */
const KEY = 'KEY(abc)*123!';
const KEY_WIRE = 'KEY%28abc%29%2A123%21';
const TOKEN = 'TOK/SECRET/9f8e7d';

const schemes = withSchemes({
  key: { type: 'apiKey', in: 'query', name: 'api_key' },
  bearer: { type: 'http', scheme: 'bearer' },
  ckey: { type: 'apiKey', in: 'cookie', name: 'sid' },
});
/** The audit's operation: an API key in the query and a bearer token, both required. */
const profile = op({ path: '/users/{id}/profile', security: [{ key: [], bearer: [] }], params: [{ arg: 'id', in: 'path' }] });

const config = (extra: Partial<ExecutionConfig> = {}): ExecutionConfig => ({ ...cfg, catalog: schemes, env: { TESTAPI_API_KEY: KEY, TESTAPI_TOKEN: TOKEN }, ...extra });

/** Every spelling of a secret that must never come back. */
function leaks(text: string, ...secrets: string[]): string[] {
  const forms = secrets.flatMap((s) => [s, encodeURIComponent(s), encodeURIComponent(s).toLowerCase()]);
  const strict = secrets.map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
  return [...forms, ...strict, ...strict.map((s) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()))].filter((f) => text.includes(f));
}

/** An upstream route that answers with what `body` makes of the recorded request. */
function answer(status: number, body: (rec: RecordedRequest) => string, headers: Record<string, string> = {}) {
  return {
    kind: 'handler' as const,
    handle: (_req: IncomingMessage, res: ServerResponse, rec: RecordedRequest) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body(rec));
    },
  };
}

describe('a credential with !\'()* is masked in the form it went on the wire', () => {
  it('dry run: the URL and the curl line show api_key=***, not the strict-encoded key', () => {
    const p = prepareRequest(profile, { id: '1' }, config());
    expect(p.url).toBe(`${up.url}/v1/users/1/profile?api_key=***`);
    expect(p.headers.authorization).toBe('Bearer ***');
    expect(p.curl).toContain(`'${up.url}/v1/users/1/profile?api_key=***'`);
    expect(leaks(JSON.stringify(p), KEY, TOKEN)).toEqual([]);
  });

  it('the upstream got the strict form; its echo of the URL (as sent, and in lower-case hex) comes back masked', async () => {
    up.route('/v1/users/1/profile', answer(200, (rec) => JSON.stringify({ url: rec.url, lower: rec.url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), auth: rec.headers.authorization })));
    const out = okay(await executeOperation(profile, { id: '1' }, config()));
    expect(up.requests.map((r) => r.url)).toEqual([`/v1/users/1/profile?api_key=${KEY_WIRE}`]);
    expect(out.data).toEqual({ url: '/v1/users/1/profile?api_key=***', lower: '/v1/users/1/profile?api_key=***', auth: 'Bearer ***' });
    expect(leaks(JSON.stringify(out), KEY, TOKEN)).toEqual([]);
  });

  it('an API error that quotes the URL: UPSTREAM_ERROR message and details.body are masked', async () => {
    up.route('/v1/users/1/profile', answer(401, (rec) => JSON.stringify({ message: `bad creds ${rec.headers.authorization} url=${rec.url}` }), { 'www-authenticate': 'Bearer realm="x"' }));
    const out = fail(await executeOperation(profile, { id: '1' }, config()));
    expect(out.code).toBe('UPSTREAM_ERROR');
    expect(out.message).toBe('test_op: the API answered 401: bad creds Bearer *** url=/v1/users/1/profile?api_key=***');
    expect(leaks(JSON.stringify(out), KEY, TOKEN)).toEqual([]);
  });

  it('an echo of the URL inside another URL (percent-encoded again, as a return_to link carries it) is masked too', async () => {
    const again = (s: string) => encodeURIComponent(s);
    up.route('/v1/users/1/profile', answer(200, (rec) => JSON.stringify({ next: `/login?return_to=${again(rec.url)}`, lower: again(rec.url).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) })));
    const out = okay(await executeOperation(profile, { id: '1' }, config()));
    expect(JSON.stringify(up.requests.map((r) => r.url))).toContain(KEY_WIRE);
    expect(out.data).toEqual({ next: '/login?return_to=%2Fv1%2Fusers%2F1%2Fprofile%3Fapi_key%3D***', lower: '%2fv1%2fusers%2f1%2fprofile%3fapi_key%3d***' });
    expect(leaks(JSON.stringify(out), KEY, KEY_WIRE)).toEqual([]);
    // an API error quoting it so: masked in the message too
    up.route('/v1/users/1/profile', answer(403, (rec) => JSON.stringify({ message: `sign in first: /login?return_to=${again(rec.url)}` })));
    const err = fail(await executeOperation(profile, { id: '1' }, config()));
    expect(err.message).toBe('test_op: the API answered 403: sign in first: /login?return_to=%2Fv1%2Fusers%2F1%2Fprofile%3Fapi_key%3D***');
    expect(leaks(JSON.stringify(err), KEY, KEY_WIRE)).toEqual([]);
  });

  it("the session's X-Upstream-Token in a cookie: masked in the dry run and in the echo", async () => {
    const session = 'SESSIONTOKEN(zz)!';
    const cookieOp = op({ security: [{ ckey: [] }] });
    const c = config({ env: {}, sessionCredential: session });
    expect(prepareRequest(cookieOp, {}, c).headers.cookie).toBe('sid=***');
    up.route('/v1/things', answer(200, (rec) => JSON.stringify({ cookie: rec.headers.cookie })));
    const out = okay(await executeOperation(cookieOp, {}, c));
    expect(up.requests.map((r) => r.headers.cookie)).toEqual(['sid=SESSIONTOKEN(zz)!']);
    expect(out.data).toEqual({ cookie: 'sid=***' });
    expect(leaks(JSON.stringify(out), session)).toEqual([]);
  });
});

describe('an echo whose JSON escapes the secret differently from the raw text is still masked', () => {
  const bearerOnly = op({ security: [{ bearer: [] }] });
  const c = (): ExecutionConfig => config({ env: { TESTAPI_TOKEN: TOKEN } });

  it.each([
    // PHP's json_encode writes every / as \/
    ['\\/ (PHP json_encode)', (s: string) => s.replace(/\//g, '\\/')],
    // some encoders write characters as \u00XX
    ['\\u00XX', (s: string) => s.replace(/[A-Z]/g, (ch) => `\\u00${ch.charCodeAt(0).toString(16)}`)],
  ])('%s: success data, full data and the raw text check agree', async (_name, escape) => {
    up.route('/v1/things', answer(200, (rec) => escape(JSON.stringify({ auth: rec.headers.authorization, pad: 'x'.repeat(40_000) }))));
    const out = okay(await executeOperation(bearerOnly, {}, { ...c(), tokenBudget: 100 }));
    expect(up.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(out.truncated).toBeDefined();
    expect((out.full as { auth: string }).auth).toBe('Bearer ***');
    expect(leaks(JSON.stringify(out), TOKEN)).toEqual([]);
  });

  it('a plain-text answer that holds a secret with a backslash is masked too', async () => {
    const odd = 'pw\\u0041-literal-9';
    up.route('/v1/things', { kind: 'status', status: 200, headers: { 'content-type': 'text/plain' }, body: `you sent ${odd}` });
    const out = okay(await executeOperation(bearerOnly, {}, config({ env: { TESTAPI_TOKEN: odd } })));
    expect(out.data).toBe('you sent ***');
  });
});

describe('Redactor forms', () => {
  it('masks the raw value, both percent encodings in either hex case, the form (+) spellings, the encodings encoded again and base64', () => {
    const r = new Redactor(["it's a (secret) key!*"]);
    const strict = "it%27s%20a%20%28secret%29%20key%21%2A";
    for (const form of [
      "it's a (secret) key!*",
      encodeURIComponent("it's a (secret) key!*"),
      strict,
      strict.toLowerCase(),
      strict.replace(/%20/g, '+'),
      encodeURIComponent(strict),
      encodeURIComponent(strict).replace(/%25([0-9A-F]{2})/g, (_m, h: string) => `%25${h.toLowerCase()}`),
      new URLSearchParams({ k: "it's a (secret) key!*" }).toString().slice(2),
      Buffer.from("it's a (secret) key!*").toString('base64'),
    ]) {
      expect(r.string(`before ${form} after`), form).toBe('before *** after');
    }
  });
});
