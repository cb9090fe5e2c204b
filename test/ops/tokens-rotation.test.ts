// Named tokens with a real `serve --http` process and a real tokens file (needs `npm run build`):
// - rotation as `api-catalog token --help` shows it: `token new <existing name>` appended to the file is a second
//   token of that principal (both work), until the old line is deleted; a replica (re)started with both lines starts;
// - a refused re-read (a typo on one line) fails closed for what changed: a line deleted meanwhile (a revocation) is
//   refused at once, and the refusal is on /readyz (tokensReloadFailed, the replica stays ready) and /metrics
//   (api_catalog_tokens_reload_failed) until the file is fixed. Before, the previous entries all stayed in force,
//   and nothing but one log line said so;
// - an unreachable OAuth issuer next to named and static tokens leaves the replica ready (their clients are served),
//   reported as degraded on /readyz and /metrics; OAuth tokens get 503.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { newToken } from '../../src/server/auth/tokens.js';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { modernRpc } from '../helpers/mcp-raw.js';
import { freePort } from '../helpers/redis.js';
import { startReplica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from './helpers.js';

const STATIC = 'static-token-rotation-test-7f3a91c2';

/** `api-catalog token new <name>` as an operator runs it: [token, file line]. */
function tokenNew(name: string): { token: string; line: string; stderr: string } {
  const r = spawnSync(process.execPath, [builtCli(), 'token', 'new', name, '--scopes', 'catalog:read'], { cwd: REPO_ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const [token, line] = r.stdout.trim().split('\n') as [string, string];
  return { token, line, stderr: r.stderr };
}

const status = async (url: string, token: string) =>
  (await modernRpc(url, 'tools/call', { name: 'list_domains', arguments: {} }, { headers: { authorization: `Bearer ${token}` } })).status;

async function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  return { status: res.status, text: await res.text() };
}

const gauge = (metrics: string, name: string): string | undefined => new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1];

test('rotating a named token by appending a line for the same name; a refused re-read fails closed for a deleted line and shows on /readyz and /metrics', async () => {
  const dir = tempDir('ac-tokens-rotation-');
  const file = join(dir, 'tokens.txt');
  const alice = tokenNew('alice');
  const rob = tokenNew('rob');
  writeFileSync(file, `${alice.line}\n${rob.line}\n`, { mode: 0o600 });
  const r = await startReplica(['--registry', fixtureRegistry('petstore'), '--tokens', file], { API_CATALOG_HTTP_TOKEN: STATIC, API_CATALOG_READ_RATE_LIMIT: '0' });
  try {
    expect(await status(r.url, alice.token)).toBe(200);

    // Rotation: the help's command for an existing name, its line appended; token new says what that means.
    const alice2 = tokenNew('alice');
    expect(alice2.stderr).toContain('if alice is there already, this is a rotation: both tokens work until you delete the old line');
    appendFileSync(file, `${alice2.line}\n`);
    await until(async () => (await status(r.url, alice2.token)) === 200, 'the new alice token to be accepted');
    expect(await status(r.url, alice.token)).toBe(200);
    expect(events(r.stderr(), 'tokens_reload_failed')).toEqual([]);

    // A replica started now, from this file, starts (before, a name on two lines stopped the start).
    const other = await startReplica(['--registry', fixtureRegistry('petstore'), '--tokens', file], { API_CATALOG_READ_RATE_LIMIT: '0' });
    try {
      expect(await status(other.url, alice2.token)).toBe(200);
    } finally {
      await other.stop();
    }

    // The client uses the new token: the old line is deleted, the old token refused.
    writeFileSync(file, `${rob.line}\n${alice2.line}\n`);
    await until(async () => (await status(r.url, alice.token)) === 401, 'the old alice token to be refused');
    expect(await status(r.url, alice2.token)).toBe(200);

    // Rob leaves: his line is deleted in the same save as a typo on another line. The re-read is refused, but rob's
    // token is refused at once (fail closed), alice's (unchanged line) goes on, and the new line is not in force.
    const carol = newToken('carol', ['catalog:read']);
    writeFileSync(file, `${alice2.line}\n${carol.line.replace('sha256:', 'sha256:xx')}\n`);
    await until(async () => (await status(r.url, rob.token)) === 401, 'rob to be refused');
    expect(await status(r.url, alice2.token)).toBe(200);
    const failed = events(r.stderr(), 'tokens_reload_failed');
    expect(failed.at(-1)).toMatchObject({ level: 'error', kept: 1, refused: 1 });
    expect(failed.at(-1)?.message).toContain(`--tokens ${file} line 2: the third field must be sha256:`);
    // shown where operators look: /readyz (still ready: the replica serves) and /metrics
    const ready = await get(r.port, '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text).tokensReloadFailed).toEqual([{ since: expect.any(String), kept: 1, refused: 1 }]);
    expect(ready.text).not.toContain('alice'); // /readyz answers anyone: no names
    const metrics = await get(r.port, '/metrics', { authorization: `Bearer ${STATIC}` });
    expect(gauge(metrics.text, 'api_catalog_tokens_reload_failed')).toBe('1');

    // Fixed: carol's line is in force, the refusal is gone from /readyz and /metrics.
    writeFileSync(file, `${alice2.line}\n${carol.line}\n`);
    await until(async () => (await status(r.url, carol.token)) === 200, 'carol to be accepted');
    expect(JSON.parse((await get(r.port, '/readyz')).text).tokensReloadFailed).toBeUndefined();
    expect(gauge((await get(r.port, '/metrics', { authorization: `Bearer ${STATIC}` })).text, 'api_catalog_tokens_reload_failed')).toBe('0');

    const log = r.stderr();
    for (const t of [alice.token, alice2.token, rob.token, carol.token, STATIC]) expect(log).not.toContain(t);
    expect(readFileSync(file, 'utf8')).not.toContain(alice2.token);
  } finally {
    await r.stop();
  }
}, 120_000);

test('an unreachable OAuth issuer with named and static tokens configured: ready and degraded (/readyz, /metrics); named and static tokens served, OAuth tokens 503', async () => {
  const dir = tempDir('ac-oauth-degraded-');
  const file = join(dir, 'tokens.txt');
  const ci = tokenNew('ci-bot');
  writeFileSync(file, `${ci.line}\n`, { mode: 0o600 });
  const issuer = `http://127.0.0.1:${await freePort()}`;
  const r = await startReplica(['--registry', fixtureRegistry('petstore'), '--tokens', file, '--oauth-issuer', issuer], { API_CATALOG_HTTP_TOKEN: STATIC, API_CATALOG_READ_RATE_LIMIT: '0' }, { healthy: false });
  try {
    const ready = await get(r.port, '/readyz');
    expect(ready.status).toBe(200);
    const body = JSON.parse(ready.text) as Record<string, any>;
    expect(body).toMatchObject({ status: 'ready', reasons: [], degradedChecks: ['oauth'] });
    expect(body.degraded[0]).toContain(`oauth: no authorization server metadata for ${issuer}`);
    expect(body.degraded[0]).toContain('ECONNREFUSED');
    expect(body.degraded[0]).toContain('OAuth tokens get 503 meanwhile, named tokens (--tokens) and the static token (API_CATALOG_HTTP_TOKEN) still work');

    expect(await status(r.url, ci.token)).toBe(200);
    expect(await status(r.url, STATIC)).toBe(200);
    // a JWT-shaped token can only be an OAuth one here, and the issuer cannot be asked: 503 (it may be good)
    const jwt = `${Buffer.from('{"alg":"RS256","kid":"k"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.c2ln`;
    expect(await status(r.url, jwt)).toBe(503);

    const metrics = (await get(r.port, '/metrics', { authorization: `Bearer ${STATIC}` })).text;
    expect(gauge(metrics, 'api_catalog_ready')).toBe('1');
    expect(metrics).toMatch(/^api_catalog_degraded\{check="oauth"\} 1$/m);
    await until(async () => events(r.stderr(), 'readiness_changed').length > 0, 'the readiness line');
    expect(events(r.stderr(), 'readiness_changed')[0]).toMatchObject({ level: 'warn', ready: true, reasons: [] });
  } finally {
    await r.stop();
  }
}, 60_000);
