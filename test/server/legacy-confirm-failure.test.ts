// A 2025-era client's confirmation that fails (audit "proto", defect 3). The server asks a legacy client inside the
// call (confirm.ts, elicit()), so when the client answers elicitation/create with an error, or does not answer in
// time, the agent still gets the envelope (CONFIRMATION_REQUIRED, structuredContent, an instruction), nothing is sent
// upstream, and the call's tool_call and audit lines say how it ended. Before, the SDK's input_required shim answered
// with its own bare text ("Fulfilling input required by 'tools/call' failed: ...", no code, no structuredContent) and
// the only lines of the call said "input_required".
// Only an error saying the client cannot show a form (-32601, form elicitation unsupported) makes "confirm" the way
// for the rest of the connection. A user who did not answer in time, or another error, does not (second read of stop
// 48, L1): the agent's own confirm then stood in for the user on every later call of that connection.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { LEGACY_ELICITATION_TIMEOUT_MS } from '../../src/server/confirm.js';
import { REPO_ROOT, builtCli, call, catalogs, connectInMemory, fixtureRegistry, newClient, type Connected } from '../helpers/mcp.js';
import { until } from '../helpers/timing.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
const open: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((c) => c.close()));
  up.clear();
});

/** The JSON log lines of a server's stderr. */
function logLines(stderr: string): Array<Record<string, any>> {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe('a legacy (2025-era) connection whose client fails to ask the user', () => {
  test('over stdio, the client answers elicitation/create with -32601 (it cannot show a form): the envelope with the "confirm" fallback, which then works; tool_call and audit lines say how it ended', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [builtCli(), 'serve', '--registry', fixtureRegistry('petstore')],
      cwd: REPO_ROOT,
      env: { ...process.env, PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_LOG_LEVEL: 'info' } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const client = newClient('legacy', { elicitation: {} }, 'confirm-failure');
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params.message);
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    });
    await client.connect(transport);
    open.push(client);
    expect(client.getProtocolEra()).toBe('legacy');

    expect((await call(client, 'describe_tools', { tool_names: ['pets.delete'] })).success).toBe(true);
    // call() checks that the text content and structuredContent carry the same envelope, and isError agrees
    const r = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 54 } });
    expect(asked).toEqual(['Allow the destructive API call pets.delete (DELETE /pets/54)?']);
    expect(r.isError).toBe(true);
    expect(r.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(r.error?.message).toBe('execute_tool: pets.delete was not run: the client could not ask the user to confirm (it answered with an error: Method not found)');
    expect(r.error?.details).toEqual({ confirm: 'pets.delete' });
    expect(r.instruction).toBe('Ask the user to confirm, then call execute_tool again with "confirm": "pets.delete".');
    expect(up.requests).toHaveLength(0);

    // the fallback the instruction names runs the call, without asking again
    const confirmed = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 54 }, confirm: 'pets.delete' });
    expect(confirmed.success, JSON.stringify(confirmed)).toBe(true);
    expect(asked).toHaveLength(1);
    expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/54']);

    await until(() => logLines(stderr).filter((l) => l.event === 'audit' && l.tool === 'pets.delete').length === 2, 'both audit lines of pets.delete');
    const logs = logLines(stderr);
    const calls = logs.filter((l) => l.event === 'tool_call' && l.tool === 'execute_tool');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ era: 'legacy', outcome: 'error', code: 'CONFIRMATION_REQUIRED', target: 'pets.delete', dispatched: false, confirmation: 'failed' });
    expect(calls[1]).toMatchObject({ outcome: 'ok', target: 'pets.delete', dispatched: true });
    expect(calls[1]).not.toHaveProperty('confirmation');
    const audits = logs.filter((l) => l.event === 'audit' && l.tool === 'pets.delete');
    expect(audits[0]).toMatchObject({ era: 'legacy', method: 'DELETE', path: '/pets/{petId}', outcome: 'CONFIRMATION_REQUIRED', dispatched: false });
    expect(audits[1]).toMatchObject({ outcome: 'ok', dispatched: true });
    expect(logs.some((l) => l.outcome === 'input_required')).toBe(false);
  });

  test(`in memory, the user never answers: after ${LEGACY_ELICITATION_TIMEOUT_MS / 1000} s (a fake clock) the envelope says so and offers no "confirm" fallback; the agent's confirm on the next call does not stand in for the user, who is asked again`, async () => {
    const lines: string[] = [];
    const c: Connected = await connectInMemory(
      {
        catalogs: catalogs(fixtureRegistry('petstore')),
        settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
        rateLimitPerMinute: 0,
        logger: createLogger({ write: (l) => lines.push(l), minLevel: 'info' }),
      },
      { era: 'legacy', capabilities: { elicitation: {} } },
    );
    open.push(c);
    const asked: string[] = [];
    c.client.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params.message);
      // the first question is never answered; the second one the user declines
      return asked.length === 1 ? new Promise<never>(() => undefined) : { action: 'decline' };
    });
    expect((await call(c.client, 'describe_tools', { tool_names: ['pets.delete'] })).success).toBe(true);
    // Only the timers are faked, from here on: the server's wait for the answer is the one timer this call sets.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = c.client.callTool({ name: 'execute_tool', arguments: { tool_name: 'pets.delete', args: { petId: 55 } } }, { timeout: 10 * LEGACY_ELICITATION_TIMEOUT_MS });
    await vi.waitUntil(() => asked.length === 1, { interval: 1, timeout: 60_000 }); // vitest's 1 s default failed on a busy machine
    await vi.advanceTimersByTimeAsync(LEGACY_ELICITATION_TIMEOUT_MS + 1);
    const result = await pending;
    vi.useRealTimers();
    const envelope = result.structuredContent as Record<string, any>;
    expect(result.isError).toBe(true);
    expect(envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(envelope.error.message).toBe(
      `execute_tool: pets.delete was not run: the user did not answer the confirmation within ${LEGACY_ELICITATION_TIMEOUT_MS / 1000} s; nothing was sent`,
    );
    expect(envelope.error.details).toEqual({ reason: 'no_answer' });
    expect(envelope.instruction).toBe('Tell the user the action was not performed. Call execute_tool again only if they still want it: they will be asked again ("confirm" does not replace their answer on this connection).');
    expect(envelope.instruction).not.toMatch(/call execute_tool again with "confirm"/);
    expect(up.requests).toHaveLength(0);

    // the agent now passes its own confirm: the user is asked again, and their "no" stands; nothing is sent
    const insisted = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 55 }, confirm: 'pets.delete' });
    expect(asked).toEqual(['Allow the destructive API call pets.delete (DELETE /pets/55)?', 'Allow the destructive API call pets.delete (DELETE /pets/55)?']);
    expect(insisted.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(insisted.error?.message).toBe('execute_tool: the user declined pets.delete');
    expect(up.requests).toHaveLength(0);

    const calls = lines.map((l) => JSON.parse(l) as Record<string, any>).filter((l) => l.event === 'tool_call' && l.tool === 'execute_tool');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ outcome: 'error', code: 'CONFIRMATION_REQUIRED', dispatched: false, confirmation: 'timeout' });
    expect(calls[1]).toMatchObject({ outcome: 'error', code: 'CONFIRMATION_REQUIRED', dispatched: false, confirmation: 'decline' });
  });

  const ERRORS: Array<{ name: string; error: () => Error; fallback: boolean; said: string }> = [
    { name: 'an error of its dialog', error: () => new Error('dialog failed'), fallback: false, said: 'dialog failed' },
    { name: '-32602 "form-mode unsupported" (the SDK client\'s own)', error: () => new ProtocolError(ProtocolErrorCode.InvalidParams, 'Client does not support form-mode elicitation requests'), fallback: true, said: 'Client does not support form-mode elicitation requests' },
    { name: '-32601 method not found', error: () => new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found'), fallback: true, said: 'Method not found' },
  ];
  test.each(ERRORS)('in memory, the client answers with $name: "confirm" becomes the way only when the error says it cannot show a form', async ({ error, fallback, said }) => {
    const c: Connected = await connectInMemory(
      { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0 },
      { era: 'legacy', capabilities: { elicitation: {} } },
    );
    open.push(c);
    let asked = 0;
    c.client.setRequestHandler('elicitation/create', () => {
      asked++;
      throw error();
    });
    expect((await call(c.client, 'describe_tools', { tool_names: ['pets.delete'] })).success).toBe(true);
    const first = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 56 } });
    expect(first.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(asked).toBe(1);
    expect(up.requests).toHaveLength(0);
    const second = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 56 }, confirm: 'pets.delete' });
    if (fallback) {
      expect(first.error?.message).toBe(`execute_tool: pets.delete was not run: the client could not ask the user to confirm (it answered with an error: ${said})`);
      expect(first.instruction).toBe('Ask the user to confirm, then call execute_tool again with "confirm": "pets.delete".');
      expect(second.success, JSON.stringify(second)).toBe(true);
      expect(asked).toBe(1);
      expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/56']);
    } else {
      expect(first.error?.message).toBe(`execute_tool: pets.delete was not run: the client could not show the confirmation this time (it answered with an error: ${said}); nothing was sent`);
      expect(first.error?.details).toEqual({ reason: 'client_error' });
      expect(first.instruction).not.toMatch(/"confirm": "pets.delete"/);
      // the agent's confirm is still ignored: the client is asked again (and fails again); nothing is sent
      expect(second.error?.code).toBe('CONFIRMATION_REQUIRED');
      expect(second.error?.details).toEqual({ reason: 'client_error' });
      expect(asked).toBe(2);
      expect(up.requests).toHaveLength(0);
    }
  });
});
