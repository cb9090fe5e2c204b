// An API key declared as an ordinary required header/query/cookie parameter instead of a security scheme (imp50
// audit defect 8: ListenNotes' `X-ListenAPI-Key`, Autotask's `Secret`) is reported at import as
// CREDENTIAL_AS_PARAMETER, naming the parameter and how many operations carry it, with an overlay that declares it as
// an apiKey scheme; that overlay, passed to the real importer with --overlay, makes it a scheme and removes the
// parameter (also when the parameter is a `$ref` to a reusable one, and for Swagger 2.0). Names that are no
// credential (`pageToken`, `Idempotency-Key`, GitHub's cache `key`) and operations with a security scheme are quiet.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importSpec } from '../../src/importer/index.js';
import { credentialNamed } from '../../src/importer/text.js';
import { credentialParameterName } from '../../src/schema/credential-parameters.js';
import type { Diagnostic } from '../../src/types.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('ac-credential-param-');
let n = 0;
function file(doc: unknown): string {
  const path = join(dir, `spec-${++n}.json`);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}
const ok = { '200': { description: 'OK' } };
const findings = (d: readonly Diagnostic[]) => d.filter((x) => x.code === 'CREDENTIAL_AS_PARAMETER');

/** The overlay the warning gives, saved as the user would (the JSON after "--overlay credentials.overlay.json ... : "). */
function savedOverlay(message: string): string {
  const at = message.indexOf('{"overlay"');
  expect(at, message).toBeGreaterThan(0);
  const path = join(dir, `overlay-${++n}.json`);
  writeFileSync(path, message.slice(at));
  return path;
}

// ListenNotes' shape: the key a `$ref` to components.parameters on most operations, inline on another
const OAS3 = {
  openapi: '3.0.3',
  info: { title: 'Pods', version: '1' },
  servers: [{ url: 'https://pods.invalid/v2' }],
  paths: {
    '/best': { get: { operationId: 'getBest', parameters: [{ $ref: '#/components/parameters/apiKeyParam' }, { name: 'page', in: 'query', schema: { type: 'integer' } }], responses: ok } },
    '/search': { get: { operationId: 'search', parameters: [{ $ref: '#/components/parameters/apiKeyParam' }, { name: 'pageToken', in: 'query', required: true, schema: { type: 'string' } }], responses: ok } },
    '/pods/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: { operationId: 'updatePod', parameters: [{ name: 'X-ListenAPI-Key', in: 'header', required: true, schema: { type: 'string' } }, { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string' } }], responses: ok },
    },
  },
  components: { parameters: { apiKeyParam: { name: 'X-ListenAPI-Key', in: 'header', required: true, schema: { type: 'string' } } } },
};

describe('CREDENTIAL_AS_PARAMETER', () => {
  test("the name test is an API's own key: an api key, or a key word with only qualifiers beside it; never a token for one other thing", () => {
    for (const name of ['X-ListenAPI-Key', 'Secret', 'api_token', 'apiKey', 'APIKEY', 'x-api-key', 'Authorization', 'client_credentials', 'client_secret', 'access_token', 'X-Auth-Token']) {
      expect(credentialParameterName(name), name).toBe(true);
    }
    for (const name of ['UserName', 'ApiIntegrationCode', 'keyword', 'monkey', 'tokens', 'limit']) expect(credentialParameterName(name), name).toBe(false);
    // credentialNamed (examples' placeholders) says these hold a secret; none is the API's key: the operation that
    // takes one (an invitation's token, a cursor, a cache key, the user's password) still needs the caller's bearer
    // (second read of stop 50: invitation_token dropped it)
    for (const name of ['key', 'Key', 'pageToken', 'next_token', 'Idempotency-Key', 'cache_key', 'sortKey', 'continuationToken', 'invitation_token', 'reset_token', 'ssh_key', 'public_key', 'password', 'passwd']) {
      expect(credentialNamed(name), name).toBe(true);
      expect(credentialParameterName(name), name).toBe(false);
    }
  });

  test('names the parameter and how many operations carry it; the overlay it gives makes it an apiKey scheme', async () => {
    const before = await importSpec(file(OAS3), { name: 'pods' });
    const [w, ...more] = findings(before.diagnostics);
    expect(more).toEqual([]);
    expect(w?.level).toBe('warning');
    expect(w?.message).toContain('header "X-ListenAPI-Key" (required by 3 of 3 operations)');
    expect(w?.message).toContain('import with --overlay');
    // pageToken and Idempotency-Key are no credentials
    expect(w?.message).not.toMatch(/pageToken|Idempotency/);
    // a warning, not a lint finding: --strict fails on it
    await expect(importSpec(file(OAS3), { name: 'pods', strict: true })).rejects.toThrow(/CREDENTIAL_AS_PARAMETER/);

    const after = await importSpec(file(OAS3), { name: 'pods', overlays: [{ file: savedOverlay(w!.message) }] });
    // no warning left (nor OVERLAY_NO_MATCH): both actions applied
    expect(after.diagnostics.filter((d) => !d.code.startsWith('LINT_')).map((d) => d.code)).toEqual([]);
    expect(after.meta.securitySchemes).toEqual({ 'X-ListenAPI-Key': { type: 'apiKey', in: 'header', name: 'X-ListenAPI-Key' } });
    for (const op of after.operations) {
      expect(op.security).toEqual([{ 'X-ListenAPI-Key': [] }]);
      expect(op.bindings.map((b) => b.name)).not.toContain('X-ListenAPI-Key');
    }
    // the other parameters stay
    expect(after.operations.find((o) => o.name === 'updatePod')?.bindings.map((b) => b.name).sort()).toEqual(['Idempotency-Key', 'id']);
  });

  test('Swagger 2.0: a query key, fixed with securityDefinitions', async () => {
    const spec = {
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      host: 'old.invalid',
      schemes: ['https'],
      paths: {
        '/a': { get: { operationId: 'getA', parameters: [{ name: 'api_token', in: 'query', required: true, type: 'string' }], responses: ok } },
        '/b': { get: { operationId: 'getB', parameters: [{ $ref: '#/parameters/token' }], responses: ok } },
      },
      parameters: { token: { name: 'api_token', in: 'query', required: true, type: 'string' } },
    };
    const [w] = findings((await importSpec(file(spec), { name: 'old' })).diagnostics);
    expect(w?.message).toContain('query "api_token" (required by 2 of 2 operations)');
    const after = await importSpec(file(spec), { name: 'old', overlays: [{ file: savedOverlay(w!.message) }] });
    expect(findings(after.diagnostics)).toEqual([]);
    expect(after.meta.securitySchemes).toEqual({ api_token: { type: 'apiKey', in: 'query', name: 'api_token' } });
    for (const op of after.operations) {
      expect(op.security).toEqual([{ api_token: [] }]);
      expect(op.bindings).toEqual([]);
    }
  });

  test('quiet where a scheme authenticates the operation, and for names that are no credential', async () => {
    const secured = {
      ...OAS3,
      security: [{ bearer: [] }],
      components: { ...OAS3.components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    };
    expect(findings((await importSpec(file(secured), { name: 'pods' })).diagnostics)).toEqual([]);
    const plain = {
      openapi: '3.0.3',
      info: { title: 'Plain', version: '1' },
      servers: [{ url: 'https://plain.invalid' }],
      paths: {
        // GitHub's DELETE .../actions/caches?key=
        '/caches': { delete: { operationId: 'deleteCache', parameters: [{ name: 'key', in: 'query', required: true, schema: { type: 'string' } }], responses: ok } },
        '/list': { get: { operationId: 'list', parameters: [{ name: 'next_token', in: 'query', required: true, schema: { type: 'string' } }, { name: 'api_key', in: 'query', schema: { type: 'string' } }], responses: ok } },
      },
    };
    expect(findings((await importSpec(file(plain), { name: 'plain' })).diagnostics)).toEqual([]);
  });

  test('parameters on different operations: the fix in words, no overlay that would require both everywhere', async () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Two', version: '1' },
      servers: [{ url: 'https://two.invalid' }],
      paths: {
        '/a': { get: { operationId: 'getA', parameters: [{ name: 'X-Api-Key', in: 'header', required: true, schema: { type: 'string' } }], responses: ok } },
        '/b': { get: { operationId: 'getB', parameters: [{ name: 'client_secret', in: 'cookie', required: true, schema: { type: 'string' } }], responses: ok } },
      },
    };
    const [w, ...more] = findings((await importSpec(file(spec), { name: 'two' })).diagnostics);
    expect(more).toEqual([]);
    expect(w?.message).toContain('header "X-Api-Key" (required by 1 of 2 operations), cookie "client_secret" (required by 1 of 2 operations)');
    expect(w?.message).toContain('declares each as an apiKey security scheme');
    expect(w?.message).not.toContain('{"overlay"');
  });

  test('one parameter on some operations only: no ready overlay (it would send the key to every operation)', async () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Some', version: '1' },
      servers: [{ url: 'https://some.invalid' }],
      paths: {
        '/a': { get: { operationId: 'getA', parameters: [{ name: 'X-Api-Key', in: 'header', required: true, schema: { type: 'string' } }], responses: ok } },
        '/teams': { get: { operationId: 'listTeams', responses: ok } },
      },
    };
    const [w, ...more] = findings((await importSpec(file(spec), { name: 'some' })).diagnostics);
    expect(more).toEqual([]);
    expect(w?.message).toContain('header "X-Api-Key" (required by 1 of 2 operations)');
    expect(w?.message).toContain('declares each as an apiKey security scheme');
    expect(w?.message).not.toContain('{"overlay"');
  });
});
