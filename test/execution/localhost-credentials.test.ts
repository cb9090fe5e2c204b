// Plain-http credentials go only where the connection cannot leave the machine: `localhost` itself and loopback
// IP literals. A `*.localhost` name (RFC 6761) is resolved by the system resolver like any other name, and a search
// domain or a wildcard DNS answer can send it elsewhere, so a credential for `http://pets.localhost` is refused
// before any connection, exactly like one for a remote http host (audit finding 8). The refused calls go to a
// recording fetch and the dry runs connect to nothing, so no name is ever looked up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainHttpWarning } from '../../src/cli/import.js';
import { run as callRun } from '../../src/cli/call.js';
import { executeOperation, type ExecutionConfig } from '../../src/execution/index.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { runCaptured } from '../helpers/cli.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { fail, okay } from './fixtures.js';

const KEY = 'pets-key-canary-5c1e9a7b';
const petstore = fixtureRegistry('petstore');
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', PETSTORE_BASE_URL: '' };

/** A fetch that records what would have been sent; the host is never contacted (nor looked up). */
function recordingFetch(): { urls: string[]; fetch: typeof globalThis.fetch } {
  const urls: string[] = [];
  const fetch = (async (url: string | URL) => {
    urls.push(String(url));
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { urls, fetch };
}

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});

const { meta, byName } = loadCatalog(petstore);
const inventory = byName.get('store.inventory')!;
const cfg = (baseUrl: string): ExecutionConfig => ({ catalog: meta, env: { PETSTORE_API_KEY: KEY }, baseUrl });

describe('a *.localhost name is not loopback for plain-http credentials', () => {
  it.each(['http://pets.localhost:18080/v1', 'http://a.b.LOCALHOST/v1', 'http://localhost.:18080/v1'])(
    '%s: refused before any connection, naming the fixes',
    async (base) => {
      const rec = recordingFetch();
      const out = fail(await executeOperation(inventory, {}, cfg(base), { fetch: rec.fetch }));
      expect(rec.urls).toEqual([]);
      expect(out.code).toBe('UNSAFE_REQUEST');
      expect(out.message).toMatch(/refused to send PETSTORE_API_KEY to http:\/\/.*over plain http/);
      expect(JSON.stringify(out)).not.toContain(KEY);
    },
  );

  it('`call --dry-run` warns that the call would be refused; the key stays redacted', async () => {
    const r = await runCaptured(callRun, ['store.inventory', '--registry', petstore, '--args', '{}', '--base-url', `http://pets.localhost:${up.port}/v1`, '--dry-run'], {
      ...quiet,
      PETSTORE_API_KEY: KEY,
    });
    expect(`${r.stdout}${r.stderr}`).toMatch(/PETSTORE_API_KEY would be sent to http:\/\/pets\.localhost:\d+ over plain http, unencrypted: the call is refused/);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
    expect(up.requests).toEqual([]);
  });

  it('import warns about a *.localhost server as it does about any plain-http host', () => {
    expect(plainHttpWarning({ name: 'pets', servers: [{ url: 'http://api.localhost:8080/v1' }] })).toMatch(/pets's server http:\/\/api\.localhost:8080\/v1 is plain http/);
  });

  it('localhost itself and loopback literals stay allowed: real HTTP, credential delivered', async () => {
    const bases = [up.url, `http://localhost:${up.port}`];
    for (const base of bases) expect(okay(await executeOperation(inventory, {}, cfg(`${base}/v1`))).status).toBe(200);
    expect(up.hits('/v1/store/inventory').map((r) => r.headers['x-api-key'])).toEqual(bases.map(() => KEY));
  });
});
