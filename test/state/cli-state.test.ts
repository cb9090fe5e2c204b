// `serve --state` through the built CLI: a bad URL or --state without --http is a clear start-up error that
// never echoes the password; a Redis that is down at start-up gives an unready replica (/readyz 503, tool
// calls STATE_UNAVAILABLE in both eras, the shared signing key fetched once Redis answers) that recovers when Redis
// comes up, with no restart; a wrong password is named and keeps it unready; a database Redis does not have stops
// the start; rediss:// works with the CA given through NODE_EXTRA_CA_CERTS, and each TLS mistake is named; --help
// documents the flags.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, builtCli, call, connectHttp, fixtureRegistry } from '../helpers/mcp.js';
import { callTool, modernRpc, rpc } from '../helpers/mcp-raw.js';
import { freePort, startRedis } from '../helpers/redis.js';
import { startReplica } from '../helpers/replicas.js';
import { makeCertificates } from '../helpers/tls.js';
import { until } from '../ops/helpers.js';

const PASSWORD = 'pw-Never-Printed-7788';

function serve(args: string[], env: Record<string, string> = {}): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [builtCli(), 'serve', ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 20_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

test('bad state URLs and --state without --http stop start-up with a clear message and no password', () => {
  for (const [args, env, pattern] of [
    [['--state', `redis://:${PASSWORD}@127.0.0.1:1`], {}, /--state applies to --http: add --http/],
    [['--http', '--port', '0', '--state', `http://:${PASSWORD}@127.0.0.1:1`], {}, /must start with redis:\/\/ or rediss:\/\//],
    [['--http', '--port', '0'], { API_CATALOG_STATE: `redis://:${PASSWORD}@127.0.0.1:1/db7` }, /optional database number/],
    [['--http', '--port', '0', '--rate-limit', 'lots'], {}, /--rate-limit must be an integer/],
  ] as const) {
    const r = serve([...args, '--registry', fixtureRegistry('petstore')], env);
    // a flag's value of the wrong kind, or an HTTP-only flag without --http, is a mistake on the command line (exit 2,
    // docs/CLI.md); the rest stop the start (1)
    expect(r.code, r.out).toBe((args as readonly string[]).includes('--rate-limit') || !(args as readonly string[]).includes('--http') ? 2 : 1);
    expect(r.out).toMatch(pattern);
    expect(r.out).not.toContain(PASSWORD);
  }
});

test('--help documents --state, --rate-limit, --read-rate-limit and /healthz', () => {
  const r = serve(['--help']);
  expect(r.code).toBe(0);
  for (const s of ['--state <url>', 'API_CATALOG_STATE', '--rate-limit <n>', '--read-rate-limit <n>', 'API_CATALOG_READ_RATE_LIMIT', '/healthz']) expect(r.out).toContain(s);
});

test('B6 at start-up: Redis down -> the replica starts unready (readyz 503, STATE_UNAVAILABLE, new sessions 503); Redis up -> it recovers with no restart', async () => {
  const port = await freePort();
  const url = `redis://:${PASSWORD}@127.0.0.1:${port}/0`;
  const replica = await startReplica(['--registry', fixtureRegistry('petstore')], { API_CATALOG_STATE: url }, { healthy: false });
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  try {
    const health = async () => {
      const res = await fetch(`http://127.0.0.1:${replica.port}/readyz`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const h = await health();
    expect(h.status).toBe(503);
    expect(h.body).toMatchObject({ status: 'unready', state: 'redis', checks: ['state'] });
    const init = await rpc(replica.url, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    expect(init.status).toBe(503);
    expect(init.msg.error.message).toMatch(/state store unavailable/);
    // The verdict (up to 5 s for a Redis not reachable yet) comes after the server listens: probes answer meanwhile.
    const warning = /is not reachable yet \(unreachable \(ECONNREFUSED\): nothing listens at the host and port of the state store URL\); serving unready \(\/readyz 503\)/;
    await until(() => warning.test(replica.stderr()), 'the start-up verdict on the state store');
    const listening = replica.stderr().indexOf('"event":"serve"');
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(listening).toBeLessThan(replica.stderr().search(warning));
    // A 2026-07-28 request has no session to open, so it reaches the tool, which fails closed.
    const modern = await modernRpc(replica.url, 'tools/call', { name: 'search_tools', arguments: { query: 'pet' } });
    expect(modern.msg.result.structuredContent.error.code).toBe('STATE_UNAVAILABLE');

    redis = await startRedis({ password: PASSWORD, port });
    const deadline = Date.now() + 15_000;
    while ((await health()).status !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await health()).status).toBe(200);
    for (const era of ERAS) {
      const client = await connectHttp(replica.url, era, { name: 'cli-state' });
      try {
        expect((await call(client, 'search_tools', { query: 'pet' })).success).toBe(true);
        // The signing key (generated and shared through Redis once it answered) signs handles that verify.
        const d = await call(client, 'describe_tools', { tool_names: ['pets.get'] });
        const handle = d.value.tools[0].example.handle as string;
        const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle, dry_run: true });
        expect(r.success, JSON.stringify(r)).toBe(true);
      } finally {
        await client.close();
      }
    }
    // While Redis is up again, a stop turns calls into STATE_UNAVAILABLE without killing the process.
    const { openSession } = await import('../helpers/mcp-raw.js');
    const s = await openSession(replica.url);
    await redis.stop();
    const r = await callTool(replica.url, s, 'search_tools', { query: 'pet' });
    expect(r.envelope.error.code).toBe('STATE_UNAVAILABLE');
    expect(replica.child.exitCode).toBeNull();
  } finally {
    await replica.stop();
    await redis?.close();
  }
  expect(replica.stderr()).not.toContain(PASSWORD);
});

async function readyOf(port: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('a wrong Redis password: the replica starts unready and says why (WRONGPASS), never the password', async () => {
  const redis = await startRedis({ password: PASSWORD });
  const wrong = 'pw-Wrong-Guess-5511';
  const replica = await startReplica(['--registry', fixtureRegistry('petstore')], { API_CATALOG_STATE: redis.url.replace(PASSWORD, wrong) }, { healthy: false });
  try {
    const h = await readyOf(replica.port);
    expect(h.status).toBe(503);
    expect(h.body).toMatchObject({ status: 'unready', state: 'redis', checks: ['state'] });
    expect(String(h.body.reasons)).toMatch(/state store \(redis\): state store unavailable \(authentication failed \(WRONGPASS\)/);
    expect(replica.stderr()).toMatch(/the state store redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ is not usable: authentication failed \(WRONGPASS\)[^\n]*serving unready/);
    expect(replica.stderr()).toMatch(/"event":"state_store_down".*"reason":"auth"/);
  } finally {
    await replica.stop();
    await redis.close();
  }
  expect(replica.stderr()).not.toContain(PASSWORD);
  expect(replica.stderr()).not.toContain('pw-Wrong-Guess-5511');
});

test('a database Redis does not have (/99) stops the start with the range; nothing lands in database 0', async () => {
  const redis = await startRedis({ password: PASSWORD });
  try {
    const r = serve(['--http', '--port', '0', '--registry', fixtureRegistry('petstore')], { API_CATALOG_STATE: `${redis.url}/99` });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/api-catalog: the state store redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/99 cannot be used: database 99 does not exist on this Redis \(ERR DB index is out of range\); it has 16 \(\/0 … \/15\)/);
    expect(r.out).not.toContain(PASSWORD);
    expect(await redis.command('DBSIZE')).toBe(0);
  } finally {
    await redis.close();
  }
});

describe('rediss:// (TLS)', () => {
  test('with the CA in NODE_EXTRA_CA_CERTS: healthy, and sessions and handles live in the TLS Redis', async () => {
    const certs = makeCertificates();
    const redis = await startRedis({ password: PASSWORD, tls: certs });
    const replica = await startReplica(['--registry', fixtureRegistry('petstore')], { API_CATALOG_STATE: `${redis.tlsUrl}/0`, NODE_EXTRA_CA_CERTS: certs.ca });
    try {
      expect(await readyOf(replica.port)).toMatchObject({ status: 200, body: { status: 'ready', state: 'redis', version: expect.stringMatching(/^[0-9a-f]{12}$/) } });
      expect(replica.stderr()).toMatch(/State: rediss:\/\/:\*\*\*@localhost:\d+\/0 \(shared/);
      for (const era of ERAS) {
        const client = await connectHttp(replica.url, era, { name: 'tls' });
        try {
          const d = await call(client, 'describe_tools', { tool_names: ['pets.get'] });
          const handle = d.value.tools[0].example.handle as string;
          expect((await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle, dry_run: true })).success).toBe(true);
        } finally {
          await client.close();
        }
      }
      // the legacy session and the generated signing key went through TLS into this Redis
      expect(Number(await redis.command('EXISTS', 'ac:secret:signing-key'))).toBe(1);
      expect(((await redis.command('KEYS', 'ac:anonymous:*:session')) as string[]).length).toBeGreaterThan(0);
    } finally {
      await replica.stop();
      await redis.close();
      certs.remove();
    }
    expect(replica.stderr()).not.toContain(PASSWORD);
  });

  test('each mistake is named: an untrusted certificate (NODE_EXTRA_CA_CERTS), plain redis:// to the TLS port', async () => {
    const certs = makeCertificates();
    const redis = await startRedis({ tls: certs });
    try {
      for (const [url, pattern] of [
        [`${redis.tlsUrl}`, /TLS: the Redis certificate is not signed by a CA this process trusts \(SELF_SIGNED_CERT_IN_CHAIN\); give the CA to Node with NODE_EXTRA_CA_CERTS/],
        [`redis://127.0.0.1:${redis.tlsPort}`, /the connection was reset \(ECONNRESET\); if this port speaks TLS, use rediss:\/\//],
      ] as const) {
        const replica = await startReplica(['--registry', fixtureRegistry('petstore')], { API_CATALOG_STATE: url }, { healthy: false });
        try {
          const h = await readyOf(replica.port);
          expect(h.status).toBe(503);
          expect(String(h.body.reasons)).toMatch(pattern);
          expect(replica.stderr()).toMatch(pattern);
        } finally {
          await replica.stop();
        }
      }
    } finally {
      await redis.close();
      certs.remove();
    }
  }, 90_000);
});
