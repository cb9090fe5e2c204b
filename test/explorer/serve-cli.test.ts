// `api-catalog serve` wiring for the explorer and the search log, through the built CLI as a real process: the page
// at / next to /mcp, --search-log writing lines for a real client's searches (each era), --no-explorer, --help, and a clear
// start-up error for a search log that cannot be opened.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, test } from 'vitest';
import { ERAS, builtCli, fixtureRegistry, newClient, REPO_ROOT } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';
import { until } from '../helpers/timing.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
beforeEach(() => {
  dir = tempDir('ac-serve-explorer-');
});

const reg = ['--registry', fixtureRegistry('petstore')];

/** Starts `serve --http --port 0 ...args`; resolves once it prints its URL. */
const TOKEN = 'petstore-canary-token-4e8d1a';

async function serve(args: string[]): Promise<{ url: string; port: number; stderr: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', '0', ...reg, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, PETSTORE_TOKEN: TOKEN },
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await until(() => /URL: (\S+)/.test(err) || child.exitCode !== null, 'the serve banner', 60_000, 25).catch(() => undefined);
  const url = /URL: (\S+)/.exec(err)?.[1];
  if (url === undefined) {
    child.kill('SIGKILL');
    throw new Error(`serve did not start: ${err}`);
  }
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('serve --http with the explorer and --search-log', () => {
  test.each(ERAS)('serves the page at / beside /mcp and logs a real client’s searches (%s client)', async (era) => {
    const file = join(dir, 'search.jsonl');
    const srv = await serve(['--search-log', file]);
    try {
      expect(srv.stderr()).toContain(`Catalog explorer: http://127.0.0.1:${srv.port}/`);
      const page = await rawHttp(srv.port, 'GET', '/?q=list%20pets', {});
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<a href="/?tool=pets.list">pets.list</a>');
      const client = newClient(era, {}, 'serve-explorer');
      await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
      await client.callTool({ name: 'search_tools', arguments: { query: 'list pets' } });
      await client.callTool({ name: 'describe_tools', arguments: { tool_names: ['pets.list'] } });
      await client.callTool({ name: 'search_tools', arguments: { query: `pets with key ${TOKEN}` } });
      await client.close();
    } finally {
      expect(await srv.stop()).toBe(0);
    }
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.type)).toEqual(['search', 'follow_up', 'search']);
    expect(lines[2]?.query).toBe('pets with key [REDACTED]');
    expect(readFileSync(file, 'utf8')).not.toContain(TOKEN);
    expect(lines[0]).toMatchObject({ catalog: 'petstore', query: 'list pets' });
    expect(lines[1]).toMatchObject({ search: lines[0]?.id, action: 'describe', tool: 'pets.list', rank: 1 });
  });

  test('--no-explorer leaves / a JSON 404 as before', async () => {
    const srv = await serve(['--no-explorer']);
    try {
      expect(srv.stderr()).not.toContain('Catalog explorer');
      const r = await rawHttp(srv.port, 'GET', '/', {});
      expect(r.status).toBe(404);
      expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', error: { message: 'Not Found: the MCP endpoint is /mcp' } });
    } finally {
      await srv.stop();
    }
  });

  test('--help documents the flags; an unopenable search log stops start-up with a clear message', () => {
    const help = spawnSync(process.execPath, [builtCli(), 'serve', '--help'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(help.stdout).toMatch(/--search-log <file>/);
    expect(help.stdout).toMatch(/--search-log-max-bytes <n>/);
    expect(help.stdout).toMatch(/--no-explorer/);
    expect(help.stdout).toMatch(/\/\?q=<query>, \/\?tool=<name>, \/\?domain=<name>/);
    const bad = spawnSync(process.execPath, [builtCli(), 'serve', ...reg, '--search-log', join(dir, 'no', 'such', 'dir', 'log.jsonl')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      input: '',
      timeout: 20_000,
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/search log: cannot open .*log\.jsonl for appending \(ENOENT\); check that its folder exists and is writable/);
  });
});
