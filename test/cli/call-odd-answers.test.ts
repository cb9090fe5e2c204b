// `api-catalog call` against odd upstream answers (audit of execute_tool against odd upstreams): the execution
// layer's steps for a body cut at the byte cap and for an answer that cannot be read are said to the person running
// the command (who is the operator), not to an agent. A real local upstream; the real import and call commands.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

const SPEC = `openapi: 3.0.3
info: {title: Odd, version: "1"}
servers: [{url: "https://odd.invalid/v1"}]
paths:
  /r/{mode}:
    get:
      operationId: getMode
      summary: Get a mode
      parameters:
        - {name: mode, in: path, required: true, schema: {type: string}}
        - {name: limit, in: query, schema: {type: integer}}
      responses: {"200": {description: OK}}
`;
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', ODDCLI_BASE_URL: '' };
const MCP_WORDS = /list_domains|search_tools|describe_tools|execute_tool|the server|Tool '|ask the operator|Tell the user/i;

let up: Upstream;
let reg = '';
beforeAll(async () => {
  up = await startUpstream();
  const dir = tempDir('ac-call-odd-');
  writeFileSync(join(dir, 'odd.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'odd.yaml'), { name: 'oddcli' }), join(dir, 'reg'));
  reg = join(dir, 'reg', 'oddcli');
});
afterAll(async () => {
  await up.close();
});

const call = async (mode: string, env: Record<string, string> = {}) => {
  const r = await runCaptured(callRun, ['getMode', '--registry', reg, '--args', JSON.stringify({ mode }), '--base-url', `${up.url}/v1`, '--fields', 'id'], { ...quiet, ...env });
  return JSON.parse(r.stdout) as { error?: { code: string; message: string }; value?: { warnings?: string[] }; instruction: string };
};

describe('call: the execution layer\'s steps in the CLI\'s words', () => {
  test('a body cut at API_CATALOG_MAX_RESPONSE_BYTES: paging arguments, or raise the cap; `fields` not applied', async () => {
    up.route('/v1/r/big', { kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(Array.from({ length: 2000 }, (_, id) => ({ id, pad: 'x'.repeat(60) }))) });
    const out = await call('big', { API_CATALOG_MAX_RESPONSE_BYTES: '50000' });
    expect(out.value?.warnings).toEqual([expect.stringMatching(/^fields: not applied/)]);
    expect(out.instruction).toBe('The response was cut at 50000 bytes (the response size cap), so data is partial text and "fields" cannot select from it: call again with paging or filter arguments (limit) to get a smaller answer, or raise API_CATALOG_MAX_RESPONSE_BYTES.');
    expect(out.instruction).not.toMatch(MCP_WORDS);
  });

  test('a body that does not decode as its Content-Encoding says: no retry, the upstream is at fault', async () => {
    up.route('/v1/r/fakegzip', { kind: 'status', status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{"not":"gzipped"}' });
    const out = await call('fakegzip');
    expect(out.error?.code).toBe('UPSTREAM_RESPONSE_INVALID');
    expect(out.instruction).toMatch(/^Do not retry: the API's answer cannot be read \(see the message for what it sent\); the upstream service, or the port the base URL names, is at fault\.$/);
    expect(`${out.error?.message} ${out.instruction}`).not.toMatch(MCP_WORDS);
  });
});
