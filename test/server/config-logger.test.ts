// src/config.ts (flags + env -> one config, refusals named) and src/logger.ts (JSON lines, redaction).
import { describe, expect, test } from 'vitest';
import { baseUrlEnvName, parseServeArgs, resolveBaseUrls, resolveServerConfig, splitArgs } from '../../src/config.js';
import { isAppError } from '../../src/errors.js';
import { createLogger, redact } from '../../src/logger.js';

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
