// One approval never runs two calls across a restart (audit proto51, defect 2): the built CLI (`serve --http`) with
// API_CATALOG_SIGNING_KEY set and no --state, restarted in place. The key outlives the process, so the accepted
// confirmation's state still verifies after the restart, but the record that it was used lived in the old process's
// memory: before, the same accepted retry sent again after the restart ran the DELETE a second time. Now the state
// is bound to the store that claims it (the process's own without --state) and refused elsewhere, with the fix.
// Describe handles keep working across the restart (the same key). Needs `npm run build`.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ELICIT = { elicitation: {} };
const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } } };

let up: Upstream;
let srv: Replica;
let env: Record<string, string>;
const args = (): string[] => ['--registry', fixtureRegistry('petstore')];

beforeAll(async () => {
  up = await startUpstream();
  env = { PETSTORE_BASE_URL: up.url, API_CATALOG_SIGNING_KEY: 'restart-test-signing-key-0123456789abcdef', API_CATALOG_RATE_LIMIT: '0', API_CATALOG_STATE: '' };
  srv = await startReplica(args(), env);
});
afterAll(async () => {
  await srv?.stop();
  await up?.close();
});

test('the accepted retry sent again after a restart (same signing key, no --state) is refused and sends nothing', async () => {
  const d = await modernCall(srv.url, 'describe_tools', { tool_names: ['pets.delete'] });
  const call = { tool_name: 'pets.delete', args: { petId: 77 }, handle: d.envelope.value.tools[0].example.handle as string };
  const asked = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT });
  expect(asked.result.resultType).toBe('input_required');
  const state = asked.result.requestState as string;
  const done = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
  expect(done.envelope.success, JSON.stringify(done.msg)).toBe(true);

  await srv.stop();
  srv = await startReplica(args(), env, { port: srv.port });

  // e.g. a client that retries the accepted request after its connection was reset by the deploy
  const replay = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: state });
  expect(replay.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
  expect(replay.envelope.error.details).toEqual({ reason: 'other_process' });
  expect(replay.envelope.error.message).toMatch(/issued by another server process \(this one restarted since, or the retry reached another replica\).*--state/);
  expect(up.hits('/pets/77')).toHaveLength(1);

  // the way on works: the same call (its handle still valid) asks the user again, and that approval runs once
  const again = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT });
  expect(again.result.resultType).toBe('input_required');
  const rerun = await modernCall(srv.url, 'execute_tool', call, { capabilities: ELICIT, inputResponses: ACCEPT, requestState: again.result.requestState as string });
  expect(rerun.envelope.success).toBe(true);
  expect(up.hits('/pets/77')).toHaveLength(2);
});
