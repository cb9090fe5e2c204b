// A discriminated oneOf (OpenAPI `discriminator` with a `mapping`) whose tag selects the alternative. Two defects of
// the imp50 audit, both on unions reached through a `$ref` (the whole body is `$ref U`):
// 1. Overlapping alternatives (ix-api's MemberJoiningRuleRequest: Deny's properties are a subset of Allow's, the tag a
//    plain string). A deny rule matches both, Ajv's strict oneOf refused it ("matches 2 of the alternatives") and no
//    body could pass. Per OAS the tag selects Deny, which the body matches: accepted and sent as it is. A tag that
//    selects an alternative the body does not match is still refused, with that alternative's errors.
// 2. Ably's rule_post (alternatives fix the tag by `enum` and hold `$ref`s themselves): a wrong body was answered with
//    every alternative's errors plus "the string \"kafka\" is not one of the allowed values"; now only the selected
//    alternative's errors, as for a union written inline. A oneOf error's `expected` is the union, not the root.
// Real parts: specs imported by the importer, a real MCP SDK client, execute_tool, a real local HTTP upstream that
// records what reaches it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, describeHandle, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const rule = (kind: string, target: Record<string, unknown>) => ({
  type: 'object',
  required: ['ruleType', 'source', 'target'],
  additionalProperties: false,
  properties: {
    ruleType: { type: 'string', enum: [kind] },
    source: ref('Source'),
    target: { type: 'object', additionalProperties: false, ...target },
  },
});

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Overlap', version: '1' },
  servers: [{ url: 'https://overlap.invalid/v2' }],
  paths: {
    '/member-joining-rules': {
      post: {
        operationId: 'createRule',
        requestBody: { required: true, content: { 'application/json': { schema: ref('MemberJoiningRuleRequest') } } },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/rules': {
      post: {
        operationId: 'createIntegration',
        requestBody: { required: true, content: { 'application/json': { schema: ref('RulePost') } } },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/pets': {
      post: {
        operationId: 'createPet',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { pet: ref('RulePost') } } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
  components: {
    schemas: {
      // ix-api's shape: each alternative is allOf [<Partial>, {required}], the tag a plain string
      AllowPartial: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          managing_account: { type: 'string' },
          consuming_account: { type: 'string' },
          network_service: { type: 'string' },
          capacity_min: { type: ['integer', 'null'], minimum: 1 },
          capacity_max: { type: ['integer', 'null'], minimum: 1 },
        },
      },
      DenyPartial: {
        type: 'object',
        additionalProperties: false,
        properties: {
          type: { type: 'string' },
          managing_account: { type: 'string' },
          consuming_account: { type: 'string' },
          network_service: { type: 'string' },
        },
      },
      AllowRequest: { allOf: [ref('AllowPartial'), { type: 'object', required: ['managing_account', 'consuming_account', 'network_service', 'type'] }] },
      DenyRequest: { allOf: [ref('DenyPartial'), { type: 'object', required: ['managing_account', 'consuming_account', 'network_service', 'type'] }] },
      MemberJoiningRuleRequest: {
        oneOf: [ref('AllowRequest'), ref('DenyRequest')],
        discriminator: { propertyName: 'type', mapping: { allow: '#/components/schemas/AllowRequest', deny: '#/components/schemas/DenyRequest' } },
      },
      // ably's shape: alternatives fix the tag by enum and hold $refs of their own
      Source: { type: 'object', required: ['channelFilter', 'type'], additionalProperties: false, properties: { channelFilter: { type: 'string' }, type: { type: 'string' } } },
      HttpRule: rule('http', { required: ['url', 'format'], properties: { url: { type: 'string' }, format: { type: 'string' } } }),
      KafkaRule: rule('kafka', {
        required: ['routingKey', 'brokers'],
        properties: { routingKey: { type: 'string' }, brokers: { type: 'array', items: { type: 'string' } }, auth: { type: 'object' }, membership: ref('MemberJoiningRuleRequest') },
      }),
      AmqpRule: rule('amqp', { required: ['queueId'], properties: { queueId: { type: 'string' } } }),
      RulePost: {
        oneOf: [ref('HttpRule'), ref('KafkaRule'), ref('AmqpRule')],
        discriminator: { propertyName: 'ruleType', mapping: { http: '#/components/schemas/HttpRule', kafka: '#/components/schemas/KafkaRule', amqp: '#/components/schemas/AmqpRule' } },
      },
    },
  },
};

const MEMBERS = { managing_account: '1', consuming_account: '2', network_service: '3' };
const SOURCE = { channelFilter: '^x', type: 'channel.message' };

let set: CatalogSet;
let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-discriminator-overlap-');
  writeFileSync(join(dir, 'overlap.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'overlap.json'), { name: 'overlap' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'overlap')]);
});
afterAll(async () => {
  await up.close();
});

describe.each(ERAS)('%s era', (era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: set, settings: { baseUrls: { overlap: up.url }, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { era });
  });
  afterAll(async () => {
    await c.close();
  });
  const execute = async (tool: string, args: Record<string, unknown>) => {
    up.clear();
    return call(c.client, 'execute_tool', { tool_name: tool, args, handle: await describeHandle(c.client, tool) });
  };
  const sentBody = (): unknown => {
    expect(up.requests).toHaveLength(1);
    return JSON.parse(up.requests[0]?.text ?? 'null');
  };
  const errorsOf = (r: Awaited<ReturnType<typeof execute>>) => {
    expect(r.error?.code, JSON.stringify(r)).toBe('INVALID_ARGUMENTS');
    expect(up.requests).toHaveLength(0);
    return r.error?.details.errors as Array<{ path: string; message: string; expected?: unknown; suggestion?: string }>;
  };

  test('overlapping alternatives: a deny rule (it also matches Allow) is accepted as the tag says, and sent as it is', async () => {
    const body = { type: 'deny', ...MEMBERS };
    const r = await execute('createRule', { body });
    expect(r.success, JSON.stringify(r)).toBe(true);
    expect(sentBody()).toEqual(body);
    const allow = { type: 'allow', ...MEMBERS, capacity_max: 100 };
    const r2 = await execute('createRule', { body: allow });
    expect(r2.success, JSON.stringify(r2)).toBe(true);
    expect(sentBody()).toEqual(allow);
  });

  test('a tag that selects an alternative the body does not match is refused with that alternative\'s errors; nothing sent', async () => {
    // matches neither: only Deny's missing fields, once each
    const missing = errorsOf(await execute('createRule', { body: { type: 'deny', managing_account: '1' } }));
    expect(missing.map((e) => [e.path, e.message])).toEqual([
      ['/body/consuming_account', 'required property is missing'],
      ['/body/network_service', 'required property is missing'],
    ]);
    // a valid Allow tagged deny: the tag decides
    const wrongKind = errorsOf(await execute('createRule', { body: { type: 'deny', ...MEMBERS, capacity_max: 5 } }));
    expect(wrongKind).toEqual([
      expect.objectContaining({
        path: '/body/type',
        message: expect.stringMatching(/^"type" "deny" selects DenyRequest, and the value does not match DenyRequest: "capacity_max" is not one of its properties/),
        suggestion: expect.stringContaining('set "type" to "allow"'),
      }),
    ]);
    // a tag the mapping does not have
    const unknownTag = errorsOf(await execute('createRule', { body: { type: 'maybe', ...MEMBERS } }));
    expect(unknownTag).toEqual([expect.objectContaining({ path: '/body/type', expected: ['allow', 'deny'] })]);
  });

  test('a union that is the whole body through a $ref: only the selected alternative\'s errors (kafka lacks brokers)', async () => {
    const body = { ruleType: 'kafka', source: SOURCE, target: { routingKey: 'k', auth: {} } };
    const errors = errorsOf(await execute('createIntegration', { body }));
    expect(errors.map((e) => [e.path, e.message])).toEqual([['/body/target/brokers', 'required property is missing']]);
    expect(JSON.stringify(errors)).not.toMatch(/allowed values|url|format|queueId/);
    // the same union as a property's $ref says the same
    const inline = errorsOf(await execute('createPet', { pet: body }));
    expect(inline.map((e) => [e.path, e.message])).toEqual([['/pet/target/brokers', 'required property is missing']]);
    // a nested error of the selected alternative (in its own $ref) is reported at its place
    const nested = errorsOf(await execute('createIntegration', { body: { ruleType: 'amqp', source: { channelFilter: '^x' }, target: { queueId: 'q' } } }));
    expect(nested.map((e) => [e.path, e.message])).toEqual([['/body/source/type', 'required property is missing']]);
    const ok = { ruleType: 'kafka', source: SOURCE, target: { routingKey: 'k', brokers: ['b:9092'] } };
    const sent = await execute('createIntegration', { body: ok });
    expect(sent.success, JSON.stringify(sent)).toBe(true);
    expect(sentBody()).toEqual(ok);
  });

  test('an overlapping union inside the selected alternative is decided by its own tag too', async () => {
    const ok = { ruleType: 'kafka', source: SOURCE, target: { routingKey: 'k', brokers: ['b'], membership: { type: 'deny', ...MEMBERS } } };
    const sent = await execute('createIntegration', { body: ok });
    expect(sent.success, JSON.stringify(sent)).toBe(true);
    expect(sentBody()).toEqual(ok);
    const bad = { ruleType: 'kafka', source: SOURCE, target: { routingKey: 'k', brokers: ['b'], membership: { type: 'deny', managing_account: '1' } } };
    const errors = errorsOf(await execute('createIntegration', { body: bad }));
    expect(errors.map((e) => [e.path, e.message])).toEqual([
      ['/body/target/membership/consuming_account', 'required property is missing'],
      ['/body/target/membership/network_service', 'required property is missing'],
    ]);
  });

  test("a union error shows the union's alternatives as expected, not the root input schema", async () => {
    const errors = errorsOf(await execute('createIntegration', { body: { source: SOURCE, target: { queueId: 'q' } } }));
    const union = errors.find((e) => e.path === '/body' && /alternatives/.test(e.message));
    expect(union, JSON.stringify(errors)).toBeDefined();
    expect(union?.message).toMatch(/HttpRule|KafkaRule|AmqpRule|object/);
    expect(JSON.stringify(union?.expected)).not.toContain('"properties":["body"]');
  });
});
