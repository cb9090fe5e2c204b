// The eight conformance criteria of the progressive-disclosure extension (SEEDS.md §2) through a real client of
// each era on one connection (as over stdio: a legacy connection remembers its describes; a 2026-07-28 one remembers
// nothing, so its client passes the describe handle, as over HTTP), plus session rules B1–B3, B5 (idle expiry of a
// legacy session, with an injected clock) and B10 (concurrency in one session).
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import type { ServerDeps } from '../../src/server/create-server.js';
import { SessionState } from '../../src/server/session.js';
import { MemoryStateStore } from '../../src/state/index.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';
import { describeWithHandles } from '../helpers/describe-handles.js';

let up: Upstream;
const open: Connected[] = [];
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  up.clear();
});

async function readJson(c: Connected, uri: string): Promise<Record<string, any>> {
  const r = await c.client.readResource({ uri });
  return JSON.parse((r.contents[0] as { text: string }).text) as Record<string, any>;
}

describe.each(ERAS)('%s era', (era: Era) => {
  async function connect(extra: Partial<ServerDeps> = {}): Promise<Connected> {
    const c = await connectInMemory(
      {
        catalogs: catalogs(fixtureRegistry('petstore')),
        settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} },
        rateLimitPerMinute: 0,
        ...extra,
      },
      { era },
    );
    open.push(c);
    return c;
  }
  /** What proves a describe to execute_tool: a 2026-07-28 client passes the handle; a legacy connection remembers. */
  const proof = (handle: string | undefined): { handle?: string } => (era === 'modern' && handle !== undefined ? { handle } : {});

  describe('progressive disclosure conformance (SEEDS.md §2)', () => {
    test('1. minimal listing: four tools, no operation schemas', async () => {
      const c = await connect();
      const { tools } = await c.client.listTools();
      expect(tools).toHaveLength(4);
      expect(JSON.stringify(tools)).not.toMatch(/petId|pets\.create/);
    });

    test('2. the resource is listed', async () => {
      const c = await connect();
      const { resources } = await c.client.listResources();
      expect(resources.some((r) => r.uri === 'resource:///tool_descriptions')).toBe(true);
    });

    test('3+4. ?tools=a,b is accepted and returns full descriptions for exactly those tools', async () => {
      const c = await connect();
      const body = await readJson(c, 'resource:///tool_descriptions?tools=pets.get,pets.create');
      expect(Object.keys(body)).toEqual(['pets.get', 'pets.create']);
      const d = body['pets.create'];
      expect(Object.keys(d).sort()).toEqual(['description', 'error_guidance', 'examples', 'handle', 'inputSchema', 'name', 'usage_guidance']);
      expect(d.handle).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{16}$/);
      expect(d.usage_guidance).toMatch(/"handle"/);
      expect(d.inputSchema.required).toEqual(['name']);
      expect(d.examples[0]).toEqual({ tool_name: 'pets.create', args: { name: 'Rex', status: 'available' } });
      expect(d.usage_guidance).toMatch(/execute_tool/);
      const mixed = await readJson(c, 'resource:///tool_descriptions?tools=pets.get,pets.gte');
      expect(mixed['pets.gte'].error).toBe("Tool 'pets.gte' not found");
      expect(mixed['pets.gte'].suggestions[0]).toBe('pets.get');
      // naming only operations that do not exist: the resource does not exist (-32602 with the URI, suggestions in the message)
      const unknown = await c.client.readResource({ uri: 'resource:///tool_descriptions?tools=pets.gte' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(unknown).toBeInstanceOf(ProtocolError);
      expect((unknown as ProtocolError).data).toEqual({ uri: 'resource:///tool_descriptions?tools=pets.gte' });
      expect((unknown as ProtocolError).message).toMatch(/did you mean pets\.get/);
      // a stored result that is gone says every way it goes: expired, made room for newer ones (the byte budget), or another caller's
      const gone = await c.client.readResource({ uri: 'api-catalog://results/00000000-0000-4000-8000-000000000000' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((gone as ProtocolError).message).toMatch(/expire after \d+ min, make room for newer ones .*belong to the caller/);
    });

    test('5. without a selection: the bare URI reads as a guide with example URIs; an empty selection -> MISSING_TOOL_SELECTION', async () => {
      const c = await connect();
      const guide = await readJson(c, 'resource:///tool_descriptions');
      expect(guide.example_uris[0]).toMatch(/^resource:\/\/\/tool_descriptions\?tools=/);
      const err = await c.client.readResource({ uri: 'resource:///tool_descriptions?tools=' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).message).toMatch(/MISSING_TOOL_SELECTION/);
      expect((err as ProtocolError).data).toMatchObject({ code: 'MISSING_TOOL_SELECTION' });
      expect(((err as ProtocolError).data as { example_uris: string[] }).example_uris[0]).toMatch(/^resource:\/\/\/tool_descriptions\?tools=/);
    });

    test('K2 on the resource: more than 20 names is LIMIT_EXCEEDED', async () => {
      const c = await connect();
      const names = Array.from({ length: 21 }, (_, i) => `n${i}`).join(',');
      await expect(c.client.readResource({ uri: `resource:///tool_descriptions?tools=${names}` })).rejects.toThrow(/LIMIT_EXCEEDED/);
    });

    test('6. reading the resource authorizes the tool for the session', async () => {
      const c = await connect();
      const read = await readJson(c, 'resource:///tool_descriptions?tools=pets.get');
      const r = await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 2 }, ...proof(read['pets.get'].handle) });
      expect(r.success).toBe(true);
      expect(up.requests).toHaveLength(1);
    });

    test('7. execute before describe -> TOOL_DESCRIPTION_REQUIRED naming the exact call and URI, 0 upstream (B1)', async () => {
      const c = await connect();
      const r = await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 2 } });
      expect(r.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect(r.error?.details).toEqual({
        reason: 'not_described',
        describe_call: { tool: 'describe_tools', arguments: { tool_names: ['pets.get'] } },
        resource_uri: 'resource:///tool_descriptions?tools=pets.get',
      });
      expect(up.requests).toHaveLength(0);
    });

    test('8. per-session isolation: described in A, refused in B (B2)', async () => {
      const a = await connect();
      const b = await connect();
      const { handles } = await describeWithHandles(a.client, ['pets.get']);
      expect((await call(a.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, ...proof(handles['pets.get']) })).success).toBe(true);
      const rb = await call(b.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
      expect(rb.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect(up.requests).toHaveLength(1);
    });
  });

  describe('session rules', () => {
    test('B3: describing X does not authorize Y; a changed definition needs a new describe', async () => {
      const c = await connect();
      await call(c.client, 'describe_tools', { tool_names: ['pets.get'] });
      const y = await call(c.client, 'execute_tool', { tool_name: 'pets.list', args: {} });
      expect(y.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      const s = new SessionState(new MemoryStateStore(), { principal: 'p', session: 's' }, { ttlMs: 60_000, executePerMinute: 0, readPerMinute: 0, confirmPerMinute: 0 });
      await s.authorize([{ name: 'x', fingerprint: 'aaa' }]);
      expect(await s.isAuthorized('x', 'aaa')).toBe(true);
      expect(await s.isAuthorized('x', 'bbb')).toBe(false);
    });

    test('B3 end to end: a definition swapped under a live session (re-import) needs a new describe; 0 upstream until then', async () => {
      // A private copy of the catalog set, so swapping an operation does not leak into other tests.
      const set = loadCatalogSet([fixtureRegistry('petstore')]);
      const c = await connect({ catalogs: set });
      const before = (await describeWithHandles(c.client, ['pets.get'])).handles['pets.get'];
      expect((await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, ...proof(before) })).success).toBe(true);
      const entry = set.byName.get('pets.get')!;
      // Same name, a changed input schema: what a re-imported spec with a rug-pulled definition looks like.
      const schema = entry.op.inputSchema;
      entry.op = { ...entry.op, inputSchema: { ...schema, properties: { ...schema.properties, extra: { type: 'string' } } } };
      up.clear();
      const refused = await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, ...proof(before) });
      expect(refused.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect(up.requests).toHaveLength(0);
      const after = (await describeWithHandles(c.client, ['pets.get'])).handles['pets.get'];
      expect((await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, ...proof(after) })).success).toBe(true);
      expect(up.requests).toHaveLength(1);
    });

    test('a summary describe does not authorize (it shows no parameters), nor does a failed parameter lookup; Level 2 does', async () => {
      const c = await connect();
      const failedLookup = await describeWithHandles(c.client, ['pets.create'], { parameter: 'nope' });
      expect(failedLookup.handles).toEqual({});
      expect((await call(c.client, 'execute_tool', { tool_name: 'pets.create', args: { name: 'a' } })).error?.code).toBe(
        'TOOL_DESCRIPTION_REQUIRED',
      );
      expect((await describeWithHandles(c.client, ['pets.create'], { detail: 'summary' })).handles).toEqual({});
      const summary = await call(c.client, 'execute_tool', { tool_name: 'pets.create', args: { name: 'a' } });
      expect(summary.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      // why, where the connection remembers; a 2026-07-28 request is answered as if alone (as over HTTP)
      expect(summary.error?.details.reason).toBe(era === 'legacy' ? 'summary_only' : 'not_described');
      const level2 = (await describeWithHandles(c.client, ['pets.create'])).handles['pets.create'];
      expect((await call(c.client, 'execute_tool', { tool_name: 'pets.create', args: { name: 'a' }, ...proof(level2) })).success).toBe(true);
    });

    // A 2026-07-28 connection keeps no authorization to expire (its handles expire on their own: handles.test.ts),
    // so the rule is declared for the legacy era only (not a skipped test in the other).
    if (era === 'legacy') test('B5: authorization expires with an idle session (TTL + 1 s), then describe again works', async () => {
      let t = 1_000_000;
      const c = await connect({ now: () => t, sessionTtlMs: 60_000 });
      await call(c.client, 'describe_tools', { tool_names: ['pets.get'] });
      t += 59_000;
      expect((await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } })).success).toBe(true);
      t += 61_000;
      const r = await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
      expect(r.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      await call(c.client, 'describe_tools', { tool_names: ['pets.get'] });
      expect((await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } })).success).toBe(true);
      expect(up.requests).toHaveLength(2);
    });

    test('B10: 50 concurrent describe+execute pairs in one session all succeed', async () => {
      const c = await connect();
      const pairs = Array.from({ length: 50 }, async (_, i) => {
        const op = i % 2 === 0 ? 'pets.get' : 'pets.list';
        const { handles } = await describeWithHandles(c.client, [op]);
        return call(c.client, 'execute_tool', { tool_name: op, args: op === 'pets.get' ? { petId: i + 1 } : { limit: 1 }, ...proof(handles[op]) });
      });
      const results = await Promise.all(pairs);
      expect(results.filter((r) => r.success)).toHaveLength(50);
      expect(up.requests).toHaveLength(50);
    });

    test('--no-require-describe turns enforcement off', async () => {
      const c = await connect({ requireDescribe: false });
      expect((await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } })).success).toBe(true);
    });
  });
});
