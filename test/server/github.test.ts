// The embedded GitHub catalog (registry/github, 1,223 operations) through the server: deterministic order (K4),
// Level 3 output under the byte cap for the largest schemas (K3), bounded describe/search times.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { LIMITS } from '../../src/server/core/names.js';
import { MAX_QUERY_CHARS } from '../../src/search/index.js';
import { call, connectInMemory, type Connected } from '../helpers/mcp.js';

let c: Connected;
let d: Connected;
beforeAll(async () => {
  c = await connectInMemory({ catalogs: loadCatalogSet([]) });
  d = await connectInMemory({ catalogs: loadCatalogSet([]) });
});
afterAll(async () => {
  await c.close();
  await d.close();
});

describe('embedded GitHub catalog', () => {
  test('K4: list_domains and search_tools are identical across two independent loads', async () => {
    const a1 = await call(c.client, 'list_domains', {});
    const a2 = await call(d.client, 'list_domains', {});
    expect(a1.value.totalTools).toBe(1223);
    expect(a1.value).toEqual(a2.value);
    const names = a1.value.domains.map((x: { name: string }) => x.name);
    expect(names).toEqual([...names].sort());
    for (const q of [{ query: 'create issue' }, { domain: 'issues', limit: 25, offset: 25 }]) {
      expect((await call(c.client, 'search_tools', q)).value).toEqual((await call(d.client, 'search_tools', q)).value);
    }
  });

  test('F7 through the server: an operation-level server on another origin is refused with an operator instruction', async () => {
    // repos_upload-release-asset declares https://uploads.github.com, not the catalog's https://api.github.com.
    // These hand-made settings carry no allowedOrigins; `serve` adds that origin for the embedded catalog
    // (settingsFromConfig, tested in config-logger.test.ts), so this is what any other catalog would see.
    await call(c.client, 'describe_tools', { tool_names: ['repos_upload-release-asset'] });
    const r = await call(c.client, 'execute_tool', {
      tool_name: 'repos_upload-release-asset',
      args: { owner: 'o', repo: 'r', release_id: 1, name: 'a.zip', body: '' },
      dry_run: true,
    });
    expect(r.error?.code).toBe('UNSAFE_REQUEST');
    expect(r.error?.details).toMatchObject({ origin: 'https://uploads.github.com', configKey: 'catalogs.github.allowedOrigins' });
    expect(r.instruction).toMatch(/configuration does not allow this destination/);
    expect(r.instruction).toMatch(/catalogs\.github\.allowedOrigins/);
  });

  test('search -> describe -> dry-run issues_create end to end (no network)', async () => {
    const s = await call(c.client, 'search_tools', { query: 'create an issue', limit: 5 });
    expect(s.value.results.map((r: { name: string }) => r.name)).toContain('issues_create');
    const desc = await call(c.client, 'describe_tools', { tool_names: ['issues_create'] });
    // Level 2: one line per parameter (`type, required`), and an example call with exactly the required ones
    const params = desc.value.tools[0].parameters as Record<string, string | { type: string }>;
    const required = Object.entries(params).filter(([, p]) => (typeof p === 'string' ? p : p.type).endsWith(', required')).map(([n]) => n);
    expect(required).toEqual(expect.arrayContaining(['owner', 'repo', 'title']));
    expect(Object.keys(desc.value.tools[0].example.args).sort()).toEqual([...required].sort());
    const dry = await call(c.client, 'execute_tool', {
      tool_name: 'issues_create',
      args: { owner: 'octo', repo: 'hello', title: 'Bug' },
      dry_run: true,
    });
    expect(dry.value.request).toMatchObject({ method: 'POST', url: 'https://api.github.com/repos/octo/hello/issues' });
  });

  test('K3: Level 3 of the largest schemas and of the timeline op stays under the byte cap', async () => {
    for (const name of ['repos_update-org-ruleset', 'repos_create-org-ruleset', 'issues_list-events-for-timeline']) {
      const r = await call(c.client, 'describe_tools', { tool_names: [name], detail: 'full' });
      expect(r.success).toBe(true);
      const bytes = Buffer.byteLength(JSON.stringify(r.value.tools[0]));
      expect(bytes).toBeLessThan(LIMITS.fullDescribeBytes + 6000);
    }
    const big = await call(c.client, 'describe_tools', { tool_names: ['repos_update-org-ruleset'], detail: 'full' });
    expect(big.value.tools[0].inputSchemaTruncated).toMatch(/parameter/);
    const five = await call(c.client, 'describe_tools', {
      tool_names: ['repos_update-org-ruleset', 'repos_create-org-ruleset', 'repos_update-repo-ruleset', 'issues_create', 'pulls_create'],
      detail: 'full',
    });
    expect(Buffer.byteLength(JSON.stringify(five))).toBeLessThan(5 * (LIMITS.fullDescribeBytes + 6000));
  });

  test('K1: a 1 MB query over 1,223 operations does bounded work: its answer is that of its first MAX_QUERY_CHARS characters', async () => {
    // K1's "< 100 ms" is measured by `npm run bench` (scripts/bench/search.mjs); here the property behind it.
    const query = 'create issue '.repeat(90_000);
    const r = await call(c.client, 'search_tools', { query });
    expect(r.isError).toBe(false);
    expect(r.value.results.map((h: { name: string }) => h.name)).toContain('issues_create');
    expect(r.value).toEqual((await call(c.client, 'search_tools', { query: query.slice(0, MAX_QUERY_CHARS) })).value);
  });
});
