// A registry folder moved away and back under a running replica (audit 11, defects 7 and 8), through the built CLI:
// the watch sees it go (the reload is refused, /readyz shows reloadFailed) and come back unchanged (a reload that
// clears it); /metrics counts reloads by outcome and says while a refusal stands and which version is served, so an
// operator can alert on "a replica still serves the old registry". Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { startReplica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from '../ops/helpers.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');

test('moved away: refused and shown; moved back unchanged: reloaded and cleared; /metrics follows both', async () => {
  const root = tempDir('ac-moved-back-');
  const imported = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', 'shop', '--out', join(root, 'reg')], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(imported.status, imported.stderr).toBe(0);
  const dir = join(root, 'reg', 'shop');
  const r = await startReplica(['--registry', dir], { SHOP_BASE_URL: 'http://127.0.0.1:9', API_CATALOG_LOG_LEVEL: 'info' });
  const base = `http://127.0.0.1:${r.port}`;
  const readyz = async () => (await (await fetch(`${base}/readyz`)).json()) as Record<string, any>;
  const metrics = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return (series: string) => {
      const m = new RegExp(`^${series.replace(/[{}"=,.]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
      return m?.[1] !== undefined ? Number(m[1]) : undefined;
    };
  };
  try {
    const v1 = (await readyz()).version as string;
    expect(v1).toMatch(/^[0-9a-f]{12}$/);
    let m = await metrics();
    expect(m('api_catalog_catalog_reloads_total{outcome="ok"}')).toBe(0);
    expect(m('api_catalog_catalog_reloads_total{outcome="failed"}')).toBe(0);
    expect(m('api_catalog_catalog_reload_failed')).toBe(0);
    expect(m(`api_catalog_catalog_version_info{version="${v1}"}`)).toBe(1);

    renameSync(dir, `${dir}.moved`);
    await until(() => events(r.stderr(), 'catalog_reload_failed').length === 1, 'the reload the removal triggers');
    expect((await readyz()).reloadFailed).toMatchObject({ trigger: 'watch', serving: v1 });
    m = await metrics();
    expect(m('api_catalog_catalog_reloads_total{outcome="failed"}')).toBe(1);
    expect(m('api_catalog_catalog_reload_failed')).toBe(1);
    expect(m(`api_catalog_catalog_version_info{version="${v1}"}`)).toBe(1);

    // Back as it was (same files, same stats): the watch compares with what it saw last, the missing file.
    renameSync(`${dir}.moved`, dir);
    await until(() => events(r.stderr(), 'catalog_reloaded').length === 1, 'a reload once the folder is back');
    expect(events(r.stderr(), 'catalog_reloaded')[0]).toMatchObject({ trigger: 'watch', version: v1, changed: false });
    const after = await readyz();
    expect(after.status).toBe('ready');
    expect(after.reloadFailed).toBeUndefined();
    m = await metrics();
    expect(m('api_catalog_catalog_reloads_total{outcome="ok"}')).toBe(1);
    expect(m('api_catalog_catalog_reloads_total{outcome="failed"}')).toBe(1);
    expect(m('api_catalog_catalog_reload_failed')).toBe(0);
    expect(m(`api_catalog_catalog_version_info{version="${v1}"}`)).toBe(1);
  } finally {
    await r.stop();
  }
}, 120_000);
