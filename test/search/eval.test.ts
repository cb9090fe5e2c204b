// The eval command on its own tiny registry: printed metrics, JSON output, and malformed input.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/eval.js';
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
