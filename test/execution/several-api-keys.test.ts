// A catalog whose operations use several API keys reads each from its own variable, `<CATALOG>_<SCHEME>_API_KEY`
// (audit-importer defect 5). Before, every apiKey scheme read the catalog's one `<CATALOG>_API_KEY`: APISetu's
// X-APISETU-APIKEY and X-APISETU-CLIENTID, required together, got the same secret (never authenticated), and
// Intellifi's alternatives (a session cookie, a header key, a query key) always sent the key as the cookie. Now the
// first alternative whose own variables are all set is used, in spec order; describe names each variable once; the
// config's `credentials` names one per scheme (`apiKey:<scheme>`), and its single `apiKey` is refused, naming the
// schemes, where it cannot say which. A catalog with one API key keeps `<CATALOG>_API_KEY`.
// Real parts: the built CLI (import, describe, call), `serve` over stdio with the SDK client, and an upstream on
// 127.0.0.1 that records every request's headers and echoes them back (so a leak would show in the output).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyVariable, credentialNames } from '../../src/execution/credential-names.js';
import type { SecuritySchemeInfo } from '../../src/types.js';
import { builtCli, call, describeHandle, newClient } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { TWO_KEYS } from '../helpers/two-keys.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ALTERNATIVES = `openapi: 3.0.3
info: {title: Alternatives, version: "1"}
servers: [{url: "https://alts.invalid/v1"}]
security: [{CookieSid: []}, {HeaderApiKey: []}, {QueryApiKey: []}]
components:
  securitySchemes:
    CookieSid: {type: apiKey, in: cookie, name: brain.sid}
    HeaderApiKey: {type: apiKey, in: header, name: X-Api-Key}
    QueryApiKey: {type: apiKey, in: query, name: api_key}
paths:
  /items:
    get:
      operationId: listItems
      summary: List items
      parameters:
        - {name: note, in: query, schema: {type: string}}
      responses: {"200": {description: OK}}
`;

/**
 * One API key, sent in a header by most operations and in the query by one (each operation names one API-key scheme),
 * and a third scheme no operation uses: `<CATALOG>_API_KEY` for all, as always.
 */
const SINGLE = `openapi: 3.0.3
info: {title: Single, version: "1"}
servers: [{url: "https://single.invalid/v1"}]
security: [{main: []}]
components:
  securitySchemes:
    main: {type: apiKey, in: header, name: X-Key}
    inQuery: {type: apiKey, in: query, name: key}
    unused: {type: apiKey, in: cookie, name: sid}
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses: {"200": {description: OK}}
  /search:
    get:
      operationId: searchThings
      summary: Search things
      security: [{inQuery: []}]
      responses: {"200": {description: OK}}
`;

const A = 'apikey-Secret-1111';
const C = 'clientid-Secret-2222';
const CK = 'cookie-Secret-3333';
const HK = 'header-Secret-4444';
const QK = 'query-Secret-5555';
const S = 'single-Secret-6666';
const SECRETS = [A, C, CK, HK, QK, S];

let up: Upstream;
let dir = '';
const reg = (name: string): string => join(dir, 'reg', name);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI with only PATH and `env` in its environment. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [builtCli(), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

function noSecrets(run: Run): void {
  for (const s of SECRETS) expect(`${run.stdout}\n${run.stderr}`).not.toContain(s);
}

interface Answer {
  success: boolean;
  value?: { dry_run?: boolean; request?: { url: string; headers: Record<string, string> }; data?: unknown; would_refuse?: Array<{ code: string; env_vars?: string[] }> };
  error?: { code: string; message: string };
}

/** `call <op> --args <json>` (real, or --dry-run) against the recording upstream; the answer, no secret in the output. */
async function callCli(op: string, catalog: string, args: Record<string, unknown>, env: Record<string, string>, extra: string[] = []): Promise<Answer> {
  const r = await cli(['call', op, '--args', JSON.stringify(args), '--registry', reg(catalog), '--base-url', `${up.url}/v1`, ...extra], env);
  noSecrets(r);
  return JSON.parse(r.stdout) as Answer;
}

beforeAll(async () => {
  up = await startUpstream();
  dir = tempDir('ac-several-keys-');
  for (const [name, spec] of [['twokeys', TWO_KEYS], ['alts', ALTERNATIVES], ['single', SINGLE]] as const) {
    writeFileSync(join(dir, `${name}.yaml`), spec);
    const r = await cli(['import', join(dir, `${name}.yaml`), '--out', join(dir, 'reg'), '--name', name]);
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(async () => {
  await up.close();
});
afterEach(() => up.clear());

describe('two API keys required together (APISetu)', () => {
  it('a real call sends each key with its own value', async () => {
    const out = await callCli('getCert', 'twokeys', { id: '7' }, { TWOKEYS_APIKEY_API_KEY: A, TWOKEYS_CLIENTID_API_KEY: C });
    expect(out.success).toBe(true);
    expect(up.requests).toHaveLength(1);
    expect(up.requests[0]!.headers['x-apisetu-apikey']).toBe(A);
    expect(up.requests[0]!.headers['x-apisetu-clientid']).toBe(C);
    // the upstream echoed both headers back: masked
    expect(JSON.stringify(out.value?.data)).toContain('"x-apisetu-clientid":"***"');
  });

  it('a dry run shows *** for keys that are set and a stand-in naming each that is not', async () => {
    const both = await callCli('getCert', 'twokeys', { id: '7' }, { TWOKEYS_APIKEY_API_KEY: A, TWOKEYS_CLIENTID_API_KEY: C }, ['--dry-run']);
    expect(both.value?.request?.headers).toMatchObject({ 'x-apisetu-apikey': '***', 'x-apisetu-clientid': '***' });
    const one = await callCli('getCert', 'twokeys', { id: '7' }, { TWOKEYS_APIKEY_API_KEY: A }, ['--dry-run']);
    expect(one.value?.request?.headers).toMatchObject({ 'x-apisetu-apikey': '***', 'x-apisetu-clientid': '<TWOKEYS_CLIENTID_API_KEY not set>' });
    expect(one.value?.would_refuse).toEqual([{ code: 'AUTH_MISSING', env_vars: ['TWOKEYS_CLIENTID_API_KEY'] }]);
    expect(up.requests).toHaveLength(0);
  });

  it('one key missing: AUTH_MISSING names both and the one not set; nothing is sent', async () => {
    const out = await callCli('getCert', 'twokeys', { id: '7' }, { TWOKEYS_APIKEY_API_KEY: A });
    expect(out.error?.code).toBe('AUTH_MISSING');
    expect(out.error?.message).toBe('getCert: needs credentials: apiKey (TWOKEYS_APIKEY_API_KEY) and clientId (TWOKEYS_CLIENTID_API_KEY); not set: TWOKEYS_CLIENTID_API_KEY');
    expect(up.requests).toHaveLength(0);
  });

  it('the catalog-wide TWOKEYS_API_KEY alone is not used for both: AUTH_MISSING says which variables it reads', async () => {
    const out = await callCli('getCert', 'twokeys', { id: '7' }, { TWOKEYS_API_KEY: A });
    expect(out.error?.code).toBe('AUTH_MISSING');
    expect(out.error?.message).toContain('none are set (TWOKEYS_API_KEY is set, but catalog twokeys has several API keys and reads each from its own variable: TWOKEYS_APIKEY_API_KEY, TWOKEYS_CLIENTID_API_KEY)');
    expect(up.requests).toHaveLength(0);
  });

  it('describe names each variable once, with where it is sent', async () => {
    const r = await cli(['describe', 'getCert', '--registry', reg('twokeys')]);
    const line = r.stdout.split('\n').find((l) => l.startsWith('credentials:'));
    expect(line).toBe('credentials: TWOKEYS_APIKEY_API_KEY (not set): the key alone; sent as header "X-APISETU-APIKEY" and TWOKEYS_CLIENTID_API_KEY (not set): the key alone; sent as header "X-APISETU-CLIENTID"');
  });
});

describe('API keys offered as alternatives (Intellifi)', () => {
  it('uses the first alternative whose variable is set, in spec order', async () => {
    const header = await callCli('listItems', 'alts', {}, { ALTS_HEADERAPIKEY_API_KEY: HK });
    expect(header.success).toBe(true);
    expect(up.requests[0]!.headers['x-api-key']).toBe(HK);
    expect(up.requests[0]!.headers.cookie).toBeUndefined();
    expect(up.requests[0]!.url).toBe('/v1/items');
    up.clear();
    await callCli('listItems', 'alts', {}, { ALTS_QUERYAPIKEY_API_KEY: QK });
    expect(up.requests[0]!.url).toBe(`/v1/items?api_key=${QK}`);
    expect(up.requests[0]!.headers['x-api-key']).toBeUndefined();
    up.clear();
    // the cookie comes first in the spec: with it and the header key both set, the cookie is sent
    await callCli('listItems', 'alts', {}, { ALTS_COOKIESID_API_KEY: CK, ALTS_HEADERAPIKEY_API_KEY: HK });
    expect(up.requests[0]!.headers.cookie).toBe(`brain.sid=${CK}`);
    expect(up.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it("an alternative's key that was not sent is still masked where the answer echoes it", async () => {
    const out = await callCli('listItems', 'alts', { note: `see ${QK}` }, { ALTS_HEADERAPIKEY_API_KEY: HK, ALTS_QUERYAPIKEY_API_KEY: QK });
    expect(out.success).toBe(true);
    expect(up.requests[0]!.url).toBe(`/v1/items?note=see%20${QK}`);
    expect(JSON.stringify(out.value?.data)).toContain('note=see%20***');
  });

  it('none set: AUTH_MISSING names what each alternative needs', async () => {
    const out = await callCli('listItems', 'alts', {}, {});
    expect(out.error?.message).toBe(
      'listItems: needs credentials: CookieSid (ALTS_COOKIESID_API_KEY) or HeaderApiKey (ALTS_HEADERAPIKEY_API_KEY) or QueryApiKey (ALTS_QUERYAPIKEY_API_KEY); none are set',
    );
    expect(up.requests).toHaveLength(0);
  });

  it('describe names three distinct variables, once each', async () => {
    const r = await cli(['describe', 'listItems', '--registry', reg('alts')], { ALTS_HEADERAPIKEY_API_KEY: HK });
    const line = r.stdout.split('\n').find((l) => l.startsWith('credentials:')) ?? '';
    for (const v of ['ALTS_COOKIESID_API_KEY (not set)', 'ALTS_HEADERAPIKEY_API_KEY (set)', 'ALTS_QUERYAPIKEY_API_KEY (not set)']) expect(line.split(v)).toHaveLength(2);
    expect(line).not.toContain('ALTS_API_KEY');
    noSecrets(r);
  });
});

describe("the config's credentials: one name per API-key scheme", () => {
  const config = (credentials: Record<string, string>): string => {
    const file = join(tempDir('ac-several-keys-cfg-'), 'config.json');
    writeFileSync(file, JSON.stringify({ catalogs: { twokeys: { credentials } } }));
    return file;
  };

  it('"apiKey:<scheme>" renames that scheme\'s variable; the other keeps its default', async () => {
    const file = config({ 'apiKey:clientId': 'TWOKEYS_CLIENT' });
    const out = await callCli('getCert', 'twokeys', { id: '1' }, { TWOKEYS_APIKEY_API_KEY: A, TWOKEYS_CLIENT: C }, ['--config', file]);
    expect(out.success).toBe(true);
    expect(up.requests[0]!.headers['x-apisetu-clientid']).toBe(C);
    expect(up.requests[0]!.headers['x-apisetu-apikey']).toBe(A);
  });

  // Refused when the command starts, naming the file, as every other config error (before, only each call refused
  // it): test/execution/credential-names-at-start.test.ts has `serve` and the catalog's own settings.json.
  it('the single "apiKey" for a catalog with two API keys is refused at start, naming the schemes; describe too', async () => {
    const file = config({ apiKey: 'TWOKEYS_KEY' });
    const out = await cli(['call', 'getCert', '--args', '{"id":"1"}', '--registry', reg('twokeys'), '--base-url', `${up.url}/v1`, '--config', file], { TWOKEYS_KEY: A });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      `config file ${file}: catalogs.twokeys.credentials.apiKey names one variable for the catalog's API key, but catalog twokeys has 2 API-key schemes, which its operations name together or as alternatives, so each is read from its own variable: apiKey (header X-APISETU-APIKEY), clientId (header X-APISETU-CLIENTID). ` +
        'Name one variable per scheme instead, e.g. "credentials": {"apiKey:apiKey": "TWOKEYS_APIKEY_API_KEY", "apiKey:clientId": "TWOKEYS_CLIENTID_API_KEY"} (these are the defaults, used when the config names none), and remove "apiKey"',
    );
    noSecrets(out);
    expect(up.requests).toHaveLength(0);
    const d = await cli(['describe', 'getCert', '--registry', reg('twokeys'), '--config', file]);
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(`config file ${file}: catalogs.twokeys.credentials.apiKey names one variable`);
  });

  it('"apiKey:<scheme>" naming no API-key scheme is refused at start, with the one meant', async () => {
    const file = config({ 'apiKey:clientid': 'TWOKEYS_KEY' });
    const out = await cli(['call', 'getCert', '--args', '{"id":"1"}', '--registry', reg('twokeys'), '--base-url', `${up.url}/v1`, '--config', file]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`config file ${file}: catalogs.twokeys.credentials."apiKey:clientid" names no API-key scheme of catalog twokeys: its API-key schemes are apiKey (header X-APISETU-APIKEY), clientId (header X-APISETU-CLIENTID); did you mean "apiKey:clientId"?`);
    expect(up.requests).toHaveLength(0);
  });

  it('the file is checked: an unknown key lists the allowed ones, a value that is no name is not echoed', async () => {
    const unknown = await cli(['call', 'getCert', '--args', '{"id":"1"}', '--registry', reg('twokeys'), '--config', config({ apikeys: 'TWOKEYS_KEY' })]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('catalogs.twokeys.credentials.apikeys is not a known key (allowed in catalogs.twokeys.credentials: token, apiKey, username, password, apiKey:<scheme>)');
    const value = await cli(['call', 'getCert', '--args', '{"id":"1"}', '--registry', reg('twokeys'), '--config', config({ 'apiKey:clientId': C })]);
    expect(value.code).not.toBe(0);
    expect(value.stderr).toContain('catalogs.twokeys.credentials.apiKey:clientId must be the NAME of an environment variable');
    noSecrets(value);
  });

  it("a catalog's own settings.json may name a scheme's variable only in its namespace", async () => {
    const own = join(tempDir('ac-several-keys-own-'), 'twokeys');
    mkdirSync(own);
    const copy = await cli(['import', join(dir, 'twokeys.yaml'), '--out', join(own, '..'), '--name', 'twokeys']);
    expect(copy.code, copy.stderr).toBe(0);
    writeFileSync(join(own, 'settings.json'), JSON.stringify({ catalogs: { twokeys: { credentials: { 'apiKey:clientId': 'HOME' } } } }));
    const r = await cli(['call', 'getCert', '--args', '{"id":"1"}', '--registry', own, '--base-url', `${up.url}/v1`]);
    expect(r.code).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('catalogs.twokeys.credentials.apiKey:clientId names HOME, outside this catalog\'s own variables (TWOKEYS_*)');
    expect(up.requests).toHaveLength(0);
  });
});

describe('a catalog with one API key is unchanged', () => {
  it('reads <CATALOG>_API_KEY for each operation\'s one API-key scheme, or the configured "apiKey"', async () => {
    const d = await cli(['describe', 'listThings', '--registry', reg('single')]);
    expect(d.stdout).toContain('credentials: SINGLE_API_KEY (not set): the key alone; sent as header "X-Key"');
    const out = await callCli('listThings', 'single', {}, { SINGLE_API_KEY: S });
    expect(out.success).toBe(true);
    expect(up.requests[0]!.headers['x-key']).toBe(S);
    await callCli('searchThings', 'single', {}, { SINGLE_API_KEY: S });
    expect(up.requests[1]!.url).toBe(`/v1/search?key=${S}`);
    up.clear();
    const file = join(tempDir('ac-several-keys-single-'), 'config.json');
    writeFileSync(file, JSON.stringify({ catalogs: { single: { credentials: { apiKey: 'SINGLE_OTHER_KEY' } } } }));
    await callCli('listThings', 'single', {}, { SINGLE_OTHER_KEY: S }, ['--config', file]);
    expect(up.requests[0]!.headers['x-key']).toBe(S);
  });
});

describe('over MCP (serve on stdio, the SDK client)', () => {
  it('describe_tools names each variable; execute_tool sends both keys, picks the complete alternative, dry runs mask', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [builtCli(), 'serve', '--registry', reg('twokeys'), '--registry', reg('alts'), '--registry', reg('single')],
      env: {
        PATH: process.env.PATH ?? '',
        API_CATALOG_LOG_LEVEL: 'debug',
        API_CATALOG_RATE_LIMIT: '0',
        TWOKEYS_BASE_URL: `${up.url}/v1`,
        ALTS_BASE_URL: `${up.url}/v1`,
        SINGLE_BASE_URL: `${up.url}/v1`,
        TWOKEYS_APIKEY_API_KEY: A,
        TWOKEYS_CLIENTID_API_KEY: C,
        ALTS_QUERYAPIKEY_API_KEY: QK,
        SINGLE_API_KEY: S,
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = newClient('legacy');
    await client.connect(transport);
    try {
      const described = await call(client, 'describe_tools', { tool_names: ['twokeys.getCert', 'alts.listItems', 'single.listThings'] });
      const lines = Object.fromEntries((described.value.tools as Array<{ name: string; credentials: string }>).map((t) => [t.name, t.credentials]));
      expect(lines['twokeys.getCert']).toBe('TWOKEYS_APIKEY_API_KEY (set): the key alone; sent as header "X-APISETU-APIKEY" and TWOKEYS_CLIENTID_API_KEY (set): the key alone; sent as header "X-APISETU-CLIENTID"');
      expect(lines['alts.listItems']).toBe(
        'ALTS_COOKIESID_API_KEY (not set): the key alone; sent as cookie brain.sid or ALTS_HEADERAPIKEY_API_KEY (not set): the key alone; sent as header "X-Api-Key" or ALTS_QUERYAPIKEY_API_KEY (set): the key alone; sent as query parameter api_key',
      );
      expect(lines['single.listThings']).toBe('SINGLE_API_KEY (set): the key alone; sent as header "X-Key"');

      const cert = await call(client, 'execute_tool', { tool_name: 'twokeys.getCert', args: { id: '9' }, handle: await describeHandle(client, 'twokeys.getCert') });
      expect(cert.success).toBe(true);
      expect(up.requests[0]!.headers['x-apisetu-apikey']).toBe(A);
      expect(up.requests[0]!.headers['x-apisetu-clientid']).toBe(C);
      const items = await call(client, 'execute_tool', { tool_name: 'alts.listItems', args: {}, handle: await describeHandle(client, 'alts.listItems') });
      expect(items.success).toBe(true);
      expect(up.requests[1]!.url).toBe(`/v1/items?api_key=${QK}`);
      expect(up.requests[1]!.headers.cookie).toBeUndefined();
      const things = await call(client, 'execute_tool', { tool_name: 'single.listThings', args: {}, handle: await describeHandle(client, 'single.listThings') });
      expect(things.success).toBe(true);
      expect(up.requests[2]!.headers['x-key']).toBe(S);

      const dry = await call(client, 'execute_tool', { tool_name: 'twokeys.getCert', args: { id: '9' }, dry_run: true, handle: await describeHandle(client, 'twokeys.getCert') });
      expect(dry.value.request.headers).toMatchObject({ 'x-apisetu-apikey': '***', 'x-apisetu-clientid': '***' });
      expect(up.requests).toHaveLength(3);
      for (const s of SECRETS) expect(JSON.stringify([described, cert, items, things, dry])).not.toContain(s);
    } finally {
      await client.close();
    }
    for (const s of SECRETS) expect(stderr).not.toContain(s);
  });
});

describe('the names, from catalog.json', () => {
  const key = (name: string, where: SecuritySchemeInfo['in'] = 'header'): SecuritySchemeInfo => ({ type: 'apiKey', in: where, name });
  const schemes = { 'api-key': key('A'), api_key: key('B', 'query'), bearer: { type: 'http', scheme: 'bearer' } as SecuritySchemeInfo };
  const names = (securityRequirements?: Array<Array<Record<string, string[]>>>) =>
    credentialNames({ catalog: { name: 'my-api.v2', securitySchemes: schemes, ...(securityRequirements ? { securityRequirements } : {}) } });

  it('two schemes whose names normalise alike get a number, the later one in declaration order', () => {
    const n = names([[{ 'api-key': [] }, { api_key: [] }]]);
    expect([apiKeyVariable('api-key', n), apiKeyVariable('api_key', n)]).toEqual(['MY_API_V2_API_KEY_API_KEY', 'MY_API_V2_API_KEY_2_API_KEY']);
    expect(n.token).toBe('MY_API_V2_TOKEN');
  });

  it('one variable when each operation names one API-key scheme, or when catalog.json predates securityRequirements', () => {
    for (const n of [names([[{ 'api-key': [] }], [{ api_key: [], bearer: [] }]]), names()]) {
      expect([apiKeyVariable('api-key', n), apiKeyVariable('api_key', n)]).toEqual(['MY_API_V2_API_KEY', 'MY_API_V2_API_KEY']);
    }
  });
});
