// describe_tools Level 2 on bodies composed with allOf (audit imp50, defect 2). Before: ix-api's
// `AccountRequest = allOf [{$ref: AccountRequestPartial}, {type: object, required: [name, address]}]` (the common
// generator pattern) read `body: any`, a oneOf of such requests `any` too, and the example was `{}` (the importer
// merged the parts' examples, each part alone: the part naming `required` knew no schema for them, so `address`
// became a string and the example failed validation). Now such a body lists the fields of every part with the
// required ones marked (serve time: registries imported before benefit), and its example holds the required fields.
// Real parts: the importer on a spec written here, a real MCP SDK client of both eras.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Exchange', version: '2' },
  servers: [{ url: 'https://exchange.invalid/api/v2' }],
  paths: {
    '/accounts': {
      post: { operationId: 'accounts_create', summary: 'Create a new account', requestBody: json('AccountRequest'), responses: { '201': { description: 'Created' } } },
    },
    '/rules': {
      post: { operationId: 'rules_create', summary: 'Create a joining rule', requestBody: { required: true, ...json('RuleRequest') }, responses: { '201': { description: 'Created' } } },
    },
  },
  components: {
    schemas: {
      AccountRequestPartial: {
        type: 'object',
        properties: {
          legal_name: { type: 'string' },
          address: { $ref: '#/components/schemas/Address' },
          name: { type: 'string', maxLength: 80 },
        },
      },
      AccountRequest: { allOf: [{ $ref: '#/components/schemas/AccountRequestPartial' }, { type: 'object', required: ['name', 'address'] }] },
      AddressPartial: { type: 'object', properties: { country: { type: 'string', maxLength: 2, example: 'US' }, locality: { type: 'string' } } },
      Address: { allOf: [{ $ref: '#/components/schemas/AddressPartial' }, { type: 'object', required: ['country'] }] },
      AllowRule: { allOf: [{ type: 'object', properties: { account: { type: 'string' }, capacity_max: { type: 'integer' } } }, { type: 'object', required: ['account'] }] },
      DenyRule: { allOf: [{ type: 'object', properties: { account: { type: 'string' }, reason: { type: 'string' } } }, { type: 'object', required: ['account', 'reason'] }] },
      RuleRequest: { oneOf: [{ $ref: '#/components/schemas/AllowRule' }, { $ref: '#/components/schemas/DenyRule' }] },
    },
  },
};

let set: CatalogSet;
beforeAll(async () => {
  const dir = tempDir('ac-describe-allof-');
  writeFileSync(join(dir, 'exchange.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'exchange.json'), { name: 'exchange' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'exchange')]);
});

describe.each(ERAS)('%s era', (era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: set }, { era });
  });
  afterAll(async () => {
    await c.close();
  });
  const tool = async (name: string, detail?: 'full') => {
    const r = await call(c.client, 'describe_tools', { tool_names: [name], ...(detail ? { detail } : {}) });
    expect(r.success, JSON.stringify(r)).toBe(true);
    return r.value.tools[0];
  };

  test("an allOf-composed body lists every part's fields, the required ones (named by another part) marked", async () => {
    const entry = await tool('accounts_create');
    expect(entry.parameters.body).toBe('object{address: object, required; name: string, required; legal_name: string}');
    const full = await tool('accounts_create', 'full');
    expect(full.parameters.find((p: { name: string }) => p.name === 'body').type).toBe('object');
  });

  test("the example holds the body's required fields, a nested allOf's too, and the call validates", async () => {
    const entry = await tool('accounts_create');
    expect(entry.example.args).toEqual({ body: { name: '<name>', address: { country: 'US' } } });
    const dry = await call(c.client, 'execute_tool', { tool_name: 'accounts_create', args: entry.example.args, dry_run: true, handle: entry.example.handle });
    expect(dry.success, JSON.stringify(dry)).toBe(true);
    expect(JSON.parse(dry.value.request.body)).toEqual({ name: '<name>', address: { country: 'US' } });
  });

  test('a oneOf of allOf-composed objects shows each alternative with its fields', async () => {
    const entry = await tool('rules_create');
    expect(entry.parameters.body).toBe('object{account: string, required; capacity_max: integer} | object{account: string, required; reason: string, required}, required');
  });
});
