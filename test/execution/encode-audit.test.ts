// Execution audit (audit-exec-report.md) #2–#8, #13, #15, against recording upstreams over real HTTP: what each
// upstream received, or that nothing was sent. #2 operation servers and the operator's base URL; #3 an exploded object
// query argument named like the apiKey query credential; #4/#5 files only where the schema or the explicit file forms
// say so; #6 a data: URL with a bad percent-escape; #7 path values of dots and slashes; #8 matrix/label objects;
// #13 NDJSON and other textual answers; #15 a tagged oneOf reports the alternative its tag picks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeOperation, prepareRequest, type ExecutionConfig } from '../../src/execution/index.js';
import type { Operation, ServerInfo } from '../../src/types.js';
import { startUpstream, type RecordedRequest, type Upstream } from '../helpers/upstream.js';
import { catalog, fail, okay, op, withSchemes } from './fixtures.js';

let api: Upstream;
let files: Upstream;
let mock: Upstream;
beforeAll(async () => {
  [api, files, mock] = await Promise.all([startUpstream(), startUpstream(), startUpstream()]);
});
afterAll(async () => {
  await Promise.all([api.close(), files.close(), mock.close()]);
});
beforeEach(() => {
  for (const u of [api, files, mock]) u.clear();
});

function withServers(o: Operation, servers: ServerInfo[]): Operation {
  return { ...o, servers };
}

/** The catalog's own server is `api` at /v1; `base`: the operator's base URL. */
function config(extra: Partial<ExecutionConfig> = {}): ExecutionConfig {
  return { catalog: catalog({ servers: [{ url: `${api.url}/v1` }] }), env: { TESTAPI_TOKEN: 'tok-audit-2' }, ...extra };
}

function sentTo(): Record<string, string[]> {
  return { api: api.requests.map((r) => r.url), files: files.requests.map((r) => r.url), mock: mock.requests.map((r) => r.url) };
}

async function sent(o: Operation, args: Record<string, unknown>, cfg: ExecutionConfig = config({ baseUrl: `${api.url}/v1` })): Promise<RecordedRequest> {
  const out = await executeOperation(o, args, cfg);
  expect(out, JSON.stringify(out).slice(0, 600)).toMatchObject({ ok: true });
  expect(api.requests).toHaveLength(1);
  return api.requests[0]!;
}

async function refused(o: Operation, args: Record<string, unknown>, cfg: ExecutionConfig = config({ baseUrl: `${api.url}/v1` })) {
  const out = fail(await executeOperation(o, args, cfg));
  expect(out.code, out.message).toBe('INVALID_ARGUMENTS');
  expect(sentTo()).toEqual({ api: [], files: [], mock: [] });
  return out;
}

function errorPaths(out: { details?: unknown }): string[] {
  return ((out.details as { errors?: Array<{ path: string }> } | undefined)?.errors ?? []).map((e) => e.path);
}

describe('#2 an operation server beside the operator base URL', () => {
  const upload = () => withServers(op({ method: 'post', path: '/files' }), [{ url: `${files.url}/` }]);

  it('a base URL on the API origin (the docs Stripe example): an allowed operation server keeps its own host', async () => {
    const cfg = config({ baseUrl: `${api.url}/v1`, allowedOrigins: [files.url] });
    okay(await executeOperation(upload(), {}, cfg));
    okay(await executeOperation(op({ path: '/customers' }), {}, cfg));
    expect(sentTo()).toEqual({ api: ['/v1/customers'], files: ['/files'], mock: [] });
    expect(files.requests[0]?.headers.authorization).toBe('Bearer tok-audit-2');
    expect(prepareRequest(upload(), {}, cfg).url).toBe(`${files.url}/files`);
  });

  it('a base URL on the API origin: an unlisted operation server is still refused (F7), nothing sent', async () => {
    const out = fail(await executeOperation(upload(), {}, config({ baseUrl: `${api.url}/v1` })));
    expect(out.code).toBe('UNSAFE_REQUEST');
    expect(out.message).toContain('catalogs.testapi.allowedOrigins');
    expect(sentTo()).toEqual({ api: [], files: [], mock: [] });
  });

  it('a base URL on another host (a mock or proxy): every call goes there, and the dry run says which server it replaced', async () => {
    const cfg = config({ baseUrl: `${mock.url}/v1`, allowedOrigins: [files.url] });
    okay(await executeOperation(upload(), {}, cfg));
    okay(await executeOperation(op({ path: '/customers' }), {}, cfg));
    // an operation server on the API's own origin is moved onto the base URL with its path below the catalog's
    okay(await executeOperation(withServers(op({ path: '/x' }), [{ url: `${api.url}/v1/uploads` }]), {}, cfg));
    expect(sentTo()).toEqual({ api: [], files: [], mock: ['/v1/files', '/v1/customers', '/v1/uploads/x'] });
    const dry = prepareRequest(upload(), {}, cfg);
    expect(dry.url).toBe(`${mock.url}/v1/files`);
    expect(dry.warnings?.join(' ')).toContain(`own server ${files.url} is not used`);
  });

  it('without a base URL an operation server on the API origin keeps its path; allowed origins are used', async () => {
    okay(await executeOperation(withServers(op({ path: '/x' }), [{ url: `${api.url}/uploads` }]), {}, config()));
    okay(await executeOperation(upload(), {}, config({ allowedOrigins: [files.url] })));
    expect(sentTo()).toEqual({ api: ['/uploads/x'], files: ['/files'], mock: [] });
  });
});

describe('#3 an argument named like the apiKey query credential', () => {
  const keyed = () => config({ baseUrl: `${api.url}/v1`, catalog: withSchemes({ qkey: { type: 'apiKey', in: 'query', name: 'api_key' } }, catalog({ servers: [{ url: `${api.url}/v1` }] })), env: { TESTAPI_API_KEY: 'key-SECRET-456' } });
  const withQueryKey = op({ path: '/qkey', security: [{ qkey: [] }], params: [{ arg: 'filter', in: 'query', schema: { type: 'object', additionalProperties: { type: 'string' } } }] });

  it.each(['api_key', 'API_KEY'])('an exploded object key %j is INVALID_ARGUMENTS at its path, nothing sent', async (key) => {
    const out = await refused(withQueryKey, { filter: { [key]: 'attacker-key' } }, keyed());
    expect(errorPaths(out)).toEqual([`/filter/${key}`]);
    expect(out.message).not.toContain('key-SECRET-456');
  });

  it('other keys are sent, followed by the one credential', async () => {
    const rec = await sent(withQueryKey, { filter: { color: 'red' } }, keyed());
    expect(rec.url).toBe('/v1/qkey?color=red&api_key=key-SECRET-456');
  });

  it('a whole form body object cannot carry the name either (servers that merge body and query)', async () => {
    const form = op({ method: 'post', path: '/form', security: [{ qkey: [] }], body: { mediaType: 'application/x-www-form-urlencoded', mode: 'whole', schema: { type: 'object' } } });
    const out = await refused(form, { body: { amount: '1', api_key: 'attacker' } }, keyed());
    expect(errorPaths(out)).toEqual(['/body/api_key']);
  });
});

describe('#4 #5 #6 files', () => {
  const binary = { type: 'string', format: 'binary' } as const;
  const upload = op({ method: 'post', path: '/upload', body: { mediaType: 'multipart/form-data', properties: { file: binary, title: { type: 'string' }, count: { type: 'integer' } } } });
  const putBinary = op({ method: 'put', path: '/binary', body: { mediaType: 'application/octet-stream', mode: 'whole', schema: binary } });

  async function parts(rec: RecordedRequest): Promise<FormData> {
    return new Response(rec.body, { headers: { 'content-type': rec.headers['content-type']! } }).formData();
  }

  it('#4 a format: binary field takes the file object {base64, filename, contentType}: its name and type are sent', async () => {
    const rec = await sent(upload, { file: { base64: 'aGVsbG8=', filename: 'a.txt', contentType: 'text/plain' }, title: 'notes' });
    expect(rec.text).toContain('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n');
    expect((await parts(rec)).get('title')).toBe('notes');
  });

  it('#4 a data: URL with a filename parameter names the file', async () => {
    const rec = await sent(upload, { file: 'data:text/csv;filename=rows.csv;base64,YSxi' });
    expect(rec.text).toContain('name="file"; filename="rows.csv"\r\nContent-Type: text/csv\r\n\r\na,b\r\n');
  });

  it('#4 a bare string property (Stripe declares its upload so) takes the file object too', async () => {
    const stripeLike = op({ method: 'post', path: '/files', body: { mediaType: 'multipart/form-data', properties: { file: { type: 'string' }, purpose: { type: 'string', enum: ['dispute_evidence'] } } } });
    const rec = await sent(stripeLike, { file: { base64: 'JVBERi0=', filename: 'e.pdf', contentType: 'application/pdf' }, purpose: 'dispute_evidence' });
    const file = (await parts(rec)).get('file') as File;
    expect([file.name, file.type, Buffer.from(await file.arrayBuffer()).toString()]).toEqual(['e.pdf', 'application/pdf', '%PDF-']);
  });

  it.each([
    ['data: 5 rows, all good'],
    ['data:text/csv,a,b'],
    ['data:text/plain,100%'],
  ])('#5 a text field is sent as the text %j, never as a file', async (title) => {
    const rec = await sent(upload, { title });
    expect(rec.text).toContain(`Content-Disposition: form-data; name="title"\r\n\r\n${title}\r\n`);
  });

  it('#5 an octet-stream string is sent as its UTF-8 text, not decoded as base64; a data: URL or file object gives bytes', async () => {
    expect((await sent(putBinary, { body: 'test' })).body).toEqual(Buffer.from('test'));
    api.clear();
    expect((await sent(putBinary, { body: 'data:application/zip;base64,UEsDBA==' })).body).toEqual(Buffer.from([0x50, 0x4b, 3, 4]));
    api.clear();
    expect((await sent(putBinary, { body: { base64: 'AAEC/w==' } })).body).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it.each([
    [upload, { file: 'data:text/plain,100%' }, '/file'],
    [putBinary, { body: 'data:,50% off' }, '/body'],
    [upload, { file: 'data:text/plain;base64,not*base64!' }, '/file'],
  ] as const)('#6 a data: URL that does not decode is INVALID_ARGUMENTS at its argument, never INTERNAL (%#)', async (o, args, pointer) => {
    const out = await refused(o, args);
    expect(errorPaths(out)).toEqual([pointer]);
    expect(out.instruction ?? '').not.toMatch(/retry/i);
  });
});

describe('#7 #8 path parameters', () => {
  const item = op({ method: 'delete', path: '/items/{id}', params: [{ arg: 'id', in: 'path' }] });

  it.each(['/', '//', './', '/.', './.', '.\\', '%2F', '.%2F', 'a/./b', './x', 'x/.', '.;/x'])('#7 refuses %j (dots and slashes, or a "." segment), nothing sent', async (id) => {
    const out = await refused(item, { id });
    expect(errorPaths(out)).toEqual(['/id']);
  });

  it.each([
    ['.hidden', '/v1/items/.hidden'],
    ['v1.0', '/v1/items/v1.0'],
    ['a/b', '/v1/items/a%2Fb'],
  ])('#7 still sends %j', async (id, wire) => {
    expect((await sent(item, { id })).url).toBe(wire);
  });

  it('#8 matrix and label objects with explode follow the OAS 3 style table', async () => {
    const obj = { type: 'object', additionalProperties: { type: 'string' } };
    const arr = { type: 'array', items: { type: 'string' } };
    const styles = op({
      path: '/styles/{simple}/{label}/{matrix}/{labelArr}/{matrixArr}/{plain}',
      params: [
        { arg: 'simple', in: 'path', explode: true, schema: obj },
        { arg: 'label', in: 'path', style: 'label', explode: true, schema: obj },
        { arg: 'matrix', in: 'path', style: 'matrix', explode: true, schema: obj },
        { arg: 'labelArr', in: 'path', style: 'label', explode: true, schema: arr },
        { arg: 'matrixArr', in: 'path', style: 'matrix', explode: true, schema: arr },
        { arg: 'plain', in: 'path', style: 'matrix', explode: false, schema: obj },
      ],
    });
    const kv = { k: 'v', k2: 'v/2' };
    const rec = await sent(styles, { simple: kv, label: kv, matrix: kv, labelArr: ['x', 'y'], matrixArr: ['x', 'y'], plain: kv });
    expect(rec.url).toBe('/v1/styles/k=v,k2=v%2F2/.k=v.k2=v%2F2/;k=v;k2=v%2F2/.x.y/;matrixArr=x;matrixArr=y/;plain=k,v,k2,v%2F2');
  });
});

describe('#13 textual answers', () => {
  it.each(['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/json-seq', 'application/toml', 'application/sql', 'application/x-custom-log'])('%s comes back as text', async (ct) => {
    const text = '{"a":1}\n{"a":2}\n';
    api.route('/v1/export', { kind: 'status', status: 200, headers: { 'content-type': ct }, body: text });
    const out = okay(await executeOperation(op({ path: '/export' }), {}, config({ baseUrl: `${api.url}/v1` })));
    expect(out.data).toBe(text);
  });

  it('binary types stay summarized', async () => {
    api.route('/v1/zip', { kind: 'binary', contentType: 'application/zip', bytes: 32 });
    const out = okay(await executeOperation(op({ path: '/zip' }), {}, config({ baseUrl: `${api.url}/v1` })));
    expect(out.data).toEqual({ binary: true, contentType: 'application/zip', bytes: 32 });
  });
});

describe('#15 a oneOf whose alternatives are told apart by a tag', () => {
  const pets = {
    Cat: { type: 'object', properties: { kind: { type: 'string', enum: ['cat'] }, meow: { type: 'boolean' } }, required: ['kind', 'meow'] },
    Dog: { type: 'object', properties: { kind: { type: 'string', enum: ['dog'] }, bark: { type: 'boolean' } }, required: ['kind', 'bark'] },
  };
  const postJson = (() => {
    const o = op({ method: 'post', path: '/json', body: { mediaType: 'application/json', properties: { pet: { oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }] } } } });
    return { ...o, inputSchema: { ...o.inputSchema, $defs: pets } };
  })();

  it('reports what the alternative named by the tag needs, not "change kind to dog"', async () => {
    const out = await refused(postJson, { pet: { kind: 'cat', bark: true } });
    const errors = (out.details as { errors: Array<{ path: string; message: string; expected?: unknown }> }).errors;
    expect(errors.map((e) => e.path)).toEqual(['/pet/meow']);
    expect(errors[0]?.message).toBe('required property is missing');
    expect(JSON.stringify(errors)).not.toContain('dog');
  });

  it('a tag no alternative has is one error listing every allowed tag', async () => {
    const out = await refused(postJson, { pet: { kind: 'cow' } });
    const errors = (out.details as { errors: Array<{ path: string; expected?: unknown }> }).errors;
    expect(errors).toEqual([expect.objectContaining({ path: '/pet/kind', expected: ['cat', 'dog'] })]);
  });

  it('a valid value is sent', async () => {
    const rec = await sent(postJson, { pet: { kind: 'cat', meow: true } });
    expect(JSON.parse(rec.text)).toEqual({ pet: { kind: 'cat', meow: true } });
  });
});
