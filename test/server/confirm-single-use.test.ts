// An accepted confirmation runs one call (MRTR, basic/patterns/mrtr.mdx, Server Requirements 5: a requestState that
// must be consumed at most once is enforced server-side). One process, the in-memory state store: over HTTP (a
// 2026-07-28 client retries the request itself, so it could send the accepted retry again) and in memory through a
// real client of each era (the legacy shim re-enters the handler once). The same across replicas on one Redis:
// test/state/confirm-single-use-redis.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { MemoryStateStore } from '../../src/state/index.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
let store: MemoryStateStore;
let srv: HttpHandle;
const open: Connected[] = [];

beforeAll(async () => {
  up = await startUpstream();
  store = new MemoryStateStore();
  srv = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, state: store },
    { port: 0 },
  );
});
afterAll(async () => {
  await srv.close();
  await up.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  up.clear();
});

const ELICIT = { elicitation: { form: {} } };
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };

/** describe_tools pets.delete (2026-07-28), then the destructive call: its input_required answer's requestState. */
async function askToDelete(petId: number): Promise<{ call: Record<string, unknown>; state: string }> {
  const d = await modernCall(srv.url, 'describe_tools', { tool_names: ['pets.delete'] });
  const call = { tool_name: 'pets.delete', args: { petId }, handle: d.envelope.value.tools[0].example.handle as string };
  const asked = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT });
  expect(asked.result.resultType).toBe('input_required');
  return { call, state: asked.result.requestState as string };
}

describe('2026-07-28 over HTTP, in-memory store: one approval, one call', () => {
  test('the accepted retry runs once; the identical retry again, and again without elicitation, is refused and sends nothing', async () => {
    const { call, state } = await askToDelete(4);
    const done = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
    expect(done.envelope.success, JSON.stringify(done.msg)).toBe(true);
    for (const capabilities of [ELICIT, {}]) {
      const replay = await modernCall(srv.url, 'execute_tool', call, { capabilities, inputResponses: ACCEPT, requestState: state });
      expect(replay.status).toBe(200);
      expect(replay.result.resultType).toBe('complete');
      expect(replay.envelope.success).toBe(false);
      expect(replay.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
      expect(replay.envelope.error.message).toBe('execute_tool: pets.delete was not run: this confirmation was already used (one approval runs one call); ask the user again');
    }
    expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/4']);
  });

  test('a declined or cancelled answer uses nothing: the same state, then accepted, runs once', async () => {
    const { call, state } = await askToDelete(5);
    for (const action of ['decline', 'cancel']) {
      const r = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: { confirm: { action } }, requestState: state });
      expect(r.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    }
    expect(up.requests).toHaveLength(0);
    expect((await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state })).envelope.success).toBe(true);
    expect((await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state })).envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/5']);
  });

  test('each confirmation is its own: a second approval of the same call runs it once more', async () => {
    const first = await askToDelete(6);
    expect((await modernCall(srv.url, 'execute_tool', first.call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: first.state })).envelope.success).toBe(true);
    const second = await askToDelete(6);
    expect(second.state).not.toBe(first.state);
    expect((await modernCall(srv.url, 'execute_tool', second.call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: second.state })).envelope.success).toBe(true);
    expect(up.hits('/pets/6')).toHaveLength(2);
  });
});

describe.each(ERAS)('%s era, a real client in memory', (era: Era) => {
  test('the client answers the form once and the call runs once (the single-use claim does not get in the way)', async () => {
    const c = await connectInMemory(
      { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0 },
      { era, capabilities: { elicitation: { form: {} } } },
    );
    open.push(c);
    let asked = 0;
    c.client.setRequestHandler('elicitation/create', () => {
      asked++;
      return { action: 'accept', content: { confirm: true } };
    });
    const d = await call(c.client, 'describe_tools', { tool_names: ['pets.delete'] });
    const handle = d.value.tools[0].example.handle as string;
    const r = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 9 }, handle });
    expect(r.success, JSON.stringify(r)).toBe(true);
    expect(asked).toBe(1);
    expect(up.hits('/pets/9')).toHaveLength(1);
  });
});
