// A catalog's own settings file (registry/<name>/settings.json, written by hand by the catalog's publisher): the
// per-catalog section of a config file, kept across re-imports, ignored by `import --check`, read by `serve` below
// the operator's config file. The embedded GitHub catalog uses it for uploads.github.com instead of code.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseConfigFile, resolveServerConfig } from '../../src/config.js';
import { checkRegistry, importSpec, writeRegistry } from '../../src/importer/index.js';
import { SETTINGS_FILE } from '../../src/importer/write.js';
import { loadCatalogSet, settingsFromConfig } from '../../src/server/core/catalogs.js';
import { REPO_ROOT } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const scratch = tempDir('catalog-settings-');

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Files', version: '1' },
  servers: [{ url: 'https://api.files.example' }],
  paths: {
    '/files': { get: { operationId: 'listFiles', responses: { '200': { description: 'OK' } } } },
    '/files/{id}/content': {
      put: {
        operationId: 'uploadFile',
        servers: [{ url: 'https://uploads.files.example' }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

describe('registry/<name>/settings.json', () => {
  test('a re-import keeps it, and import --check does not count it as drift', async () => {
    const spec = join(scratch, 'files.json');
    writeFileSync(spec, JSON.stringify(SPEC));
    const out = join(scratch, 'registry');
    writeRegistry(await importSpec(spec), out);
    const own = JSON.stringify({ catalogs: { files: { allowedOrigins: ['https://uploads.files.example'] } } });
    writeFileSync(join(out, 'files', SETTINGS_FILE), own);
    const again = await importSpec(spec);
    expect(checkRegistry(again, out).upToDate).toBe(true);
    // a changed spec rewrites the folder; the settings file comes along
    const changed = { ...SPEC, info: { title: 'Files', version: '2' } };
    writeFileSync(spec, JSON.stringify(changed));
    const report = writeRegistry(await importSpec(spec), out);
    expect(report.unchanged).toBe(false);
    expect(readFileSync(join(out, 'files', SETTINGS_FILE), 'utf8')).toBe(own);

    // serve reads it: the catalog's origins, unless the operator's config file says otherwise
    const set = loadCatalogSet([join(out, 'files')]);
    const config = resolveServerConfig({}, {});
    expect(settingsFromConfig(config, set, {}).catalogs?.files?.allowedOrigins).toEqual(['https://uploads.files.example']);
    const operator = parseConfigFile(JSON.stringify({ catalogs: { files: { allowedOrigins: [] } } }), 'ops.json');
    expect(settingsFromConfig(config, set, {}, operator).catalogs?.files?.allowedOrigins).toEqual([]);
  });

  test('a wrong settings file is CONFIG_INVALID naming the file and the key, not a crash', () => {
    const dir = join(scratch, 'bad', 'petstore');
    cpSync(join(REPO_ROOT, 'test', 'fixtures', 'registry', 'petstore'), dir, { recursive: true });
    writeFileSync(join(dir, SETTINGS_FILE), JSON.stringify({ catalogs: { petstore: { allowedOrigins: ['https://x.example/path'] } } }));
    const set = loadCatalogSet([dir]);
    expect(() => settingsFromConfig(resolveServerConfig({}, {}), set, {})).toThrow(/settings\.json.*allowedOrigins\[0\]/s);
  });

  test('the embedded GitHub catalog ships its uploads origin as data, not code', () => {
    const file = JSON.parse(readFileSync(join(REPO_ROOT, 'registry', 'github', SETTINGS_FILE), 'utf8'));
    expect(file).toEqual({ catalogs: { github: { allowedOrigins: ['https://uploads.github.com'] } } });
  });
});
