// H1/H2/H7 at the server layer: an upstream credential (env or X-Upstream-Token) never appears in tool results,
// describe output or log lines — even when the upstream echoes it back.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { call, catalogs, connectInMemory, fixtureRegistry } from '../helpers/mcp.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});

test('the API key canary reaches the upstream header only', async () => {
  const canary = `CANARY-${Math.random().toString(36).slice(2)}`;
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l), minLevel: 'debug' });
  const c = await connectInMemory({
    catalogs: catalogs(fixtureRegistry('petstore')),
    settings: { baseUrls: { petstore: up.url }, readOnly: false, env: { PETSTORE_API_KEY: canary } },
    logger,
  });
  try {
    const seen: unknown[] = [];
    const d = await call(c.client, 'describe_tools', { tool_names: ['store.inventory'], detail: 'full' });
    expect(d.value.tools[0].credentials[0].set).toBe(true);
    seen.push(d);
    seen.push(await call(c.client, 'execute_tool', { tool_name: 'store.inventory', args: {}, dry_run: true }));
    const r = await call(c.client, 'execute_tool', { tool_name: 'store.inventory', args: {} });
    expect(r.success).toBe(true);
    seen.push(r);
    up.route('/store/inventory', { kind: 'status', status: 401, body: { message: `bad key ${canary}` } });
    const failed = await call(c.client, 'execute_tool', { tool_name: 'store.inventory', args: {} });
    expect(failed.isError).toBe(true);
    seen.push(failed);
    seen.push(await c.client.readResource({ uri: 'resource:///tool_descriptions?tools=store.inventory' }));
    expect(up.requests[0]?.headers['x-api-key']).toBe(canary);
    expect(JSON.stringify(seen)).not.toContain(canary);
    expect(lines.join('')).not.toContain(canary);
    expect(lines.some((l) => l.includes('"event":"tool_call"'))).toBe(true);
  } finally {
    await c.close();
  }
});
