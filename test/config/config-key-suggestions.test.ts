// A config-file key typo gets "did you mean" like a mistyped flag does (the first-hour audit: serve.http.prot named
// the allowed keys but not "port"); a key nothing is close to gets none. And --help's --registry row says what a
// start without --registry serves, instead of "default: none" beside "(default: the embedded GitHub catalog)".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { optionsHelp, parseConfigFile } from '../../src/config.js';
import { optionsMarkdown } from '../../src/config/options.js';
import { isAppError } from '../../src/errors.js';
import { builtCli } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

function messageOf(text: string): string {
  try {
    parseConfigFile(text, 'typo.json');
  } catch (e) {
    return isAppError(e) ? e.message : `not an AppError: ${String(e)}`;
  }
  return 'no error';
}

describe('config file: an unknown key', () => {
  test.each([
    [{ serve: { http: { prot: 42004 } } }, 'serve.http.prot', 'port'],
    [{ serve: { readonly: true } }, 'serve.readonly', 'readOnly'],
    [{ serve: { registry: ['a'] } }, 'serve.registry', 'registries'],
    [{ serve: { rateLimit: 10 } }, 'serve.rateLimit', 'rateLimitPerMinute'],
    [{ serv: {} }, 'serv', 'serve'],
    [{ catalogs: { github: { baseURL: 'https://x.example' } } }, 'catalogs.github.baseURL', 'baseUrl'],
    [{ catalogs: { github: { credentials: { tokn: 'GITHUB_TOKEN' } } } }, 'catalogs.github.credentials.tokn', 'token'],
  ])('%j: names the closest allowed key', (config, key, near) => {
    const m = messageOf(JSON.stringify(config));
    expect(m).toMatch(new RegExp(`^config file typo\\.json: ${key.replace(/\./g, '\\.')} is not a known key \\(allowed[^)]*\\); did you mean "${near}"\\?$`));
  });

  test.each([[{ serve: { xyzzy: 1 } }], [{ serve: { http: { banana: 1 } } }], [{ catalogs: { github: { credentials: { bearer: 'X' } } } }]])(
    '%j: nothing close, no suggestion (the allowed keys only)',
    (config) => {
      const m = messageOf(JSON.stringify(config));
      expect(m).toMatch(/is not a known key \(allowed/);
      expect(m).not.toMatch(/did you mean/);
    },
  );

  test('the built CLI says it on start', async () => {
    const file = join(tempDir('config-typo-'), 'typo.json');
    writeFileSync(file, JSON.stringify({ serve: { http: { prot: 42004 } } }));
    const r = await runProcess(process.execPath, [builtCli(), 'serve', '--http', '--config', file], { env: { PATH: process.env.PATH ?? '' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`config file ${file}: serve.http.prot is not a known key (allowed in serve.http: host, port,`);
    expect(r.stderr).toContain('; did you mean "port"?');
  });
});

describe('the default --registry shows', () => {
  test('serve --help and docs/CONFIGURATION.md: the embedded GitHub catalog, not "none"', () => {
    const help = optionsHelp().split('\n');
    const at = help.findIndex((l) => l.trimStart().startsWith('--registry <dir>'));
    expect(help[at + 1]).toMatch(/default: the embedded GitHub catalog$/);
    expect(help[at]).not.toMatch(/\(default:/);
    const row = optionsMarkdown().split('\n').find((l) => l.includes('`--registry`'));
    expect(row).toMatch(/\| the embedded GitHub catalog \|$/);
  });
});
