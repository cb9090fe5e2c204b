// A client that can ask its user is asked, whatever the agent passes (outside audit, defect 10). docs/TOOLS.md says a
// client that supports elicitation "is asked to confirm with the user instead"; before, the agent's own
// `"confirm": "<name>"` skipped the user, even right after the user declined, and the DELETE went out. `confirm` stays
// the way for a client that cannot be asked.
// Real parts: the HTTP transport, real MCP clients of each era (2026-07-28: MRTR input_required; legacy: an
// elicitation/create on the call's stream), a recording upstream.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { ERAS, call, catalogs, connectHttp, describeHandle, fixtureRegistry } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
let srv: HttpHandle;
const clients: Client[] = [];

beforeAll(async () => {
  up = await startUpstream();
  srv = await serveHttp({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  up.clear();
});
afterAll(async () => {
  await srv.close();
  await up.close();
});

describe.each(ERAS)('%s', (era) => {
  test('elicitation declared: the agent\'s "confirm" does not replace the user\'s answer, right after a decline or ever', async () => {
    const c = await connectHttp(srv.url, era, { capabilities: { elicitation: {} }, name: 'confirm-user' });
    clients.push(c);
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    c.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params.message);
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    const handle = await describeHandle(c, 'pets.delete');
    const declined = await call(c, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 7 }, handle });
    expect(declined.error?.message).toMatch(/the user declined/);
    // the agent insists with its own confirm: the user is asked again, and their "no" stands
    const insisted = await call(c, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 7 }, confirm: 'pets.delete', handle });
    expect(insisted.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(insisted.error?.message).toMatch(/the user declined/);
    expect(asked).toHaveLength(2);
    expect(up.requests).toHaveLength(0);
    // with confirm and the user's yes, it runs
    answer = 'accept';
    const done = await call(c, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 7 }, confirm: 'pets.delete', handle });
    expect(done.success, JSON.stringify(done.error)).toBe(true);
    expect(asked).toHaveLength(3);
    expect(up.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /pets/7']);
  });

  test('no elicitation: "confirm" is how the call is confirmed, as before', async () => {
    const c = await connectHttp(srv.url, era, { name: 'confirm-agent' });
    clients.push(c);
    const handle = await describeHandle(c, 'pets.delete');
    const refused = await call(c, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 8 }, handle });
    expect(refused.error?.code).toBe('CONFIRMATION_REQUIRED');
    const done = await call(c, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 8 }, confirm: 'pets.delete', handle });
    expect(done.success, JSON.stringify(done.error)).toBe(true);
    expect(up.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /pets/8']);
  });
});
