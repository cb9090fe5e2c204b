// The retry schedule of a refused reload (ops audit, defect 5), on a fake clock: a refusal the disk caused (the
// watch, a changed file) that a writer still at work explains (REGISTRY_INVALID, REGISTRY_STALE) is tried again
// 2, 5 and 15 s later, then only when a file of the registry changes (stat'ed every 5 s), until a reload succeeds.
// An operator's SIGHUP is not retried (they send it again), and neither is a registry that is gone (the watch sees it
// come back). The watch's random wait (--watch-jitter) is drawn once per change seen. The end-to-end case (a copy
// that writes catalog.json first) is in copy-order.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { AppError, type ErrorCode } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { LiveCatalogs, type ServedCatalogs } from '../../src/server/core/reload.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

let lives: LiveCatalogs[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  for (const live of lives.splice(0)) live.close();
  vi.useRealTimers();
});

/** A LiveCatalogs whose load fails with `code` while `state.failing`, counting loads; watching `dir` when given. */
function served(code: ErrorCode, dir?: string) {
  const state = { failing: true, loads: 0 };
  const first: ServedCatalogs = { catalogs: loadCatalogSet([fixtureRegistry('petstore')]), settings: { baseUrls: {}, readOnly: false, env: {} } };
  // its index ready now, so that a reload that loads it has nothing left to wait for but the fake clock
  void first.catalogs.index;
  const load = async (): Promise<ServedCatalogs> => {
    state.loads++;
    if (state.failing) throw new AppError(code, `catalog: files that disagree (${code})`);
    return first;
  };
  const live = new LiveCatalogs(first, { load, logger: createLogger({ write: () => undefined }) });
  // a long interval: the watch's own polling plays no part here (fs.watchFile is not a JS timer)
  if (dir !== undefined) live.watch([dir], { intervalMs: 3_600_000 });
  lives.push(live);
  return { live, state };
}

test('a refusal the watch caused: retried at 2, 5 and 15 s, then at each change of the registry files, until one succeeds', async () => {
  const dir = tempDir('ac-retry-');
  writeFileSync(join(dir, 'catalog.json'), '{}');
  const { live, state } = served('REGISTRY_INVALID', dir);
  const t0 = Date.now();
  expect((await live.reload('watch')).ok).toBe(false);
  expect(live.lastFailure?.nextRetry).toBe(new Date(t0 + 2000).toISOString());
  const loadsAfter = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
    return state.loads;
  };
  expect(await loadsAfter(1999)).toBe(1);
  expect(await loadsAfter(1)).toBe(2);
  expect(live.lastFailure).toMatchObject({ trigger: 'retry', code: 'REGISTRY_INVALID' });
  expect(await loadsAfter(4999)).toBe(2);
  expect(await loadsAfter(1)).toBe(3);
  expect(await loadsAfter(14_999)).toBe(3);
  expect(await loadsAfter(1)).toBe(4);
  expect(live.lastFailure?.nextRetry).toBe('on the next change of its files');
  // nothing changes on disk: no more reloads
  expect(await loadsAfter(600_000)).toBe(4);
  // a file of the registry written (still refused): one reload, then it waits for the next change again
  mkdirSync(join(dir, 'operations'));
  writeFileSync(join(dir, 'operations', 'orders.json'), '[]');
  expect(await loadsAfter(5000)).toBe(5);
  expect(await loadsAfter(600_000)).toBe(5);
  state.failing = false;
  writeFileSync(join(dir, 'catalog.json'), '{"v":2}');
  expect(await loadsAfter(5000)).toBe(6);
  expect(live.lastFailure).toBeUndefined();
  expect(await loadsAfter(600_000)).toBe(6);
});

test('a retry succeeding on the way ends the series; a new change on disk starts it again at 2 s', async () => {
  const { live, state } = served('REGISTRY_STALE');
  expect((await live.reload('changed')).ok).toBe(false);
  await vi.advanceTimersByTimeAsync(2000);
  expect(state.loads).toBe(2);
  state.failing = false;
  await vi.advanceTimersByTimeAsync(5000);
  expect(state.loads).toBe(3);
  expect(live.lastFailure).toBeUndefined();
  await vi.advanceTimersByTimeAsync(600_000);
  expect(state.loads).toBe(3);
  state.failing = true;
  expect((await live.reload('watch')).ok).toBe(false);
  await vi.advanceTimersByTimeAsync(2000);
  expect(state.loads).toBe(5);
});

test.each([
  ['SIGHUP', 'signal', 'REGISTRY_INVALID'],
  ['a registry that is gone', 'watch', 'REGISTRY_NOT_FOUND'],
] as const)('not retried: %s', async (_what, trigger, code) => {
  const { live, state } = served(code);
  const outcome = await live.reload(trigger);
  expect(outcome.ok).toBe(false);
  expect(live.lastFailure?.nextRetry).toBeUndefined();
  await vi.advanceTimersByTimeAsync(600_000);
  expect(state.loads).toBe(1);
});

test('a SIGHUP refused meanwhile leaves the pending retry as it is', async () => {
  const { live, state } = served('REGISTRY_INVALID');
  await live.reload('watch');
  const due = live.lastFailure?.nextRetry;
  await live.reload('signal');
  expect(live.lastFailure).toMatchObject({ trigger: 'signal', nextRetry: due });
  await vi.advanceTimersByTimeAsync(2000);
  expect(state.loads).toBe(3);
});

test('the watch waits its quiet time plus a random share of the jitter, drawn when it sees the change', async () => {
  vi.useRealTimers();
  const dir = tempDir('ac-jitter-');
  writeFileSync(join(dir, 'catalog.json'), '{}');
  const lines: Array<Record<string, unknown>> = [];
  const first: ServedCatalogs = { catalogs: loadCatalogSet([fixtureRegistry('petstore')]), settings: { baseUrls: {}, readOnly: false, env: {} } };
  const live = new LiveCatalogs(first, { load: async () => first, logger: createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) }) });
  lives.push(live);
  vi.spyOn(Math, 'random').mockReturnValue(0.25);
  live.watch([dir], { intervalMs: 20, debounceMs: 1000, jitterMs: 8000 });
  expect(lines.find((l) => l.event === 'catalog_watch')).toMatchObject({ debounceMs: 1000, jitterMs: 8000 });
  // written again until seen: the poller takes its first stat in the background, and a write before it is no change
  const deadline = Date.now() + 20_000;
  for (let n = 2; !lines.some((l) => l.event === 'catalog_change_seen') && Date.now() < deadline; n++) {
    writeFileSync(join(dir, 'catalog.json'), `{"v":${n}}`.padEnd(n, ' '));
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(lines.find((l) => l.event === 'catalog_change_seen')).toMatchObject({ file: join(dir, 'catalog.json'), reloadInMs: 3000 });
  vi.restoreAllMocks();
});
