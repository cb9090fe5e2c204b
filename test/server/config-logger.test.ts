// src/config.ts (flags + env -> one config, refusals named) and src/logger.ts (JSON lines, redaction).
import { describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  baseUrlEnvName,
  catalogOptions,
  configuredCredentialNames,
  parseConfigFile,
  readConfigFile,
  resolveBaseUrls,
  resolveServerConfig,
} from '../../src/config.js';
import { parseServeArgs, splitArgs } from '../../src/cli/args.js';
import { REPO_ROOT } from '../helpers/mcp.js';
import { isAppError } from '../../src/errors.js';
import { createLogger, redact } from '../../src/logger.js';
import { tempDir } from '../helpers/temp.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isAppError(e) ? `${e.code}: ${e.message}` : String(e);
  }
  return undefined;
}

describe('config', () => {
  test('serve flags parse, repeat and win over env', () => {
    const flags = parseServeArgs(['--registry', 'a', '--registry=b', '--read-only', '--prefix', 'x_', '--no-require-describe', '--http', '--port', '0']);
    const c = resolveServerConfig(flags, { API_CATALOG_TOOL_PREFIX: 'env_', API_CATALOG_SESSION_TTL_SECONDS: '5', API_CATALOG_RATE_LIMIT: '7' });
    expect(c).toMatchObject({ registries: ['a', 'b'], readOnly: true, toolPrefix: 'x_', requireDescribe: false, sessionTtlMs: 5000, rateLimitPerMinute: 7 });
    expect(c.http).toMatchObject({ host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024 });
    expect(resolveServerConfig({}, { API_CATALOG_TOOL_PREFIX: 'env_' }).toolPrefix).toBe('env_');
    expect(resolveServerConfig({}, {}).http).toBeUndefined();
  });

  test('bad values are CONFIG_INVALID naming the value', () => {
    expect(codeOf(() => parseServeArgs(['--bogus']))).toMatch(/^CONFIG_INVALID: .*"--bogus"/);
    expect(codeOf(() => parseServeArgs(['--port']))).toMatch(/--port needs a value/);
    expect(codeOf(() => resolveServerConfig({ prefix: 'bad prefix!' }, {}))).toMatch(/"bad prefix!"/);
    expect(codeOf(() => resolveServerConfig({ http: true, port: '70000' }, {}))).toMatch(/70000/);
    expect(codeOf(() => resolveServerConfig({}, { API_CATALOG_RATE_LIMIT: 'lots' }))).toMatch(/"lots"/);
    expect(codeOf(() => resolveServerConfig({ baseUrl: 'ftp://x' }, {}))).toMatch(/http\(s\)/);
  });

  test('a boolean env var takes 1/true/yes/on or 0/false/no/off; anything else is refused, not read as off', () => {
    expect(resolveServerConfig({}, { API_CATALOG_READ_ONLY: 'Yes' }).readOnly).toBe(true);
    expect(resolveServerConfig({}, { API_CATALOG_READ_ONLY: ' off ' }).readOnly).toBe(false);
    expect(resolveServerConfig({}, { API_CATALOG_NO_REQUIRE_DESCRIBE: '1' }).requireDescribe).toBe(false);
    expect(resolveServerConfig({}, { API_CATALOG_NO_REQUIRE_DESCRIBE: 'false' }).requireDescribe).toBe(true);
    expect(codeOf(() => resolveServerConfig({}, { API_CATALOG_READ_ONLY: 'enabled' }))).toMatch(/^CONFIG_INVALID: config: API_CATALOG_READ_ONLY must be 1, true, yes or on .*"enabled"/);
    expect(codeOf(() => resolveServerConfig({}, { API_CATALOG_NO_WATCH: 'nope' }))).toMatch(/API_CATALOG_NO_WATCH.*"nope"/);
    expect(codeOf(() => splitArgs('call', ['--nope'], [], []))).toMatch(/call: unknown option "--nope"/);
  });

  test('base URLs: <CATALOG>_BASE_URL per catalog, --base-url for the first', () => {
    expect(baseUrlEnvName('my-api')).toBe('MY_API_BASE_URL');
    const c = resolveServerConfig({ baseUrl: 'http://127.0.0.1:9' }, {});
    expect(resolveBaseUrls(c, ['github', 'zoo'], { ZOO_BASE_URL: 'https://zoo.example' })).toEqual({
      github: 'http://127.0.0.1:9',
      zoo: 'https://zoo.example',
    });
  });
});

describe('config file (--config / API_CATALOG_CONFIG)', () => {
  const F = 'ops.json';
  const parse = (v: unknown) => parseConfigFile(JSON.stringify(v), F);

  test('--config and API_CATALOG_CONFIG give the path (flag wins); no path by default', () => {
    expect(parseServeArgs(['--config', 'a.json']).config).toBe('a.json');
    expect(resolveServerConfig(parseServeArgs(['--config=a.json']), { API_CATALOG_CONFIG: 'b.json' }).configPath).toBe('a.json');
    expect(resolveServerConfig({}, { API_CATALOG_CONFIG: 'b.json' }).configPath).toBe('b.json');
    expect(resolveServerConfig({}, {}).configPath).toBeUndefined();
  });

  test('a full file parses; origins are normalized; names are kept as names', () => {
    const f = parse({
      blockPrivateAddresses: true,
      catalogs: {
        stripe: {
          baseUrl: 'https://api.stripe.com',
          credentials: { token: 'STRIPE_SECRET_KEY' },
          idempotencyHeader: 'Idempotency-Key',
          allowedOrigins: ['https://FILES.stripe.com:443'],
          blockPrivateAddresses: false,
        },
        github: { credentials: { token: 'GH_PAT', username: 'GH_USER', password: 'GH_PASS', apiKey: 'GH_KEY' } },
      },
    });
    expect(f.catalogs.stripe).toEqual({
      baseUrl: 'https://api.stripe.com',
      credentials: { token: 'STRIPE_SECRET_KEY' },
      idempotencyHeader: 'Idempotency-Key',
      allowedOrigins: ['https://files.stripe.com'],
      blockPrivateAddresses: false,
    });
    expect(catalogOptions(f, ['github', 'stripe'])).toEqual({
      github: { credentials: { token: 'GH_PAT', username: 'GH_USER', password: 'GH_PASS', apiKey: 'GH_KEY' }, blockPrivateAddresses: true },
      stripe: { credentials: { token: 'STRIPE_SECRET_KEY' }, idempotencyHeader: 'Idempotency-Key', allowedOrigins: ['https://files.stripe.com'], blockPrivateAddresses: false },
    });
    expect(configuredCredentialNames(f).sort()).toEqual(['GH_KEY', 'GH_PASS', 'GH_PAT', 'GH_USER', 'STRIPE_SECRET_KEY']);
  });

  test('the shipped example file is valid', () => {
    const file = join(REPO_ROOT, 'docs', 'config.example.json');
    const f = readConfigFile(file);
    expect(Object.keys(f.catalogs).length).toBeGreaterThan(0);
    expect(readFileSync(file, 'utf8')).not.toMatch(/sk_(live|test)_|ghp_/);
  });

  test('unknown keys, bad types and bad values are CONFIG_INVALID naming the file and the key', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /\(top level\) must be a JSON object/],
      [{ catalog: {} }, /catalog is not a known key \(allowed: \$schema, catalogs, blockPrivateAddresses, serve\)/],
      [{ catalogs: { github: { baseURL: 'https://x' } } }, /catalogs\.github\.baseURL is not a known key/],
      [{ catalogs: { github: { credentials: { bearer: 'X' } } } }, /catalogs\.github\.credentials\.bearer is not a known key/],
      [{ catalogs: { 'Git Hub': {} } }, /catalogs\.Git Hub is not a catalog name/],
      [{ catalogs: { github: 'x' } }, /catalogs\.github must be an object/],
      [{ catalogs: { github: { baseUrl: 'ftp://x' } } }, /catalogs\.github\.baseUrl must be http\(s\)/],
      [{ catalogs: { github: { baseUrl: 'https://u:p@api.github.com' } } }, /catalogs\.github\.baseUrl must not carry credentials/],
      [{ catalogs: { github: { idempotencyHeader: 'Bad Header' } } }, /catalogs\.github\.idempotencyHeader must be an HTTP header name/],
      [{ catalogs: { github: { idempotencyHeader: 'Authorization' } } }, /catalogs\.github\.idempotencyHeader cannot be "Authorization"/],
      [{ catalogs: { github: { allowedOrigins: 'https://x' } } }, /catalogs\.github\.allowedOrigins must be an array/],
      [{ catalogs: { github: { allowedOrigins: ['https://uploads.github.com/path'] } } }, /catalogs\.github\.allowedOrigins\[0\] .* must be an origin/],
      [{ catalogs: { github: { allowedOrigins: ['https://ok.example', 'https://api.example.com@evil.com'] } } }, /catalogs\.github\.allowedOrigins\[1\] must not carry userinfo/],
      [{ catalogs: { github: { allowedOrigins: ['file:///etc'] } } }, /catalogs\.github\.allowedOrigins\[0\] must be http\(s\)/],
      [{ catalogs: { github: { blockPrivateAddresses: 'yes' } } }, /catalogs\.github\.blockPrivateAddresses must be true or false/],
      [{ serve: { registries: [''] } }, /serve\.registries\[0\] must be a registry folder path, not empty$/],
      [{ serve: { excludeTools: ['repos/*', ''] } }, /serve\.excludeTools\[1\] must be a glob, not empty$/],
    ];
    for (const [value, re] of cases) {
      expect(codeOf(() => parse(value)), JSON.stringify(value)).toMatch(new RegExp(`^CONFIG_INVALID: config file ops\\.json: ${re.source}`));
    }
    // `__proto__` in JSON text is an ordinary key: refused like any unknown key, nothing polluted.
    expect(codeOf(() => parseConfigFile('{"catalogs": {"github": {"__proto__": {"x": 1}}}}', F))).toMatch(/catalogs\.github\.__proto__ is not a known key/);
    expect(parseConfigFile('{"catalogs": {"__proto__": {}}}', F).catalogs.__proto__).toEqual({});
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test('a secret VALUE where a name belongs is refused without echoing it; invalid JSON does not quote the file', () => {
    for (const secret of ['sk_live_51HcanaryCANARY', 'ghp_canaryCANARY0123456789', 'hunter2 with spaces']) {
      const msg = codeOf(() => parse({ catalogs: { stripe: { credentials: { token: secret } } } }));
      expect(msg).toMatch(/catalogs\.stripe\.credentials\.token must be the NAME of an environment variable/);
      expect(msg).not.toContain(secret);
    }
    const msg = codeOf(() => parseConfigFile('{"catalogs": {"stripe": {"credentials": {"token": sk_live_canary}}}}', F));
    expect(msg).toMatch(/^CONFIG_INVALID: config file ops\.json: not valid JSON( at line \d+, column \d+)?$/);
    expect(msg).not.toContain('sk_live_canary');
  });

  test('a file naming a catalog that is not loaded is refused, listing the loaded ones', () => {
    const f = parse({ catalogs: { githubb: {} } });
    expect(codeOf(() => catalogOptions(f, ['github']))).toMatch(/config file ops\.json: catalogs\.githubb names no loaded catalog \(loaded: github\)/);
    expect(catalogOptions(undefined, ['github'])).toEqual({});
  });

  test('base URL precedence: file < <CATALOG>_BASE_URL < --base-url', () => {
    const f = parse({ catalogs: { github: { baseUrl: 'https://file.example' }, zoo: { baseUrl: 'https://zoo-file.example' } } });
    expect(resolveBaseUrls(resolveServerConfig({}, {}), ['github', 'zoo'], {}, f)).toEqual({ github: 'https://file.example', zoo: 'https://zoo-file.example' });
    expect(resolveBaseUrls(resolveServerConfig({}, {}), ['github', 'zoo'], { ZOO_BASE_URL: 'https://zoo-env.example' }, f).zoo).toBe('https://zoo-env.example');
    expect(resolveBaseUrls(resolveServerConfig({ baseUrl: 'https://flag.example' }, {}), ['github'], { GITHUB_BASE_URL: 'https://env.example' }, f).github).toBe('https://flag.example');
  });

  test('readConfigFile: a missing file and an oversized file are named', () => {
    const dir = tempDir('api-catalog-config-');
    expect(codeOf(() => readConfigFile(join(dir, 'nope.json')))).toMatch(/nope\.json: cannot read it \(ENOENT\)/);
    const big = join(dir, 'big.json');
    writeFileSync(big, ' '.repeat(1024 * 1024 + 1));
    expect(codeOf(() => readConfigFile(big))).toMatch(/big\.json: larger than 1048576 bytes/);
  });
});

describe('logger', () => {
  test('one JSON line per event with ts and level; below the minimum level is dropped', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), minLevel: 'info', now: () => new Date(0) });
    log.log('debug', { event: 'x' });
    log.log('info', { event: 'tool_call', tool: 'search_tools', durationMs: 1.5 });
    expect(lines).toEqual(['{"ts":"1970-01-01T00:00:00.000Z","level":"info","event":"tool_call","tool":"search_tools","durationMs":1.5}\n']);
  });

  test('credentials are redacted by key, by registered value and inline bearer tokens', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    log.addSecret('CANARY-123456');
    log.log('warn', {
      event: 'e',
      headers: { authorization: 'Bearer abc', 'x-api-key': 'k', accept: 'json' },
      message: 'failed with CANARY-123456 and Bearer abcdefghijklmnop',
      apiToken: 'zzz',
    });
    const text = lines.join('');
    expect(text).not.toMatch(/CANARY-123456|abcdefghijklmnop|"abc"|"zzz"/);
    expect(JSON.parse(text).headers).toEqual({ authorization: '[REDACTED]', 'x-api-key': '[REDACTED]', accept: 'json' });
    expect(redact({ a: [{ password: 'p' }] })).toEqual({ a: [{ password: '[REDACTED]' }] });
  });

  test('without a write target a logger prints nothing (libraries stay silent)', () => {
    expect(() => createLogger().log('error', { event: 'x' })).not.toThrow();
  });
});

describe('CLI argument parsing (src/cli/args.ts, on util.parseArgs)', () => {
  test('valued flags repeat, --name=value works, booleans are collected, positionals kept', () => {
    const a = splitArgs('describe', ['issues_create', '--registry', 'a', '--registry=b', '--json', 'pulls_list'], ['--registry'], ['--json']);
    expect(a.positionals).toEqual(['issues_create', 'pulls_list']);
    expect(a.values).toEqual({ '--registry': ['a', 'b'] });
    expect([...a.booleans]).toEqual(['--json']);
  });
  test('serve: a stray positional and a value on a boolean flag are refused with the command named', () => {
    expect(codeOf(() => parseServeArgs(['registry/github']))).toMatch(/^CONFIG_INVALID: serve: unexpected argument "registry\/github"/);
    expect(codeOf(() => parseServeArgs(['--http=yes']))).toMatch(/^CONFIG_INVALID: serve: /);
    expect(parseServeArgs(['--port=0', '--port', '7']).port).toBe('7');
    expect(parseServeArgs(['--allow-host', 'mcp.internal', '--allow-host=proxy:8443']).allowHost).toEqual(['mcp.internal', 'proxy:8443']);
    expect(resolveServerConfig(parseServeArgs(['--http', '--allow-host', 'mcp.internal']), { API_CATALOG_ALLOW_HOSTS: 'b.internal' }).http?.allowHosts).toEqual(
      expect.arrayContaining(['mcp.internal', 'b.internal']),
    );
  });
});

describe('embedded catalog defaults', () => {
  test('the embedded GitHub catalog may use uploads.github.com (its own settings.json); a config file for it replaces that default', async () => {
    const { loadCatalogSet, settingsFromConfig } = await import('../../src/server/core/catalogs.js');
    const { parseConfigFile } = await import('../../src/config.js');
    const set = loadCatalogSet([]);
    const config = resolveServerConfig({}, {});
    expect(settingsFromConfig(config, set, {}).catalogs?.github?.allowedOrigins).toEqual(['https://uploads.github.com']);
    const file = parseConfigFile(JSON.stringify({ catalogs: { github: { allowedOrigins: [] } } }), 'ops.json');
    expect(settingsFromConfig(config, set, {}, file).catalogs?.github?.allowedOrigins).toEqual([]);
    // A catalog loaded from elsewhere gets no such default, even if it is called github.
    const copy = loadCatalogSet([join(REPO_ROOT, 'test', 'fixtures', 'registry', 'petstore')]);
    expect(settingsFromConfig(config, copy, {}).catalogs?.petstore?.allowedOrigins).toBeUndefined();
  });
});
