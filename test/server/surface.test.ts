// tools/list in each protocol era: exactly four tools, annotations set by us, input schemas that are valid JSON
// Schema 2020-12 (MCP's default dialect) accepting the examples the descriptions give, descriptions byte-identical
// whatever the catalog (J1), examples that name no API (placeholders), the describe-required sentences only when
// the server requires describe, and the whole listing well under 1,000 o200k tokens.
import { createHash } from 'node:crypto';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { afterEach, describe, expect, test } from 'vitest';
import { createAjv } from '../../src/schema/ajv.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { toolNames } from '../../src/server/core/names.js';
import { toolDefinitions, workflowText } from '../../src/server/surface.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

test.each([true, false])('the input schemas are JSON Schema 2020-12 (no $schema: the default dialect) and accept their own examples (requireDescribe: %s)', (requireDescribe) => {
  const ajv = createAjv();
  for (const t of toolDefinitions(toolNames(), { requireDescribe })) {
    expect(JSON.stringify(t.inputSchema)).not.toContain('$schema');
    expect(ajv.validateSchema(t.inputSchema), `${t.name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    const validate = ajv.compile(t.inputSchema);
    const example = /Example: (\{.*\})$/.exec(t.description)?.[1];
    if (example === undefined) continue;
    expect(validate(JSON.parse(example)), `${t.name} example: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  const execute = toolDefinitions(toolNames()).find((t) => t.name === 'execute_tool')!;
  expect(ajv.compile(execute.inputSchema)({ tool_name: 'pets.get', args: { petId: 1 }, handle: 'tp5p33.VMQJLxgFaPxWhs1cFLCF3g' })).toBe(true);
});

test.each([true, false])('the examples name no operation of any API: placeholders in their argument shapes (requireDescribe: %s)', (requireDescribe) => {
  const examples = toolDefinitions(toolNames(), { requireDescribe }).flatMap((t) => {
    const example = /Example: (\{.*\})$/.exec(t.description)?.[1];
    return example === undefined ? [] : [JSON.parse(example) as Record<string, unknown>];
  });
  expect(examples).toHaveLength(3);
  const [search, describeEx, execute] = examples as [Record<string, any>, Record<string, any>, Record<string, any>];
  const placeholder = /^<[^<>]+>( <[^<>]+>)*$/;
  expect(search.query).toMatch(placeholder);
  expect(search.keywords).toEqual([expect.stringMatching(placeholder)]);
  expect(describeEx.tool_names).toEqual([expect.stringMatching(placeholder)]);
  expect(execute.tool_name).toMatch(placeholder);
  for (const [k, v] of Object.entries(execute.args as Record<string, unknown>)) {
    expect(k).toMatch(placeholder);
    expect(v).toMatch(placeholder);
  }
  // the handle is shown where execute_tool checks it, and only there
  if (requireDescribe) expect(execute.handle).toMatch(placeholder);
  else expect(execute).not.toHaveProperty('handle');
  // and nothing of the embedded GitHub catalog (which the examples used to quote) is left in the text
  const text = JSON.stringify(toolDefinitions(toolNames(), { requireDescribe })) + workflowText(toolNames(), { requireDescribe });
  expect(text).not.toMatch(/issues_create|octo|hello|repositor/i);
});

test('the workflow text and the tool descriptions say describe is required exactly when it is', () => {
  const required = /cannot execute|TOOL_DESCRIPTION_REQUIRED|handle/;
  const on = toolDefinitions(toolNames());
  expect(on[2]?.description).toMatch(/You cannot execute an operation before describing it/);
  expect(on[3]?.description).toMatch(/Fails with TOOL_DESCRIPTION_REQUIRED if you did not call describe_tools for it first; pass the handle it gave/);
  expect(workflowText(toolNames())).toMatch(/^3\. .*"handle".*TOOL_DESCRIPTION_REQUIRED/m);
  const off = toolDefinitions(toolNames(), { requireDescribe: false });
  for (const t of off) expect(t.description, t.name).not.toMatch(required);
  expect(off[3]?.description).toMatch(/^Step 3: call one operation with args matching its parameters \(describe_tools gives them\)/);
  expect(workflowText(toolNames(), { requireDescribe: false })).not.toMatch(required);
  // only those sentences differ: the schemas and annotations are the same either way
  expect(off.map((t) => [t.name, t.title, t.inputSchema, t.annotations])).toEqual(on.map((t) => [t.name, t.title, t.inputSchema, t.annotations]));
});

describe.each(ERAS)('tools/list (%s era)', (era: Era) => {
  async function listing(dirs: string[], prefix?: string, requireDescribe?: boolean): Promise<unknown> {
    const deps = { catalogs: catalogs(...dirs), ...(prefix !== undefined ? { toolPrefix: prefix } : {}), ...(requireDescribe !== undefined ? { requireDescribe } : {}) };
    const c = await connectInMemory(deps, { era });
    open.push(c);
    return c.client.listTools();
  }

  test('exactly the four meta-tools, in workflow order, with our annotations', async () => {
    const { tools } = (await listing([fixtureRegistry('petstore')])) as { tools: Array<Record<string, any>> };
    expect(tools.map((t) => t.name)).toEqual(['list_domains', 'search_tools', 'describe_tools', 'execute_tool']);
    for (const t of tools.slice(0, 3)) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    }
    expect(tools[3]?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    // Discovery is idempotent; an API call is not assumed to be.
    expect(tools.map((t) => t.annotations.idempotentHint)).toEqual([true, true, true, false]);
    const describeTool = tools[2] as Record<string, any>;
    expect(describeTool.inputSchema.required).toEqual(['tool_names']);
    expect(describeTool.inputSchema.properties.detail.enum).toEqual(['summary', 'parameters', 'full']);
    // Firm words, numbered workflow, one concrete example each for search/describe/execute.
    expect(tools[1]?.description).toMatch(/^Step 1/);
    expect(tools[2]?.description).toMatch(/^Step 2.*cannot execute/s);
    expect(tools[3]?.description).toMatch(/^Step 3.*TOOL_DESCRIPTION_REQUIRED.*Example: \{/s);
  });

  test.each([true, false])('the listing is well under 1,000 o200k tokens (measured on the JSON of tools/list; requireDescribe: %s)', async (requireDescribe) => {
    const json = JSON.stringify(await listing([fixtureRegistry('petstore')], undefined, requireDescribe));
    const enc = new Tiktoken(o200k_base);
    const tokens = enc.encode(json).length;
    // Measured ~700 (3.1 kB) when written; the budget is the 1,000 with room to spare.
    expect(tokens).toBeLessThan(900);
    expect(tokens).toBeGreaterThan(200);
  });

  test('J1: byte-identical whatever catalog is loaded (hostile descriptions included)', async () => {
    const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
    const a = hash(await listing([fixtureRegistry('petstore')]));
    const b = hash(await listing([fixtureRegistry('zoo')]));
    const both = hash(await listing([fixtureRegistry('petstore'), fixtureRegistry('zoo')]));
    expect(b).toBe(a);
    expect(both).toBe(a);
    const text = JSON.stringify(await listing([fixtureRegistry('zoo')]));
    expect(text).not.toMatch(/IMPORTANT|id_rsa|IGNORE PREVIOUS/i);
    // without describe-before-execute too: the text follows the process-wide setting, never the catalog
    const off = hash(await listing([fixtureRegistry('petstore')], undefined, false));
    expect(off).not.toBe(a);
    expect(hash(await listing([fixtureRegistry('zoo')], undefined, false))).toBe(off);
  });

  test('a prefix renames the four tools and the names they mention', async () => {
    const { tools } = (await listing([fixtureRegistry('petstore')], 'pet_')) as { tools: Array<Record<string, any>> };
    expect(tools.map((t) => t.name)).toEqual(['pet_list_domains', 'pet_search_tools', 'pet_describe_tools', 'pet_execute_tool']);
    expect(tools[3]?.description).toContain('pet_describe_tools');
    expect(JSON.stringify(tools)).not.toMatch(/[^_]describe_tools/);
  });

  test('resources/list shows resource:///tool_descriptions with the workflow text', async () => {
    const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore')) }, { era });
    open.push(c);
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['resource:///tool_descriptions']);
    expect(resources[0]?.description).toMatch(/1\. .*\n2\. .*\n3\. .*cannot execute/s);
    // Static surface: no list_changed notifications are promised.
    expect(c.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, resources: { listChanged: false } });
    expect(c.client.getInstructions()).toMatch(/^How to use this API/);
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates[0]?.uriTemplate).toBe('resource:///tool_descriptions{?tools}');
  });

  test('without describe-before-execute, the listing, the workflow resource and the instructions do not claim it', async () => {
    const c = await connectInMemory({ catalogs: catalogs(fixtureRegistry('petstore')), requireDescribe: false }, { era });
    open.push(c);
    const { tools } = await c.client.listTools();
    const { resources } = await c.client.listResources();
    const required = /cannot execute|TOOL_DESCRIPTION_REQUIRED/;
    for (const t of tools) expect(t.description, t.name).not.toMatch(required);
    expect(resources[0]?.description).toMatch(/1\. .*\n2\. .*\n3\. /s);
    expect(resources[0]?.description).not.toMatch(required);
    expect(c.client.getInstructions()).toMatch(/^How to use this API/);
    expect(c.client.getInstructions()).not.toMatch(required);
    // and that is what the server does: an operation never described runs (a dry run: nothing is sent)
    const r = await call(c.client, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 }, dry_run: true });
    expect(r.success, JSON.stringify(r)).toBe(true);
  });
});

describe('search_tools defaults on the embedded GitHub catalog', () => {
  test('without limit: exactly 8 results (the default), the first 8 of an explicit limit of 25', async () => {
    const c = await connectInMemory({ catalogs: loadCatalogSet([]) });
    open.push(c);
    for (const args of [{ query: 'create issue' }, { domain: 'repos' }]) {
      const dflt = await call(c.client, 'search_tools', args);
      expect(dflt.success).toBe(true);
      expect(dflt.value.results).toHaveLength(8);
      expect(dflt.value.total).toBeGreaterThan(25);
      const wide = await call(c.client, 'search_tools', { ...args, limit: 25 });
      expect(wide.value.results).toHaveLength(25);
      expect(wide.value.results.slice(0, 8).map((r: { name: string }) => r.name)).toEqual(dflt.value.results.map((r: { name: string }) => r.name));
    }
  });
});
