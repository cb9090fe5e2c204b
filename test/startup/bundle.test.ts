// The bundled CLI's start-up path (what a client spawning `api-catalog serve` loads before its first tools/list):
// the entry, the command's main chunk (which the entry import()s once source maps and the compile cache are set),
// the serve chunk and the stdio transport chunk with everything they import statically. Ajv, MiniSearch,
// picomatch, the executor, node:crypto and node:perf_hooks are loaded on first use, never on that path (each costs
// every spawn a few ms). The entry and the main chunk alone, which answer a v2 client's stdio probe, load none of
// the server.
import { describe, expect, test } from 'vitest';
import { dynamicChunk, staticClosure } from '../helpers/bundle.js';
import { builtCli } from '../helpers/mcp.js';

describe('bundled start-up path', () => {
  const entry = builtCli();
  const main = dynamicChunk(entry, 'main');
  const serve = dynamicChunk(main, 'serve');
  const stdio = dynamicChunk(serve, 'stdio');
  const files = staticClosure([entry, main, serve, stdio]);
  const all = [...files.values()].join('\n');

  test('reaches the MCP SDK and the registry snapshot check (the search engine itself loads later: search-deferred.test.ts)', () => {
    expect(all).toContain('notifications/initialized');
    expect(all).toContain('search snapshot');
    expect(all).toMatch(/\$ZodType|_zod/); // the marker the probe path is checked with below
  });

  test('loads no Ajv, MiniSearch, picomatch or executor', () => {
    // string constants that survive minification, one per package
    expect(all).not.toContain('strict mode: '); // Ajv
    expect(all).not.toContain('MiniSearch: '); // MiniSearch (required from node_modules on the first build)
    expect(all).not.toContain('Expected pattern to be a non-empty string'); // picomatch
    expect(all).not.toMatch(/undici/); // the executor's HTTP client
  });

  test('the entry and the main chunk alone (what answers a stdio probe\'s server/discover) load no MCP SDK, zod or search', () => {
    const probePath = [...staticClosure([entry, main]).values()].join('\n');
    expect(probePath).toContain('server/discover');
    expect(probePath).not.toContain('notifications/initialized'); // the MCP SDK
    expect(probePath).not.toMatch(/\$ZodType|_zod/); // zod
    expect(probePath).not.toContain('search snapshot'); // src/search
  });

  test('imports no node:crypto or node:perf_hooks (loaded on first use: src/crypto.ts, src/startup-marks.ts)', () => {
    for (const [file, text] of files) {
      expect(text, file).not.toMatch(/(?:from|import)\s*"node:(?:crypto|perf_hooks)"/);
      expect(text, file).not.toMatch(/\bperformance\.mark\(/);
    }
  });
});
