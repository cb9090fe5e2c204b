// Docs audit #11: a path parameter is always one encoded segment, and a value whose segments, split at `/` or `\`
// (as given or percent-decoded once), include `..` is refused (INVALID_ARGUMENTS, nothing sent), because an upstream
// or proxy that decodes `%2F` would read it as a step up the path. Against the recording upstream: what it received.
import { describe, expect, it } from 'vitest';
import { executeOperation, type ExecutionConfig } from '../../src/execution/index.js';
import type { Upstream } from '../helpers/upstream.js';
import { op, useUpstream } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = c;
}, { path: '/v1' });

const things = op({ method: 'delete', path: '/things/{id}', params: [{ arg: 'id', in: 'path' }] });
const arr = op({ path: '/things/{ids}', params: [{ arg: 'ids', in: 'path', schema: { type: 'array', items: { type: 'string' } } }] });

describe('a ".." segment in a path parameter (docs audit #11)', () => {
  it.each(['../x', '../../admin', 'a/../b', '..%2Fx', '..%5Cx', '..\\x', 'a\\..', ' .. /x', '%2E%2E%2Fx', '..%252Fx', '..;/admin', 'a/..;x=1/b'])('refuses %j, naming the parameter, with nothing sent', async (id) => {
    const out = await executeOperation(things, { id }, cfg);
    expect(out).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
    const message = (out as { message: string }).message;
    expect(message).toContain(`path parameter id: ${JSON.stringify(id)} has a ".." segment`);
    expect(up.requests).toHaveLength(0);
  });

  it('refuses it inside an array value too', async () => {
    const out = await executeOperation(arr, { ids: ['a', 'b/../c'] }, cfg);
    expect(out).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(up.requests).toHaveLength(0);
  });

  it.each([
    ['a..b', '/v1/things/a..b'],
    ['v1.2..3', '/v1/things/v1.2..3'],
    ['..a', '/v1/things/..a'],
    ['a/b', '/v1/things/a%2Fb'],
  ])('sends %j as one encoded segment', async (id, wire) => {
    const out = await executeOperation(things, { id }, cfg);
    expect(out, JSON.stringify(out)).toMatchObject({ ok: true });
    expect(up.requests.at(-1)?.url).toBe(wire);
  });
});
