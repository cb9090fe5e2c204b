// An operation the spec gives neither a summary nor a description (Apple's App Store Connect, Autotask: every
// operation) is still described in full by the CLI: its parameters, returns and example, with a line that says the
// spec has no text for it, never "undefined".
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { stringify } from 'yaml';
import { builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const cli = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [builtCli(), ...args], { cwd, encoding: 'utf8', env: { ...process.env, INIT_CWD: '' } });

test('describe of an operation without summary or description shows its parameters', () => {
  const dir = tempDir('ac-notext-');
  const spec = {
    openapi: '3.0.3',
    info: { title: 'Bare', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: { '/files/{id}': { get: { operationId: 'getFile', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } } },
  };
  writeFileSync(join(dir, 'bare.yaml'), stringify(spec));
  expect(cli(dir, 'import', 'bare.yaml', '--out', 'reg', '--quiet').status).toBe(0);
  const full = cli(dir, 'describe', 'getFile', '--registry', 'reg/bare');
  expect(full.status, full.stderr).toBe(0);
  expect(full.stdout).not.toMatch(/undefined/);
  expect(full.stdout).toMatch(/^getFile {2}GET \/files\/\{id\}\n {2}\(the spec gives no summary or description\)\n\nparameters:\n {2}id: string, required\n/);
  expect(full.stdout).toMatch(/\nexample: api-catalog call getFile --args/);
  const brief = cli(dir, 'describe', 'getFile', '--registry', 'reg/bare', '--detail', 'summary');
  expect(brief.stdout).not.toMatch(/undefined/);
});
