// What an agent is told, end to end through real SDK clients (in memory as over stdio, both eras; and the stateless
// 2026-07-28 HTTP path): the confirmation names the concrete request and tells a cancel from a decline; a Level-1
// describe authorizes nothing anywhere and says what to do instead; the describe instruction covers every tool
// described (destructive ones, writes a read-only server refuses); paging past the end of a search says which
// offsets exist; and the meta-tools' input schemas, their validation messages and their behaviour agree.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ServerDeps } from '../../src/server/create-server.js';
import { Signer } from '../../src/server/signing.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { ERAS, call, catalogs, connectHttp, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { upstreamPerFile } from '../helpers/upstream-per-file.js';

const fixture = upstreamPerFile();
const { open } = fixture;
const pet = () => catalogs(fixtureRegistry('petstore'));

describe.each(ERAS)('%s era', (era: Era) => {
  async function connect(settings: Partial<ServerDeps['settings']> = {}, capabilities: ClientCapabilities = {}): Promise<Connected> {
    const c = await connectInMemory(
      { catalogs: pet(), settings: { baseUrls: { petstore: fixture.up.url }, readOnly: false, env: {}, ...settings } },
      { era, capabilities },
    );
    open.push(c);
    return c;
  }

  describe('the confirmation of a destructive call', () => {
    test('asks about the concrete request (method and the path with the arguments filled in), never the template', async () => {
      const c = await connect({ env: { PETSTORE_API_KEY: 'CANARY-confirm-9d2' } }, { elicitation: {} });
      const asked: string[] = [];
      c.client.setRequestHandler('elicitation/create', (req) => {
        asked.push(req.params.message);
        return { action: 'accept', content: { confirm: true } };
      });
      const { handles } = await describeWithHandles(c.client, ['pets.delete']);
      const r = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 31 }, handle: handles['pets.delete'] });
      expect(r.success, JSON.stringify(r)).toBe(true);
      expect(asked).toEqual(['Allow the destructive API call pets.delete (DELETE /pets/31)?']);
      expect(asked.join()).not.toContain('CANARY');
      expect(fixture.up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/31']);
    });

    test('a client without elicitation is told the concrete request too', async () => {
      const c = await connect();
      const { handles } = await describeWithHandles(c.client, ['pets.delete']);
      const r = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 8 }, handle: handles['pets.delete'] });
      expect(r.error?.code).toBe('CONFIRMATION_REQUIRED');
      expect(r.error?.message).toContain('(DELETE /pets/8)');
    });

    test('cancel (the form dismissed) and decline (the user said no) are reported distinctly; neither sends anything', async () => {
      const said: Record<string, { message: string; instruction: string }> = {};
      for (const action of ['cancel', 'decline'] as const) {
        const c = await connect({}, { elicitation: {} });
        c.client.setRequestHandler('elicitation/create', () => ({ action }));
        const { handles } = await describeWithHandles(c.client, ['pets.delete']);
        const r = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 9 }, handle: handles['pets.delete'] });
        expect(r.error?.code).toBe('CONFIRMATION_REQUIRED');
        said[action] = { message: r.error?.message as string, instruction: r.instruction as string };
      }
      expect(said.cancel?.message).toMatch(/the user cancelled the confirmation of pets\.delete/);
      expect(said.cancel?.message).not.toMatch(/declined/);
      expect(said.cancel?.instruction).toMatch(/only if they ask/);
      expect(said.decline?.message).toMatch(/the user declined pets\.delete/);
      expect(said.decline?.instruction).toMatch(/Do not retry/);
      expect(fixture.up.requests).toHaveLength(0);
    });
  });

  describe('a Level-1 (summary) describe', () => {
    test('does not authorize execute_tool; its instruction asks for a Level-2 describe; the refusal says why', async () => {
      const { client } = await connect();
      const s = await call(client, 'describe_tools', { tool_names: ['pets.get'], detail: 'summary' });
      expect(s.success).toBe(true);
      expect(s.instruction).toBe('A summary does not authorize execute_tool: first call describe_tools with {"tool_names": ["pets.get"]}.');
      expect(s.instruction).not.toMatch(/parameters above/);
      const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
      expect(r.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      if (era === 'legacy') {
        // a legacy connection remembers what it described, so the refusal can say it was a summary
        expect(r.error?.details.reason).toBe('summary_only');
        expect(r.error?.message).toMatch(/pets\.get was described at summary level only.*describe it at level "parameters"/);
      } else {
        // a 2026-07-28 request is answered as if alone (as over HTTP): the general refusal, which names summaries
        expect(r.error?.details.reason).toBe('not_described');
        expect(r.error?.message).toMatch(/a "summary" describe does not count/);
      }
      expect(r.error?.details.describe_call).toEqual({ tool: 'describe_tools', arguments: { tool_names: ['pets.get'] } });
      expect(fixture.up.requests).toHaveLength(0);
      const { handles } = await describeWithHandles(client, ['pets.get']);
      expect((await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle: handles['pets.get'] })).success).toBe(true);
    });

    test('several summaries: the instruction asks to describe the one that fits', async () => {
      const { client } = await connect();
      const s = await call(client, 'describe_tools', { tool_names: ['pets.get', 'pets.delete'], detail: 'summary' });
      expect(s.instruction).toBe('A summary does not authorize execute_tool: first call describe_tools with {"tool_names": ["<name>"]} for the one that fits.');
    });
  });

  describe('the describe instruction covers every tool described', () => {
    test('a destructive operation anywhere in the set gets the confirmation wording, naming it', async () => {
      const { client } = await connect();
      const r = await call(client, 'describe_tools', { tool_names: ['pets.get', 'pets.delete'] });
      expect(r.instruction).toBe(
        "Call execute_tool with the example and the user's values. pets.delete is destructive: only if the user asked for that action, and the user must confirm it.",
      );
      const only = await call(client, 'describe_tools', { tool_names: ['pets.delete'] });
      expect(only.instruction).toMatch(/^Only if the user asked for this destructive action/);
    });

    test('on a read-only server, writes are not offered to execute_tool', async () => {
      const { client } = await connect({ readOnly: true });
      const both = await call(client, 'describe_tools', { tool_names: ['pets.delete', 'pets.get'] });
      expect(both.value.tools[0].warnings.join(' ')).toMatch(/read-only/);
      expect(both.instruction).toBe(
        "Call execute_tool with the example and the user's values. Not this one: pets.delete changes data, which this read-only server refuses.",
      );
      expect(both.instruction).not.toMatch(/destructive|must confirm/);
      const writes = await call(client, 'describe_tools', { tool_names: ['pets.delete', 'pets.create'], detail: 'full' });
      expect(writes.instruction).toBe(
        'Do not call execute_tool: pets.delete and pets.create change data, which this read-only server refuses. Tell the user ("dry_run" only shows the request), or find another operation with search_tools.',
      );
    });
  });

  describe('search_tools paged past the end', () => {
    test('the hint and the instruction agree: both name the valid offsets, no rephrasing advice', async () => {
      const { client } = await connect();
      const all = await call(client, 'search_tools', { query: 'pets' });
      const total = all.value.total as number;
      expect(total).toBeGreaterThan(2);
      const r = await call(client, 'search_tools', { query: 'pets', offset: 5000, limit: 2 });
      expect(r.success).toBe(true);
      expect(r.value.results).toEqual([]);
      expect(r.value.hint).toBe(`No results at offset 5000; there are ${total} in all (offsets 0 to ${total - 1}).`);
      const last = Math.floor((total - 1) / 2) * 2;
      expect(r.instruction).toBe(`Call search_tools again with the same arguments and an offset below ${total} (the last page of 2 starts at ${last}).`);
      expect(r.value.suggestions).toBeUndefined();
      const page = await call(client, 'search_tools', { query: 'pets', offset: last, limit: 2 });
      expect(page.value.results.length).toBeGreaterThan(0);
    });
  });

  describe('input schemas, validation messages and behaviour agree', () => {
    test('describe_tools: maxItems is the limit every error names', async () => {
      const { client } = await connect();
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === 'describe_tools')?.inputSchema as { properties: Record<string, { maxItems?: number }> };
      const max = schema.properties.tool_names?.maxItems as number;
      expect(max).toBe(5);
      const many = await call(client, 'describe_tools', { tool_names: Array.from({ length: 21 }, (_, i) => `t${i}`) });
      expect(many.error?.code).toBe('INVALID_ARGUMENTS');
      expect(many.error?.details.errors[0]).toMatchObject({ path: '/tool_names', expected: `string[] (1..${max})`, message: `tool_names has 21 items; at most ${max} are allowed` });
      const wrong = await call(client, 'describe_tools', { tool_names: [1] });
      expect(wrong.error?.details.errors[0].expected).toBe(`string[] (1..${max})`);
      const six = await call(client, 'describe_tools', { tool_names: ['pets.get', 'pets.list', 'pets.create', 'pets.delete', 'store.inventory', 'store.orders.place'] });
      expect(six.error).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { max } });
    });

    test('search_tools: keywords is declared as a string or a list, as accepted; a wrong type says both', async () => {
      const { client } = await connect();
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === 'search_tools')?.inputSchema as { properties: Record<string, Record<string, unknown>> };
      expect(schema.properties.keywords?.anyOf).toEqual([{ type: 'array', items: { type: 'string' } }, { type: 'string' }]);
      expect(schema.properties.offset?.maximum).toBe(10_000);
      const asString = await call(client, 'search_tools', { query: 'remove', keywords: 'delete, pet' });
      const asList = await call(client, 'search_tools', { query: 'remove', keywords: ['delete', 'pet'] });
      expect(asString.success).toBe(true);
      expect(asString.value.results).toEqual(asList.value.results);
      const bad = await call(client, 'search_tools', { query: 'pets', keywords: 42 });
      expect(bad.error?.details.errors[0]).toMatchObject({ path: '/keywords', message: 'keywords must be a string or an array of strings', expected: 'string|string[] (..64)' });
    });

    test('search_tools: domain "" is no domain (searches them all), not an unknown domain', async () => {
      const { client } = await connect();
      const empty = await call(client, 'search_tools', { query: 'list pets', domain: '' });
      const none = await call(client, 'search_tools', { query: 'list pets' });
      expect(empty.success, JSON.stringify(empty)).toBe(true);
      expect(empty.value).toEqual(none.value);
      const alone = await call(client, 'search_tools', { domain: '' });
      expect(alone.error?.message).toBe('search_tools: give a query, a domain, or both');
    });
  });
});

describe('over the stateless 2026-07-28 HTTP path a summary authorizes nothing either', () => {
  let http: HttpHandle;
  const clients: Client[] = [];
  beforeAll(async () => {
    const deps = { catalogs: pet(), settings: { baseUrls: { petstore: fixture.up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0, signer: Signer.fromSecret('agent-answers-'.repeat(3)) };
    http = await serveHttp(deps, { port: 0 });
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await http.close();
  });

  test('the same instruction as over stdio, no handle, and a refusal that says a summary does not count', async () => {
    const c = await connectHttp(http.url, 'modern');
    clients.push(c);
    const s = await call(c, 'describe_tools', { tool_names: ['pets.get'], detail: 'summary' });
    expect(s.instruction).toBe('A summary does not authorize execute_tool: first call describe_tools with {"tool_names": ["pets.get"]}.');
    expect(JSON.stringify(s.value)).not.toMatch(/handle/);
    const r = await call(c, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
    expect(r.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
    expect(r.error?.message).toMatch(/a "summary" describe does not count/);
    expect(fixture.up.requests).toHaveLength(0);
  });
});
