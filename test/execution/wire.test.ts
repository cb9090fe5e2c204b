// Wire format against the recording upstream: every parameter style, body type and auth scheme, plus the
// injection attempts of RELIABILITY F and G. Each test asserts what the server actually received.
import { describe, expect, it } from 'vitest';
import { executeOperation, prepareRequest, type ExecutionConfig } from '../../src/execution/index.js';
import type { Operation } from '../../src/types.js';
import type { RecordedRequest, Upstream } from '../helpers/upstream.js';
import { catalog, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = c;
}, { path: '/v1' });

async function call(o: Operation, args: Record<string, unknown>, config: ExecutionConfig = cfg): Promise<RecordedRequest> {
  const before = up.requests.length;
  const out = await executeOperation(o, args, config);
  expect(out, JSON.stringify(out)).toMatchObject({ ok: true });
  expect(up.requests.length).toBe(before + 1);
  return up.requests.at(-1)!;
}

const arr = { type: 'array', items: { type: 'string' } };
const obj = { type: 'object', additionalProperties: { type: 'string' } };

describe('path parameters', () => {
  const user = op({ path: '/users/{id}/profile', params: [{ arg: 'id', in: 'path' }] });

  it('joins the base path explicitly (F5) and keeps 0', async () => {
    const o = op({ path: '/users/{id}', params: [{ arg: 'id', in: 'path', schema: { type: 'integer' } }] });
    expect((await call(o, { id: 0 })).url).toBe('/v1/users/0');
  });

  it.each([
    ['a/b', '/v1/users/a%2Fb/profile'],
    ['a?x=1', '/v1/users/a%3Fx%3D1/profile'],
    ['a#f', '/v1/users/a%23f/profile'],
    ['//evil.com', '/v1/users/%2F%2Fevil.com/profile'],
    ['@evil.com', '/v1/users/%40evil.com/profile'],
    ['http://evil.com', '/v1/users/http%3A%2F%2Fevil.com/profile'],
    ['a%2Fb', '/v1/users/a%252Fb/profile'],
    ['a b', '/v1/users/a%20b/profile'],
    ['a..b', '/v1/users/a..b/profile'],
    ['..a/b', '/v1/users/..a%2Fb/profile'],
  ])('keeps %j one segment on the same host (F1/F3/F4)', async (id, wire) => {
    const rec = await call(user, { id });
    expect(rec.url).toBe(wire);
    expect(rec.headers.host).toBe(`127.0.0.1:${up.port}`);
  });

  // a ".." segment between / or \ (as given or percent-decoded once) is refused too: docs/SECURITY.md
  it.each(['.', '..', '%2e%2e', '%2E.', '.%2e', '%252e%252e', '..%2f', '../', '', '../admin', '\\..\\admin', '%2e%2e%2fadmin'])('refuses the dot segment / empty value %j with 0 upstream (F2)', async (id) => {
    const out = await executeOperation(user, { id }, cfg);
    expect(out).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(up.requests).toHaveLength(0);
  });

  it('refuses CR/LF in a path parameter only by encoding it (F4)', async () => {
    expect((await call(user, { id: 'a\r\nHost: evil' })).url).toBe('/v1/users/a%0D%0AHost%3A%20evil/profile');
  });

  it('serializes label, matrix and array styles', async () => {
    const o = op({
      path: '/a/{l}/b/{m}/c/{s}',
      params: [
        { arg: 'l', in: 'path', style: 'label', schema: arr },
        { arg: 'm', in: 'path', style: 'matrix', explode: true, schema: arr },
        { arg: 's', in: 'path', schema: arr },
      ],
    });
    expect((await call(o, { l: ['x', 'y'], m: ['p', 'q'], s: ['1', '2'] })).url).toBe('/v1/a/.x,y/b/;m=p;m=q/c/1,2');
  });
});

describe('query parameters', () => {
  it('serializes every style and keeps 0, false and ""', async () => {
    const o = op({
      params: [
        { arg: 'n', in: 'query', schema: { type: 'integer' } },
        { arg: 'b', in: 'query', schema: { type: 'boolean' } },
        { arg: 'e', in: 'query' },
        { arg: 'fx', in: 'query', schema: arr },
        { arg: 'fn', in: 'query', explode: false, schema: arr },
        { arg: 'sp', in: 'query', style: 'spaceDelimited', explode: false, schema: arr },
        { arg: 'pp', in: 'query', style: 'pipeDelimited', explode: false, schema: arr },
        { arg: 'deep', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } },
        { arg: 'ox', in: 'query', schema: obj },
        { arg: 'js', in: 'query', contentType: 'application/json', schema: { type: 'object' } },
        { arg: 'inj', in: 'query' },
        { arg: 'renamed', name: 'q[name]', in: 'query' },
      ],
    });
    const rec = await call(o, {
      n: 0,
      b: false,
      e: '',
      fx: ['a', 'b'],
      fn: ['a', 'b'],
      sp: ['a', 'b'],
      pp: ['a', 'b'],
      deep: { color: 'red', size: { min: 1 } },
      ox: { k1: 'v1', k2: 'v2' },
      js: { a: 1 },
      inj: 'a&admin=true#x\r\n',
      renamed: 'z',
    });
    expect(rec.url).toBe(
      '/v1/things?n=0&b=false&e=&fx=a&fx=b&fn=a,b&sp=a%20b&pp=a|b&deep[color]=red&deep[size][min]=1&k1=v1&k2=v2' +
        '&js=%7B%22a%22%3A1%7D&inj=a%26admin%3Dtrue%23x%0D%0A&q%5Bname%5D=z',
    );
  });

  it('keeps the query of a base URL and adds to it', async () => {
    const o = op({ params: [{ arg: 'x', in: 'query' }] });
    expect((await call(o, { x: '1' }, { ...cfg, baseUrl: `${up.url}/v1?api-version=2` })).url).toBe('/v1/things?api-version=2&x=1');
  });
});

describe('headers and cookies', () => {
  const o = op({
    params: [
      { arg: 'trace', name: 'X-Trace', in: 'header' },
      { arg: 'list', name: 'X-List', in: 'header', schema: arr },
      { arg: 'auth', name: 'Authorization', in: 'header' },
      { arg: 'host', name: 'Host', in: 'header' },
      { arg: 'cl', name: 'Content-Length', in: 'header' },
      { arg: 'te', name: 'Transfer-Encoding', in: 'header' },
      { arg: 'sess', name: 'session', in: 'cookie' },
      { arg: 'pref', name: 'pref', in: 'cookie' },
    ],
  });

  it('sends header params, ignores reserved ones (G2) and encodes cookies (G6)', async () => {
    const rec = await call(o, { trace: 'abc', list: ['a', 'b'], auth: 'Bearer stolen', host: 'evil.com', cl: '5', te: 'chunked', sess: 'a;b=c', pref: 'x y' }, {
      ...cfg,
      env: { TESTAPI_TOKEN: 'real-token' },
    });
    expect(rec.headers['x-trace']).toBe('abc');
    expect(rec.headers['x-list']).toBe('a,b');
    expect(rec.headers.authorization).toBe('Bearer real-token');
    expect(rec.headers.host).toBe(`127.0.0.1:${up.port}`);
    expect(rec.headers['transfer-encoding']).toBeUndefined();
    expect(rec.headers.cookie).toBe('session=a%3Bb%3Dc; pref=x%20y');
  });

  it.each(['a\r\nX-Injected: 1', 'a\nb', 'a\0b'])('refuses header value %j with 0 upstream (G1)', async (trace) => {
    const out = await executeOperation(o, { trace }, cfg);
    expect(out).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS', message: expect.stringMatching(/invalid header value/) });
    expect(up.requests).toHaveLength(0);
  });
});

describe('bodies', () => {
  it('sends JSON with the operation content type, and {} for a required body with no args', async () => {
    const o = op({ method: 'post', body: { mediaType: 'application/json', required: true, properties: { title: { type: 'string' }, n: { type: 'integer' } } } });
    const rec = await call(o, { title: 't', n: 0 });
    expect(rec.headers['content-type']).toBe('application/json');
    expect(rec.text).toBe('{"title":"t","n":0}');
    expect((await call(o, {})).text).toBe('{}');
    const optional = op({ method: 'post', body: { mediaType: 'application/json', properties: { a: { type: 'string' } } } });
    const none = await call(optional, {});
    expect(none.text).toBe('');
    expect(none.headers['content-type']).toBeUndefined();
  });

  it('sends a whole (non-object) JSON body', async () => {
    const o = op({ method: 'put', body: { mediaType: 'application/json', mode: 'whole', required: true, schema: { type: 'array', items: { type: 'string' } } } });
    expect((await call(o, { body: ['a', 'b'] })).text).toBe('["a","b"]');
  });

  it('keeps __proto__ as a plain body key and pollutes nothing (G5)', async () => {
    const properties = JSON.parse('{"__proto__":{"type":"object"},"constructor":{"type":"object"}}') as Record<string, { [k: string]: unknown }>;
    const o = op({ method: 'post', body: { mediaType: 'application/json', properties } });
    const args = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}') as Record<string, unknown>;
    const rec = await call(o, args);
    expect(JSON.parse(rec.text)).toEqual(args);
    expect(rec.text).toBe('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('form-encodes nested objects and arrays in Stripe bracket style', async () => {
    const o = op({
      method: 'post',
      path: '/v1/checkout/sessions',
      body: {
        mediaType: 'application/x-www-form-urlencoded',
        properties: {
          mode: { type: 'string' },
          metadata: { type: 'object' },
          line_items: { type: 'array' },
          expand: { type: 'array' },
          amount: { type: 'integer' },
          livemode: { type: 'boolean' },
          description: { type: 'string' },
          cleared: { type: 'object' },
        },
      },
    });
    const rec = await call(o, {
      mode: 'payment',
      metadata: { order_id: '6735', 'a b': 'x&y=z' },
      line_items: [{ price: 'price_1', quantity: 2 }, { price: 'price_2', quantity: 1 }],
      expand: ['payment_intent'],
      amount: 0,
      livemode: false,
      description: '',
      cleared: {},
    });
    expect(rec.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(rec.text).toBe(
      'mode=payment&metadata[order_id]=6735&metadata[a%20b]=x%26y%3Dz&line_items[0][price]=price_1&line_items[0][quantity]=2' +
        '&line_items[1][price]=price_2&line_items[1][quantity]=1&expand[0]=payment_intent&amount=0&livemode=false&description=&cleared=',
    );
    expect(new URLSearchParams(rec.text).get('metadata[a b]')).toBe('x&y=z');
  });

  it('honours the OAS encoding object for form bodies', async () => {
    const o = op({
      method: 'post',
      body: { mediaType: 'application/x-www-form-urlencoded', properties: { tags: arr, meta: { type: 'object' } }, encoding: { tags: { style: 'form', explode: false }, meta: { contentType: 'application/json' } } },
    });
    expect((await call(o, { tags: ['a', 'b'], meta: { k: 1 } })).text).toBe('tags=a,b&meta=%7B%22k%22%3A1%7D');
  });

  it('sends multipart with text parts and a base64 file part (data: URL)', async () => {
    const o = op({ method: 'post', body: { mediaType: 'multipart/form-data', properties: { purpose: { type: 'string' }, file: { type: 'string', format: 'binary' }, meta: { type: 'object' } } } });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const rec = await call(o, { purpose: 'dispute_evidence', file: `data:image/png;base64,${png.toString('base64')}`, meta: { a: 1 } });
    const ct = rec.headers['content-type']!;
    expect(ct).toMatch(/^multipart\/form-data; boundary=/);
    const boundary = ct.split('boundary=')[1]!;
    const form = await new Response(rec.body, { headers: { 'content-type': ct } }).formData();
    expect(form.get('purpose')).toBe('dispute_evidence');
    const file = form.get('file') as File;
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    expect(form.get('meta')).toBe('{"a":1}');
    expect(rec.text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ndispute_evidence\r\n`)).toBe(true);
  });

  it('sends text/plain and octet-stream bodies (data: URL or file object, else the text as UTF-8)', async () => {
    const text = op({ method: 'post', body: { mediaType: 'text/plain', mode: 'whole', required: true, schema: { type: 'string' } } });
    const r1 = await call(text, { body: 'hello\nworld' });
    expect(r1.headers['content-type']).toBe('text/plain');
    expect(r1.text).toBe('hello\nworld');
    const bin = op({ method: 'put', body: { mediaType: 'application/octet-stream', mode: 'whole', required: true, schema: { type: 'string' } } });
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const r2 = await call(bin, { body: { base64: bytes.toString('base64') } });
    expect(r2.headers['content-type']).toBe('application/octet-stream');
    expect(r2.body).toEqual(bytes);
    // base64-looking text is text: never decoded by its look
    expect((await call(bin, { body: 'test' })).text).toBe('test');
    expect((await call(bin, { body: '@example.zip' })).text).toBe('@example.zip');
    expect((await call(bin, { body: 'data:application/zip;base64,UEsDBA==' })).body).toEqual(Buffer.from([0x50, 0x4b, 3, 4]));
  });

  it('sets Accept from the operation response media type', async () => {
    const o = op({ responseMediaType: 'application/vnd.github+json' });
    expect((await call(o, {})).headers.accept).toBe('application/vnd.github+json');
  });
});

describe('auth', () => {
  const schemes = withSchemes({
    bearer: { type: 'http', scheme: 'bearer' },
    basic: { type: 'http', scheme: 'basic' },
    hkey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    qkey: { type: 'apiKey', in: 'query', name: 'api_key' },
    ckey: { type: 'apiKey', in: 'cookie', name: 'sid' },
    oauth: { type: 'oauth2' },
    oidc: { type: 'openIdConnect' },
  });
  const env = { TESTAPI_TOKEN: 'tok-123', TESTAPI_API_KEY: 'key-456', TESTAPI_USERNAME: 'ann', TESTAPI_PASSWORD: 'pw-789' };
  const secured = (scheme: string): Operation =>
    op({ security: [{ [scheme]: [] }], params: [{ arg: 'api_key', in: 'query' }, { arg: 'key', name: 'X-API-Key', in: 'header' }] });

  it.each([
    ['bearer', (r: RecordedRequest) => expect(r.headers.authorization).toBe('Bearer tok-123')],
    ['oauth', (r: RecordedRequest) => expect(r.headers.authorization).toBe('Bearer tok-123')],
    ['oidc', (r: RecordedRequest) => expect(r.headers.authorization).toBe('Bearer tok-123')],
    ['basic', (r: RecordedRequest) => expect(r.headers.authorization).toBe(`Basic ${Buffer.from('ann:pw-789').toString('base64')}`)],
    ['hkey', (r: RecordedRequest) => expect(r.headers['x-api-key']).toBe('key-456')],
    ['qkey', (r: RecordedRequest) => expect(r.url).toBe('/v1/things?api_key=key-456')],
    ['ckey', (r: RecordedRequest) => expect(r.headers.cookie).toBe('sid=key-456')],
  ])('applies %s from the default env vars', async (scheme, check) => {
    check(await call(secured(scheme), {}, { ...cfg, catalog: schemes, env }));
  });

  it('a query or header arg cannot replace or duplicate an apiKey credential (G2/G4)', async () => {
    const q = await call(secured('qkey'), { api_key: 'attacker' }, { ...cfg, catalog: schemes, env });
    expect(q.url).toBe('/v1/things?api_key=key-456');
    const h = await call(secured('hkey'), { key: 'attacker' }, { ...cfg, catalog: schemes, env });
    expect(h.headers['x-api-key']).toBe('key-456');
  });

  it('AUTH_MISSING names the env vars before any request', async () => {
    const out = await executeOperation(secured('basic'), {}, { ...cfg, catalog: schemes, env: { TESTAPI_USERNAME: 'ann' } });
    expect(out).toMatchObject({ ok: false, code: 'AUTH_MISSING', message: expect.stringMatching(/TESTAPI_USERNAME \+ TESTAPI_PASSWORD/) });
    expect(up.requests).toHaveLength(0);
  });

  it('picks the first satisfiable alternative; {} means optional', async () => {
    const o = op({ security: [{ bearer: [] }, { hkey: [] }] });
    expect((await call(o, {}, { ...cfg, catalog: schemes, env: { TESTAPI_API_KEY: 'k-1' } })).headers['x-api-key']).toBe('k-1');
    const optional = op({ security: [{ bearer: [] }, {}] });
    expect((await call(optional, {}, { ...cfg, catalog: schemes, env: {} })).headers.authorization).toBeUndefined();
  });

  it('a catalog with no security sends <CATALOG>_TOKEN as bearer when set (GitHub), nothing otherwise', async () => {
    const gh = { ...cfg, catalog: catalog({ name: 'github' }) };
    expect((await call(op({}), {}, { ...gh, env: { GITHUB_TOKEN: 'ghp_x' } })).headers.authorization).toBe('Bearer ghp_x');
    expect((await call(op({}), {}, { ...gh, env: {} })).headers.authorization).toBeUndefined();
  });

  it('the session credential overrides env for that call only', async () => {
    const o = secured('bearer');
    expect((await call(o, {}, { ...cfg, catalog: schemes, env, sessionCredential: 'session-tok' })).headers.authorization).toBe('Bearer session-tok');
    expect((await call(o, {}, { ...cfg, catalog: schemes, env })).headers.authorization).toBe('Bearer tok-123');
  });
});

describe('prepareRequest (dry run)', () => {
  it('shows the exact request with every credential redacted', () => {
    const o = op({
      method: 'post',
      path: '/items/{id}',
      security: [{ basic: [], qkey: [] }],
      params: [{ arg: 'id', in: 'path' }],
      body: { mediaType: 'application/json', properties: { note: { type: 'string' } } },
    });
    const c = withSchemes({ basic: { type: 'http', scheme: 'basic' }, qkey: { type: 'apiKey', in: 'query', name: 'key' } });
    const p = prepareRequest(o, { id: 'a b', note: 'my pw is pw-secret-1' }, { catalog: c, env: { TESTAPI_USERNAME: 'ann', TESTAPI_PASSWORD: 'pw-secret-1', TESTAPI_API_KEY: 'qk-secret-2' } });
    expect(p.method).toBe('POST');
    expect(p.url).toBe('https://api.example.com/v1/items/a%20b?key=***');
    expect(p.headers.authorization).toBe('Basic ***');
    expect(p.body).toBe('{"note":"my pw is ***"}');
    expect(p.curl).toBe(`curl -X POST 'https://api.example.com/v1/items/a%20b?key=***' -H 'content-type: application/json' -H 'accept: application/json' -H 'authorization: Basic ***' --data-raw '{"note":"my pw is ***"}'`);
    expect(JSON.stringify(p)).not.toMatch(/pw-secret-1|qk-secret-2|YW5uOnB3/);
  });

  it('refuses an operation whose path is absolute or scheme-relative (F8)', async () => {
    for (const path of ['//evil.com/x', 'http://evil.com/x']) {
      const out = await executeOperation(op({ path }), {}, cfg);
      expect(out).toMatchObject({ ok: false, code: 'UNSAFE_REQUEST' });
    }
    expect(up.requests).toHaveLength(0);
  });

  it('uses server variable defaults and refuses relative or non-http servers', () => {
    const c = catalog({ servers: [{ url: 'https://{region}.example.com/{ver}', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, ver: { default: 'v2' } } }] });
    expect(prepareRequest(op({}), {}, { catalog: c }).url).toBe('https://eu.example.com/v2/things');
    const opServers = { ...op({}), servers: [{ url: 'https://uploads.example.com' }] };
    expect(() => prepareRequest(opServers, {}, { catalog: c })).toThrow(/catalogs\.testapi\.allowedOrigins/);
    expect(prepareRequest(opServers, {}, { catalog: c, allowedOrigins: ['https://uploads.example.com'] }).url).toBe('https://uploads.example.com/things');
    expect(() => prepareRequest(op({}), {}, { catalog: catalog({ servers: [{ url: '/api/v3' }] }) })).toThrow(/--base-url/);
    expect(() => prepareRequest(op({}), {}, { catalog: catalog(), baseUrl: 'file:///etc/passwd' })).toThrow(/only http and https/);
    expect(() => prepareRequest(op({}), {}, { catalog: catalog({ servers: [] }) })).toThrow(/names no server/);
  });

  it('adds a generated idempotency key to POST when the operation documents one', () => {
    const o = op({ method: 'post', idempotencyHeader: 'Idempotency-Key' });
    expect(prepareRequest(o, {}, { catalog: catalog() }).headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(prepareRequest(op({ method: 'post' }), {}, { catalog: catalog() }).headers['idempotency-key']).toBeUndefined();
  });
});
