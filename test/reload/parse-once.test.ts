// A reload of several registries parses a changed registry's operations once, in the index worker, not also on the
// serving thread (before, loadRegistries parsed it whole on the serving thread to refuse a damaged registry on its own,
// and the worker then parsed it again to build the index). What that parse was for is kept: a damaged registry among
// the changed ones is found once the worker refuses the set, parsed then, and refused on its own while the others'
// changes are served. From the built library (a worker thread needs compiled JavaScript; `npm run build` first).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml');
const dist = (path: string): string => pathToFileURL(join(REPO_ROOT, 'dist', path)).href;

function importAs(name: string, out: string, overlay?: string): void {
  const r = spawnSync(process.execPath, [builtCli(), 'import', SPEC, '--name', name, '--out', out, ...(overlay ? ['--overlay', overlay] : [])], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
}

/** Runs an ES module script in a fresh Node process; returns its stdout parsed as JSON. */
function script(source: string): any {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', cwd: REPO_ROOT });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

test('a changed registry is parsed in the worker only; a damaged one is still refused on its own', () => {
  const root = tempDir('ac-parse-once-');
  const reg = join(root, 'reg');
  for (const name of ['alpha', 'beta', 'gamma']) importAs(name, reg);
  const hide = join(root, 'hide.yaml');
  writeFileSync(hide, `overlay: 1.0.0\ninfo: { title: hide, version: "1" }\nactions:\n  - target: "$.paths['/orders/{id}'].delete"\n    update: { x-api-catalog-hidden: true }\n`);
  const dirs = ['alpha', 'beta', 'gamma'].map((n) => join(reg, n));
  const out = script(`
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadRegistries, reloadRegistries } from '${dist('cli/serve-reload.js')}';
import { createLogger } from '${dist('logger.js')}';
const lines = [];
const logger = createLogger({ write: (l) => lines.push(JSON.parse(l)) });
const dirs = ${JSON.stringify(dirs)};
const reimport = (name, overlay) => spawnSync(process.execPath, [${JSON.stringify(builtCli())}, 'import', ${JSON.stringify(SPEC)}, '--name', name, '--out', ${JSON.stringify(reg)}, ...(overlay ? ['--overlay', overlay] : [])]);
const parsed = (set) => Object.fromEntries(set.catalogs.map((c) => [c.meta.name, c.parsedFiles().length]));
// the start: its index built on this thread, so every file is read once
const start = loadRegistries(dirs, { logger });
void start.set.index;
const atStart = parsed(start.set);
// 1. alpha re-imported: a reload as the server runs it (load, then the index off the serving thread)
reimport('alpha', ${JSON.stringify(hide)});
lines.length = 0;
const next = loadRegistries(dirs, { logger }, start.set);
await next.set.prepareIndex();
const first = { changed: next.changed, parsed: parsed(next.set), index: lines.filter((l) => l.event === 'search_index'), hidden: next.set.byName.has('alpha.orders_delete') };
// 2. beta damaged and gamma re-imported: beta refused on its own, gamma's change served, beta's previous operations kept
const orders = ${JSON.stringify(join(reg, 'beta', 'operations', 'orders.json'))};
const text = readFileSync(orders, 'utf8');
writeFileSync(orders, text.slice(0, text.length >> 1));
reimport('gamma', ${JSON.stringify(hide)});
const again = await reloadRegistries(dirs, { logger }, next.set);
await again.set.prepareIndex();
const second = { changed: again.changed, refused: again.refused.map((r) => [r.catalog, r.code]), beta: again.set.byName.has('beta.orders_delete'), gamma: again.set.byName.has('gamma.orders_delete') };
console.log(JSON.stringify({ atStart, first, second }));
`);
  expect(Object.values(out.atStart).every((n) => (n as number) > 0)).toBe(true);
  expect(out.first.changed).toEqual(['alpha']);
  // the serving thread parsed nothing of alpha's new files (before: every one of them); the worker built the index
  expect(out.first.parsed).toEqual({ alpha: 0, beta: out.atStart.beta, gamma: out.atStart.gamma });
  expect(out.first.index).toEqual([expect.objectContaining({ source: 'built', thread: 'worker' })]);
  expect(out.first.hidden).toBe(false);
  expect(out.second).toEqual({ changed: ['gamma'], refused: [['beta', 'REGISTRY_INVALID']], beta: true, gamma: false });
});
