// A 2026-07-28 retry bringing the user's "no" spends nothing: its question was charged to the confirm bucket when it
// was asked (execute-rounds.ts). Before, every retry carrying the same signed state and a decline was free, so a client
// could replay it in a loop past every limit (second read of stop 49, left unverified; verified here: five replays,
// five free answers). Now only the first "no" a state brings is free; the same state sending a "no" again is charged
// one read unit like any call that sends nothing. The no still does not use the state: the user may accept it after.
// Real parts: the HTTP transport, raw 2026-07-28 requests, a recording upstream; the clock is fixed, so no bucket
// refills during the test however slow the machine.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { MemoryStateStore } from '../../src/state/index.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
let srv: HttpHandle;

beforeAll(async () => {
  up = await startUpstream();
});
// a server per case: the buckets are per principal, and every request here comes from the same one
beforeEach(async () => {
  srv = await serveHttp(
    {
      catalogs: catalogs(fixtureRegistry('petstore')),
      settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
      rateLimitPerMinute: 0,
      readRateLimitPerMinute: 3,
      confirmRateLimitPerMinute: 10,
      state: new MemoryStateStore(),
      now: () => 1_000_000,
    },
    { port: 0 },
  );
});
afterEach(async () => {
  await srv.close();
  up.clear();
});
afterAll(async () => {
  await up.close();
});

const ELICIT = { elicitation: { form: {} } };

test.each([['decline'], ['cancel']])('a state replayed with "%s" is charged after its first no; the user can still accept it', async (action) => {
  const d = await modernCall(srv.url, 'describe_tools', { tool_names: ['pets.delete'] }); // read 1 (of the case)
  const call = { tool_name: 'pets.delete', args: { petId: 3 }, handle: d.envelope.value.tools[0].example.handle as string };
  const asked = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT }); // confirm 1
  expect(asked.result.resultType).toBe('input_required');
  const state = asked.result.requestState as string;
  const no = { capabilities: ELICIT, inputResponses: { confirm: { action } }, requestState: state };
  const codes: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await modernCall(srv.url, 'execute_tool', call, no);
    codes.push(r.envelope.error.code as string);
    if (r.envelope.error.code === 'RATE_LIMITED') expect(r.envelope.error.details).toMatchObject({ bucket: 'read' });
  }
  // read limit 3: the describe spent one; the first no is free, the next two repeats spend the rest
  expect(codes).toEqual(['CONFIRMATION_REQUIRED', 'CONFIRMATION_REQUIRED', 'CONFIRMATION_REQUIRED', 'RATE_LIMITED']);
  expect(up.requests).toHaveLength(0);
  // the no did not use the state: accepted now, the call runs once (it sends, so the empty read bucket is no matter)
  const accept = { capabilities: ELICIT, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: state };
  expect((await modernCall(srv.url, 'execute_tool', call, accept)).envelope.success).toBe(true);
  expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/3']);
});
