// `import --overlay` end to end (in-process CLI and importSpec, temporary folders): the x-api-catalog-* extensions,
// overlays recorded in catalog.json, `--check` re-applying them, re-imports without them reported as a change,
// --strict on a target that matches nothing, and a broken overlay never leaving a half-written registry.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { importSpec } from '../../src/importer/index.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import type { CatalogMeta } from '../../src/types.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const FIXTURES = 'test/fixtures/overlays';
let dir = '';
let reg = '';
beforeEach(() => {
  dir = tempDir('ac-ovl-import-');
  reg = join(dir, 'registry');
  cpSync(join(FIXTURES, 'shop.yaml'), join(dir, 'shop.yaml'));
  cpSync(join(FIXTURES, 'shop-curation.yaml'), join(dir, 'curation.yaml'));
});
const cli = (args: string[]) => runCaptured(run, args);


const meta = (): CatalogMeta => JSON.parse(readFileSync(join(reg, 'shop', 'catalog.json'), 'utf8')) as CatalogMeta;

describe('x-api-catalog-* extensions set by an overlay', () => {
  test('hidden, summary, keywords (array and comma string), domain and destructive shape the registry', async () => {
    const r = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file: join(dir, 'curation.yaml'), label: 'curation.yaml' }] });
    const by = new Map(r.operations.map((op) => [op.operationId, op]));
    // hidden: dropped, counted, and nothing else renamed
    expect(by.has('admin/purge-cache')).toBe(false);
    expect(r.meta.hiddenOperations).toBe(1);
    expect(r.meta.operationCount).toBe(8);
    expect(r.meta.domains.map((d) => d.name)).toEqual(['customers', 'gdpr', 'orders']);
    // summary, keywords, destructive
    expect(by.get('orders/refund')).toMatchObject({ summary: 'Give a customer their money back for an order', keywords: ['chargeback', 'money back'], destructive: true });
    expect(by.get('orders/create')?.keywords).toEqual(['checkout', 'purchase']);
    // domain
    expect(by.get('customers/delete')?.domain).toBe('gdpr');
    // untouched operations carry no keywords key at all (existing registries stay byte-identical)
    expect(Object.hasOwn(by.get('orders/list') as object, 'keywords')).toBe(false);
    expect(r.meta.overlays).toEqual([{ path: 'curation.yaml', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(r.diagnostics.filter((d) => d.level === 'warning')).toEqual([]);
  });

  test('without overlays nothing changes: no overlays, hiddenOperations or keywords keys', async () => {
    const r = await importSpec(join(dir, 'shop.yaml'));
    expect(Object.keys(r.meta)).not.toContain('overlays');
    expect(Object.keys(r.meta)).not.toContain('hiddenOperations');
    expect(r.operations.some((op) => Object.hasOwn(op, 'keywords'))).toBe(false);
    expect(r.operations.map((op) => op.operationId)).toContain('admin/purge-cache');
  });

  test('x-api-catalog-destructive: false clears DELETE destructiveness; set in the spec itself works too', async () => {
    const spec = readFileSync(join(dir, 'shop.yaml'), 'utf8').replace('operationId: orders/delete', 'operationId: orders/delete\n      x-api-catalog-destructive: false');
    writeFileSync(join(dir, 'shop.yaml'), spec);
    const r = await importSpec(join(dir, 'shop.yaml'));
    const by = new Map(r.operations.map((op) => [op.operationId, op]));
    expect(by.get('orders/delete')?.destructive).toBe(false);
    expect(by.get('customers/delete')?.destructive).toBe(true);
  });

  test('hiding an operation never renames another (names are assigned before hidden ones are dropped)', async () => {
    // Two operations that share an operationId: the second is named _2. Hiding the first keeps the second's name.
    const spec = readFileSync(join(dir, 'shop.yaml'), 'utf8').replace('operationId: customers/get', 'operationId: customers/list');
    writeFileSync(join(dir, 'shop.yaml'), spec);
    writeFileSync(join(dir, 'hide.yaml'), "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.paths['/customers'].get\n    update: { x-api-catalog-hidden: true }\n");
    const before = await importSpec(join(dir, 'shop.yaml'));
    const after = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file: join(dir, 'hide.yaml') }] });
    const nameOf = (ops: typeof before.operations): string | undefined => ops.find((o) => o.path === '/customers/{id}' && o.method === 'get')?.name;
    expect(nameOf(before.operations)).toBe('customers_list_2');
    expect(nameOf(after.operations)).toBe('customers_list_2');
    expect(after.operations.find((o) => o.name === 'customers_list')).toBeUndefined();
  });

  test('invalid extension values are warnings naming the extension, and are ignored', async () => {
    writeFileSync(
      join(dir, 'bad.yaml'),
      "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.paths['/orders'].get\n    update:\n      x-api-catalog-hidden: 'yes'\n      x-api-catalog-keywords: { a: 1 }\n      x-api-catalog-domain: '***'\n      x-api-catalog-destructive: 1\n      x-api-catalog-summary: ''\n      x-api-catalog-read-only: 'no'\n",
    );
    const r = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file: join(dir, 'bad.yaml') }] });
    const warnings = r.diagnostics.filter((d) => d.code === 'EXTENSION_INVALID').map((d) => d.pointer);
    expect(warnings).toEqual([
      '#/paths/~1orders/get/x-api-catalog-destructive',
      '#/paths/~1orders/get/x-api-catalog-domain',
      '#/paths/~1orders/get/x-api-catalog-hidden',
      '#/paths/~1orders/get/x-api-catalog-keywords',
      '#/paths/~1orders/get/x-api-catalog-read-only',
      '#/paths/~1orders/get/x-api-catalog-summary',
    ]);
    const op = r.operations.find((o) => o.operationId === 'orders/list');
    expect(op).toMatchObject({ summary: 'List orders', domain: 'orders', destructive: false, readOnly: true });
    await expect(importSpec(join(dir, 'shop.yaml'), { overlays: [{ file: join(dir, 'bad.yaml') }], strict: true })).rejects.toThrow(/--strict and 6 warning\(s\)/);
  });

  test('a summary longer than a level-1 summary is shortened with a warning', async () => {
    writeFileSync(join(dir, 'long.yaml'), "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.paths['/orders'].get\n    update: { x-api-catalog-summary: 'one two three four five six seven eight nine ten eleven twelve thirteen' }\n");
    const r = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file: join(dir, 'long.yaml') }] });
    expect(r.operations.find((o) => o.operationId === 'orders/list')?.summary).toBe('one two three four five six seven eight nine ten eleven twelve…');
    expect(r.diagnostics.map((d) => d.code)).toContain('EXTENSION_SUMMARY_SHORTENED');
  });
});

describe('import --overlay (CLI)', () => {
  test('records the overlay (path relative to the catalog folder, sha256); --check re-applies it; a re-import without it is a reported change', async () => {
    const first = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'curation.yaml')]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/imported 8 operations in 3 domains/);
    expect(first.stdout).toMatch(/1 operation\(s\) hidden \(x-api-catalog-hidden\)/);
    const sha = (await import('node:crypto')).createHash('sha256').update(readFileSync(join(dir, 'curation.yaml'))).digest('hex');
    expect(meta().overlays).toEqual([{ path: '../../curation.yaml', sha256: sha }]);
    expect(meta().hiddenOperations).toBe(1);

    // --check without --overlay re-applies the recorded overlay: up to date
    const check = await cli([join(dir, 'shop.yaml'), '--out', reg, '--check']);
    expect(check.stderr).toMatch(/re-applying the overlays catalog\.json records/);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/is up to date/);

    // the overlay's content changes: --check says stale and names the command with the overlay
    writeFileSync(join(dir, 'curation.yaml'), readFileSync(join(dir, 'curation.yaml'), 'utf8').replace('[chargeback, money back]', '[chargeback]'));
    const stale = await cli([join(dir, 'shop.yaml'), '--out', reg, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/is stale \(changed: catalog\.json, operations\/orders\.json\); run `(?:node \S+|npx api-catalog|api-catalog) import .*shop\.yaml --out .* --overlay .*curation\.yaml`/);

    // a re-import without the overlay is a change, said in so many words
    const without = await cli([join(dir, 'shop.yaml'), '--out', reg]);
    expect(without.code).toBe(0);
    expect(without.stdout).toMatch(/admin: \+1 \(admin_purge-cache\)/);
    expect(without.stdout).toMatch(/overlay no longer applied: .*curation\.yaml \(the previous import used it; pass --overlay to keep it\)/);
    expect(meta().overlays).toBeUndefined();
    expect(meta().hiddenOperations).toBeUndefined();

    // and with it again, the overlay is "newly applied"
    const again = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'curation.yaml')]);
    expect(again.stdout).toMatch(/overlay newly applied: .*curation\.yaml/);
  });

  test('--check with a recorded overlay that is gone names it', async () => {
    await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'curation.yaml')]);
    rmSync(join(dir, 'curation.yaml'));
    const check = await cli([join(dir, 'shop.yaml'), '--out', reg, '--check']);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/catalog\.json records the overlay \.\.\/\.\.\/curation\.yaml \(.*curation\.yaml\), which is missing; restore it/);
  });

  test('--check with explicit --overlay uses exactly those: leaving one out makes the registry stale', async () => {
    await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'curation.yaml')]);
    writeFileSync(join(dir, 'extra.yaml'), "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.info\n    update: { title: Shop }\n");
    const check = await cli([join(dir, 'shop.yaml'), '--out', reg, '--check', '--overlay', join(dir, 'extra.yaml')]);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/is stale/);
  });

  test('several overlays apply in order', async () => {
    writeFileSync(join(dir, 'a.yaml'), "overlay: 1.0.0\ninfo: { title: a, version: '1' }\nactions:\n  - target: $.paths['/orders'].get\n    update: { x-api-catalog-summary: First }\n");
    writeFileSync(join(dir, 'b.yaml'), "overlay: 1.0.0\ninfo: { title: b, version: '1' }\nactions:\n  - target: $.paths['/orders'].get\n    update: { x-api-catalog-summary: Second }\n");
    expect((await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'a.yaml'), '--overlay', join(dir, 'b.yaml')])).code).toBe(0);
    const orders = loadCatalog(join(reg, 'shop')).byName.get('orders_list');
    expect(orders?.summary).toBe('Second');
    expect(meta().overlays?.map((o) => o.path)).toEqual(['../../a.yaml', '../../b.yaml']);
  });

  test('a target that matches nothing: a warning naming the action; with --strict a failure that writes nothing', async () => {
    writeFileSync(join(dir, 'miss.yaml'), "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.info\n    update: { x-a: 1 }\n  - target: $.paths['/ordrs'].get\n    update: { x-api-catalog-hidden: true }\n");
    const warned = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'miss.yaml')]);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toMatch(/1 warning\(s\)/);
    expect(warned.stdout).toMatch(/OVERLAY_NO_MATCH .*miss\.yaml#\/actions\/1: overlay action 1 \(target \$\.paths\['\/ordrs'\]\.get\) matches nothing in the spec/);
    const before = treeSnapshot(reg);
    const strict = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'miss.yaml'), '--strict', '--name', 'shop']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/--strict and 1 warning\(s\); first: OVERLAY_NO_MATCH at .*miss\.yaml#\/actions\/1/);
    expect(treeSnapshot(reg)).toEqual(before);
  });

  test('a broken overlay (bad JSONPath, bad YAML, an update that cannot apply) fails naming it and leaves the previous registry byte-identical', async () => {
    expect((await cli([join(dir, 'shop.yaml'), '--out', reg])).code).toBe(0);
    const before = treeSnapshot(reg);
    const cases: Array<[string, RegExp]> = [
      ["overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.info\n    update: { x-a: 1 }\n  - target: $.paths['/orders'.get\n    update: {}\n", /overlay .*broken\.yaml: actions\[1\] \(target "\$\.paths\['\/orders'\.get"\) target .* is not a valid RFC 9535 JSONPath/],
      ['overlay: 1.0.0\ninfo: [unclosed\n', /overlay .*broken\.yaml is neither valid JSON nor YAML/],
      ["overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.info\n    update: { x-a: 1 }\n  - target: $.info.title\n    update: New\n", /actions\[1\] \(target "\$\.info\.title"\) selects the string "Shop API", which Overlay 1\.0 cannot update/],
    ];
    for (const [text, message] of cases) {
      writeFileSync(join(dir, 'broken.yaml'), text);
      const r = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'broken.yaml')]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(treeSnapshot(reg)).toEqual(before);
    }
    expect((await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'nope.yaml')])).stderr).toMatch(/overlay .*nope\.yaml: cannot be read \(ENOENT\)/);
    expect(treeSnapshot(reg)).toEqual(before);
  });

  test('an overlay that breaks the OpenAPI version, or hides everything, is refused', async () => {
    writeFileSync(join(dir, 'v.yaml'), "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $\n    update: { openapi: '4.0.0' }\n");
    const v = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'v.yaml')]);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/shop\.yaml after its overlays declares OpenAPI "4\.0\.0"/);
    writeFileSync(join(dir, 'all.yaml'), "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.paths.*.*\n    update: { x-api-catalog-hidden: true }\n");
    const all = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'all.yaml')]);
    expect(all.code).toBe(1);
    expect(all.stderr).toMatch(/every operation of .*shop\.yaml is marked x-api-catalog-hidden; nothing to serve/);
  });

  test('an overlay cannot smuggle in an external $ref: what it adds passes the same confinement as the spec', async () => {
    writeFileSync(join(dir, 'ref.yaml'), "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.paths['/orders'].get\n    update: { responses: { '200': { $ref: '/etc/passwd' } } }\n");
    const r = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', join(dir, 'ref.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\$ref .*\/etc\/passwd.* (leaves the spec's folder|outside)/);
  });
});
