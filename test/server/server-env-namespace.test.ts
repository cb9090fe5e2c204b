// A catalog's default credential names come from its name (GITHUB_TOKEN for github), so a catalog named
// `api-catalog-signing` would read API_CATALOG_SIGNING_TOKEN, the server's own namespace (its signing key, its HTTP
// token). Such a name is refused at import (exit 2, the fix named) and at load (REGISTRY_INVALID), before any
// credential is read.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { inServerEnvNamespace } from '../../src/execution/auth.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { buildCatalogSet } from '../../src/server/core/catalogs.js';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

test.each([
  ['api-catalog', true],
  ['api-catalog-signing', true],
  ['api_catalog_http', true],
  ['github', false],
  ['api-catalogue', false],
  ['my-api-catalog', false],
])('%s is in the server namespace: %s', (name, reserved) => {
  expect(inServerEnvNamespace(name)).toBe(reserved);
});

test('import --name api-catalog-signing is refused, nothing written', () => {
  const dir = tempDir('ac-ns-');
  const r = spawnSync(process.execPath, [builtCli(), 'import', join(REPO_ROOT, 'test', 'fixtures', 'specs', 'oas30.yaml'), '--name', 'api-catalog-signing', '--out', join(dir, 'reg')], { encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/catalog name "api-catalog-signing" would read its credentials from the server's own variables \(API_CATALOG_\*\); import it under another name \(--name\)/);
  expect(spawnSync('ls', [dir]).stdout.toString()).toBe('');
});

test('a loaded catalog of such a name is refused before its credentials are read', () => {
  const petstore = loadCatalog(fixtureRegistry('petstore'));
  const renamed = { ...petstore, meta: { ...petstore.meta, name: 'api-catalog-http' } } as typeof petstore;
  expect(() => buildCatalogSet([renamed])).toThrow(/REGISTRY_INVALID|server's own variables/);
  expect(() => buildCatalogSet([petstore])).not.toThrow();
});
