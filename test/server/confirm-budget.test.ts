// Confirmation questions have their own budget, on every transport (second read of stop 49, section 2): before,
// a question spent the read bucket, which is off by default over stdio, so a looping agent raised 199 prompts in
// 1.3 s. Now each question (a 2025-era elicitation/create, a 2026-07-28 input_required answer) takes one unit of
// the confirm bucket (default 10 per minute per principal, per connection over stdio) before the user is asked;
// past it the call answers RATE_LIMITED (bucket confirm), nothing is sent and the user is not asked.
// Real parts: the built `serve` as a child process on stdio (its clock pinned with a --import preload, so the bucket
// never refills during the test however slow the machine), the HTTP transport with a fixed clock, real SDK clients
// of each era that decline every form, a recording upstream.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { ERAS, REPO_ROOT, builtCli, call, catalogs, connectHttp, describeHandle, fixtureRegistry, newClient, type Era } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { startRedis } from '../helpers/redis.js';
import { RedisStateStore } from '../../src/state/redis.js';

let up: Upstream;
const clients: Client[] = [];
const servers: HttpHandle[] = [];
beforeAll(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  up.clear();
});
afterAll(async () => {
  await up.close();
});

/** The server process's clock stands still: Date.now is pinned before any module of the CLI loads. */
const PIN_CLOCK = 'data:text/javascript,Date.now=()=>1750000000000';

/** The built `serve` on stdio with its defaults (plus `extra` flags), a client of `era` that declines every form. */
async function stdioClient(era: Era, extra: string[] = []): Promise<{ client: Client; asked: () => number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', PIN_CLOCK, builtCli(), 'serve', '--registry', fixtureRegistry('petstore'), ...extra],
    cwd: REPO_ROOT,
    env: { ...process.env, PETSTORE_BASE_URL: up.url } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = newClient(era, { elicitation: {} }, 'confirm-budget');
  let asked = 0;
  client.setRequestHandler('elicitation/create', () => {
    asked++;
    return { action: 'decline' };
  });
  await client.connect(transport);
  clients.push(client);
  expect(client.getProtocolEra()).toBe(era);
  return { client, asked: () => asked };
}

/** `n` calls of the destructive pets.delete, each of which would ask the user: the codes, and how many were asked. */
async function loop(client: Client, asked: () => number, n: number): Promise<{ codes: string[]; limited: Array<Record<string, unknown>> }> {
  const handle = await describeHandle(client, 'pets.delete');
  const codes: string[] = [];
  const limited: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) {
    const before = asked();
    const r = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 7 }, handle });
    codes.push(r.error?.code ?? 'ok');
    if (r.error?.code === 'RATE_LIMITED') {
      // the refused call asked no one
      expect(asked()).toBe(before);
      limited.push({ ...r.error, instruction: r.instruction });
    }
  }
  return { codes, limited };
}

const TEN_ASKED = [...Array(10).fill('CONFIRMATION_REQUIRED'), 'RATE_LIMITED', 'RATE_LIMITED'];

describe.each(ERAS)('%s over stdio, defaults', (era) => {
  test('the 11th confirmation question within the minute answers RATE_LIMITED (bucket confirm); the user is not asked; nothing is sent', async () => {
    const { client, asked } = await stdioClient(era);
    const { codes, limited } = await loop(client, asked, 12);
    expect(codes).toEqual(TEN_ASKED);
    expect(asked()).toBe(10);
    expect(up.requests).toHaveLength(0);
    expect(limited[0]).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'confirm' } });
    expect((limited[0]!.details as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect(limited[0]!.message).toBe('Too many confirmation questions (execute_tool calls that ask the user to allow a destructive request); the limit is 10 per minute (nothing was sent and the user was not asked)');
    expect(limited[0]!.instruction).toMatch(/^Do not repeat a request the user declined\. Otherwise wait \d+ s, then retry the same call\.$/);
  });
});

test('--confirm-rate-limit 0 disables the budget over stdio: every call asks the user', async () => {
  const { client, asked } = await stdioClient('legacy', ['--confirm-rate-limit', '0']);
  const { codes } = await loop(client, asked, 12);
  expect(codes).toEqual(Array(12).fill('CONFIRMATION_REQUIRED'));
  expect(asked()).toBe(12);
  expect(up.requests).toHaveLength(0);
});

test('2026-07-28 over HTTP, defaults: the 11th input_required is not answered; RATE_LIMITED bucket confirm, the user not asked', async () => {
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, now: () => 1_000_000 },
    { port: 0 },
  );
  servers.push(srv);
  const client = await connectHttp(srv.url, 'modern', { capabilities: { elicitation: {} }, name: 'confirm-budget-http' });
  clients.push(client);
  let asked = 0;
  client.setRequestHandler('elicitation/create', () => {
    asked++;
    return { action: 'decline' };
  });
  const { codes, limited } = await loop(client, () => asked, 12);
  expect(codes).toEqual(TEN_ASKED);
  expect(asked).toBe(10);
  expect(limited[0]).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'confirm' } });
  expect(up.requests).toHaveLength(0);
  // a question spends the confirm bucket only: the read bucket (600 over HTTP) still serves describe calls, and the
  // execute bucket a call that sends (the user is not asked for a non-destructive one)
  const handle = await describeHandle(client, 'pets.get');
  const sent = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle });
  expect(sent.success, JSON.stringify(sent.error)).toBe(true);
  expect(up.requests.map((r) => r.url)).toEqual(['/pets/1']);
});

test('the budget is per principal and shared through the store: a second legacy HTTP session of the same principal finds it spent', async () => {
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, confirmRateLimitPerMinute: 2, now: () => 1_000_000 },
    { port: 0 },
  );
  servers.push(srv);
  const sessions = await Promise.all([0, 1].map(() => connectHttp(srv.url, 'legacy', { capabilities: { elicitation: {} }, name: 'confirm-budget-shared' })));
  clients.push(...sessions);
  let asked = 0;
  for (const c of sessions) c.setRequestHandler('elicitation/create', () => (asked++, { action: 'decline' as const }));
  expect((await loop(sessions[0]!, () => asked, 2)).codes).toEqual(['CONFIRMATION_REQUIRED', 'CONFIRMATION_REQUIRED']);
  const second = await loop(sessions[1]!, () => asked, 1);
  expect(second.codes).toEqual(['RATE_LIMITED']);
  expect(second.limited[0]).toMatchObject({ details: { bucket: 'confirm' } });
  expect(second.limited[0]!.message).toMatch(/the limit is 2 per minute/);
  expect(asked).toBe(2);
});

test('shared through --state: two replicas on one real Redis count one confirm budget per principal (2026-07-28: a 2025-era session with a shared store is not asked)', async () => {
  // Redis keeps its own clock (the bucket refills 1 per minute here: far longer than this test's few calls)
  const redis = await startRedis();
  const stores = [new RedisStateStore(redis.url), new RedisStateStore(redis.url)];
  try {
    for (const s of stores) expect(await s.waitUntilReady(5000)).toBe(true);
    const replicas = await Promise.all(stores.map((state) => serveHttp(
      { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, state, confirmRateLimitPerMinute: 1 },
      { port: 0 },
    )));
    servers.push(...replicas);
    const [a, b] = await Promise.all(replicas.map((r) => connectHttp(r.url, 'modern', { capabilities: { elicitation: {} }, name: 'confirm-budget-redis' })));
    clients.push(a!, b!);
    let asked = 0;
    for (const c of [a!, b!]) c.setRequestHandler('elicitation/create', () => (asked++, { action: 'decline' as const }));
    expect((await loop(a!, () => asked, 1)).codes).toEqual(['CONFIRMATION_REQUIRED']);
    const other = await loop(b!, () => asked, 1);
    expect(other.codes).toEqual(['RATE_LIMITED']);
    expect(other.limited[0]).toMatchObject({ details: { bucket: 'confirm' } });
    expect(asked).toBe(1);
    expect(up.requests).toHaveLength(0);
  } finally {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await Promise.all(stores.map((s) => s.close()));
    await redis.close();
  }
});
