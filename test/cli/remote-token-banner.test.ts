// `serve --http --allow-remote` with a static or named token (the built CLI): without an https --public-url the start
// warns that bearer tokens cross the network in clear text, and on a wildcard bind (0.0.0.0) the banner prints a
// client URL the server's own Host check accepts (an --allow-host name, else loopback with a note saying what to
// set), never http://0.0.0.0:<port>/mcp. And `token new --scopes a --scopes b` keeps both.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cleartextTokenWarning } from '../../src/config.js';
import { newToken } from '../../src/server/auth/tokens.js';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/timing.js';

const TOKEN = 'remote-banner-static-token-8d2f6a';
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** `serve --http` from the built CLI until its banner is out; the caller stops it. */
async function serve(args: string[], env: Record<string, string>) {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('API_CATALOG_')) clean[k] = v;
  const child = spawn(process.execPath, [builtCli(), 'serve', '--registry', fixtureRegistry('petstore'), '--http', '--port', '0', '--no-watch', ...args], {
    cwd: REPO_ROOT,
    env: { ...clean, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await until(() => /Stop with Ctrl-C/.test(stderr) || child.exitCode !== null, 'the serve banner', 60_000);
  expect(child.exitCode, stderr).toBeNull();
  // the listening port, from the probes line (probes take any Host)
  const port = Number(/Probes: http:\/\/[^:]+:(\d+)\/healthz/.exec(stderr)?.[1]);
  const url = /\n {2}URL: (\S+)/.exec(stderr)?.[1] as string;
  return {
    stderr: () => stderr,
    port,
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

test('a static token on 0.0.0.0 without TLS: the warning, and a banner URL the Host check accepts', async () => {
  const s = await serve(['--host', '0.0.0.0', '--allow-remote'], { API_CATALOG_HTTP_TOKEN: TOKEN });
  try {
    expect(s.stderr()).toContain(
      'api-catalog: warning: --allow-remote on 0.0.0.0 over plain http: bearer tokens (API_CATALOG_HTTP_TOKEN) cross the network in clear text ' +
        'unless a TLS proxy is in front. Put one in front (docs/DEPLOY.md) and give the https address clients use with --public-url https://<name>/mcp',
    );
    // the banner (the log's `serve` line names the listening address, which is no client URL)
    const banner = s.stderr().slice(s.stderr().indexOf('api-catalog: serving'));
    expect(banner).not.toContain(`0.0.0.0:${s.port}/mcp`);
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/mcp`);
    expect(s.stderr()).toContain(`"url":"http://127.0.0.1:${s.port}/mcp"`);
    expect(s.stderr()).toMatch(/Note: listening on all interfaces \(0\.0\.0\.0\), .*set --allow-host <the name they use>/);
    // a client using exactly the banner's URL gets in
    const host = new URL(s.url).host;
    const r = await rawHttp(s.port, 'POST', '/mcp', { ...JSON_HEADERS, host, authorization: `Bearer ${TOKEN}` }, INIT);
    expect(r.status).toBe(200);
    expect(s.stderr()).not.toContain(TOKEN);
  } finally {
    await s.stop();
  }
}, 90_000);

test('named tokens on 0.0.0.0 with --allow-host: the warning names the tokens file, the URL uses that name and works', async () => {
  const dir = tempDir('ac-remote-banner-');
  const ci = newToken('ci-bot', ['catalog:read']);
  const file = join(dir, 'tokens.txt');
  writeFileSync(file, `${ci.line}\n`, { mode: 0o600 });
  const s = await serve(['--host', '0.0.0.0', '--allow-remote', '--allow-host', 'mcp.lan', '--tokens', file], {});
  try {
    expect(s.stderr()).toContain("api-catalog: warning: --allow-remote on 0.0.0.0 over plain http: bearer tokens (the --tokens file's) cross the network in clear text");
    expect(s.url).toBe(`http://mcp.lan:${s.port}/mcp`);
    expect(s.stderr()).not.toMatch(/Note: listening on all interfaces/);
    const r = await rawHttp(s.port, 'POST', '/mcp', { ...JSON_HEADERS, host: new URL(s.url).host, authorization: `Bearer ${ci.token}` }, INIT);
    expect(r.status).toBe(200);
  } finally {
    await s.stop();
  }
}, 90_000);

test('an https --public-url (a TLS proxy in front): no warning, and the banner gives clients that URL', async () => {
  const s = await serve(['--host', '0.0.0.0', '--allow-remote', '--public-url', 'https://mcp.example.com/mcp'], { API_CATALOG_HTTP_TOKEN: TOKEN });
  try {
    expect(s.stderr()).not.toContain('warning: --allow-remote');
    expect(s.url).toBe('https://mcp.example.com/mcp');
    expect(s.stderr()).toContain('"url":"https://mcp.example.com/mcp"');
    expect(s.stderr()).toContain('Catalog explorer: https://mcp.example.com/');
  } finally {
    await s.stop();
  }
}, 90_000);

test('cleartextTokenWarning: only for a static or named token reachable off loopback without an https --public-url', () => {
  const base = { host: '10.0.0.11', allowRemote: true, authToken: TOKEN };
  expect(cleartextTokenWarning(base)).toMatch(/^--allow-remote on 10\.0\.0\.11 over plain http: bearer tokens \(API_CATALOG_HTTP_TOKEN\)/);
  expect(cleartextTokenWarning({ ...base, tokensFile: 't.txt' })).toMatch(/bearer tokens \(API_CATALOG_HTTP_TOKEN and the --tokens file's\)/);
  expect(cleartextTokenWarning({ ...base, publicUrl: 'https://mcp.example.com/mcp' })).toBeUndefined();
  expect(cleartextTokenWarning({ ...base, host: '127.0.0.1' })).toBeUndefined();
  expect(cleartextTokenWarning({ ...base, allowRemote: false })).toBeUndefined();
  // OAuth alone: its --public-url must be https off loopback already
  expect(cleartextTokenWarning({ host: '0.0.0.0', allowRemote: true })).toBeUndefined();
});

test('token new: a repeated --scopes adds up (as serve’s list options do), and the help says so', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [builtCli(), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });
  const r = cli(['token', 'new', 'x', '--scopes', 'catalog:read', '--scopes', 'catalog:execute']);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.split('\n')[1]).toMatch(/^x catalog:read,catalog:execute sha256:[0-9a-f]{64}$/);
  const same = cli(['token', 'new', 'y', '--scopes', 'catalog:read', '--scopes', 'catalog:read,catalog:execute']);
  expect(same.stdout.split('\n')[1]).toMatch(/^y catalog:read,catalog:execute sha256:/);
  const typo = cli(['token', 'new', 'z', '--scopes', 'catalog:read', '--scopes', 'catalog:exec']);
  expect(typo.status).toBe(2);
  expect(typo.stderr).toMatch(/unknown scope "catalog:exec"/);
  expect(cli(['token', '--help']).stdout).toContain('Repeatable: the values add up');
});

test('the banner names the per-catalog token header when several catalogs are served, the plain one for one', async () => {
  const one = await serve([], {});
  try {
    expect(one.stderr()).toContain('Upstream credential: send header X-Upstream-Token with each request');
  } finally {
    await one.stop();
  }
  // with several, a plain X-Upstream-Token is no catalog's (upstream-tokens.ts): the banner must not advise it
  const two = await serve(['--registry', fixtureRegistry('zoo')], {});
  try {
    expect(two.stderr()).toContain('send header X-Upstream-Token-<catalog> (X-Upstream-Token-petstore, X-Upstream-Token-zoo)');
    expect(two.stderr()).not.toContain('send header X-Upstream-Token with each request');
  } finally {
    await two.stop();
  }
}, 120_000);
