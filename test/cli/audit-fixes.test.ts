// The CLI defects a newcomer's audit found (eval, describe, domains, call, suggest-overlay, token, wording), each
// pinned by what the command now prints and its exit code: the real command functions in-process, and the built
// CLI (dist/, build first) where the exit code is the CLI's own (src/cli/index.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { run as describeRun } from '../../src/cli/describe.js';
import { credentialLines, run as domainsRun } from '../../src/cli/domains.js';
import { run as evalRun } from '../../src/cli/eval.js';
import { run as suggestRun } from '../../src/cli/suggest-overlay.js';
import { run as tokenRun } from '../../src/cli/token.js';
import { forPeople } from '../../src/cli/wording.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { evaluate, unknownExpects, type EvalQuery } from '../../src/search/eval.js';
import { SearchIndex } from '../../src/search/index.js';
import { typeLabel } from '../../src/server/core/describe-brief.js';
import { runCaptured } from '../helpers/cli.js';
import { builtCli, fixtureRegistry, REPO_ROOT } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const TINY = resolve(fileURLToPath(import.meta.url), '../../fixtures/search/registry/tiny');
const petstore = fixtureRegistry('petstore');
const quiet = { API_CATALOG_READ_ONLY: '', API_CATALOG_CONFIG: '', API_CATALOG_REGISTRY: '', PETSTORE_BASE_URL: '' };
const MCP_WORDS = /list_domains|search_tools|describe_tools|execute_tool|the server|Tool '|ask the operator|Tell the user/i;

function queries(lines: object[]): string {
  const file = join(tempDir('ac-audit-'), 'q.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

function built(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [builtCli(), ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, ...quiet } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('eval: "expect" takes names as search shows them, and warns about entries that name nothing', () => {
  it('a name (issues_create) scores like its operationId (issues/create)', async () => {
    const file = queries([{ catalog: 'tiny', query: 'create an issue', expect: ['issues_create'] }]);
    const r = await runCaptured(evalRun, [file, '--registry', TINY, '--misses']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tiny              1  1.000  1.000  1.000');
    expect(r.stderr).not.toMatch(/warning/);
  });

  it('the same in evaluate(): a hit by name or by operationId', () => {
    const catalog = loadCatalog(TINY);
    const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
    const q = (expect: string[]): EvalQuery => ({ catalog: 'tiny', query: 'create an issue', expect, line: 1 });
    for (const e of ['issues_create', 'issues/create']) expect(evaluate(index, catalog.operations, [q([e])]).metrics.recallAt1).toBe(1);
    expect(unknownExpects(catalog.operations, [q(['issues_create', 'issues/create', 'NoSuchOp'])])).toEqual([{ line: 1, entry: 'NoSuchOp' }]);
  });

  it('an entry that matches no operation: one warning per entry on stderr, with its lines and a "did you mean"', async () => {
    const file = queries([
      { catalog: 'tiny', query: 'create an issue', expect: ['issues_crate'] },
      { catalog: 'tiny', query: 'open an issue', expect: ['issues_crate'] },
      { catalog: 'tiny', query: 'list customers', expect: ['NoSuchOp', 'GetCustomers'] },
    ]);
    const r = await runCaptured(evalRun, [file, '--registry', TINY]);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toEqual([
      `eval: warning: ${file}:1,2: "expect" "issues_crate" is no operation of tiny (neither a name nor an operationId) (did you mean issues_create?); it can never be found, so it scores as a miss`,
      `eval: warning: ${file}:3: "expect" "NoSuchOp" is no operation of tiny (neither a name nor an operationId); it can never be found, so it scores as a miss`,
    ]);
  });

  it('a query file with no queries fails, naming it (no table of zeros)', async () => {
    const file = join(tempDir('ac-audit-'), 'empty.jsonl');
    writeFileSync(file, '\n\n');
    await expect(runCaptured(evalRun, [file, '--registry', TINY])).rejects.toThrow(`eval: ${file} has no queries (it is empty or blank)`);
  });
});

describe('eval --save and suggest-overlay --out: a path that cannot be written fails before the work', () => {
  it('eval --save into a missing folder: one line, exit 2, nothing measured', async () => {
    const file = queries([{ catalog: 'tiny', query: 'create an issue', expect: ['issues/create'] }]);
    const r = await runCaptured(evalRun, [file, '--registry', TINY, '--save', '/nonexistent/x.json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('api-catalog eval: cannot write /nonexistent/x.json (--save): the folder /nonexistent does not exist; create it first (mkdir -p /nonexistent) or give another path\n');
  });

  it('eval --save naming a folder, and the built CLI: no "unexpected error"', async () => {
    const dir = tempDir('ac-audit-');
    const file = queries([{ catalog: 'tiny', query: 'create an issue', expect: ['issues/create'] }]);
    const r = await runCaptured(evalRun, [file, '--registry', TINY, '--save', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`api-catalog eval: cannot write ${dir} (--save): it is a folder; give a file name in it\n`);
    const cli = built('eval', file, '--registry', TINY, '--save', '/nonexistent/x.json');
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/^api-catalog eval: cannot write \/nonexistent\/x\.json \(--save\): the folder \/nonexistent does not exist/);
    expect(cli.stderr).not.toMatch(/unexpected error/);
  });

  it('suggest-overlay --out into a missing folder: one line, exit 2, before the queries run', async () => {
    const file = queries([{ query: 'zebra giraffe', expect: ['GetCustomers'] }]);
    const r = await runCaptured(suggestRun, ['--queries', file, '--registry', TINY, '--out', '/nonexistent/x.yaml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('api-catalog suggest-overlay: cannot write /nonexistent/x.yaml (--out): the folder /nonexistent does not exist; create it first (mkdir -p /nonexistent) or give another path\n');
    const ok = join(tempDir('ac-audit-'), 'o.yaml');
    expect((await runCaptured(suggestRun, ['--queries', file, '--registry', TINY, '--out', ok])).code).toBe(0);
    expect(existsSync(ok)).toBe(true);
  });
});

describe('describe: a name that fails fails the command', () => {
  it('exit 1 when any name is unknown; what was found is still printed', async () => {
    const r = await runCaptured(describeRun, ['pets.get', 'pets.gett', '--registry', petstore], quiet);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^pets\.get +GET \/pets\/\{petId\}/);
    expect(r.stdout).not.toMatch(/pets\.gett/);
    expect(r.stderr).toBe('api-catalog describe: pets.gett: no such operation (did you mean pets.get, pets.list, pets.create?)\n');
    const json = await runCaptured(describeRun, ['pets.get', 'pets.gett', '--registry', petstore, '--json'], quiet);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).value.tools).toHaveLength(2);
    expect((await runCaptured(describeRun, ['pets.get', 'pets.list', '--registry', petstore], quiet)).code).toBe(0);
  });

  it('the built CLI exits 1 too', () => {
    const r = built('describe', 'pets.get', 'pets.gett', '--registry', petstore);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^pets\.get /);
  });
});

describe('describe: an empty-string enum value is shown as ""', () => {
  it.each([
    [{ type: 'string', enum: [''] }, 'string ("")'],
    [{ type: 'string', enum: ['', 'exempt', 'none', 'reverse'] }, 'string (""|exempt|none|reverse)'],
    [{ anyOf: [{ type: 'object', properties: {} }, { type: 'string', enum: [''] }] }, 'object | string ("")'],
  ])('%j -> %s', (schema, label) => {
    expect(typeLabel(schema)).toBe(label);
  });
});

describe('domains: the text lists the credentials, as its help says', () => {
  it('env var names and set / not set, never the value', async () => {
    const unset = await runCaptured(domainsRun, ['--registry', petstore], { ...quiet, PETSTORE_API_KEY: '' });
    expect(unset.code).toBe(0);
    expect(unset.stdout).toMatch(/\n\ncredentials: PETSTORE_API_KEY \(not set\)[^\n]*\n$/);
    const set = await runCaptured(domainsRun, ['--registry', petstore], { ...quiet, PETSTORE_API_KEY: 'CANARY-secret-1' });
    expect(set.stdout).toMatch(/\ncredentials: PETSTORE_API_KEY \(set\)/);
    expect(set.stdout).not.toContain('CANARY');
  });

  it('several catalogs: a line per catalog', async () => {
    const r = await runCaptured(domainsRun, ['--registry', petstore, '--registry', fixtureRegistry('zoo')], { ...quiet, PETSTORE_API_KEY: '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\ncredentials:\n {2}petstore: PETSTORE_API_KEY \(not set\)[^\n]*\n {2}zoo: /);
    expect(credentialLines([], undefined, ['a', 'b'])).toEqual(['credentials:', '  a: none', '  b: none']);
    expect(credentialLines([], undefined)).toEqual(['credentials: none']);
  });
});

describe('call --dry-run of a destructive operation: the next step adds --confirm', () => {
  it('says to drop --dry-run and add --confirm, as the command to run', async () => {
    const r = await runCaptured(callRun, ['pets.delete', '--registry', petstore, '--args', '{"petId": 7}', '--base-url', 'https://pets.example', '--dry-run'], quiet);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { instruction: string };
    expect(out.instruction).toBe(
      `This operation is destructive: to send this request, run the same command without --dry-run and with --confirm, once you are sure: api-catalog call pets.delete --registry ${petstore} --args '{"petId": 7}' --base-url https://pets.example --confirm`,
    );
    const confirmed = JSON.parse((await runCaptured(callRun, ['pets.delete', '--registry', petstore, '--args', '{"petId": 7}', '--base-url', 'https://pets.example', '--dry-run', '--confirm'], quiet)).stdout);
    expect(confirmed.instruction).toBe('Run the same command without --dry-run to send this request.');
  });
});

describe('wording: the core\'s agent words do not reach the CLI', () => {
  it('describe "it\'s": no such operation (a quote in the name)', async () => {
    const r = await runCaptured(describeRun, ["it's", '--registry', petstore], quiet);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("it's: no such operation");
    expect(r.stderr).not.toMatch(MCP_WORDS);
  });

  it('call of a name with no suggestions does not point at suggestions', async () => {
    const r = JSON.parse((await runCaptured(callRun, ['zzzzzzzz', '--registry', petstore, '--args', '{}'], quiet)).stdout) as { error: { details: { suggestions: string[] } }; instruction: string };
    expect(r.error.details.suggestions).toEqual([]);
    expect(r.instruction).toBe('No operation has a name close to it: find the name with api-catalog search "<what you want to do>".');
    const near = JSON.parse((await runCaptured(callRun, ['pets.gett', '--registry', petstore, '--args', '{}'], quiet)).stdout) as { instruction: string };
    expect(near.instruction).toMatch(/^Check the suggestions, or find the name with api-catalog search/);
  });

  it('an unreachable API is unreachable from this machine, not "from the server"', async () => {
    const r = await runCaptured(callRun, ['pets.get', '--registry', petstore, '--args', '{"petId": 7}', '--base-url', 'http://127.0.0.1:2'], quiet);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { error: { code: string; message: string }; instruction: string };
    expect(out.error.code).toBe('UPSTREAM_UNREACHABLE');
    expect(out.instruction).toMatch(/cannot be reached from this machine/);
    expect(`${out.error.message} ${out.instruction}`).not.toMatch(MCP_WORDS);
  });

  it('the execution layer\'s words for an operator, said to the person who is one', () => {
    expect(forPeople("Tool 'it's' not found")).toBe('no such operation');
    expect(forPeople("Tool 'a'b' has no parameter 'x'")).toBe("no parameter 'x'");
    for (const text of [
      'The API redirected somewhere the server will not follow; call the operation at its own host or ask the operator to set the base URL.',
      'The server configuration is incomplete (base URL); ask the operator to fix it.',
      'Tell the user the server is misconfigured (see the message); do not retry.',
      'Tell the user the call failed inside api-catalog; do not retry it unchanged.',
      'Do not retry: the server\'s HTTP client never sends to this port. Tell the user to point the base URL at another port (--base-url).',
      'execute_tool: the server failed unexpectedly while handling this call',
      'Tell the user this operation cannot be called through this server and choose another one.',
    ]) {
      expect(forPeople(text)).not.toMatch(MCP_WORDS);
    }
    expect(forPeople('The server configuration is incomplete (base URL); ask the operator to fix it.')).toBe('The base URL is missing: give --base-url, or set it in the config file.');
  });
});

describe('token new --scopes: a typo gets its "did you mean"', () => {
  it('catalog:reed -> catalog:read', async () => {
    const r = await runCaptured(tokenRun, ['new', 'ci', '--scopes', 'catalog:reed']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('api-catalog token new: --scopes: unknown scope "catalog:reed" (did you mean catalog:read?); the scopes are catalog:read, catalog:execute\n');
    const far = await runCaptured(tokenRun, ['new', 'ci', '--scopes', 'catalog:read,admin']);
    expect(far.stderr).toBe('api-catalog token new: --scopes: unknown scope "admin"; the scopes are catalog:read, catalog:execute\n');
  });
});
