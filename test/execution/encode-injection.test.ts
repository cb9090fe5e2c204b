// Keys and file content types that come from the arguments, against the recording upstream: a deepObject or form
// key cannot leave its bracket segment (to add a parameter ahead of the apiKey credential, or push the credential
// into a fragment), and a file part's content type cannot add multipart part headers. Each test asserts what the
// server actually received, or that it received nothing.
import { describe, expect, it } from 'vitest';
import { executeOperation, type ExecutionConfig } from '../../src/execution/index.js';
import type { RecordedRequest, Upstream } from '../helpers/upstream.js';
import { fail, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = { ...c, catalog: withSchemes({ qkey: { type: 'apiKey', in: 'query', name: 'api_key' } }), env: { TESTAPI_API_KEY: 'key-456' } };
}, { path: '/v1' });

async function sent(o: ReturnType<typeof op>, args: Record<string, unknown>): Promise<RecordedRequest> {
  const out = await executeOperation(o, args, cfg);
  expect(out, JSON.stringify(out)).toMatchObject({ ok: true });
  expect(up.requests).toHaveLength(1);
  return up.requests[0]!;
}

// Every character that could end a bracket segment, a pair, the query or a percent-escape.
const hostileKeys = ['x]&api_key=ATTACKER&y[', 'x]#', 'a]b', '[a', 'a=b', 'a&b', 'a?b', 'a%26b', 'a%5Db', 'a b+c', 'a/b', 'a;b', ']', '['];

/**
 * The pairs of a query or form body as sent, decoded, after checking that each raw name has only structural brackets
 * (`name[seg]…[seg]` with `depth` segments, every segment free of raw `[ ] & = # ?`).
 */
function pairs(raw: string, depth: number[]): string[][] {
  const split = raw.split('&').map((p) => p.split('='));
  split.forEach(([name], i) => {
    const d = depth[i] ?? 0;
    expect(name, `pair ${i}`).toMatch(new RegExp(`^[^\\[\\]&=#?]+(?:\\[[^\\[\\]&=#?]*\\]){${d}}$`));
  });
  return split.map((p) => p.map(decodeURIComponent));
}

describe('deepObject query keys (security finding 1)', () => {
  const profile = op({
    security: [{ qkey: [] }],
    params: [{ arg: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } }],
  });

  it('encodes an injected key inside its segment: one api_key reaches the upstream, the credential intact', async () => {
    const rec = await sent(profile, { filter: { 'x]&api_key=ATTACKER&y[': 'v' } });
    expect(rec.url).toBe('/v1/things?filter[x%5D%26api_key%3DATTACKER%26y%5B]=v&api_key=key-456');
    const query = new URL(rec.url, up.url).searchParams;
    expect(query.getAll('api_key')).toEqual(['key-456']);
    expect(query.get('filter[x]&api_key=ATTACKER&y[]')).toBe('v');
  });

  it('a key with ] and # cannot turn the credential into a fragment', async () => {
    const rec = await sent(profile, { filter: { 'x]#': 'w' } });
    expect(rec.url).toBe('/v1/things?filter[x%5D%23]=w&api_key=key-456');
  });

  it.each(hostileKeys)('key %j stays one pair whose decoded name is filter[<key>]', async (key) => {
    const rec = await sent(profile, { filter: { [key]: 'v', nested: { [key]: 'n' } } });
    expect(pairs(rec.url.slice(rec.url.indexOf('?') + 1), [1, 2, 0])).toEqual([
      [`filter[${key}]`, 'v'],
      [`filter[nested][${key}]`, 'n'],
      ['api_key', 'key-456'],
    ]);
  });

  it('keeps the wire form of ordinary keys', async () => {
    const rec = await sent(profile, { filter: { color: 'red', 'a b': 'x&y', size: { min: 1 } } });
    expect(rec.url).toBe('/v1/things?filter[color]=red&filter[a%20b]=x%26y&filter[size][min]=1&api_key=key-456');
  });
});

describe('form body keys (security finding 1)', () => {
  const charge = op({
    method: 'post',
    path: '/charges',
    security: [{ qkey: [] }],
    body: { mediaType: 'application/x-www-form-urlencoded', properties: { amount: { type: 'integer' }, metadata: { type: 'object' }, items: { type: 'array' } } },
  });

  it('encodes an injected metadata key inside its segment: the upstream sees one amount', async () => {
    const rec = await sent(charge, { amount: 1, metadata: { 'k]&amount=999999&x[': 'v' } });
    expect(rec.text).toBe('amount=1&metadata[k%5D%26amount%3D999999%26x%5B]=v');
    const form = new URLSearchParams(rec.text);
    expect(form.getAll('amount')).toEqual(['1']);
    expect(form.get('metadata[k]&amount=999999&x[]')).toBe('v');
    expect(rec.url).toBe('/v1/charges?api_key=key-456');
  });

  it.each(hostileKeys)('metadata key %j stays one pair whose decoded name is metadata[<key>]', async (key) => {
    const rec = await sent(charge, { amount: 1, metadata: { [key]: 'v' }, items: [{ [key]: 'i' }] });
    expect(pairs(rec.text, [0, 1, 2])).toEqual([
      ['amount', '1'],
      [`metadata[${key}]`, 'v'],
      [`items[0][${key}]`, 'i'],
    ]);
  });
});

describe('multipart file content types (security finding 4)', () => {
  // Only properties the schema marks binary are files (a data: URL or a file object); see files.test.ts.
  const binary = { type: 'string', format: 'binary' } as const;
  const upload = op({ method: 'post', path: '/upload', body: { mediaType: 'multipart/form-data', properties: { note: { type: 'string' }, file: binary, files: { type: 'array', items: binary } } } });

  it.each([
    ['a file object contentType', { file: { base64: 'aGk=', contentType: 'text/plain\r\nX-Injected: yes' } }, '/file/contentType'],
    ['a file object contentType ending the part headers', { file: { base64: 'aGk=', contentType: 'text/plain\r\nX-Injected: yes\r\n\r\nEVIL' } }, '/file/contentType'],
    ['a data: URL media type', { file: 'data:text/plain\r\nX-Evil: 1;base64,aGk=' }, '/file'],
    ['a bare LF in a data: URL', { file: 'data:text/plain\nX-Evil: 1,hi' }, '/file'],
    ['a data: URL in a list of files', { files: ['data:image/png;base64,aGk=', 'data:image/png\r\nX-Evil: 1;base64,aGk='] }, '/files/1'],
    ['a contentType that is no media type', { file: { text: 'hi', contentType: 'png' } }, '/file/contentType'],
  ])('refuses %s as INVALID_ARGUMENTS naming the argument, with nothing sent', async (_what, args, pointer) => {
    const out = fail(await executeOperation(upload, { note: 'n', ...args }, cfg));
    expect(out.code).toBe('INVALID_ARGUMENTS');
    expect(out.message).toContain(`file argument ${pointer}: content type`);
    expect(out.message).toContain('a content type must be type/subtype with optional ;name=value parameters');
    expect(up.requests).toHaveLength(0);
  });

  it('sends a well-formed content type with parameters as the part header', async () => {
    const rec = await sent(upload, { file: { text: 'hi', filename: 'a.txt', contentType: 'text/plain; charset=utf-8' }, files: ['data:image/png;base64,aGk='] });
    expect(rec.text).toContain('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nhi\r\n');
    expect(rec.text).toContain('Content-Disposition: form-data; name="files"; filename="files"\r\nContent-Type: image/png\r\n\r\nhi\r\n');
  });
});
