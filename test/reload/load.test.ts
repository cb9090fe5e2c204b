// A reload during a load run: eight real SDK clients (four 2026-07-28, four legacy) over Streamable HTTP loop
// search -> describe -> execute -> list_domains against one server while the registry folder is swapped between
// two versions (B hides orders_delete) and reloaded a dozen times, each swap after the clients made progress.
// Every answer comes from one version: a search lists orders_delete exactly when its total is version A's, a
// list_domains names A or B with the matching hidden count, describe of orders_delete succeeds or is UNKNOWN_TOOL,
// execute of an operation both versions share never fails; no error other than those, no unhandled rejection. (A
// reload parses the domains the serving version had read, so no call meets a half-read version: no REGISTRY_STALE.)
import { cpSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { run as importCli } from '../../src/cli/import.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { LiveCatalogs, type ServedCatalogs } from '../../src/server/core/reload.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { runCaptured } from '../helpers/cli.js';
import { call, connectHttp, type Era } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join('test', 'fixtures', 'overlays', 'shop.yaml');
const CLIENTS = 8;
const SWAPS = 12;
let root = '';
let up: Upstream;
let server: HttpHandle;
let live: LiveCatalogs;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

async function importInto(out: string, overlay?: string): Promise<void> {
  const r = await runCaptured(importCli, [SPEC, '--name', 'shop', '--out', out, ...(overlay ? ['--overlay', overlay] : [])]);
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  root = tempDir('ac-reload-load-');
  const hide = join(root, 'hide.yaml');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(hide, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
  await importInto(join(root, 'a'));
  await importInto(join(root, 'b'), hide);
  cpSync(join(root, 'a', 'shop'), join(root, 'reg', 'shop'), { recursive: true });
  up = await startUpstream();
  const dir = join(root, 'reg', 'shop');
  const load = async (onChanged: (d: string) => void): Promise<ServedCatalogs> => ({
    catalogs: loadCatalogSet([dir], { onChanged }),
    settings: { baseUrls: { shop: up.url }, readOnly: false, env: {} },
  });
  let holder: LiveCatalogs | undefined;
  const first = await load((d) => holder?.changed(d));
  live = holder = new LiveCatalogs(first, { load });
  server = await serveHttp({ ...first, live, rateLimitPerMinute: 0, readRateLimitPerMinute: 0 }, { port: 0 });
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  live?.close();
  await server?.close();
  await up?.close();
});

test('12 reloads during a load run of 8 clients: every answer from one version, nothing fails that both versions have', async () => {
  const versionA = loadCatalogSet([join(root, 'a', 'shop')]).version;
  const versionB = loadCatalogSet([join(root, 'b', 'shop')]).version;
  expect(versionA).not.toBe(versionB);
  let totalA = -1;
  let totalB = -1;
  const seen = new Set<string>();
  const problems: string[] = [];
  let iterations = 0;
  let progress: (() => void) | undefined;
  let stop = false;

  async function loop(era: Era, i: number): Promise<void> {
    const client: Client = await connectHttp(server.url, era, { name: `load-${era}-${i}` });
    try {
      while (!stop) {
        const s = await call(client, 'search_tools', { query: 'delete an order', limit: 25 });
        if (!s.success) problems.push(`search: ${s.error?.code}`);
        else {
          const has = s.value.results.some((r: { name: string }) => r.name === 'orders_delete');
          // one version per answer: the total and the presence of orders_delete agree
          if (has ? s.value.total !== totalA : s.value.total !== totalB) problems.push(`search mixed: has=${has} total=${s.value.total}`);
        }
        const d = await call(client, 'describe_tools', { tool_names: ['orders_list'] });
        if (!d.success) problems.push(`describe orders_list: ${d.error?.code}`);
        const handle = d.value?.tools?.[0]?.example?.handle as string | undefined;
        const gone = await call(client, 'describe_tools', { tool_names: ['orders_delete'] });
        if (!gone.success && gone.error?.code !== 'UNKNOWN_TOOL') problems.push(`describe orders_delete: ${gone.error?.code}`);
        const e = await call(client, 'execute_tool', { tool_name: 'orders_list', args: {}, ...(handle ? { handle } : {}) });
        if (!e.success) problems.push(`execute orders_list: ${e.error?.code} ${e.error?.message}`);
        const l = await call(client, 'list_domains', {});
        const v = l.value?.catalogVersion as string;
        seen.add(v);
        if (!((v === versionA && l.value.hiddenTools === undefined) || (v === versionB && l.value.hiddenTools === 1))) problems.push(`list_domains mixed: ${v} hidden=${l.value?.hiddenTools}`);
        iterations++;
        progress?.();
      }
    } finally {
      await client.close();
    }
  }

  // the totals each version answers "delete an order" with
  const probe = await connectHttp(server.url, 'legacy', { name: 'probe' });
  totalA = (await call(probe, 'search_tools', { query: 'delete an order', limit: 25 })).value.total as number;
  await probe.close();
  totalB = totalA - 1;

  const clients = Array.from({ length: CLIENTS }, (_, i) => loop(i % 2 === 0 ? 'modern' : 'legacy', i));
  const afterProgress = async (n: number): Promise<void> => {
    const target = iterations + n;
    while (iterations < target && problems.length === 0) await new Promise<void>((r) => (progress = r));
  };
  const outcomes = [];
  try {
    for (let k = 0; k < SWAPS; k++) {
      await afterProgress(CLIENTS);
      // what an import does: the new folder is built beside the old one and renamed into place
      const from = join(root, k % 2 === 0 ? 'b' : 'a', 'shop');
      const tmp = join(root, 'reg', `.shop.tmp-${k}`);
      const old = join(root, 'reg', `.shop.old-${k}`);
      cpSync(from, tmp, { recursive: true });
      renameSync(join(root, 'reg', 'shop'), old);
      renameSync(tmp, join(root, 'reg', 'shop'));
      rmSync(old, { recursive: true, force: true });
      outcomes.push(await live.reload('request'));
    }
    await afterProgress(CLIENTS);
  } finally {
    stop = true;
    progress?.();
    await Promise.all(clients);
  }
  expect(problems).toEqual([]);
  expect(outcomes.every((o) => o.ok && o.changed)).toBe(true);
  expect(live.current.catalogs.version).toBe(versionA);
  expect([...seen].sort()).toEqual([versionA, versionB].sort());
  expect(iterations).toBeGreaterThanOrEqual(CLIENTS * (SWAPS + 1));
  expect(up.requests).toHaveLength(iterations);
  expect(unhandled).toEqual([]);
}, 180_000);
