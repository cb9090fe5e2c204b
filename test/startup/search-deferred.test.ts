// The bundled `serve` loads the search engine (src/search: the index, the ranking, the word tables it builds as it loads) after
// its first answers, not with the modules that answer initialize and tools/list (search-engine-lazy.ts, swapped in by scripts/postbuild.mjs).
// The bundle's start-up path holds none of it; a served process marks the engine after the first tools/list; a call
// or a resource read that comes first waits for it and is answered; the bundle's lazy module refuses
// to hand out an engine it has not loaded (INTERNAL: never taken for a refused snapshot).
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import { dynamicChunk, staticClosure } from '../helpers/bundle.js';
import { builtCli, connectTracedServe } from '../helpers/mcp.js';

/** A string constant of src/search/index.ts that survives minification. */
const SEARCH_INDEX_MARKER = 'built from other operations than the catalog being loaded';

describe('the search engine loads after the first answers', () => {
  test('the bundle\'s start-up path (entry, main, serve, stdio and their static imports) holds no search engine', () => {
    const entry = builtCli();
    const main = dynamicChunk(entry, 'main');
    const serve = dynamicChunk(main, 'serve');
    const stdio = dynamicChunk(serve, 'stdio');
    const all = [...staticClosure([entry, main, serve, stdio]).values()].join('\n');
    expect(all).toContain('notifications/initialized'); // the MCP SDK is there
    expect(all).not.toContain(SEARCH_INDEX_MARKER);
    // ...and it is one import() away, in the module that loads it (search-engine.ts)
    const engine = /import\("\.\/(search-[A-Z0-9]+\.js)"\),import\("\.\/semantic-/.exec(all);
    expect(engine, 'the search engine\'s import()').not.toBeNull();
    const loaded = [...staticClosure([join(dirname(main), (engine as RegExpExecArray)[1] as string)]).values()].join('\n');
    expect(loaded).toContain(SEARCH_INDEX_MARKER);
  });

  test('served over stdio: the engine is marked after the first tools/list, and the first search answers from the snapshot', async () => {
    const { client, trace } = await connectTracedServe([]);
    try {
      await client.listTools();
      const r = await client.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
      expect(r.isError).toBeFalsy();
      expect(JSON.stringify(r.content)).toContain('issues');
      const t = await trace();
      expect(t.index.kind).toBe('snapshot');
      expect(t.marks['search-engine']).toBeDefined();
      expect(t.marks['search-engine']).toBeGreaterThan(t.marks['tools-list'] as number);
    } finally {
      await client.close();
    }
  });

  test('calls and a resource read sent before any tools/list wait for the engine and are all answered', async () => {
    const { client } = await connectTracedServe([]);
    try {
      const order: string[] = [];
      const done = (name: string) => <T,>(v: T): T => (order.push(name), v);
      const [search, describe, domains, read] = await Promise.all([
        client.callTool({ name: 'search_tools', arguments: { query: 'list pull requests' } }).then(done('search')),
        client.callTool({ name: 'describe_tools', arguments: { tool_names: ['issues_create'] } }).then(done('describe')),
        client.callTool({ name: 'list_domains', arguments: {} }).then(done('domains')),
        client.readResource({ uri: 'resource:///tool_descriptions?tools=issues_create' }).then(done('read'), (e: unknown) => done('read')(e)),
      ]);
      expect(search.isError).toBeFalsy();
      expect(JSON.stringify(search.content)).toContain('pulls');
      expect(describe.isError).toBeFalsy();
      expect(JSON.stringify(describe.content)).toContain('issues_create');
      expect(domains.isError).toBeFalsy();
      expect(read).not.toBeInstanceOf(Error);
      expect([...order].sort()).toEqual(['describe', 'domains', 'read', 'search']);
    } finally {
      await client.close();
    }
  });
});

describe('the bundle\'s search engine module (search-engine-lazy.ts)', () => {
  test('refuses to hand out an engine it has not loaded (INTERNAL), then loads it once', async () => {
    const lazy = await import('../../src/server/core/search-engine-lazy.js');
    expect(lazy.searchEngineLoaded()).toBe(false);
    let thrown: unknown;
    try {
      lazy.searchEngine();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('INTERNAL');
    const [a, b] = await Promise.all([lazy.loadSearchEngine(), lazy.loadSearchEngine()]);
    expect(a).toBe(b);
    expect(lazy.searchEngineLoaded()).toBe(true);
    const { SearchIndex } = await import('../../src/search/index.js');
    expect(lazy.searchEngine().SearchIndex).toBe(SearchIndex);
  });
});

describe('a search engine that cannot be loaded (a package replaced under a running server)', () => {
  test('serve stays up, logs search_engine_load_failed, and each call that reads the index fails as a call, trying the load again', async () => {
    const { cpSync, renameSync, symlinkSync, readdirSync } = await import('node:fs');
    const { tempDir } = await import('../helpers/temp.js');
    const { REPO_ROOT, call, newClient } = await import('../helpers/mcp.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    // a copy of the package whose search engine chunk is gone: the bundle finds it missing at its first import()
    const root = tempDir('api-catalog-no-engine-');
    cpSync(join(REPO_ROOT, 'dist'), join(root, 'dist'), { recursive: true });
    for (const f of ['package.json', 'registry', 'node_modules']) symlinkSync(join(REPO_ROOT, f), join(root, f));
    const entry = join(root, 'dist', 'cli', 'index.js');
    const main = dynamicChunk(entry, 'main');
    const all = [...staticClosure([main, dynamicChunk(main, 'serve')]).values()].join('\n');
    const chunk = /import\("\.\/(search-[A-Z0-9]+\.js)"\),import\("\.\/semantic-/.exec(all)?.[1];
    expect(chunk).toBeDefined();
    const dir = readdirSync(dirname(main)).includes(chunk as string) ? dirname(main) : join(dirname(main), 'chunks');
    renameSync(join(dir, chunk as string), join(dir, `${chunk as string}.gone`));
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry, 'serve'], cwd: root, env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info' } as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = newClient('legacy', {}, 'engine-missing');
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_tools');
      // each call tries the load again and fails as a call (an error answer), never as the process
      for (let k = 0; k < 2; k++) await expect(call(client, 'search_tools', { query: 'create an issue' })).rejects.toThrow(/Cannot find module/);
      expect(stderr).toContain('search_engine_load_failed');
      // the process is still there to answer
      expect((await client.listTools()).tools).toHaveLength(4);
    } finally {
      await client.close();
    }
  }, 120_000);
});
