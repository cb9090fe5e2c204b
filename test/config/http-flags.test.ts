// The HTTP-only `serve` flags (every option marked `http: true` in src/config/options.ts that has a flag) given
// without --http: a mistake on the command line, refused naming the flag and the fix, instead of a stdio server that
// silently ignores them (the first-hour audit: `serve --port 42009 --allow-remote --host 0.0.0.0` served stdio). The
// same options from the environment or the config file stay silent: one config serves both transports.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkServeFlags, isUsageError, parseServeArgs } from '../../src/cli/args.js';
import { SERVE_OPTIONS, type OptionSpec } from '../../src/config.js';
import { builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

const HTTP_FLAGS = (SERVE_OPTIONS as readonly OptionSpec[]).filter((o) => o.http === true && o.flag !== undefined);

/** A valid value for each valued HTTP flag. */
const VALUE: Record<string, string> = {
  '--host': '127.0.0.1',
  '--port': '8080',
  '--allow-origin': 'https://app.example',
  '--allow-host': 'mcp.example.com',
  '--tokens': 'tokens.txt',
  '--oauth-issuer': 'https://auth.example.com',
  '--public-url': 'https://mcp.example.com/mcp',
  '--state': 'redis://127.0.0.1:6379',
};

function argvOf(o: OptionSpec): string[] {
  const flag = o.flag as string;
  if (o.type === 'boolean') return [flag];
  const value = VALUE[flag];
  if (value === undefined) throw new Error(`no sample value for ${flag}: add one to VALUE`);
  return [flag, value];
}

/** What serve does with argv before it reads any config: parse, then check the flags. */
function check(argv: string[]): string {
  try {
    checkServeFlags(parseServeArgs(argv));
    return 'accepted';
  } catch (err) {
    return isUsageError(err) ? `usage: ${err.message}` : `other: ${String(err)}`;
  }
}

describe('an HTTP-only serve flag without --http', () => {
  test('the table has the flags the audit named', () => {
    expect(HTTP_FLAGS.map((o) => o.flag)).toEqual(expect.arrayContaining(['--port', '--host', '--allow-remote', '--tokens', '--no-explorer', '--state']));
  });

  test.each(HTTP_FLAGS.map((o) => [o.flag as string, o] as const))('%s: refused without --http (usage error naming it and the fix), accepted with it', (flag, o) => {
    expect(check(argvOf(o))).toBe(`usage: serve: ${flag} applies to --http: add --http (without it serve speaks stdio and takes no HTTP options)`);
    expect(check(['--http', ...argvOf(o)])).toBe('accepted');
    expect(check([...argvOf(o), '--http'])).toBe('accepted');
  });

  test('several are named together, in the order of --help', () => {
    expect(check(['--port', '42009', '--allow-remote', '--host', '0.0.0.0'])).toBe(
      'usage: serve: --host, --port and --allow-remote apply to --http: add --http (without it serve speaks stdio and takes no HTTP options)',
    );
  });

  test('a value of the wrong kind is still named as such first', () => {
    expect(check(['--port', '3333x'])).toMatch(/^usage: serve: --port must be an integer from 0 to 65535, got "3333x"$/);
  });

  test('flags that apply to both transports pass without --http', () => {
    expect(check(['--registry', 'x', '--read-only', '--rate-limit', '5', '--audit-log', 'a.log', '--no-watch'])).toBe('accepted');
  });
});

describe('the built CLI', () => {
  test('`serve --port 42009 --allow-remote --host 0.0.0.0` exits 2 with one line, before serving anything', async () => {
    const r = await runProcess(process.execPath, [builtCli(), 'serve', '--port', '42009', '--allow-remote', '--host', '0.0.0.0'], { input: '' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toBe('api-catalog serve: --host, --port and --allow-remote apply to --http: add --http (without it serve speaks stdio and takes no HTTP options)\n');
    expect(r.stdout).toBe('');
  });

  test('the same options from the environment and the config file do not stop a stdio server', async () => {
    const dir = tempDir('http-flags-');
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ serve: { http: { port: 42010, host: '0.0.0.0', explorer: false } } }));
    const r = await runProcess(process.execPath, [builtCli(), 'serve', '--registry', fixtureRegistry('petstore'), '--config', config], {
      env: { PATH: process.env.PATH ?? '', API_CATALOG_PORT: '42011', API_CATALOG_HOST: '0.0.0.0' },
      input: '', // stdin at its end: the stdio server stops after starting
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('over stdio');
    expect(r.stderr).not.toMatch(/applies to --http/);
  });
});
