// What a catalog's own settings file (registry/<name>/settings.json) may decide, audit finding 5. Its publisher
// wrote it, not the operator: it may name origins, the idempotency header, the credential prefix, credential env
// vars in the catalog's own namespace (<CATALOG>_*), and turn protections on. Naming any other env var (the
// server's signing key, HOME) or loosening the operator's choices (allowHttpCredentials: true,
// blockPrivateAddresses: false, a serve section) is refused at load with CONFIG_INVALID naming the file, the key and
// the config-file setting that does it with the operator's authority. The operator's config file keeps full
// authority. End to end through the built CLI's `call` (build first) with a real upstream on 127.0.0.1.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigFile, resolveServerConfig } from '../../src/config.js';
import { CATALOG_SETTINGS_FILE, loadCatalogSet, settingsFromConfig } from '../../src/server/core/catalogs.js';
import { builtCli, fixtureRegistry, REPO_ROOT } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SIGNING_KEY = 'SIGNINGKEY-canary-0123456789abcdef';
const PETS_KEY = 'pets-key-canary-77aa';
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', PETSTORE_BASE_URL: '' };

/** A copy of the petstore fixture registry whose own settings.json is `settings` (none when undefined). */
function petstoreWith(settings: object | undefined): string {
  const dir = join(tempDir('ac-own-settings-'), 'petstore');
  cpSync(fixtureRegistry('petstore'), dir, { recursive: true });
  if (settings !== undefined) writeFileSync(join(dir, CATALOG_SETTINGS_FILE), JSON.stringify(settings));
  return dir;
}

const own = (section: object, top: object = {}): object => ({ ...top, catalogs: { petstore: section } });

function settingsOf(dir: string, operator?: object) {
  const file = operator === undefined ? undefined : parseConfigFile(JSON.stringify(operator), 'ops.json');
  return settingsFromConfig(resolveServerConfig({}, {}), loadCatalogSet([dir]), {}, file);
}

describe("a catalog's own settings.json may not decide what only the operator may", () => {
  it.each([
    ['the server signing key', own({ credentials: { apiKey: 'API_CATALOG_SIGNING_KEY' } }), 'catalogs.petstore.credentials.apiKey', /names API_CATALOG_SIGNING_KEY, one of the server's own variables \(API_CATALOG_\*\)/],
    ['HOME', own({ credentials: { token: 'HOME' } }), 'catalogs.petstore.credentials.token', /names HOME, outside this catalog's own variables \(PETSTORE_\*\)/],
    ['another catalog\'s token', own({ credentials: { password: 'GITHUB_TOKEN' } }), 'catalogs.petstore.credentials.password', /outside this catalog's own variables \(PETSTORE_\*\)/],
    ['the bare prefix', own({ credentials: { username: 'PETSTORE_' } }), 'catalogs.petstore.credentials.username', /outside this catalog's own variables/],
    ['a prefix without its underscore', own({ credentials: { apiKey: 'PETSTOREX_KEY' } }), 'catalogs.petstore.credentials.apiKey', /outside this catalog's own variables/],
    ['plain-http credentials', own({ allowHttpCredentials: true }), 'catalogs.petstore.allowHttpCredentials', /is true \(credentials over plain http\)/],
    ['turning the address check off', own({ blockPrivateAddresses: false }), 'catalogs.petstore.blockPrivateAddresses', /is false \(it may only turn the check on\)/],
    ['turning it off for every catalog', own({}, { blockPrivateAddresses: false }), 'blockPrivateAddresses', /is false/],
    ['server options', own({}, { serve: { readOnly: false } }), 'serve', /sets server options/],
  ])('%s: CONFIG_INVALID naming the file, the key and the config-file setting instead', (_what, settings, key, why) => {
    const dir = petstoreWith(settings);
    let err: unknown;
    try {
      settingsOf(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'CONFIG_INVALID', details: { file: join(dir, CATALOG_SETTINGS_FILE), key } });
    const message = (err as Error).message;
    expect(message).toContain(`catalog settings ${join(dir, CATALOG_SETTINGS_FILE)}: ${key} `);
    expect(message).toMatch(why);
    expect(message).toMatch(/written by its publisher.*Remove .* from that file; if you \(the operator\) want it, set .* in your config file \(--config\)/);
  });

  it('what a publisher may vouch for is obeyed: its own namespace, origins, header, prefix, protections on', () => {
    const section = {
      credentials: { token: 'PETSTORE_OAUTH_TOKEN', apiKey: 'PETSTORE_ADMIN_KEY' },
      allowedOrigins: ['https://uploads.petstore.example'],
      idempotencyHeader: 'Idempotency-Key',
      credentialPrefix: 'Bearer ',
      blockPrivateAddresses: true,
      allowHttpCredentials: false,
    };
    expect(settingsOf(petstoreWith(own(section))).catalogs?.petstore).toEqual(section);
  });

  it("the operator's config file keeps full authority: any env var name, plain http, the address check off", () => {
    const operator = { catalogs: { petstore: { credentials: { apiKey: 'VAULT_PETS_KEY' }, allowHttpCredentials: true, blockPrivateAddresses: false } } };
    expect(settingsOf(petstoreWith(own({ allowedOrigins: ['https://uploads.petstore.example'] })), operator).catalogs?.petstore).toEqual({
      credentials: { apiKey: 'VAULT_PETS_KEY' },
      allowHttpCredentials: true,
      blockPrivateAddresses: false,
      allowedOrigins: ['https://uploads.petstore.example'],
    });
  });
});

describe('end to end: the built `call` with a downloaded registry (real upstream on 127.0.0.1)', () => {
  let up: Upstream;
  beforeAll(async () => {
    up = await startUpstream();
  });
  afterAll(async () => {
    await up.close();
  });
  const call = (dir: string, extra: string[] = []) =>
    runProcess(process.execPath, [builtCli(), 'call', 'store.inventory', '--registry', dir, '--args', '{}', '--base-url', `${up.url}/v1`, ...extra], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...quiet, API_CATALOG_SIGNING_KEY: SIGNING_KEY, PETSTORE_API_KEY: PETS_KEY, PETSTORE_ALT_KEY: PETS_KEY },
    });

  it('a settings.json that points the API key at API_CATALOG_SIGNING_KEY stops the call before any request; the key never shows', async () => {
    up.clear();
    const r = await call(petstoreWith(own({ credentials: { apiKey: 'API_CATALOG_SIGNING_KEY' } })));
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/catalogs\.petstore\.credentials\.apiKey names API_CATALOG_SIGNING_KEY/);
    expect(`${r.stdout}${r.stderr}`).not.toContain(SIGNING_KEY);
    expect(up.requests).toEqual([]);
  });

  it('a name in the catalog\'s own namespace is used; the operator may name any variable', async () => {
    up.clear();
    const alt = await call(petstoreWith(own({ credentials: { apiKey: 'PETSTORE_ALT_KEY' } })));
    expect(alt.status, alt.stderr).toBe(0);
    const ops = join(tempDir('ac-own-settings-ops-'), 'config.json');
    writeFileSync(ops, JSON.stringify({ catalogs: { petstore: { credentials: { apiKey: 'API_CATALOG_SIGNING_KEY' } } } }));
    // The operator's own choice, however unwise: obeyed.
    const chosen = await call(petstoreWith(undefined), ['--config', ops]);
    expect(chosen.status, chosen.stderr).toBe(0);
    expect(up.hits('/v1/store/inventory').map((h) => h.headers['x-api-key'])).toEqual([PETS_KEY, SIGNING_KEY]);
  });
});
