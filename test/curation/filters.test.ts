// Serve-time filters (`serve --include-domains/--exclude-domains/--exclude-tools` and their env vars), through a real
// MCP client of each era (2026-07-28 and legacy): a filtered operation is never listed, searched, described, executed or suggested; bad filters stop the
// start with a clear message (did-you-mean for domains). Also the hidden count list_domains reports.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/args.js';
import { resolveServerConfig } from '../../src/config.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import type { CatalogFilters } from '../../src/server/core/filters.js';
import { ERAS, builtCli, call, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';
import { errorOf } from '../helpers/errors.js';
import { tempDir } from '../helpers/temp.js';

const FIXTURES = 'test/fixtures/overlays';
let root = '';
let plain = '';
let curated = '';

beforeAll(async () => {
  root = tempDir('ac-filters-');
  writeRegistry(await importSpec(join(FIXTURES, 'shop.yaml')), join(root, 'plain'));
  writeRegistry(await importSpec(join(FIXTURES, 'shop.yaml'), { overlays: [{ file: join(FIXTURES, 'shop-curation.yaml') }] }), join(root, 'curated'));
  plain = join(root, 'plain', 'shop');
  curated = join(root, 'curated', 'shop');
});

async function connect(era: Era, dirs: string[], filters?: CatalogFilters): Promise<Connected> {
  return connectInMemory({ catalogs: loadCatalogSet(dirs, { filters }) }, { era });
}

describe.each(ERAS)('%s era', (era: Era) => {
  describe('filtered operations behave like nonexistent ones', () => {
    test('--exclude-domains and --exclude-tools: not listed, searched, described, executed or suggested', async () => {
      const c = await connect(era, [plain], { excludeDomains: ['customers'], excludeTools: ['orders_delete'] });
      try {
        const domains = await call(c.client, 'list_domains', {});
        expect(domains.value.domains.map((d: { name: string; toolCount: number }) => [d.name, d.toolCount])).toEqual([['admin', 1], ['orders', 4]]);
        expect(domains.value.totalTools).toBe(5);
        expect(domains.value.hiddenTools).toBe(4);
        expect(JSON.stringify(domains)).not.toMatch(/customers_|orders_delete/);

        const search = await call(c.client, 'search_tools', { query: 'delete', limit: 25 });
        const names = search.value.results.map((r: { name: string }) => r.name);
        expect(names).toContain('admin_purge-cache');
        expect(names).not.toContain('orders_delete');
        expect(names.some((n: string) => n.startsWith('customers_'))).toBe(false);

        const browse = await call(c.client, 'search_tools', { domain: 'customers' });
        expect(browse.error?.code).toBe('UNKNOWN_DOMAIN');

        const described = await call(c.client, 'describe_tools', { tool_names: ['orders_delete'] });
        expect(described.error?.code).toBe('UNKNOWN_TOOL');
        const suggested = (e: typeof described): string[] => e.error?.details.tools.flatMap((t: { error: { suggestions: string[] } }) => t.error.suggestions);
        expect(suggested(described)).not.toContain('orders_delete');
        expect(suggested(described)).not.toContain('customers_delete');
        const nearly = await call(c.client, 'describe_tools', { tool_names: ['customers_delet'] });
        expect(nearly.error?.code).toBe('UNKNOWN_TOOL');
        expect(suggested(nearly)).not.toContain('customers_delete');
        // the same misspelling of a kept operation is suggested, so the check above can fail
        expect(suggested(await call(c.client, 'describe_tools', { tool_names: ['orders_gett'] }))).toContain('orders_get');

        const executed = await call(c.client, 'execute_tool', { tool_name: 'orders_delete', args: { id: '1' } });
        expect(executed.error?.code).toBe('UNKNOWN_TOOL');
        expect(JSON.stringify(executed.error?.details?.suggestions ?? [])).not.toMatch(/orders_delete|customers_delete/);

        const kept = await call(c.client, 'describe_tools', { tool_names: ['orders_get'] });
        expect(kept.success).toBe(true);
      } finally {
        await c.close();
      }
    });

    test('--include-domains keeps only those; globs match operationIds too', async () => {
      const c = await connect(era, [plain], { includeDomains: ['orders'], excludeTools: ['orders/refund', 'orders_*e*te'] });
      try {
        const domains = await call(c.client, 'list_domains', {});
        expect(domains.value.domains.map((d: { name: string }) => d.name)).toEqual(['orders']);
        const all = await call(c.client, 'search_tools', { domain: 'orders', limit: 25 });
        expect(all.value.results.map((r: { name: string }) => r.name).sort()).toEqual(['orders_get', 'orders_list']);
      } finally {
        await c.close();
      }
    });

    test('operations hidden at import (x-api-catalog-hidden) are counted by list_domains, never named', async () => {
      const c = await connect(era, [curated]);
      try {
        const domains = await call(c.client, 'list_domains', {});
        expect(domains.value.hiddenTools).toBe(1);
        expect(JSON.stringify(domains)).not.toMatch(/purge/);
        expect((await call(c.client, 'describe_tools', { tool_names: ['admin_purge-cache'] })).error?.code).toBe('UNKNOWN_TOOL');
      } finally {
        await c.close();
      }
      const unfiltered = await connect(era, [plain]);
      try {
        expect((await call(unfiltered.client, 'list_domains', {})).value.hiddenTools).toBeUndefined();
      } finally {
        await unfiltered.close();
      }
    });

    test('with several catalogs the filters use the public (prefixed) names', async () => {
      const c = await connect(era, [plain, fixtureRegistry('petstore')], { includeDomains: ['shop.orders'], excludeTools: ['shop.orders_delete'] });
      try {
        const domains = await call(c.client, 'list_domains', {});
        expect(domains.value.domains.map((d: { name: string }) => d.name)).toEqual(['shop.orders']);
        const search = await call(c.client, 'search_tools', { domain: 'shop.orders', limit: 25 });
        expect(search.value.results.map((r: { name: string }) => r.name)).not.toContain('shop.orders_delete');
      } finally {
        await c.close();
      }
    });
  });
});

describe('bad filters stop the start with a clear message', () => {
  test('an unknown domain, with did-you-mean', () => {
    const err = errorOf(() => loadCatalogSet([plain], { filters: { includeDomains: ['order'] } }));
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toBe('serve: --include-domains: no domain named "order"; did you mean "orders"? (`api-catalog domains` lists them)');
    expect(errorOf(() => loadCatalogSet([plain], { filters: { excludeDomains: ['custmers'] } })).message).toMatch(/--exclude-domains: no domain named "custmers"; did you mean "customers"\?/);
    expect(errorOf(() => loadCatalogSet([plain, fixtureRegistry('petstore')], { filters: { excludeDomains: ['orders'] } })).message).toMatch(/did you mean "shop\.orders"\?/);
  });

  test('a glob that matches no operation, and filters that leave nothing', () => {
    expect(errorOf(() => loadCatalogSet([plain], { filters: { excludeTools: ['order_delete*'] } })).message).toMatch(
      /--exclude-tools "order_delete\*" matches no operation \(globs match names like "admin_purge-cache" and operationIds like "admin\/purge-cache"\)/,
    );
    expect(errorOf(() => loadCatalogSet([plain], { filters: { excludeTools: ['*'] } })).message).toMatch(/leave no operation to serve/);
  });

  test('serve exits 1 at start-up with the message (built CLI, real process)', () => {
    const r = spawnSync(process.execPath, [builtCli(), 'serve', '--registry', plain, '--exclude-domains', 'ordrs'], { encoding: 'utf8', timeout: 30_000, input: '' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--exclude-domains: no domain named "ordrs"; did you mean "orders"\?/);
    expect(r.stdout).toBe('');
  });
});

describe('serve with filters (built CLI, real process)', () => {
  test('starts, says how many operations the filters leave out, and exits 0 at stdin EOF', () => {
    const r = spawnSync(process.execPath, [builtCli(), 'serve', '--registry', plain, '--exclude-domains', 'customers', '--exclude-tools', 'orders_delete'], {
      encoding: 'utf8',
      timeout: 30_000,
      input: '',
      env: { ...process.env, API_CATALOG_INCLUDE_DOMAINS: 'admin' }, // a flag for another filter does not mask this one
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/leave out 8 operation\(s\)/);
    expect(r.stderr).toMatch(/serving Shop API \(1 operations\) over stdio/);
    expect(r.stdout).toBe('');
  });
});

describe('flags and environment', () => {
  test('repeatable and comma-separated flags; env vars when no flag; flags win', () => {
    const flags = parseServeArgs(['--include-domains', 'a,b', '--include-domains', ' c ', '--exclude-tools', 'x_*', '--exclude-domains', 'd']);
    expect(flags).toMatchObject({ includeDomains: ['a,b', ' c '], excludeTools: ['x_*'], excludeDomains: ['d'] });
    const env = { API_CATALOG_INCLUDE_DOMAINS: 'e', API_CATALOG_EXCLUDE_DOMAINS: 'f, g', API_CATALOG_EXCLUDE_TOOLS: 'repos_delete*,,orgs_*' };
    expect(resolveServerConfig(flags, env).filters).toEqual({ includeDomains: ['a', 'b', 'c'], excludeDomains: ['d'], excludeTools: ['x_*'] });
    expect(resolveServerConfig({}, env).filters).toEqual({ includeDomains: ['e'], excludeDomains: ['f', 'g'], excludeTools: ['repos_delete*', 'orgs_*'] });
    expect(resolveServerConfig({}, {}).filters).toEqual({ includeDomains: [], excludeDomains: [], excludeTools: [] });
  });
});
