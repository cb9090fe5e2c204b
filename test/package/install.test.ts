// Installed as people install tools (issue 25 item 9): `npm pack` gives a package that works from a clean folder
// with nothing else. npm itself does the installing — `npx <tarball> --help`, then `npm install <tarball>` — from a
// loopback stand-in for the registry that holds only the lockfile's runtime dependencies (test/helpers/
// npm-registry.ts), with an empty npm cache, in a temp folder outside the repository. The installed CLI then
// serves the embedded GitHub catalog (over stdio to a real MCP client, from its search snapshot; and over HTTP) and
// imports a spec and searches it. Nothing reaches the internet: a package the registry lacks is a failure.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, call, newClient } from '../helpers/mcp.js';
import { startNpmRegistry, type TestNpmRegistry } from '../helpers/npm-registry.js';
import { tempDir } from '../helpers/temp.js';

let work = '';
let tarball = '';
let registry: TestNpmRegistry;

/**
 * npm with the stand-in registry, a fresh cache, and nothing that phones home. Asynchronous: the stand-in registry
 * answers from this process.
 */
function npm(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', args, {
    cwd,
    env: {
      ...process.env,
      npm_config_registry: registry.url,
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'error',
      // no user or global npmrc of this machine in the way
      npm_config_userconfig: join(work, 'npmrc'),
      npm_config_globalconfig: join(work, 'npmrc-global'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  work = realpathSync(tempDir('ac-package-'));
  writeFileSync(join(work, 'npmrc'), '');
  writeFileSync(join(work, 'npmrc-global'), '');
  registry = await startNpmRegistry(REPO_ROOT, join(work, 'registry'));
  // `npm pack` in the repository. Its prepack script builds dist/ when it is stale; here the build must already be
  // current (CI builds before testing), so that packing never rebuilds under the other tests' feet.
  const stale = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-if-stale.mjs'), '--check'], { encoding: 'utf8' });
  expect(stale.status, `dist/ is stale: run \`npm run build\` first\n${stale.stdout}${stale.stderr}`).toBe(0);
  mkdirSync(join(work, 'packed'));
  const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', join(work, 'packed')], REPO_ROOT);
  expect(packed.status, packed.stderr).toBe(0);
  const files = readdirSync(join(work, 'packed')).filter((f) => f.endsWith('.tgz'));
  expect(files).toHaveLength(1);
  tarball = join(work, 'packed', files[0] as string);
}, 240_000);
afterAll(async () => {
  await registry?.close();
});

test('npx <tarball> --help works in an empty folder', async () => {
  const empty = join(work, 'empty');
  mkdirSync(empty);
  const r = await npm(['exec', '--yes', `--package=${tarball}`, '--', 'api-catalog', '--help'], empty);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/api-catalog/);
  expect(r.stdout).toMatch(/serve/);
  expect(r.stdout).toMatch(/import/);
  expect(registry.misses).toEqual([]);
}, 240_000);

test('npm install <tarball> in a clean folder: serve the embedded catalog (stdio and HTTP), import a spec and search it', async () => {
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'tools', version: '1.0.0', private: true }));
  const installed = await npm(['install', tarball], app);
  expect(installed.status, installed.stderr).toBe(0);
  const bin = join(app, 'node_modules', '.bin', 'api-catalog');
  expect(existsSync(bin)).toBe(true);
  // nothing of the repository is reachable from here, and no dev dependency came along
  for (const dev of ['vitest', 'typescript', 'esbuild', '@modelcontextprotocol/client']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);

  // every docs/... path that the installed CLI's help texts name is in the tarball (docs audit #3): `serve --help`
  // points to docs/config.example.json, docs/config.schema.json and docs/DEPLOY.md, an installed tool has no clone
  const listed = new Set(spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').map((l) => l.replace(/^package\//, '')));
  const printed = new Set<string>();
  for (const command of ['', 'serve', 'import', 'search', 'describe', 'domains', 'call', 'eval', 'embed', 'token', 'suggest-overlay']) {
    const help = spawnSync(bin, [...(command ? [command] : []), '--help'], { cwd: app, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: app } });
    expect(help.status, `${command} --help: ${help.stderr}`).toBe(0);
    for (const m of help.stdout.matchAll(/\bdocs\/[A-Za-z0-9_./-]*[A-Za-z0-9_]/g)) printed.add(m[0]);
  }
  expect([...printed]).toEqual(expect.arrayContaining(['docs/config.example.json', 'docs/config.schema.json', 'docs/DEPLOY.md']));
  for (const path of printed) {
    expect(listed.has(path), `${path} (printed by a --help) is not in the tarball`).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'api-catalog', path)), `${path} is not installed`).toBe(true);
  }

  // stdio, as a desktop client launches it, against the embedded catalog and its snapshot
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransport({
    command: bin,
    args: ['serve'],
    cwd: app,
    env: { PATH: process.env.PATH ?? '', HOME: app, API_CATALOG_STARTUP_TRACE: '1', API_CATALOG_LOG_LEVEL: 'info' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = newClient('legacy', {}, 'installed');
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_domains', 'search_tools', 'describe_tools', 'execute_tool']);
    const domains = await call(client, 'list_domains', {});
    expect(domains.value.totalTools).toBeGreaterThan(1000);
    const found = await call(client, 'search_tools', { query: 'create an issue', limit: 3 });
    expect(found.value.results[0].name).toBe('issues_create');
    const deadline = Date.now() + 10_000;
    while (!stderr.includes('"startup_trace"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const line = stderr.split('\n').find((l) => l.includes('"startup_trace"'));
    expect(line, stderr).toBeDefined();
    const trace = JSON.parse(line as string) as { index: { kind: string } };
    // the committed snapshot is used by the installed package (its files were re-timed by the install: hashed)
    expect(trace.index.kind).toBe('snapshot');
  } finally {
    await client.close();
  }

  // HTTP (what `npm start` runs), on a free port
  const http = spawn(bin, ['serve', '--http', '--port', '0'], { cwd: app, env: { PATH: process.env.PATH ?? '', HOME: app }, stdio: ['ignore', 'ignore', 'pipe'] });
  let banner = '';
  http.stderr.on('data', (d: Buffer) => (banner += d.toString()));
  try {
    const deadline = Date.now() + 30_000;
    while (!/URL: http:\/\/127\.0\.0\.1:\d+\/mcp/.test(banner) && http.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const url = /URL: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(banner)?.[1];
    expect(url, banner).toBeDefined();
    const ready = await fetch((url as string).replace(/\/mcp$/, '/readyz'));
    expect(ready.status).toBe(200);
    const { connectHttp } = await import('../helpers/mcp.js');
    const remote = await connectHttp(url as string, 'modern', { name: 'installed-http' });
    try {
      expect((await call(remote, 'search_tools', { query: 'list pull requests', limit: 3 })).value.results[0].name).toBe('pulls_list');
    } finally {
      await remote.close();
    }
  } finally {
    http.kill('SIGTERM');
    await new Promise((r) => http.once('exit', r));
  }

  // import a spec of one's own, then search it
  copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'overlays', 'shop.yaml'), join(app, 'shop.yaml'));
  const imported = spawnSync(bin, ['import', 'shop.yaml', '--name', 'shop', '--out', 'registry'], { cwd: app, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: app } });
  expect(imported.status, imported.stderr).toBe(0);
  expect(imported.stderr + imported.stdout).toMatch(/imported \d+ operations/);
  expect(existsSync(join(app, 'registry', 'shop', 'search.snapshot'))).toBe(true);
  const searched = spawnSync(bin, ['search', 'refund an order', '--registry', 'registry/shop', '--limit', '1'], { cwd: app, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: app } });
  expect(searched.status, searched.stderr).toBe(0);
  expect(searched.stdout).toMatch(/orders_refund/);
  expect(registry.misses).toEqual([]);
}, 240_000);
