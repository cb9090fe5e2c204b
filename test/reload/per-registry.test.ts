// One broken catalog among several (ops audit, defect 2), through the built CLI with three registries and real
// re-imports: before, any registry that failed refused the whole reload, so an update of another catalog was never
// served until someone fixed the broken one, and the refusal did not say which catalog failed or what was held back.
// Now each registry reloads on its own: the broken one keeps its previous catalog (its operations as read) and the
// others' changes are served; catalog_reload_failed, /readyz reloadFailed and /metrics name the catalog that failed.
// When the broken catalog's previous version can no longer be read (the index came from the index cache, so its
// files were never parsed, and they changed since), the others' changes are still served: the broken catalog is
// served without its tools, and a call naming one is REGISTRY_INVALID saying why and what fixes it (before, the
// whole reload was refused, and the held-back catalogs' own old files, replaced and never read, failed their calls
// with REGISTRY_STALE until the broken one was fixed). Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli, call, connectHttp } from '../helpers/mcp.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from '../ops/helpers.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');
const NAMES = ['alpha', 'beta', 'gamma'];
let up: Upstream;

beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => up?.close());

/** `api-catalog import` of the shop spec as `name` into `out` (another process, as an operator runs it). */
function importAs(name: string, out: string, overlay?: string): void {
  const r = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', name, '--out', out, ...(overlay ? ['--overlay', overlay] : [])], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
}

/** Three registries (alpha, beta, gamma) under a fresh folder, and an overlay that hides orders_delete. */
function registries(): { reg: string; hide: string; args: string[] } {
  const root = tempDir('ac-per-registry-');
  const reg = join(root, 'reg');
  for (const name of NAMES) importAs(name, reg);
  const hide = join(root, 'hide.yaml');
  writeFileSync(hide, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
  return { reg, hide, args: NAMES.flatMap((n) => ['--registry', join(reg, n)]) };
}

/** Half of beta's orders file, written in place: a damaged registry the watch does not see (only SIGHUP or another change). */
function damageBeta(reg: string): string {
  const file = join(reg, 'beta', 'operations', 'orders.json');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.slice(0, text.length >> 1));
  return file;
}

const ENV = { API_CATALOG_SIGNING_KEY: 'per-registry-test-key-0123456789abcdef', API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_WATCH_JITTER_SECONDS: '0' };

function probes(r: Replica) {
  const base = `http://127.0.0.1:${r.port}`;
  return {
    readyz: async () => (await (await fetch(`${base}/readyz`)).json()) as Record<string, any>,
    metric: async (series: string) => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const m = new RegExp(`^${series.replace(/[{}"=,.]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
      return m?.[1] !== undefined ? Number(m[1]) : undefined;
    },
  };
}

/** Waits (a limit for a hang, not a speed check) until `r` logged `n` lines of `event`; the log tail when it did not. */
async function logged(r: Replica, event: string, n: number, what: string): Promise<Array<Record<string, any>>> {
  try {
    await until(() => events(r.stderr(), event).length >= n, what, 90_000);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${r.stderr().slice(-4000)}`);
  }
  return events(r.stderr(), event);
}

const versionOf = (body: Record<string, any>, name: string): string => body.catalogs.find((c: { name: string }) => c.name === name).version;

test('a broken catalog keeps its previous version while another catalog\'s re-import is served; every refusal names it', async () => {
  const { reg, hide, args } = registries();
  // built at start (no index cache): every catalog's operations are read, so beta's previous version can be kept
  const r = await startReplica([...args, '--index-cache', 'off'], { ...ENV, ALPHA_BASE_URL: up.url, BETA_BASE_URL: up.url, GAMMA_BASE_URL: up.url });
  const { readyz, metric } = probes(r);
  const client = await connectHttp(r.url, 'modern', { name: 'per-registry' });
  try {
    const start = await readyz();
    const v1 = start.version as string;

    // 1. beta damaged, SIGHUP: nothing else changed, so nothing is swapped; the refusal names beta
    const damaged = damageBeta(reg);
    r.child.kill('SIGHUP');
    const first = (await logged(r, 'catalog_reload_failed', 1, 'the refusal of beta'))[0] as Record<string, any>;
    expect(first).toMatchObject({ trigger: 'signal', code: 'REGISTRY_INVALID', serving: v1, failed: [{ catalog: 'beta', dir: join(reg, 'beta'), code: 'REGISTRY_INVALID' }] });
    expect(first.failed[0].reason).toContain(`${damaged} is not valid JSON`);
    expect(first.notApplied).toBeUndefined();

    // 2. alpha re-imported (orders_delete hidden): served at once, beta keeps its previous catalog
    importAs('alpha', reg, hide);
    const reloaded = (await logged(r, 'catalog_reloaded', 1, 'the reload of alpha'))[0] as Record<string, any>;
    expect(reloaded).toMatchObject({ trigger: 'watch', previous: v1, changed: true, refused: ['beta'] });
    // logged right after it (the retries of beta's refusal follow, 2 s on)
    const refusal = (await logged(r, 'catalog_reload_failed', 2, 'the refusal beside the reload'))[1] as Record<string, any>;
    expect(refusal).toMatchObject({ trigger: 'watch', code: 'REGISTRY_INVALID', serving: reloaded.version, failed: [{ catalog: 'beta' }] });
    expect(refusal.reason).toMatch(/^beta: .*orders\.json is not valid JSON/);
    const after = await readyz();
    expect(after).toMatchObject({ status: 'ready', version: reloaded.version, reloadFailed: { serving: reloaded.version, failed: [{ catalog: 'beta', code: 'REGISTRY_INVALID' }] } });
    expect(versionOf(after, 'alpha')).not.toBe(versionOf(start, 'alpha'));
    expect(versionOf(after, 'beta')).toBe(versionOf(start, 'beta'));
    expect(versionOf(after, 'gamma')).toBe(versionOf(start, 'gamma'));
    expect(await metric('api_catalog_catalog_reload_refused{catalog="beta",state="failed"}')).toBe(1);
    expect(await metric('api_catalog_catalog_reloads_total{outcome="partial"}')).toBe(1);
    expect(await metric('api_catalog_catalog_reload_failed')).toBe(1);

    // what agents see: alpha's change, beta's previous operations (its damaged file is not read again)
    expect((await call(client, 'describe_tools', { tool_names: ['alpha.orders_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
    expect((await call(client, 'list_domains', {})).value).toMatchObject({ catalogVersion: reloaded.version });
    const d = await call(client, 'describe_tools', { tool_names: ['beta.orders_get', 'beta.orders_delete'] });
    expect(d.success, JSON.stringify(d)).toBe(true);
    const handle = d.value.tools.find((t: { name: string }) => t.name === 'beta.orders_get').example.handle as string;
    expect((await call(client, 'execute_tool', { tool_name: 'beta.orders_get', args: { id: '7' }, handle })).success).toBe(true);
    const s = await call(client, 'search_tools', { query: 'delete an order', limit: 25 });
    const found = s.value.results.map((x: { name: string }) => x.name);
    expect(found).toContain('beta.orders_delete');
    expect(found).not.toContain('alpha.orders_delete');

    // 3. beta re-imported whole: served, and the refusal is gone everywhere
    importAs('beta', reg);
    expect((await logged(r, 'catalog_reloaded', 2, 'the reload of beta'))[1]?.refused).toBeUndefined();
    expect((await readyz()).reloadFailed).toBeUndefined();
    expect(await metric('api_catalog_catalog_reload_refused{catalog="beta",state="failed"}')).toBeUndefined();
    expect(await metric('api_catalog_catalog_reload_failed')).toBe(0);
    expect(r.child.exitCode).toBeNull();
  } finally {
    await client.close();
    await r.stop();
  }
}, 120_000);

test('when the broken catalog\'s previous version cannot be read any more, the others\' changes are served and its tools say why they are not', async () => {
  const { reg, hide, args } = registries();
  const cache = tempDir('ac-per-registry-cache-');
  const env = { ...ENV, ALPHA_BASE_URL: up.url, BETA_BASE_URL: up.url, GAMMA_BASE_URL: up.url };
  // a first start writes the index cache; the second restores it, so no operations file is parsed at start
  const writer = await startReplica([...args, '--index-cache', cache], env);
  await logged(writer, 'index_cached', 1, 'the index cache file');
  await writer.stop();
  const r = await startReplica([...args, '--index-cache', cache], env);
  const { readyz, metric } = probes(r);
  const client = await connectHttp(r.url, 'modern', { name: 'per-registry-cached' });
  try {
    expect(events(r.stderr(), 'search_index')[0]).toMatchObject({ source: 'cache' });
    const start = await readyz();
    const v1 = start.version as string;
    damageBeta(reg);
    importAs('alpha', reg, hide);
    // alpha's re-import is served; beta, whose previous files were never read, is served without its tools
    const reloaded = (await logged(r, 'catalog_reloaded', 1, 'the reload of alpha'))[0] as Record<string, any>;
    expect(reloaded).toMatchObject({ trigger: 'watch', previous: v1, changed: true, refused: ['beta'] });
    const refusal = (await logged(r, 'catalog_reload_failed', 1, 'the refusal of beta'))[0] as Record<string, any>;
    expect(refusal).toMatchObject({ trigger: 'watch', code: 'REGISTRY_INVALID', serving: reloaded.version, failed: [{ catalog: 'beta' }] });
    expect(refusal.notApplied).toBeUndefined();
    expect(refusal.reason).toMatch(/^beta: .*orders\.json is not valid JSON.*its previous version can no longer be read either/);
    const after = await readyz();
    expect(after).toMatchObject({ status: 'ready', version: reloaded.version, reloadFailed: { failed: [{ catalog: 'beta' }] } });
    expect(after.reloadFailed.notApplied).toBeUndefined();
    expect(versionOf(after, 'alpha')).not.toBe(versionOf(start, 'alpha'));
    expect(versionOf(after, 'gamma')).toBe(versionOf(start, 'gamma'));
    expect(after.catalogs.find((c: { name: string }) => c.name === 'beta')).toMatchObject({ operations: 0 });
    expect(await metric('api_catalog_catalog_reload_refused{catalog="beta",state="failed"}')).toBe(1);
    expect(await metric('api_catalog_catalog_reload_refused{catalog="alpha",state="not_applied"}')).toBeUndefined();
    expect(await metric('api_catalog_catalog_reloads_total{outcome="partial"}')).toBe(1);

    // what agents see: alpha's change and gamma; beta's tools are not offered, and naming one says why
    expect((await call(client, 'describe_tools', { tool_names: ['alpha.orders_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
    const g = await call(client, 'describe_tools', { tool_names: ['alpha.orders_get', 'gamma.orders_get'] });
    expect(g.success, JSON.stringify(g)).toBe(true);
    const b = await call(client, 'describe_tools', { tool_names: ['beta.orders_get'] });
    expect(b.error).toMatchObject({ code: 'REGISTRY_INVALID' });
    expect(b.error?.message).toMatch(/^catalog beta is not served: the last reload refused its registry \(.*orders\.json is not valid JSON/);
    expect(b.error?.message).toContain(`api-catalog import <spec> --name beta --out ${reg}`);
    // execute_tool too: an error answer, not a protocol error (the call record, src/server/ops/observe.ts, looked the
    // name up again outside the envelope's error handling, and this lookup throws)
    const e = await call(client, 'execute_tool', { tool_name: 'beta.orders_get', args: { id: '7' } });
    expect(e.error).toMatchObject({ code: 'REGISTRY_INVALID' });
    const s = await call(client, 'search_tools', { query: 'get an order', limit: 25 });
    const found = s.value.results.map((x: { name: string }) => x.name);
    expect(found).toContain('alpha.orders_get');
    expect(found.filter((n: string) => n.startsWith('beta.'))).toEqual([]);

    // beta fixed: served whole again, and the refusal is gone
    importAs('beta', reg);
    expect((await logged(r, 'catalog_reloaded', 2, 'the reload once beta is whole'))[1]?.refused).toBeUndefined();
    const fixed = await readyz();
    expect(fixed.reloadFailed).toBeUndefined();
    expect(await metric('api_catalog_catalog_reload_refused{catalog="beta",state="failed"}')).toBeUndefined();
    expect((await call(client, 'describe_tools', { tool_names: ['beta.orders_get'] })).success).toBe(true);
    expect(r.child.exitCode).toBeNull();
  } finally {
    await client.close();
    await r.stop();
  }
}, 120_000);
