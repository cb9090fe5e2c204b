// Rate limits over stdio with the defaults a new user gets (no API_CATALOG_RATE_LIMIT): a 150-query run of
// search_tools/describe_tools is never cut off (it was RATE_LIMITED after 120), while execute_tool keeps its
// 120-per-minute limit that protects the upstream. Spawns the built CLI through the SDK stdio client of each era.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, builtCli, call, fixtureRegistry, newClient } from '../helpers/mcp.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});
afterEach(() => up.clear());

test.each(ERAS)('stdio defaults (%s era): 150 search/describe calls all succeed; execute_tool is limited at 120 per minute with 0 upstream beyond', async (era) => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('API_CATALOG_')) env[k] = v;
  env.PETSTORE_BASE_URL = up.url;
  const client = newClient(era, {}, 'rate-test');
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [builtCli(), 'serve', '--registry', fixtureRegistry('petstore')], cwd: REPO_ROOT, env, stderr: 'ignore' }));
  try {
    const words = ['pet', 'order', 'store inventory', 'create a pet', 'delete an order', 'find pets by status', 'user login', 'update pet', 'list', 'get'];
    const failures: string[] = [];
    for (let i = 0; i < 150; i++) {
      const r =
        i % 3 === 2
          ? await call(client, 'describe_tools', { tool_names: ['pets.get'] })
          : await call(client, 'search_tools', { query: `${words[i % words.length]} ${i}` });
      if (!r.success) failures.push(`${i}: ${r.error?.code}`);
    }
    expect(failures).toEqual([]);
    expect((await call(client, 'list_domains', {})).success).toBe(true);

    // 130 at once: the bucket holds 120 and refills 2 per second, so about 10 are refused. Each passes the describe
    // handle, which a 2026-07-28 connection requires (it remembers nothing).
    const handle = (await describeWithHandles(client, ['pets.get'])).handles['pets.get'];
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: 130 }, (_, i) => call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: i + 1 }, handle })));
    const elapsedS = (performance.now() - t0) / 1000;
    const ok = results.filter((r) => r.success).length;
    const limited = results.filter((r) => r.error?.code === 'RATE_LIMITED');
    expect(ok + limited.length).toBe(130);
    expect(ok).toBeGreaterThanOrEqual(120);
    expect(ok).toBeLessThanOrEqual(120 + Math.ceil(elapsedS * 2) + 1);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]?.instruction).toMatch(/Wait \d+ s/);
    // Nothing beyond the limit reached the upstream.
    expect(up.requests).toHaveLength(ok);
    // Reads still work while execute_tool waits for its bucket.
    expect((await call(client, 'search_tools', { query: 'pet' })).success).toBe(true);
  } finally {
    await client.close();
  }
}, 120_000);
