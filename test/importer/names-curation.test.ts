// Names people can live with, at import: `x-api-catalog-name` renames an operation's tool name (recorded in
// catalog.json `renamed`, collisions refused naming both operations), and the catalog's display name and description
// come from `import --title/--description`, else `info.x-api-catalog-title/-description` (spec or overlay), else
// `info.title/description`; the CLI records the flags, `--check` re-applies them, a re-import without them says so.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { toolNameProblem } from '../../src/importer/curation.js';
import { importSpec } from '../../src/importer/index.js';
import type { CatalogMeta } from '../../src/types.js';
import { runCaptured, treeSnapshot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
let reg = '';
beforeEach(() => {
  dir = tempDir('ac-names-');
  reg = join(dir, 'registry');
  cpSync('test/fixtures/overlays/shop.yaml', join(dir, 'shop.yaml'));
});

const cli = (args: string[]) => runCaptured(run, args);
const meta = (): CatalogMeta => JSON.parse(readFileSync(join(reg, 'shop', 'catalog.json'), 'utf8')) as CatalogMeta;

/** An overlay file with the given actions (YAML lines, already indented under `actions:`). */
function overlay(file: string, actions: string): string {
  const path = join(dir, file);
  writeFileSync(path, `overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n${actions}`);
  return path;
}

const rename = (target: string, name: string): string => `  - target: ${target}\n    update: { x-api-catalog-name: ${JSON.stringify(name)} }\n`;

describe('x-api-catalog-name', () => {
  test('renames the tool name; the operationId stays; catalog.json records former -> new; no other name moves', async () => {
    const file = overlay('names.yaml', rename("$.paths['/orders/{id}/refund'].post", 'orders_refund-payment') + rename("$.paths['/customers'].get", 'customers_browse'));
    const plain = await importSpec(join(dir, 'shop.yaml'));
    const r = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file }] });
    const by = new Map(r.operations.map((op) => [op.operationId, op]));
    expect(by.get('orders/refund')?.name).toBe('orders_refund-payment');
    expect(by.get('customers/list')?.name).toBe('customers_browse');
    expect(r.meta.renamed).toEqual({ customers_list: 'customers_browse', orders_refund: 'orders_refund-payment' });
    // every other operation keeps the name it had without the overlay
    const others = (ops: typeof r.operations) => ops.filter((o) => !['orders/refund', 'customers/list'].includes(o.operationId)).map((o) => o.name);
    expect(others(r.operations)).toEqual(others(plain.operations));
    // operations stay sorted by their (new) name
    expect(r.operations.map((o) => o.name)).toEqual([...r.operations.map((o) => o.name)].sort());
    expect(r.diagnostics.filter((d) => d.level === 'warning')).toEqual([]);
    // without renames catalog.json has no `renamed` key (existing registries stay byte-identical)
    expect(Object.keys(plain.meta)).not.toContain('renamed');
  });

  test('set in the spec itself works the same; two operations may swap names', async () => {
    const spec = readFileSync(join(dir, 'shop.yaml'), 'utf8')
      .replace('operationId: orders/list', 'operationId: orders/list\n      x-api-catalog-name: orders_create')
      .replace('operationId: orders/create', 'operationId: orders/create\n      x-api-catalog-name: orders_list');
    writeFileSync(join(dir, 'shop.yaml'), spec);
    const r = await importSpec(join(dir, 'shop.yaml'));
    const by = new Map(r.operations.map((op) => [op.operationId, op.name]));
    expect([by.get('orders/list'), by.get('orders/create')]).toEqual(['orders_create', 'orders_list']);
    expect(r.meta.renamed).toEqual({ orders_create: 'orders_list', orders_list: 'orders_create' });
  });

  test('a name another operation already has is refused, naming both operations and the fix', async () => {
    const file = overlay('clash.yaml', rename("$.paths['/orders/{id}'].get", 'orders_list'));
    await expect(importSpec(join(dir, 'shop.yaml'), { overlays: [{ file }] })).rejects.toThrow(
      'import: x-api-catalog-name "orders_list" on GET /orders/{id} (operationId orders/get) is already the name of GET /orders (operationId orders/list); choose another name, or rename that operation too with x-api-catalog-name',
    );
  });

  test('one name given to two operations is refused, naming both', async () => {
    const file = overlay('twice.yaml', rename("$.paths['/orders'].get", 'list_things') + rename("$.paths['/customers'].get", 'list_things'));
    await expect(importSpec(join(dir, 'shop.yaml'), { overlays: [{ file }] })).rejects.toMatchObject({
      code: 'SPEC_INVALID',
      message: 'import: x-api-catalog-name "list_things" is given to two operations, GET /customers (operationId customers/list) and GET /orders (operationId orders/list); give each its own name',
    });
  });

  test('a hidden operation frees its name; the CLI refuses a collision and writes nothing', async () => {
    // admin_purge-cache is hidden, so another operation may take its name
    const free = overlay('free.yaml', "  - target: $.paths['/admin/cache'].delete\n    update: { x-api-catalog-hidden: true }\n" + rename("$.paths['/orders/{id}'].delete", 'admin_purge-cache'));
    const r = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file: free }] });
    expect(r.operations.find((o) => o.operationId === 'orders/delete')?.name).toBe('admin_purge-cache');
    expect((await cli([join(dir, 'shop.yaml'), '--out', reg])).code).toBe(0);
    const before = treeSnapshot(reg);
    const clash = overlay('clash.yaml', rename("$.paths['/orders/{id}'].get", 'customers_get'));
    const failed = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', clash]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      'api-catalog import: x-api-catalog-name "customers_get" on GET /orders/{id} (operationId orders/get) is already the name of GET /customers/{id} (operationId customers/get); choose another name, or rename that operation too with x-api-catalog-name\n',
    );
    expect(treeSnapshot(reg)).toEqual(before);
  });

  test('a value that is not a tool name is a warning with a suggestion, and is ignored', async () => {
    const file = overlay('bad.yaml', rename("$.paths['/orders'].get", 'list all orders') + "  - target: $.paths['/customers'].get\n    update: { x-api-catalog-name: 7 }\n");
    const r = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file }] });
    const warnings = r.diagnostics.filter((d) => d.code === 'EXTENSION_INVALID');
    expect(warnings.map((d) => [d.pointer, d.message])).toEqual([
      ['#/paths/~1customers/get/x-api-catalog-name', 'x-api-catalog-name must be a tool name such as "contacts_list" (found 7); ignored'],
      [
        '#/paths/~1orders/get/x-api-catalog-name',
        'x-api-catalog-name must be a tool name of letters, digits, _, . and - (at most 64 characters, not starting or ending with _ . -), e.g. "list_all_orders"; found "list all orders"; ignored',
      ],
    ]);
    expect(r.operations.find((o) => o.operationId === 'orders/list')?.name).toBe('orders_list');
    expect(r.meta.renamed).toBeUndefined();
  });

  test('toolNameProblem accepts what the importer itself would produce and nothing else', () => {
    for (const ok of ['contacts_list', 'a', 'issues_create-comment', 'v2.users.get', 'x'.repeat(64)]) expect(toolNameProblem(ok), ok).toBeUndefined();
    for (const bad of ['', '_private', 'trailing-', 'two  spaces', 'ümlaut', 'x'.repeat(65), null, ['a']]) expect(toolNameProblem(bad), String(bad)).toBeDefined();
  });
});

describe('catalog display name and description', () => {
  test('precedence: import title/description, then info.x-api-catalog-*, then info.title/description', async () => {
    const plain = await importSpec(join(dir, 'shop.yaml'));
    expect([plain.meta.title, plain.meta.description]).toEqual(['Shop API', '']);
    const file = overlay('info.yaml', "  - target: $.info\n    update:\n      x-api-catalog-title: The Shop\n      x-api-catalog-description: \"Orders, refunds and customers of the shop.\\n\\nSecond paragraph.\"\n");
    const curated = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file }] });
    expect([curated.meta.title, curated.meta.description]).toEqual(['The Shop', 'Orders, refunds and customers of the shop.']);
    expect(curated.meta.importArgs).toBeUndefined();
    const flagged = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file }], title: '  Shop   for agents ', description: 'Everything a shop does.' });
    expect([flagged.meta.title, flagged.meta.description]).toEqual(['Shop for agents', 'Everything a shop does.']);
    expect(flagged.meta.importArgs).toEqual({ title: 'Shop for agents', description: 'Everything a shop does.' });
    await expect(importSpec(join(dir, 'shop.yaml'), { title: '<b></b>' })).rejects.toThrow(/--title is empty; give the catalog's display name/);
  });

  test('an info extension that is not a non-empty string is a warning and is ignored', async () => {
    const file = overlay('bad-info.yaml', "  - target: $.info\n    update: { x-api-catalog-title: '', x-api-catalog-description: [1] }\n");
    const r = await importSpec(join(dir, 'shop.yaml'), { overlays: [{ file }] });
    expect(r.meta.title).toBe('Shop API');
    expect(r.diagnostics.filter((d) => d.code === 'EXTENSION_INVALID').map((d) => d.pointer)).toEqual(['#/info/x-api-catalog-description', '#/info/x-api-catalog-title']);
  });

  test('CLI: --title/--description are recorded; --check re-applies them; a re-import without them is a reported change', async () => {
    const first = await cli([join(dir, 'shop.yaml'), '--out', reg, '--title', "Bob's Shop", '--description', 'Orders and customers.']);
    expect(first.code).toBe(0);
    expect(meta()).toMatchObject({ title: "Bob's Shop", description: 'Orders and customers.', importArgs: { title: "Bob's Shop", description: 'Orders and customers.' } });

    const check = await cli([join(dir, 'shop.yaml'), '--out', reg, '--check']);
    expect(check.stderr).toMatch(/re-applying the --title and --description catalog\.json records/);
    expect(check.code).toBe(0);

    // another title is stale, and the fix command quotes it for the shell
    const other = await cli([join(dir, 'shop.yaml'), '--out', reg, '--check', '--title', 'Another Shop']);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/is stale \(changed: catalog\.json\); run `(?:node \S+|npx api-catalog|api-catalog) import .*shop\.yaml --out .* --title 'Another Shop' --description 'Orders and customers\.'`/);

    const without = await cli([join(dir, 'shop.yaml'), '--out', reg]);
    expect(without.code).toBe(0);
    expect(without.stdout).toContain('catalog display name changed: "Bob\'s Shop" -> "Shop API" (the previous import set it with --title; pass --title to keep it)');
    expect(without.stdout).toContain('catalog description changed: "Orders and customers." -> "" (the previous import set it with --description; pass --description to keep it)');
    expect(meta().importArgs).toBeUndefined();

    const renamed = overlay('names.yaml', rename("$.paths['/customers'].get", 'customers_browse'));
    const again = await cli([join(dir, 'shop.yaml'), '--out', reg, '--overlay', renamed]);
    expect(again.stdout).toContain('1 operation(s) renamed (x-api-catalog-name): customers_list -> customers_browse');
  });

  test('CLI: an empty --title is a usage error (exit 2) naming the flag', async () => {
    const r = await cli([join(dir, 'shop.yaml'), '--out', reg, '--title', '  ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('api-catalog import: --title needs a non-empty value, e.g. --title "SendGrid v3"\n');
  });
});
