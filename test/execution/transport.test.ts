// Transport and results over real loopback HTTP: timeouts, retries with Retry-After, redirects, byte caps,
// gzip bombs, resets, lying lengths, cancellation (RELIABILITY H and I), then result shaping: errors with
// instructions, truncation, pagination, projection, binary, big integers, and the secret canary.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSleep } from '../../src/execution/http.js';
import { executeOperation, type ExecuteOptions, type ExecutionConfig, type ExecutionOutcome } from '../../src/execution/index.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { catalog, fail, fakeSleep, okay, op, withSchemes } from './fixtures.js';

let up: Upstream;
let other: Upstream;
let cfg: ExecutionConfig;
beforeAll(async () => {
  up = await startUpstream();
  other = await startUpstream();
});
afterAll(async () => {
  await up.close();
  await other.close();
});
beforeEach(() => {
  up.clear();
  other.clear();
  cfg = { catalog: catalog(), baseUrl: up.url, env: {}, timeouts: { totalMs: 5_000 } };
});

const get = (path: string, extra: Parameters<typeof op>[0] = {}) => op({ path, ...extra });

describe('timeouts, unreachable, cancellation', () => {
  it('a stalled upstream ends at the total deadline with UPSTREAM_TIMEOUT and the socket closed (I1)', async () => {
    // The upstream never answers: ending at all means the deadline ended it (no clock assertion).
    up.route('/stall', { kind: 'stall' });
    const out = fail(await executeOperation(get('/stall'), {}, { ...cfg, timeouts: { totalMs: 400 } }));
    expect(out.code).toBe('UPSTREAM_TIMEOUT');
    // the limit as configured, not rounded to whole seconds ("within 0 s")
    expect(out.message).toMatch(/within 400 ms$/);
    await vi.waitFor(() => expect(up.hits('/stall')[0]?.aborted).toBe(true), { timeout: 10_000, interval: 10 });
  });

  it('a trickling body is cut by the total deadline, not reset per chunk (I2)', async () => {
    // The body never ends: a per-chunk timeout would never fire; an answer at all is the total deadline's.
    up.route('/trickle', { kind: 'trickle', intervalMs: 50, chunk: ' ' });
    const out = fail(await executeOperation(get('/trickle'), {}, { ...cfg, timeouts: { totalMs: 500 } }));
    expect(out.code).toBe('UPSTREAM_TIMEOUT');
  });

  it('connection refused is UPSTREAM_UNREACHABLE at once (no retry, no back-off) without a stack (I3)', async () => {
    const gone = await startUpstream();
    const url = gone.url;
    await gone.close();
    const { waits, sleep } = fakeSleep();
    const out = fail(await executeOperation(get('/x'), {}, { ...cfg, baseUrl: url }, { sleep }));
    expect(out.code).toBe('UPSTREAM_UNREACHABLE');
    expect(out.message).toMatch(/ECONNREFUSED/);
    expect(out.message).not.toMatch(/\n\s+at /);
    expect(waits).toEqual([]);
  });

  it('a port the Fetch standard blocks says why instead of "unknown"', async () => {
    const out = fail(await executeOperation(get('/x'), {}, { ...cfg, baseUrl: 'http://127.0.0.1:1' }));
    expect(out.code).toBe('UPSTREAM_UNREACHABLE');
    expect(out.message).toMatch(/\(bad port\)/);
    expect(out.message).not.toMatch(/unknown/);
  });

  it('a blocked port (9, the audit\'s) says the client refuses it, that nothing was sent, and not to retry', async () => {
    // fetch refuses the port before connecting: no server is needed, and no request can reach one
    const { waits, sleep } = fakeSleep();
    const out = fail(await executeOperation(get('/x'), {}, { ...cfg, baseUrl: 'http://127.0.0.1:9' }, { sleep }));
    expect(out.code).toBe('UPSTREAM_UNREACHABLE');
    expect(out.message).toMatch(/HTTP client \(fetch\) refuses port 9, one of the ports the Fetch standard blocks \(bad port\), so nothing was sent; retrying will not help/);
    expect(out.details).toEqual({ code: 'bad port', port: 9, retryable: false });
    expect(out.instruction).toMatch(/^Do not retry: .*another port \(--base-url, TESTAPI_BASE_URL, or catalogs\.testapi\.baseUrl in the config file\)/);
    expect(out.instruction).not.toMatch(/then retry/);
    expect(out.sent).toBe(false);
    expect(waits).toEqual([]);
  });

  it('the caller signal aborts the upstream request (I13)', async () => {
    up.route('/slow', { kind: 'stall' });
    const ac = new AbortController();
    const pending = executeOperation(get('/slow'), {}, cfg, { signal: ac.signal });
    await vi.waitFor(() => expect(up.hits('/slow')).toHaveLength(1), { timeout: 10_000, interval: 10 });
    ac.abort();
    const out = fail(await pending);
    expect(out.code).toBe('CANCELLED');
    await vi.waitFor(() => expect(up.hits('/slow')[0]?.aborted).toBe(true), { timeout: 10_000, interval: 10 });
  });
});

describe('retries', () => {
  it('honours Retry-After seconds on 429 for GET: waits exactly that long, then retries (I4)', async () => {
    up.route('/limited', { kind: 'sequence', steps: [{ kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: { message: 'slow down' } }, { kind: 'echo' }] });
    const { waits, sleep } = fakeSleep();
    const out = okay(await executeOperation(get('/limited'), {}, cfg, { sleep }));
    expect(out.status).toBe(200);
    expect(waits).toEqual([1000]);
    expect(up.hits('/limited')).toHaveLength(2);
  });

  it('the default sleep waits its time on the clock and is cut short by an abort (fake timers)', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const slept = defaultSleep(1000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await slept;
      expect(done).toBe(true);
      const ac = new AbortController();
      const aborted = defaultSleep(60_000, ac.signal).catch((e: unknown) => e);
      ac.abort(new Error('stop'));
      expect(await aborted).toEqual(new Error('stop'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not wait past the budget: Retry-After 3600 or a far HTTP-date returns the 429 with the retry time (I4)', async () => {
    const { waits, sleep } = fakeSleep();
    up.route('/far', { kind: 'status', status: 429, headers: { 'retry-after': '3600' }, body: { message: 'API rate limit exceeded' } });
    const out = fail(await executeOperation(get('/far'), {}, cfg, { sleep }));
    expect(out).toMatchObject({ code: 'UPSTREAM_ERROR', status: 429, instruction: 'Rate limited: retry after 3600 s.' });
    expect(out.message).toMatch(/API rate limit exceeded/);
    const date = new Date(Date.now() + 7_200_000).toUTCString();
    up.route('/date', { kind: 'status', status: 503, headers: { 'retry-after': date } });
    fail(await executeOperation(get('/date'), {}, cfg, { sleep }));
    expect(waits).toEqual([]);
    expect(up.hits('/far')).toHaveLength(1);
    expect(up.hits('/date')).toHaveLength(1);
  });

  it('backs off exponentially with jitter on 502/503/504 for GET, PUT and DELETE, at most 2 retries (I5)', async () => {
    for (const method of ['get', 'put', 'delete'] as const) {
      const path = `/flaky-${method}`;
      up.route(path, { kind: 'sequence', steps: [{ kind: 'status', status: 502 }, { kind: 'status', status: 503 }, { kind: 'status', status: 504 }, { kind: 'echo' }] });
      const { waits, sleep } = fakeSleep();
      const out = fail(await executeOperation(op({ path, method }), {}, cfg, { sleep, random: () => 0 }));
      expect(out.status).toBe(504);
      expect(up.hits(path)).toHaveLength(3);
      expect(waits).toEqual([250, 500]);
    }
    const { waits, sleep } = fakeSleep();
    up.route('/flaky2', { kind: 'sequence', steps: [{ kind: 'status', status: 503 }, { kind: 'echo' }] });
    okay(await executeOperation(get('/flaky2'), {}, cfg, { sleep, random: () => 1 }));
    expect(waits).toEqual([500]);
  });

  it('never retries POST or PATCH without an idempotency key (I5)', async () => {
    for (const method of ['post', 'patch'] as const) {
      const path = `/once-${method}`;
      up.route(path, { kind: 'status', status: 503 });
      const { waits, sleep } = fakeSleep();
      const out = fail(await executeOperation(op({ path, method }), {}, cfg, { sleep }));
      expect(out.status).toBe(503);
      expect(up.hits(path)).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });

  it('retries POST with ONE generated Idempotency-Key when the operation documents it', async () => {
    up.route('/charge', { kind: 'sequence', steps: [{ kind: 'status', status: 503 }, { kind: 'reset' }, { kind: 'echo' }] });
    const { sleep } = fakeSleep();
    const o = op({ path: '/charge', method: 'post', idempotencyHeader: 'Idempotency-Key', body: { mediaType: 'application/x-www-form-urlencoded', properties: { amount: { type: 'integer' } } } });
    okay(await executeOperation(o, { amount: 100 }, cfg, { sleep }));
    const hits = up.hits('/charge');
    expect(hits).toHaveLength(3);
    const keys = new Set(hits.map((h) => h.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(hits.every((h) => h.text === 'amount=100')).toBe(true);
  });

  it('a reset connection on GET is retried, then reported clearly', async () => {
    up.route('/reset', { kind: 'reset' });
    const { sleep } = fakeSleep();
    const out = fail(await executeOperation(get('/reset'), {}, cfg, { sleep }));
    expect(out.code).toBe('UPSTREAM_UNREACHABLE');
    expect(out.message).toMatch(/closed the connection without answering/);
    expect(up.hits('/reset')).toHaveLength(3);
  });
});

describe('redirects', () => {
  const secured = withSchemes({ key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } });
  const env = { TESTAPI_API_KEY: 'redirect-secret-1' };

  it('follows same-origin redirects with the credential; 303 becomes GET; 307 keeps the POST body', async () => {
    up.route('/old', { kind: 'redirect', status: 302, location: '/new' });
    const out = okay(await executeOperation(op({ path: '/old', security: [{ key: [] }] }), {}, { ...cfg, catalog: secured, env }));
    expect((out.data as { url: string }).url).toBe('/new');
    expect(up.hits('/new')[0]?.headers['x-api-key']).toBe('redirect-secret-1');
    up.route('/post303', { kind: 'redirect', status: 303, location: `${up.url}/after` });
    const body = { mediaType: 'application/json', properties: { a: { type: 'string' } } };
    okay(await executeOperation(op({ path: '/post303', method: 'post', body }), { a: 'x' }, cfg));
    expect(up.hits('/after')[0]).toMatchObject({ method: 'GET', text: '' });
    up.route('/post307', { kind: 'redirect', status: 307, location: '/after307' });
    okay(await executeOperation(op({ path: '/post307', method: 'post', body }), { a: 'x' }, cfg));
    expect(up.hits('/after307')[0]).toMatchObject({ method: 'POST', text: '{"a":"x"}' });
  });

  it.each([301, 302, 303, 307, 308] as const)('refuses a %i to another origin: nothing reaches it (H4)', async (status) => {
    up.route('/away', { kind: 'redirect', status, location: `${other.url}/steal` });
    const o = op({ path: '/away', method: 'post', security: [{ key: [] }], body: { mediaType: 'application/json', properties: { a: { type: 'string' } } } });
    const out = fail(await executeOperation(o, { a: 'body' }, { ...cfg, catalog: secured, env }));
    expect(out.code).toBe('UPSTREAM_REDIRECT_REFUSED');
    expect(out.message).toContain(other.url);
    expect(other.requests).toHaveLength(0);
  });

  it('refuses an https -> http downgrade (H5) and redirect loops', async () => {
    const fetchStub: typeof fetch = async () => new Response(null, { status: 302, headers: { location: 'http://api.example.com/v1/x' } });
    const out = fail(await executeOperation(get('/x'), {}, { ...cfg, baseUrl: 'https://api.example.com/v1' }, { fetch: fetchStub }));
    expect(out).toMatchObject({ code: 'UPSTREAM_REDIRECT_REFUSED', message: expect.stringMatching(/https to http/) });
    up.route('/loop', { kind: 'redirect', status: 302, location: '/loop' });
    const loop = fail(await executeOperation(get('/loop'), {}, cfg));
    expect(loop).toMatchObject({ code: 'UPSTREAM_REDIRECT_REFUSED', message: expect.stringMatching(/more than 5/) });
    expect(up.hits('/loop')).toHaveLength(6);
  });
});

describe('response bodies', () => {
  it('cuts a huge JSON body at the byte cap and marks it truncated (I7)', async () => {
    up.route('/huge', { kind: 'bigJson', items: 200_000, itemBytes: 100 }); // ~20 MB
    const out = okay(await executeOperation(get('/huge'), {}, { ...cfg, maxResponseBytes: 1_000_000, tokenBudget: 2_000 }));
    expect(out.truncated).toMatchObject({ reason: 'maxResponseBytes', size: 1_000_000 });
    expect(typeof out.data).toBe('string');
    expect((out.data as string).length).toBeLessThan(9_000);
  });

  it('counts decompressed bytes against the cap for a gzip bomb (I8)', async () => {
    up.route('/bomb', { kind: 'gzipBomb', decompressedBytes: 300_000_000 });
    const out = okay(await executeOperation(get('/bomb'), {}, { ...cfg, maxResponseBytes: 1_000_000 }));
    expect(out.truncated).toMatchObject({ reason: 'maxResponseBytes', size: 1_000_000 });
  });

  it('a lying Content-Length / early close is a clear error, not a hang (I9)', async () => {
    up.route('/lie', { kind: 'lyingLength', declared: 5000, actual: 100 });
    const out = fail(await executeOperation(get('/lie'), {}, cfg));
    expect(out.code).toBe('UPSTREAM_RESPONSE_INVALID');
    expect(out.message).toMatch(/closed the connection before the response body was complete/);
  });

  it('summarizes binary bodies; small images carry base64 (I10)', async () => {
    up.route('/png', { kind: 'binary', contentType: 'image/png', bytes: 64 });
    const png = okay(await executeOperation(get('/png'), {}, cfg));
    expect(png.data).toMatchObject({ binary: true, contentType: 'image/png', bytes: 64 });
    expect(Buffer.from((png.data as { base64: string }).base64, 'base64')).toHaveLength(64);
    up.route('/pdf', { kind: 'binary', contentType: 'application/pdf', bytes: 5000 });
    expect(okay(await executeOperation(get('/pdf'), {}, cfg)).data).toEqual({ binary: true, contentType: 'application/pdf', bytes: 5000 });
  });

  it('invalid JSON is UPSTREAM_RESPONSE_INVALID with a snippet (I11); 204 and empty bodies succeed (I12); text is kept', async () => {
    up.route('/badjson', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(fail(await executeOperation(get('/badjson'), {}, cfg))).toMatchObject({ code: 'UPSTREAM_RESPONSE_INVALID', message: expect.stringContaining('{\\"a\\":') });
    up.route('/204', { kind: 'status', status: 204 });
    expect(okay(await executeOperation(get('/204'), {}, cfg))).toMatchObject({ status: 204, data: null });
    up.route('/empty', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: '' });
    expect(okay(await executeOperation(get('/empty'), {}, cfg)).data).toBeNull();
    up.route('/text', { kind: 'status', status: 200, headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(okay(await executeOperation(get('/text'), {}, cfg)).data).toBe('hello');
  });

  it('keeps integers beyond 2^53 exact as strings (E7)', async () => {
    up.route('/big', { kind: 'status', status: 200, body: '{"id":9007199254740993,"small":12,"s":"12345678901234567890"}', headers: { 'content-type': 'application/json' } });
    expect(okay(await executeOperation(get('/big'), {}, cfg)).data).toEqual({ id: '9007199254740993', small: 12, s: '12345678901234567890' });
  });

  it('selects useful headers only', async () => {
    up.route('/h', {
      kind: 'status',
      status: 200,
      body: [],
      headers: { link: '<https://x/y?page=2>; rel="next"', 'x-ratelimit-remaining': '59', 'x-github-request-id': 'AB:CD', 'set-cookie': 'a=b', server: 'x' },
    });
    const out = okay(await executeOperation(get('/h'), {}, cfg));
    expect(Object.keys(out.headers).sort()).toEqual(['content-length', 'content-type', 'link', 'x-github-request-id', 'x-ratelimit-remaining']);
  });
});

describe('HTTP errors', () => {
  it('maps 401/403/404/422 to UPSTREAM_ERROR with the API message and an instruction', async () => {
    const o = get('/repos/{owner}', { params: [{ arg: 'owner', in: 'path' }] });
    up.route('/repos/a', { kind: 'status', status: 404, body: { message: 'Not Found', documentation_url: 'https://docs' } });
    expect(fail(await executeOperation(o, { owner: 'a' }, { ...cfg, catalog: catalog({ name: 'github' }) }))).toMatchObject({
      code: 'UPSTREAM_ERROR',
      status: 404,
      message: 'test_op: the API answered 404: Not Found',
      instruction: expect.stringMatching(/check the identifiers \(owner\)/),
    });
    up.route('/repos/b', { kind: 'status', status: 401, body: { message: 'Bad credentials' } });
    expect(fail(await executeOperation(o, { owner: 'b' }, { ...cfg, catalog: catalog({ name: 'github' }) })).instruction).toMatch(/GITHUB_TOKEN/);
    up.route('/repos/c', { kind: 'status', status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'Issue', field: 'title', code: 'missing_field' }] } });
    const v = fail(await executeOperation(o, { owner: 'c' }, cfg));
    expect(v.message).toBe('test_op: the API answered 422: Validation Failed; title: missing_field');
    expect(v.instruction).toMatch(/rejected these fields: title/);
    up.route('/repos/d', { kind: 'status', status: 400, body: { error: { type: 'invalid_request_error', message: 'Missing amount', param: 'amount' } } });
    const s = fail(await executeOperation(o, { owner: 'd' }, cfg));
    expect(s.message).toMatch(/Missing amount/);
    expect(s.instruction).toMatch(/fields: amount/);
  });

  it('a 500 with 2 MB of HTML gives a short, tag-free message (I6)', async () => {
    up.route('/boom', { kind: 'status', status: 500, headers: { 'content-type': 'text/html' }, body: `<html><body><h1>Internal error</h1>${'<p>x</p>'.repeat(250_000)}</body></html>` });
    const out = fail(await executeOperation(get('/boom'), {}, cfg));
    expect(out.message.startsWith('test_op: the API answered 500: Internal error')).toBe(true);
    expect(out.message.length).toBeLessThan(400);
    expect(JSON.stringify(out).length).toBeLessThan(5_000);
  });
});

describe('shaping', () => {
  const list = get('/items', { params: [{ arg: 'per_page', in: 'query', schema: { type: 'integer' } }, { arg: 'page', in: 'query', schema: { type: 'integer' } }] });

  it('cuts long lists to whole items within the token budget and keeps the full data (truncation)', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `item ${i}`, user: { login: `u${i}` } }));
    up.route('/items', { kind: 'status', status: 200, body: items });
    const out = okay(await executeOperation(list, {}, { ...cfg, tokenBudget: 500 }));
    const kept = out.data as typeof items;
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(1000);
    expect(kept).toEqual(items.slice(0, kept.length));
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(2_000);
    expect(out.truncated).toMatchObject({ totalItems: 1000, kept: kept.length, path: '', reason: 'tokenBudget', hint: expect.stringMatching(/per_page, page/) });
    expect(out.full).toEqual(items);
  });

  it('cuts the main list inside an object (GitHub search `items`) and leaves small data alone', async () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ id: i, title: `t${i}` }));
    up.route('/search', { kind: 'status', status: 200, body: { total_count: 300, incomplete_results: false, items } });
    const out = okay(await executeOperation(get('/search'), {}, { ...cfg, tokenBudget: 300 }));
    expect(out.data).toMatchObject({ total_count: 300, incomplete_results: false });
    expect(out.truncated).toMatchObject({ totalItems: 300, path: '/items' });
    up.route('/small', { kind: 'status', status: 200, body: { a: 1 } });
    const small = okay(await executeOperation(get('/small'), {}, cfg));
    expect(small.truncated).toBeUndefined();
    expect(small.full).toBeUndefined();
  });

  it('projects with dotted fields or JMESPath before the budget', async () => {
    const items = [{ id: 1, name: 'a', user: { login: 'x', id: 9 } }, { id: 2, name: 'b', user: { login: 'y', id: 8 } }];
    up.route('/items', { kind: 'status', status: 200, body: items });
    expect(okay(await executeOperation(list, {}, cfg, { fields: ['id', 'user.login'] })).data).toEqual([{ id: 1, user: { login: 'x' } }, { id: 2, user: { login: 'y' } }]);
    expect(okay(await executeOperation(list, {}, cfg, { fields: '[].user.login' })).data).toEqual(['x', 'y']);
    expect(fail(await executeOperation(list, {}, cfg, { fields: '[[[' })).code).toBe('INVALID_ARGUMENTS');
  });

  it('a JMESPath projection that does not parse is refused before anything is sent (a create is never sent twice)', async () => {
    up.route('/issues', { kind: 'status', status: 201, body: { id: 1 } });
    const create = op({ path: '/issues', method: 'post' });
    const out = fail(await executeOperation(create, {}, cfg, { fields: 'a,,b' }));
    expect(out.code).toBe('INVALID_ARGUMENTS');
    expect(out.message).toMatch(/not a valid JMESPath expression/);
    expect(up.hits('/issues')).toEqual([]);
  });

  it('gives pagination hints from Link headers and cursor fields', async () => {
    up.route('/items', { kind: 'status', status: 200, body: [{ id: 1 }], headers: { link: `<${up.url}/items?per_page=1&page=2>; rel="next", <${up.url}/items?page=9>; rel="last"` } });
    expect(okay(await executeOperation(list, { per_page: 1 }, cfg)).pagination).toEqual({ source: 'link', hasMore: true, next: `${up.url}/items?per_page=1&page=2`, nextArgs: { per_page: 1, page: 2 } });
    const stripeList = get('/v1/customers', { params: [{ arg: 'starting_after', in: 'query' }, { arg: 'limit', in: 'query', schema: { type: 'integer' } }] });
    up.route('/v1/customers', { kind: 'status', status: 200, body: { object: 'list', data: [{ id: 'cus_1' }, { id: 'cus_2' }], has_more: true } });
    expect(okay(await executeOperation(stripeList, {}, cfg)).pagination).toEqual({ source: 'cursor', hasMore: true, nextArgs: { starting_after: 'cus_2' } });
  });

  it('read-only mode refuses writes before anything; non-executable ops are refused', async () => {
    expect(fail(await executeOperation(op({ method: 'delete' }), {}, { ...cfg, readOnly: true })).code).toBe('READ_ONLY_MODE');
    expect(fail(await executeOperation({ ...get('/x'), executable: false, problems: ['undeclared path parameter'] }, {}, cfg)).code).toBe('NOT_EXECUTABLE');
    expect(up.requests).toHaveLength(0);
    okay(await executeOperation(get('/x'), {}, { ...cfg, readOnly: true }));
  });
});

describe('secrets never leave (H1-H3)', () => {
  const canary = `CANARY-${Math.random().toString(36).slice(2)}`;
  const user = 'canary-user';
  const schemes = withSchemes({ q: { type: 'apiKey', in: 'query', name: 'api_key' }, b: { type: 'http', scheme: 'basic' }, t: { type: 'http', scheme: 'bearer' } });
  const env = { TESTAPI_API_KEY: canary, TESTAPI_USERNAME: user, TESTAPI_PASSWORD: `${canary}-pw`, TESTAPI_TOKEN: `${canary}-tok` };

  it('is scrubbed from echoes, errors, headers, redirects and thrown failures', async () => {
    const outs: ExecutionOutcome[] = [];
    const c = { ...cfg, catalog: schemes, env };
    for (const sec of [{ q: [] }, { b: [] }, { t: [] }] as Array<Record<string, string[]>>) {
      const o = (path: string) => op({ path, security: [sec] });
      outs.push(await executeOperation(o('/echo'), {}, c));
      up.route('/e401', { kind: 'handler', handle: (req, res) => {
        res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': `${canary}` });
        res.end(JSON.stringify({ message: `bad key ${canary} in ${req.url ?? ''} auth ${req.headers.authorization ?? ''}`, [canary]: 1 }));
      } });
      outs.push(await executeOperation(o('/e401'), {}, c));
      up.route('/away', { kind: 'redirect', status: 302, location: `${other.url}/x?api_key=${canary}` });
      outs.push(await executeOperation(o('/away'), {}, c));
      up.route('/badjson', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: `{"k":"${canary}` });
      outs.push(await executeOperation(o('/badjson'), {}, c));
      const throwing: typeof fetch = async (url) => {
        throw new Error(`getaddrinfo ENOTFOUND ${String(url)}`);
      };
      outs.push(await executeOperation(o('/t'), {}, c, { fetch: throwing }));
      outs.push(await executeOperation(o('/t'), { nope: canary }, c));
    }
    const text = JSON.stringify(outs);
    expect(outs.filter((o) => o.ok)).toHaveLength(3);
    expect(text).toContain('***');
    for (const o of outs) expect(JSON.stringify(o), JSON.stringify(o)).not.toContain(canary);
    expect(text).not.toContain(Buffer.from(`${user}:${canary}-pw`).toString('base64'));
    expect(other.requests).toHaveLength(0);
  });
});
