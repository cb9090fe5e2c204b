// `api-catalog suggest-overlay`: queries that miss their operation become Overlay 1.0 actions adding the missing
// words as x-api-catalog-keywords; the YAML it writes is accepted by `import --overlay` (round trip), after which
// the same queries have nothing left to suggest.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonpath } from 'json-p3';
import { beforeAll, describe, expect, test } from 'vitest';
import { missingWords, operationTarget, parseSuggestQueries, renderOverlay, run, suggestKeywords } from '../../src/cli/suggest-overlay.js';
import { AppError } from '../../src/errors.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { parseOverlay } from '../../src/importer/overlay.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import type { Operation } from '../../src/types.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = 'test/fixtures/overlays/shop.yaml';
let dir = '';
let reg = '';
beforeAll(async () => {
  dir = tempDir('ac-suggest-');
  writeRegistry(await importSpec(SPEC), join(dir, 'plain'));
  reg = join(dir, 'plain', 'shop');
});
const cli = (args: string[]) => runCaptured(run, args);


const QUERIES = [
  { query: 'a chargeback', expect: ['orders/refund'] }, // "chargeback" is nowhere in the spec
  { catalog: 'shop', query: 'give the money back', expect: ['orders_refund'] },
  { query: 'list orders', expect: ['orders/list'] }, // a hit
  { catalog: 'github', query: 'open a ticket', expect: ['issues/create'] }, // another catalog: skipped
  { query: 'whatever', expect: ['nope/nope'] }, // no such operation
];
const jsonl = (qs: object[]): string => qs.map((q) => JSON.stringify(q)).join('\n') + '\n';

describe('the query file', () => {
  test('catalog is optional; a malformed line is an error naming file and line', () => {
    expect(parseSuggestQueries(jsonl(QUERIES.slice(0, 2)), 'q.jsonl')).toEqual([
      { line: 1, query: 'a chargeback', expect: ['orders/refund'] },
      { line: 2, query: 'give the money back', expect: ['orders_refund'], catalog: 'shop' },
    ]);
    for (const bad of ['{"query": "x"}', 'not json', '{"query": "", "expect": ["a"]}', '{"query": "x", "expect": [1]}', '{"query": "x", "expect": ["a"], "catalog": 3}']) {
      expect(() => parseSuggestQueries(`{"query":"ok","expect":["a"]}\n\n${bad}\n`, 'q.jsonl')).toThrow(AppError);
      expect(() => parseSuggestQueries(`{"query":"ok","expect":["a"]}\n\n${bad}\n`, 'q.jsonl')).toThrow(/q\.jsonl:3 /);
    }
  });
});

describe('missing words and targets', () => {
  const op = { name: 'issues_create', operationId: 'issues/create', summary: 'Create an issue', keywords: ['bug report'], path: '/repos/{owner}/{repo}/issues', method: 'post' } as Operation;

  test('stop words, numbers and words the operation already has (by stem) are dropped', () => {
    expect(missingWords('Please open a new ticket for the bugs in repo 42', op)).toEqual(['open', 'new', 'ticket', 'repo']);
    expect(missingWords('create issues', op)).toEqual([]);
    expect(missingWords('ticket ticket Tickets', op)).toEqual(['ticket']);
  });

  test('the target is an RFC 9535 JSONPath selecting exactly that operation, quotes escaped', () => {
    expect(operationTarget(op)).toBe("$.paths['/repos/{owner}/{repo}/issues'].post");
    const odd = { path: "/it's/a\\path", method: 'get' } as Operation;
    const doc = { paths: { "/it's/a\\path": { get: { operationId: 'odd' } }, '/other': { get: {} } } };
    expect(jsonpath.query(operationTarget(odd), doc).values()).toEqual([{ operationId: 'odd' }]);
  });
});

describe('suggestKeywords and the overlay it renders', () => {
  test('one action per missed operation with the words of all its missed queries; hits, other catalogs and unknown names are reported', () => {
    const set = loadCatalogSet([reg]);
    const report = suggestKeywords(set, parseSuggestQueries(jsonl(QUERIES), 'q.jsonl'));
    expect(report).toMatchObject({ considered: 4, skippedOtherCatalog: 1, hits: 1, unknownExpect: [{ line: 5, expect: ['nope/nope'] }] });
    expect(report.misses.map((m) => [m.line, m.added])).toEqual([[1, ['chargeback']], [2, ['give', 'money', 'back']]]);
    expect(report.suggestions.map((s) => [s.op.name, s.words])).toEqual([['orders_refund', ['chargeback', 'give', 'money', 'back']]]);
    const yaml = renderOverlay(report, 'q.jsonl', 'shop') as string;
    expect(yaml).toMatch(/^# Suggested by `api-catalog suggest-overlay` from 2 missed queries\./);
    const overlay = parseOverlay(yaml, 'suggested.yaml');
    expect(overlay.actions).toHaveLength(1);
    expect(overlay.actions[0]).toMatchObject({ target: "$.paths['/orders/{id}/refund'].post", update: { 'x-api-catalog-keywords': ['chargeback', 'give', 'money', 'back'] } });
    expect(overlay.actions[0]?.description).toMatch(/orders_refund: "a chargeback" (ranked \d+|not in the top 25); "give the money back"/);
  });

  test('round trip: the CLI writes an overlay that import --overlay accepts; the keywords land; nothing is left to suggest', async () => {
    writeFileSync(join(dir, 'q.jsonl'), jsonl(QUERIES));
    const r = await cli(['--queries', join(dir, 'q.jsonl'), '--registry', reg, '--out', join(dir, 'suggested.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/4 queries for shop: 1 found in the top 5, 2 missed \(1 for other catalogs skipped\)/);
    expect(r.stderr).toMatch(/line 5: no operation named nope\/nope in shop; skipped/);
    expect(r.stderr).toMatch(/1 action\(s\) suggested in .*suggested\.yaml/);

    const imported = await importSpec(SPEC, { overlays: [{ file: join(dir, 'suggested.yaml') }], strict: true });
    expect(imported.operations.find((o) => o.name === 'orders_refund')?.keywords).toEqual(['chargeback', 'give', 'money', 'back']);
    writeRegistry(imported, join(dir, 'curated'));
    const again = suggestKeywords(loadCatalogSet([join(dir, 'curated', 'shop')]), parseSuggestQueries(jsonl(QUERIES), 'q.jsonl'));
    expect(again.suggestions).toEqual([]);
    // and the search agents get now finds orders_refund for both missed queries (keywords are indexed)
    expect(again.misses).toEqual([]);
    expect(again.hits).toBe(3);
    expect(renderOverlay(again, 'q.jsonl', 'shop')).toBeUndefined();
  });

  test('without --out the overlay goes to stdout; nothing to suggest is said and writes nothing; usage errors exit 2', async () => {
    writeFileSync(join(dir, 'q2.jsonl'), jsonl(QUERIES.slice(0, 1)));
    const printed = await cli(['--queries', join(dir, 'q2.jsonl'), '--registry', reg]);
    expect(printed.code).toBe(0);
    expect(parseOverlay(printed.stdout, 'stdout').actions).toHaveLength(1);

    writeFileSync(join(dir, 'hits.jsonl'), jsonl([QUERIES[2] as object]));
    const none = await cli(['--queries', join(dir, 'hits.jsonl'), '--registry', reg, '--out', join(dir, 'none.yaml')]);
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/nothing to suggest/);
    expect(() => readFileSync(join(dir, 'none.yaml'))).toThrow();

    expect((await cli(['--registry', reg])).code).toBe(2);
    const missing = await cli(['--queries', join(dir, 'absent.jsonl'), '--registry', reg]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*absent\.jsonl \(ENOENT\); check --queries/);
  });
});
