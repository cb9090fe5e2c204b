// Odd and hostile upstream answers over real loopback HTTP (audit of execute_tool against odd upstreams): a write
// answered by 301/302, redirects to URLs with userinfo or another scheme, deeply nested JSON, a body cut at the
// byte cap with `fields`, charsets and byte-order marks, answers that are not readable HTTP, 414/431, numbers a
// double cannot hold, an absurd Retry-After, and a base URL that carries a user name and password.
import { describe, expect, it } from 'vitest';
import { executeOperation, type ExecutionConfig } from '../../src/execution/index.js';
import type { Upstream } from '../helpers/upstream.js';
import { catalog, fail, fakeSleep, okay, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream(
  (u, c) => {
    up = u;
    cfg = c;
  },
  { totalMs: 5_000 },
);

const get = (path: string, extra: Parameters<typeof op>[0] = {}) => op({ path, ...extra });
const jsonBody = { mediaType: 'application/json', properties: { name: { type: 'string' } } };

/** Answers with `raw` written straight to the socket: no HTTP framing from node's server. */
const raw = (text: string) => ({ kind: 'handler' as const, handle: (req: { socket: { end(s: string): void } }) => req.socket.end(text) });

describe('a write answered by 301/302 is repeated as the same write, never turned into a GET', () => {
  for (const status of [301, 302] as const) {
    for (const method of ['put', 'patch', 'delete'] as const) {
      it(`${method.toUpperCase()} + ${status}: the same method and body go to the same-origin target`, async () => {
        up.route(`/w-${method}-${status}`, { kind: 'redirect', status, location: `/moved-${method}-${status}` });
        const out = okay(await executeOperation(op({ path: `/w-${method}-${status}`, method, body: jsonBody }), { name: 'n1' }, cfg));
        const second = up.hits(`/moved-${method}-${status}`);
        expect(second).toHaveLength(1);
        expect(second[0]).toMatchObject({ method: method.toUpperCase(), text: '{"name":"n1"}' });
        expect(second[0]?.headers['content-type']).toBe('application/json');
        expect((out.data as { method: string }).method).toBe(method.toUpperCase());
      });
    }
  }

  it('POST + 301/302 still becomes a GET without the body; 303 turns a PUT into a GET', async () => {
    for (const status of [301, 302] as const) {
      up.route(`/p${status}`, { kind: 'redirect', status, location: `/p${status}-to` });
      okay(await executeOperation(op({ path: `/p${status}`, method: 'post', body: jsonBody }), { name: 'n1' }, cfg));
      expect(up.hits(`/p${status}-to`)[0]).toMatchObject({ method: 'GET', text: '' });
      expect(up.hits(`/p${status}-to`)[0]?.headers['content-type']).toBeUndefined();
    }
    up.route('/put303', { kind: 'redirect', status: 303, location: '/put303-to' });
    okay(await executeOperation(op({ path: '/put303', method: 'put', body: jsonBody }), { name: 'n1' }, cfg));
    expect(up.hits('/put303-to')[0]).toMatchObject({ method: 'GET', text: '' });
  });

  it('a PUT redirected by 301 to another origin is refused before anything goes there', async () => {
    up.route('/away', { kind: 'redirect', status: 301, location: 'http://localhost:9/elsewhere' });
    const out = fail(await executeOperation(op({ path: '/away', method: 'put', body: jsonBody }), { name: 'n1' }, cfg));
    expect(out.code).toBe('UPSTREAM_REDIRECT_REFUSED');
    expect(up.requests).toHaveLength(1);
  });
});

describe('a redirect Location with userinfo or a scheme other than http(s)', () => {
  it('userinfo on the same origin: UPSTREAM_REDIRECT_REFUSED naming the reason, the userinfo never echoed, no retry advice', async () => {
    up.route('/ui', { kind: 'redirect', status: 302, location: `http://someone:pw-9c1e77ab@127.0.0.1:${up.port}/target` });
    const out = fail(await executeOperation(get('/ui'), {}, cfg));
    expect(out.code).toBe('UPSTREAM_REDIRECT_REFUSED');
    expect(out.message).toMatch(/carrying a user name or password/);
    expect(JSON.stringify(out)).not.toMatch(/someone|pw-9c1e77ab/);
    expect(out.instruction).not.toMatch(/retry/i);
    expect(up.hits('/target')).toHaveLength(0);
  });

  it('file: and other schemes: refused naming the scheme, not "another origin (null)"', async () => {
    up.route('/file', { kind: 'redirect', status: 302, location: 'file:///etc/passwd' });
    const out = fail(await executeOperation(get('/file'), {}, cfg));
    expect(out.code).toBe('UPSTREAM_REDIRECT_REFUSED');
    expect(out.message).toMatch(/redirected to a file: URL; refused: only http\(s\) redirects/);
    expect(out.message).not.toMatch(/null|passwd/);
  });
});

describe('deeply nested JSON', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  for (const levels of [5_000, 100_000]) {
    it(`${levels} levels: a success whose data is the text, with a warning; never INTERNAL`, async () => {
      up.route('/deep', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: deep(levels) });
      const out = okay(await executeOperation(get('/deep', { params: [{ arg: 'limit', in: 'query', schema: { type: 'integer' } }] }), {}, cfg));
      expect(typeof out.data).toBe('string');
      expect((out.data as string).startsWith('{"a":{"a":')).toBe(true);
      expect(out.warnings?.[0]).toMatch(/its JSON nests deeper than 256 levels/);
      expect(out.instruction).toMatch(/"fields" cannot select from it.*paging or filter arguments \(limit\)/);
      if (levels === 100_000) {
        // 600 KB of text: cut to the token budget like any long text, the hint not offering `fields`
        expect(out.truncated).toMatchObject({ reason: 'tokenBudget' });
        expect(out.truncated?.hint).not.toMatch(/fields/);
      }
    });
  }

  it('with `fields`, and as an error body: still no stack overflow', async () => {
    up.route('/deep', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: deep(5_000) });
    const out = okay(await executeOperation(get('/deep'), {}, cfg, { fields: ['a.a'] }));
    expect(typeof out.data).toBe('string');
    expect(out.warnings).toHaveLength(2);
    expect(out.warnings?.[1]).toMatch(/^fields: not applied/);
    const jmes = okay(await executeOperation(get('/deep'), {}, cfg, { fields: 'a.a' }));
    expect(typeof jmes.data).toBe('string');
    up.route('/deep-err', { kind: 'status', status: 500, headers: { 'content-type': 'application/json' }, body: deep(5_000) });
    const err = fail(await executeOperation(get('/deep-err'), {}, cfg, { maxRetries: 0 }));
    expect(err.code).toBe('UPSTREAM_ERROR');
  });

  it('an answer nested 256 levels is parsed as usual, and brackets inside strings do not count', async () => {
    up.route('/ok-deep', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: deep(255) });
    const out = okay(await executeOperation(get('/ok-deep'), {}, cfg));
    expect(typeof out.data).toBe('object');
    expect(out.warnings).toBeUndefined();
    const text = { s: `\\"${'['.repeat(300)}`, t: `${'{'.repeat(300)}\\` };
    up.route('/brackets', { kind: 'status', status: 200, body: text });
    expect(okay(await executeOperation(get('/brackets'), {}, cfg)).data).toEqual(text);
  });
});

describe('a body cut at maxResponseBytes', () => {
  const list = op({ path: '/items', params: [{ arg: 'limit', in: 'query', schema: { type: 'integer' } }, { arg: 'status', in: 'query' }] });
  const big = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item-${i}`, pad: 'x'.repeat(80) })));

  it('`fields` is not applied and a warning says so; hint and instruction name paging arguments and the cap, not `fields`', async () => {
    up.route('/items', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: big });
    const out = okay(await executeOperation(list, {}, { ...cfg, maxResponseBytes: 100_000 }, { fields: ['id'] }));
    expect(out.truncated).toMatchObject({ reason: 'maxResponseBytes', size: 100_000 });
    expect(out.warnings).toEqual([expect.stringMatching(/^fields: not applied: the response was larger than 100000 bytes/)]);
    expect(out.truncated?.hint).toMatch(/limit, status.*API_CATALOG_MAX_RESPONSE_BYTES/);
    expect(out.truncated?.hint).not.toMatch(/`fields`|ask only for what you need/);
    expect(out.instruction).toMatch(/call again with paging or filter arguments \(limit, status\).*API_CATALOG_MAX_RESPONSE_BYTES/);
    // without `fields`: the same hint, and no warning
    const plain = okay(await executeOperation(list, {}, { ...cfg, maxResponseBytes: 100_000 }));
    expect(plain.warnings).toBeUndefined();
    expect(plain.instruction).toBe(out.instruction);
  });
});

describe('charsets and byte-order marks', () => {
  it('Latin-1 text is decoded with its charset', async () => {
    up.route('/latin1', { kind: 'status', status: 200, headers: { 'content-type': 'text/plain; charset=iso-8859-1' }, body: Buffer.from([0x63, 0x61, 0x66, 0xe9]) });
    expect(okay(await executeOperation(get('/latin1'), {}, cfg)).data).toBe('café');
  });

  it('UTF-16 JSON (declared, or by its BOM) and BOM-prefixed UTF-8 JSON are parsed', async () => {
    up.route('/u16', { kind: 'status', status: 200, headers: { 'content-type': 'application/json; charset=utf-16le' }, body: Buffer.from('{"u16":"é"}', 'utf16le') });
    expect(okay(await executeOperation(get('/u16'), {}, cfg)).data).toEqual({ u16: 'é' });
    up.route('/u16bom', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('\ufeff{"be":true}', 'utf16le') });
    expect(okay(await executeOperation(get('/u16bom'), {}, cfg)).data).toEqual({ be: true });
    up.route('/bom', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: '\ufeff{"bom":true}' });
    expect(okay(await executeOperation(get('/bom'), {}, cfg)).data).toEqual({ bom: true });
  });

  it('an unknown charset is read as UTF-8, with a warning and an instruction that points to it', async () => {
    up.route('/odd', { kind: 'status', status: 200, headers: { 'content-type': 'text/plain; charset=x-klingon' }, body: 'qapla' });
    const out = okay(await executeOperation(get('/odd'), {}, cfg));
    expect(out.data).toBe('qapla');
    expect(out.warnings).toEqual([expect.stringMatching(/charset "x-klingon", which this server cannot decode: it was read as UTF-8/)]);
    expect(out.instruction).toMatch(/see warnings/);
  });
});

describe('answers that are not readable HTTP', () => {
  it('oversized response headers: UPSTREAM_RESPONSE_INVALID saying so, not "cannot reach"', async () => {
    up.route('/bighdr', raw(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Big: ${'a'.repeat(100_000)}\r\nContent-Length: 2\r\n\r\n{}`));
    const out = fail(await executeOperation(get('/bighdr'), {}, cfg, { sleep: fakeSleep().sleep }));
    expect(out.code).toBe('UPSTREAM_RESPONSE_INVALID');
    expect(out.message).toMatch(/response headers larger than the HTTP client accepts \(UND_ERR_HEADERS_OVERFLOW\)/);
    expect(out.instruction).toMatch(/^Do not retry/);
  });

  it('another protocol on the port: UPSTREAM_RESPONSE_INVALID "not a valid HTTP response"', async () => {
    up.route('/ssh', raw('SSH-2.0-OpenSSH_9.2\r\n'));
    const out = fail(await executeOperation(get('/ssh'), {}, cfg, { sleep: fakeSleep().sleep }));
    expect(out.code).toBe('UPSTREAM_RESPONSE_INVALID');
    expect(out.message).toMatch(/did not answer with a valid HTTP response.*\(HPE_/);
    expect(out.message).not.toMatch(/cannot reach/);
  });

  it('a body that is not what its Content-Encoding says: UPSTREAM_RESPONSE_INVALID naming the encoding', async () => {
    up.route('/fakegzip', { kind: 'status', status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{"not":"gzipped"}' });
    const out = fail(await executeOperation(get('/fakegzip'), {}, cfg));
    expect(out.code).toBe('UPSTREAM_RESPONSE_INVALID');
    expect(out.message).toMatch(/sent a body that does not decode as its Content-Encoding \(gzip\) says \(Z_DATA_ERROR\)/);
    expect(out.message).not.toMatch(/closed the connection/);
    expect(out.instruction).toMatch(/^Do not retry/);
  });
});

describe('status and number edge cases', () => {
  it('414/431 without a body: the instruction names the long arguments', async () => {
    const search = op({
      path: '/search',
      params: [
        { arg: 'ids', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
        { arg: 'q', in: 'query' },
      ],
    });
    for (const status of [414, 431]) {
      up.route('/search', { kind: 'status', status });
      const out = fail(await executeOperation(search, { ids: Array.from({ length: 3000 }, (_, i) => i), q: 'x' }, cfg));
      expect(out.code).toBe('UPSTREAM_ERROR');
      expect(out.instruction).toMatch(/too (long|large).*fewer or shorter values in ids \(3000 items\), q \(1 characters\)/);
      expect(out.instruction).not.toMatch(/Read the API message/);
    }
  });

  it('a JSON number a double cannot hold is kept as a string, like integers beyond 2^53', async () => {
    up.route('/nums', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":9007199254740993,"f":1.5e400,"tiny":1e-400,"zero":0e400,"neg":-0,"ok":1.5e300}' });
    expect(okay(await executeOperation(get('/nums'), {}, cfg)).data).toEqual({ id: '9007199254740993', f: '1.5e400', tiny: '1e-400', zero: 0, neg: -0, ok: 1.5e300 });
  });

  it('an absurd Retry-After is said as "more than an hour", not 1e+23 s', async () => {
    up.route('/slow', { kind: 'status', status: 429, headers: { 'retry-after': '99999999999999999999999' }, body: { message: 'slow down' } });
    const { waits, sleep } = fakeSleep();
    const out = fail(await executeOperation(get('/slow'), {}, cfg, { sleep }));
    expect(out.instruction).toBe('Rate limited: the API asks to wait more than an hour; do not retry now, tell the user.');
    expect(`${out.message} ${out.instruction}`).not.toMatch(/e\+|\d{5,}/);
    expect(waits).toEqual([]);
  });
});

describe('a base URL that carries a user name and password', () => {
  const basic = withSchemes({ basic: { type: 'http', scheme: 'basic' } }, catalog({ servers: [{ url: 'http://u:pw-7f3a@127.0.0.1:1/v1' }] }));

  it('from the API description: the message and the instruction both say to remove them and use the credential variables', async () => {
    const out = fail(await executeOperation(get('/x', { security: [{ basic: [] }] }), {}, { catalog: basic, env: {} }));
    expect(out.code).toBe('CONFIG_INVALID');
    expect(out.message).toMatch(/base URL http:\/\/127\.0\.0\.1:1 carries a user name or password.*remove them from the API description's servers.*\(TESTAPI_USERNAME, TESTAPI_PASSWORD\)/);
    expect(out.instruction).toMatch(/^Tell the user to remove the user name and password from the base URL; the credential goes in the environment variables \(TESTAPI_USERNAME, TESTAPI_PASSWORD\)/);
    expect(out.instruction).not.toMatch(/incomplete|missing/);
    expect(JSON.stringify(out)).not.toMatch(/pw-7f3a/);
    expect(out.sent).toBe(false);
  });

  it('from the operator: names the base URL setting', async () => {
    const out = fail(await executeOperation(get('/x'), {}, { ...cfg, baseUrl: `http://u:pw-7f3a@127.0.0.1:${up.port}` }));
    expect(out.message).toMatch(/remove them from the base URL setting \(--base-url, TESTAPI_BASE_URL or catalogs\.testapi\.baseUrl\)/);
    expect(up.requests).toHaveLength(0);
  });
});
