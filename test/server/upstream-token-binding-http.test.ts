// A caller's upstream token goes to the catalog it was meant for (outside audit, defect 1). Before, one X-Upstream-Token
// was every catalog's credential: with several catalogs served, the SendGrid key a client sent reached Stripe's host
// as soon as an agent called a Stripe operation, and list_domains said `source: "header"` for every catalog. Now: with
// one catalog served, X-Upstream-Token works as it did; with several, only X-Upstream-Token-<catalog> is a catalog's
// token, the unbound header is nobody's (AUTH_MISSING names the header to send), and list_domains, describe_tools,
// the search log and the answers say and mask the truth per catalog. A 401 after the caller's token was sent says the
// token was rejected, not the env var (defect 11).
// Real parts: the HTTP transport, real MCP clients of each era sending the headers, a recording upstream, a real
// search log file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { SearchLog } from '../../src/server/search-log.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { ERAS, call, connectHttp, describeHandle, type Era } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const spec = (name: string): string => `openapi: 3.0.3
info: {title: ${name}, version: "1"}
servers: [{url: "https://${name}.invalid/v1"}]
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
security: [{bearer: []}]
paths:
  /things:
    get: {operationId: list_${name}, summary: List ${name} things, responses: {"200": {description: OK}}}
  /secret:
    get: {operationId: secret_${name}, summary: Read the ${name} secret, responses: {"200": {description: OK}}}
`;

const UNBOUND = 'unbound-upstream-secret-7311';
const ALPHA = 'alpha-bound-secret-2299';
const BETA_ENV = 'beta-env-secret-5151';

let up: Upstream;
let multi: HttpHandle;
let single: HttpHandle;
let logFile: string;
const clients: Client[] = [];

beforeAll(async () => {
  const dir = tempDir('ac-token-binding-');
  for (const name of ['alpha', 'beta']) {
    writeFileSync(join(dir, `${name}.yaml`), spec(name));
    writeRegistry(await importSpec(join(dir, `${name}.yaml`), { name }), join(dir, 'reg'));
  }
  up = await startUpstream();
  up.route('/alpha/secret', { kind: 'status', status: 401, body: { message: 'bad token' } });
  logFile = join(dir, 'search.jsonl');
  const baseUrls = { alpha: `${up.url}/alpha`, beta: `${up.url}/beta` };
  multi = await serveHttp(
    {
      catalogs: loadCatalogSet([join(dir, 'reg', 'alpha'), join(dir, 'reg', 'beta')]),
      settings: { baseUrls, readOnly: false, env: { BETA_TOKEN: BETA_ENV } },
      rateLimitPerMinute: 0,
      searchLog: new SearchLog({ file: logFile }),
    },
    { port: 0 },
  );
  single = await serveHttp({ catalogs: loadCatalogSet([join(dir, 'reg', 'alpha')]), settings: { baseUrls, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  up.clear();
});
afterAll(async () => {
  await multi.close();
  await single.close();
  await up.close();
});

async function client(server: HttpHandle, era: Era, headers: Record<string, string>): Promise<Client> {
  const c = await connectHttp(server.url, era, { headers, name: 'token-binding' });
  clients.push(c);
  return c;
}

async function execute(c: Client, tool: string): ReturnType<typeof call> {
  return call(c, 'execute_tool', { tool_name: tool, args: {}, handle: await describeHandle(c, tool) });
}

const sentTokens = (): Array<string | undefined> => up.requests.map((r) => r.headers.authorization);

describe.each(ERAS)('%s: several catalogs served', (era) => {
  test('an unbound X-Upstream-Token is no catalog\'s credential: AUTH_MISSING names X-Upstream-Token-<catalog>, nothing is sent, list_domains says not set', async () => {
    const c = await client(multi, era, { 'X-Upstream-Token': UNBOUND });
    const listed = await call(c, 'list_domains', {});
    expect(listed.value.credentials).toEqual([
      { catalog: 'alpha', scheme: 'bearer', envVars: ['ALPHA_TOKEN'], set: false },
      { catalog: 'beta', scheme: 'bearer', envVars: ['BETA_TOKEN'], set: true },
    ]);
    const refused = await execute(c, 'alpha.list_alpha');
    expect(refused.error?.code).toBe('AUTH_MISSING');
    expect(refused.error?.message).toContain("this request's X-Upstream-Token was not used: this server serves several catalogs");
    expect(refused.error?.message).toContain('send it as X-Upstream-Token-alpha');
    expect(refused.instruction).toContain('X-Upstream-Token-alpha');
    // beta has its env var: the call goes with it, never with the caller's unbound token
    const viaEnv = await execute(c, 'beta.list_beta');
    expect(viaEnv.success, JSON.stringify(viaEnv.error)).toBe(true);
    expect(sentTokens()).toEqual([`Bearer ${BETA_ENV}`]);
    expect(JSON.stringify([listed, refused, viaEnv])).not.toContain(UNBOUND);
  });

  test('X-Upstream-Token-<catalog> (any case) goes to that catalog only; list_domains and describe say so per catalog', async () => {
    const c = await client(multi, era, { 'x-upstream-token-ALPHA': ALPHA, 'X-Upstream-Token': UNBOUND });
    const listed = await call(c, 'list_domains', {});
    expect(listed.value.credentials).toEqual([
      { catalog: 'alpha', scheme: 'bearer', envVars: ['ALPHA_TOKEN'], set: true, source: 'header' },
      { catalog: 'beta', scheme: 'bearer', envVars: ['BETA_TOKEN'], set: true },
    ]);
    const alpha = await call(c, 'describe_tools', { tool_names: ['alpha.list_alpha'] });
    expect(alpha.value.tools[0].credentials).toMatch(/^ALPHA_TOKEN \(not set; this request's X-Upstream-Token-alpha is used\)/);
    const beta = await call(c, 'describe_tools', { tool_names: ['beta.list_beta'] });
    expect(beta.value.tools[0].credentials).toMatch(/^BETA_TOKEN \(set\)/);
    expect((await execute(c, 'alpha.list_alpha')).success).toBe(true);
    expect((await execute(c, 'beta.list_beta')).success).toBe(true);
    expect(sentTokens()).toEqual([`Bearer ${ALPHA}`, `Bearer ${BETA_ENV}`]);
    expect(JSON.stringify(up.requests)).not.toContain(UNBOUND);
  });

  test('a 401 after the caller\'s token was sent says that token was rejected, not the env var', async () => {
    const c = await client(multi, era, { 'X-Upstream-Token-alpha': ALPHA });
    const rejected = await execute(c, 'alpha.secret_alpha');
    expect(rejected.error?.code).toBe('UPSTREAM_ERROR');
    expect(rejected.instruction).toContain("the caller's own token sent with this request (header X-Upstream-Token-alpha");
    expect(rejected.instruction).toContain('was refused');
    expect(rejected.instruction).not.toContain('ALPHA_TOKEN');
    expect(up.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${ALPHA}`]);
    expect(JSON.stringify(rejected)).not.toContain(ALPHA);
  });
});

describe('one catalog served: X-Upstream-Token works as before', () => {
  test.each(ERAS)('%s: the unbound header is the catalog\'s token, and so is X-Upstream-Token-<catalog>', async (era) => {
    const c = await client(single, era, { 'X-Upstream-Token': UNBOUND });
    expect((await call(c, 'list_domains', {})).value.credentials).toEqual([{ scheme: 'bearer', envVars: ['ALPHA_TOKEN'], set: true, source: 'header' }]);
    // (one catalog: its operations' names carry no catalog prefix)
    expect((await execute(c, 'list_alpha')).success).toBe(true);
    const bound = await client(single, era, { 'X-Upstream-Token-alpha': ALPHA });
    expect((await execute(bound, 'list_alpha')).success).toBe(true);
    expect(sentTokens()).toEqual([`Bearer ${UNBOUND}`, `Bearer ${ALPHA}`]);
  });
});

test('a bound token pasted into a search query is not written to the search log', async () => {
  const c = await client(multi, 'modern', { 'X-Upstream-Token-alpha': ALPHA });
  expect((await call(c, 'search_tools', { query: `things ${ALPHA}` })).success).toBe(true);
  const text = readFileSync(logFile, 'utf8');
  expect(text).toContain('things [REDACTED]');
  expect(text).not.toContain(ALPHA);
});

test('a browser preflight may send X-Upstream-Token-<catalog>', async () => {
  const port = Number(new URL(multi.url).port);
  const r = await rawHttp(port, 'OPTIONS', '/mcp', { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-upstream-token-alpha' });
  expect(r.status).toBe(204);
  expect(String(r.headers['access-control-allow-headers']).toLowerCase()).toContain('x-upstream-token-alpha');
});
