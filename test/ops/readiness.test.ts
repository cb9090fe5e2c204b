// Liveness and readiness, truthful (RELIABILITY O6-O9): /healthz answers 200 whatever the dependencies; /readyz
// names every reason — a mistyped OAuth issuer (real process), an issuer that goes down after start (real
// oidc-provider: cached keys keep tokens working until they expire, then the replica is unready), --require-state
// without --state (refused at start), a registry file changed on disk before it was read (unready until the reload,
// never a crash) — and each change is logged once.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { serveHttp } from '../../src/server/transports/http.js';
import { startProvider } from '../auth/provider.js';
import { REPO_ROOT, builtCli, catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { freePort } from '../helpers/redis.js';
import { rpc } from '../helpers/mcp-raw.js';
import { startReplica } from '../helpers/replicas.js';
import { events, until } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

afterEach(() => {
  vi.useRealTimers();
});

const probe = async (port: number, path: string) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

test('O7: a ready replica: /healthz 200, /readyz 200 with the catalog version and the state store', async () => {
  const r = await startReplica(['--registry', fixtureRegistry('petstore')], {});
  try {
    expect(await probe(r.port, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await probe(r.port, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', reasons: [], state: 'memory', catalogs: [{ name: 'petstore', operations: 6 }] });
    expect(ready.body.catalogs[0].version).toMatch(/^[0-9a-f]{12}$/);
    // Nothing changed, nothing logged: readiness lines are for changes.
    expect(events(r.stderr(), 'readiness_changed')).toEqual([]);
  } finally {
    await r.stop();
  }
});

test('O8: mistyped --oauth-issuer: /readyz 503 names the issuer and what was tried, /healthz stays 200, logged once', async () => {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}/realms/agnets`;
  const r = await startReplica(['--registry', fixtureRegistry('petstore'), '--oauth-issuer', issuer], {}, { healthy: false });
  try {
    for (let i = 0; i < 3; i++) {
      const ready = await probe(r.port, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('unready');
      expect(ready.body.checks).toEqual(['oauth']);
      expect(ready.body.reasons[0]).toContain(`no authorization server metadata for ${issuer}`);
      expect(ready.body.reasons[0]).toContain('/.well-known/openid-configuration');
    }
    expect((await probe(r.port, '/healthz')).status).toBe(200);
    const changes = events(r.stderr(), 'readiness_changed');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ level: 'warn', ready: false });
    expect(changes[0]?.reasons[0]).toContain(issuer);
  } finally {
    await r.stop();
  }
});

test('O9: issuer down after start: cached keys keep tokens working and the replica ready until they expire; then unready, and tokens get 503', async () => {
  // Only the clocks are faked (Date, and performance.now, which the key set's age is measured on); timers and I/O stay real.
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
  const client = { id: 'agent', secret: 'agent-secret-5e2d7c1a9b', scope: 'catalog:read catalog:execute' };
  const provider = await startProvider([client]);
  const logs: string[] = [];
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, logger: createLogger({ write: (l) => logs.push(l) }) },
    { port: 0, oauth: { issuer: provider.issuer, keysMaxAgeMs: 60_000 } },
  );
  let closed = false;
  try {
    const token = await provider.token(client, srv.url, client.scope);
    const auth = { authorization: `Bearer ${token}` };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } };
    const modern = { ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    expect((await probe(srv.port, '/readyz')).status).toBe(200);
    expect((await rpc(srv.url, undefined, list, modern)).status).toBe(200);
    await provider.close();
    closed = true;
    // Within the keys' max age: still ready, tokens still verify against the cached keys.
    vi.advanceTimersByTime(30_000);
    expect((await probe(srv.port, '/readyz')).status).toBe(200);
    expect((await rpc(srv.url, undefined, list, modern)).status).toBe(200);
    // Past it: the keys cannot be refreshed, so the replica is unready, with the reason, and tokens cannot be checked.
    vi.advanceTimersByTime(31_000);
    const ready = await probe(srv.port, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.reasons[0]).toContain(`the signing keys of ${provider.issuer} could not be fetched`);
    const refused = await rpc(srv.url, undefined, list, modern);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const changed = logs.map((l) => JSON.parse(l) as Record<string, any>).filter((l) => l.event === 'readiness_changed');
    expect(changed.map((l) => l.ready)).toEqual([false]);
    expect(logs.join('\n')).not.toContain(token);
  } finally {
    await srv.close();
    if (!closed) await provider.close();
  }
});

test('O10: --require-state without --state refuses to start with the reason and the fix', () => {
  const r = spawnSync(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', '--require-state', '--registry', fixtureRegistry('petstore')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, API_CATALOG_STATE: '' },
    timeout: 30_000,
  });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/--require-state .* no --state is given/);
  expect(r.stderr).toContain("API_CATALOG_STATE='redis://");
});

test('O11: an operations file edited in place before its hash was read: /readyz 503 names the file, the reload follows, the process lives', async () => {
  const dir = tempDir('readyz-stale-');
  // An imported registry with its search snapshot: served from the snapshot (checked by file stats), so the content
  // hash is first read when something asks for it (the fixture registry has no snapshot: hashed at start).
  const imported = spawnSync(process.execPath, [builtCli(), 'import', join(REPO_ROOT, 'test', 'fixtures', 'specs', 'oas30.yaml'), '--out', dir], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(imported.status, imported.stderr).toBe(0);
  const registry = join(dir, 'oas30');
  const port = await freePort();
  // Spawned by hand, not startReplica: that polls /readyz, which would read the content hash before the edit.
  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', String(port), '--registry', registry], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status).catch(() => 0)) === 200, 'the server listens');
    const file = join(registry, 'operations', 'things.json');
    writeFileSync(file, `${readFileSync(file, 'utf8').trimEnd()}\n\n`);
    // Whichever evaluation comes first (this probe or the 5 s re-check) meets the changed file: logged as a reason.
    const first = await probe(port, '/readyz');
    expect([200, 503]).toContain(first.status);
    await until(() => events(err, 'readiness_changed').some((e) => e.ready === false) || !alive(), 'the stale file is reported');
    expect(alive()).toBe(true);
    const unready = events(err, 'readiness_changed').find((e) => e.ready === false)!;
    expect(unready.reasons.join(' ')).toMatch(/operations\/things\.json changed on disk/);
    // The read that found it started the reload: ready again, on the new content.
    await until(async () => (await probe(port, '/readyz')).status === 200, 'ready again after the reload');
    expect(alive()).toBe(true);
    expect(err).not.toMatch(/uncaught|Internal error/i);
  } finally {
    if (alive()) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});
