import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importSpec } from '../../src/importer/index.js';
import { writeRegistry } from '../../src/importer/write.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { AppError } from '../../src/errors.js';
import { tempDir } from '../helpers/temp.js';

// `import --out <dir>` writes <dir>/<catalog>/; passing <dir> itself where a catalog is wanted is the likeliest
// first-hour mistake, so the error names the catalog folder to pass instead.
describe('loadCatalog on a folder that is not a catalog', () => {
  const root = tempDir('not-a-catalog-');

  function errorOf(dir: string): AppError {
    try {
      loadCatalog(dir);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    }
    throw new Error(`loadCatalog(${dir}) did not throw`);
  }

  test('a registry folder: names the catalogs inside it and the folders to pass', async () => {
    const out = join(root, 'reg');
    for (const name of ['petstore', 'zoo']) {
      writeRegistry(await importSpec('test/fixtures/specs/oas30.yaml', { name }), out);
    }
    const error = errorOf(out);
    expect(error.code).toBe('REGISTRY_NOT_FOUND');
    expect(error.message).toContain('is a registry folder, not a catalog');
    expect(error.message).toContain('the catalogs petstore, zoo');
    expect(error.message).toContain(join(out, 'petstore'));
    expect(loadCatalog(join(out, 'petstore')).meta.name).toBe('petstore');
  });

  test('a folder that does not exist says so', () => {
    const error = errorOf(join(root, 'nowhere'));
    expect(error.code).toBe('REGISTRY_NOT_FOUND');
    expect(error.message).toMatch(/nowhere does not exist; build a catalog with `api-catalog import/);
  });

  test('a spec file given as the catalog: import it first', () => {
    const error = errorOf(join(process.cwd(), 'test/fixtures/specs/oas30.yaml'));
    expect(error.code).toBe('REGISTRY_NOT_FOUND');
    expect(error.message).toMatch(/oas30\.yaml is a file, not a catalog folder; if it is an OpenAPI spec, import it first \(`api-catalog import /);
  });

  test('an empty folder: how to build a catalog', () => {
    const empty = tempDir('empty-');
    const error = errorOf(empty);
    expect(error.message).toMatch(/no catalog\.json in .*; build one with `api-catalog import <spec> --out <registry dir>`, then pass <registry dir>\/<catalog>/);
  });
});
