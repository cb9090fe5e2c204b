// The eval command on its own tiny registry: printed metrics, JSON output, and malformed input.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expandQueryFiles, matchesPattern, run } from '../../src/cli/eval.js';
import { parseQueryFile } from '../../src/search/eval.js';

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
    const dir = mkdtempSync(join(tmpdir(), 'eval-'));
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, '{"catalog":"tiny","query":"x","expect":["a"]}\n\n{"catalog":"tiny","query":"x"}\n');
    await expect(run([file, '--registry', REGISTRY])).rejects.toThrow(/bad\.jsonl:3 needs "catalog"/);
    writeFileSync(file, '{"catalog":"tiny","query":"x","expect":["a"]}\n{not json\n');
    await expect(run([file, '--registry', REGISTRY])).rejects.toThrow(/bad\.jsonl:2 is not valid JSON/);
  });

  it('names the missing catalog and how to provide it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-'));
    const file = join(dir, 'q.jsonl');
    writeFileSync(file, '{"catalog":"nosuchcatalog","query":"x","expect":["a"]}\n');
    await expect(run([file])).rejects.toThrow(/no registry for catalog "nosuchcatalog".*--spec nosuchcatalog=<file>/);
  });

  it('measures several files: a table per file, then per catalog over all files and overall', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-'));
    const second = join(dir, 'queries-more.jsonl');
    // one hit at rank 1 and one miss: the union is 4 + 2 queries with 3 + 1 hits at rank 1
    writeFileSync(second, '{"catalog":"tiny","query":"create an issue","expect":["issues/create"]}\n' +
      '{"catalog":"tiny","query":"delete a label","expect":["not/in-the-catalog"]}\n');
    const { code, out } = await capture([QUERIES, second, '--registry', REGISTRY]);
    expect(code).toBe(0);
    expect(out).toContain(`== ${QUERIES}\n`);
    expect(out).toContain(`== ${second}\ncatalog     queries  R@1    R@5    MRR\ntiny              2  0.500  0.500  0.500\n`);
    expect(out).toContain('== all 2 files\ncatalog     queries  R@1    R@5    MRR\ntiny              6  0.500  0.667  0.583\noverall           6  0.500  0.667  0.583');
    const json = JSON.parse((await capture([QUERIES, second, '--registry', REGISTRY, '--json'])).out) as {
      files: Array<{ file: string; overall: { queries: number } }>;
      catalogs: Record<string, { queries: number; recallAt1: number }>;
      overall: { queries: number; recallAt1: number };
    };
    expect(json.files.map((f) => [f.file, f.overall.queries])).toEqual([[QUERIES, 4], [second, 2]]);
    expect(json.catalogs['tiny']).toMatchObject({ queries: 6, recallAt1: 0.5 });
    expect(json.overall).toMatchObject({ queries: 6, recallAt1: 0.5 });
  });

  it('expands a quoted file-name pattern, sorted, and fails on a pattern that matches nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-'));
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
