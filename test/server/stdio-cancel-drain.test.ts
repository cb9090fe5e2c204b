// stdio, both eras (audit "proto", defect 2): a request the client cancels with notifications/cancelled gets no
// answer (the SDK sends none), so it must leave the drain's in-flight count once its handler settles; before, it
// stayed "in flight" for ever and a SIGTERM after it waited out the whole shutdown grace (drain_timeout, abandoned 1).
// The built CLI (`npm run build` first), raw stdin lines, a local upstream that never answers.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ERAS, MODERN_VERSION, type Era } from '../helpers/mcp.js';
import { spawnStdioServe, type StdioLines } from '../helpers/stdio-lines.js';
import { until } from '../helpers/timing.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});
afterEach(() => up.clear());

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function logLines(p: StdioLines): Array<Record<string, any>> {
  return p
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe.each(ERAS)('stdio, %s: SIGTERM after a cancelled call', (era: Era) => {
  const params = (p: Record<string, unknown>) => (era === 'modern' ? { ...p, _meta: META } : p);

  test('the cancelled call is no longer in flight: the shutdown line says inFlight 0, no drain_timeout, exit 0', async () => {
    up.route('/pets/79', { kind: 'stall' });
    const p = spawnStdioServe({
      ...(process.env as Record<string, string>),
      PETSTORE_BASE_URL: up.url,
      API_CATALOG_RATE_LIMIT: '0',
      API_CATALOG_LOG_LEVEL: 'info',
      // the only way out of the call is the cancellation; a grace that would show as a drain_timeout if it waited
      API_CATALOG_TIMEOUT_MS: '3600000',
      API_CATALOG_SHUTDOWN_GRACE_SECONDS: '10',
    });
    if (era === 'legacy') {
      p.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      await p.response(1);
      p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: params({ name: 'describe_tools', arguments: { tool_names: ['pets.get'] } }) });
    const described = await p.response(2);
    const handle = described.result.structuredContent.value.tools[0].example.handle as string;
    p.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: params({ name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 79 }, handle } }) });
    await until(() => up.hits('/pets/79').length > 0, 'the upstream request');
    p.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: params({ requestId: 3, reason: 'the user stopped it' }) });
    // the handler has settled once its tool_call line is written (CANCELLED: the upstream request was aborted)
    await until(() => logLines(p).some((l) => l.event === 'tool_call' && l.tool === 'execute_tool'), 'the cancelled call to finish');
    expect(logLines(p).find((l) => l.event === 'tool_call' && l.tool === 'execute_tool')).toMatchObject({ code: 'CANCELLED' });

    p.child.kill('SIGTERM');
    const { code } = await p.exited;
    expect(code).toBe(0);
    const logs = logLines(p);
    expect(logs.find((l) => l.event === 'shutdown')).toMatchObject({ signal: 'SIGTERM', inFlight: 0 });
    expect(logs.filter((l) => l.event === 'drain_timeout')).toEqual([]);
    expect(logs.find((l) => l.event === 'exit')).toMatchObject({ reason: 'shutdown', code: 0 });
    // a cancelled request gets no answer
    expect(p.messages().some((m) => m.id === 3)).toBe(false);
  });
});
