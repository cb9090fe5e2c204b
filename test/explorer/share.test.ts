// What a dry run's shareable address may hold (src/server/explorer/share.ts): credential-shaped values by pattern,
// everything under a credential-named argument and the server's own credential values are replaced, in argument
// names too; encoded content (base64) is not taken for a token; everything else is kept byte for byte. Over the real
// HTTP transport: such an address is sent to the cleaned one, and the tool page's `from` column, read from the
// registry's `paramSources` where it has them.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { REDACTED, serverSecrets, shareableArgs } from '../../src/server/explorer/share.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import type { Operation } from '../../src/types.js';
import { rawHttp } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';

describe('shareableArgs', () => {
  const secrets = ['own-secret-value-1234'];

  test('ordinary arguments stay exactly as typed, whitespace included', () => {
    for (const text of ['{"owner": "octo",\n  "repo": "hello"}', '{"sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e", "n": 3, "ok": true, "x": null}', '', 'not json at all', '[1, 2]']) {
      expect(shareableArgs(text, secrets)).toEqual({ text, changed: false });
    }
  });

  test('a pasted token, the server’s own secret and credential-named arguments are replaced, at any depth', () => {
    const token = 'ghp_R7fKq2Lm9Xw4Tz8Nc1Vb6Hy3Jd5Gs0Pa2Qe7';
    const r = shareableArgs(
      JSON.stringify({ title: `see ${token}`, body: 'own-secret-value-1234 leaked', nested: [{ api_key: 'abc' }, { client_secret: 'x1' }], password: 'hunter2', tokens: 3, monkey: 'ok' }),
      secrets,
    );
    expect(r.changed).toBe(true);
    expect(JSON.parse(r.text)).toEqual({
      title: `see ghp_${REDACTED}`,
      body: `${REDACTED} leaked`,
      nested: [{ api_key: REDACTED }, { client_secret: REDACTED }],
      password: REDACTED,
      tokens: 3,
      monkey: 'ok',
    });
    // text that is not JSON is cleaned as text
    expect(shareableArgs(`{"title": "${token}"`, secrets)).toEqual({ text: `{"title": "ghp_${REDACTED}"`, changed: true });
    // a second pass changes nothing (the redirect target is stable)
    expect(shareableArgs(r.text, secrets)).toEqual({ text: r.text, changed: false });
  });

  test('a __proto__ key stays an ordinary key', () => {
    const r = shareableArgs('{"__proto__": {"password": "p4ssw0rd!"}, "a": 1}', []);
    expect(JSON.parse(r.text)).toEqual(JSON.parse(`{"__proto__": {"password": "${REDACTED}"}, "a": 1}`));
    expect(({} as Record<string, unknown>).password).toBeUndefined();
  });

  test('everything under a credential-named argument is replaced: numbers, lists, nested objects; booleans and null say nothing', () => {
    const r = shareableArgs(
      JSON.stringify({ name: 'w', password: 12345678, secret_token: ['hunter2hunter2', 7], pin_password: { value: 'hunter2', n: 4, on: true, none: null, empty: '' }, api_key: false }),
      secrets,
    );
    expect(JSON.parse(r.text)).toEqual({ name: 'w', password: REDACTED, secret_token: [REDACTED, REDACTED], pin_password: { value: REDACTED, n: REDACTED, on: true, none: null, empty: '' }, api_key: false });
    expect(shareableArgs(r.text, secrets)).toEqual({ text: r.text, changed: false });
    // the page's own placeholder stays, at any depth under the name
    const filled = '{"password": {"value": "<value>"}, "secret_token": "<secret_token>"}';
    expect(shareableArgs(filled, secrets)).toEqual({ text: filled, changed: false });
  });

  test('passphrase, private_key and camelCase names (clientSecret, accessToken, privateKey) are credential names', () => {
    for (const name of ['passphrase', 'key_passphrase', 'private_key', 'private-key', 'privatekey', 'ssh_private_key', 'clientSecret', 'accessToken', 'privateKey', 'APIKey']) {
      expect(JSON.parse(shareableArgs(JSON.stringify({ [name]: 'hunter2' }), secrets).text), name).toEqual({ [name]: REDACTED });
    }
    for (const name of ['monkey', 'tokens', 'keyboard', 'public_key', 'secretary', 'isPrivate']) {
      expect(shareableArgs(JSON.stringify({ [name]: 'hunter2' }), secrets).changed, name).toBe(false);
    }
  });

  test('argument names are cleaned like values: the server’s own secret or a pasted token as a key is replaced', () => {
    const token = 'ghp_R7fKq2Lm9Xw4Tz8Nc1Vb6Hy3Jd5Gs0Pa2Qe7';
    const r = shareableArgs(JSON.stringify({ 'own-secret-value-1234': 'x', nested: { [token]: 1 }, owner: 'octo' }), secrets);
    expect(r.text).not.toContain('own-secret-value-1234');
    expect(r.text).not.toContain(token);
    expect(JSON.parse(r.text)).toEqual({ [REDACTED]: 'x', nested: { [`ghp_${REDACTED}`]: 1 }, owner: 'octo' });
  });

  test('encoded content (format byte, contentEncoding base64, a description saying Base64) is not taken for a token; the server’s secrets still are', () => {
    const content = 'SGVsbG8gV29ybGQgdGhpcyBpcyBhIGxvbmdlciBmaWxlIGNvbnRlbnQgaW4gYmFzZTY0';
    const schema = {
      type: 'object',
      $defs: { Blob: { type: 'string', contentEncoding: 'base64' } },
      properties: {
        data: { type: 'string', format: 'byte' },
        blob: { $ref: '#/$defs/Blob' },
        files: { type: 'array', items: { type: 'object', properties: { content: { type: 'string', description: 'The file, Base64 encoded.' } } } },
        note: { type: 'string' },
        api_key: { type: 'string', format: 'byte' },
      },
    };
    const kept = JSON.stringify({ data: content, blob: content, files: [{ content }] });
    expect(shareableArgs(kept, secrets, undefined, schema)).toEqual({ text: kept, changed: false });
    // without the schema, or in an argument that is not encoded content, the same text reads as a token
    expect(shareableArgs(kept, secrets).changed).toBe(true);
    expect(JSON.parse(shareableArgs(JSON.stringify({ note: content }), secrets, undefined, schema).text)).toEqual({ note: REDACTED });
    // a credential name and the server's own secret win over the encoding
    const r = shareableArgs(JSON.stringify({ api_key: content, data: `${content}own-secret-value-1234` }), secrets, undefined, schema);
    expect(JSON.parse(r.text)).toEqual({ api_key: REDACTED, data: `${content}${REDACTED}` });
    // GitHub's own: the new file's content of repos_create-or-update-file-contents
    const op = loadCatalogSet([]).byName.get('repos_create-or-update-file-contents')?.op;
    const file = JSON.stringify({ owner: 'octo', repo: 'hello', path: 'a.txt', message: 'm', content });
    expect(shareableArgs(file, secrets, undefined, op?.inputSchema)).toEqual({ text: file, changed: false });
  });

  test('serverSecrets: credential-looking env vars and the config file’s credential names, never short values', () => {
    const s = serverSecrets({
      baseUrls: {},
      readOnly: false,
      env: { GITHUB_TOKEN: 'ghtoken-value-99', PATH: '/usr/bin', SHOP_KEY: 'shop-key-value-1', TINY_TOKEN: 'abc', HOME: '/root' },
      catalogs: { shop: { credentials: { apiKey: 'SHOP_KEY' } } },
    });
    expect(s.sort()).toEqual(['ghtoken-value-99', 'shop-key-value-1']);
  });
});

describe('a dry run’s address over HTTP', () => {
  const CANARY = 'CANARY-key-as-argument-name-0123';
  let srv: HttpHandle;

  beforeAll(async () => {
    srv = await serveHttp({ catalogs: loadCatalogSet([]), settings: { baseUrls: {}, readOnly: false, env: { GITHUB_TOKEN: CANARY } } }, { port: 0, explorer: true });
  });

  afterAll(async () => {
    await srv?.close();
  });

  test('an argument named like the server’s secret, or a numeric password, is sent to the cleaned address', async () => {
    for (const [args, gone] of [
      [{ [CANARY]: 'x', owner: 'octo', repo: 'hello', ref: 'main' }, CANARY],
      [{ owner: 'octo', repo: 'hello', ref: 'main', password: 12345678 }, '12345678'],
      [{ owner: 'octo', repo: 'hello', ref: 'main', passphrase: ['correct horse battery'] }, 'correct horse'],
    ] as const) {
      const res = await rawHttp(srv.port, 'GET', `/?tool=repos_get-commit&args=${encodeURIComponent(JSON.stringify(args))}`, {});
      expect(res.status, gone).toBe(303);
      const location = decodeURIComponent(String(res.headers.location));
      expect(location, gone).not.toContain(gone);
      expect(location, gone).toContain(REDACTED);
      const shown = await rawHttp(srv.port, 'GET', String(res.headers.location).replace(/#try$/, ''), {});
      expect(shown.status).toBe(200);
      expect(shown.body).not.toContain(gone);
    }
  });
});

describe('the tool page’s from column', () => {
  let dir = '';
  let srv: HttpHandle;

  beforeAll(async () => {
    dir = tempDir('ac-from-');
    writeRegistry(await importSpec('test/fixtures/specs/oas30.yaml', { name: 'things' }), dir);
    // A registry whose import computed where entity parameters come from (Operation.paramSources, describe's
    // importer work): things_replace's `id` comes from things_list; a name the server does not serve is left out.
    const file = join(dir, 'things', 'operations', 'things.json');
    const ops = JSON.parse(readFileSync(file, 'utf8')) as Array<Operation & { paramSources?: Record<string, string[]> }>;
    const replace = ops.find((o) => o.name === 'things_replace') as Operation & { paramSources?: Record<string, string[]> };
    replace.paramSources = { id: ['things_list', 'nowhere_list'] };
    writeFileSync(file, JSON.stringify(ops, null, 2));
    srv = await serveHttp({ catalogs: loadCatalogSet([join(dir, 'things')]), settings: { baseUrls: {}, readOnly: false, env: {} } }, { port: 0, explorer: true });
  });

  afterAll(async () => {
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('shows the operations an argument’s value comes from, as links, only where the registry knows them', async () => {
    const withFrom = await rawHttp(srv.port, 'GET', '/?tool=things_replace', {});
    expect(withFrom.status).toBe(200);
    expect(withFrom.body).toContain('<th scope="col" title="Operations whose responses give this value">From</th>');
    expect(withFrom.body).toMatch(/<td class="from" data-label="From"><a href="\/\?tool=things_list">things_list<\/a><\/td>/);
    expect(withFrom.body).not.toContain('nowhere_list');
    const without = await rawHttp(srv.port, 'GET', '/?tool=things_list', {});
    expect(without.body).toContain('id="parameters-table"');
    expect(without.body).not.toContain('>From</th>');
  });
});
