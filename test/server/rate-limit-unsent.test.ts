// An execute_tool call refused before anything is sent spends no execute unit (that bucket protects the upstream
// API) but one read unit, as a dry run does (second read of stop 48, L2); each confirmation question spends one unit
// of its own confirm bucket instead, taken before the user is asked (second read of stop 49, section 2;
// confirm-budget.test.ts has the defaults over stdio). Before, such calls spent no bucket at all: an agent in a loop
// raised confirmation prompts (elicitation/create, input_required) without limit.
// Real parts: the HTTP transport, real MCP clients of each era (answering elicitation), a recording upstream; the
// clock is fixed, so the buckets never refill during the test, however slow the machine.
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

async function start(limits: { rateLimitPerMinute: number; readRateLimitPerMinute: number }): Promise<Client> {
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, ...limits, now: () => 1_000_000 },
    { port: 0 },
  );
  servers.push(srv);
  return connectHttp(srv.url, 'legacy');
}

test.each(ERAS)('%s: confirmation questions spend the confirm bucket, not the read bucket; refusals still spend the read bucket', async (era) => {
  const srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, readRateLimitPerMinute: 2, confirmRateLimitPerMinute: 3, now: () => 1_000_000 },
    { port: 0 },
  );
  servers.push(srv);
  const c = await connectHttp(srv.url, era, { capabilities: { elicitation: {} }, name: 'rate-unsent' });
  clients.push(c);
  let asked = 0;
  c.setRequestHandler('elicitation/create', () => {
    asked++;
    return { action: 'decline' };
  });
  const handle = await describeHandle(c, 'pets.delete'); // read 1
  const codes: string[] = [];
  const askedBefore: number[] = [];
  for (let i = 0; i < 5; i++) {
    askedBefore.push(asked);
    const r = await call(c, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 9 }, handle });
    codes.push(r.error?.code ?? 'ok');
    if (r.error?.code === 'RATE_LIMITED') {
      expect(r.error.details).toMatchObject({ bucket: 'confirm' });
      expect(r.error.message).toMatch(/^Too many confirmation questions .*; the limit is 3 per minute \(nothing was sent and the user was not asked\)$/);
      // the refused call asked no one
      expect(asked).toBe(askedBefore.at(-1));
    }
  }
  // one unit per question (2026-07-28: the input_required answer; the retry bringing the user's "no" spends none, so
  // their answer is never hidden behind RATE_LIMITED): three questions, then the confirm bucket is empty
  expect(codes).toEqual(['CONFIRMATION_REQUIRED', 'CONFIRMATION_REQUIRED', 'CONFIRMATION_REQUIRED', 'RATE_LIMITED', 'RATE_LIMITED']);
  expect(asked).toBe(3);
  // the questions left the read bucket (2) with its second unit: one refusal spends it, the next is limited
  const invalid = { tool_name: 'pets.delete', args: { petId: 'not-a-number' }, handle };
  expect((await call(c, 'execute_tool', invalid)).error?.code).toBe('INVALID_ARGUMENTS'); // read 2
  const readLimited = await call(c, 'execute_tool', invalid);
  expect(readLimited.error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'read' } });
  expect(readLimited.error?.message).toMatch(/^Too many execute_tool calls that sent nothing \(refused before sending\); .* the limit is 2 per minute \(nothing was sent\)$/);
  expect(readLimited.instruction).toMatch(/^Wait \d+ s, then retry the same call\.$/);
  expect(up.requests).toHaveLength(0);
});

test('refusals spend the read bucket, never the execute bucket; once the read bucket is empty they answer RATE_LIMITED, and a call that sends still goes out', async () => {
  const c = await start({ rateLimitPerMinute: 1, readRateLimitPerMinute: 3 });
  clients.push(c);
  const handle = await describeHandle(c, 'pets.get'); // read 1
  const invalid = { tool_name: 'pets.get', args: { petId: 'not-a-number' }, handle };
  expect((await call(c, 'execute_tool', invalid)).error?.code).toBe('INVALID_ARGUMENTS'); // read 2
  expect((await call(c, 'execute_tool', { tool_name: 'pets.list', args: {} })).error?.code).toBe('TOOL_DESCRIPTION_REQUIRED'); // read 3
  const limited = await call(c, 'execute_tool', invalid);
  expect(limited.error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'read' } });
  expect(up.requests).toHaveLength(0);
  // the execute bucket (1) is untouched by the refusals: the real call is sent
  const sent = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle });
  expect(sent.success, JSON.stringify(sent.error)).toBe(true);
  expect(up.requests.map((r) => r.url)).toEqual(['/pets/1']);
  // and then it is spent: the next real call is refused by the execute bucket, nothing sent, no read unit taken
  const executeLimited = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 2 }, handle });
  expect(executeLimited.error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'execute' } });
  expect(up.requests).toHaveLength(1);
});
