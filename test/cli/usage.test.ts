// The command line as people meet it: every bad flag or command is one line with "did you mean" and exit 2 (the
// built CLI, spawned); a port in use names the port and --port; the start banner's configs match their labels and
// name the tokens in force; a --state password on the command line is warned about (never shown); `call` names its
// own flags (--confirm, --dry-run), not execute_tool's arguments.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as callRun } from '../../src/cli/call.js';
import { clientConfigLines } from '../../src/cli/serve-messages.js';
import { authorizationPlaceholder } from '../../src/server/auth/client-config.js';
import { stateFlagPasswordWarning } from '../../src/cli/serve-state.js';
import { builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { runCaptured } from '../helpers/cli.js';
import { freePort } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp.js';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to its exit (no credentials from this environment). */
async function cli(args: string[]): Promise<Exit> {
  const child = spawn(process.execPath, [builtCli(), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

// [argv, what the one line must say]
const MISTAKES: Array<[string[], RegExp]> = [
  [['serach', 'create issue'], /^api-catalog: unknown command "serach" \(did you mean search\?\); run `api-catalog --help` for the commands$/],
  [['descibe', 'x'], /unknown command "descibe" \(did you mean describe\?\)/],
  [['search', '--limt', '3', 'delete branch'], /^api-catalog search: unknown option "--limt" \(did you mean --limit\?\); run `api-catalog search --help` for its options$/],
  [['search', 'x', '--limit'], /^api-catalog search: --limit needs a value/],
  [['search', 'x', '--json=yes'], /^api-catalog search: --json takes no value/],
  [['search', 'x', '--limit', 'ten'], /^api-catalog search: --limit must be a whole number from 1 to 50, got "ten"$/],
  // a flag's value of the wrong kind: what the flag takes and what was given (before, some were exit 1 or said nothing)
  [['search', 'x', '--limit', '0'], /^api-catalog search: --limit must be a whole number from 1 to 50, got "0"$/],
  [['search', 'x', '--offset', '-1'], /^api-catalog search: --offset needs a value; one that starts with "-" goes after "=" \(--offset=-1\)$/],
  [['search', 'x', '--offset=-1'], /^api-catalog search: --offset must be a whole number, got "-1"$/],
  [['search', 'x', '--registry', fixtureRegistry('petstore'), '--domain', 'pet'], /^api-catalog search: --domain "pet" is not a domain here \(did you mean pets\?\); the domains are pets, store \(`api-catalog domains --registry \S+petstore` describes them\)$/],
  [['search', 'x', '--domain', 'nope'], /^api-catalog search: --domain "nope" is not a domain here; `api-catalog domains` lists the domains$/],
  [['search', 'x', '--embeddings-dimensions', '0'], /^api-catalog search: --embeddings-dimensions must be a whole number from 1 to 16384, got "0"$/],
  [['describe', 'pets.get', '--detail', 'ful'], /^api-catalog describe: --detail must be summary, parameters or full, got "ful" \(did you mean full\?\)$/],
  [['describe', 'a', 'b', 'c', 'd', 'e', 'f'], /^api-catalog describe: at most 5 operations at once, got 6; describe the rest in another run$/],
  [['call', 'repos_get', '--args', '{bad json'], /^api-catalog call: --args is not valid JSON \(.+\); quote it whole in single quotes, like --args '\{"name": "value"\}'$/],
  [['call', 'repos_get', '--args', '[1]'], /^api-catalog call: --args must be a JSON object, got an array; like --args '\{"name": "value"\}'$/],
  [['call', 'repos_get', '--args', '{}', '--fields', 'a['], /^api-catalog call: --fields "a\[" is not a valid JMESPath expression/],
  [['call', 'repos_get', '--args', '{}', '--base-url', 'nope'], /^api-catalog call: --base-url is not a URL; give e\.g\. https:\/\/api\.example\.com, got "nope"$/],
  [['domains', '--registry', fixtureRegistry('petstore'), '--catalog', 'petstor'], /^api-catalog domains: --catalog "petstor" is not a catalog here \(did you mean petstore\?\); the catalogs are petstore \(`api-catalog domains --registry \S+petstore` describes them\)$/],
  [['import', 'spec.json', '--name', 'Bad Name'], /^api-catalog import: --name: catalog name "Bad Name" must match \[a-z0-9_-\]\+ \(try "bad-name"\)$/],
  [['import', 'spec.json', '--embeddings-url', 'ftp://x'], /^api-catalog import: --embeddings-url must be http\(s\), got ftp:$/],
  [['embed', '--registry', 'x', '--embeddings-dimensions', 'x'], /^api-catalog embed: --embeddings-dimensions must be a whole number from 1 to 16384, got "x"$/],
  [['eval', 'q.jsonl', '--keywords', 'sometimes'], /^api-catalog eval: --keywords must be auto, option, append or ignore, got "sometimes"$/],
  [['eval', 'q.jsonl', '--domain', 'ignor'], /^api-catalog eval: --domain must be use or ignore, got "ignor" \(did you mean ignore\?\)$/],
  [['eval', 'q.jsonl', '--spec', 'github'], /^api-catalog eval: --spec must look like <catalog>=<file>/],
  [['eval', 'q.jsonl', '--fusion', 'best'], /^api-catalog eval: --fusion must be gated, mix or rrf, got "best"$/],
  [['eval', '--kewords', 'auto'], /^api-catalog eval: unknown option "--kewords" \(did you mean --keywords\?\)/],
  [['serve', '--port', '3333x'], /^api-catalog serve: --port must be an integer from 0 to 65535, got "3333x"$/],
  [['serve', '--http', '--port', '70000'], /^api-catalog serve: --port must be an integer from 0 to 65535, got "70000"$/],
  [['serve', '--rate-limit', 'lots'], /^api-catalog serve: --rate-limit must be an integer >= 0, got "lots"$/],
  [['search'], /^api-catalog search: give a query/],
  [['describe', 'issues/create', '--detial', 'full'], /unknown option "--detial" \(did you mean --detail\?\)/],
  [['describe'], /^api-catalog describe: give one or more operation names/],
  [['call', 'repos/get', '--arg', '{}'], /unknown option "--arg" \(did you mean --args\?\)/],
  [['call'], /^api-catalog call: give the operation's name/],
  [['call', 'a', 'b'], /^api-catalog call: one operation at a time \(got 2: "a" "b"\)/],
  [['domains', '--catlog', 'github'], /unknown option "--catlog" \(did you mean --catalog\?\)/],
  [['import', '--nmae', 'x', 'spec.json'], /unknown option "--nmae" \(did you mean --name\?\)/],
  [['import'], /^api-catalog import: give the spec file or http\(s\) URL/],
  [['import', 'spec.json', '--timeout', '-'], /^api-catalog import: --timeout/],
  [['embed', '--registy', 'x'], /unknown option "--registy" \(did you mean --registry\?\)/],
  [['embed'], /^api-catalog embed: --registry <dir> is required/],
  [['suggest-overlay', '--querys', 'q.jsonl'], /unknown option "--querys" \(did you mean --queries\?\)/],
  [['serve', '--prot', '3000'], /^api-catalog serve: unknown option "--prot" \(did you mean --port\?\)/],
  [['--htp'], /^api-catalog serve: unknown option "--htp" \(did you mean --http\?\)/],
  [['serve', 'registry/github'], /^api-catalog serve: unexpected argument "registry\/github"/],
];

describe('a mistake on the command line: one clear line, exit 2', () => {
  it.each(MISTAKES)('%j', async (argv, line) => {
    const r = await cli(argv);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(1); // no help dump, no stack
    expect(lines[0]).toMatch(line);
    expect(r.stderr).not.toMatch(/To specify a positional argument|TypeError|ERR_PARSE_ARGS|unexpected error/);
  });

  it('--args that is not JSON is a mistake on the command line: one line, exit 2 (arguments that parse but do not validate: exit 1)', async () => {
    const r = await cli(['call', 'repos_get', '--args', "{'owner': 1}"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^api-catalog call: --args is not valid JSON.*quote it whole in single quotes/)]);
    const invalid = await runCaptured(callRun, ['pets.get', '--registry', fixtureRegistry('petstore'), '--args', '{}', '--dry-run']);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout).error.code).toBe('INVALID_ARGUMENTS');
  });

  it('--help still prints the whole usage and exits 0', async () => {
    const r = await cli(['search', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: api-catalog search/);
  });
});

describe('with no operation name, the hint names a real operation of the loaded catalog', () => {
  /** Every operation name of a registry (the catalog.json domain files). */
  const petstoreNames = ['pets.create', 'pets.delete', 'pets.get', 'pets.list', 'store.inventory', 'store.orders.place'];

  it('describe: an example with a name the catalog has (not issues/create, which is not a tool name), and the same flags', async () => {
    const registry = fixtureRegistry('petstore');
    const r = await cli(['describe', '--registry', registry]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`api-catalog describe: give one or more operation names, e.g. api-catalog describe pets.get --registry ${registry}; find names with api-catalog search "<what you want to do>" --registry ${registry}\n`);
    const named = /describe (\S+) --registry/.exec(r.stderr)![1]!;
    expect(petstoreNames).toContain(named);
    // the default catalog: one of GitHub's names, as search prints them (issues_create, not issues/create)
    const github = await cli(['describe']);
    expect(github.stderr).toMatch(/^api-catalog describe: give one or more operation names, e\.g\. api-catalog describe [a-z-]+_[a-z-]+; find names/);
    expect(github.stderr).not.toContain('/');
    const example = /describe ([a-z_-]+);/.exec(github.stderr)![1]!;
    const described = await cli(['describe', example]);
    expect(described.code, described.stderr).toBe(0);
  });

  it('call: the example is the call describe shows for a real operation', async () => {
    const registry = fixtureRegistry('petstore');
    const r = await cli(['call', '--registry', registry]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`api-catalog call: give the operation's name, e.g. api-catalog call pets.get --args '{"petId":1}' --registry ${registry}; find names with api-catalog search "<what you want to do>" --registry ${registry}\n`);
  });
});

describe('serve --http: the port, the banner', () => {
  let busy: Server;
  let port: number;
  beforeAll(async () => {
    busy = createServer();
    busy.listen(0, '127.0.0.1');
    await once(busy, 'listening');
    port = (busy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    busy.close();
    await once(busy, 'close');
  });

  it('a port in use is one line naming the port and --port, exit 1', async () => {
    const r = await cli(['serve', '--http', '--port', String(port), '--registry', fixtureRegistry('petstore')]);
    expect(r.code).toBe(1);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toBe(
      `api-catalog: serve: port ${port} is already in use on 127.0.0.1 (another server is listening at 127.0.0.1:${port}); choose another with --port <n> (or --port 0 for any free port), or stop the other process`,
    );
    expect(r.stderr).not.toMatch(/EADDRINUSE|unexpected error/);
  });

  /**
   * Starts `serve --http` with `args`, reads its start banner, stops it: the banner, its URL, the JSON after a label.
   * `env`: added to the (otherwise bare) environment. `bash`: the command runs under bash with this appended to its
   * arguments (process substitution, `<(...)`). A start-up error line (`api-catalog: <message>`, which may leave the
   * listening process up) fails it, as an early exit does.
   */
  async function banner(args: string[], options: { env?: Record<string, string>; bash?: string } = {}): Promise<{ stderr: string; url: string; after: (label: RegExp) => unknown }> {
    const argv = [builtCli(), 'serve', '--http', '--port', '0', ...args];
    const env = { PATH: process.env.PATH ?? '', ...options.env };
    const child =
      options.bash === undefined
        ? spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'pipe'], env })
        : spawn('bash', ['-c', `exec "$0" "$@" ${options.bash}`, process.execPath, ...argv], { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (b: Buffer) => {
          stderr += b.toString();
          if (stderr.includes('Stop with Ctrl-C')) resolve();
          else if (/^api-catalog: (?!serving |warning: )/m.test(stderr)) reject(new Error(`serve failed to start:\n${stderr}`));
        });
        child.once('exit', () => reject(new Error(`serve exited early:\n${stderr}`)));
      });
    } catch (err) {
      if (child.exitCode === null) child.kill('SIGKILL');
      throw err;
    }
    child.kill('SIGTERM');
    await once(child, 'exit');
    const lines = stderr.split('\n').map((l) => l.trim());
    const url = /URL: (\S+)/.exec(stderr)![1]!;
    return { stderr, url, after: (label) => JSON.parse(lines[lines.findIndex((l) => label.test(l)) + 1]!) as unknown };
  }

  it('the banner prints each client\'s config in that client\'s shape', async () => {
    const { stderr, url, after } = await banner(['--registry', fixtureRegistry('petstore')]);
    expect(after(/^Client config, Cursor/)).toEqual({ mcpServers: { 'api-catalog': { type: 'http', url } } });
    expect(after(/^Client config, VS Code/)).toEqual({ servers: { 'api-catalog': { type: 'http', url } } });
    expect(stderr).not.toMatch(/VS Code "servers"/);
  });

  it('with --tokens, both configs carry the Authorization header with a placeholder naming the client, never a token', async () => {
    const dir = tempDir('ac-tokens-');
    try {
      const made = await cli(['token', 'new', 'ci-bot', '--scopes', 'catalog:read']);
      const [token, line] = made.stdout.trimEnd().split('\n') as [string, string];
      writeFileSync(join(dir, 'tokens.txt'), `${line}\n`, { mode: 0o600 });
      const { stderr, url, after } = await banner(['--tokens', join(dir, 'tokens.txt'), '--registry', fixtureRegistry('petstore')]);
      const headers = { Authorization: 'Bearer <token for ci-bot>' };
      expect(after(/^Client config, Cursor/)).toEqual({ mcpServers: { 'api-catalog': { type: 'http', url, headers } } });
      expect(after(/^Client config, VS Code/)).toEqual({ servers: { 'api-catalog': { type: 'http', url, headers } } });
      expect(stderr).not.toContain(token);
      expect(stderr).not.toMatch(/describe_tools/); // the CLI's words (api-catalog describe), not the MCP tool's
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--tokens given as a file that reads once (`<(...)`, process substitution): the banner names the tokens in force, read at start', async () => {
    const made = await cli(['token', 'new', 'deploy-bot', '--scopes', 'catalog:read']);
    const [token, line] = made.stdout.trimEnd().split('\n') as [string, string];
    const { stderr, url, after } = await banner(['--registry', fixtureRegistry('petstore')], {
      env: { TOKEN_LINE: line },
      bash: `--tokens <(printf '%s\\n' "$TOKEN_LINE")`,
    });
    expect(stderr).toMatch(/Named tokens: 1 from \/dev\/fd\/\d+ \(re-read on change\)/);
    expect(after(/^Client config, Cursor/)).toEqual({ mcpServers: { 'api-catalog': { type: 'http', url, headers: { Authorization: 'Bearer <token for deploy-bot>' } } } });
    expect(stderr).not.toContain(token);
  });

  describe('--state with a password on the command line', () => {
    const PASSWORD = 'pw-Never-Printed-7788';
    const warnings = (stderr: string) =>
      stderr
        .split('\n')
        .filter((l) => l.includes('"event":"state_password_in_arguments"'))
        .map((l) => JSON.parse(l) as Record<string, string>);

    it('is warned about once, before the store is tried, naming API_CATALOG_STATE and never the password', async () => {
      // nothing listens there: the replica starts unready, which is fine here
      const port = await freePort();
      const { stderr } = await banner(['--state', `redis://:${PASSWORD}@127.0.0.1:${port}/0`, '--registry', fixtureRegistry('petstore')]);
      const said = warnings(stderr);
      expect(said).toEqual([expect.objectContaining({ level: 'warn', state: `redis://:***@127.0.0.1:${port}/0` })]);
      expect(said[0]?.note).toMatch(/^the --state URL carries a password, and the command line is visible to every user of this machine \(ps\); pass the URL in the environment instead: API_CATALOG_STATE=/);
      expect(stderr.indexOf('"event":"state_password_in_arguments"')).toBeLessThan(stderr.indexOf('"event":"state_store_down"'));
      expect(stderr).not.toContain(PASSWORD);
    });

    it('the same URL from API_CATALOG_STATE is not warned about', async () => {
      const port = await freePort();
      const { stderr } = await banner(['--registry', fixtureRegistry('petstore')], { env: { API_CATALOG_STATE: `redis://:${PASSWORD}@127.0.0.1:${port}/0` } });
      expect(stderr).toContain('"event":"state_store_down"');
      expect(warnings(stderr)).toEqual([]);
      expect(stderr).not.toContain(PASSWORD);
    });

    it.each([
      [undefined, undefined],
      ['redis://127.0.0.1:6379/0', undefined],
      ['redis://reader@127.0.0.1:6379', undefined],
      ['not a url', undefined],
      [`redis://:${PASSWORD}@10.0.0.5:6379/0`, 'redis://:***@10.0.0.5:6379/0'],
      [`rediss://app:${PASSWORD}@redis.internal`, 'rediss://***:***@redis.internal'],
    ] as const)('--state %s: warned as %s', (flag, shown) => {
      const w = stateFlagPasswordWarning(flag);
      expect(w?.state).toBe(shown);
      expect(JSON.stringify(w ?? {})).not.toContain(PASSWORD);
    });
  });

  it('the placeholder for each kind of authentication', () => {
    expect(authorizationPlaceholder({ staticToken: false, oauth: false })).toBeUndefined();
    expect(authorizationPlaceholder({ staticToken: true, oauth: false })).toBe('Bearer <API_CATALOG_HTTP_TOKEN>');
    expect(authorizationPlaceholder({ staticToken: false, tokenNames: ['ci-bot'], oauth: false })).toBe('Bearer <token for ci-bot>');
    expect(authorizationPlaceholder({ staticToken: false, tokenNames: ['a', 'b'], oauth: false })).toBe('Bearer <token for one of a, b>');
    expect(authorizationPlaceholder({ staticToken: false, tokenNames: [], oauth: false })).toBe('Bearer <a token from api-catalog token new>');
    expect(authorizationPlaceholder({ staticToken: true, tokenNames: ['ci-bot'], oauth: false })).toBe('Bearer <API_CATALOG_HTTP_TOKEN or the token for ci-bot>');
    // OAuth clients get their tokens through discovery: no header to paste
    expect(authorizationPlaceholder({ staticToken: false, tokenNames: ['ci-bot'], oauth: true })).toBeUndefined();
  });

  it('with a static token, both configs carry the placeholder, never the token', () => {
    const lines = clientConfigLines('http://127.0.0.1:3333/mcp', 'Bearer <API_CATALOG_HTTP_TOKEN>');
    expect(JSON.parse(lines[1]!)).toEqual({ mcpServers: { 'api-catalog': { type: 'http', url: 'http://127.0.0.1:3333/mcp', headers: { Authorization: 'Bearer <API_CATALOG_HTTP_TOKEN>' } } } });
    expect(JSON.parse(lines[3]!).servers['api-catalog'].headers).toEqual({ Authorization: 'Bearer <API_CATALOG_HTTP_TOKEN>' });
  });
});

describe('call names its own flags', () => {
  const registry = fixtureRegistry('petstore');
  it('a destructive operation without --confirm says to add --confirm (not execute_tool\'s "confirm")', async () => {
    const r = await runCaptured(callRun, ['pets.delete', '--registry', registry, '--args', '{"petId": 7}', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { error: { code: string; message: string }; instruction: string };
    expect(out.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(out.error.message).toMatch(/^call: pets\.delete is destructive \(DELETE .*\); add --confirm to run it$/);
    expect(out.instruction).toBe(`Check that this is what you want, then run it again with --confirm: api-catalog call pets.delete --registry ${registry} --args '{"petId": 7}' --base-url http://127.0.0.1:9 --confirm`);
    expect(r.stdout).not.toMatch(/execute_tool|"confirm":/);
  });

  it('a dry run says to run again without --dry-run; an unknown name points at search', async () => {
    const dry = JSON.parse((await runCaptured(callRun, ['pets.get', '--registry', registry, '--args', '{"petId": 7}', '--base-url', 'https://pets.example', '--dry-run'])).stdout);
    expect(dry.instruction).toBe('Run the same command without --dry-run to send this request.');
    const unknown = JSON.parse((await runCaptured(callRun, ['pets.gett', '--registry', registry])).stdout);
    expect(unknown.error.message).toMatch(/^call: no operation named "pets\.gett"/);
    expect(unknown.instruction).toMatch(/api-catalog search/);
  });

  it('a credential refused over plain http names --allow-http-credentials; with the flag the dry run only warns', async () => {
    const args = ['store.orders.place', '--registry', registry, '--args', '{"petId": 7, "quantity": 1}', '--base-url', 'http://pets.example/v1'];
    const refused = JSON.parse((await runCaptured(callRun, args, { PETSTORE_API_KEY: 'pk-test-123456' })).stdout);
    expect(refused.error.code).toBe('UNSAFE_REQUEST');
    expect(refused.instruction).toBe('Use an https base URL (--base-url), or, on a network you trust, run it again with --allow-http-credentials (or set catalogs.petstore.allowHttpCredentials in the config file).');
    const dry = JSON.parse((await runCaptured(callRun, [...args, '--allow-http-credentials', '--dry-run'], { PETSTORE_API_KEY: 'pk-test-123456' })).stdout);
    expect(dry.value.request.warnings).toEqual([expect.stringMatching(/will be sent to http:\/\/pets\.example over plain http, unencrypted \(allowed by/)]);
    expect(JSON.stringify(dry)).not.toContain('pk-test-123456');
  });
});
