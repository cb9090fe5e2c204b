// A vendor's key header in the `[X-]<Vendor>-<qualifier>-<Key|Token>` form (Data2CRM's `X-API2CRM-USER-KEY`,
// Postmark's `X-Postmark-Server-Token`) is read as the API's own key, as `X-ListenAPI-Key` was (f30cf40): the
// operator's default bearer is not sent to an operation that takes it, describe says the key is the argument, and
// the import warns. Before, a word of the vendor's name beside `key` (`crm`, `postmark`) hid it, so the bearer went
// (closing50, "noticed and left alone"). What 5b57a42 narrowed stays: a token for one other thing (`invitation_token`,
// `X-Idempotency-Key`, `X-CSRF-Token`, `X-Acme-Invitation-Token`) is an argument beside the caller's bearer. A vendor
// named in two segments counts too (review51 finding 5): Azure API Management's `Ocp-Apim-Subscription-Key` was read
// as vendor `Ocp` and the word `apim`, no qualifier, so the operator's bearer went to the API beside its key.
// Real parts: the importer, a real MCP SDK client (describe_tools, execute_tool), a real local HTTP upstream that
// records the headers that reach it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { credentialParameters, vendorKeyHeader } from '../../src/schema/credential-parameters.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import type { Diagnostic } from '../../src/types.js';
import { call, connectInMemory, describeHandle, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const TOKEN = 'operator-token-Secret-5151';
const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } };
const header = (name: string) => ({ name, in: 'header', required: true, schema: { type: 'string' } });
const get = (operationId: string, parameters: unknown[]) => ({ get: { operationId, summary: operationId, parameters, responses: ok } });
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Crm', version: '1' },
  servers: [{ url: 'https://crm.invalid' }],
  paths: {
    '/accounts': get('listAccounts', [header('X-API2CRM-USER-KEY'), header('X-API2CRM-APPLICATION-KEY')]),
    '/servers': get('getServer', [header('X-Postmark-Server-Token')]),
    '/subscriptions': get('getSubscription', [header('Ocp-Apim-Subscription-Key')]),
    '/orders': get('listOrders', [header('X-Idempotency-Key')]),
    '/forms': get('listForms', [header('X-CSRF-Token')]),
    '/invites': get('getInvite', [header('X-Acme-Invitation-Token'), { name: 'invitation_token', in: 'query', required: true, schema: { type: 'string' } }]),
  },
};

describe('the name rule', () => {
  const reads = (name: string, where: 'header' | 'query' = 'header') => credentialParameters({ security: [], bindings: [{ arg: name, name, in: where, required: true }] }).length > 0;

  test("a vendor's key header: a vendor segment, then qualifiers and a key word", () => {
    for (const name of ['X-API2CRM-USER-KEY', 'X-API2CRM-APPLICATION-KEY', 'X-Postmark-Server-Token', 'X-Postmark-Account-Token', 'ev-access-token', 'ClearBlade-UserToken', 'X-VTEX-API-AppKey', 'X-TM-ACCESS-TOKEN', 'Ocp-Apim-Subscription-Key', 'ocp-apim-subscription-key']) {
      expect(vendorKeyHeader(name), name).toBe(true);
      expect(reads(name), name).toBe(true);
    }
  });

  test('a token for one other thing is not read as the API key, as a header or a query parameter', () => {
    for (const name of ['X-Idempotency-Key', 'Idempotency-Key', 'X-CSRF-Token', 'X-XSRF-TOKEN', 'X-Request-Token', 'x-amz-request-token', 'X-Acme-Invitation-Token', 'X-Invitation-Token', 'X-Next-Page-Token', 'X-Cache-Key', 'X-Acme-Key', 'X-Acme-Corp-Invitation-Token', 'Acme-Corp-Idempotency-Key', 'X-Acme-Corp-Key']) {
      expect(vendorKeyHeader(name), name).toBe(false);
      expect(reads(name), name).toBe(false);
    }
    // the vendor form is a header's: in a query the vendor word is not passed over (5b57a42's invitation_token)
    for (const name of ['invitation_token', 'acme_user_key', 'crm-access-token']) expect(reads(name, 'query'), name).toBe(false);
    // a secured operation authenticates by its schemes
    expect(credentialParameters({ security: [{ k: [] }], bindings: [{ arg: 'a', name: 'X-API2CRM-USER-KEY', in: 'header', required: true }] })).toEqual([]);
  });
});

describe('describe, execute and the import warning', () => {
  let set: CatalogSet;
  let up: Upstream;
  let c: Connected;
  let diagnostics: Diagnostic[];
  beforeAll(async () => {
    up = await startUpstream();
    const dir = tempDir('ac-vendor-key-bearer-');
    writeFileSync(join(dir, 'crm.json'), JSON.stringify(SPEC));
    const imported = await importSpec(join(dir, 'crm.json'), { name: 'crm' });
    diagnostics = imported.diagnostics;
    writeRegistry(imported, join(dir, 'reg'));
    set = loadCatalogSet([join(dir, 'reg', 'crm')]);
    c = await connectInMemory({ catalogs: set, settings: { baseUrls: { crm: up.url }, readOnly: false, env: { CRM_TOKEN: TOKEN } }, rateLimitPerMinute: 0 });
  });
  afterAll(async () => {
    await c?.close();
    await up?.close();
  });
  const execute = async (tool: string, args: Record<string, unknown>) => {
    up.clear();
    const r = await call(c.client, 'execute_tool', { tool_name: tool, args, handle: await describeHandle(c.client, tool) });
    expect(r.success, JSON.stringify(r)).toBe(true);
    expect(up.requests).toHaveLength(1);
    return up.requests[0]!;
  };
  const credentials = async (tool: string) => ((await call(c.client, 'describe_tools', { tool_names: [tool] })).value?.tools as Array<{ credentials: string }>)[0]?.credentials;

  test("the vendor's key headers go as the API asked, and the operator's token does not go with them", async () => {
    expect(await credentials('listAccounts')).toBe('none from this server: the API takes its key as the arguments "X-API2CRM-USER-KEY", "X-API2CRM-APPLICATION-KEY"');
    const sent = await execute('listAccounts', { 'X-API2CRM-USER-KEY': 'u-key-1', 'X-API2CRM-APPLICATION-KEY': 'a-key-1' });
    expect(sent.headers['x-api2crm-user-key']).toBe('u-key-1');
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.stringify(sent.headers)).not.toContain(TOKEN);
    expect(await credentials('getServer')).toBe('none from this server: the API takes its key as the argument "X-Postmark-Server-Token"');
    expect((await execute('getServer', { 'X-Postmark-Server-Token': 's-1' })).headers.authorization).toBeUndefined();
    expect(await credentials('getSubscription')).toBe('none from this server: the API takes its key as the argument "Ocp-Apim-Subscription-Key"');
    const azure = await execute('getSubscription', { 'Ocp-Apim-Subscription-Key': 'sub-key-1' });
    expect(azure.headers['ocp-apim-subscription-key']).toBe('sub-key-1');
    expect(azure.headers.authorization).toBeUndefined();
    expect(JSON.stringify(azure.headers)).not.toContain(TOKEN);
  });

  test("a header token for one other thing is an argument beside the caller's bearer, which still goes", async () => {
    for (const [tool, args] of [
      ['listOrders', { 'X-Idempotency-Key': 'idem-1' }],
      ['listForms', { 'X-CSRF-Token': 'csrf-1' }],
      ['getInvite', { 'X-Acme-Invitation-Token': 'inv-1', invitation_token: 'inv-2' }],
    ] as const) {
      expect(await credentials(tool), tool).toBe('CRM_TOKEN (set)');
      expect((await execute(tool, args)).headers.authorization, tool).toBe(`Bearer ${TOKEN}`);
    }
  });

  test('the import names the vendor key headers in CREDENTIAL_AS_PARAMETER, and nothing else', () => {
    const w = diagnostics.filter((d) => d.code === 'CREDENTIAL_AS_PARAMETER');
    expect(w).toHaveLength(1);
    expect(w[0]?.message).toContain('header "X-API2CRM-USER-KEY" (required by 1 of 6 operations), header "X-API2CRM-APPLICATION-KEY" (required by 1 of 6 operations), header "X-Postmark-Server-Token" (required by 1 of 6 operations), header "Ocp-Apim-Subscription-Key" (required by 1 of 6 operations)');
    expect(w[0]?.message).not.toMatch(/Idempotency|CSRF|Invitation|invitation_token/);
  });
});
