// Registry changes under a running server (issue 25 item 7), in process with a real MCP client of each era and a recording
// upstream. The re-import scenario of the issue: an overlay hides an operation and the catalog is re-imported;
// after the reload search, describe and execute agree it is gone, and the search index came with the new
// registry (its snapshot, written before the folder swap). A changed definition voids earlier describes (remembered
// ones and handles) while unchanged operations stay authorized. A broken registry (damaged, gone, or files that
// disagree: an emptied operations file catalog.json still counts) keeps the old version serving and says why. A
// version whose files change under it never mixes them in (REGISTRY_STALE) and asks for the reload.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { createLogger } from '../../src/logger.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { LiveCatalogs, type ServedCatalogs } from '../../src/server/core/reload.js';
import { runCaptured } from '../helpers/cli.js';
import { ERAS, call, connectInMemory, type Connected, type Era } from '../helpers/mcp.js';
import { handlesIn } from '../helpers/describe-handles.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join('test', 'fixtures', 'overlays', 'shop.yaml');
let root = '';
let up: Upstream;

/** Writes an overlay file into the temp folder and returns its path. */
function overlay(name: string, actions: string): string {
  const path = join(root, name);
  writeFileSync(path, `overlay: 1.0.0\ninfo: { title: ${name}, version: "1.0" }\nactions:\n${actions}`);
  return path;
}

/** `api-catalog import` (in process) of the shop spec into <root>/reg/shop, with overlays. */
async function importShop(...overlays: string[]): Promise<void> {
  const r = await runCaptured(importCli, [SPEC, '--name', 'shop', '--out', join(root, 'reg'), ...overlays.flatMap((o) => ['--overlay', o])]);
  expect(r.code, r.stderr).toBe(0);
}

interface Served {
  live: LiveCatalogs;
  c: Connected;
  log: () => Array<Record<string, unknown>>;
}

/** A LiveCatalogs over <root>/reg/shop and a real client of `era` (2026-07-28 or legacy) on it. */
async function serve(era: Era): Promise<Served> {
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l) });
  const dir = join(root, 'reg', 'shop');
  let live: LiveCatalogs | undefined;
  const load = async (onChanged: (d: string) => void): Promise<ServedCatalogs> => ({
    catalogs: loadCatalogSet([dir], { onChanged, logger }),
    settings: { baseUrls: { shop: up.url }, readOnly: false, env: {} },
  });
  const first = await load((d) => live?.changed(d));
  live = new LiveCatalogs(first, { load, logger });
  const c = await connectInMemory({ ...first, live, logger }, { era });
  return { live, c, log: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => up?.close());
beforeEach(async () => {
  root = tempDir('ac-reload-');
  await importShop();
});
afterEach(() => {
  up.clear();
});

const names = (r: { value?: any }): string[] => (r.value.results as Array<{ name: string }>).map((x) => x.name);

describe.each(ERAS)('%s era', (era: Era) => {
  test('the issue\'s re-import: an overlay hides orders_delete; after the reload search, describe and execute agree it is gone', async () => {
    const { live, c, log } = await serve(era);
    try {
      const before = await call(c.client, 'search_tools', { query: 'delete an order' });
      expect(names(before)[0]).toBe('orders_delete');
      expect((await call(c.client, 'describe_tools', { tool_names: ['orders_delete'] })).success).toBe(true);
      const v1 = (await call(c.client, 'list_domains', {})).value.catalogVersion as string;

      await importShop(overlay('hide.yaml', `  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`));
      const outcome = await live.reload('request');
      expect(outcome).toMatchObject({ ok: true, changed: true, previous: v1 });

      const domains = await call(c.client, 'list_domains', {});
      expect(domains.value.catalogVersion).toBe(outcome.version);
      expect(domains.value.catalogVersion).not.toBe(v1);
      expect(domains.value.hiddenTools).toBe(1);
      const after = await call(c.client, 'search_tools', { query: 'delete an order', limit: 25 });
      expect(names(after)).not.toContain('orders_delete');
      expect(JSON.stringify(after)).not.toContain('orders_delete');
      const described = await call(c.client, 'describe_tools', { tool_names: ['orders_delete'] });
      expect(described.error?.code).toBe('UNKNOWN_TOOL');
      // described before the reload: execute still refuses it, as an operation that does not exist
      const executed = await call(c.client, 'execute_tool', { tool_name: 'orders_delete', args: { id: '1' }, confirm: 'orders_delete' });
      expect(executed.error?.code).toBe('UNKNOWN_TOOL');
      expect(up.requests).toHaveLength(0);
      // the search index came with the registry (the import wrote the snapshot before swapping the folder in)
      expect(live.current.catalogs.indexSource?.kind).toBe('snapshot');
      expect(log().find((l) => l.event === 'catalog_reloaded')).toMatchObject({ trigger: 'request', previous: v1, version: outcome.version, changed: true, index: 'snapshot' });
      expect(log().some((l) => l.event === 'search_index' && l.source === 'built')).toBe(false);
    } finally {
      await c.close();
    }
  });

  test('a changed definition voids its describes (remembered and handle); an unchanged operation stays authorized', async () => {
    const { live, c } = await serve(era);
    try {
      const d = await call(c.client, 'describe_tools', { tool_names: ['orders_get', 'orders_list'] });
      const handle = d.value.tools.find((t: { name: string }) => t.name === 'orders_get').example.handle as string;
      // a legacy connection remembers the describe; a 2026-07-28 one remembers nothing, so its client passes the handle
      const proof = (h: string | undefined): { handle?: string } => (era === 'modern' && h !== undefined ? { handle: h } : {});
      expect((await call(c.client, 'execute_tool', { tool_name: 'orders_get', args: { id: '1' }, ...proof(handle) })).success).toBe(true);

      await importShop(overlay('change.yaml', `  - target: "$.paths['/orders/{id}'].get"\n    update:\n      parameters:\n        - { name: expand, in: query, required: true, schema: { type: string } }\n`));
      expect((await live.reload('request')).ok).toBe(true);

      const remembered = await call(c.client, 'execute_tool', { tool_name: 'orders_get', args: { id: '1', expand: 'items' } });
      expect(remembered.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      const byHandle = await call(c.client, 'execute_tool', { tool_name: 'orders_get', args: { id: '1', expand: 'items' }, handle });
      expect(byHandle.error).toMatchObject({ code: 'TOOL_DESCRIPTION_REQUIRED', details: { reason: 'mismatch' } });
      expect(up.requests).toHaveLength(1);
      // untouched by the change: still described
      expect((await call(c.client, 'execute_tool', { tool_name: 'orders_list', args: {}, ...proof(handlesIn(d).orders_list) })).success).toBe(true);
      // describing the new definition authorizes it again
      const again = await call(c.client, 'describe_tools', { tool_names: ['orders_get'] });
      expect(again.value.tools[0].parameters.expand).toBe('string, required');
      expect((await call(c.client, 'execute_tool', { tool_name: 'orders_get', args: { id: '1', expand: 'items' }, ...proof(handlesIn(again).orders_get) })).success).toBe(true);
      expect(up.requests.map((r) => r.url)).toEqual(['/orders/1', '/orders', '/orders/1?expand=items']);
    } finally {
      await c.close();
    }
  });

  describe('a reload that fails keeps the old version serving and says why', () => {
    test.each([
      ['catalog.json is not JSON', (dir: string) => writeFileSync(join(dir, 'catalog.json'), '{ "formatVersion": 1, '), /catalog\.json is not valid JSON; re-run the import/],
      [
        'an operations file is damaged (its snapshot no longer matches, so the index is built from the files)',
        (dir: string) => writeFileSync(join(dir, 'operations', 'orders.json'), '[{"name": "orders_get"'),
        /operations\/orders\.json is not valid JSON; re-run the import/,
      ],
      ['the folder is gone', (dir: string) => rmSync(dir, { recursive: true, force: true }), /reg\/shop does not exist; build a catalog with `api-catalog import/],
      [
        'an operations file is emptied while catalog.json still counts its operations (the files disagree)',
        (dir: string) => writeFileSync(join(dir, 'operations', 'orders.json'), '[]\n'),
        /the registry's files disagree: \S+\/reg\/shop\/operations\/orders\.json holds 0 operations, but \S+\/reg\/shop\/catalog\.json counts 5 in domain "orders" \(9 in all\); refusing to serve it/,
      ],
    ] as const)('%s', async (what, breakIt, reason) => {
      const { live, c, log } = await serve(era);
      try {
        const v1 = live.version;
        // orders.json is read by this version now; customers.json is not
        const deleteDescribed = await call(c.client, 'describe_tools', { tool_names: ['orders_delete'] });
        expect(deleteDescribed.success).toBe(true);
        // a copy of the good registry, to put back afterwards
        cpSync(join(root, 'reg', 'shop'), join(root, 'good'), { recursive: true });
        breakIt(join(root, 'reg', 'shop'));
        const outcome = await live.reload('signal');
        expect(outcome).toMatchObject({ ok: false, version: v1 });
        expect(outcome.ok === false && outcome.reason).toMatch(reason);
        const failed = log().find((l) => l.event === 'catalog_reload_failed');
        expect(failed).toMatchObject({ trigger: 'signal', serving: v1, code: what === 'the folder is gone' ? 'REGISTRY_NOT_FOUND' : 'REGISTRY_INVALID' });
        expect(String(failed?.reason)).toMatch(reason);
        // kept for /readyz until a reload succeeds
        expect(live.lastFailure).toMatchObject({ trigger: 'signal', serving: v1, code: failed?.code, reason: expect.stringMatching(reason) });
        // the old version answers, whole
        expect(live.version).toBe(v1);
        expect((await call(c.client, 'list_domains', {})).value.catalogVersion).toBe(v1);
        expect(names(await call(c.client, 'search_tools', { query: 'delete an order' }))[0]).toBe('orders_delete');
        // (each execute_tool with its describe handle, which a 2026-07-28 connection requires)
        const deleteCall = { tool_name: 'orders_delete', args: { id: '7' }, confirm: 'orders_delete', handle: handlesIn(deleteDescribed).orders_delete };
        expect((await call(c.client, 'execute_tool', deleteCall)).success).toBe(true);
        const d = await call(c.client, 'describe_tools', { tool_names: ['customers_get'] });
        if (what === 'the folder is gone') {
          // a file this version never read and that is gone cannot be answered from: refused, never guessed
          expect(d.error?.code).toBe('REGISTRY_STALE');
        } else {
          // customers.json was never read by this version and is still the file it loaded: described
          expect(d.success, JSON.stringify(d)).toBe(true);
          expect((await call(c.client, 'execute_tool', { tool_name: 'customers_get', args: { id: '7' }, handle: handlesIn(d).customers_get })).success).toBe(true);
        }
        // fixed on disk: the next reload succeeds
        rmSync(join(root, 'reg', 'shop'), { recursive: true, force: true });
        cpSync(join(root, 'good'), join(root, 'reg', 'shop'), { recursive: true });
        expect(await live.reload('signal')).toMatchObject({ ok: true });
        expect(live.lastFailure).toBeUndefined();
      } finally {
        await c.close();
      }
    });
  });

  test('a version whose files were replaced never mixes them in: REGISTRY_STALE with a retry, a reload, then the new version answers', async () => {
    const { live, c, log } = await serve(era);
    try {
      const v1 = live.version;
      // customers.json has not been read by this version; a re-import replaces the whole folder
      await importShop(overlay('hide-customer.yaml', `  - target: "$.paths['/customers/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`));
      const stale = await call(c.client, 'describe_tools', { tool_names: ['customers_get'] });
      expect(stale.error?.code).toBe('REGISTRY_STALE');
      expect(stale.error?.message).toMatch(/customers\.json changed on disk after this catalog was loaded/);
      expect(stale.instruction).toMatch(/retry the same call in a few seconds/);
      const deadline = Date.now() + 10_000;
      while (live.reloadCount === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(live.reloadCount).toBe(1);
      expect(log().find((l) => l.event === 'catalog_reloaded')).toMatchObject({ trigger: 'changed', previous: v1 });
      expect((await call(c.client, 'describe_tools', { tool_names: ['customers_get'] })).success).toBe(true);
      expect((await call(c.client, 'describe_tools', { tool_names: ['customers_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
    } finally {
      await c.close();
    }
  });

  test('reloads coalesce: asks made while one runs get one more run after it, and the last state on disk wins', async () => {
    const { live, c } = await serve(era);
    try {
      await importShop(overlay('hide.yaml', `  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`));
      const first = live.reload('request');
      const [second, third] = await Promise.all([live.reload('signal'), live.reload('watch')]);
      expect((await first).ok).toBe(true);
      // one run for both, after the first
      expect(second).toBe(third);
      expect(second).toMatchObject({ ok: true, trigger: 'signal' });
      expect(live.reloadCount).toBe(2);
      expect((await call(c.client, 'describe_tools', { tool_names: ['orders_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
    } finally {
      await c.close();
    }
  });
});
