// What a dry run's shareable address may hold (src/server/explorer/share.ts): credential-shaped values by pattern,
// values of credential-named arguments and the server's own credential values are replaced; everything else is
// kept byte for byte. And the tool page's `from` column, read from the registry's `paramSources` where it has them,
// over the real HTTP transport.
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
