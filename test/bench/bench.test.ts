// Smoke test of the benchmark helpers on the tiny petstore fixture (built product in dist/: build first): token
// counting, the plain-tool baseline, the in-memory MCP client, the local upstream, target verdicts and the SVG.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
// The helpers are plain .mjs scripts: imported by URL so the type checker treats them as untyped modules.
const load = (rel: string): Promise<any> => import(pathToFileURL(join(root, rel)).href);
const fixture = join(root, 'test', 'fixtures', 'registry', 'petstore');

let common: any;
let tokensMod: any;
let report: any;
let svg: any;
let upstreamMod: any;
let set: any;

beforeAll(async () => {
  common = await load('scripts/bench/lib/common.mjs');
  tokensMod = await load('scripts/bench/tokens.mjs');
  report = await load('scripts/bench/lib/report.mjs');
  svg = await load('scripts/bench/lib/svg.mjs');
  upstreamMod = await load('scripts/bench/lib/upstream.mjs');
  const { loadCatalog } = await load('dist/registry/catalog.js');
  const { buildCatalogSet } = await load('dist/server/index.js');
  set = buildCatalogSet([loadCatalog(fixture)]);
});

describe('statistics and tokens', () => {
  it('nearest-rank percentiles', () => {
    const xs = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(common.pct(xs, 0.5)).toBe(5);
    expect(common.pct(xs, 0.99)).toBe(10);
    expect(common.pct(xs, 0.1)).toBe(1);
    expect(common.median([3, 1, 2])).toBe(2);
  });

  it('counts o200k tokens of text and of JSON values', async () => {
    expect(await common.tokens('hello world')).toBe(2);
    expect(await common.tokens({ a: 1 })).toBe(await common.tokens('{"a":1}'));
  });

  it('the plain baseline has one tool per operation with its input schema', async () => {
    const plain = tokensMod.plainTools(set.operations);
    expect(plain).toHaveLength(set.operations.length);
    expect(plain[0]).toEqual({ name: set.operations[0].name, description: expect.any(String), inputSchema: set.operations[0].inputSchema });
    expect(await common.tokens(plain)).toBeGreaterThan(await common.tokens(plain.slice(1)));
  });
});

describe('through the built server', () => {
  let upstream: any;
  beforeAll(async () => {
    upstream = await upstreamMod.startUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('lists the four meta-tools in under 1,000 tokens and executes against the local upstream', async () => {
    const { client, close } = await tokensMod.connectInMemory(set, upstream.url);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((t: { name: string }) => t.name)).toEqual(['list_domains', 'search_tools', 'describe_tools', 'execute_tool']);
      expect(await common.tokens(listed.tools)).toBeLessThan(1000);
      const op = set.operations.find((o: { method: string; inputSchema: { required?: string[] } }) => o.method === 'get' && (o.inputSchema.required ?? []).length === 0);
      expect(op).toBeDefined();
      await client.callTool({ name: 'describe_tools', arguments: { tool_names: [op.name] } });
      const before = upstream.requests();
      const r = await client.callTool({ name: 'execute_tool', arguments: { tool_name: op.name, args: {} } });
      expect(r.isError).toBeFalsy();
      expect(upstream.requests()).toBe(before + 1);
      expect(common.resultText(r)).toContain('hello-world');
    } finally {
      await close();
    }
  });
});

describe('report', () => {
  const results = (over: Record<string, unknown> = {}) => ({
    generatedAt: '2026-01-01T00:00:00Z',
    machine: { cores: 2, cpu: 'x', memoryGB: 1, node: 'v20', platform: 'linux x64', loadStart: '0', loadEnd: '0' },
    tokens: {
      tokenizer: 'o200k', operations: 3, toolsList: { ours: 700, instructions: 100, toolCount: 4 }, plainTools: { tokens: 9000, toolCount: 3, perTool: 3000 }, savingsPct: 92.2,
      search: [{ query: 'q', tokens: 300, ok: true }], describe: [{ op: 'a', summary: 70, parameters: 500, full: 900, plainTool: 600 }],
      task: { steps: [{ tool: 'search_tools', request: 5, response: 300, ok: true }], ours: 1500, plain: 9100, reachedUpstream: true, ratio: 6 },
    },
    server: {
      coldStart: { runs: 5, medianMs: 600, minMs: 550, samplesMs: [600], rssAfterStartMB: 100 },
      coldStartBreakdown: { 'node start': 50, heapMB: 30, rssMB: 90 },
      searchInProcess: { searches: 10, queries: 2, p50Ms: 0.5, p99Ms: 2, coldP50Ms: 1, coldP99Ms: 3 },
      searchStdio: { count: 10, failures: 0, p50Ms: 1, p99Ms: 3, rssAfterStartMB: 100, rssAfterSearchesMB: 160 },
      execute: { n: 10, rawFetchP50Ms: 0.5, executeOperationP50Ms: 0.7, overheadP50Ms: 0.2, executeOperationP99Ms: 2, rawFetchP99Ms: 1, mcpExecuteToolP50Ms: 0.9, mcpOverheadP50Ms: 0.4 },
    },
    scale: { source: 'fixture', corpusOperations: 1000, rows: [{ operations: 1000, specs: 3, copies: 1, toolsListTokens: 700, plainToolsTokens: 300000, buildMs: 100, searchP50Ms: 0.5, searchP99Ms: 4, coldP50Ms: 1, coldP99Ms: 5, heapOpsMB: 5, heapTotalMB: 8, heapIndexMB: 3, rssMB: 80 }] },
    others: { import: { script: 'scripts/bench/import.mjs', ok: true, stdout: 'github    1223      9500          345\n', parsed: report.parseImport('github    1223      9500          345\n') } },
    ...over,
  });

  it('gives PASS, MISS and NOT MEASURED against the issue targets', () => {
    const v = Object.fromEntries(report.targets(results()).map((t: { target: string; verdict: string }) => [t.target.split(' ').slice(0, 2).join(''), t.verdict]));
    expect(v['tools/listunder']).toBe('PASS');
    expect(v['coldstart']).toBe('MISS'); // 600 ms
    expect(v['RSSunder']).toBe('MISS'); // 160 MB after searches
    expect(v['GitHubimport']).toBe('PASS');
    expect(v['executeoverhead']).toBe('PASS');
    const search = report.targets(results()).filter((t: { target: string }) => t.target.startsWith('search p'));
    expect(search.map((t: { target: string; verdict: string }) => [t.target.replace(/ \(.*$/, ''), t.verdict])).toEqual([
      ['search p50 under 1 ms on the GitHub catalog', 'PASS'],
      ['search p99 under 5 ms on the GitHub catalog', 'PASS'],
      ['search p99 under 5 ms at 1k operations', 'PASS'],
      ['search p99 under 50 ms at 100k operations', 'NOT MEASURED'],
    ]);
  });

  it('renders the markdown and the console table from the same numbers', () => {
    const md = report.markdown(results());
    expect(md).toContain('| tools/list under 1,000 tokens at any catalog size | 700 tokens');
    expect(md).toContain('![tools/list tokens, search latency and memory against catalog size](benchmarks-scale.svg)');
    expect(report.consoleTable(results())).toMatch(/TARGET cold start under 500 ms with the GitHub catalog\s+MISS/);
  });

  it('draws a three-panel SVG with every series', () => {
    const rows = [100, 1000, 10000].map((n, i) => ({ operations: n, toolsListTokens: 700, plainToolsTokens: n * 300, searchP50Ms: 0.1 * (i + 1), searchP99Ms: 0.5 * (i + 1), rssMB: 80 + i * 40, heapTotalMB: 5 * (i + 1), heapIndexMB: 2 * (i + 1) }));
    const out: string = svg.scaleChart(rows, { caption: 'fixture' });
    expect(out.startsWith('<svg')).toBe(true);
    expect(out.trim().endsWith('</svg>')).toBe(true);
    for (const name of ['one tool per operation', 'api-catalog (4 meta-tools)', 'p99', 'RSS (process)', 'target 1,000']) expect(out).toContain(name);
    expect(out).not.toMatch(/NaN|undefined/);
  });
});
