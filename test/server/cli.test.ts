// The people-facing CLI on the same core: `domains`, `describe`, `call` (spawned from dist/; build first).
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, builtCli, connectHttp, fixtureRegistry } from '../helpers/mcp.js';
import { until } from '../helpers/timing.js';
import { tempDir } from '../helpers/temp.js';

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [builtCli(), ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, PETSTORE_BASE_URL: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const reg = ['--registry', fixtureRegistry('petstore')];

describe('cli', () => {
  test('search: ranked table, --json SearchResult, --domain browse with --limit, no match exits 1', () => {
    const text = cli('search', 'create pet', ...reg);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^ +1\. 1\.000 +pets\.create +Create a pet +\(requires: name\)$/);
    const json = JSON.parse(cli('search', 'create pet', ...reg, '--json').stdout);
    expect(json.total).toBe(6);
    expect(json.results[0]).toEqual({ name: 'pets.create', domain: 'pets', summary: 'Create a pet', requiredParams: ['name'], score: 1 });
    const browse = cli('search', '--domain', 'store', '--limit', '1', ...reg);
    expect(browse.stdout).toMatch(/^ +1\. .*store\.inventory.*\n1-1 of 2 in petstore/);
    const none = cli('search', 'zzqx', ...reg);
    expect(none.code).toBe(1);
    expect(none.stdout + none.stderr).toMatch(/no operations match "zzqx"/);
  });

  test('serve warns on stderr when a registry lacks operations its import skipped (D12), and keeps serving', async () => {
    const { importSpec, writeRegistry } = await import('../../src/importer/index.js');
    const out = tempDir('d12-serve-');
    try {
      writeRegistry(await importSpec(join(REPO_ROOT, 'test', 'fixtures', 'specs', 'fourteen-broken.yaml'), { name: 'broken' }), out);
      const child = spawn(process.execPath, [builtCli(), 'serve', '--registry', join(out, 'broken')], { cwd: REPO_ROOT });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      await new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if (/serving .* over stdio/.test(stderr)) {
            clearInterval(t);
            resolve();
          }
        }, 20);
      });
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
      expect(stderr).toMatch(/api-catalog: warning: broken lacks 14 operation\(s\) its import skipped \(first: GET \/broken\d+ skipped: .*\); see .*diagnostics\.json/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('a reader that closes the pipe early is not an error (search | true)', () => {
    // `true` exits at once, so the pipe is closed before the CLI writes: a deterministic EPIPE.
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${builtCli()}" search "list runners" | true; echo "cli=\${PIPESTATUS[0]}"`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.stdout.trim()).toBe('cli=0');
  });

  test('domains lists the map; --json gives the list_domains envelope', () => {
    const text = cli('domains', ...reg);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^2 domains, 6 operations\n\npets +4 +Pets: list/);
    const json = JSON.parse(cli('domains', ...reg, '--json').stdout);
    expect(json).toMatchObject({ success: true, tool: 'list_domains', value: { totalTools: 6 } });
  });

  test('describe at the three levels, and unknown names with suggestions (exit 1)', () => {
    expect(cli('describe', 'pets.get', ...reg, '--detail', 'summary').stdout).toMatch(/pets.get +GET \/pets\/\{petId\}\n +Get one pet by id/);
    const two = cli('describe', 'pets.create', ...reg);
    expect(two.stdout).toMatch(/^ {2}name: string, required$/m);
    expect(two.stdout).toMatch(/example: api-catalog call pets.create --args/);
    const full = JSON.parse(cli('describe', 'pets.create', ...reg, '--detail', 'full').stdout);
    expect(full.value.tools[0].inputSchema.required).toEqual(['name']);
    const bad = cli('describe', 'pets.gett', ...reg);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/did you mean pets.get/);
  });

  test('call: --dry-run prints the request; destructive needs --confirm; invalid args exit 1', () => {
    const dry = cli('call', 'pets.get', '--args', '{"petId": 3}', '--dry-run', ...reg, '--base-url', 'http://127.0.0.1:9/v1');
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).value.request).toMatchObject({ method: 'GET', url: 'http://127.0.0.1:9/v1/pets/3' });
    const del = cli('call', 'pets.delete', '--args', '{"petId": 3}', ...reg);
    expect(del.code).toBe(1);
    expect(JSON.parse(del.stdout).error.code).toBe('CONFIRMATION_REQUIRED');
    const invalid = cli('call', 'pets.get', '--args', '{"petId": "x"}', ...reg);
    expect(JSON.parse(invalid.stdout).error.code).toBe('INVALID_ARGUMENTS');
    const notJson = cli('call', 'pets.get', '--args', '{petId', ...reg);
    expect(notJson.code).toBe(2); // a mistake on the command line (docs/CLI.md)
    expect(notJson.stderr).toMatch(/--args is not valid JSON/);
  });

  test('serve --http prints the URL and client config on stderr, serves MCP, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', ...reg], { cwd: REPO_ROOT });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await until(() => /URL: (\S+)/.test(err) || child.exitCode !== null, 'the serve banner', 60_000, 25).catch(() => undefined);
    const url = /URL: (\S+)/.exec(err)?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(err).toContain(JSON.stringify({ mcpServers: { 'api-catalog': { type: 'http', url } } }));
    for (const era of ERAS) {
      const client = await connectHttp(url, era, { name: 'cli-http' });
      expect((await client.listTools()).tools).toHaveLength(4);
      await client.close();
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(err).toMatch(/"event":"shutdown","signal":"SIGTERM"/);
  });
});
