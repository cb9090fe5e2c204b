// The eval command on its own tiny registry: printed metrics, JSON output, agent-style lines (keywords, domain),
// per-set mean vs pooled, saved runs compared before -> after, and malformed input.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expandQueryFiles, matchesPattern, run, setName } from '../../src/cli/eval.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import {
  bootstrapMeanOverSets,
  compareRuns,
  evaluate,
  meanMetrics,
  parseQueryFile,
  parseSavedRun,
  searchRequest,
  supportsKeywordsOption,
  type SavedRun,
} from '../../src/search/eval.js';
import { SearchIndex, type SearchOptions, type SearchResult } from '../../src/search/index.js';
import { tempDir } from '../helpers/temp.js';

const FIXTURES = resolve(fileURLToPath(import.meta.url), '../../fixtures/search');
const REGISTRY = join(FIXTURES, 'registry', 'tiny');
const QUERIES = join(FIXTURES, 'queries-tiny.jsonl');

async function capture(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    const code = await run(argv);
    return { code, out };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('api-catalog eval', () => {
  // queries-tiny.jsonl: two hits at rank 1, one at rank 2, one expecting an operation that does not exist
  it('prints Recall@1, Recall@5 and MRR per catalog and overall', async () => {
    const { code, out } = await capture([QUERIES, '--registry', REGISTRY]);
    expect(code).toBe(0);
    expect(out).toContain('catalog     queries  R@1    R@5    MRR');
    expect(out).toContain('tiny              4  0.500  0.750  0.625');
    expect(out).toContain('overall           4  0.500  0.750  0.625');
  });

  it('lists the misses with their line and rank', async () => {
    const { out } = await capture([QUERIES, '--registry', REGISTRY, '--misses']);
    expect(out).toContain('tiny:4 [2] "list the issues of a repository"');
    expect(out).toContain('tiny:5 [-] "delete a label" want not/in-the-catalog; got issues/delete-label');
  });

  it('prints JSON with --json', async () => {
    const { out } = await capture([QUERIES, '--registry', REGISTRY, '--json']);
    const parsed = JSON.parse(out) as { catalogs: Record<string, unknown>; overall: unknown };
    expect(parsed.catalogs['tiny']).toEqual({ queries: 4, recallAt1: 0.5, recallAt5: 0.75, mrr: 0.625 });
    expect(parsed.overall).toEqual({ queries: 4, recallAt1: 0.5, recallAt5: 0.75, mrr: 0.625 });
  });

  it('fails naming the line of a malformed entry', async () => {
    const dir = tempDir('eval-');
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, '{"catalog":"tiny","query":"x","expect":["a"]}\n\n{"catalog":"tiny","query":"x"}\n');
    await expect(run([file, '--registry', REGISTRY])).rejects.toThrow(/bad\.jsonl:3 needs "catalog"/);
    writeFileSync(file, '{"catalog":"tiny","query":"x","expect":["a"]}\n{not json\n');
    await expect(run([file, '--registry', REGISTRY])).rejects.toThrow(/bad\.jsonl:2 is not valid JSON/);
  });

  it('names the missing catalog and how to provide it', async () => {
    const dir = tempDir('eval-');
    const file = join(dir, 'q.jsonl');
    writeFileSync(file, '{"catalog":"nosuchcatalog","query":"x","expect":["a"]}\n');
    await expect(run([file])).rejects.toThrow(/no registry for catalog "nosuchcatalog".*--spec nosuchcatalog=<file>/);
  });

  it('measures several files: a table per file, then per catalog over all files and overall', async () => {
    const dir = tempDir('eval-');
    const second = join(dir, 'queries-more.jsonl');
    // one hit at rank 1 and one miss: the union is 4 + 2 queries with 3 + 1 hits at rank 1
    writeFileSync(second, '{"catalog":"tiny","query":"create an issue","expect":["issues/create"]}\n' +
      '{"catalog":"tiny","query":"delete a label","expect":["not/in-the-catalog"]}\n');
    const { code, out } = await capture([QUERIES, second, '--registry', REGISTRY]);
    expect(code).toBe(0);
    expect(out).toContain(`== ${QUERIES}\n`);
    expect(out).toContain(`== ${second}\ncatalog     queries  R@1    R@5    MRR\ntiny              2  0.500  0.500  0.500\n`);
    // one row per set, the mean over sets (each counts once) and pooled (each query counts once)
    expect(out).toContain(
      '== all 2 sets\nset             queries  R@1    R@5    MRR\n' +
        'queries-tiny          4  0.500  0.750  0.625\nqueries-more          2  0.500  0.500  0.500\n' +
        'mean of 2 sets        6  0.500  0.625  0.563\npooled                6  0.500  0.667  0.583\n',
    );
    expect(out).toContain('== per catalog over all 2 sets\ncatalog     queries  R@1    R@5    MRR\ntiny              6  0.500  0.667  0.583\noverall           6  0.500  0.667  0.583');
    const json = JSON.parse((await capture([QUERIES, second, '--registry', REGISTRY, '--json'])).out) as {
      files: Array<{ file: string; overall: { queries: number } }>;
      catalogs: Record<string, { queries: number; recallAt1: number }>;
      overall: { queries: number; recallAt1: number };
    };
    expect(json.files.map((f) => [f.file, f.overall.queries])).toEqual([[QUERIES, 4], [second, 2]]);
    expect(json.catalogs['tiny']).toMatchObject({ queries: 6, recallAt1: 0.5 });
    expect(json.overall).toMatchObject({ queries: 6, recallAt1: 0.5 });
    expect((json as unknown as { mean: unknown }).mean).toEqual({ queries: 6, recallAt1: 0.5, recallAt5: 0.625, mrr: 0.5625 });
  });

  it('expands a quoted file-name pattern, sorted, and fails on a pattern that matches nothing', () => {
    const dir = tempDir('eval-');
    for (const f of ['queries-b.jsonl', 'queries-a.jsonl', 'other.jsonl', 'queries-c.txt']) writeFileSync(join(dir, f), '');
    expect(expandQueryFiles([join(dir, 'queries-*.jsonl')])).toEqual([join(dir, 'queries-a.jsonl'), join(dir, 'queries-b.jsonl')]);
    expect(expandQueryFiles([join(dir, 'queries-?.jsonl'), join(dir, 'other.jsonl')])).toHaveLength(3);
    expect(() => expandQueryFiles([join(dir, 'nothing-*.jsonl')])).toThrow(/no query file matches .*nothing-\*\.jsonl/);
    expect(() => expandQueryFiles([join(dir, 'missing.jsonl')])).toThrow(/missing\.jsonl does not exist/);
  });

  it.each([
    ['queries-dev.jsonl', 'queries-*.jsonl', true],
    ['queries-.jsonl', 'queries-*.jsonl', true],
    ['queries-dev.json', 'queries-*.jsonl', false],
    ['q1.jsonl', 'q?.jsonl', true],
    ['q12.jsonl', 'q?.jsonl', false],
    ['a(b).jsonl', 'a(*).jsonl', true],
  ])('pattern: %s ~ %s is %s', (name, pattern, ok) => {
    expect(matchesPattern(name, pattern)).toBe(ok);
  });

  it('is a usage error without a query file', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await run([])).toBe(2);
    err.mockRestore();
  });
});

describe('parseQueryFile', () => {
  it('reads catalog, query, expect and the 1-based line, skipping blank lines', () => {
    expect(parseQueryFile('\n{"catalog":"github","query":"q","expect":["a","b"]}\n', 'f')).toEqual([
      { catalog: 'github', query: 'q', expect: ['a', 'b'], line: 2 },
    ]);
  });
  it.each([
    ['{"catalog":"GitHub!","query":"q","expect":["a"]}'],
    ['{"catalog":"github","query":1,"expect":["a"]}'],
    ['{"catalog":"github","query":"q","expect":[]}'],
    ['{"catalog":"github","query":"q","expect":[1]}'],
    ['[1,2]'],
    ['null'],
  ])('rejects %s', (line) => {
    expect(() => parseQueryFile(line, 'f')).toThrow(/f:1/);
  });
});

describe('agent-style lines', () => {
  const catalog = loadCatalog(REGISTRY);
  const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
  // line 1: a plain agent call; line 2: the agent picked the wrong domain; line 3: only the keywords match
  const AGENT =
    '{"catalog":"tiny","query":"create issue","keywords":["new","ticket"],"domain":"issues","request":"open a ticket","expect":["issues/create"]}\n' +
    '{"catalog":"tiny","query":"create issue","domain":"customers","expect":["issues/create"]}\n' +
    '{"catalog":"tiny","query":"zzzz","keywords":["customers"],"expect":["GetCustomers"]}\n';
  const agentFile = (): string => {
    const file = join(tempDir('eval-'), 'queries-agent.jsonl');
    writeFileSync(file, AGENT);
    return file;
  };

  it('parses keywords, domain and request, and rejects malformed ones naming the line', () => {
    const [first] = parseQueryFile(AGENT, 'a.jsonl');
    expect(first).toEqual({
      catalog: 'tiny', query: 'create issue', keywords: ['new', 'ticket'], domain: 'issues', request: 'open a ticket',
      expect: ['issues/create'], line: 1,
    });
    const bad = (extra: string): string => `{"catalog":"tiny","query":"q","expect":["a"],${extra}}`;
    expect(() => parseQueryFile(bad('"keywords":"new ticket"'), 'a.jsonl')).toThrow(/a\.jsonl:1: "keywords" must be an array of strings/);
    expect(() => parseQueryFile(bad('"keywords":["ok",2]'), 'a.jsonl')).toThrow(/a\.jsonl:1: "keywords"/);
    expect(() => parseQueryFile(`\n${bad('"domain":""')}`, 'a.jsonl')).toThrow(/a\.jsonl:2: "domain" must be a non-empty string/);
    expect(() => parseQueryFile(bad('"request":7'), 'a.jsonl')).toThrow(/a\.jsonl:1: "request" must be a string/);
  });

  it('builds the search call per mode: keywords appended, passed as the option, or dropped; domain used or not', () => {
    const [q] = parseQueryFile(AGENT, 'a.jsonl');
    if (!q) throw new Error('no line');
    expect(searchRequest(q, { keywords: 'append', useDomain: true })).toEqual({ text: 'create issue new ticket', options: { limit: 10, domain: 'issues' } });
    expect(searchRequest(q, { keywords: 'option', useDomain: true })).toEqual({
      text: 'create issue', options: { limit: 10, domain: 'issues', keywords: ['new', 'ticket'] },
    });
    expect(searchRequest(q, { keywords: 'ignore', useDomain: false })).toEqual({ text: 'create issue', options: { limit: 10 } });
  });

  it('passes the domain as the filter: a wrong domain misses, ignoring it finds the operation', () => {
    const queries = parseQueryFile(AGENT, 'a.jsonl');
    const used = evaluate(index, catalog.operations, queries, { keywords: 'append', useDomain: true });
    expect(used.outcomes.map((o) => o.rank)).toEqual([1, null, 1]);
    const ignored = evaluate(index, catalog.operations, queries, { keywords: 'ignore', useDomain: false });
    expect(ignored.outcomes.map((o) => o.rank)).toEqual([1, 1, null]);
  });

  it('names the file and line of a domain the catalog does not have', async () => {
    const file = join(tempDir('eval-'), 'q.jsonl');
    writeFileSync(file, '{"catalog":"tiny","query":"create issue","expect":["issues/create"]}\n{"catalog":"tiny","query":"x","domain":"isues","expect":["a"]}\n');
    await expect(run([file, '--registry', REGISTRY])).rejects.toThrow(/q\.jsonl:2 \(tiny\): unknown domain "isues"; did you mean "issues"\?; run `api-catalog domains --registry [^`]+` for the valid names$/);
  });

  it('detects whether the index honours SearchOptions.keywords', () => {
    // an index that drops the option, and one that widens recall with it (as the search pipeline may)
    const ignoring = {
      search: (query: string, options: SearchOptions = {}): SearchResult => {
        const { keywords: _dropped, ...rest } = options as SearchOptions & { keywords?: string[] };
        return index.search(query, rest);
      },
    };
    const honouring = {
      search: (query: string, options: SearchOptions = {}): SearchResult => {
        const { keywords = [], ...rest } = options as SearchOptions & { keywords?: string[] };
        return index.search([query, ...keywords].join(' '), rest);
      },
    };
    // and one whose keywords only re-rank what the query found (here: reverse the order)
    const reranking = {
      search: (query: string, options: SearchOptions = {}): SearchResult => {
        const { keywords = [], ...rest } = options as SearchOptions & { keywords?: string[] };
        const found = index.search(query, rest);
        return keywords.length > 0 ? { ...found, results: [...found.results].reverse() } : found;
      },
    };
    expect(supportsKeywordsOption(ignoring, catalog.operations)).toBe(false);
    expect(supportsKeywordsOption(honouring, catalog.operations)).toBe(true);
    expect(supportsKeywordsOption(reranking, catalog.operations)).toBe(true);
  });

  it('prints which keywords mode it used: auto picks the option only when this build supports it', async () => {
    const file = agentFile();
    const supported = supportsKeywordsOption(index, catalog.operations);
    const auto = await capture([file, '--registry', REGISTRY]);
    expect(auto.out).toContain(`agent-style lines: keywords ${supported ? 'option' : 'append'} (`);
    expect(auto.out).toContain('domain used as the filter');
    const append = await capture([file, '--registry', REGISTRY, '--keywords', 'append']);
    expect(append.out).toContain('agent-style lines: keywords append (as asked); domain used as the filter');
    // line 3 is found only through its keywords; line 2 only without the domain
    expect(append.out).toContain('tiny              3  0.667  0.667  0.667');
    const plain = await capture([file, '--registry', REGISTRY, '--keywords=ignore', '--domain=ignore']);
    expect(plain.out).toContain('keywords ignore (as asked); domain ignored');
    expect(plain.out).toContain('tiny              3  0.667  0.667  0.667');
    const none = await capture([file, '--registry', REGISTRY, '--keywords=ignore']);
    expect(none.out).toContain('tiny              3  0.333  0.333  0.333');
  });

  it('rejects unknown modes as usage errors', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await run([agentFile(), '--registry', REGISTRY, '--keywords', 'sometimes'])).toBe(2);
    expect(await run([agentFile(), '--registry', REGISTRY, '--domain', 'maybe'])).toBe(2);
    expect(await run(['--compare', 'only-one.json'])).toBe(2);
    err.mockRestore();
  });
});

describe('per set and overall', () => {
  it('means weigh each set once; pooled weighs each query once', () => {
    const big = { queries: 30, recallAt1: 1, recallAt5: 1, mrr: 1 };
    const small = { queries: 10, recallAt1: 0, recallAt5: 0.5, mrr: 0.25 };
    expect(meanMetrics([big, small])).toEqual({ queries: 40, recallAt1: 0.5, recallAt5: 0.75, mrr: 0.625 });
    expect(meanMetrics([])).toEqual({ queries: 0, recallAt1: 0, recallAt5: 0, mrr: 0 });
  });

  it('names a set after its file', () => {
    expect(setName('test/fixtures/search/queries-zoom-agent.jsonl')).toBe('queries-zoom-agent');
  });
});

describe('comparing runs', () => {
  it('saves a run and compares the next one with it: per set before -> after with deltas, and the changed queries', async () => {
    const dir = tempDir('eval-');
    const other = join(dir, 'queries-other.jsonl');
    writeFileSync(other, '{"catalog":"tiny","query":"create an issue","expect":["issues/create"]}\n{"catalog":"tiny","query":"list customers","expect":["GetCustomers"]}\n');
    const before = join(dir, 'before.json');
    const after = join(dir, 'after.json');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await capture([QUERIES, other, '--registry', REGISTRY, '--save', before]);
    const saved = parseSavedRun(readFileSync(before, 'utf8'), before);
    expect(saved.sets.map((s) => [s.set, s.metrics.queries, s.queries.map((q) => q.rank)])).toEqual([
      ['queries-tiny', 4, [1, 1, 2, null]],
      ['queries-other', 2, [1, 1]],
    ]);
    expect(saved.settings).toEqual({ keywords: 'append', domain: 'use' });

    // the second line of queries-other now expects another operation: it drops from rank 1 to out of the top 10
    writeFileSync(other, '{"catalog":"tiny","query":"create an issue","expect":["issues/create"]}\n{"catalog":"tiny","query":"list customers","expect":["issues/delete-label"]}\n');
    const { out } = await capture([QUERIES, other, '--registry', REGISTRY, '--baseline', before, '--save', after]);
    err.mockRestore();
    expect(out).toContain(`before: ${before} (keywords append, domain use)\nafter:  this run (keywords append, domain use)\n`);
    expect(out).toContain('queries-tiny        4  0.500 -> 0.500 +0.000  0.750 -> 0.750 +0.000  0.625 -> 0.625 +0.000');
    expect(out).toContain('queries-other       2  1.000 -> 0.500 -0.500  1.000 -> 0.500 -0.500  1.000 -> 0.500 -0.500');
    expect(out).toContain('mean (2 sets)       6  0.750 -> 0.500 -0.250  0.875 -> 0.625 -0.250  0.813 -> 0.563 -0.250');
    expect(out).toContain('pooled              6  0.667 -> 0.500 -0.167  0.833 -> 0.667 -0.167  0.750 -> 0.583 -0.167');
    expect(out).toContain('ranks changed: 1 (0 better, 1 worse)\n  queries-other:2 [1 -> -] "list customers"');
    // one of two queries lost its hit: resampling that set gives -1, -0.5 or 0, so the interval spans zero
    expect(out).toContain('MRR change, mean over 2 sets (6 paired queries): -0.250, 95% bootstrap interval [-0.500, +0.000]: within query noise');
    const json = JSON.parse((await capture([QUERIES, other, '--registry', REGISTRY, '--baseline', before, '--json'])).out) as {
      settings: unknown;
      comparison: { mrrDelta: { point: number; sets: number }; changes: unknown[] };
    };
    expect(json.settings).toEqual({ keywords: 'append', domain: 'use' });
    expect(json.comparison.mrrDelta).toMatchObject({ point: -0.25, sets: 2 });
    expect(json.comparison.changes).toEqual([{ set: 'queries-other', line: 2, query: 'list customers', before: 1, after: null }]);

    // the same table from the two saved files, without searching
    const compared = await capture(['--compare', before, after]);
    expect(compared.code).toBe(0);
    expect(compared.out).toContain('queries-other       2  1.000 -> 0.500 -0.500');
    expect(compared.out).toContain('queries-other:2 [1 -> -] "list customers"');
  });

  it('lines up sets that only one run has and says what mean and pooled cover', () => {
    const m = (r1: number) => ({ queries: 2, recallAt1: r1, recallAt5: 1, mrr: r1 });
    const runOf = (sets: Array<[string, number]>): SavedRun => ({
      format: 'api-catalog-eval/1', created: 'x', settings: { keywords: 'append', domain: 'use' },
      sets: sets.map(([set, r1]) => ({ set, file: `${set}.jsonl`, metrics: m(r1), catalogs: {}, queries: [] })),
      mean: m(0), pooled: m(0),
    });
    const c = compareRuns(runOf([['a', 0.5], ['b', 1]]), runOf([['b', 0.5], ['c', 1]]));
    expect(c.rows.map((r) => [r.set, r.before?.recallAt1, r.after?.recallAt1])).toEqual([
      ['a', 0.5, undefined], ['b', 1, 0.5], ['c', undefined, 1],
    ]);
    expect(c.common).toBe(1);
    expect(c.mean.before?.recallAt1).toBe(1);
    expect(c.mean.after?.recallAt1).toBe(0.5);
  });

  it('bootstraps the mean-over-sets change: no change is exactly zero, a uniform gain is beyond noise, same seed same interval', () => {
    expect(bootstrapMeanOverSets([[0, 0, 0], [0, 0]])).toMatchObject({ point: 0, lo: 0, hi: 0, sets: 2, queries: 5 });
    const gain = bootstrapMeanOverSets([[0.5, 0.5], [0.5, 0.5, 0.5]]);
    expect(gain).toMatchObject({ point: 0.5, lo: 0.5, hi: 0.5 });
    const mixed = [[1, 0, 0, -0.5, 0.5, 0], [0.25, 0, 0, 0]];
    const once = bootstrapMeanOverSets(mixed);
    expect(bootstrapMeanOverSets(mixed)).toEqual(once);
    expect(once.lo).toBeLessThan(once.point);
    expect(once.hi).toBeGreaterThan(once.point);
    expect(once.point).toBeCloseTo((1 / 6 + 0.0625) / 2, 10);
  });

  it('rejects a file that is not a saved run', () => {
    expect(() => parseSavedRun('{nope', 'r.json')).toThrow(/r\.json is not valid JSON/);
    expect(() => parseSavedRun('{"files":[]}', 'r.json')).toThrow(/r\.json is not a saved eval run/);
    expect(() => parseSavedRun('{"format":"api-catalog-eval/1","sets":[{"set":"a"}]}', 'r.json')).toThrow(/set #1 needs/);
  });
});
