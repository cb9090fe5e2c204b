// Credential names in a config that do not fit the catalog stop `serve` (and every command) at start, naming the
// file, the catalog, the key, the catalog's API-key schemes and the one meant, as every other config error does.
// Before, `serve` started, listed and described the operations, and only each call was refused (CONFIG_INVALID at
// execute time). Covered: an `apiKey:<scheme>` naming no API-key scheme (another case, separators, a typo, nothing
// alike), the lone `apiKey` of a catalog whose API keys each have their own variable, the same in a catalog's own
// settings.json (named as such), and a value that is no env var NAME (refused when the file is read, already so before).
// Real parts: the built CLI (import, serve on stdio with stdin closed, call) against a recording upstream.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/mcp.js';
import { runProcess, type RunResult } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { TWO_KEYS } from '../helpers/two-keys.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SCHEMES = 'its API-key schemes are apiKey (header X-APISETU-APIKEY), clientId (header X-APISETU-CLIENTID)';
const SECRET = 'clientid-Secret-7777';

let up: Upstream;
let dir = '';
let registry = '';

/** The built CLI with only PATH and `env`; stdin is closed at once (a `serve` that starts ends at its EOF, code 0). */
function cli(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runProcess(process.execPath, [builtCli(), ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
}

/** A config file giving catalog twokeys these credential names. */
function config(credentials: Record<string, string>): string {
  const file = join(tempDir('ac-cred-start-cfg-'), 'config.json');
  writeFileSync(file, JSON.stringify({ catalogs: { twokeys: { credentials } } }));
  return file;
}

beforeAll(async () => {
  up = await startUpstream();
  dir = tempDir('ac-cred-start-');
  writeFileSync(join(dir, 'twokeys.yaml'), TWO_KEYS);
  const r = await cli(['import', join(dir, 'twokeys.yaml'), '--out', join(dir, 'reg'), '--name', 'twokeys']);
  expect(r.status, r.stderr).toBe(0);
  registry = join(dir, 'reg', 'twokeys');
});
afterAll(async () => {
  await up.close();
});

describe('serve refuses credential names that do not fit the catalog, at start', () => {
  it.each([
    ['another case', 'apiKey:clientid', 'did you mean "apiKey:clientId"?'],
    ['other separators', 'apiKey:client_id', 'did you mean "apiKey:clientId"?'],
    ['a typo', 'apiKey:clintId', 'did you mean "apiKey:clientId"?'],
    ['nothing alike', 'apiKey:partnerToken', 'fix the scheme name (as the API description spells it)'],
  ])('"apiKey:<scheme>" naming no scheme (%s): exit 1, the file, the key, the schemes and the fix', async (_, key, fix) => {
    const file = config({ [key]: 'TWOKEYS_KEY' });
    const r = await cli(['serve', '--registry', registry, '--config', file], { TWOKEYS_KEY: SECRET });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`config file ${file}: catalogs.twokeys.credentials."${key}" names no API-key scheme of catalog twokeys: ${SCHEMES}; ${fix}`);
    expect(r.stderr).not.toContain(SECRET);
  });

  it('the lone "apiKey" of a catalog whose API keys each have their own variable: exit 1, naming the schemes', async () => {
    const file = config({ apiKey: 'TWOKEYS_KEY' });
    const r = await cli(['serve', '--registry', registry, '--config', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`config file ${file}: catalogs.twokeys.credentials.apiKey names one variable for the catalog's API key, but catalog twokeys has 2 API-key schemes`);
    expect(r.stderr).toContain('"credentials": {"apiKey:apiKey": "TWOKEYS_APIKEY_API_KEY", "apiKey:clientId": "TWOKEYS_CLIENTID_API_KEY"}');
  });

  it('a value that is no env var NAME: exit 1 without echoing it (the file is checked when read)', async () => {
    const file = config({ 'apiKey:clientId': SECRET });
    const r = await cli(['serve', '--registry', registry, '--config', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`config file ${file}: catalogs.twokeys.credentials.apiKey:clientId must be the NAME of an environment variable`);
    expect(r.stderr).not.toContain(SECRET);
  });

  it('names that fit start the server (it ends at stdin EOF, code 0)', async () => {
    const r = await cli(['serve', '--registry', registry, '--config', config({ 'apiKey:clientId': 'TWOKEYS_CLIENT' })]);
    expect(r.stderr).not.toContain('CONFIG_INVALID');
    expect(r.stderr).not.toMatch(/config file .*credentials/);
    expect(r.status, r.stderr).toBe(0);
  });

  it("the same in a catalog's own settings.json: exit 1, naming that file", async () => {
    const own = join(tempDir('ac-cred-start-own-'), 'twokeys');
    cpSync(registry, own, { recursive: true });
    writeFileSync(join(own, 'settings.json'), JSON.stringify({ catalogs: { twokeys: { credentials: { 'apiKey:clientID': 'TWOKEYS_CLIENT' } } } }));
    const r = await cli(['serve', '--registry', own]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`catalog settings ${join(own, 'settings.json')}: catalogs.twokeys.credentials."apiKey:clientID" names no API-key scheme of catalog twokeys: ${SCHEMES}; did you mean "apiKey:clientId"?`);
    // the operator's config file replaces the publisher's names: then it is that file's names that count
    const r2 = await cli(['serve', '--registry', own, '--config', config({ 'apiKey:clientId': 'TWOKEYS_CLIENT' })]);
    expect(r2.status, r2.stderr).toBe(0);
  });
});

it('call refuses it at start too: exit 1, the same message, nothing sent upstream', async () => {
  const file = config({ 'apiKey:client_id': 'TWOKEYS_KEY' });
  const r = await cli(['call', 'getCert', '--args', '{"id":"1"}', '--registry', registry, '--base-url', `${up.url}/v1`, '--config', file], {
    TWOKEYS_KEY: SECRET,
    TWOKEYS_APIKEY_API_KEY: 'apikey-Secret-8888',
  });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`config file ${file}: catalogs.twokeys.credentials."apiKey:client_id" names no API-key scheme of catalog twokeys: ${SCHEMES}; did you mean "apiKey:clientId"?`);
  expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
  expect(up.requests).toHaveLength(0);
});
