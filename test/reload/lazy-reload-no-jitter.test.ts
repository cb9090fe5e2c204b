// The two ways a changed registry reaches a running server, and the --watch-jitter wait (docs/DEPLOY.md, "Registry
// updates"): the watch's reload waits its random 0..jitter seconds (replicas on one volume spread out), but a call
// that finds a file of the version serving changed under it (REGISTRY_STALE, /readyz 503 until the new version
// serves) reloads at once, and brings forward a watch reload already waiting out its jitter. Waiting there would
// keep the replica failing those calls and unready for the jitter, and every replica that the traffic reaches
// notices together: with round robin all of them would be unready at once. A decision kept, not a change: this
// test guards it. In process, a real MCP client, a real re-import; the watch's random draw is pinned to its maximum
// (an hour), so the reload can only come from the call.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { createLogger } from '../../src/logger.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { LiveCatalogs, type ServedCatalogs } from '../../src/server/core/reload.js';
import { runCaptured } from '../helpers/cli.js';
import { call, connectInMemory } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/timing.js';

const SPEC = join('test', 'fixtures', 'overlays', 'shop.yaml');
let root = '';

async function importShop(...overlays: string[]): Promise<void> {
  const r = await runCaptured(importCli, [SPEC, '--name', 'shop', '--out', join(root, 'reg'), ...overlays.flatMap((o) => ['--overlay', o])]);
  expect(r.code, r.stderr).toBe(0);
}

beforeEach(async () => {
  root = tempDir('ac-lazy-reload-');
  await importShop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

test('a call that finds the serving version stale reloads at once, ahead of the watch reload waiting out its jitter', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) });
  const dir = join(root, 'reg', 'shop');
  let live: LiveCatalogs | undefined;
  const load = async (onChanged: (d: string) => void): Promise<ServedCatalogs> => ({
    catalogs: loadCatalogSet([dir], { onChanged, logger }),
    settings: { baseUrls: { shop: 'http://127.0.0.1:9' }, readOnly: false, env: {} },
  });
  const first = await load((d) => live?.changed(d));
  live = new LiveCatalogs(first, { load, logger });
  // the watch's random wait drawn at its maximum: one hour after the quiet time
  vi.spyOn(Math, 'random').mockReturnValue(1);
  live.watch([dir], { intervalMs: 50, jitterMs: 3_600_000 });
  const c = await connectInMemory({ ...first, live, logger }, { era: 'modern' });
  try {
    const overlay = join(root, 'hide-customer.yaml');
    writeFileSync(overlay, `overlay: 1.0.0\ninfo: { title: hide, version: "1.0" }\nactions:\n  - target: "$.paths['/customers/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
    await importShop(overlay);
    await until(() => lines.some((l) => l.event === 'catalog_change_seen'), 'the watch to see the re-import');
    expect(lines.find((l) => l.event === 'catalog_change_seen')).toMatchObject({ reloadInMs: 3_601_000 });
    // customers.json was never read by the serving version: the call finds it replaced
    const stale = await call(c.client, 'describe_tools', { tool_names: ['customers_get'] });
    expect(stale.error?.code).toBe('REGISTRY_STALE');
    await until(() => live.reloadCount === 1, 'the reload the stale read asked for');
    expect(lines.filter((l) => l.event === 'catalog_reloaded')).toEqual([expect.objectContaining({ trigger: 'changed' })]);
    expect((await call(c.client, 'describe_tools', { tool_names: ['customers_delete'] })).error?.code).toBe('UNKNOWN_TOOL');
  } finally {
    live.close();
    await c.close();
  }
});
