// Regression coverage for execution behaviours an audit found untested: Retry-After as an HTTP-date, the 403
// instruction naming the credential variable, env var names from catalog names, one Ajv compile per operation,
// format errors, and the schema excerpt carried in `expected`. Real loopback HTTP; only sleep is injected.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { credentialNames } from '../../src/execution/credential-names.js';
import {
  envPrefix,
  executeOperation,
  validateArguments,
  type ExecuteOptions,
  type ExecutionConfig,
  type ExecutionOutcome,
} from '../../src/execution/index.js';
import type { Upstream } from '../helpers/upstream.js';
import { catalog, fail, okay, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = c;
}, { totalMs: 5_000 });


describe('Retry-After as an HTTP-date', () => {
  it('a 503 on GET with a date ahead waits until that date, retries once and records the success', async () => {
    // HTTP-dates have whole seconds. The wait is computed between `before` and the (fake) sleep, so it lies
    // between the date seen from those two moments however slow the machine is: no wall-clock threshold.
    const before = Date.now();
    const date = new Date(before + 30_000).toUTCString();
    up.route('/busy', { kind: 'sequence', steps: [{ kind: 'status', status: 503, headers: { 'retry-after': date }, body: { message: 'busy' } }, { kind: 'echo' }] });
    const waits: Array<{ ms: number; at: number }> = [];
    const sleep = async (ms: number): Promise<void> => void waits.push({ ms, at: Date.now() });
    const out = okay(await executeOperation(op({ path: '/busy' }), {}, { ...cfg, timeouts: { totalMs: 60_000 } }, { sleep, random: () => 0 }));
    expect(out.status).toBe(200);
    expect((out.data as { method: string; url: string }).url).toBe('/busy');
    expect(waits).toHaveLength(1);
    // Exponential back-off with random()=0 would ask for 250 ms: the date, not the back-off, decided the wait.
    expect(waits[0]!.ms).toBeGreaterThanOrEqual(Date.parse(date) - waits[0]!.at);
    expect(waits[0]!.ms).toBeLessThanOrEqual(Date.parse(date) - before);
    expect(up.hits('/busy').map((r) => r.method)).toEqual(['GET', 'GET']);
  });
});

describe('403 instruction', () => {
  it('names the default bearer variable of a catalog without security schemes', async () => {
    up.route('/private', { kind: 'status', status: 403, body: { message: 'Resource not accessible by integration' } });
    const out = fail(await executeOperation(op({ path: '/private' }), {}, { ...cfg, catalog: catalog({ name: 'github' }) }));
    expect(out).toMatchObject({ code: 'UPSTREAM_ERROR', status: 403, message: 'test_op: the API answered 403: Resource not accessible by integration' });
    expect(out.instruction).toBe(
      'The credential was accepted but lacks permission (or hit a rate limit): check the scopes of GITHUB_TOKEN and that you may access this resource.',
    );
  });

  it('names the API key variable of an apiKey scheme, derived from a dotted catalog name', async () => {
    up.route('/private', { kind: 'status', status: 403, body: { message: 'forbidden' } });
    const c = withSchemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } }, catalog({ name: 'my-api.v2' }));
    const out = fail(await executeOperation(op({ path: '/private', security: [{ key: [] }] }), {}, { ...cfg, catalog: c, env: { MY_API_V2_API_KEY: 'k-123' } }));
    expect(out.code).toBe('UPSTREAM_ERROR');
    expect(out.status).toBe(403);
    expect(out.instruction).toContain('check the scopes of MY_API_V2_API_KEY ');
    expect(up.hits('/private')[0]?.headers['x-key']).toBe('k-123');
  });
});

describe('credential env var names', () => {
  it.each([
    ['my-api.v2', 'MY_API_V2'],
    ['github', 'GITHUB'],
    ['stripe_v1', 'STRIPE_V1'],
    ['a.b-c', 'A_B_C'],
    ['api2', 'API2'],
  ])('%s -> prefix %s and the four default names', (name, prefix) => {
    expect(envPrefix(name)).toBe(prefix);
    expect(credentialNames({ catalog: { name } })).toEqual({
      token: `${prefix}_TOKEN`,
      apiKey: `${prefix}_API_KEY`,
      username: `${prefix}_USERNAME`,
      password: `${prefix}_PASSWORD`,
      apiKeys: new Map(),
    });
  });

  it('an operator override replaces only the name it configures', () => {
    expect(credentialNames({ catalog: { name: 'my-api.v2' }, credentials: { token: 'GH_PAT' } })).toEqual({
      token: 'GH_PAT',
      apiKey: 'MY_API_V2_API_KEY',
      username: 'MY_API_V2_USERNAME',
      password: 'MY_API_V2_PASSWORD',
      apiKeys: new Map(),
    });
  });
});

describe('validateArguments compiles once per operation', () => {
  afterEach(() => vi.restoreAllMocks());

  it('two validations of the same operation compile its schema once', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    // A name and schema no other test uses, so the validator cache starts cold for it.
    const o = op({ name: `compile_once_${Date.now()}`, params: [{ arg: 'n', in: 'query', schema: { type: 'integer', minimum: 7 } }] });
    const forThisOp = (): number => compile.mock.calls.filter(([schema]) => schema === o.inputSchema).length;
    expect(validateArguments(o, { n: 8 })).toEqual({ ok: true, args: { n: 8 } });
    expect(forThisOp()).toBe(1);
    const second = validateArguments(o, { n: 3 });
    expect(second.ok).toBe(false);
    expect(forThisOp()).toBe(1);
    // A changed schema under the same name is a different validator: compiled again (the cache key has the hash).
    const changed = { ...o, inputSchema: { ...o.inputSchema, properties: { n: { type: 'integer', minimum: 1 } } } };
    expect(validateArguments(changed, { n: 3 })).toEqual({ ok: true, args: { n: 3 } });
    expect(compile.mock.calls.filter(([schema]) => schema === changed.inputSchema)).toHaveLength(1);
  });
});

const formatted = op({
  name: 'create_event',
  method: 'post',
  path: '/events',
  body: {
    mediaType: 'application/json',
    properties: { starts_at: { type: 'string', format: 'date-time' }, contact: { type: 'string', format: 'email' } },
  },
});

describe('formats', () => {
  it('a bad date-time and a bad email are each reported with the format they break', () => {
    const out = validateArguments(formatted, { starts_at: 'next tuesday', contact: 'not-an-address' });
    if (out.ok) throw new Error('expected errors');
    const byPath = Object.fromEntries(out.errors.map((e) => [e.path, e]));
    expect(Object.keys(byPath).sort()).toEqual(['/contact', '/starts_at']);
    expect(byPath['/starts_at']).toEqual({ path: '/starts_at', message: 'must match format "date-time"', expected: { type: 'string', format: 'date-time' } });
    expect(byPath['/contact']).toEqual({ path: '/contact', message: 'must match format "email"', expected: { type: 'string', format: 'email' } });
    expect(validateArguments(formatted, { starts_at: '2024-05-01T10:00:00Z', contact: 'a@example.com' }).ok).toBe(true);
  });

  it('executeOperation refuses them with INVALID_ARGUMENTS before any request', async () => {
    const out = fail(await executeOperation(formatted, { starts_at: 'next tuesday', contact: 'not-an-address' }, cfg));
    expect(out.code).toBe('INVALID_ARGUMENTS');
    expect(out.message).toContain('/starts_at: must match format "date-time"');
    expect(out.message).toContain('/contact: must match format "email"');
    expect(up.requests).toHaveLength(0);
  });
});

describe('schema excerpt in `expected`', () => {
  const o = op({
    name: 'list_pages',
    params: [
      { arg: 'owner', in: 'path', schema: { type: 'string', minLength: 1, maxLength: 39, description: 'The account owner.' } },
      { arg: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, description: 'Results per page.' } },
      {
        arg: 'filter',
        in: 'query',
        required: false,
        schema: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['a', 'b'] }, since: { type: 'string', format: 'date' } } },
      },
    ],
  });

  it('a type error carries the property schema excerpt (no descriptions)', () => {
    const out = validateArguments(o, { owner: 'x', per_page: 'ten' });
    if (out.ok) throw new Error('expected errors');
    expect(out.errors).toEqual([{ path: '/per_page', message: 'the string "ten" must be integer', expected: { type: 'integer', minimum: 1, maximum: 100 } }]);
  });

  it('a missing required property carries the excerpt of the missing property, top level and nested', () => {
    const out = validateArguments(o, { filter: { since: '2024-01-01' } });
    if (out.ok) throw new Error('expected errors');
    const byPath = Object.fromEntries(out.errors.map((e) => [e.path, e]));
    expect(byPath['/owner']).toEqual({ path: '/owner', message: 'required property is missing', expected: { type: 'string', minLength: 1, maxLength: 39 } });
    expect(byPath['/filter/kind']).toEqual({ path: '/filter/kind', message: 'required property is missing', expected: { type: 'string', enum: ['a', 'b'] } });
    expect(out.errors).toHaveLength(2);
  });
});
