// Relative paths in the config file (serve.registries, indexCache, searchLog, auditLog, http.tokensFile) are relative
// to the file's own folder, whatever folder the server is started in (desktop clients start it anywhere: the
// first-hour audit's `"registries": ["../reg/petstore2"]` looked for the registry beside the current directory).
// Paths from flags and env stay relative to the current directory. Driven through the built CLI started in another
// folder: `search --config` and a real `serve --http` answering a real MCP client with a named token.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseConfigFile, resolveServerConfig } from '../../src/config.js';
import { builtCli, call, connectHttp, fixtureRegistry } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/timing.js';

describe('the resolver', () => {
  test('file paths against the file\'s folder; absolute paths, `off`, flags and env as given', () => {
    const file = parseConfigFile(
      JSON.stringify({ serve: { registries: ['../reg/a', '/abs/b'], indexCache: 'cache', searchLog: 'logs/s.jsonl', auditLog: './audit.jsonl', http: { tokensFile: 'tokens.txt' } } }),
      '/etc/api-catalog/conf/config.json',
    );
    const c = resolveServerConfig({ http: true }, {}, file);
    expect(c.registries).toEqual(['/etc/api-catalog/reg/a', '/abs/b']);
    expect(c.indexCache).toBe('/etc/api-catalog/conf/cache');
    expect(c.searchLog?.file).toBe('/etc/api-catalog/conf/logs/s.jsonl');
    expect(c.auditLog?.file).toBe('/etc/api-catalog/conf/audit.jsonl');
    expect(c.http?.tokensFile).toBe('/etc/api-catalog/conf/tokens.txt');
    const off = parseConfigFile(JSON.stringify({ serve: { indexCache: 'off' } }), '/etc/api-catalog/conf/config.json');
    expect(resolveServerConfig({}, {}, off).indexCache).toBe(false);
    // a flag or env var wins and stays as typed (relative to the current directory)
    expect(resolveServerConfig({ registry: ['reg/x'] }, { API_CATALOG_AUDIT_LOG: 'env-audit.jsonl' }, file)).toMatchObject({
      registries: ['reg/x'],
      auditLog: { file: 'env-audit.jsonl' },
    });
    // a config file named relative to the current directory: its folder is
    const relative = parseConfigFile(JSON.stringify({ serve: { registries: ['reg'] } }), join('conf', 'config.json'));
    expect(resolveServerConfig({}, {}, relative).registries).toEqual([resolve('conf', 'reg')]);
  });
});

describe('the built CLI, started in another folder', () => {
  // root/conf/config.json (+ tokens.txt), root/regs/{petstore,zoo}, and root/a/b, the current directory: from there
  // the file's ../regs is root/a/regs, which does not exist
  const root = tempDir('config-paths-');
  const conf = join(root, 'conf');
  const elsewhere = join(root, 'a', 'b');
  for (const d of [conf, elsewhere]) mkdirSync(d, { recursive: true });
  cpSync(fixtureRegistry('petstore'), join(root, 'regs', 'petstore'), { recursive: true });
  cpSync(fixtureRegistry('zoo'), join(root, 'regs', 'zoo'), { recursive: true });
  const config = {
    serve: {
      registries: ['../regs/petstore', '../regs/zoo'],
      indexCache: 'index-cache',
      searchLog: 'search.jsonl',
      auditLog: 'audit.jsonl',
      http: { tokensFile: 'tokens.txt' },
    },
  };
  writeFileSync(join(conf, 'config.json'), JSON.stringify(config));
  const env = { PATH: process.env.PATH ?? '', HOME: root, XDG_CACHE_HOME: join(root, 'xdg-cache') };
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((done) => child?.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });

  test('search --config ../../conf/config.json finds the registries the file names', async () => {
    const r = await runProcess(process.execPath, [builtCli(), 'search', 'pets', '--config', join('..', '..', 'conf', 'config.json')], { cwd: elsewhere, env });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/petstore/);
    expect(r.stderr).not.toMatch(/does not exist/);
    // a --registry flag stays relative to the current directory
    const flag = await runProcess(process.execPath, [builtCli(), 'search', 'pets', '--registry', join('..', '..', 'regs', 'petstore')], { cwd: elsewhere, env });
    expect(flag.status, flag.stderr).toBe(0);
  });

  test('serve --http --config: registries, index cache, search log, audit log and tokens file all beside the config', async () => {
    const token = await runProcess(process.execPath, [builtCli(), 'token', 'new', 'alice'], { cwd: elsewhere, env });
    expect(token.status, token.stderr).toBe(0);
    const [secret, line] = token.stdout.trim().split('\n') as [string, string];
    writeFileSync(join(conf, 'tokens.txt'), `${line}\n`);

    child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', '--config', join(conf, 'config.json')], {
      cwd: elsewhere,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    await until(() => child?.exitCode !== null || stderr.includes('Stop with Ctrl-C.'), 'serve to print its banner (or exit)', 60_000);
    expect(child.exitCode, stderr).toBeNull();
    const url = /URL: (\S+)/.exec(stderr)?.[1] as string;
    expect(stderr).toContain(join(conf, 'audit.jsonl'));

    const client = await connectHttp(url, 'modern', { headers: { Authorization: `Bearer ${secret}` } });
    try {
      const found = await call(client, 'search_tools', { query: 'list pets' });
      expect(found.success, JSON.stringify(found)).toBe(true);
      expect(JSON.stringify(found.value)).toContain('petstore');
    } finally {
      await client.close();
    }
    await until(() => existsSync(join(conf, 'search.jsonl')) && readFileSync(join(conf, 'search.jsonl'), 'utf8').includes('list pets'), 'the search log line beside the config');
    expect(existsSync(join(conf, 'audit.jsonl'))).toBe(true);
    await until(() => existsSync(join(conf, 'index-cache')) && readdirSync(join(conf, 'index-cache')).length > 0, 'the index cache beside the config');
    // nothing landed in the folder the server was started in
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
