// An operations file damaged in place (catalog.json untouched: an rsync or copy that died half-way, a disk that
// filled while writing it) under a replica that has not parsed it yet (ops audit 50, section 10). Before, every call
// of that domain answered REGISTRY_STALE ("retry in a few seconds") for as long as the file stayed broken, though
// the reload it started was refused, and /readyz stayed 200, so the balancer kept sending it calls it could not
// serve. Now: once the reload is refused the calls say what is wrong and what repairs it (REGISTRY_INVALID, re-run the
// import), /readyz is 503 naming the file until the registry is repaired, and a repair serves the domain again with no
// restart. A replica started on the damaged file refuses to start, naming it (the start checks the files against the
// search snapshot, and reads them all when they do not match). The built CLI, real HTTP, real files; needs
// `npm run build`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT, builtCli, call, connectHttp } from '../helpers/mcp.js';
import { startReplica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from '../ops/helpers.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');

function importShop(out: string): string {
  const r = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', 'shop', '--out', out], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
  return join(out, 'shop');
}

test('a file damaged in place after start: refused with the fix, /readyz 503 naming it, served again once repaired', async () => {
  const root = tempDir('ac-damaged-ops-');
  const dir = importShop(join(root, 'reg'));
  const orders = join(dir, 'operations', 'orders.json');
  const good = readFileSync(orders);
  const r = await startReplica(['--registry', dir], { SHOP_BASE_URL: 'http://127.0.0.1:9', API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_WATCH_JITTER_SECONDS: '0' });
  const readyz = async (): Promise<{ status: number; body: Record<string, any> }> => {
    const res = await fetch(`http://127.0.0.1:${r.port}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const client = await connectHttp(r.url, 'modern', { name: 'damaged-ops' });
  try {
    const v1 = (await readyz()).body.version as string;
    // written in place (same inode), cut short, catalog.json untouched: no watch sees it
    writeFileSync(orders, good.subarray(0, 100));

    // the first call finds the file changed: a new version may be on its way, so the reload it starts decides
    const first = await call(client, 'describe_tools', { tool_names: ['orders_get'] });
    expect(first.error?.code).toBe('REGISTRY_STALE');
    await until(() => events(r.stderr(), 'catalog_reload_failed').length >= 1, 'the reload the call started to be refused');
    expect(events(r.stderr(), 'catalog_reload_failed')[0]).toMatchObject({ trigger: 'changed', code: 'REGISTRY_INVALID' });
    // a writer may still be at work (an import copying files): while the timed retries (2, 5, 15 s) are pending the
    // calls still say "retry", which is true then (second read of stop 50: they said "re-run its import" at once)
    if (events(r.stderr(), 'catalog_reload_failed').length === 1) {
      expect((await call(client, 'describe_tools', { tool_names: ['orders_get'] })).error?.code).toBe('REGISTRY_STALE');
    }
    await until(
      () => events(r.stderr(), 'catalog_reload_failed').some((e) => e.nextRetry === 'on the next change of its files'),
      'the timed retries to be spent',
      60_000,
    );

    // refused: the calls say what is wrong and what repairs it, not "retry in a few seconds"
    for (const [tool, args] of [
      ['describe_tools', { tool_names: ['orders_get'] }],
      ['execute_tool', { tool_name: 'orders_get', args: { id: '1' } }],
    ] as const) {
      const refused = await call(client, tool, args);
      expect(refused.error?.code, JSON.stringify(refused)).toBe('REGISTRY_INVALID');
      expect(refused.error?.message).toContain(`catalog: ${orders} changed on disk after this version was loaded, and the reload of the registry now on disk was refused`);
      expect(refused.error?.message).toContain(`${orders} is not valid JSON`);
      expect(refused.error?.message).toContain(`re-run its import (\`api-catalog import <spec> --name shop --out ${join(root, 'reg')}\`)`);
      expect(refused.error?.message).not.toMatch(/retry in a few seconds/);
    }
    // the other domains are served as before
    expect((await call(client, 'describe_tools', { tool_names: ['customers_get'] })).error).toBeUndefined();

    // not whole: unready, naming the file (and the reload's refusal beside it)
    const unready = await readyz();
    expect(unready.status).toBe(503);
    expect(unready.body.checks).toContain('catalogs');
    expect(unready.body.reasons.join('\n')).toContain(`catalogs: a registry file cannot be served: catalog: ${orders} changed on disk`);
    expect(unready.body.reasons.join('\n')).toContain('re-run its import');

    // put back in place: the probe sees the file change, the reload serves it, the replica is ready again
    writeFileSync(orders, good);
    await until(async () => (await readyz()).status === 200, '/readyz 200 once the file is repaired');
    const after = await readyz();
    expect(after.body.version).toBe(v1);
    expect(after.body.reloadFailed).toBeUndefined();
    const described = await call(client, 'describe_tools', { tool_names: ['orders_get'] });
    expect(described.error, JSON.stringify(described)).toBeUndefined();
  } finally {
    await client.close();
    await r.stop();
  }
}, 150_000);

test('a file damaged in place before start: serve --http refuses to start, naming it (the snapshot no longer vouches for it)', () => {
  const root = tempDir('ac-damaged-ops-start-');
  const dir = importShop(join(root, 'reg'));
  const orders = join(dir, 'operations', 'orders.json');
  writeFileSync(orders, readFileSync(orders).subarray(0, 100));
  const r = spawnSync(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', '--registry', dir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`api-catalog: catalog: ${orders} is not valid JSON; re-run the import`);
});
