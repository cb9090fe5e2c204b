// Operator configuration in execution, over real loopback HTTP: credential env var names overridden per catalog,
// a configured idempotency header (retried POST reuses one key), operation-level servers confined to the
// catalog's origin or allowedOrigins (F7, F9), server variables (F6) and opt-in private-address blocking (F10).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialStatus, executeOperation, prepareRequest, type ExecuteOptions, type ExecutionConfig, type ExecutionOutcome } from '../../src/execution/index.js';
import type { Operation, ServerInfo } from '../../src/types.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { catalog, fail, okay, op, withSchemes } from './fixtures.js';

let up: Upstream;
let other: Upstream;
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
});

const noWait: ExecuteOptions = { sleep: async () => undefined };
function withServers(o: Operation, servers: ServerInfo[]): Operation {
  return { ...o, servers };
}

describe('credential env var names from the config', () => {
  const schemes = withSchemes({
    bearer: { type: 'http', scheme: 'bearer' },
    key: { type: 'apiKey', in: 'header', name: 'X-Key' },
    basic: { type: 'http', scheme: 'basic' },
  });
  const bearerOp = op({ path: '/b', security: [{ bearer: [] }] });
  const keyOp = op({ path: '/k', security: [{ key: [] }] });
  const basicOp = op({ path: '/basic', security: [{ basic: [] }] });

  it('reads the configured names, ignores the defaults, and reports the names (never values)', async () => {
    const env = {
      TESTAPI_TOKEN: 'default-token-not-used',
      TESTAPI_API_KEY: 'default-key-not-used',
      STRIPE_SECRET_KEY: 'sk_test_cfg_bearer_1',
      VAULT_API_KEY: 'cfg-key-2',
      SVC_USER: 'ann',
      SVC_PASS: 'cfg-pass-3',
    };
    const cfg: ExecutionConfig = {
      catalog: schemes,
      baseUrl: up.url,
      env,
      credentials: { token: 'STRIPE_SECRET_KEY', apiKey: 'VAULT_API_KEY', username: 'SVC_USER', password: 'SVC_PASS' },
    };
    okay(await executeOperation(bearerOp, {}, cfg));
    okay(await executeOperation(keyOp, {}, cfg));
    const echoed = okay(await executeOperation(basicOp, {}, cfg));
    expect(up.hits('/b')[0]?.headers.authorization).toBe('Bearer sk_test_cfg_bearer_1');
    expect(up.hits('/k')[0]?.headers['x-key']).toBe('cfg-key-2');
    expect(up.hits('/basic')[0]?.headers.authorization).toBe(`Basic ${Buffer.from('ann:cfg-pass-3').toString('base64')}`);
    // The upstream echoes the request back: every configured secret is scrubbed from the result.
    expect(JSON.stringify(echoed)).not.toMatch(/cfg-pass-3|YW5uOmNmZy1wYXNzLTM/);

    expect(credentialStatus(bearerOp, cfg)).toEqual([{ scheme: 'bearer', envVars: ['STRIPE_SECRET_KEY'], set: true }]);
    expect(credentialStatus(keyOp, cfg)).toEqual([{ scheme: 'key', envVars: ['VAULT_API_KEY'], set: true }]);
    expect(credentialStatus(basicOp, cfg)).toEqual([{ scheme: 'basic', envVars: ['SVC_USER', 'SVC_PASS'], set: true }]);
    expect(JSON.stringify(credentialStatus(basicOp, cfg))).not.toContain('cfg-pass-3');
  });

  it('overrides only the names given; AUTH_MISSING names the configured variable, 0 requests', async () => {
    const cfg: ExecutionConfig = { catalog: schemes, baseUrl: up.url, env: { TESTAPI_TOKEN: 'default-token-not-used' }, credentials: { token: 'MY_TOKEN' } };
    const out = fail(await executeOperation(bearerOp, {}, cfg));
    expect(out.code).toBe('AUTH_MISSING');
    expect(out.message).toContain('MY_TOKEN');
    expect(out.message).not.toContain('TESTAPI_TOKEN');
    expect(up.requests).toHaveLength(0);
    // The apiKey name was not overridden: still the default.
    expect(credentialStatus(keyOp, cfg)[0]?.envVars).toEqual(['TESTAPI_API_KEY']);
  });

  it('a catalog without security sends the configured token name as the default bearer (GitHub style)', async () => {
    const cfg: ExecutionConfig = { catalog: catalog(), baseUrl: up.url, env: { GH_PAT: 'ghp_cfg_4', TESTAPI_TOKEN: 'nope-5' }, credentials: { token: 'GH_PAT' } };
    okay(await executeOperation(op({ path: '/gh' }), {}, cfg));
    expect(up.hits('/gh')[0]?.headers.authorization).toBe('Bearer ghp_cfg_4');
    expect(credentialStatus(op({}), cfg)[0]?.envVars).toEqual(['GH_PAT']);
  });
});

describe('idempotency header from the config (Stripe declares none)', () => {
  const form = { mediaType: 'application/x-www-form-urlencoded', properties: { amount: { type: 'integer' } } };

  it('a POST retried after 503 sends the same generated key twice', async () => {
    up.route('/v1/charges', { kind: 'sequence', steps: [{ kind: 'status', status: 503 }, { kind: 'echo' }] });
    const o = op({ path: '/v1/charges', method: 'post', body: form });
    const cfg: ExecutionConfig = { catalog: catalog(), baseUrl: up.url, env: {}, idempotencyHeader: 'Idempotency-Key' };
    const out = okay(await executeOperation(o, { amount: 100 }, cfg, noWait));
    expect(out.status).toBe(200);
    const hits = up.hits('/v1/charges');
    expect(hits).toHaveLength(2);
    const [a, b] = hits.map((h) => h.headers['idempotency-key']);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).toBe(a);
    expect(hits.every((h) => h.text === 'amount=100')).toBe(true);
    // A second call gets a fresh key.
    up.route('/v1/charges', { kind: 'echo' });
    okay(await executeOperation(o, { amount: 100 }, cfg, noWait));
    expect(up.hits('/v1/charges')[2]?.headers['idempotency-key']).not.toBe(a);
  });

  it('PATCH too; GET gets no key; without the setting the POST is sent once and the 503 returned', async () => {
    const cfg: ExecutionConfig = { catalog: catalog(), baseUrl: up.url, env: {}, idempotencyHeader: 'Idempotency-Key' };
    up.route('/p', { kind: 'sequence', steps: [{ kind: 'status', status: 502 }, { kind: 'echo' }] });
    okay(await executeOperation(op({ path: '/p', method: 'patch' }), {}, cfg, noWait));
    const keys = up.hits('/p').map((h) => h.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeDefined();
    expect(keys[1]).toBe(keys[0]);

    okay(await executeOperation(op({ path: '/g' }), {}, cfg));
    expect(up.hits('/g')[0]?.headers['idempotency-key']).toBeUndefined();

    up.route('/once', { kind: 'status', status: 503 });
    const out = fail(await executeOperation(op({ path: '/once', method: 'post', body: form }), { amount: 1 }, { ...cfg, idempotencyHeader: undefined }, noWait));
    expect(out.status).toBe(503);
    expect(up.hits('/once')).toHaveLength(1);
    expect(up.hits('/once')[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('an agent-supplied key (declared header parameter) is kept and reused on retry', async () => {
    up.route('/own', { kind: 'sequence', steps: [{ kind: 'status', status: 503 }, { kind: 'echo' }] });
    const o = op({ path: '/own', method: 'post', params: [{ arg: 'Idempotency-Key', in: 'header' }] });
    okay(await executeOperation(o, { 'Idempotency-Key': 'agent-key-1' }, { catalog: catalog(), baseUrl: up.url, env: {}, idempotencyHeader: 'Idempotency-Key' }, noWait));
    expect(up.hits('/own').map((h) => h.headers['idempotency-key'])).toEqual(['agent-key-1', 'agent-key-1']);
  });
});

describe('operation-level servers stay on allowed origins (F7, F9)', () => {
  // No baseUrl: the spec's servers decide (an operator baseUrl wins over everything).
  const cat = () => catalog({ servers: [{ url: `${up.url}/v1` }] });

  it('an operation server on the catalog origin is used (its own base path)', async () => {
    okay(await executeOperation(withServers(op({ path: '/x' }), [{ url: `${up.url}/uploads` }]), {}, { catalog: cat(), env: {} }));
    expect(up.requests.map((r) => r.url)).toEqual(['/uploads/x']);
  });

  it('another origin is refused with UNSAFE_REQUEST naming it and the config key; nothing is sent', async () => {
    const o = withServers(op({ path: '/upload' }), [{ url: other.url }]);
    const out = fail(await executeOperation(o, {}, { catalog: cat(), env: { TESTAPI_TOKEN: 'tok-f7-secret' } }));
    expect(out.code).toBe('UNSAFE_REQUEST');
    expect(out.message).toContain(other.url);
    expect(out.message).toContain('catalogs.testapi.allowedOrigins');
    expect(out.details).toMatchObject({ origin: other.url, configKey: 'catalogs.testapi.allowedOrigins' });
    expect(out.instruction).toMatch(/catalogs\.testapi\.allowedOrigins/);
    expect(other.requests).toHaveLength(0);
    expect(up.requests).toHaveLength(0);
  });

  it('allowedOrigins lets it through (credentials go with it: the operator vouched for that origin)', async () => {
    const o = withServers(op({ path: '/upload' }), [{ url: `${other.url}/files` }]);
    okay(await executeOperation(o, {}, { catalog: cat(), env: { TESTAPI_TOKEN: 'tok-allowed' }, allowedOrigins: [other.url] }));
    expect(other.requests.map((r) => r.url)).toEqual(['/files/upload']);
    expect(other.requests[0]?.headers.authorization).toBe('Bearer tok-allowed');
    expect(up.requests).toHaveLength(0);
  });

  it('the first allowed entry of several servers wins; cloud metadata is never contacted', async () => {
    const o = withServers(op({ path: '/m' }), [{ url: 'http://169.254.169.254/latest' }, { url: `${up.url}/v2` }]);
    okay(await executeOperation(o, {}, { catalog: cat(), env: {} }));
    expect(up.requests.map((r) => r.url)).toEqual(['/v2/m']);
    const only = withServers(op({ path: '/m' }), [{ url: 'http://169.254.169.254/latest' }]);
    const out = fail(await executeOperation(only, {}, { catalog: cat(), env: {}, timeouts: { connectMs: 200, totalMs: 500 } }));
    expect(out.code).toBe('UNSAFE_REQUEST');
    expect(out.message).toContain('http://169.254.169.254');
  });

  it('compares parsed origins, never prefixes: look-alike hosts, userinfo, other ports and schemes are refused (F9)', () => {
    const c = catalog({ servers: [{ url: 'https://api.example.com/v1' }] });
    const cfg: ExecutionConfig = { catalog: c, env: {}, allowedOrigins: ['https://uploads.example.com'] };
    const refused = [
      'https://api.example.com.evil.com',
      'https://api.example.com@evil.com',
      'https://user:pass@api.example.com',
      'https://api.example.com:8443',
      'http://api.example.com',
      'https://uploads.example.com.evil.com/x',
      'https://evil.com/https://api.example.com',
    ];
    for (const url of refused) {
      expect(() => prepareRequest(withServers(op({}), [{ url }]), {}, cfg), url).toThrow(expect.objectContaining({ code: 'UNSAFE_REQUEST' }));
    }
    expect(prepareRequest(withServers(op({}), [{ url: 'https://API.example.com:443/v2' }]), {}, cfg).url).toBe('https://api.example.com/v2/things');
    expect(prepareRequest(withServers(op({}), [{ url: 'https://uploads.example.com' }]), {}, cfg).url).toBe('https://uploads.example.com/things');
    // An allowlist entry that carries userinfo or is not a URL allows nothing.
    const sloppy: ExecutionConfig = { catalog: c, env: {}, allowedOrigins: ['https://api.example.com@evil.com', 'evil.com'] };
    expect(() => prepareRequest(withServers(op({}), [{ url: 'https://evil.com' }]), {}, sloppy)).toThrow(/not the API's origin/);
  });

  it('a relative operation server stays on the catalog origin', () => {
    const c = catalog({ servers: [{ url: 'https://api.example.com/v1' }] });
    expect(prepareRequest(withServers(op({}), [{ url: '/v2' }]), {}, { catalog: c }).url).toBe('https://api.example.com/v2/things');
  });
});

describe('server variables (F6)', () => {
  it('use their defaults; a default outside its enum is refused; arguments never reach them', async () => {
    const c = catalog({ servers: [{ url: 'http://127.0.0.1:{port}/{ver}', variables: { port: { default: String(up.port), enum: [String(up.port)] }, ver: { default: 'v1' } } }] });
    okay(await executeOperation(op({ path: '/sv' }), {}, { catalog: c, env: {} }));
    expect(up.requests.map((r) => r.url)).toEqual(['/v1/sv']);

    const out = fail(await executeOperation(op({ path: '/sv', additionalProperties: false }), { port: String(other.port), ver: 'evil' }, { catalog: c, env: {} }));
    expect(out.code).toBe('INVALID_ARGUMENTS');
    expect(other.requests).toHaveLength(0);
    expect(up.requests).toHaveLength(1);

    const bad = catalog({ servers: [{ url: 'https://{region}.example.com', variables: { region: { default: 'evil.com#', enum: ['eu', 'us'] } } }] });
    expect(() => prepareRequest(op({}), {}, { catalog: bad })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(/not in its enum/) }));
  });
});

describe('blockPrivateAddresses (F10)', () => {
  // Which addresses are refused is one table for importer and execution: test/net/address-policy.test.ts.
  it('refuses loopback hosts in every spelling before a byte is sent; names the setting', async () => {
    // `localhost` goes through the connect-time lookup (a name, not a literal): the resolved IP is refused.
    const hosts = ['127.0.0.1', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:7f00:1]', '[::1]', 'localhost'];
    for (const h of hosts) {
      const c = catalog({ servers: [{ url: `http://${h}:${up.port}/v1` }] });
      const out = fail(await executeOperation(op({ path: '/priv' }), {}, { catalog: c, env: {}, blockPrivateAddresses: true }));
      expect(out.code, h).toBe('UNSAFE_REQUEST');
      expect(out.message, h).toMatch(/blockPrivateAddresses/);
    }
    // `localhost.` does not resolve on every resolver (ENOTFOUND here); where it does, the lookup refuses it.
    const dot = fail(await executeOperation(op({ path: '/priv' }), {}, { catalog: catalog({ servers: [{ url: `http://localhost.:${up.port}` }] }), env: {}, blockPrivateAddresses: true }));
    expect(['UNSAFE_REQUEST', 'UPSTREAM_UNREACHABLE']).toContain(dot.code);
    expect(up.requests).toHaveLength(0);
  });

  it('the configured base URL origin is exempt; off by default', async () => {
    okay(await executeOperation(op({ path: '/ok' }), {}, { catalog: catalog(), baseUrl: up.url, env: {}, blockPrivateAddresses: true }));
    okay(await executeOperation(op({ path: '/ok' }), {}, { catalog: catalog({ servers: [{ url: `http://localhost:${up.port}` }] }), env: {} }));
    expect(up.hits('/ok')).toHaveLength(2);
    // Exempt is the exact origin: another port on the same host is still refused.
    const o = withServers(op({ path: '/nope' }), [{ url: other.url }]);
    const out = fail(await executeOperation(o, {}, { catalog: catalog({ servers: [{ url: up.url }] }), env: {}, allowedOrigins: [other.url], blockPrivateAddresses: true }));
    expect(out.code).toBe('UNSAFE_REQUEST');
    expect(other.requests).toHaveLength(0);
  });
});
