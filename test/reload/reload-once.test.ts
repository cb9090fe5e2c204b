// A registry that stays broken is loaded once per reload attempt (src/server/core/reload.ts). Two registries served
// through the real loader (registryLoader, each registry on its own), one of them broken (an operations file emptied
// while catalog.json still counts it): the reload refuses it, and while it ran, the version serving said its folder
// changed (`catalog_changed`). Before, that queued a second reload at once, which read and parsed the same broken
// files again and failed the same way; now a folder whose files did not change since the reload began is not loaded
// again (its retries are the timed ones). A folder whose files change while the reload runs still gets the reload.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { loadRegistries, registryLoader } from '../../src/cli/serve-reload.js';
import { resolveServerConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { LiveCatalogs, type LoadedVersion, type ServedCatalogs } from '../../src/server/core/reload.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/timing.js';

const SPEC = join('test', 'fixtures', 'overlays', 'shop.yaml');
const settings = { baseUrls: {}, readOnly: false, env: {} };
let live: LiveCatalogs | undefined;

afterEach(() => {
  live?.close();
  live = undefined;
});

interface Rig {
  dirs: string[];
  good: string;
  /** Calls of the real loader so far, and a hook run as each ends (it has read the files). */
  loads: () => number;
  afterLoad: (hook: ((onChanged: (dir: string) => void) => void) | undefined) => void;
  events: () => Array<Record<string, unknown>>;
}

/** Two imported registries (shop, shop2) served by a LiveCatalogs whose loader is the real one, counted. */
async function rig(): Promise<Rig> {
  const root = tempDir('ac-reload-once-');
  for (const name of ['shop', 'shop2']) {
    const r = await runCaptured(importCli, [SPEC, '--name', name, '--out', join(root, 'reg')]);
    expect(r.code, r.stderr).toBe(0);
  }
  const good = join(root, 'good');
  cpSync(join(root, 'reg', 'shop'), good, { recursive: true });
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) });
  const dirs = ['shop', 'shop2'].map((n) => join(root, 'reg', n));
  const real = registryLoader(resolveServerConfig({ registry: dirs }, {}), { logger }, logger);
  let loads = 0;
  let hook: ((onChanged: (dir: string) => void) => void) | undefined;
  const load = async (onChanged: (dir: string) => void, serving: ServedCatalogs): Promise<LoadedVersion> => {
    loads++;
    try {
      return await real(onChanged, serving);
    } finally {
      hook?.(onChanged);
    }
  };
  const first = { catalogs: loadRegistries(dirs, { logger, onChanged: (d) => live?.changed(d) }).set, settings };
  live = new LiveCatalogs(first, { load, logger });
  // the serving version has read every file (as a server that searched and described has)
  void first.catalogs.index;
  return { dirs, good, loads: () => loads, afterLoad: (h) => (hook = h), events: () => lines };
}

/** Event-loop turns enough for a reload queued at once (a 0 ms timer, as `changed` queues it) to have started. */
async function turns(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

test('a registry that stays broken is loaded once per attempt, not again for the change the attempt itself read', async () => {
  const r = await rig();
  writeFileSync(join(r.dirs[0]!, 'operations', 'orders.json'), '[]\n');
  const outcome = await live!.reload('watch');
  expect(outcome.ok).toBe(false);
  expect(outcome.ok === false && outcome.reason).toMatch(/the registry's files disagree/);
  // the version serving noticed the change while the reload read the folder
  expect(r.events().some((e) => e.event === 'catalog_changed' && e.dir === r.dirs[0])).toBe(true);
  await turns();
  expect(r.loads()).toBe(1);
  expect(r.events().filter((e) => e.event === 'catalog_reload_failed').map((e) => e.trigger)).toEqual(['watch']);
  // the refusal is kept, with its timed retry (the retry is what loads the folder next)
  expect(live!.lastFailure).toMatchObject({ trigger: 'watch', code: 'REGISTRY_INVALID', nextRetry: expect.any(String) });

  // an operator's reload of the same broken files: once again, one load
  const again = await live!.reload('signal');
  expect(again.ok).toBe(false);
  await turns();
  expect(r.loads()).toBe(2);
});

test('a folder whose files change while the reload runs is reloaded again at once, and then served', async () => {
  const r = await rig();
  writeFileSync(join(r.dirs[0]!, 'operations', 'orders.json'), '[]\n');
  // the attempt reads the broken files; while it runs the registry is put right and a version says so
  r.afterLoad((onChanged) => {
    r.afterLoad(undefined);
    cpSync(r.good, r.dirs[0]!, { recursive: true });
    onChanged(r.dirs[0]!);
  });
  const outcome = await live!.reload('watch');
  expect(outcome.ok).toBe(false);
  await turns();
  expect(r.loads()).toBe(2);
  await until(() => live!.lastFailure === undefined && r.events().some((e) => e.event === 'catalog_reloaded' && e.trigger === 'changed'), 'the reload for the change');
  expect(live!.current.catalogs.byName.has('shop.orders_get')).toBe(true);
});
