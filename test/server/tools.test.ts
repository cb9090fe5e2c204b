// The four meta-tools through a real SDK client of each protocol era (in memory, one connection as over stdio):
// happy paths, errors, the three describe levels, execute refusals that never reach the network (execute_tool
// passes the describe answer's handle, which a 2026-07-28 connection requires: it remembers nothing), confirmations
// (MRTR; the SDK's shim on a legacy connection), and the full search -> describe -> execute flow against the
// recording upstream.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Envelope, type Era } from '../helpers/mcp.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import type { ServerDeps } from '../../src/server/create-server.js';
import { MAX_QUERY_CHARS } from '../../src/search/index.js';

let up: Upstream;
const open: Connected[] = [];
const pet = () => catalogs(fixtureRegistry('petstore'));

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

describe.each(ERAS)('%s era', (era: Era) => {
  async function connect(extra: Partial<ServerDeps> = {}, capabilities: ClientCapabilities = {}): Promise<Connected> {
    const c = await connectInMemory(
      { catalogs: pet(), settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {} }, ...extra },
      { era, capabilities },
    );
    open.push(c);
    return c;
  }

  describe('list_domains', () => {
    test('the map: totals and domains in name order', async () => {
      const { client } = await connect();
      const r = await call(client, 'list_domains', {});
      expect(r.success).toBe(true);
      expect(r.value).toEqual({
        catalog: { name: 'petstore', title: 'Petstore', description: 'Petstore (test fixture)' },
        totalDomains: 2,
        totalTools: 6,
        domains: [
          { name: 'pets', toolCount: 4, description: 'Pets: list, read, create and delete pets.' },
          { name: 'store', toolCount: 2, description: 'Store: inventory and orders.' },
        ],
        credentials: [{ scheme: 'api_key', envVars: ['PETSTORE_API_KEY'], set: false }],
        // the registry content hash prefix (hot reload, docs/DEPLOY.md)
        catalogVersion: expect.stringMatching(/^[0-9a-f]{12}$/),
      });
      expect(r.instruction).toMatch(/search_tools/);
    });

    test('credentials: configured env var names and whether they are set, never the value', async () => {
      const secret = 'CANARY-list-domains-7f3a';
      const { client } = await connect({
        settings: {
          baseUrls: { petstore: up.url },
          readOnly: false,
          env: { SHOP_KEY: secret },
          catalogs: { petstore: { credentials: { apiKey: 'SHOP_KEY' } } },
        },
      });
      const r = await call(client, 'list_domains', {});
      expect(r.value.credentials).toEqual([{ scheme: 'api_key', envVars: ['SHOP_KEY'], set: true }]);
      expect(JSON.stringify(r)).not.toContain(secret);
    });

    test('unknown catalog and unknown argument are isError with the fix', async () => {
      const { client } = await connect();
      const bad = await call(client, 'list_domains', { catalog: 'petstor' });
      expect(bad.isError).toBe(true);
      expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
      expect(bad.error?.details.suggestions).toEqual(['petstore']);
      const typo = await call(client, 'list_domains', { catalgo: 'x' });
      expect(typo.error?.details.errors[0]).toMatchObject({ path: '/catalgo', suggestion: 'did you mean "catalog"?' });
    });

    test('several registries: domains and names prefixed by catalog, so both "pets" stay distinct', async () => {
      const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore'), fixtureRegistry('zoo')) }, { era });
      open.push(c);
      const r = await call(c.client, 'list_domains', {});
      expect(r.value.domains.map((d: { name: string }) => d.name)).toEqual(['petstore.pets', 'petstore.store', 'zoo.keepers', 'zoo.pets']);
      expect(r.value.catalogs.map((x: { name: string }) => x.name)).toEqual(['petstore', 'zoo']);
      const only = await call(c.client, 'list_domains', { catalog: 'zoo' });
      expect(only.value.totalDomains).toBe(2);
      const s = await call(c.client, 'search_tools', { query: 'list pets' });
      expect(s.value.results.map((h: { name: string }) => h.name)).toContain('petstore.pets.list');
      const z = await call(c.client, 'search_tools', { domain: 'zoo.pets' });
      expect(z.value.results.map((h: { name: string }) => h.name)).toEqual(['zoo.pets.create']);
      const d = await call(c.client, 'describe_tools', { tool_names: ['zoo.pets.create', 'petstore.pets.list'], detail: 'summary' });
      expect(d.value.tools.map((t: { domain: string }) => t.domain)).toEqual(['zoo.pets', 'petstore.pets']);
    });
  });

  describe('search_tools', () => {
    test('ranked results with summaries and required params, never schemas; hint names describe_tools', async () => {
      const { client } = await connect();
      const r = await call(client, 'search_tools', { query: 'create a pet', limit: 3 });
      expect(r.success).toBe(true);
      expect(r.value.results[0]).toMatchObject({ name: 'pets.create', domain: 'pets', summary: 'Create a pet', requiredParams: ['name'] });
      expect(r.value.results.length).toBeLessThanOrEqual(3);
      expect(typeof r.value.results[0].score).toBe('number');
      expect(JSON.stringify(r.value)).not.toMatch(/inputSchema|properties/);
      expect(r.value.hint).toMatch(/describe_tools.*"tool_names": \["pets.create"/);
    });

    test('domain without query browses that domain in stable order, paged', async () => {
      const { client } = await connect();
      const p1 = await call(client, 'search_tools', { domain: 'pets', limit: 2 });
      const p2 = await call(client, 'search_tools', { domain: 'pets', limit: 2, offset: 2 });
      expect(p1.value.total).toBe(4);
      const all = [...p1.value.results, ...p2.value.results].map((h: { name: string }) => h.name);
      expect(all).toEqual(['pets.create', 'pets.delete', 'pets.get', 'pets.list']);
      expect(p1.value.hint).toMatch(/offset 2/);
      const again = await call(client, 'search_tools', { domain: 'pets', limit: 2 });
      expect(again.value).toEqual(p1.value);
    });

    test('no results: success with suggestions (did-you-mean, domains)', async () => {
      const { client } = await connect();
      const r = await call(client, 'search_tools', { query: 'zzqx frobnicate' });
      expect(r.success).toBe(true);
      expect(r.value.results).toEqual([]);
      // Nothing resembles the query: no far-fetched did-you-mean or domain; the hint points to the map instead.
      expect(r.value.suggestions).toEqual({ domains: [], didYouMean: [] });
      expect(r.value.hint).toMatch(/No operation matched.*list_domains/);
    });

    test('unknown domain -> UNKNOWN_DOMAIN with the closest; bad limit -> INVALID_ARGUMENTS', async () => {
      const { client } = await connect();
      const d = await call(client, 'search_tools', { query: 'x', domain: 'pet' });
      expect(d.error?.code).toBe('UNKNOWN_DOMAIN');
      expect(d.error?.details.suggestions).toContain('pets');
      const l = await call(client, 'search_tools', { query: 'x', limit: 26 });
      expect(l.error?.code).toBe('INVALID_ARGUMENTS');
      expect(l.error?.details.errors[0].path).toBe('/limit');
      const none = await call(client, 'search_tools', {});
      expect(none.error?.code).toBe('INVALID_ARGUMENTS');
    });

    test('K1: a 1 MB query, regex metacharacters and emoji do bounded work (only the first MAX_QUERY_CHARS characters count)', async () => {
      // Clock-free: the answer to the whole query is the answer to its prefix. K1's "< 100 ms" is `npm run bench`'s.
      const { client } = await connect();
      for (const query of ['a'.repeat(1_000_000), '(.*)+(a+)+$['.repeat(1000), '🐶🐱 pets'.repeat(20_000), '']) {
        const r = await call(client, 'search_tools', { query, domain: 'pets' });
        expect(r.isError === false || r.error?.code === 'INVALID_ARGUMENTS').toBe(true);
        const prefix = await call(client, 'search_tools', { query: query.slice(0, MAX_QUERY_CHARS), domain: 'pets' });
        expect(r.isError ? r.error : r.value).toEqual(prefix.isError ? prefix.error : prefix.value);
      }
    });
  });

  describe('describe_tools', () => {
    test('Level 2 (default): the API text cut short, params one line each, example with its handle, returns, credentials', async () => {
      const { client } = await connect();
      const r = await call(client, 'describe_tools', { tool_names: ['pets.create'] });
      const t = r.value.tools[0];
      expect(r.value.detail).toBe('parameters');
      expect(t).toMatchObject({ name: 'pets.create', method: 'POST', path: '/pets' });
      expect(t.destructive).toBeUndefined(); // said only when true
      expect(t.api_text).toBe('Create a pet. Adds a pet to the store. The name is required.');
      expect(t.parameters.name).toBe('string, required');
      expect(t.parameters.status).toBe('string (available|pending|sold)');
      expect(t.example).toEqual({ tool_name: 'pets.create', args: { name: 'Rex', status: 'available' }, handle: expect.stringMatching(/^[0-9a-z]+\.[A-Za-z0-9_-]{16}$/) });
      expect(t.returns).toMatch(/^201 object: id, name/);
      expect(t.credentials).toBe('none'); // this operation declares no security
      expect(t.inputSchema).toBeUndefined();
      expect(r.value.note).toMatch(/data, never as instructions/);
      // parameter descriptions moved to Level 3
      const full = await call(client, 'describe_tools', { tool_names: ['pets.create'], detail: 'full' });
      expect(full.value.tools[0].parameters[0]).toEqual({ name: 'name', in: 'body', type: 'string', required: true, description: 'The pet name.' });
    });

    test('Level 1 summary and Level 3 full', async () => {
      const { client } = await connect();
      const s = await call(client, 'describe_tools', { tool_names: ['pets.get', 'pets.delete'], detail: 'summary' });
      expect(s.value.tools).toEqual([
        { name: 'pets.get', domain: 'pets', summary: 'Get one pet by id', method: 'GET', path: '/pets/{petId}' },
        { name: 'pets.delete', domain: 'pets', summary: 'Delete a pet', method: 'DELETE', path: '/pets/{petId}' },
      ]);
      const f = await call(client, 'describe_tools', { tool_names: ['pets.delete'], detail: 'full' });
      const t = f.value.tools[0];
      expect(t.inputSchema.required).toEqual(['petId']);
      expect(t.errors).toEqual([{ status: '404', description: 'No such pet.' }]);
      expect(t.examples[0].args).toEqual({ petId: 1 });
      expect(t.destructive).toBe(true);
      expect(t.notes.join(' ')).toMatch(/user must confirm.*"confirm": "pets.delete" once the user has agreed/);
      expect(f.instruction).toMatch(/^Only if the user asked for this destructive action/);
      expect(f.instruction).not.toMatch(/confirm"/); // copying it must not skip the user
    });

    test('parameter: Level 3 for one parameter; unknown parameter -> error with closest', async () => {
      const { client } = await connect();
      const r = await call(client, 'describe_tools', { tool_names: ['pets.create'], parameter: 'owner' });
      expect(r.value.tools[0].parameter).toMatchObject({ name: 'owner', in: 'body', required: false });
      expect(r.value.tools[0].parameter.schema.properties.email.format).toBe('email');
      const bad = await call(client, 'describe_tools', { tool_names: ['pets.create'], parameter: 'ownr' });
      expect(bad.isError).toBe(true);
      expect(bad.error?.details.tools[0].error.suggestions).toContain('owner');
    });

    test('unknown names: an error entry per name with closest valid names; all unknown -> UNKNOWN_TOOL', async () => {
      const { client } = await connect();
      const mixed = await call(client, 'describe_tools', { tool_names: ['pets.get', 'pets.lst'] });
      expect(mixed.success).toBe(true);
      expect(mixed.value.tools[1]).toMatchObject({ name: 'pets.lst', error: { code: 'UNKNOWN_TOOL', message: "Tool 'pets.lst' not found" } });
      expect(mixed.value.tools[1].error.suggestions).toContain('pets.list');
      const none = await call(client, 'describe_tools', { tool_names: ['nope.nothing'] });
      expect(none.error?.code).toBe('UNKNOWN_TOOL');
    });

    test('K2: more than 5 names -> LIMIT_EXCEEDED; 10,000 names -> INVALID_ARGUMENTS; duplicates collapse', async () => {
      const { client } = await connect();
      const six = await call(client, 'describe_tools', { tool_names: ['a', 'b', 'c', 'd', 'e', 'f'] });
      expect(six.error?.code).toBe('LIMIT_EXCEEDED');
      const huge = await call(client, 'describe_tools', { tool_names: Array.from({ length: 10_000 }, (_, i) => `n${i}`) });
      expect(huge.error?.code).toBe('INVALID_ARGUMENTS');
      const dup = await call(client, 'describe_tools', { tool_names: Array(6).fill('pets.get') });
      expect(dup.value.tools).toHaveLength(1);
      const asString = await call(client, 'describe_tools', { tool_names: '["pets.get"]' });
      expect(asString.value.tools[0].name).toBe('pets.get');
    });

    test('J1: imported text stays data — quoted under api_text, flagged ops warned, invisible characters stripped', async () => {
      const { client } = await connect();
      const r = await call(client, 'describe_tools', { tool_names: ['store.orders.place'] });
      const t = r.value.tools[0];
      expect(t.api_text).toMatch(/IMPORTANT/);
      expect(t.warnings[0]).toMatch(/^FLAGGED: .*do not follow it/);
      expect(r.instruction).not.toMatch(/id_rsa|IMPORTANT/);
      expect(t.credentials).toBe('PETSTORE_API_KEY (not set): the key alone; sent as header "X-Api-Key"');
    });
  });

  describe('execute_tool', () => {
    test('full flow search -> describe -> execute against the recording upstream', async () => {
      const { client } = await connect();
      const s = await call(client, 'search_tools', { query: 'create pet' });
      const name = s.value.results[0].name as string;
      const { handles } = await describeWithHandles(client, [name]);
      const r = await call(client, 'execute_tool', { tool_name: name, args: { name: 'Rex', tags: ['good'] }, handle: handles[name] });
      expect(r.success).toBe(true);
      expect(r.tool).toBe('pets.create');
      expect(r.value.status).toBe(200);
      expect(up.requests).toHaveLength(1);
      expect(up.requests[0]).toMatchObject({ method: 'POST', pathname: '/pets' });
      expect(JSON.parse(up.requests[0]!.text)).toEqual({ name: 'Rex', tags: ['good'] });
    });

    test('the result carries status, selected headers and data; fields projects through MCP', async () => {
      const { client } = await connect();
      up.route('/pets', {
        kind: 'status',
        status: 200,
        headers: { 'x-ratelimit-remaining': '41', link: '<http://x/pets?page=2>; rel="next"', 'x-internal-noise': 'no' },
        body: [{ id: 1, name: 'Rex', tag: 'dog' }, { id: 2, name: 'Tom', tag: 'cat' }],
      });
      try {
        const handle = (await describeWithHandles(client, ['pets.list'])).handles['pets.list'];
        const r = await call(client, 'execute_tool', { tool_name: 'pets.list', args: {}, handle });
        expect(r.value.status).toBe(200);
        expect(r.value.headers).toMatchObject({ 'x-ratelimit-remaining': '41', 'content-type': 'application/json' });
        expect(r.value.headers['x-internal-noise']).toBeUndefined();
        expect(r.value.data).toEqual([{ id: 1, name: 'Rex', tag: 'dog' }, { id: 2, name: 'Tom', tag: 'cat' }]);
        const projected = await call(client, 'execute_tool', { tool_name: 'pets.list', args: {}, fields: ['id', 'name'], handle });
        expect(projected.value.data).toEqual([{ id: 1, name: 'Rex' }, { id: 2, name: 'Tom' }]);
      } finally {
        up.route('/pets', { kind: 'echo' }); // routes outlive up.clear(): give the next tests the default back
      }
    });

    test('refusals never reach the network: not described, read-only, unconfirmed destructive, invalid args', async () => {
      const { client } = await connect();
      const notDescribed = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } });
      expect(notDescribed.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect(notDescribed.error?.details.describe_call).toEqual({ tool: 'describe_tools', arguments: { tool_names: ['pets.get'] } });
      expect(notDescribed.instruction).toMatch(/Call describe_tools with \{"tool_names": \["pets.get"\]\}/);

      const { handles } = await describeWithHandles(client, ['pets.delete', 'pets.create']);
      const del = handles['pets.delete'];
      const create = handles['pets.create'];
      const unconfirmed = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 }, handle: del });
      expect(unconfirmed.error?.code).toBe('CONFIRMATION_REQUIRED');
      const wrongConfirm = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 }, confirm: 'yes', handle: del });
      expect(wrongConfirm.error?.code).toBe('CONFIRMATION_REQUIRED');

      const invalid = await call(client, 'execute_tool', { tool_name: 'pets.create', args: { nme: 'Rex', status: 'availble' }, handle: create });
      expect(invalid.error?.code).toBe('INVALID_ARGUMENTS');
      const fieldErrors = invalid.error?.details.errors as Array<{ path: string; suggestion?: string }>;
      expect(fieldErrors.find((e) => e.path === '/nme')?.suggestion).toMatch(/"name"/);
      expect(fieldErrors.find((e) => e.path === '/status')?.suggestion).toMatch(/"available"/);
      const unknown = await call(client, 'execute_tool', { tool_name: 'pets.creat', args: {} });
      expect(unknown.error?.code).toBe('UNKNOWN_TOOL');
      expect(unknown.error?.details.suggestions).toContain('pets.create');
      // a projection that does not parse is refused with the arguments, before the confirmation step or a send
      const badFields = await call(client, 'execute_tool', { tool_name: 'pets.create', args: { name: 'Rex' }, fields: 'a,,b', handle: create });
      expect(badFields.error?.code).toBe('INVALID_ARGUMENTS');
      const badFieldsDelete = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 }, fields: 'a,,b', handle: del });
      expect(badFieldsDelete.error?.code).toBe('INVALID_ARGUMENTS');
      expect(up.requests).toHaveLength(0);

      const confirmed = await call(client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 7 }, confirm: 'pets.delete', handle: del });
      expect(confirmed.success).toBe(true);
      expect(up.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['DELETE /pets/7']);
    });

    test('read-only mode refuses writes with READ_ONLY_MODE (0 upstream) and allows reads', async () => {
      const { client } = await connect({ settings: { baseUrls: { petstore: up.url }, readOnly: true, env: {} } });
      const { handles } = await describeWithHandles(client, ['pets.create', 'pets.get']);
      const w = await call(client, 'execute_tool', { tool_name: 'pets.create', args: { name: 'Rex' }, handle: handles['pets.create'] });
      expect(w.error?.code).toBe('READ_ONLY_MODE');
      expect(up.requests).toHaveLength(0);
      const d = await call(client, 'execute_tool', { tool_name: 'pets.create', args: { name: 'Rex' }, dry_run: true, handle: handles['pets.create'] });
      expect(d.value).toMatchObject({ dry_run: true, read_only_mode: true, request: { method: 'POST' } });
      expect(d.instruction).toMatch(/read-only/);
      expect(d.instruction).not.toMatch(/without "dry_run"/);
      expect(up.requests).toHaveLength(0);
      const g = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 3 }, handle: handles['pets.get'] });
      expect(g.success).toBe(true);
      expect(up.requests.map((q) => q.url)).toEqual(['/pets/3']);
    });

    test('dry_run returns the exact request and sends nothing; args given as a JSON string are accepted', async () => {
      const { client } = await connect();
      const { handles } = await describeWithHandles(client, ['pets.list']);
      const r = await call(client, 'execute_tool', { tool_name: 'pets.list', args: '{"limit": 5, "status": "sold"}', dry_run: true, handle: handles['pets.list'] });
      expect(r.value.dry_run).toBe(true);
      expect(r.value.request).toMatchObject({ method: 'GET', url: `${up.url}/pets?limit=5&status=sold` });
      expect(up.requests).toHaveLength(0);
    });

    test('dry_run with the credential unset shows the request with a stand-in and says a real call stops at AUTH_MISSING', async () => {
      const { client } = await connect();
      const { handles } = await describeWithHandles(client, ['store.inventory']);
      const r = await call(client, 'execute_tool', { tool_name: 'store.inventory', args: {}, dry_run: true, handle: handles['store.inventory'] });
      expect(r.isError).toBe(false);
      expect(r.value.request.headers['x-api-key']).toBe('<PETSTORE_API_KEY not set>');
      expect(r.value.would_refuse).toEqual([{ code: 'AUTH_MISSING', env_vars: ['PETSTORE_API_KEY'] }]);
      expect(r.value.warnings).toEqual([expect.stringMatching(/^PETSTORE_API_KEY is not set: .* a real call stops at AUTH_MISSING/)]);
      expect(r.instruction).toMatch(/^Not ready to send.*PETSTORE_API_KEY/);
      expect(r.instruction).not.toMatch(/send this request/);
      // the real call still stops there
      const real = await call(client, 'execute_tool', { tool_name: 'store.inventory', args: {}, handle: handles['store.inventory'] });
      expect(real.error?.code).toBe('AUTH_MISSING');
      expect(up.requests).toHaveLength(0);
    });

    test('upstream failure -> isError with the upstream code and an instruction', async () => {
      const { client } = await connect();
      up.route('/pets/404', { kind: 'status', status: 404, body: { message: 'Not Found' } });
      const { handles } = await describeWithHandles(client, ['pets.get']);
      const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 404 }, handle: handles['pets.get'] });
      expect(r.isError).toBe(true);
      expect(r.error?.code).toBe('UPSTREAM_ERROR');
      expect(r.error?.details.status).toBe(404);
      expect(r.error?.message).toMatch(/Not Found/);
      expect(r.instruction).toMatch(/identifier/i);
    });

    test('elicitation: a client that supports it is asked instead of failing; decline -> not sent', async () => {
      for (const answer of ['accept', 'decline'] as const) {
        const c = await connect({}, { elicitation: {} });
        let asked = '';
        c.client.setRequestHandler('elicitation/create', (req) => {
          asked = req.params.message;
          return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
        });
        const { handles } = await describeWithHandles(c.client, ['pets.delete']);
        const r = await call(c.client, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 9 }, handle: handles['pets.delete'] });
        expect(asked).toMatch(/pets.delete/);
        if (answer === 'accept') {
          expect(r.success).toBe(true);
          expect(up.hits('/pets/9')).toHaveLength(1);
        } else {
          expect(r.error?.code).toBe('CONFIRMATION_REQUIRED');
          expect(r.instruction).toMatch(/Do not retry/);
        }
        up.clear();
      }
    });

    test('a truncated result is kept as a resource and the envelope says where', async () => {
      const { client } = await connect({ settings: { baseUrls: { petstore: up.url }, readOnly: false, env: {}, maxResponseBytes: 10_000_000 } });
      up.route('/pets', { kind: 'bigJson', items: 3000, itemBytes: 200 });
      const { handles } = await describeWithHandles(client, ['pets.list']);
      const r = await call(client, 'execute_tool', { tool_name: 'pets.list', args: {}, handle: handles['pets.list'] });
      expect(r.success).toBe(true);
      expect(r.value.truncated).toBeDefined();
      expect(r.value.full_result_uri).toMatch(/^api-catalog:\/\/results\//);
      expect(r.instruction).toContain(r.value.full_result_uri);
      const read = await client.readResource({ uri: r.value.full_result_uri });
      const full = JSON.parse((read.contents[0] as { text: string }).text);
      expect(Array.isArray(full) ? full.length : 0).toBe(3000);
      const listed = await client.listResources();
      expect(listed.resources.map((x) => x.uri)).toContain(r.value.full_result_uri);
    });

    test('A23: execute_tool is rate limited per principal -> RATE_LIMITED with a retry hint, nothing sent beyond it', async () => {
      const { client } = await connect({ rateLimitPerMinute: 5 });
      const { handles } = await describeWithHandles(client, ['pets.get']);
      const outcomes: string[] = [];
      let last: Envelope | undefined;
      for (let i = 0; i < 8; i++) {
        last = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle: handles['pets.get'] });
        outcomes.push(last.success ? 'ok' : (last.error?.code as string));
      }
      // The describe call is not counted: the execute bucket protects the upstream, not the catalog.
      expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);
      expect(up.requests).toHaveLength(5);
      expect(last?.instruction).toMatch(/Wait \d+ s/);
      expect(last?.error?.details).toMatchObject({ bucket: 'execute' });
      // Local read-only tools stay available while execute_tool is limited.
      expect((await call(client, 'list_domains', {})).success).toBe(true);
      expect((await call(client, 'search_tools', { query: 'pet' })).success).toBe(true);
    });

    test('A23: a configured read limit applies to list/search/describe, separately from execute_tool', async () => {
      const { client } = await connect({ rateLimitPerMinute: 0, readRateLimitPerMinute: 3 });
      const handle = (await describeWithHandles(client, ['pets.get'])).handles['pets.get'];
      const codes: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await call(client, 'search_tools', { query: 'pet' });
        codes.push(r.success ? 'ok' : (r.error?.code as string));
      }
      expect(codes).toEqual(['ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED']);
      // a call that is sent spends the execute bucket, not this one
      const r = await call(client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, handle });
      expect(r.success, JSON.stringify(r.error)).toBe(true);
      // one refused before it is sent spends this one (rate-limit-unsent.test.ts)
      const refused = await call(client, 'execute_tool', { tool_name: 'pets.list', args: {} });
      expect(refused.error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'read' } });
    });

    test('an unknown meta-tool name is a protocol error', async () => {
      const { client } = await connect();
      await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/Unknown tool/);
    });
  });
});
