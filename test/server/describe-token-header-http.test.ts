// describe_tools names the header that carried the caller's token (stop-48 review, L4). With several catalogs served,
// a catalog's token comes only in X-Upstream-Token-<catalog> (upstream-tokens.ts), but Level 2 said "this request's
// X-Upstream-Token is used": an agent relaying it pointed the user at a header the server ignores there. Now it names
// X-Upstream-Token-<catalog> with several catalogs, and X-Upstream-Token with one.
// Real parts: the HTTP transport, real MCP clients of both eras sending the headers, specs imported by the importer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { call, connectHttp, ERAS } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const spec = (name: string, scheme: string): string => `openapi: 3.0.3
info: {title: ${name}, version: "1"}
servers: [{url: "https://${name}.invalid/v1"}]
components:
  securitySchemes:
    main: {type: http, scheme: ${scheme}}
security: [{main: []}]
paths:
  /things:
    get: {operationId: list_${name}, summary: List ${name} things, responses: {"200": {description: OK}}}
`;

const ALPHA = 'alpha-bound-secret-8812';
const BETA = 'beta-bound-not-user-password-3341';

let multi: HttpHandle;
let single: HttpHandle;
const clients: Client[] = [];

beforeAll(async () => {
  const dir = tempDir('ac-describe-token-header-');
  for (const [name, scheme] of [['alpha', 'bearer'], ['beta', 'basic']] as const) {
    writeFileSync(join(dir, `${name}.yaml`), spec(name, scheme));
    writeRegistry(await importSpec(join(dir, `${name}.yaml`), { name }), join(dir, 'reg'));
  }
  const env = { BETA_USERNAME: 'env-user', BETA_PASSWORD: 'env-pass-5150' };
  multi = await serveHttp({ catalogs: loadCatalogSet([join(dir, 'reg', 'alpha'), join(dir, 'reg', 'beta')]), settings: { baseUrls: {}, readOnly: false, env }, rateLimitPerMinute: 0 }, { port: 0 });
  single = await serveHttp({ catalogs: loadCatalogSet([join(dir, 'reg', 'alpha')]), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await multi.close();
  await single.close();
});

async function credentialsOf(server: HttpHandle, era: (typeof ERAS)[number], headers: Record<string, string>, tool: string): Promise<string> {
  const c = await connectHttp(server.url, era, { headers, name: 'token-header' });
  clients.push(c);
  const r = await call(c, 'describe_tools', { tool_names: [tool] });
  expect(r.success, JSON.stringify(r)).toBe(true);
  expect(JSON.stringify(r)).not.toMatch(new RegExp(`${ALPHA}|${BETA}`));
  return r.value.tools[0].credentials as string;
}

describe.each(ERAS)('%s', (era) => {
  test('several catalogs: Level 2 names X-Upstream-Token-<catalog>, the header that carried the token', async () => {
    expect(await credentialsOf(multi, era, { 'X-Upstream-Token-alpha': ALPHA }, 'alpha.list_alpha')).toBe("ALPHA_TOKEN (not set; this request's X-Upstream-Token-alpha is used)");
  });

  test("several catalogs: a bound token in a basic scheme's place that is no user:password names its own header too", async () => {
    expect(await credentialsOf(multi, era, { 'X-Upstream-Token-beta': BETA }, 'beta.list_beta')).toBe(
      "BETA_USERNAME + BETA_PASSWORD (set, but not used: this request's X-Upstream-Token-beta takes its place and is not user:password)",
    );
  });

  test('one catalog: X-Upstream-Token, as before', async () => {
    expect(await credentialsOf(single, era, { 'X-Upstream-Token': ALPHA }, 'list_alpha')).toBe("ALPHA_TOKEN (not set; this request's X-Upstream-Token is used)");
  });
});
