// The curation walkthrough of docs/CURATION.md, end to end on the real GitHub spec: "open a ticket" misses issues_create on the
// embedded catalog; the overlay in test/fixtures/overlays/github-tickets.yaml (the one the page shows) adds the
// word people use as x-api-catalog-keywords; after `import --overlay` the same search, through a real MCP client
// of each era, ranks issues_create first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { ERAS, REPO_ROOT, call, connectInMemory, type Connected, type Era } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const OVERLAY = 'test/fixtures/overlays/github-tickets.yaml';
const QUERIES = ['open a ticket'];
let out = '';
/** A connection of each era (2026-07-28 and legacy) to the embedded catalog and to the re-imported one. */
const conns = new Map<Era, { before: Connected; after: Connected }>();

async function rankOf(c: Connected, query: string, name: string): Promise<number | null> {
  const r = await call(c.client, 'search_tools', { query, limit: 25 });
  expect(r.success).toBe(true);
  const at = (r.value.results as Array<{ name: string }>).findIndex((h) => h.name === name);
  return at < 0 ? null : at + 1;
}

beforeAll(async () => {
  out = tempDir('ac-walkthrough-');
  // `api-catalog import openapi/github.json --overlay <file> --out <dir>`, the page's command, in-process.
  const o = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const e = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  let code: number;
  try {
    code = await importCli([join(REPO_ROOT, 'openapi', 'github.json'), '--overlay', join(REPO_ROOT, OVERLAY), '--out', out]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  expect(code).toBe(0);
  for (const era of ERAS) {
    conns.set(era, {
      before: await connectInMemory({ catalogs: loadCatalogSet([]) }, { era }),
      after: await connectInMemory({ catalogs: loadCatalogSet([join(out, 'github')]) }, { era }),
    });
  }
}, 120_000);

afterAll(async () => {
  for (const c of conns.values()) {
    await c.before.close();
    await c.after.close();
  }
});

describe.each(ERAS)('%s era', (era: Era) => {
  let before: Connected;
  let after: Connected;
  beforeAll(() => {
    ({ before, after } = conns.get(era)!);
  });

  describe('docs/CURATION.md walkthrough: fixing a search miss with an overlay (GitHub)', () => {
    test('before: the words people use miss issues_create on the embedded catalog (not in the top 5)', async () => {
      for (const q of QUERIES) {
        const rank = await rankOf(before, q, 'issues_create');
        expect(rank === null || rank > 5, `"${q}" ranks issues_create ${rank}`).toBe(true);
      }
    });

    test('the overlay only adds keywords: issues_create keeps its summary, and nothing else changes', async () => {
      const d = await call(after.client, 'describe_tools', { tool_names: ['issues_create'], detail: 'summary' });
      expect(d.value.tools[0]).toMatchObject({ name: 'issues_create', summary: 'Create an issue', method: 'POST', path: '/repos/{owner}/{repo}/issues' });
      const set = loadCatalogSet([join(out, 'github')]);
      const embedded = loadCatalogSet([]);
      expect(set.byName.get('issues_create')?.op.keywords).toEqual(['ticket', 'bug report']);
      expect(set.operations.filter((op) => op.keywords !== undefined).map((op) => op.name)).toEqual(['issues_create']);
      expect(set.operations.length).toBe(embedded.operations.length);
    });

    test('after: the same searches rank issues_create first, through a real MCP client', async () => {
      for (const q of QUERIES) expect(await rankOf(after, q, 'issues_create'), q).toBe(1);
    });

    test('docs/CURATION.md shows exactly this overlay and this query', () => {
      const readme = readFileSync(join(REPO_ROOT, 'docs', 'CURATION.md'), 'utf8');
      const overlay = readFileSync(join(REPO_ROOT, OVERLAY), 'utf8');
      const body = overlay.slice(overlay.indexOf('overlay: 1.0.0'));
      expect(readme).toContain(body.trimEnd());
      expect(readme).toContain(`api-catalog search "${QUERIES[0]}"`);
    });
  });
});
