// Hot reload through the built CLI, with real signals and real re-imports (`api-catalog import` as a separate
// process). Two HTTP replicas serving one registry folder each notice the re-import on their own (catalog.json
// watched) and agree on the new version; a broken registry — by SIGHUP on one, by the watch on the other — keeps the
// version serving and logs why; files that disagree are refused the same way, and /readyz shows the refusal while the
// replica stays ready. Over stdio, with --no-watch, SIGHUP reloads.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, builtCli, call, connectHttp, newClient } from '../helpers/mcp.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');
const KEY = 'reload-test-signing-key-0123456789abcdef';
let root = '';
let up: Upstream;

function importShop(overlay?: string, out = join(root, 'reg')): void {
  const r = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', 'shop', '--out', out, ...(overlay ? ['--overlay', overlay] : [])], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
}

function hideOverlay(): string {
  const path = join(root, 'hide.yaml');
  writeFileSync(path, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
  return path;
}

/** Waits (up to 15 s) until `text()` has one more match of `pattern` than `before`; returns the matching lines. */
async function waitForLine(text: () => string, pattern: RegExp, before: number): Promise<string[]> {
  const lines = () => text().split('\n').filter((l) => pattern.test(l));
  const deadline = Date.now() + 15_000;
  while (lines().length <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(lines().length, text().slice(-2000)).toBeGreaterThan(before);
  return lines();
}
const count = (text: string, pattern: RegExp) => text.split('\n').filter((l) => pattern.test(l)).length;

beforeAll(async () => {
  root = tempDir('ac-serve-reload-');
  importShop();
  up = await startUpstream();
});
afterAll(async () => {
  await up?.close();
});

test('two replicas on one registry folder reload on their own after a re-import and agree; a broken registry keeps them serving', async () => {
  const env = { SHOP_BASE_URL: up.url, API_CATALOG_SIGNING_KEY: KEY, API_CATALOG_LOG_LEVEL: 'info' };
  const replicas: Replica[] = [];
  try {
    for (let i = 0; i < 2; i++) replicas.push(await startReplica(['--registry', join(root, 'reg', 'shop')], env));
    const [r1, r2] = replicas as [Replica, Replica];
    expect(r1.stderr()).toMatch(/Catalog version: [0-9a-f]{12}; reloaded on SIGHUP and when a registry's catalog\.json changes/);
    const legacy = await connectHttp(r1.url, 'legacy', { name: 'reload-legacy' });
    const modern = await connectHttp(r2.url, 'modern', { name: 'reload-modern' });
    try {
      const v1 = (await call(legacy, 'list_domains', {})).value.catalogVersion as string;
      expect((await call(modern, 'list_domains', {})).value.catalogVersion).toBe(v1);
      expect((await call(legacy, 'describe_tools', { tool_names: ['orders_delete'] })).success).toBe(true);

      const reloaded = /"event":"catalog_reloaded"/;
      const before = replicas.map((r) => count(r.stderr(), reloaded));
      importShop(hideOverlay());
      for (const [i, r] of replicas.entries()) {
        const lines = await waitForLine(r.stderr, reloaded, before[i] as number);
        expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ trigger: 'watch', previous: v1, changed: true, index: 'snapshot' });
      }
      const v2 = (await call(legacy, 'list_domains', {})).value.catalogVersion as string;
      expect(v2).not.toBe(v1);
      for (const client of [legacy, modern]) {
        expect((await call(client, 'list_domains', {})).value).toMatchObject({ catalogVersion: v2, hiddenTools: 1 });
        const s = await call(client, 'search_tools', { query: 'delete an order', limit: 25 });
        expect(s.value.results.map((x: { name: string }) => x.name)).not.toContain('orders_delete');
        expect((await call(client, 'describe_tools', { tool_names: ['orders_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
        expect((await call(client, 'execute_tool', { tool_name: 'orders_delete', args: { id: '1' }, confirm: 'orders_delete' })).error?.code).toBe('UNKNOWN_TOOL');
      }
      expect(up.requests).toHaveLength(0);

      // Broken on disk: SIGHUP on r1, the watch on r2; both keep serving v2 and say why.
      const failed = /"event":"catalog_reload_failed"/;
      const failedBefore = replicas.map((r) => count(r.stderr(), failed));
      writeFileSync(join(root, 'reg', 'shop', 'catalog.json'), '{"formatVersion": 1,');
      r1.child.kill('SIGHUP');
      for (const [i, r] of replicas.entries()) {
        const lines = await waitForLine(r.stderr, failed, failedBefore[i] as number);
        expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ serving: v2, reason: expect.stringMatching(/catalog\.json is not valid JSON; re-run the import/) });
      }
      expect(r1.stderr()).toMatch(/"event":"reload_requested","signal":"SIGHUP"/);
      for (const client of [legacy, modern]) {
        expect((await call(client, 'list_domains', {})).value.catalogVersion).toBe(v2);
        const d = await call(client, 'describe_tools', { tool_names: ['orders_get'] });
        const handle = d.value.tools[0].example.handle as string;
        expect((await call(client, 'execute_tool', { tool_name: 'orders_get', args: { id: '5' }, handle })).success).toBe(true);
      }
      expect(r1.child.exitCode).toBeNull();
    } finally {
      await legacy.close();
      await modern.close();
    }
  } finally {
    for (const r of replicas) await r.stop();
    importShop();
  }
}, 120_000);

test('an operations file emptied under a replica: SIGHUP refuses it naming both files and counts; /readyz stays ready and shows the refusal until a re-import serves', async () => {
  const out = join(root, 'own');
  importShop(undefined, out);
  const dir = join(out, 'shop');
  // started when /readyz answers 200: the served version's content hash is read by then, before the edit below
  const r = await startReplica(['--registry', dir], { SHOP_BASE_URL: up.url, API_CATALOG_SIGNING_KEY: KEY, API_CATALOG_LOG_LEVEL: 'info' });
  const readyz = async () => {
    const res = await fetch(`http://127.0.0.1:${r.port}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const client = await connectHttp(r.url, 'modern', { name: 'reload-integrity' });
  try {
    const v1 = (await call(client, 'list_domains', {})).value.catalogVersion as string;
    // orders.json is read by the serving version now
    expect((await call(client, 'describe_tools', { tool_names: ['orders_get'] })).success).toBe(true);
    expect((await readyz()).body.reloadFailed).toBeUndefined();

    writeFileSync(join(dir, 'operations', 'orders.json'), '[]\n');
    r.child.kill('SIGHUP');
    const failed = await waitForLine(r.stderr, /"event":"catalog_reload_failed"/, 0);
    const reason = `the registry's files disagree: ${join(dir, 'operations', 'orders.json')} holds 0 operations, but ${join(dir, 'catalog.json')} counts 5 in domain "orders" (9 in all); refusing to serve it`;
    expect(JSON.parse(failed.at(-1) as string)).toMatchObject({ level: 'error', trigger: 'signal', code: 'REGISTRY_INVALID', serving: v1, reason: expect.stringContaining(reason) });
    // the version serving is whole: the replica stays ready, and /readyz says what was refused
    const h = await readyz();
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: 'ready', version: v1, reloadFailed: { trigger: 'signal', code: 'REGISTRY_INVALID', serving: v1, reason: expect.stringContaining(reason) } });
    expect(Date.parse(h.body.reloadFailed.at)).not.toBeNaN();
    expect((await call(client, 'list_domains', {})).value.catalogVersion).toBe(v1);
    const d = await call(client, 'describe_tools', { tool_names: ['orders_get'] });
    expect((await call(client, 'execute_tool', { tool_name: 'orders_get', args: { id: '3' }, handle: d.value.tools[0].example.handle })).success).toBe(true);

    // a re-import writes the registry whole: the watch reloads it and the refusal is gone
    importShop(undefined, out);
    await waitForLine(r.stderr, /"event":"catalog_reloaded"/, 0);
    const after = await readyz();
    expect(after.status).toBe(200);
    expect(after.body.reloadFailed).toBeUndefined();
    expect(r.child.exitCode).toBeNull();
  } finally {
    await client.close();
    await r.stop();
  }
}, 60_000);

test.each(ERAS)('stdio with --no-watch: a re-import is not picked up until SIGHUP, then it is (%s client)', async (era) => {
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'serve', '--registry', join(root, 'reg', 'shop'), '--no-watch'],
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info' } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = newClient(era, {}, 'stdio-reload');
  await client.connect(transport);
  try {
    const v1 = (await call(client, 'list_domains', {})).value.catalogVersion as string;
    importShop(hideOverlay());
    // not watched: the old version goes on answering (search needs no file it has not read)
    expect((await call(client, 'list_domains', {})).value.catalogVersion).toBe(v1);
    const reloaded = /"event":"catalog_reloaded"/;
    process.kill(transport.pid as number, 'SIGHUP');
    const lines = await waitForLine(() => stderr, reloaded, 0);
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ trigger: 'signal', previous: v1, changed: true });
    expect((await call(client, 'describe_tools', { tool_names: ['orders_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
    expect(stderr).not.toMatch(/catalog_watch/);
  } finally {
    await client.close();
    importShop();
  }
}, 60_000);
