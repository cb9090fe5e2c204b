// The embeddings option end to end against a local OpenAI-compatible endpoint on loopback: import stores the
// vectors, search_tools through a real MCP client of each era finds a paraphrase lexical search misses, and every failure of
// the endpoint (stall, refused, garbage, wrong model, texts changed) answers lexically and says so.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { run as embedCli } from '../../src/cli/embed.js';
import { resolveEmbeddingsConfig, type EmbeddingsConfig } from '../../src/embeddings/index.js';
import { createLogger } from '../../src/logger.js';
import { attachEmbeddings, loadCatalogSet } from '../../src/server/core/catalogs.js';
import { ERAS, call, connectInMemory, fixtureRegistry, type Era } from '../helpers/mcp.js';
import { closedPortUrl, startEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/embeddings-server.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(import.meta.dirname, 'fixtures', 'club.yaml');
const CANARY = 'sk-canary-7f3a9c2e1b4d8a6f0e5c';

let root = '';
let fake: FakeEmbeddingsServer;
let dir = '';
const cli = runCaptured;

function config(overrides: Partial<EmbeddingsConfig> = {}): EmbeddingsConfig {
  const c = resolveEmbeddingsConfig({ url: fake.url, model: 'fake-embed' }, { API_CATALOG_EMBEDDINGS_KEY: CANARY });
  if (!c) throw new Error('no config');
  // A generous query timeout unless a test sets its own: the happy paths must not fall back on a loaded machine.
  return { ...c, queryTimeoutMs: 15_000, ...overrides };
}
/**
 * The endpoint's failures are tested with `mix`, which asks the endpoint for every query; `gated` (the default) asks
 * only when the lexical answer is unsure and then runs the same code (its own test below).
 */
const ASK_EVERY_QUERY = { fusion: 'mix' } as const;

/** Every file under a folder as text (to scan for the key). */
function allText(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

beforeAll(async () => {
  root = tempDir('ac-embed-');
  fake = await startEmbeddingsServer({ requiredKey: CANARY });
  const r = await cli(importCli, [SPEC, '--name', 'club', '--out', root, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed'], {
    API_CATALOG_EMBEDDINGS_KEY: CANARY,
    API_CATALOG_EMBEDDINGS_BATCH: '4',
  });
  expect(r.stderr).not.toContain(CANARY);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/embeddings: embedded 11 operation\(s\), reused 0, with fake-embed \(64 dimensions\)/);
  dir = join(root, 'club');
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  fake.behaviour = 'ok';
});

describe('import time', () => {
  test('import stores the vectors with the model, dimensions and a fingerprint; batches of 4; the key was sent as Bearer', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'embeddings.json'), 'utf8'));
    expect(manifest).toMatchObject({ formatVersion: 1, model: 'fake-embed', dimensions: 64, encoding: 'float16', textRecipe: 1 });
    expect(manifest.operations).toHaveLength(11);
    expect(manifest.textFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dir, 'embeddings.bin')).length).toBe(11 * 64 * 2);
    expect(fake.requests).toBe(3); // 11 texts in batches of 4
    expect(fake.authHeaders.every((h) => h === `Bearer ${CANARY}`)).toBe(true);
    expect(fake.inputs.some((t) => t.startsWith('Suspend a subscription\n'))).toBe(true);
    expect(allText(root)).not.toContain(CANARY);
  });

  test('re-import with the endpoint sends nothing when no operation changed, and the bytes stay the same', async () => {
    const before = readFileSync(join(dir, 'embeddings.bin'));
    const requests = fake.requests;
    const r = await cli(importCli, [SPEC, '--name', 'club', '--out', root, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed'], { API_CATALOG_EMBEDDINGS_KEY: CANARY });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('embeddings: the 11 operation vectors from fake-embed are up to date');
    expect(fake.requests).toBe(requests);
    expect(readFileSync(join(dir, 'embeddings.bin')).equals(before)).toBe(true);
  });

  test('import --check: up to date with the vectors present; a changed spec makes it stale; embed re-embeds only what changed', async () => {
    const ok = await cli(importCli, [SPEC, '--name', 'club', '--out', root, '--check']);
    expect(ok.code, ok.stderr).toBe(0);
    const other = tempDir('ac-embed-spec-');
    try {
      const changed = join(other, 'club.yaml');
      writeFileSync(changed, readFileSync(SPEC, 'utf8').replace('summary: List notes on a customer', 'summary: List the notes kept about a customer'));
      const copy = tempDir('ac-embed-reg-');
      try {
        // a copy of the registry, re-imported from the changed spec without an endpoint: vectors kept, reported stale
        const imp = await cli(importCli, [changed, '--name', 'club', '--out', copy]);
        expect(imp.code).toBe(0);
        for (const f of ['embeddings.json', 'embeddings.bin']) writeFileSync(join(copy, 'club', f), readFileSync(join(dir, f)));
        const again = await cli(importCli, [changed, '--name', 'club', '--out', copy]);
        expect(again.code, again.stderr).toBe(0);
        expect(readdirSync(join(copy, 'club'))).toContain('embeddings.bin');
        const stale = await cli(importCli, [changed, '--name', 'club', '--out', copy, '--check']);
        expect(stale.code).toBe(1);
        expect(stale.stderr).toMatch(/operations changed since their vectors were made.*api-catalog embed --registry/);
        const check = await cli(embedCli, ['--registry', join(copy, 'club'), '--check']);
        expect(check.code).toBe(1);
        const before = fake.inputs.length;
        const emb = await cli(embedCli, ['--registry', join(copy, 'club'), '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed'], { API_CATALOG_EMBEDDINGS_KEY: CANARY });
        expect(emb.code, emb.stderr).toBe(0);
        expect(emb.stdout).toMatch(/embedded 1 operation\(s\), reused 10/);
        expect(fake.inputs.slice(before)).toEqual([expect.stringContaining('List the notes kept about a customer')]);
        expect((await cli(embedCli, ['--registry', join(copy, 'club'), '--check'])).code).toBe(0);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('import with the endpoint down: the registry is written, exit 1 says the vectors are missing and how to add them', async () => {
    const other = tempDir('ac-embed-down-');
    try {
      const { closedPortUrl } = await import('../helpers/embeddings-server.js');
      const r = await cli(importCli, [SPEC, '--name', 'club', '--out', other, '--embeddings-url', await closedPortUrl(), '--embeddings-model', 'fake-embed'], {
        API_CATALOG_EMBEDDINGS_KEY: CANARY,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/club is written \(11 operations\), but its vectors are not: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings \(ECONNREFUSED\).*run `api-catalog embed --registry/);
      expect(r.stderr).not.toContain(CANARY);
      expect(readdirSync(join(other, 'club'))).toContain('catalog.json');
      expect(readdirSync(join(other, 'club'))).not.toContain('embeddings.json');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  test('a wrong key is refused with an error that names the endpoint and the env var, never the key', async () => {
    const wrong = 'sk-wrong-0123456789abcdef';
    const r = await cli(embedCli, ['--registry', dir, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed-small'], { API_CATALOG_EMBEDDINGS_KEY: wrong });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${fake.url}/embeddings refused the request (HTTP 401`);
    expect(r.stderr).toContain('API_CATALOG_EMBEDDINGS_KEY');
    expect(r.stderr).not.toContain(wrong);
    expect(r.stderr).not.toContain('0123456789abcdef');
  });
});

describe.each(ERAS)('%s era', (era: Era) => {
  describe('search time through a real MCP client', () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l), minLevel: 'debug' });

    async function connect(c: EmbeddingsConfig, options: { cooldownMs?: number } = {}) {
      const set = loadCatalogSet([dir]);
      const semantic = await attachEmbeddings(set, c, { logger, ...options });
      const conn = await connectInMemory({ catalogs: set, logger }, { era });
      return { set, semantic, conn };
    }

    test('hybrid search finds the paraphrase that lexical search misses; exact names stay first; the key never shows', async () => {
      const lexicalOnly = await connectInMemory({ catalogs: loadCatalogSet([dir]) }, { era });
      const lex = await call(lexicalOnly.client, 'search_tools', { query: 'hibernate my membership' });
      await lexicalOnly.close();
      expect(lex.value.results.map((r: { name: string }) => r.name)).not.toContain('suspendSubscription');
      expect(lex.value.mode).toBeUndefined();

      const { conn, semantic } = await connect(config());
      try {
        const hit = await call(conn.client, 'search_tools', { query: 'hibernate my membership' });
        expect(hit.success).toBe(true);
        expect(hit.value.mode).toBe('hybrid (gated)');
        expect(hit.value.results[0].name).toBe('suspendSubscription');
        expect(hit.value.results[0].score).toBeGreaterThan(0);
        expect(hit.value.results[0].score).toBeLessThanOrEqual(1);
        const domains = await call(conn.client, 'list_domains', {});
        expect(domains.value.search).toBe('hybrid (lexical + embeddings from fake-embed, gated)');
        // exact name and METHOD /path queries keep their operation first
        const exactName = hit.value.results[2].name as string;
        const exact = await call(conn.client, 'search_tools', { query: exactName });
        expect(exact.value.results[0]).toMatchObject({ name: exactName, score: 1 });
        const byPath = await call(conn.client, 'search_tools', { query: 'GET /customers/42/notes' });
        expect(byPath.value.results[0].name).toMatch(/listCustomerNotes$/);
        // domain filter and paging hold
        const inDomain = await call(conn.client, 'search_tools', { query: 'hibernate my membership', domain: 'invoices', limit: 1 });
        expect(inDomain.value.results.map((r: { domain: string }) => r.domain)).toEqual(['invoices']);
        const page2 = await call(conn.client, 'search_tools', { query: 'hibernate my membership', limit: 3, offset: 3 });
        const page1 = await call(conn.client, 'search_tools', { query: 'hibernate my membership', limit: 3 });
        const names = [...page1.value.results, ...page2.value.results].map((r: { name: string }) => r.name);
        expect(new Set(names).size).toBe(6);
        expect(page1.value.total).toBe(page2.value.total);
        expect(semantic.usable).toBe(true);
      } finally {
        await conn.close();
      }
      expect(lines.join('')).not.toContain(CANARY);
    });

    test('cache: a repeated query does not call the endpoint again', async () => {
      const { conn, semantic } = await connect(config());
      try {
        const before = fake.requests;
        await call(conn.client, 'search_tools', { query: 'hibernate my membership' });
        await call(conn.client, 'search_tools', { query: 'hibernate my membership' });
        await call(conn.client, 'search_tools', { query: '  hibernate   my membership ' });
        expect(fake.requests - before).toBe(1);
        expect(semantic.queryRequests).toBe(1);
      } finally {
        await conn.close();
      }
    });

    test('timeout: a stalled endpoint costs at most the query timeout, then the answer is lexical and says so', async () => {
      fake.behaviour = 'stall';
      const { conn } = await connect(config({ queryTimeoutMs: 300, ...ASK_EVERY_QUERY }), { cooldownMs: 0 });
      try {
        // The endpoint never answers: an answer at all means the query timeout ended the wait (no clock assertion).
        const r = await call(conn.client, 'search_tools', { query: 'list invoices' });
        expect(r.success).toBe(true);
        expect(r.value.results[0].name).toMatch(/listInvoices$/);
        expect(r.value.mode).toBe('lexical (embeddings unavailable)');
        // the why is the operator's: in the log, not in the agent's answer
        expect(lines.some((l) => l.includes('"embeddings_fallback"') && /did not answer within 300 ms/.test(l))).toBe(true);
      } finally {
        await conn.close();
      }
    });

    test('after a failure the endpoint is skipped for the cool-down, so later searches do not wait', async () => {
      fake.behaviour = 'stall';
      const { conn } = await connect(config({ queryTimeoutMs: 300, ...ASK_EVERY_QUERY }), { cooldownMs: 60_000 });
      try {
        await call(conn.client, 'search_tools', { query: 'list customers' });
        const requests = fake.requests;
        // Skipped, not waited for: the endpoint gets no request at all during the cool-down.
        const r = await call(conn.client, 'search_tools', { query: 'create a customer' });
        expect(r.value.mode).toBe('lexical (embeddings unavailable)');
        expect(fake.requests).toBe(requests);
      } finally {
        await conn.close();
      }
    });

    test('gated (the default): a confident lexical answer never asks the endpoint; an unsure one does, and falls back when it is down', async () => {
      const up = await connect(config());
      try {
        const before = fake.requests;
        const sure = await call(up.conn.client, 'search_tools', { query: 'list invoices' });
        expect(sure.value.mode).toBe('lexical (confident)');
        expect(sure.value.results[0].name).toMatch(/listInvoices$/);
        expect(fake.requests).toBe(before);
        const unsure = await call(up.conn.client, 'search_tools', { query: 'hibernate my membership' });
        expect(unsure.value.mode).toBe('hybrid (gated)');
        expect(fake.requests).toBe(before + 1);
      } finally {
        await up.conn.close();
      }
      lines.length = 0;
      const down = await connect(config({ url: `${await closedPortUrl()}/embeddings` }), { cooldownMs: 0 });
      try {
        const sure = await call(down.conn.client, 'search_tools', { query: 'list invoices' });
        expect(sure.value.mode).toBe('lexical (confident)');
        expect(lines.some((l) => l.includes('"embeddings_fallback"'))).toBe(false);
        const unsure = await call(down.conn.client, 'search_tools', { query: 'hibernate my membership' });
        expect(unsure.success).toBe(true);
        expect(unsure.value.mode).toBe('lexical (embeddings unavailable)');
        expect(lines.filter((l) => l.includes('"embeddings_fallback"'))).toHaveLength(1);
      } finally {
        await down.conn.close();
      }
    });

    test('endpoint down (connection refused): lexical answer, a rate-limited warning naming the endpoint', async () => {
      lines.length = 0;
      const { conn } = await connect(config({ url: `${await closedPortUrl()}/embeddings`, ...ASK_EVERY_QUERY }), { cooldownMs: 0 });
      try {
        const a = await call(conn.client, 'search_tools', { query: 'list invoices' });
        const b = await call(conn.client, 'search_tools', { query: 'list customers' });
        for (const r of [a, b]) {
          expect(r.success).toBe(true);
          // the agent is told the mode only: not the endpoint, the env var or what the operator should do
          expect(r.value.mode).toBe('lexical (embeddings unavailable)');
          expect(JSON.stringify(r)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|API_CATALOG_|check /);
        }
        expect(a.value.results[0].name).toMatch(/listInvoices$/);
        // the reason is logged once for both searches (at most once a minute), naming the endpoint
        const warnings = lines.filter((l) => l.includes('"embeddings_fallback"'));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain('ECONNREFUSED');
        expect(warnings[0]).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings/);
      } finally {
        await conn.close();
      }
    });

    test.each(['garbage', 'wrong-count', 'not-json', 'error500'] as const)('a bad answer (%s) falls back to lexical', async (behaviour) => {
      fake.behaviour = behaviour;
      const { conn } = await connect(config(ASK_EVERY_QUERY), { cooldownMs: 0 });
      try {
        const r = await call(conn.client, 'search_tools', { query: 'retrieve an invoice' });
        expect(r.success).toBe(true);
        expect(r.value.results[0].name).toMatch(/getInvoice$/);
        expect(r.value.mode).toBe('lexical (embeddings unavailable)');
      } finally {
        await conn.close();
      }
    });

    test('model mismatch: reported at load, in list_domains and in every answer; lexical; the endpoint is not called', async () => {
      lines.length = 0;
      const before = fake.requests;
      const { conn, semantic } = await connect(config({ model: 'fake-embed-small' }));
      try {
        expect(semantic.usable).toBe(false);
        expect(semantic.catalogs[0]?.problem).toMatch(/made with model "fake-embed", the configured model is "fake-embed-small".*api-catalog embed --registry/);
        // the operator gets the why once, at load (the log; serve also prints it on stderr)
        expect(lines.filter((l) => l.includes('"embeddings_mismatch"'))).toHaveLength(1);
        expect(semantic.problems()).toMatch(/^club: the registry's vectors were made with model "fake-embed".*api-catalog embed --registry /);
        // the agent gets the mode alone: no registry folder, model names or operator command
        const d = await call(conn.client, 'list_domains', {});
        expect(d.value.search).toBe('lexical (embeddings not usable)');
        const logged = lines.length;
        const r = await call(conn.client, 'search_tools', { query: 'hibernate my membership' });
        expect(r.success).toBe(true);
        expect(r.value.mode).toBe('lexical (embeddings not usable)');
        expect(JSON.stringify([d, r])).not.toMatch(/api-catalog embed|fake-embed|\/tmp\/|ac-embed-/);
        // and nothing more is logged per search
        expect(lines.slice(logged).filter((l) => l.includes('embeddings_'))).toEqual([]);
        expect(fake.requests).toBe(before);
      } finally {
        await conn.close();
      }
    });

    test('dimensions mismatch and missing vectors are reported the same way', async () => {
      const dims = await connect(config({ dimensions: 32 }));
      expect(dims.semantic.catalogs[0]?.problem).toMatch(/have 64 dimensions, the configured dimensions are 32/);
      await dims.conn.close();
      const bare = tempDir('ac-embed-bare-');
      try {
        expect((await cli(importCli, [SPEC, '--name', 'club', '--out', bare])).code).toBe(0);
        const set = loadCatalogSet([join(bare, 'club')]);
        const s = await attachEmbeddings(set, config());
        expect(s.describe()).toBe('lexical (embeddings not usable)');
        expect(s.problems()).toMatch(/^club: the registry has no operation vectors; run `api-catalog embed/);
      } finally {
        rmSync(bare, { recursive: true, force: true });
      }
    });

    test('vectors made with requested dimensions need the same setting; a model swapped under the same name is caught at the first query', async () => {
      const other = tempDir('ac-embed-48-');
      try {
        const r = await cli(importCli, [SPEC, '--name', 'club', '--out', other, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed', '--embeddings-dimensions', '48'], { API_CATALOG_EMBEDDINGS_KEY: CANARY });
        expect(r.code, r.stderr).toBe(0);
        const without = await attachEmbeddings(loadCatalogSet([join(other, 'club')]), config());
        expect(without.catalogs[0]?.problem).toMatch(/made with 48 dimensions requested; configure --embeddings-dimensions 48/);
        expect((await attachEmbeddings(loadCatalogSet([join(other, 'club')]), config({ dimensions: 48 }))).usable).toBe(true);

        // vectors from a 32-dimension model whose manifest names the 64-dimension one: only the first query can tell
        const swapped = await cli(importCli, [SPEC, '--name', 'club', '--out', other, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed-small'], { API_CATALOG_EMBEDDINGS_KEY: CANARY });
        expect(swapped.code, swapped.stderr).toBe(0);
        const manifestPath = join(other, 'club', 'embeddings.json');
        writeFileSync(manifestPath, readFileSync(manifestPath, 'utf8').replace('"model": "fake-embed-small"', '"model": "fake-embed"'));
        const set = loadCatalogSet([join(other, 'club')]);
        expect((await attachEmbeddings(set, config(ASK_EVERY_QUERY))).usable).toBe(true);
        const conn = await connectInMemory({ catalogs: set }, { era });
        try {
          const a = await call(conn.client, 'search_tools', { query: 'list invoices' });
          expect(a.value.mode).toBe('lexical (embeddings unavailable)');
          expect(a.value.results[0].name).toBe('listInvoices');
        } finally {
          await conn.close();
        }
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    test('several catalogs: prefixed names map to their vectors; a catalog without vectors stays lexical and is named', async () => {
      const set = loadCatalogSet([dir, fixtureRegistry('petstore')]);
      const semantic = await attachEmbeddings(set, config(), { logger });
      expect(semantic.describe()).toBe('hybrid (lexical + embeddings from fake-embed, gated; lexical only for petstore)');
      const conn = await connectInMemory({ catalogs: set }, { era });
      try {
        const r = await call(conn.client, 'search_tools', { query: 'hibernate my membership' });
        expect(r.value.results[0].name).toBe('club.suspendSubscription');
        expect(r.value.results[0].domain).toBe('club.subscriptions');
        const pets = await call(conn.client, 'search_tools', { query: 'create a pet' });
        expect(pets.value.results[0].name).toBe('petstore.pets.create');
        const inDomain = await call(conn.client, 'search_tools', { query: 'hibernate my membership', domain: 'club.invoices' });
        expect(inDomain.value.results.every((h: { domain: string }) => h.domain === 'club.invoices')).toBe(true);
      } finally {
        await conn.close();
      }
    });

    test('the key is registered as a logger secret: a log line that carries it is redacted', async () => {
      const out: string[] = [];
      const l = createLogger({ write: (x) => out.push(x) });
      await attachEmbeddings(loadCatalogSet([dir]), config(), { logger: l });
      l.log('warn', { event: 'x', note: `endpoint said ${CANARY}` });
      expect(out.join('')).not.toContain(CANARY);
      expect(out.join('')).toContain('[REDACTED]');
    });
  });
});
