// Credential names are checked at start (a bad one stops serve), but on a reload one catalog whose re-import no longer
// fits its credential names (its API-key scheme was renamed) must not hold back the other catalogs' changes: it is
// logged (catalog_credentials_invalid) and its calls are refused one by one with the same message, while another
// registry's re-import is served. Before, the check threw inside the reload and the whole reload was refused.
// Real parts: the built CLI (import, serve --http), real re-imports, a real MCP client. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT, builtCli, call, connectHttp } from '../helpers/mcp.js';
import { startReplica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { twoKeysSpec } from '../helpers/two-keys.js';
import { events, until } from '../ops/helpers.js';

function importSpec(spec: string, name: string, out: string, overlay?: string): void {
  const r = spawnSync(process.execPath, [builtCli(), 'import', spec, '--name', name, '--out', out, ...(overlay ? ['--overlay', overlay] : [])], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
}

test("one catalog's credential names no longer fitting after a re-import: logged, and another catalog's change is served", async () => {
  const dir = tempDir('ac-cred-reload-');
  const reg = join(dir, 'reg');
  const spec = join(dir, 'twokeys.yaml');
  writeFileSync(spec, twoKeysSpec('clientId'));
  importSpec(spec, 'twokeys', reg);
  const shop = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');
  importSpec(shop, 'alpha', reg);
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ catalogs: { twokeys: { credentials: { 'apiKey:clientId': 'TWOKEYS_CID' } } } }));
  const r = await startReplica(['--registry', join(reg, 'twokeys'), '--registry', join(reg, 'alpha'), '--config', config, '--index-cache', 'off'], {
    API_CATALOG_SIGNING_KEY: 'cred-reload-test-key-0123456789abcdef',
    API_CATALOG_LOG_LEVEL: 'info',
    API_CATALOG_WATCH_JITTER_SECONDS: '0',
  });
  const client = await connectHttp(r.url, 'modern', { name: 'cred-reload' });
  try {
    expect((await call(client, 'describe_tools', { tool_names: ['alpha.orders_delete'] })).success).toBe(true);
    // twokeys' second scheme renamed (clientId -> partner), and alpha's orders_delete hidden, in one reload
    writeFileSync(spec, twoKeysSpec('partner'));
    importSpec(spec, 'twokeys', reg);
    const hide = join(dir, 'hide.yaml');
    writeFileSync(hide, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
    importSpec(shop, 'alpha', reg, hide);
    r.child.kill('SIGHUP');
    await until(() => events(r.stderr(), 'catalog_credentials_invalid').length >= 1, 'the credential problem logged', 90_000);
    await until(async () => (await call(client, 'describe_tools', { tool_names: ['alpha.orders_delete'] })).error?.code === 'UNKNOWN_TOOL', "alpha's change served", 90_000);
    const logged = events(r.stderr(), 'catalog_credentials_invalid')[0] as Record<string, string>;
    expect(logged.message).toContain('catalogs.twokeys.credentials."apiKey:clientId" names no API-key scheme of catalog twokeys');
    // twokeys' calls are refused one by one, naming the same problem; nothing crashed
    const d = await call(client, 'describe_tools', { tool_names: ['twokeys.getCert'] });
    const handle = d.value.tools[0].example.handle as string;
    const out = await call(client, 'execute_tool', { tool_name: 'twokeys.getCert', args: { id: '1' }, handle });
    expect(out.error?.code).toBe('CONFIG_INVALID');
    // no reload was refused for it (a reload that met a registry mid-write may be refused and retried: not this)
    expect(events(r.stderr(), 'catalog_reload_failed').filter((e) => e.code === 'CONFIG_INVALID' || String(e.reason ?? e.message ?? '').includes('credentials'))).toEqual([]);
  } finally {
    await client.close();
    await r.stop();
  }
}, 180_000);
