// Readiness with several catalogs (fix-damaged follow-up; docs/DEPLOY.md, "Readiness with several catalogs"), through
// the built CLI over real HTTP with real re-imports. A catalog refused for good, while the others are served whole,
// leaves the replica ready (every replica reading the same registry is in the same state, and taking them all out
// would stop every catalog for one), but /readyz says so: `degraded` names the catalog and why (`degradedChecks`:
// catalogs), `unservedCatalogs` lists it, and /metrics has `api_catalog_degraded{check="catalogs"} 1` and
// `api_catalog_catalog_unserved{catalog,served}`. Before, a catalog a reload refused and could not keep was served
// without its tools with /readyz 200 naming nothing but `operations: 0`, while the same damage with no other catalog
// changing (the catalog kept, its file refused) gave 503 for every catalog. Both cases here; a catalog repaired
// clears it. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, builtCli, call, connectHttp } from '../helpers/mcp.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from './helpers.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');
const NAMES = ['alpha', 'beta', 'gamma'];
const ENV = { API_CATALOG_SIGNING_KEY: 'several-catalogs-readiness-key-0123456789', API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_WATCH_JITTER_SECONDS: '0' };
let up: Upstream;

beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => up?.close());

function importAs(name: string, out: string, overlay?: string): void {
  const r = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', name, '--out', out, ...(overlay ? ['--overlay', overlay] : [])], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
}

/**
 * Three registries, served with an index cache a first start wrote: the second start restores the index from it, so
 * no operations file is parsed before a call needs it (what makes a damaged file unkeepable).
 */
async function serveCached(): Promise<{ reg: string; hide: string; r: Replica }> {
  const root = tempDir('ac-several-ready-');
  const reg = join(root, 'reg');
  for (const name of NAMES) importAs(name, reg);
  // an overlay that hides orders_delete: a re-import that changes the registry
  const hide = join(root, 'hide.yaml');
  writeFileSync(hide, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
  const args = [...NAMES.flatMap((n) => ['--registry', join(reg, n)]), '--index-cache', join(root, 'cache')];
  const env = { ...ENV, ALPHA_BASE_URL: up.url, BETA_BASE_URL: up.url, GAMMA_BASE_URL: up.url };
  const writer = await startReplica(args, env);
  await until(() => events(writer.stderr(), 'index_cached').length > 0, 'the index cache file', 60_000);
  await writer.stop();
  const r = await startReplica(args, env);
  expect(events(r.stderr(), 'search_index')[0]).toMatchObject({ source: 'cache' });
  return { reg, hide, r };
}

/** Half of beta's orders file, written in place (same inode, catalog.json untouched). */
function damageBeta(reg: string): { file: string; good: Buffer } {
  const file = join(reg, 'beta', 'operations', 'orders.json');
  const good = readFileSync(file);
  writeFileSync(file, good.subarray(0, good.length >> 1));
  return { file, good };
}

function probes(r: Replica) {
  const base = `http://127.0.0.1:${r.port}`;
  return {
    readyz: async (): Promise<{ status: number; body: Record<string, any> }> => {
      const res = await fetch(`${base}/readyz`);
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    },
    metric: async (series: string): Promise<number | undefined> => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const m = new RegExp(`^${series.replace(/[{}"=,.]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
      return m?.[1] !== undefined ? Number(m[1]) : undefined;
    },
  };
}

async function logged(r: Replica, event: string, n: number, what: string, ok: (e: Record<string, any>) => boolean = () => true): Promise<void> {
  try {
    await until(() => events(r.stderr(), event).filter(ok).length >= n, what, 90_000);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${r.stderr().slice(-4000)}`);
  }
}

test('a catalog a reload refused and could not keep (served without its tools): ready, degraded, named with the reason on /readyz and /metrics; repaired: whole again', async () => {
  const { reg, hide, r } = await serveCached();
  const { readyz, metric } = probes(r);
  try {
    expect(await metric('api_catalog_degraded{check="catalogs"}')).toBe(0);
    const { file } = damageBeta(reg);
    importAs('alpha', reg, hide);
    // alpha's re-import is served; beta, whose files were never read, cannot be kept: served without its tools
    await logged(r, 'catalog_reloaded', 1, 'the reload of alpha', (e) => Array.isArray(e.refused) && e.refused.includes('beta'));
    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', degradedChecks: ['catalogs'] });
    expect(ready.body.catalogs.find((c: { name: string }) => c.name === 'beta')).toMatchObject({ operations: 0 });
    expect(ready.body.degraded).toHaveLength(1);
    expect(ready.body.degraded[0]).toMatch(/^catalogs: 1 of 3 catalogs not served whole \(the others are\): catalog beta is not served: /);
    expect(ready.body.degraded[0]).toContain(`${file} is not valid JSON`);
    expect(ready.body.unservedCatalogs).toHaveLength(1);
    expect(ready.body.unservedCatalogs[0]).toMatchObject({ catalog: 'beta', served: 'none', code: 'REGISTRY_INVALID' });
    expect(ready.body.unservedCatalogs[0].reason).toMatch(/orders\.json is not valid JSON.*served without its tools until it is fixed/);
    expect(await metric('api_catalog_ready')).toBe(1);
    expect(await metric('api_catalog_degraded{check="catalogs"}')).toBe(1);
    expect(await metric('api_catalog_catalog_unserved{catalog="beta",served="none"}')).toBe(1);
    await logged(r, 'readiness_changed', 1, 'the degradation logged', (e) => e.ready === true && String(e.degraded ?? '').includes('catalog beta is not served'));

    // beta re-imported whole: served again, nothing degraded
    importAs('beta', reg);
    await logged(r, 'catalog_reloaded', 2, 'the reload once beta is whole');
    await until(async () => (await readyz()).body.degraded === undefined, '/readyz without the degradation');
    const whole = await readyz();
    expect(whole.status).toBe(200);
    expect(whole.body.unservedCatalogs).toBeUndefined();
    expect(await metric('api_catalog_degraded{check="catalogs"}')).toBe(0);
    expect(await metric('api_catalog_catalog_unserved{catalog="beta",served="none"}')).toBeUndefined();
  } finally {
    await r.stop();
  }
}, 150_000);

test('a file of one catalog damaged in place, its reload refused for good: ready, degraded, naming the catalog and the file (503 only while a new version may come); repaired: whole again', async () => {
  const { reg, r } = await serveCached();
  const { readyz, metric } = probes(r);
  const client = await connectHttp(r.url, 'modern', { name: 'several-ready' });
  try {
    const { file, good } = damageBeta(reg);
    // the first call finds it changed: a new version may be on its way (REGISTRY_STALE, unready meanwhile)
    expect((await call(client, 'describe_tools', { tool_names: ['beta.orders_get'] })).error?.code).toBe('REGISTRY_STALE');
    // nothing else changed, so the reload is refused whole and beta keeps being served, this file refused; once the
    // timed retries are spent the refusal is final
    await logged(r, 'catalog_reload_failed', 1, 'the timed retries to be spent', (e) => e.nextRetry === 'on the next change of its files');
    await until(async () => (await readyz()).status === 200, '/readyz 200 once the refusal is final');
    const ready = await readyz();
    expect(ready.body).toMatchObject({ status: 'ready', degradedChecks: ['catalogs'], unservedCatalogs: [{ catalog: 'beta', served: 'partly', code: 'REGISTRY_INVALID' }] });
    expect(ready.body.degraded[0]).toMatch(/^catalogs: 1 of 3 catalogs not served whole \(the others are\): catalog beta is served without part of it: /);
    expect(ready.body.degraded[0]).toContain(`catalog: ${file} changed on disk after this version was loaded, and the reload of the registry now on disk was refused`);
    expect(ready.body.unservedCatalogs[0].reason).toContain('re-run its import');
    expect(await metric('api_catalog_degraded{check="catalogs"}')).toBe(1);
    expect(await metric('api_catalog_catalog_unserved{catalog="beta",served="partly"}')).toBe(1);
    // what agents see: beta's orders refused with the fix, the rest served
    expect((await call(client, 'describe_tools', { tool_names: ['beta.orders_get'] })).error?.code).toBe('REGISTRY_INVALID');
    const served = await call(client, 'describe_tools', { tool_names: ['alpha.orders_get', 'gamma.orders_get', 'beta.customers_get'] });
    expect(served.success, JSON.stringify(served).slice(0, 500)).toBe(true);

    // put back: seen at the next probe, reloaded, whole again
    writeFileSync(file, good);
    await until(async () => {
      const now = await readyz();
      return now.status === 200 && now.body.degraded === undefined;
    }, '/readyz whole once the file is repaired', 60_000);
    expect((await readyz()).body.unservedCatalogs).toBeUndefined();
    expect(await metric('api_catalog_catalog_unserved{catalog="beta",served="partly"}')).toBeUndefined();
    expect((await call(client, 'describe_tools', { tool_names: ['beta.orders_get'] })).success).toBe(true);
  } finally {
    await client.close();
    await r.stop();
  }
}, 150_000);
