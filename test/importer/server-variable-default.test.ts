// A server variable without an `enum` is filled with the spec's `default` on every call (F6: arguments never reach
// it): Telegram's `https://api.telegram.org/bot{token}` with the spec author's sample token, Intellifi's `{customer}`
// sub-domain `brain` (audit imp50 defect 7). The import says so (SERVER_VARIABLE_DEFAULT), naming each variable,
// its default (never a credential-named variable's) and the base URL to set instead. Real CLI import into a temp
// folder; the summary and diagnostics.json are read back.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import type { Diagnostic } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
let out = '';
beforeEach(() => {
  dir = tempDir('ac-srvvar-');
  out = join(dir, 'reg');
});

async function importFile(name: string, content: string, ...args: string[]) {
  const file = join(dir, name);
  writeFileSync(file, content);
  return runCaptured(run, [file, '--out', out, ...args]);
}
function diagnostics(name: string): Diagnostic[] {
  return JSON.parse(readFileSync(join(out, name, 'diagnostics.json'), 'utf8')) as Diagnostic[];
}
const warnings = (name: string) => diagnostics(name).filter((d) => d.code === 'SERVER_VARIABLE_DEFAULT');

const SETTINGS = '(serve, call), the <CATALOG>_BASE_URL environment variable (the catalog name in capitals), or catalogs.<catalog>.baseUrl in the config file';
const PATHS = `paths:
  /sendMessage:
    post: {summary: Send a message, responses: {"200": {description: OK}}}
  /getMe:
    get: {summary: Who am I, responses: {"200": {description: OK}}}
`;
const SAMPLE_TOKEN = '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11';

describe('SERVER_VARIABLE_DEFAULT', () => {
  test("Telegram's bot{token}: warned, with the base URL to set, and the sample token never repeated", async () => {
    const spec = `openapi: 3.0.0
info: {title: Telegram Bot API, version: "5.0"}
servers:
  - url: "https://api.telegram.org/bot{token}"
    variables:
      token: {default: "${SAMPLE_TOKEN}", description: Each bot is given a unique authentication token.}
${PATHS}`;
    const r = await importFile('telegram.yaml', spec);
    expect(r.code).toBe(0);
    const message =
      `the API's server URL "https://api.telegram.org/bot{token}" has a variable without an enum, {token} (default not repeated: its name says it holds a credential): ` +
      "calls fill in the spec's default, likely the author's sample (someone else's tenant, account or token), until you set the base URL: " +
      `--base-url https://api.telegram.org/bot<token> ${SETTINGS}; that base URL then holds the credential, so keep the setting as secret as one (dry runs and errors show the URL)`;
    expect(r.stdout).toContain(`  SERVER_VARIABLE_DEFAULT #/servers/0/variables: ${message}\n`);
    expect(warnings('telegram')).toEqual([{ level: 'warning', code: 'SERVER_VARIABLE_DEFAULT', pointer: '#/servers/0/variables', message }]);
    // the sample token is in catalog.json's servers (execution needs it) but in no output and no report
    expect(r.stdout + r.stderr).not.toContain('ABC-DEF1234');
    for (const f of readdirSync(join(out, 'telegram')).filter((n) => n !== 'catalog.json' && n.endsWith('.json'))) {
      expect(readFileSync(join(out, 'telegram', f), 'utf8'), f).not.toContain('ABC-DEF1234');
    }
    // fatal under --strict, like the other server warnings
    expect((await importFile('telegram.yaml', spec, '--strict')).code).toBe(1);
  });

  test("Intellifi's {customer}: its default is named; variables with an enum fill the suggested URL, no warning of their own", async () => {
    const spec = `openapi: 3.0.1
info: {title: Brain, version: "1"}
servers:
  - url: "{protocol}://{customer}.intellifi.{tld}/api"
    variables:
      customer: {default: brain, description: Customer sub-domain assigned by Intellifi}
      protocol: {default: https, enum: [https, http]}
      tld: {default: cloud, enum: [nl, cloud]}
      unused: {default: nothing}
${PATHS}`;
    const r = await importFile('brain.yaml', spec);
    expect(r.code).toBe(0);
    expect(warnings('brain')).toEqual([
      {
        level: 'warning',
        code: 'SERVER_VARIABLE_DEFAULT',
        pointer: '#/servers/0/variables',
        message:
          `the API's server URL "{protocol}://{customer}.intellifi.{tld}/api" has a variable without an enum, {customer} (default "brain"): ` +
          "calls fill in the spec's default, likely the author's sample (someone else's tenant, account or token), until you set the base URL: " +
          `--base-url https://<customer>.intellifi.cloud/api ${SETTINGS}`,
      },
    ]);
  });

  test('several variables in one line; an apiKey-named one keeps its default unsaid; a relative URL gets a <host>', async () => {
    const spec = `openapi: 3.0.3
info: {title: Tenant, version: "1"}
servers:
  - url: "/{tenant}/v1/{apiKey}"
    variables:
      tenant: {default: acme}
      apiKey: {default: sk_live_SAMPLEKEY99}
${PATHS}`;
    const r = await importFile('tenant.yaml', spec);
    expect(r.code).toBe(0);
    const [w] = warnings('tenant');
    expect(w!.message).toContain('has variables without an enum, {tenant} (default "acme"), {apiKey} (default not repeated: its name says it holds a credential): ');
    expect(w!.message).toContain(`--base-url https://<host>/<tenant>/v1/<apiKey> ${SETTINGS}; that base URL then holds the credential`);
    expect(r.stdout + r.stderr + JSON.stringify(diagnostics('tenant'))).not.toContain('SAMPLEKEY99');
  });

  test('only the server calls use: an enum everywhere, or a variable only in a later document server, is not warned', async () => {
    const spec = `openapi: 3.0.3
info: {title: Regions, version: "1"}
servers:
  - url: "https://{region}.example.com"
    variables: {region: {default: eu, enum: [eu, us]}}
  - url: "https://{sandbox}.example.com"
    variables: {sandbox: {default: sandbox1}}
${PATHS}`;
    const r = await importFile('regions.yaml', spec);
    expect(r.code).toBe(0);
    expect(warnings('regions')).toEqual([]);
    expect(r.stdout).not.toContain('SERVER_VARIABLE_DEFAULT');
  });

  test("a path item's server: warned once for all its operations; an operation's own server at its pointer", async () => {
    const spec = `openapi: 3.0.3
info: {title: Uploads, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /files:
    servers:
      - url: "https://{bucket}.files.example.com"
        variables: {bucket: {default: demo-bucket}}
    get: {operationId: listFiles, summary: List files, responses: {"200": {description: OK}}}
    post: {operationId: addFile, summary: Add a file, responses: {"200": {description: OK}}}
  /reports:
    get:
      operationId: getReport
      summary: Get a report
      servers: [{url: "https://{account}.reports.example.com", variables: {account: {default: "1234"}}}]
      responses: {"200": {description: OK}}
`;
    const r = await importFile('uploads.yaml', spec);
    expect(r.code).toBe(0);
    expect(warnings('uploads').map((d) => [d.pointer, d.message.match(/\{\w+\} \(default [^)]*\)/)?.[0]])).toEqual([
      ['#/paths/~1files/servers/0/variables', '{bucket} (default "demo-bucket")'],
      ['#/paths/~1reports/get/servers/0/variables', '{account} (default "1234")'],
    ]);
  });
});
