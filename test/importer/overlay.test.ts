// OpenAPI Overlay 1.0 documents: validation (errors name the file, the action and its target) and the semantics of
// update (objects merged recursively, arrays appended) and remove, applied in order with RFC 9535 JSONPath targets.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyOverlay, extendsMismatch, parseOverlay, readOverlay, type Overlay } from '../../src/importer/overlay.js';
import type { Diagnostic } from '../../src/types.js';
import { errorOf } from '../helpers/errors.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('ac-overlay-');

function overlay(actions: string): Overlay {
  return parseOverlay(`overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactions:\n${actions}`, 'o.yaml');
}

function spec(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    tags: [{ name: 'pets' }],
    paths: {
      '/pets': {
        get: { operationId: 'list', summary: 'List pets', tags: ['pets'], parameters: [{ name: 'limit', in: 'query' }, { name: 'dummy', in: 'query' }, { name: 'dummy', in: 'header' }] },
        post: { operationId: 'create', summary: 'Create a pet', responses: { '201': { description: 'Created' } } },
      },
      '/pets/{id}': { delete: { operationId: 'delete', summary: 'Delete a pet' } },
    },
  };
}

describe('parseOverlay: the document is validated, errors name the file and the action', () => {
  test('a valid overlay (YAML or JSON) parses with its actions, sha256 and extends', () => {
    const yaml = 'overlay: 1.0.0\ninfo: { title: Fix, version: "2" }\nextends: ./pets.yaml\nx-team: api\nactions:\n  - target: $.info\n    update: { title: New }\n  - target: $.paths.*.delete\n    remove: true\n';
    const o = parseOverlay(yaml, 'fix.yaml');
    expect(o).toMatchObject({ version: '1.0.0', title: 'Fix', extends: './pets.yaml', file: 'fix.yaml', label: 'fix.yaml' });
    expect(o.actions.map((a) => [a.index, a.target, a.remove])).toEqual([[0, '$.info', false], [1, '$.paths.*.delete', true]]);
    expect(o.sha256).toMatch(/^[0-9a-f]{64}$/);
    const json = parseOverlay(JSON.stringify({ overlay: '1.0.0', info: { title: 'Fix', version: '2' }, actions: [{ target: '$.info', update: { title: 'New' } }] }), 'fix.json');
    expect(json.actions[0]?.update).toEqual({ title: 'New' });
  });

  test.each([
    ['not: [valid', /o\.yaml is neither valid JSON nor YAML/],
    ['- 1\n- 2', /o\.yaml: is not an Overlay document \(its top level is an array/],
    ['info: { title: t, version: "1" }\nactions: [{ target: $, update: {} }]', /o\.yaml: has no `overlay` field; start it with `overlay: 1\.0\.0`/],
    ['overlay: 1.0\ninfo: { title: t, version: "1" }\nactions: [{ target: $, update: {} }]', /`overlay` must be a string such as "1\.0\.0" \(found 1\); quote it/],
    ['overlay: 2.0.0\ninfo: { title: t, version: "1" }\nactions: [{ target: $, update: {} }]', /declares Overlay "2\.0\.0"; supported: Overlay 1\.0\.x/],
    ['overlay: 1.0.0\nactions: [{ target: $, update: {} }]', /needs an `info` object with `title` and `version`/],
    ['overlay: 1.0.0\ninfo: { title: t }\nactions: [{ target: $, update: {} }]', /info\.version must be a string/],
    ['overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactions: []', /`actions` must be a non-empty array/],
    ['overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactoins: []\nactions: [{ target: $, update: {} }]', /has an unknown field "actoins"/],
    ['overlay: 1.0.0\ninfo: { title: t, version: "1" }\nextends: 3\nactions: [{ target: $, update: {} }]', /`extends` must be a string/],
  ])('%j is refused', (text, message) => {
    const err = errorOf(() => parseOverlay(text, 'o.yaml'));
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toMatch(/^import: overlay o\.yaml/);
    expect(err.message).toMatch(message);
  });

  test.each([
    ['  - update: {}', /actions\[0\] needs a `target`/],
    ['  - target: paths\n    update: {}', /actions\[0\] \(target "paths"\) target must be a JSONPath query starting with \$/],
    ["  - target: $.info\n    update: {}\n  - target: $.paths['/pets'\n    update: {}", /actions\[1\] \(target "\$\.paths\['\/pets'"\) target "\$\.paths\['\/pets'" is not a valid RFC 9535 JSONPath \(.+ at character \d+\)/],
    ['  - target: $.paths[?@.a ==]\n    update: {}', /actions\[0\] .* is not a valid RFC 9535 JSONPath \(unexpected end of expression at character \d+\)/],
    ['  - target: $.info', /actions\[0\] \(target "\$\.info"\) does nothing: give it an `update` or `remove: true`/],
    ['  - target: $.info\n    remove: yes please', /actions\[0\] \(target "\$\.info"\) remove must be true or false/],
    ['  - target: $.info\n    remove: true\n    update: {}', /has both `update` and `remove: true`/],
    ['  - target: $.info\n    updte: {}', /actions\[0\] has an unknown field "updte"/],
    ['  - 42', /actions\[0\] must be an object/],
  ])('action %j is refused with its index and target', (actions, message) => {
    const err = errorOf(() => overlay(actions));
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toMatch(message);
  });

  test('readOverlay: a missing file, a folder and an oversized file are clear errors', () => {
    expect(errorOf(() => readOverlay(join(dir, 'nope.yaml'))).message).toMatch(/overlay .*nope\.yaml: cannot be read \(ENOENT\); check the --overlay path/);
    expect(errorOf(() => readOverlay(dir)).message).toMatch(/is not a file/);
    const big = join(dir, 'big.yaml');
    writeFileSync(big, `# ${'x'.repeat(16 * 1024 * 1024)}\n`);
    expect(errorOf(() => readOverlay(big)).message).toMatch(/over the 16777216-byte limit/);
  });

  test('YAML alias bombs are refused in overlays as in specs', () => {
    const bomb = ['overlay: 1.0.0', 'info: { title: t, version: "1" }', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 12; i++) bomb.push(`${'b'.repeat(i + 1)}: &b${i} [${Array(10).fill(i === 0 ? '*a' : `*b${i - 1}`).join(', ')}]`);
    const err = errorOf(() => parseOverlay(bomb.join('\n'), 'bomb.yaml'));
    expect(err.message).toMatch(/too many YAML aliases/);
  });
});

describe('applyOverlay: Overlay 1.0 update and remove semantics', () => {
  test('update merges objects recursively: new properties are added, primitives replaced, nested objects merged', () => {
    const doc = spec();
    const diags: Diagnostic[] = [];
    applyOverlay(doc, overlay("  - target: $.paths['/pets'].get\n    update:\n      summary: List every pet\n      x-api-catalog-keywords: [animals]\n      responses: { '200': { description: OK } }\n  - target: $.paths['/pets'].get\n    update:\n      responses: { '200': { content: {} }, '404': { description: Missing } }"), diags);
    const get = (doc.paths as any)['/pets'].get;
    expect(get.summary).toBe('List every pet');
    expect(get.operationId).toBe('list');
    expect(get['x-api-catalog-keywords']).toEqual(['animals']);
    expect(get.responses).toEqual({ '200': { description: 'OK', content: {} }, '404': { description: 'Missing' } });
    expect(diags).toEqual([]);
  });

  test('arrays: an array property in an update is appended; a target that selects an array gets the value appended', () => {
    const doc = spec();
    applyOverlay(doc, overlay("  - target: $.paths['/pets'].get\n    update: { tags: [animals] }\n  - target: $.paths['/pets'].get.parameters\n    update: { name: page, in: query }\n  - target: $.tags\n    update: [{ name: a }, { name: b }]"), []);
    const get = (doc.paths as any)['/pets'].get;
    expect(get.tags).toEqual(['pets', 'animals']);
    expect(get.parameters.map((p: any) => p.name)).toEqual(['limit', 'dummy', 'dummy', 'page']);
    expect(doc.tags).toEqual([{ name: 'pets' }, { name: 'a' }, { name: 'b' }]);
  });

  test('a wildcard target updates every match, each with its own copy of the update', () => {
    const doc = spec();
    applyOverlay(doc, overlay('  - target: $.paths.*.*\n    update: { x-meta: { seen: [1] } }'), []);
    const ops = [(doc.paths as any)['/pets'].get, (doc.paths as any)['/pets'].post, (doc.paths as any)['/pets/{id}'].delete];
    for (const op of ops) expect(op['x-meta']).toEqual({ seen: [1] });
    ops[0]['x-meta'].seen.push(2);
    expect(ops[1]['x-meta'].seen).toEqual([1]);
  });

  test('remove: from a map, and several items from one array by a filter (indexes stay right)', () => {
    const doc = spec();
    applyOverlay(doc, overlay("  - target: $.paths['/pets/{id}']\n    remove: true\n  - target: $.paths['/pets'].get.parameters[?@.name == 'dummy']\n    remove: true"), []);
    expect(Object.keys(doc.paths as object)).toEqual(['/pets']);
    expect((doc.paths as any)['/pets'].get.parameters).toEqual([{ name: 'limit', in: 'query' }]);
  });

  test('actions apply in order: a removed object can be re-created by a later action', () => {
    const doc = spec();
    applyOverlay(doc, overlay("  - target: $.paths['/pets'].post\n    remove: true\n  - target: $.paths['/pets']\n    update: { post: { operationId: adopt, summary: Adopt a pet } }"), []);
    expect((doc.paths as any)['/pets'].post).toEqual({ operationId: 'adopt', summary: 'Adopt a pet' });
  });

  test('a target that matches nothing is a warning naming the action, and changes nothing', () => {
    const doc = spec();
    const before = JSON.stringify(doc);
    const diags: Diagnostic[] = [];
    applyOverlay(doc, overlay("  - target: $.info\n    update: { x-a: 1 }\n  - target: $.paths['/cats'].get\n    update: { summary: x }"), diags);
    expect(diags).toEqual([
      {
        level: 'warning',
        code: 'OVERLAY_NO_MATCH',
        pointer: 'o.yaml#/actions/1',
        message: "overlay action 1 (target $.paths['/cats'].get) matches nothing in the spec; it did nothing — check the path and method",
      },
    ]);
    expect(JSON.stringify(doc)).toBe(before.replace('"version":"1"}', '"version":"1","x-a":1}'));
  });

  test('an update that cannot apply is an error naming the action: primitive targets, non-object updates, removing the root', () => {
    expect(errorOf(() => applyOverlay(spec(), overlay('  - target: $.info.title\n    update: New'), [])).message).toMatch(
      /overlay o\.yaml: actions\[0\] \(target "\$\.info\.title"\) selects the string "Pets", which Overlay 1\.0 cannot update; select the object that contains it/,
    );
    expect(errorOf(() => applyOverlay(spec(), overlay('  - target: $.info\n    update: New'), [])).message).toMatch(
      /actions\[0\] \(target "\$\.info"\) selects an object, so `update` must be an object of properties to merge \(found the string "New"\)/,
    );
    expect(errorOf(() => applyOverlay(spec(), overlay('  - target: $\n    remove: true'), [])).message).toMatch(/selects the whole document, which cannot be removed/);
  });

  test('keys such as __proto__ in an update are data: Object.prototype is never touched', () => {
    const doc = spec();
    const o = parseOverlay('{"overlay":"1.0.0","info":{"title":"t","version":"1"},"actions":[{"target":"$.info","update":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}]}', 'p.json');
    applyOverlay(doc, o, []);
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.hasOwn(doc.info as object, '__proto__')).toBe(true);
  });

  test('RFC 9535 filters work as targets (json-p3), e.g. every operation tagged pets', () => {
    const doc = spec();
    applyOverlay(doc, overlay("  - target: $.paths.*[?@.tags && @.tags[?@ == 'pets']]\n    update: { x-api-catalog-domain: animals }"), []);
    expect((doc.paths as any)['/pets'].get['x-api-catalog-domain']).toBe('animals');
    expect((doc.paths as any)['/pets'].post['x-api-catalog-domain']).toBeUndefined();
  });

  test('extends naming another spec file is a warning; the same file name (path or URL) is not', () => {
    const o = parseOverlay('overlay: 1.0.0\ninfo: { title: t, version: "1" }\nextends: https://example.com/specs/pets.yaml\nactions: [{ target: $, update: {} }]', 'o.yaml');
    expect(extendsMismatch(o, 'specs/pets.yaml')).toBeUndefined();
    expect(extendsMismatch(o, 'specs/cats.yaml')).toMatchObject({ code: 'OVERLAY_EXTENDS_MISMATCH', pointer: 'o.yaml#/extends' });
  });
});
