// Where a credential's value comes from is decided in one place (src/execution/auth.ts, the same choice resolveAuth
// makes), and list_domains, describe_tools and AUTH_MISSING say what the call would do. The case that showed the two
// apart: a request's X-Upstream-Token takes a basic scheme's place but is no `user:password`. resolveAuth does not fall
// back to the env vars then (AUTH_MISSING), while list_domains said `set: true` and describe `BASIC_USERNAME +
// BASIC_PASSWORD (set)` from the env vars, and AUTH_MISSING's message ended in an empty `not set: ;`.
// Real parts: the HTTP transport, real MCP clients sending the header, a recording upstream on 127.0.0.1.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { call, connectHttp, describeHandle } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SPEC = `openapi: 3.0.3
info: {title: Basic, version: "1"}
servers: [{url: "https://basic.invalid/v1"}]
components:
  securitySchemes:
    basic: {type: http, scheme: basic}
security: [{basic: []}]
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses: {"200": {description: OK}}
`;

const ENV = { BASIC_USERNAME: 'env-user', BASIC_PASSWORD: 'env-pass-4242' };
const VARS = ['BASIC_USERNAME', 'BASIC_PASSWORD'];

let set: CatalogSet;
let up: Upstream;
let server: HttpHandle;
const clients: Client[] = [];

beforeAll(async () => {
  const dir = tempDir('ac-session-cred-');
  writeFileSync(join(dir, 'basic.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'basic.yaml'), { name: 'basic' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'basic')]);
  up = await startUpstream();
  server = await serveHttp({ catalogs: set, settings: { baseUrls: { basic: up.url }, readOnly: false, env: ENV }, rateLimitPerMinute: 0 }, { port: 0 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  up.clear();
});
afterAll(async () => {
  await server.close();
  await up.close();
});

async function client(token: string): Promise<Client> {
  const c = await connectHttp(server.url, 'modern', { headers: { 'X-Upstream-Token': token }, name: 'session-cred' });
  clients.push(c);
  return c;
}

describe("a request's X-Upstream-Token in a basic scheme's place", () => {
  test('no user:password: not set (the env vars are not used), as the call answers AUTH_MISSING', async () => {
    const c = await client('no-colon-token-8181');
    expect((await call(c, 'list_domains', {})).value.credentials).toEqual([{ scheme: 'basic', envVars: VARS, set: false }]);
    const brief = await call(c, 'describe_tools', { tool_names: ['listThings'] });
    expect(brief.value.tools[0].credentials).toBe("BASIC_USERNAME + BASIC_PASSWORD (set, but not used: this request's X-Upstream-Token takes its place and is not user:password)");
    const full = await call(c, 'describe_tools', { tool_names: ['listThings'], detail: 'full' });
    expect(full.value.tools[0].credentials).toEqual([expect.objectContaining({ scheme: 'basic', envVars: VARS, set: false })]);
    expect(full.value.tools[0].credentials[0]).not.toHaveProperty('source');

    const refused = await call(c, 'execute_tool', { tool_name: 'listThings', args: {}, handle: await describeHandle(c, 'listThings') });
    expect(refused.error?.code).toBe('AUTH_MISSING');
    expect(refused.error?.message).toContain("the session's X-Upstream-Token takes the place of basic and is not user:password");
    expect(refused.error?.message).not.toMatch(/not set: ;|not set: $/);
    expect(refused.error?.details).toEqual({ schemes: [{ scheme: 'basic', envVars: VARS, set: false }] });
    expect(up.requests).toHaveLength(0);
    expect(JSON.stringify([brief, full, refused])).not.toMatch(/no-colon-token-8181|env-pass-4242/);
  });

  test('user:password: set from the header (source "header"), worded as such, and sent', async () => {
    const c = await client('ann:pw-session-9393');
    expect((await call(c, 'list_domains', {})).value.credentials).toEqual([{ scheme: 'basic', envVars: VARS, set: true, source: 'header' }]);
    const brief = await call(c, 'describe_tools', { tool_names: ['listThings'] });
    expect(brief.value.tools[0].credentials).toBe("BASIC_USERNAME + BASIC_PASSWORD (set; this request's X-Upstream-Token is used)");
    const full = await call(c, 'describe_tools', { tool_names: ['listThings'], detail: 'full' });
    expect(full.value.tools[0].credentials).toEqual([expect.objectContaining({ scheme: 'basic', envVars: VARS, set: true, source: 'header' })]);
    expect(full.value.tools[0].credentials[0]).not.toHaveProperty('envSet');
    const sent = await call(c, 'execute_tool', { tool_name: 'listThings', args: {}, handle: await describeHandle(c, 'listThings') });
    expect(sent.success, JSON.stringify(sent.error)).toBe(true);
    expect(up.requests.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('ann:pw-session-9393').toString('base64')}`);
  });
});
