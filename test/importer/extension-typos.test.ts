// A misspelt `x-api-catalog-*` extension (first-hour audit finding 2): `x-api-catalog-hiden: true` used to leave the
// operation served with 0 warnings, even under --strict. Any `x-api-catalog-` key on an Operation or the Info Object
// that is not one the importer reads is now EXTENSION_UNKNOWN, with its JSON pointer and a "did you mean"; under
// --strict the import fails and the registry stays as it was.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { importSpec } from '../../src/importer/index.js';
import type { Diagnostic } from '../../src/types.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = `openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "https://pets.example.com/v1"}]
paths:
  /pets:
    get: {operationId: listPets, summary: List pets, responses: {"200": {description: OK}}}
  /pets/{petId}:
    parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
    get: {operationId: showPetById, summary: Show a pet, responses: {"200": {description: OK}}}
    delete: {operationId: deletePet, summary: Delete a pet, responses: {"204": {description: Deleted}}}
`;
const overlay = (actions: string): string => `overlay: 1.0.0\ninfo: {title: typos, version: "1"}\nactions:\n${actions}`;

let dir = '';
beforeEach(() => {
  dir = tempDir('ac-ext-typos-');
  writeFileSync(join(dir, 'pets.yaml'), SPEC);
});
const unknown = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.code === 'EXTENSION_UNKNOWN').map(({ pointer, message }) => ({ pointer, message }));

describe('unknown x-api-catalog-* keys', () => {
  test('misspelt operation extensions: a warning with the pointer and "did you mean"; the operation stays as it was', async () => {
    writeFileSync(
      join(dir, 'typos.yaml'),
      overlay(`  - target: $.paths['/pets/{petId}'].delete
    update: {x-api-catalog-hiden: true}
  - target: $.paths['/pets'].get
    update: {x-api-catalog-keyword: [animals], X-API-Catalog-Summary: List the pets, x-api-catalog-readonly: true}
`),
    );
    const r = await importSpec(join(dir, 'pets.yaml'), { overlays: [{ file: join(dir, 'typos.yaml') }] });
    expect(unknown(r.diagnostics)).toEqual([
      { pointer: '#/paths/~1pets/get/X-API-Catalog-Summary', message: 'X-API-Catalog-Summary is not a known x-api-catalog-* extension (did you mean x-api-catalog-summary?); ignored' },
      { pointer: '#/paths/~1pets/get/x-api-catalog-keyword', message: 'x-api-catalog-keyword is not a known x-api-catalog-* extension (did you mean x-api-catalog-keywords?); ignored' },
      { pointer: '#/paths/~1pets/get/x-api-catalog-readonly', message: 'x-api-catalog-readonly is not a known x-api-catalog-* extension (did you mean x-api-catalog-read-only?); ignored' },
      { pointer: '#/paths/~1pets~1{petId}/delete/x-api-catalog-hiden', message: 'x-api-catalog-hiden is not a known x-api-catalog-* extension (did you mean x-api-catalog-hidden?); ignored' },
    ]);
    // ignored, as before: the delete is still served, listPets has no keywords
    expect(r.operations.map((o) => o.name).sort()).toEqual(['deletePet', 'listPets', 'showPetById']);
    expect(r.operations.find((o) => o.name === 'listPets')?.keywords).toBeUndefined();
  });

  test('an extension on the wrong object says where it is read; a far-off name lists the known ones', async () => {
    writeFileSync(
      join(dir, 'wrong.yaml'),
      overlay(`  - target: $.info
    update: {x-api-catalog-name: pets, x-api-catalog-banner: hello, x-api-catalog-titel: Pets API}
  - target: $.paths['/pets'].get
    update: {x-api-catalog-title: Pets}
`),
    );
    const r = await importSpec(join(dir, 'pets.yaml'), { overlays: [{ file: join(dir, 'wrong.yaml') }] });
    expect(unknown(r.diagnostics)).toEqual([
      { pointer: '#/info/x-api-catalog-banner', message: 'x-api-catalog-banner is not a known x-api-catalog-* extension (known here: x-api-catalog-title, x-api-catalog-description); ignored' },
      { pointer: '#/info/x-api-catalog-name', message: 'x-api-catalog-name is read on an Operation Object, not on this object; ignored' },
      { pointer: '#/info/x-api-catalog-titel', message: 'x-api-catalog-titel is not a known x-api-catalog-* extension (did you mean x-api-catalog-title?); ignored' },
      { pointer: '#/paths/~1pets/get/x-api-catalog-title', message: 'x-api-catalog-title is read on the Info Object (target $.info), not on this object; ignored' },
    ]);
    expect(r.meta.title).toBe('Pets');
  });

  test('an extension where none is read (a Path Item, a parameter, the root) is a warning, and the operations stay served', async () => {
    writeFileSync(
      join(dir, 'misplaced.yaml'),
      overlay(`  - target: $.paths['/pets/{petId}']
    update: {x-api-catalog-hidden: true}
  - target: $.paths['/pets/{petId}'].parameters[0]
    update: {x-api-catalog-summary: the pet}
  - target: $
    update: {x-api-catalog-read-only: true}
`),
    );
    const r = await importSpec(join(dir, 'pets.yaml'), { overlays: [{ file: join(dir, 'misplaced.yaml') }] });
    expect(unknown(r.diagnostics)).toEqual(
      expect.arrayContaining([
        { pointer: '#/paths/~1pets~1{petId}/x-api-catalog-hidden', message: 'x-api-catalog-hidden is read only on an Operation Object (under paths) or on info, not here; ignored: set it on each operation of this path' },
        { pointer: '#/paths/~1pets~1{petId}/parameters/0/x-api-catalog-summary', message: 'x-api-catalog-summary is read only on an Operation Object (under paths) or on info, not here; ignored' },
        { pointer: '#/x-api-catalog-read-only', message: 'x-api-catalog-read-only is read only on an Operation Object (under paths) or on info, not here; ignored' },
      ]),
    );
    expect(unknown(r.diagnostics)).toHaveLength(3);
    expect(r.operations.map((o) => o.name).sort()).toEqual(['deletePet', 'listPets', 'showPetById']);
  });

  test('operations reached through a Path Item $ref read their extensions there: no warning, and --strict still imports', async () => {
    writeFileSync(
      join(dir, 'refs.yaml'),
      `openapi: 3.1.0
info: {title: refs, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /pets: {$ref: "#/components/pathItems/Pets"}
components:
  pathItems:
    Pets:
      get: {operationId: listPets, summary: List pets, x-api-catalog-keywords: [animals], responses: {"200": {description: OK}}}
      post: {operationId: createPet, summary: Create a pet, x-api-catalog-hidden: true, responses: {"201": {description: Created}}}
`,
    );
    const r = await importSpec(join(dir, 'refs.yaml'));
    expect(unknown(r.diagnostics)).toEqual([]);
    expect(r.operations.map((o) => o.name)).toEqual(['listPets']);
    expect(r.operations[0]?.keywords).toEqual(['animals']);
  });

  test('the known extensions and other x- keys give no EXTENSION_UNKNOWN', async () => {
    writeFileSync(
      join(dir, 'good.yaml'),
      overlay(`  - target: $.info
    update: {x-api-catalog-title: Pets API, x-api-catalog-description: Pets., x-logo: {url: "https://example.com/logo.png"}}
  - target: $.paths['/pets'].get
    update: {x-api-catalog-keywords: [animals], x-api-catalog-read-only: true, x-api-catalog-summary: List pets, x-api-catalog-domain: pets, x-api-catalog-name: pets_list, x-internal: true}
  - target: $.paths['/pets/{petId}'].delete
    update: {x-api-catalog-hidden: true, x-api-catalog-destructive: true}
`),
    );
    const r = await importSpec(join(dir, 'pets.yaml'), { overlays: [{ file: join(dir, 'good.yaml') }] });
    expect(unknown(r.diagnostics)).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code.startsWith('EXTENSION_'))).toEqual([]);
  });

  test('CLI: shown in the report and diagnostics.json; --strict fails naming it and keeps the registry', async () => {
    const out = join(dir, 'reg');
    const first = await runCaptured(run, [join(dir, 'pets.yaml'), '--out', out, '--name', 'p']);
    expect(first.code).toBe(0);
    const before = treeSnapshot(out);
    writeFileSync(join(dir, 'hide.yaml'), overlay(`  - target: $.paths['/pets/{petId}'].delete\n    update: {x-api-catalog-hiden: true}\n`));
    const strict = await runCaptured(run, [join(dir, 'pets.yaml'), '--out', out, '--name', 'p', '--overlay', join(dir, 'hide.yaml'), '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--strict and 1 warning(s); first: EXTENSION_UNKNOWN at ');
    expect(strict.stderr).toContain('x-api-catalog-hiden is not a known x-api-catalog-* extension (did you mean x-api-catalog-hidden?); ignored');
    expect(treeSnapshot(out)).toEqual(before);

    const loose = await runCaptured(run, [join(dir, 'pets.yaml'), '--out', out, '--name', 'p', '--overlay', join(dir, 'hide.yaml')]);
    expect(loose.code).toBe(0);
    expect(loose.stdout).toContain('1 warning(s)');
    expect(loose.stdout).toMatch(/ {2}EXTENSION_UNKNOWN \S+: x-api-catalog-hiden is not a known x-api-catalog-\* extension \(did you mean x-api-catalog-hidden\?\); ignored\n/);
    const diagnostics = JSON.parse(readFileSync(join(out, 'p', 'diagnostics.json'), 'utf8')) as Diagnostic[];
    expect(unknown(diagnostics)).toEqual([
      { pointer: '#/paths/~1pets~1{petId}/delete/x-api-catalog-hiden', message: 'x-api-catalog-hiden is not a known x-api-catalog-* extension (did you mean x-api-catalog-hidden?); ignored' },
    ]);
  });
});
