// Credentials only over TLS, and in the form the API wants: a request that would carry a credential to a
// non-loopback http:// URL is refused before any connection unless the operator allows it (per catalog or
// --allow-http-credentials); a dry run and `import` warn about it; describe says what each env var must hold;
// `credentialPrefix` turns SendGrid's bare key into `Bearer <key>`. SendGrid's real spec (http server, apiKey
// in the Authorization header) is the case. No host other than loopback is reachable in tests, so the
// non-loopback calls go to a recording fetch; loopback calls go over real HTTP.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOptions, parseConfigFile } from '../../src/config.js';
import { credentialStatus, executeOperation, prepareRequest, type ExecutionConfig } from '../../src/execution/index.js';
import { importSpec } from '../../src/importer/index.js';
import { plainHttpWarning } from '../../src/cli/import.js';
import type { CatalogMeta, Operation } from '../../src/types.js';
import { repoRoot } from '../helpers/prism.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { catalog, fail, okay, op } from './fixtures.js';

const KEY = 'SG.test-key-0123456789.abcdefghijklmnopqrstuvwxyz';

/** A fetch that records what would have been sent and answers 200 {}; the host is never contacted. */
function recordingFetch(): { calls: Array<{ url: string; headers: Record<string, string> }>; fetch: typeof globalThis.fetch } {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = (async (url: string | URL, init?: RequestInit) => {
    calls.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) } });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

let sendgrid: { meta: CatalogMeta; operations: Operation[] };
let alerts: Operation;
let up: Upstream;
beforeAll(async () => {
  sendgrid = await importSpec(join(repoRoot, 'test', 'fixtures', 'real-specs', 'sendgrid.json'), { name: 'sendgrid' });
  alerts = sendgrid.operations.find((o) => o.method === 'get' && o.path === '/alerts')!;
  up = await startUpstream();
}, 120_000);
afterAll(async () => {
  await up.close();
});

const cfg = (extra: Partial<ExecutionConfig> = {}): ExecutionConfig => ({ catalog: sendgrid.meta, env: { SENDGRID_API_KEY: KEY }, ...extra });

describe('a credential never goes to a non-loopback http:// URL unless the operator allows it', () => {
  it('SendGrid (server http://api.sendgrid.com/v3): refused before any connection, naming the fixes', async () => {
    const rec = recordingFetch();
    const out = fail(await executeOperation(alerts, {}, cfg(), { fetch: rec.fetch }));
    expect(rec.calls).toEqual([]);
    expect(out.code).toBe('UNSAFE_REQUEST');
    expect(out.message).toMatch(/refused to send SENDGRID_API_KEY to http:\/\/api\.sendgrid\.com over plain http/);
    expect(out.message).toMatch(/--base-url https:\/\/api\.sendgrid\.com\/v3/);
    expect(out.message).toMatch(/"allowHttpCredentials": true in catalogs\.sendgrid/);
    expect(out.message).toMatch(/--allow-http-credentials/);
    expect(out.instruction).toMatch(/catalogs\.sendgrid\.allowHttpCredentials or the flag --allow-http-credentials/);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it('allowed per catalog: sent, with the configured prefix (Authorization: Bearer <key>)', async () => {
    const rec = recordingFetch();
    okay(await executeOperation(alerts, {}, cfg({ allowHttpCredentials: true, credentialPrefix: 'Bearer ' }), { fetch: rec.fetch }));
    expect(rec.calls).toHaveLength(1);
    expect(rec.calls[0]!.url).toBe('http://api.sendgrid.com/v3/alerts');
    expect(rec.calls[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('an https base URL needs no permission; a value that already has the prefix does not get it twice', async () => {
    const rec = recordingFetch();
    const https = cfg({ baseUrl: 'https://api.sendgrid.com/v3', credentialPrefix: 'Bearer ', env: { SENDGRID_API_KEY: `Bearer ${KEY}` } });
    okay(await executeOperation(alerts, {}, https, { fetch: rec.fetch }));
    expect(rec.calls.map((c) => [c.url, c.headers.authorization])).toEqual([['https://api.sendgrid.com/v3/alerts', `Bearer ${KEY}`]]);
  });

  it('no credential, no refusal: an optional-auth call over http goes out bare', async () => {
    const rec = recordingFetch();
    const open = op({ path: '/public' });
    okay(await executeOperation(open, {}, { catalog: catalog({ servers: [{ url: 'http://api.example.com/v1' }] }), env: {} }, { fetch: rec.fetch }));
    expect(rec.calls).toHaveLength(1);
    expect(rec.calls[0]!.headers.authorization).toBeUndefined();
  });

  it('the session\'s own credential (X-Upstream-Token) is refused the same way, and named', async () => {
    const rec = recordingFetch();
    const out = fail(await executeOperation(alerts, {}, cfg({ env: {}, sessionCredential: KEY }), { fetch: rec.fetch }));
    expect(out.code).toBe('UNSAFE_REQUEST');
    expect(out.message).toMatch(/the session's X-Upstream-Token/);
    expect(rec.calls).toEqual([]);
  });

  it('loopback over http stays allowed (a local proxy, a test upstream): real HTTP, credential delivered', async () => {
    for (const base of [up.url, `http://localhost:${up.port}`]) {
      const res = okay(await executeOperation(alerts, {}, cfg({ baseUrl: `${base}/v3`, credentialPrefix: 'Bearer ' })));
      expect(res.status).toBe(200);
    }
    expect(up.hits('/v3/alerts').map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });

  it('a dry run shows the warning, refused or allowed; the credential stays redacted', () => {
    const refused = prepareRequest(alerts, {}, cfg());
    expect(refused.warnings).toEqual([expect.stringMatching(/SENDGRID_API_KEY would be sent to http:\/\/api\.sendgrid\.com over plain http, unencrypted: the call is refused unless catalogs\.sendgrid\.allowHttpCredentials/)]);
    expect(JSON.stringify(refused)).not.toContain(KEY);
    const allowed = prepareRequest(alerts, {}, cfg({ allowHttpCredentials: true }));
    expect(allowed.warnings).toEqual([expect.stringMatching(/will be sent .* \(allowed by catalogs\.sendgrid\.allowHttpCredentials/)]);
    expect(prepareRequest(alerts, {}, cfg({ baseUrl: 'https://api.sendgrid.com/v3' })).warnings).toBeUndefined();
  });

  it('import warns about a plain-http server; https and loopback servers get no warning', () => {
    expect(plainHttpWarning(sendgrid.meta)).toMatch(/sendgrid's server http:\/\/api\.sendgrid\.com\/v3 is plain http.*SENDGRID_BASE_URL=https:\/\/api\.sendgrid\.com\/v3.*catalogs\.sendgrid\.allowHttpCredentials/);
    expect(plainHttpWarning({ name: 'x', servers: [{ url: 'https://api.example.com' }] })).toBeUndefined();
    expect(plainHttpWarning({ name: 'x', servers: [{ url: 'http://localhost:8080/v1' }, { url: 'http://127.0.0.1:{port}', variables: { port: { default: '80' } } }] })).toBeUndefined();
  });
});

describe('describe says what each credential env var must hold', () => {
  it('an apiKey in the Authorization header is sent as it is: the value must carry the scheme word, or set a prefix', () => {
    const [s] = credentialStatus(alerts, cfg(), { format: true });
    expect(s).toMatchObject({ scheme: 'Authorization', envVars: ['SENDGRID_API_KEY'], set: true });
    expect(s!.format).toMatch(/the whole Authorization header value.*"Bearer <key>".*catalogs\.sendgrid\.credentialPrefix/);
    const [p] = credentialStatus(alerts, cfg({ credentialPrefix: 'Bearer ' }), { format: true });
    expect(p!.format).toBe('the key alone; sent as header "Authorization" with the value "Bearer <value>" (catalogs.sendgrid.credentialPrefix)');
  });

  it('bearer, basic and other apiKey locations', () => {
    const github = credentialStatus(op({}), { catalog: catalog({ name: 'github' }), env: {} }, { format: true });
    expect(github).toEqual([{ scheme: '(default bearer)', envVars: ['GITHUB_TOKEN'], set: false, format: 'the token alone; sent as "Authorization: Bearer <value>"' }]);
    const schemes = { q: { type: 'apiKey' as const, in: 'query' as const, name: 'api_key' }, b: { type: 'http' as const, scheme: 'basic' } };
    const status = credentialStatus(op({ security: [{ q: [] }, { b: [] }] }), { catalog: catalog({ securitySchemes: schemes }), env: {} }, { format: true });
    expect(status.map((s) => s.format)).toEqual(['the key alone; sent as query parameter api_key', expect.stringMatching(/^the user name and the password; sent as HTTP Basic/)]);
  });
});

describe('configuration', () => {
  it('catalogs.<name>.allowHttpCredentials and credentialPrefix come from the config file; the flag allows every catalog', () => {
    const file = parseConfigFile(JSON.stringify({ catalogs: { sendgrid: { allowHttpCredentials: true, credentialPrefix: 'Bearer ' } } }), 'c.json');
    expect(catalogOptions(file, ['sendgrid', 'github'])).toEqual({ sendgrid: { allowHttpCredentials: true, credentialPrefix: 'Bearer ' } });
    expect(catalogOptions(undefined, ['sendgrid', 'github'], true)).toEqual({ sendgrid: { allowHttpCredentials: true }, github: { allowHttpCredentials: true } });
    const off = parseConfigFile(JSON.stringify({ catalogs: { sendgrid: { allowHttpCredentials: false } } }), 'c.json');
    expect(catalogOptions(off, ['sendgrid'], true)).toEqual({ sendgrid: { allowHttpCredentials: true } });
  });

  it('a prefix that could break the header is refused, naming the key', () => {
    expect(() => parseConfigFile(JSON.stringify({ catalogs: { sendgrid: { credentialPrefix: 'Bearer\r\nX: 1' } } }), 'c.json')).toThrow(/catalogs\.sendgrid\.credentialPrefix.*printable ASCII/);
    expect(() => parseConfigFile(JSON.stringify({ catalogs: { sendgrid: { allowHttpCredentials: 'yes' } } }), 'c.json')).toThrow(/allowHttpCredentials.*true or false/);
  });
});
