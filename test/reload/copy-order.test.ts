// A registry copied into place file by file with catalog.json first, as rsync and `cp -r` do (ops audit, defect 5),
// under a replica that watches it, through the built CLI: the new catalog.json alone disagrees with the old
// operations files, so the reload it triggers is refused (REGISTRY_INVALID); the rest of the files arrive after that
// refusal is logged, and none of them is watched. Before, the refusal stuck until someone sent SIGHUP; now a refusal
// the watch caused is retried (2, 5, 15 s, then at each change of the registry's files), so the copy ends up served.
// Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT, builtCli, call, connectHttp } from '../helpers/mcp.js';
import { startReplica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from '../ops/helpers.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');

function importShop(out: string, overlay?: string): void {
  const r = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', 'shop', '--out', out, ...(overlay ? ['--overlay', overlay] : [])], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
}

/** Copies one file into place whole (a temporary file renamed over it), as rsync writes each file. */
function put(from: string, to: string): void {
  copyFileSync(from, `${to}.part`);
  renameSync(`${to}.part`, to);
}

test('catalog.json first, the rest after the refusal: the retry serves the new version and clears the refusal', async () => {
  const root = tempDir('ac-copy-order-');
  const hide = join(root, 'hide.yaml');
  writeFileSync(hide, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
  importShop(join(root, 'served'));
  importShop(join(root, 'next'), hide);
  const dir = join(root, 'served', 'shop');
  const next = join(root, 'next', 'shop');
  const r = await startReplica(['--registry', dir], { SHOP_BASE_URL: 'http://127.0.0.1:9', API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_WATCH_JITTER_SECONDS: '0' });
  const readyz = async () => (await (await fetch(`http://127.0.0.1:${r.port}/readyz`)).json()) as Record<string, any>;
  const client = await connectHttp(r.url, 'modern', { name: 'copy-order' });
  try {
    const v1 = (await readyz()).version as string;
    put(join(next, 'catalog.json'), join(dir, 'catalog.json'));
    await until(() => events(r.stderr(), 'catalog_reload_failed').length === 1, 'the refusal of the half-copied registry');
    const refusal = events(r.stderr(), 'catalog_reload_failed')[0] as Record<string, any>;
    expect(refusal).toMatchObject({ trigger: 'watch', code: 'REGISTRY_INVALID', serving: v1 });
    expect(refusal.reason).toMatch(/orders\.json holds 5 operations, but .*catalog\.json counts 4 in domain "orders"/);
    expect(Date.parse(refusal.nextRetry)).not.toBeNaN();
    expect((await readyz()).reloadFailed).toMatchObject({ code: 'REGISTRY_INVALID', nextRetry: refusal.nextRetry });

    // the rest of the copy, none of it watched
    for (const f of readdirSync(join(next, 'operations'))) put(join(next, 'operations', f), join(dir, 'operations', f));
    put(join(next, 'search.snapshot'), join(dir, 'search.snapshot'));
    put(join(next, 'diagnostics.json'), join(dir, 'diagnostics.json'));

    await until(() => events(r.stderr(), 'catalog_reloaded').length === 1, 'a retry that serves the whole copy');
    expect(events(r.stderr(), 'catalog_reloaded')[0]).toMatchObject({ trigger: 'retry', previous: v1, changed: true });
    const after = await readyz();
    expect(after.reloadFailed).toBeUndefined();
    expect(after.version).not.toBe(v1);
    expect((await call(client, 'list_domains', {})).value).toMatchObject({ catalogVersion: after.version, hiddenTools: 1 });
    expect((await call(client, 'describe_tools', { tool_names: ['orders_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
  } finally {
    await client.close();
    await r.stop();
  }
}, 90_000);
