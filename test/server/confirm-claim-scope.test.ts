// One approval never runs two calls, also where the used confirmations are not shared (audit proto51, defects 2 and
// 6). Two real HTTP servers in this process with the same signing key and each its own in-memory store: two replicas
// that share only API_CATALOG_SIGNING_KEY, or one server before and after a restart (the built CLI restarted for
// real: test/replicas/confirm-restart.test.ts). A state is claimed only where it was issued; the other refuses it,
// sends nothing, and says that several replicas need --state. And a state that cannot be used tells a client that can
// ask its user the step that works there: the same call again (the user is asked again), not "confirm", which that
// client's calls ignore. One Redis, emptied: test/state/confirm-store-reset-redis.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { Signer } from '../../src/server/signing.js';
import { MemoryStateStore } from '../../src/state/index.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ELICIT = { elicitation: { form: {} } };
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };
const ASK_AGAIN = 'Call execute_tool again with the same arguments: the user will be asked to confirm again ("confirm" is not used on this client).';
const CONFIRM_FALLBACK = 'Ask the user to confirm, then call execute_tool again with "confirm": "pets.delete".';

let up: Upstream;
let a: HttpHandle;
let b: HttpHandle;

beforeAll(async () => {
  up = await startUpstream();
  const signer = Signer.fromSecret('claim-scope-signing-key-0123456789abcdef');
  const deps = { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, signer };
  a = await serveHttp({ ...deps, state: new MemoryStateStore() }, { port: 0 });
  b = await serveHttp({ ...deps, state: new MemoryStateStore() }, { port: 0 });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await up?.close();
});
afterEach(() => up.clear());

/** describe_tools pets.delete on `url` (2026-07-28), then the destructive call there: its input_required state. */
async function askToDelete(url: string, petId: number): Promise<{ call: Record<string, unknown>; state: string }> {
  const d = await modernCall(url, 'describe_tools', { tool_names: ['pets.delete'] });
  const call = { tool_name: 'pets.delete', args: { petId }, handle: d.envelope.value.tools[0].example.handle as string };
  const asked = await modernCall(url, 'execute_tool', call, { capabilities: ELICIT });
  expect(asked.result.resultType).toBe('input_required');
  return { call, state: asked.result.requestState as string };
}

describe('replicas sharing only the signing key: a state is claimed where it was issued', () => {
  test('accepted on the other replica: refused with the reason and the fix (--state), nothing sent; on its own replica it runs once', async () => {
    const { call, state } = await askToDelete(a.url, 11);
    const elsewhere = await modernCall(b.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
    expect(elsewhere.result.resultType).toBe('complete');
    expect(elsewhere.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(elsewhere.envelope.error.message).toBe(
      'execute_tool: pets.delete was not run: the confirmation was issued by another server process (this one restarted since, or the retry reached another replica) that shares no record of used confirmations with this one, so it could run twice; ask the user again (behind several replicas, confirmations need a shared --state redis://...)',
    );
    expect(elsewhere.envelope.error.details).toEqual({ reason: 'other_process' });
    expect(elsewhere.envelope.instruction).toBe(ASK_AGAIN);
    expect(up.requests).toHaveLength(0);

    const done = await modernCall(a.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
    expect(done.envelope.success, JSON.stringify(done.msg)).toBe(true);
    // the same retry again, on either replica: refused, nothing sent
    for (const url of [a.url, b.url]) {
      const replay = await modernCall(url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
      expect(replay.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    }
    expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/11']);
  });

  test('a decline reaching the other replica is still the user\'s no: nothing sent, and no claim is needed for it', async () => {
    const { call, state } = await askToDelete(a.url, 12);
    const declined = await modernCall(b.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: { confirm: { action: 'decline' } }, requestState: state });
    expect(declined.envelope.error.message).toBe('execute_tool: the user declined pets.delete');
    expect(up.requests).toHaveLength(0);
  });
});

describe('a state that cannot be used: the next step that works for the client', () => {
  test('a client that can ask (elicitation): "call again with the same arguments", no "confirm"; following it asks the user again', async () => {
    const { call, state } = await askToDelete(a.url, 21);
    expect((await modernCall(a.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state })).envelope.success).toBe(true);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      // the agent adds its own confirm, as the old instruction told it: still refused (the user's answer is what counts)
      ['used', { ...call, confirm: 'pets.delete' }, state],
      ['used', call, state],
      ['other_call', { ...call, args: { petId: 22 } }, state],
      ['invalid', call, state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA')],
    ];
    for (const [reason, args, requestState] of cases) {
      const r = await modernCall(a.url, 'execute_tool', args, { capabilities: ELICIT, inputResponses: ACCEPT, requestState });
      expect(r.envelope.error.code, reason).toBe('CONFIRMATION_REQUIRED');
      expect(r.envelope.instruction, reason).toBe(ASK_AGAIN);
      expect(r.envelope.error.details, reason).toEqual({ reason });
    }
    expect(up.hits('/pets/21')).toHaveLength(1);
    expect(up.hits('/pets/22')).toHaveLength(0);
    // what the instruction says: the same call again, and the user is asked (a new state, which runs once)
    const again = await modernCall(a.url, 'execute_tool', call, { capabilities: ELICIT });
    expect(again.result.resultType).toBe('input_required');
    expect(again.result.requestState).not.toBe(state);
    const done = await modernCall(a.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: again.result.requestState as string });
    expect(done.envelope.success).toBe(true);
    expect(up.hits('/pets/21')).toHaveLength(2);
  });

  test('a client that cannot ask (no elicitation) keeps the "confirm" fallback, which then runs the call once', async () => {
    const { call, state } = await askToDelete(a.url, 23);
    expect((await modernCall(a.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state })).envelope.success).toBe(true);
    const replay = await modernCall(a.url, 'execute_tool', call, { inputResponses: ACCEPT, requestState: state });
    expect(replay.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(replay.envelope.instruction).toBe(CONFIRM_FALLBACK);
    expect(replay.envelope.error.details).toEqual({ confirm: 'pets.delete', reason: 'used' });
    const confirmed = await modernCall(a.url, 'execute_tool', { ...call, confirm: 'pets.delete' });
    expect(confirmed.envelope.success).toBe(true);
    expect(up.hits('/pets/23')).toHaveLength(2);
  });
});
