// The bundled `serve` loads the search engine (src/search: the index, the ranking, the word tables it builds as it loads) after
// its first answers, not with the modules that answer initialize and tools/list (search-engine-lazy.ts, swapped in by scripts/postbuild.mjs).
// The bundle's start-up path holds none of it; a served process marks the engine after the first tools/list; a call
// or a resource read that comes first waits for it and is answered; the bundle's lazy module refuses
// to hand out an engine it has not loaded (INTERNAL: never taken for a refused snapshot).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppError } from '../../src/errors.js';
import { builtCli, connectTracedServe } from '../helpers/mcp.js';

/** Files reached from `files` through static imports (not `import()`), with their text (as bundle.test.ts). */
function staticClosure(files: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (file: string): void => {
    if (out.has(file)) return;
    const text = readFileSync(file, 'utf8');
    out.set(file, text);
    for (const m of text.matchAll(/(?:from|import)\s*"(\.\.?\/[^"]+\.js)"/g)) visit(join(dirname(file), m[1] as string));
  };
  files.forEach(visit);
  return out;
}

function dynamicChunk(from: string, prefix: string): string {
  const m = new RegExp(`import\\("(\\.\\/(?:chunks\\/)?${prefix}-[A-Z0-9]+\\.js)"\\)`).exec(readFileSync(from, 'utf8'));
  if (m === null) throw new Error(`no dynamic import of ${prefix} in ${from}`);
  return join(dirname(from), m[1] as string);
}

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
