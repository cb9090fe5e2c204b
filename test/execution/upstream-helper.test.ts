// Checks the recording fake upstream (test/helpers/upstream.ts) that execution and server tests rely on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});

describe('recording upstream', () => {
  it('echoes and records the raw request target, headers and body', async () => {
    const res = await fetch(`${up.url}/v1/users/..%2Fadmin?x=1`, { method: 'POST', body: 'hello', headers: { 'x-a': 'b' } });
    const echo = (await res.json()) as { url: string; method: string; body: string };
    expect(echo).toMatchObject({ url: '/v1/users/..%2Fadmin?x=1', method: 'POST', body: 'hello' });
    const rec = up.requests.at(-1)!;
    expect(rec.pathname).toBe('/v1/users/..%2Fadmin');
    expect(rec.headers['x-a']).toBe('b');
    expect(rec.text).toBe('hello');
  });

  it('plays sequences per route, then repeats the last step', async () => {
    up.route('/seq', { kind: 'sequence', steps: [{ kind: 'status', status: 503 }, { kind: 'status', status: 200, body: { ok: 1 } }] });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await fetch(`${up.url}/seq`)).status);
    expect(codes).toEqual([503, 200, 200]);
    expect(up.hits('/seq')).toHaveLength(3);
  });

  it('serves a gzip bomb that is small on the wire', async () => {
    up.route('/bomb', { kind: 'gzipBomb', decompressedBytes: 2_000_000 });
    const res = await fetch(`${up.url}/bomb`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const raw = Buffer.from(await res.arrayBuffer()); // fetch decodes gzip itself
    expect(raw.length === 2_000_000 || gunzipSync(raw).length === 2_000_000).toBe(true);
  });

  it('lies about content-length and resets', async () => {
    up.route('/lie', { kind: 'lyingLength', declared: 1000, actual: 10 });
    await expect(fetch(`${up.url}/lie`).then((r) => r.arrayBuffer())).rejects.toThrow();
    up.route('/reset', { kind: 'reset' });
    await expect(fetch(`${up.url}/reset`)).rejects.toThrow();
  });
});
