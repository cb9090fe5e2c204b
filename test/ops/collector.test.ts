// The serving process's collector setting (src/server/ops/collector.ts): after thousands of searches a query's
// words and concepts are still allocated young, so a scavenge frees them instead of promoting them (without the
// setting, V8 pretenures those allocation sites after ~1,000 searches on the GitHub catalog: docs/SEARCH.md,
// "Latency"). Checked in a child process that may ask V8 where an object lives (--allow-natives-syntax).
// Needs `npm run build`.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';

const dist = (p: string) => pathToFileURL(join(REPO_ROOT, 'dist', p)).href;

test('serving keeps per-search objects in the young generation after 4,000 searches', async () => {
  const script = `
    const { tuneCollectorForServing } = await import(${JSON.stringify(dist('server/ops/collector.js'))});
    tuneCollectorForServing();
    const { loadCatalog, defaultCatalogDir } = await import(${JSON.stringify(dist('registry/catalog.js'))});
    const { SearchIndex } = await import(${JSON.stringify(dist('search/index.js'))});
    const { analyzeQuery } = await import(${JSON.stringify(dist('search/units.js'))});
    const catalog = loadCatalog(defaultCatalogDir());
    const index = SearchIndex.build(catalog.operations, catalog.meta.domains);
    const queries = ['list pull requests', 'create an issue', 'delete a branch', 'add a user to a team', 'star a repository', 'get the latest release'];
    for (let i = 0; i < 4000; i++) index.search(queries[i % queries.length], { limit: 8 });
    const plan = analyzeQuery('list pull requests', index.lexicon, catalog.operations.length, { familyWeight: 1, minedWeight: 1, keywordMode: 'concept', keywordWeight: 1, keywordPrecision: 1 });
    const young = (o) => %InYoungGeneration(o);
    console.log(JSON.stringify({ concepts: plan.concepts.length, words: young(plan.words), concept: plan.concepts.every(young), terms: plan.concepts.every((c) => young(c.terms)) }));
  `;
  const r = await runProcess(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { cwd: REPO_ROOT });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const out = JSON.parse(r.stdout.trim());
  expect(out.concepts).toBeGreaterThan(0);
  expect(out).toEqual({ concepts: out.concepts, words: true, concept: true, terms: true });
});
