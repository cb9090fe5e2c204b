// The agent's "confirm" never replaces the user's answer when the client can be asked, over stdio too (second read of
// stop 48, L6: only the HTTP case had a test, test/server/confirm-user-not-agent.test.ts). Over stdio a 2025-era
// connection is asked with a real elicitation/create on the held stdio wire, inside the call (confirm.ts); a
// 2026-07-28 one with input_required, retried by the client.
// Real parts: the built `serve` as a child process on stdio, a real SDK client of each era declaring elicitation, a
// recording upstream.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, builtCli, call, describeHandle, fixtureRegistry, newClient } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
const clients: Client[] = [];
beforeAll(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  up.clear();
});
afterAll(async () => {
  await up.close();
});

describe.each(ERAS)('%s over stdio', (era) => {
  test('elicitation declared: after the user declines, the agent\'s "confirm" is ignored and the user is asked again; nothing is sent until they accept', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [builtCli(), 'serve', '--registry', fixtureRegistry('petstore')],
      cwd: REPO_ROOT,
      env: { ...process.env, PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = newClient(era, { elicitation: {} }, 'confirm-user-stdio');
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    client.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params.message);
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    await client.connect(transport);
    clients.push(client);
    expect(client.getProtocolEra()).toBe(era);

    // the handle proves the describe in either era (a 2026-07-28 request remembers nothing)
    const handle = await describeHandle(client, 'pets.delete');
    const declined = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 17 }, handle });
    expect(declined.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(declined.error?.message).toBe('execute_tool: the user declined pets.delete');
    // the agent insists with its own confirm: the user is asked again, and their "no" stands
    const insisted = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 17 }, confirm: 'pets.delete', handle });
    expect(insisted.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(insisted.error?.message).toBe('execute_tool: the user declined pets.delete');
    expect(asked).toEqual(Array(2).fill('Allow the destructive API call pets.delete (DELETE /pets/17)?'));
    expect(up.requests).toHaveLength(0);

    // the user's yes runs it (with or without the agent's confirm)
    answer = 'accept';
    const done = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 17 }, confirm: 'pets.delete', handle });
    expect(done.success, JSON.stringify(done.error)).toBe(true);
    expect(asked).toHaveLength(3);
    expect(up.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /pets/17']);
  });
});
