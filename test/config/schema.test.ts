// The configuration schema (src/config/): one option table drives flags, env, the config file, --help and the
// option table in docs/CONFIGURATION.md; docs/config.schema.json is generated from the zod schema and must be current; the shipped example
// validates against it with a real JSON Schema validator; precedence is flag > env > file > default.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/args.js';
import { SERVE_OPTIONS, configJsonSchema, flagKey, optionsHelp, parseConfigFile, resolveServerConfig, type OptionSpec } from '../../src/config.js';
import { optionsMarkdown } from '../../src/config/options.js';
import { isAppError } from '../../src/errors.js';
import { cliContext } from '../../src/cli/domains.js';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/timing.js';

const OPTIONS = SERVE_OPTIONS as readonly OptionSpec[];

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return isAppError(e) ? `${e.code}: ${e.message}` : `not an AppError: ${String(e)}`;
  }
  return 'no error';
}

/** Two distinct valid values per option (neither is the default), as the option's own type. */
function samples(o: OptionSpec): [unknown, unknown] {
  switch (o.name) {
    case 'registries':
      return [['reg-a'], ['reg-b']];
    case 'baseUrl':
      return ['https://a.example', 'https://b.example'];
    case 'configPath':
      return ['a.json', 'b.json'];
    case 'toolPrefix':
      return ['a_', 'b_'];
    case 'logLevel':
      return ['debug', 'warn'];
    case 'host':
      return ['localhost', '127.0.0.2'];
    case 'allowOrigins':
      return [['https://a.example'], ['https://b.example']];
    case 'allowHosts':
      return [['a.example'], ['b.example:8443']];
    case 'authToken':
      return ['a'.repeat(20), 'b'.repeat(20)];
    case 'signingKey':
      return ['k'.repeat(32), 'q'.repeat(40)];
    case 'oauthIssuer':
    case 'publicUrl':
      return ['https://a.example/x', 'https://b.example/y'];
    case 'includeDomains':
    case 'excludeDomains':
      return [['domain-a'], ['domain-b']];
    case 'excludeTools':
      return [['a_*'], ['b_*']];
    case 'searchLog':
    case 'auditLog':
      return ['a.log', 'b.log'];
    case 'tokensFile':
      return ['tokens-a.txt', 'tokens-b.txt'];
    case 'shutdownGraceSeconds':
      return [10, 20];
    case 'watchJitterSeconds':
      return [0, 30];
    case 'indexCache':
      return ['/var/cache/a', 'cache-b'];
    case 'stateUrl':
      return ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6380/1'];
    case 'embeddingsUrl':
      return ['https://a.example/v1', 'https://b.example/v1'];
    case 'embeddingsModel':
      return ['model-a', 'model-b'];
  }
  if (o.type === 'integer') return [4096, 8192];
  if (o.type === 'boolean') return [!(o.default as boolean), !(o.default as boolean)];
  throw new Error(`no sample for ${o.name}: add one here`);
}

/** The text form of a value for an env var or a flag. */
function asEnv(o: OptionSpec, v: unknown): string {
  if (o.type === 'boolean') return (o.envNegate ? !v : v) ? '1' : '0';
  return Array.isArray(v) ? v.join(o.separator ?? ',') : String(v);
}

function asArgv(o: OptionSpec, v: unknown): string[] {
  if (o.type === 'boolean') return v === !o.negate ? [o.flag as string] : [];
  return (Array.isArray(v) ? v : [v]).flatMap((x) => [o.flag as string, String(x)]);
}

/** A config file holding `value` at the option's file key. */
function fileWith(o: OptionSpec, value: unknown) {
  const root: Record<string, unknown> = {};
  const parts = (o.file as string).split('.');
  let node = root;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
  node[parts.at(-1) as string] = value;
  return parseConfigFile(JSON.stringify(root), 'ops.json');
}

describe('one option table for flags, env, the config file and the defaults', () => {
  test('every option resolves from each of its sources, with precedence flag > env > file > default', () => {
    for (const o of OPTIONS) {
      const [a, b] = samples(o);
      // --search-log-max-bytes alone is refused (it needs --search-log).
      // --audit-log-max-bytes likewise; --require-state needs --state.
      const base = {
        ...(o.http ? { http: true } : {}),
        ...(o.name === 'searchLogMaxBytes' ? { searchLog: 'x.log' } : {}),
        ...(o.name === 'auditLogMaxBytes' ? { auditLog: 'x.log' } : {}),
        ...(o.name === 'requireState' ? { state: 'redis://127.0.0.1:6379' } : {}),
      };
      // --allow-remote is only accepted with authentication.
      const auth = o.name === 'allowRemote' ? { API_CATALOG_HTTP_TOKEN: 't'.repeat(20) } : {};
      const resolved = (argv: string[], env: Record<string, string>, file?: ReturnType<typeof fileWith>) =>
        (resolveServerConfig({ ...base, ...parseServeArgs(argv) }, { ...auth, ...env }, file).options as Record<string, unknown>)[o.name];
      expect(resolved([], {}), `${o.name}: default`).toEqual(o.default);
      // a relative path in the file is relative to the file's folder (ops.json: the current one); flags and env keep it
      const fromFile = (v: unknown): unknown => (o.path === undefined ? v : Array.isArray(v) ? v.map((x) => resolve(String(x))) : resolve(String(v)));
      if (o.file !== undefined) expect(resolved([], {}, fileWith(o, a)), `${o.name}: file`).toEqual(fromFile(a));
      if (o.env !== undefined) {
        expect(resolved([], { [o.env]: asEnv(o, a) }), `${o.name}: env`).toEqual(a);
        if (o.file !== undefined && !o.concat) expect(resolved([], { [o.env]: asEnv(o, a) }, fileWith(o, b)), `${o.name}: env over file`).toEqual(a);
      }
      if (o.flag !== undefined && o.name !== 'http') {
        expect(resolved(asArgv(o, a), {}), `${o.name}: flag`).toEqual(a);
        if (o.env !== undefined && !o.concat && o.type !== 'boolean') expect(resolved(asArgv(o, a), { [o.env]: asEnv(o, b) }), `${o.name}: flag over env`).toEqual(a);
        // The flag fills the ServeFlags key of its name.
        const parsed = parseServeArgs(asArgv(o, a)) as Record<string, unknown>;
        if (o.type !== 'boolean') expect(Object.keys(parsed), o.name).toEqual([flagKey(o.flag as string)]);
      }
      if (o.concat) {
        expect(resolved(asArgv(o, a), { [o.env as string]: asEnv(o, b) }, fileWith(o, a)), `${o.name}: lists add up`).toEqual([...(a as string[]), ...(b as string[]), ...(a as string[])]);
      }
    }
  });

  test('a bad value is refused naming where it came from and the value (env, flag) or the key (file)', () => {
    expect(messageOf(() => resolveServerConfig({}, { API_CATALOG_RATE_LIMIT: 'lots' }))).toBe('CONFIG_INVALID: config: API_CATALOG_RATE_LIMIT must be an integer >= 0, got "lots"');
    expect(messageOf(() => resolveServerConfig(parseServeArgs(['--http', '--port', '70000']), {}))).toBe('CONFIG_INVALID: config: --port must be an integer from 0 to 65535, got "70000"');
    expect(messageOf(() => resolveServerConfig(parseServeArgs(['--http', '--allow-host', 'ok.example', '--allow-host', 'bad host']), {}))).toBe(
      'CONFIG_INVALID: config: --allow-host value "bad host" must be a host name or host:port, e.g. mcp.example.com or mcp.example.com:443',
    );
    expect(messageOf(() => resolveServerConfig({}, { API_CATALOG_LOG_LEVEL: 'loud' }))).toBe('CONFIG_INVALID: config: API_CATALOG_LOG_LEVEL must be one of debug, info, warn, error, got "loud"');
    expect(messageOf(() => parseConfigFile(JSON.stringify({ serve: { http: { port: 'x' } } }), 'ops.json'))).toBe(
      'CONFIG_INVALID: config file ops.json: serve.http.port must be an integer from 0 to 65535',
    );
    expect(messageOf(() => parseConfigFile(JSON.stringify({ serve: { rateLimit: 5 } }), 'ops.json'))).toMatch(
      /^CONFIG_INVALID: config file ops\.json: serve\.rateLimit is not a known key \(allowed in serve: registries, readOnly, toolPrefix, .*rateLimitPerMinute.*, http\); did you mean "rateLimitPerMinute"\?$/,
    );
    // The static token has no flag or file key, and its value is never echoed.
    const secret = 'short secret';
    const msg = messageOf(() => resolveServerConfig({ http: true }, { API_CATALOG_HTTP_TOKEN: secret }));
    expect(msg).toMatch(/API_CATALOG_HTTP_TOKEN must be at least 16/);
    expect(msg).not.toContain(secret);
    expect(OPTIONS.find((o) => o.name === 'authToken')).toMatchObject({ secret: true });
    expect(OPTIONS.find((o) => o.name === 'authToken')?.file).toBeUndefined();
    expect(OPTIONS.find((o) => o.name === 'authToken')?.flag).toBeUndefined();
  });

  test('file values are used by the server config (not only validated): ttl, rate limit, HTTP port and hosts', () => {
    const file = parseConfigFile(JSON.stringify({ serve: { sessionTtlSeconds: 60, rateLimitPerMinute: 5, http: { port: 4000, allowHosts: ['a.example'] } } }), 'ops.json');
    const c = resolveServerConfig({ http: true, allowHost: ['b.example'] }, { API_CATALOG_PORT: '4001' }, file);
    expect(c).toMatchObject({ sessionTtlMs: 60_000, rateLimitPerMinute: 5 });
    expect(c.http).toMatchObject({ port: 4001, allowHosts: ['b.example', 'a.example'] });
  });

  test('--help and docs/CONFIGURATION.md list every option from the same table', () => {
    const help = optionsHelp();
    const readme = readFileSync(join(REPO_ROOT, 'docs', 'CONFIGURATION.md'), 'utf8');
    for (const o of OPTIONS) {
      for (const v of [o.flag, o.env, o.file]) {
        if (v === undefined) continue;
        expect(help, `${o.name} in --help`).toContain(v);
        expect(readme, `${o.name} in docs/CONFIGURATION.md`).toContain(`\`${v}\``);
      }
    }
    const block = /<!-- options:start[^\n]*-->\n([\s\S]*?)<!-- options:end -->/.exec(readme);
    expect(block, 'docs/CONFIGURATION.md has the generated option table').not.toBeNull();
    expect(block![1], 'the option table in docs/CONFIGURATION.md is stale: run `npm run config-schema`').toBe(`${optionsMarkdown()}\n`);
  });
});

describe('docs/config.schema.json', () => {
  const file = join(REPO_ROOT, 'docs', 'config.schema.json');

  test('is generated from the zod schema and up to date (`npm run config-schema`)', () => {
    expect(readFileSync(file, 'utf8'), 'docs/config.schema.json is stale: run `npm run config-schema`').toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  });

  test('a real JSON Schema validator agrees with the zod schema: the example passes, the same mistakes fail', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
    const example = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'config.example.json'), 'utf8')) as Record<string, unknown>;
    expect(example.$schema).toBe('./config.schema.json');
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect(() => parseConfigFile(JSON.stringify(example), 'example.json')).not.toThrow();
    const wrong: unknown[] = [
      { catalog: {} },
      { catalogs: { 'Git Hub': {} } },
      { catalogs: { github: { credentials: { token: 'sk_live_not_a_name' } } } },
      { catalogs: { github: { idempotencyHeader: 'Bad Header' } } },
      { serve: { rateLimitPerMinute: -1 } },
      { serve: { http: { port: 70000 } } },
      { serve: { http: { bogus: true } } },
      { serve: { logLevel: 'loud' } },
      { blockPrivateAddresses: 'yes' },
    ];
    for (const w of wrong) {
      expect(validate(w), `JSON Schema accepts ${JSON.stringify(w)}`).toBe(false);
      expect(messageOf(() => parseConfigFile(JSON.stringify(w), 'w.json')), JSON.stringify(w)).toMatch(/^CONFIG_INVALID: config file w\.json: /);
    }
  });
});

describe('docs/config.example.json with the catalogs a default start serves', () => {
  const example = join(REPO_ROOT, 'docs', 'config.example.json');

  test('every catalogs.<name> of the example is served by default (the embedded GitHub catalog), as serve resolves it', () => {
    const { set, settings } = cliContext({ registries: [], configPath: example });
    const served = set.catalogs.map((c) => c.meta.name);
    const configured = Object.keys((JSON.parse(readFileSync(example, 'utf8')) as { catalogs: Record<string, unknown> }).catalogs);
    expect(configured.filter((name) => !served.includes(name))).toEqual([]);
    expect(settings.catalogs?.github?.credentials).toEqual({ token: 'GH_PAT' });
  });

  test('a section for a catalog that is not served still stops the start, naming it and the fix (a typo is an error)', () => {
    const file = join(tempDir('ac-config-'), 'config.json');
    const parsed = JSON.parse(readFileSync(example, 'utf8')) as { $schema?: string; catalogs: Record<string, unknown> };
    delete parsed.$schema;
    parsed.catalogs.githbu = {};
    writeFileSync(file, JSON.stringify(parsed));
    expect(() => cliContext({ registries: [], configPath: file })).toThrow(
      /catalogs\.githbu names no loaded catalog \(loaded: github\); fix the name or load its registry with --registry/,
    );
  });

  test('the built CLI: `serve --http --config docs/config.example.json` starts and is ready', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('API_CATALOG_')) env[k] = v;
    const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--config', example, '--port', '0', '--no-explorer'], { cwd: REPO_ROOT, env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    let code: number | null | undefined;
    const exited = new Promise<void>((resolve) =>
      child.on('exit', (c) => {
        code = c;
        resolve();
      }),
    );
    try {
      await until(() => code !== undefined || /"event":"serve"/.test(stderr), 'serve to listen (or exit)', 30_000);
      expect(code, stderr).toBeUndefined();
      const url = /"event":"serve".*?"url":"(http:\/\/[^"]+)\/mcp"/.exec(stderr)?.[1];
      expect(url, stderr).toBeDefined();
      let status = 0;
      await until(async () => (status = (await fetch(`${url}/readyz`)).status) === 200, '/readyz to answer 200', 30_000);
      expect(status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
