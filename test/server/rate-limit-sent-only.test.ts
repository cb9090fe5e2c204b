// The execute rate limit protects the upstream API, so only calls handed to the upstream spend it (outside audit,
// defect 9). Before, the token was taken before anything was checked: two calls that validation refused used up a
// `--rate-limit 2` budget, and the first real call was RATE_LIMITED; a confirmation's rounds cost a unit each.
// Real parts: the HTTP transport, real MCP clients of each era (one answering elicitation), a recording upstream;
// the clock is fixed, so the buckets never refill during the test, however slow the machine.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { ERAS, call, catalogs, connectHttp, describeHandle, fixtureRegistry } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
const servers: HttpHandle[] = [];
const clients: Client[] = [];

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

test.each(ERAS)('%s: refused calls and confirmation rounds spend nothing; the limit counts the calls sent', async (era) => {
  const srv = await serveHttp(
    {
      catalogs: catalogs(fixtureRegistry('petstore')),
      settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
      rateLimitPerMinute: 2,
      readRateLimitPerMinute: 0,
      now: () => 1_000_000,
    },
    { port: 0 },
  );
  servers.push(srv);
  const c = await connectHttp(srv.url, era, { capabilities: { elicitation: {} }, name: 'rate-sent-only' });
  clients.push(c);
  c.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
  const handle = await describeHandle(c, 'pets.get');
  for (let i = 0; i < 3; i++) {
    expect((await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 'not-a-number' }, handle })).error?.code).toBe('INVALID_ARGUMENTS');
  }
  expect((await call(c, 'execute_tool', { tool_name: 'pets.list', args: {} })).error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
  const declined = await call(c, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 }, handle: await describeHandle(c, 'pets.delete') });
  expect(declined.error?.code).toBe('CONFIRMATION_REQUIRED');
  expect(up.requests).toHaveLength(0);

  for (const petId of [1, 2]) {
    const sent = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId }, handle });
    expect(sent.success, JSON.stringify(sent.error)).toBe(true);
  }
  const limited = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 3 }, handle });
  expect(limited.error?.code).toBe('RATE_LIMITED');
  expect(limited.error?.details).toMatchObject({ bucket: 'execute' });
  expect(limited.error?.message).toContain('nothing was sent');
  expect(limited.instruction).toMatch(/^Wait \d+ s, then retry the same call\.$/);
  expect(up.requests.map((r) => r.url)).toEqual(['/pets/1', '/pets/2']);
  // a refused call still spends nothing once the bucket is empty: it gets its own answer, not RATE_LIMITED
  expect((await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 'x' }, handle })).error?.code).toBe('INVALID_ARGUMENTS');
  // dry runs spend the read bucket (unlimited here), as before
  expect((await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 4 }, dry_run: true, handle })).success).toBe(true);
});
