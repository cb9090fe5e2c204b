// describe's placeholders and what a dry run says the real call would meet (audit "firsthour", defects 1, 4 and 5).
// 1: execute_tool and `api-catalog call` refuse a real call whose arguments still hold the placeholder describe's
//    example put where an argument has no example (`"<name>"`), naming the fields, before anything is sent; a value
//    with angle brackets anywhere else is the user's and is sent. A dry run warns of them.
// 4: a dry run without the credential shows the request with `<VAR not set>` where it goes, and says the real call
//    stops at AUTH_MISSING, instead of failing.
// 5: a dry run whose real call would be refused (placeholders, a credential not set, a credential over plain http)
//    says what to fix, never "send this request".
// A spec imported by the real importer, a real MCP client (both eras) and the real `call` command, against a real
// recording HTTP upstream on loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { run as importRun } from '../../src/cli/import.js';
import { loadCatalogSet, type CatalogSet, type ExecutionSettings } from '../../src/server/core/catalogs.js';
import { runCaptured } from '../helpers/cli.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { call, connectInMemory, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const KEY = 'pets-key-CANARY-7f3a91c2';
const SPEC = `openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "https://pets.invalid/v1"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
security: [{key: []}]
paths:
  /pets:
    post:
      operationId: createPet
      summary: Create a pet
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, owner, code]
              properties:
                name: {type: string}
                tag: {type: string}
                owner: {type: object, required: [login], properties: {login: {type: string}}}
                code: {type: string, minLength: 8}
      responses: {"200": {description: OK}}
  /pets/{petId}:
    get:
      operationId: showPet
      summary: Show a pet
      parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: OK}}
`;
/** The arguments describe's example holds for createPet: the importer's placeholders, one padded to its minLength. */
const EXAMPLE = { name: '<name>', owner: { login: '<login>' }, code: '<code>xx' };
const REAL = { name: 'a <b> c', tag: '<b>', owner: { login: '<name>' }, code: '<code> is x' };
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', PETS_BASE_URL: '', PETS_API_KEY: '' };

let up: Upstream;
let reg = '';
let set: CatalogSet;
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-placeholders-');
  writeFileSync(join(dir, 'pets.yaml'), SPEC);
  const imported = await runCaptured(importRun, [join(dir, 'pets.yaml'), '--out', join(dir, 'reg')], quiet);
  expect(imported.code).toBe(0);
  reg = join(dir, 'reg', 'pets');
  set = loadCatalogSet([reg]);
});
afterAll(async () => {
  await up.close();
});
beforeEach(() => up.clear());

const settings = (env: Record<string, string>, base = `${up.url}/v1`): ExecutionSettings => ({ baseUrls: { pets: base }, readOnly: false, env });

describe.each(ERAS)('execute_tool (%s)', (era) => {
  let c: Connected | undefined;
  afterAll(async () => {
    await c?.close();
  });
  const connect = async (env: Record<string, string>, base?: string): Promise<Connected> => {
    await c?.close();
    c = await connectInMemory({ catalogs: set, settings: settings(env, base) }, { era });
    return c;
  };

  test("describe's own example is refused, naming each placeholder, and nothing reaches the upstream", async () => {
    const { client } = await connect({ PETS_API_KEY: KEY });
    const { envelope } = await describeWithHandles(client, ['createPet']);
    const example = envelope.value.tools[0].example as { tool_name: string; args: Record<string, unknown>; handle?: string };
    expect(example.args).toEqual(EXAMPLE);
    const r = await call(client, 'execute_tool', example);
    expect(r.isError).toBe(true);
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(r.error?.message).toBe(`execute_tool: createPet was not sent: name ("<name>"), owner.login ("<login>") and code ("<code>xx") still hold the placeholder from the operation's example, not a value`);
    expect(r.error?.details.placeholders).toEqual(['name', 'owner.login', 'code']);
    expect(r.error?.details.errors.map((e: { path: string }) => e.path)).toEqual(['/name', '/owner/login', '/code']);
    expect(r.instruction).toBe("Replace each placeholder in details.placeholders with the user's value (ask the user for any you do not know), then call execute_tool again.");
    // a path parameter too: GET /pets/%3CpetId%3E is never requested
    const { handles } = await describeWithHandles(client, ['showPet']);
    const get = await call(client, 'execute_tool', { tool_name: 'showPet', args: { petId: '<petId>' }, handle: handles['showPet'] });
    expect(get.error?.code).toBe('INVALID_ARGUMENTS');
    expect(get.error?.details.placeholders).toEqual(['petId']);
    // arguments the schema refuses too: the schema's errors, and the placeholders named beside them
    const both = await call(client, 'execute_tool', { ...example, args: { ...EXAMPLE, code: 5 } });
    expect(both.error?.details.errors.map((e: { path: string }) => e.path)).toEqual(['/code']);
    expect(both.error?.details.placeholders).toEqual(['name', 'owner.login']);
    expect(both.instruction).toMatch(/^Replace the example's placeholders in name, owner\.login with the user's values/);
    expect(up.requests).toEqual([]);
  });

  test('angle brackets anywhere else are the user\'s values: "a <b> c", "<b>" under another name, are sent as they are', async () => {
    const { client } = await connect({ PETS_API_KEY: KEY });
    const { handles } = await describeWithHandles(client, ['createPet']);
    const r = await call(client, 'execute_tool', { tool_name: 'createPet', args: REAL, handle: handles['createPet'] });
    expect(r.success).toBe(true);
    expect(up.requests.map((q) => [q.method, q.url])).toEqual([['POST', '/v1/pets']]);
    expect(JSON.parse(up.requests[0]?.text ?? '')).toEqual(REAL);
  });

  test('a dry run with placeholders warns of each; its instruction says to replace them, not to send', async () => {
    const { client } = await connect({ PETS_API_KEY: KEY });
    const { handles } = await describeWithHandles(client, ['createPet']);
    const r = await call(client, 'execute_tool', { tool_name: 'createPet', args: EXAMPLE, dry_run: true, handle: handles['createPet'] });
    expect(r.success).toBe(true);
    expect(r.value.request.body).toBe(JSON.stringify(EXAMPLE));
    expect(r.value.warnings).toEqual([expect.stringMatching(/^name \("<name>"\), owner\.login \("<login>"\) and code \("<code>xx"\) still hold .* a real call is refused \(INVALID_ARGUMENTS\)/)]);
    expect(r.value.would_refuse).toEqual([{ code: 'INVALID_ARGUMENTS', placeholders: ['name', 'owner.login', 'code'] }]);
    expect(r.instruction).toMatch(/^Not ready to send, a real call would be refused: put the user's values in place of the example's placeholders in name, owner\.login, code/);
    expect(r.instruction).not.toMatch(/send this request/);
    expect(up.requests).toEqual([]);
  });

  test('a dry run without the credential shows the request with a stand-in and names the variable, never a value', async () => {
    const { client } = await connect({});
    const { handles } = await describeWithHandles(client, ['createPet']);
    const r = await call(client, 'execute_tool', { tool_name: 'createPet', args: REAL, dry_run: true, handle: handles['createPet'] });
    expect(r.success).toBe(true);
    expect(r.value.request.headers['x-api-key']).toBe('<PETS_API_KEY not set>');
    expect(r.value.warnings).toEqual(['PETS_API_KEY is not set: the request shows "<PETS_API_KEY not set>" where the credential goes, and a real call stops at AUTH_MISSING before sending anything']);
    expect(r.value.would_refuse).toEqual([{ code: 'AUTH_MISSING', env_vars: ['PETS_API_KEY'] }]);
    expect(r.instruction).toMatch(/the server lacks the credential PETS_API_KEY: tell the user to set it/);
    expect(r.instruction).not.toMatch(/send this request/);
    const real = await call(client, 'execute_tool', { tool_name: 'createPet', args: REAL, handle: handles['createPet'] });
    expect(real.error?.code).toBe('AUTH_MISSING');
    expect(up.requests).toEqual([]);
  });

  test('a dry run whose credential would go over plain http says what fixes it, not "send"; the key stays hidden', async () => {
    const { client } = await connect({ PETS_API_KEY: KEY }, 'http://pets.example.com/v1');
    const { handles } = await describeWithHandles(client, ['createPet']);
    const r = await call(client, 'execute_tool', { tool_name: 'createPet', args: REAL, dry_run: true, handle: handles['createPet'] });
    expect(r.success).toBe(true);
    expect(r.value.request.warnings).toEqual([expect.stringMatching(/the call is refused unless/)]);
    expect(r.value.would_refuse).toEqual([{ code: 'UNSAFE_REQUEST', origin: 'http://pets.example.com', configKey: 'catalogs.pets.allowHttpCredentials', flag: '--allow-http-credentials' }]);
    expect(r.instruction).toMatch(/over plain http: tell the user \(an https base URL fixes it; the operator can allow it with the config key catalogs\.pets\.allowHttpCredentials or the flag --allow-http-credentials\)/);
    expect(r.instruction).not.toMatch(/send this request/);
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  test('a dry run the real call would run still ends with "send this request"', async () => {
    const { client } = await connect({ PETS_API_KEY: KEY });
    const { handles } = await describeWithHandles(client, ['createPet']);
    const r = await call(client, 'execute_tool', { tool_name: 'createPet', args: REAL, dry_run: true, handle: handles['createPet'] });
    expect(r.value.warnings).toBeUndefined();
    expect(r.value.would_refuse).toBeUndefined();
    expect(r.instruction).toBe('Call execute_tool again without "dry_run" to send this request.');
    expect(up.requests).toEqual([]);
  });
});

describe('api-catalog call', () => {
  const callWith = (args: unknown, extra: string[] = [], env: Record<string, string> = { PETS_API_KEY: KEY }) =>
    runCaptured(callRun, ['createPet', '--registry', reg, '--args', JSON.stringify(args), '--base-url', `${up.url}/v1`, ...extra], { ...quiet, ...env });

  test("the example describe prints is refused (exit 1), naming the fields; nothing reaches the upstream", async () => {
    const r = await callWith(EXAMPLE);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { error: { code: string; message: string; details: { placeholders: string[] } }; instruction: string };
    expect(out.error.code).toBe('INVALID_ARGUMENTS');
    expect(out.error.message).toMatch(/^call: createPet was not sent: name \("<name>"\)/);
    expect(out.error.details.placeholders).toEqual(['name', 'owner.login', 'code']);
    expect(out.instruction).toBe("Put real values in place of the example's placeholders in name, owner.login, code (--args), then run it again; api-catalog describe createPet --detail full shows the schema.");
    expect(up.requests).toEqual([]);
  });

  test('real values with angle brackets are sent', async () => {
    const r = await callWith(REAL);
    expect(r.code).toBe(0);
    expect(up.requests.map((q) => JSON.parse(q.text))).toEqual([REAL]);
  });

  test('--dry-run without the credential: the request with a stand-in, the variable named, the fix as the next step', async () => {
    const r = await callWith(EXAMPLE, ['--dry-run'], {});
    // exit 1, as the real call would: `call X --dry-run && call X` stops here
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { value: { request: { headers: Record<string, string> }; warnings: string[] }; instruction: string };
    expect(out.value.request.headers['x-api-key']).toBe('<PETS_API_KEY not set>');
    expect(out.value.warnings).toHaveLength(2);
    expect(out.value.warnings[1]).toMatch(/^PETS_API_KEY is not set: .*AUTH_MISSING/);
    expect(out.instruction).toBe(
      "Not ready to send, the real call would be refused: put real values in place of the example's placeholders in name, owner.login, code (--args); set PETS_API_KEY (api-catalog describe createPet says what it must hold). Then run it again without --dry-run.",
    );
    expect(up.requests).toEqual([]);
  });

  test('--dry-run to a plain-http host: the fix (https, or --allow-http-credentials), not "send"; the key stays hidden', async () => {
    const r = await runCaptured(callRun, ['createPet', '--registry', reg, '--args', JSON.stringify(REAL), '--base-url', 'http://pets.example.com/v1', '--dry-run'], { ...quiet, PETS_API_KEY: KEY });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { instruction: string };
    expect(out.instruction).toBe(
      'Not ready to send, the real call would be refused: use an https base URL (--base-url), or, on a network you trust, add --allow-http-credentials (or set catalogs.pets.allowHttpCredentials in the config file). Then run it again without --dry-run.',
    );
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
  });

  test('--dry-run of a call that would run still says to run it without --dry-run', async () => {
    const r = await callWith(REAL, ['--dry-run']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { instruction: string }).instruction).toBe('Run the same command without --dry-run to send this request.');
    expect(up.requests).toEqual([]);
  });
});
