// A reload of several registries keeps the server answering (ops audit, defect 1): the merged search index of the new
// version is built in a worker thread (src/server/core/index-thread.ts), so MCP calls and probes are answered while it
// builds, where before the build held the event loop for seconds (every replica at once, as they reload together) and
// a balancer took them all out. Through the built CLI: `serve --http` with three registries (two copies of the
// GitHub catalog under other names, 2,450 operations, and a small one), one re-imported, then SIGHUP while a client
// searches in a loop. The proof is the server's own log order, not a clock: a search answered (its tool_call line)
// after the reload was asked for and before the new index was ready. Afterwards search sees the new text, and the new
// index is in the index cache (written in the background, after the swap).
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli, call, connectHttp } from '../helpers/mcp.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');
let root = '';

function importShop(overlay?: string): void {
  const r = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', 'shop', '--out', join(root, 'reg'), ...(overlay ? ['--overlay', overlay] : [])], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
}

/** registry/github copied as `name` (catalog.json renamed; its settings and snapshot, which name "github", left out). */
function copyGithub(name: string): string {
  const dir = join(root, 'reg', name);
  cpSync(join(REPO_ROOT, 'registry', 'github'), dir, { recursive: true });
  for (const f of ['settings.json', 'search.snapshot', 'changes.json']) rmSync(join(dir, f), { force: true });
  const meta = JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')) as { name: string };
  writeFileSync(join(dir, 'catalog.json'), JSON.stringify({ ...meta, name }));
  return dir;
}

/** The server's JSON log lines, in the order it wrote them. */
function logLines(r: Replica): Array<Record<string, unknown>> {
  return r
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function waitFor(what: string, r: Replica, ok: () => boolean): Promise<void> {
  // a limit for a hang, not a speed check: two GitHub catalogs build in seconds, longer on a busy machine
  const deadline = Date.now() + 90_000;
  while (!ok() && r.child.exitCode === null && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
  expect(ok(), `${what}\n${r.stderr().slice(-3000)}`).toBe(true);
}

beforeAll(() => {
  root = tempDir('ac-reload-thread-');
  importShop();
});
afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

test('a reload builds the new index off the serving thread: searches are answered while it builds, then see the new text', async () => {
  const dirs = ['gh1', 'gh2'].map(copyGithub);
  const cache = join(root, 'cache');
  const args = [...[...dirs, join(root, 'reg', 'shop')].flatMap((d) => ['--registry', d]), '--index-cache', cache, '--no-watch'];
  const r = await startReplica(args, { API_CATALOG_LOG_LEVEL: 'info' });
  const client = await connectHttp(r.url, 'modern', { name: 'reload-off-thread' });
  try {
    const v1 = (await call(client, 'list_domains', {})).value.catalogVersion as string;
    const query = { query: 'peel bananas into a fruit basket', limit: 3 };
    expect((await call(client, 'search_tools', query)).value.results[0]?.name).not.toBe('shop.orders_refund');
    // the first start built the set's index on its own thread and cached it
    await waitFor('the first start caches the index', r, () => logLines(r).some((l) => l.event === 'index_cached'));

    const overlay = join(root, 'bananas.yaml');
    writeFileSync(overlay, `overlay: 1.0.0\ninfo: { title: bananas, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}/refund'].post"\n    update: { summary: Peel a bunch of bananas into a fruit basket }\n`);
    importShop(overlay);

    // searches, one after another, from before the reload is asked for until it is done
    let done = false;
    const searching = (async () => {
      while (!done) await call(client, 'search_tools', { query: 'list pull requests', limit: 3 });
    })();
    const reloadedBefore = logLines(r).filter((l) => l.event === 'catalog_reloaded').length;
    r.child.kill('SIGHUP');
    try {
      await waitFor('the reload ends', r, () => logLines(r).filter((l) => l.event === 'catalog_reloaded').length > reloadedBefore);
    } finally {
      done = true;
      await searching;
    }

    const lines = logLines(r);
    const asked = lines.findLastIndex((l) => l.event === 'reload_requested');
    const built = lines.findIndex((l, i) => i > asked && l.event === 'search_index');
    const reloaded = lines.findIndex((l, i) => i > asked && l.event === 'catalog_reloaded');
    expect(asked, r.stderr().slice(-3000)).toBeGreaterThanOrEqual(0);
    expect(built, r.stderr().slice(-3000)).toBeGreaterThan(asked);
    expect(reloaded).toBeGreaterThan(built);
    // answered by this server after the reload was asked for and before the new index was ready
    const answeredMeanwhile = lines.slice(asked + 1, built).filter((l) => l.event === 'tool_call' && l.tool === 'search_tools');
    expect(answeredMeanwhile.length, r.stderr().slice(-3000)).toBeGreaterThan(0);
    expect(lines[built]).toMatchObject({ source: 'built', thread: 'worker', reason: expect.stringMatching(/several catalogs; index cache: stale/) });
    expect(lines[reloaded]).toMatchObject({ trigger: 'signal', previous: v1, changed: true, index: 'built' });
    // the worker's index is written to the index cache too, in the background: the swap did not wait for it
    await waitFor('the new index to be cached', r, () => logLines(r).some((l, i) => i > built && l.event === 'index_cached'));
    expect(logLines(r).findIndex((l, i) => i > built && l.event === 'index_cached')).toBeGreaterThan(reloaded);
    expect(readdirSync(cache).filter((f) => /^set-[0-9a-f]{24}\.snapshot$/.test(f))).toHaveLength(1);

    // the new version answers: the new summary is found, and the catalog version moved
    const after = await call(client, 'search_tools', query);
    expect(after.value.results[0]).toMatchObject({ name: 'shop.orders_refund', summary: 'Peel a bunch of bananas into a fruit basket' });
    expect((await call(client, 'list_domains', {})).value.catalogVersion).not.toBe(v1);
    const ready = await fetch(`http://127.0.0.1:${r.port}/readyz`);
    expect(ready.status).toBe(200);
    expect(r.stderr()).not.toMatch(/index_worker_(?:failed|unavailable)/);
  } finally {
    await client.close();
    await r.stop();
  }
}, 240_000);
