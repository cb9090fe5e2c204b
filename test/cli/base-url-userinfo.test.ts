// A server URL with a user name and password (audit of execute_tool against odd upstreams, item 11): the import warns
// (SERVER_USERINFO, never repeating them), and a call's instruction says what its message says (remove them, use the
// credential variables), not "the base URL is missing". The real import and call commands, in-process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { run as importRun } from '../../src/cli/import.js';
import type { Diagnostic } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'pw-5b9e21';
const SPEC = `openapi: 3.0.3
info: {title: Creds, version: "1"}
servers: [{url: "http://someone:${SECRET}@127.0.0.1:9/v1"}]
components:
  securitySchemes:
    basic: {type: http, scheme: basic}
security: [{basic: []}]
paths:
  /r/{mode}:
    get:
      operationId: getMode
      summary: Get a mode
      parameters: [{name: mode, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: OK}}
  /other:
    servers: [{url: "https://a:b@files.example.com"}]
    get: {operationId: getOther, summary: Other, responses: {"200": {description: OK}}}
    put: {operationId: putOther, summary: Other, responses: {"200": {description: OK}}}
`;
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', CREDS_BASE_URL: '', CREDS_USERNAME: 'u', CREDS_PASSWORD: 'p' };
const MCP_WORDS = /list_domains|search_tools|describe_tools|execute_tool|the server|Tool '|ask the operator|Tell the user/i;

let reg = '';
let imported = { code: 0, stdout: '', stderr: '' };
beforeAll(async () => {
  const dir = tempDir('ac-userinfo-');
  writeFileSync(join(dir, 'creds.yaml'), SPEC);
  imported = await runCaptured(importRun, [join(dir, 'creds.yaml'), '--out', join(dir, 'reg')], quiet);
  reg = join(dir, 'reg', 'creds');
});

describe('import', () => {
  test('warns SERVER_USERINFO for the document server and a path item server (once), never repeating the userinfo', () => {
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/SERVER_USERINFO #\/servers\/0: the API's server URL http:\/\/127\.0\.0\.1:9 carries a user name or password/);
    const diagnostics = JSON.parse(readFileSync(join(reg, 'diagnostics.json'), 'utf8')) as Diagnostic[];
    const warned = diagnostics.filter((d) => d.code === 'SERVER_USERINFO');
    expect(warned.map((d) => d.pointer).sort()).toEqual(['#/paths/~1other/servers/0', '#/servers/0']);
    expect(warned.find((d) => d.pointer === '#/servers/0')?.message).toMatch(/--base-url, the <CATALOG>_BASE_URL environment variable or catalogs\.<catalog>\.baseUrl.*<CATALOG>_USERNAME and <CATALOG>_PASSWORD/);
    expect(`${imported.stdout}${imported.stderr}${JSON.stringify(diagnostics)}`).not.toMatch(new RegExp(`${SECRET}|someone|a:b@`));
  });
});

test('Swagger 2.0: a host with userinfo warns at #/host', async () => {
  const dir = tempDir('ac-userinfo-sw-');
  writeFileSync(join(dir, 'old.yaml'), `swagger: "2.0"\ninfo: {title: Old, version: "1"}\nhost: "u:${SECRET}@api.example.com"\npaths:\n  /pets: {get: {operationId: listPets, summary: List pets, responses: {"200": {description: OK}}}}\n`);
  const r = await runCaptured(importRun, [join(dir, 'old.yaml'), '--out', join(dir, 'reg')], quiet);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/SERVER_USERINFO #\/host: the API's server URL https:\/\/api\.example\.com carries a user name or password/);
  expect(r.stdout).not.toContain(SECRET);
});

describe('call', () => {
  for (const dryRun of [false, true]) {
    test(`${dryRun ? 'a dry run' : 'a call'}: the instruction matches the message (remove them; the credential variables), nothing sent`, async () => {
      const r = await runCaptured(callRun, ['getMode', '--registry', reg, '--args', '{"mode": "echo"}', ...(dryRun ? ['--dry-run'] : [])], quiet);
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout) as { error: { code: string; message: string }; instruction: string };
      expect(out.error.code).toBe('CONFIG_INVALID');
      expect(out.error.message).toMatch(/carries a user name or password, which is never sent from a URL: remove them from the API description's servers .*\(CREDS_USERNAME, CREDS_PASSWORD\)/);
      expect(out.instruction).toBe('Remove the user name and password from the base URL; the credential goes in the environment variables (CREDS_USERNAME, CREDS_PASSWORD), then run it again.');
      expect(`${out.error.message} ${out.instruction}`).not.toMatch(MCP_WORDS);
      expect(r.stdout).not.toContain(SECRET);
    });
  }
});
