// The parts of the embeddings option on their own: settings (and that the key never shows), the float16 store
// (deterministic bytes, damage detected), the client's retries and response checks (against the loopback
// endpoint), and the three fusions.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DenseIndex, EmbeddingsClient, FUSIONS, GATE_SCORE, decodeVectors, embedRegistry, encodeVectors, endpointUrl, hybridSearch, normalize, operationText,
  operationTexts, parseEmbeddingsResponse, readEmbeddings, resolveEmbeddingsConfig, toHalf, writeEmbeddings, type Hit, type LexicalSearcher,
} from '../../src/embeddings/index.js';
import { AppError } from '../../src/errors.js';
import { LOW_CONFIDENCE_SCORE } from '../../src/search/index.js';
import { createLogger } from '../../src/logger.js';
import { loadCatalog } from '../../src/registry/catalog.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { startEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/embeddings-server.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'sk-unit-canary-55aa77bb99cc';

function errorOf(f: () => unknown): AppError {
  try {
    f();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('settings', () => {
  test('off without a URL; URL + model from flags or env; /embeddings appended unless given; Azure query kept', () => {
    expect(resolveEmbeddingsConfig({}, {})).toBeUndefined();
    const c = resolveEmbeddingsConfig({}, { API_CATALOG_EMBEDDINGS_URL: 'http://localhost:11434/v1/', API_CATALOG_EMBEDDINGS_MODEL: 'nomic-embed-text' });
    expect(c).toMatchObject({ url: 'http://localhost:11434/v1/embeddings', model: 'nomic-embed-text', queryTimeoutMs: 1500, batchSize: 64, fusion: 'gated', auth: 'bearer' });
    expect(c?.key).toBeUndefined();
    const azure = 'https://res.openai.azure.com/openai/deployments/emb/embeddings?api-version=2024-02-01';
    expect(endpointUrl(azure)).toBe(azure);
    const f = resolveEmbeddingsConfig({ url: 'https://api.openai.com/v1', model: 'text-embedding-3-small', dimensions: '256', fusion: 'rrf' }, { API_CATALOG_EMBEDDINGS_MODEL: 'x', API_CATALOG_EMBEDDINGS_AUTH: 'api-key', API_CATALOG_EMBEDDINGS_TIMEOUT_MS: '800' });
    expect(f).toMatchObject({ model: 'text-embedding-3-small', dimensions: 256, fusion: 'rrf', auth: 'api-key', queryTimeoutMs: 800 });
  });

  test('bad settings are CONFIG_INVALID with the fix, and never echo a key put in the URL', () => {
    expect(errorOf(() => resolveEmbeddingsConfig({ url: 'http://x/v1' }, {})).message).toMatch(/no model; pass --embeddings-model/);
    expect(errorOf(() => resolveEmbeddingsConfig({ model: 'm' }, {})).message).toMatch(/--embeddings-model needs --embeddings-url/);
    expect(errorOf(() => resolveEmbeddingsConfig({ url: 'ftp://x', model: 'm' }, {})).code).toBe('CONFIG_INVALID');
    const userinfo = errorOf(() => resolveEmbeddingsConfig({ url: `https://user:${KEY}@api.example/v1`, model: 'm' }, {}));
    expect(userinfo.message).toMatch(/put the key in API_CATALOG_EMBEDDINGS_KEY/);
    expect(userinfo.message).not.toContain(KEY);
    expect(errorOf(() => resolveEmbeddingsConfig({ url: 'http://x', model: 'm', dimensions: '-3' }, {})).message).toMatch(/dimensions must be a whole number/);
    expect(errorOf(() => resolveEmbeddingsConfig({ url: 'http://x', model: 'm', fusion: 'max' }, {})).message).toMatch(/one of "gated", "mix", "rrf"/);
  });
});

describe('store', () => {
  let dir = '';
  beforeAll(() => {
    dir = tempDir('ac-embed-store-');
  });

  test('float16 round-trips unit vectors within 1e-3 and rounds like IEEE (1, -2, 65504, tiny, overflow)', () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(65504)).toBe(0x7bff);
    expect(toHalf(1e6)).toBe(0x7c00);
    expect(toHalf(2 ** -24)).toBe(1);
    const rows = [new Float32Array([0.3, -0.4, 0.5, 0.1]), new Float32Array([1, 2, 3, 4])];
    const back = decodeVectors(encodeVectors(rows, 4), 2, 4);
    for (const [r, row] of rows.entries()) {
      const unit = normalize(row);
      for (let i = 0; i < 4; i++) expect(Math.abs((back[r * 4 + i] as number) - (unit[i] as number))).toBeLessThan(1e-3);
    }
  });

  test('the same vectors give the same bytes; a damaged or swapped bin is detected with the fix', () => {
    const ops = loadCatalog(fixtureRegistry('petstore')).operations;
    const t = operationTexts(ops);
    const vectors = t.texts.map((_, i) => new Float32Array([i + 1, 1, -1, 0.5]));
    writeEmbeddings(dir, { model: 'm', ...t }, vectors);
    const a = readFileSync(join(dir, 'embeddings.bin'));
    const m1 = readFileSync(join(dir, 'embeddings.json'), 'utf8');
    writeEmbeddings(dir, { model: 'm', ...t }, vectors);
    expect(readFileSync(join(dir, 'embeddings.bin')).equals(a)).toBe(true);
    expect(readFileSync(join(dir, 'embeddings.json'), 'utf8')).toBe(m1);
    expect(readEmbeddings(dir)?.manifest.operations.map((o) => o.name)).toEqual(t.names);
    const damaged = Buffer.from(a);
    damaged[3] = (damaged[3] as number) ^ 0xff;
    writeFileSync(join(dir, 'embeddings.bin'), damaged);
    expect(errorOf(() => readEmbeddings(dir)).message).toMatch(/does not match embeddings.json; run `api-catalog embed --registry/);
  });

  test('the embedded text: summary first, name words, description head, method and path, domain', () => {
    const op = loadCatalog(fixtureRegistry('petstore')).operations[0]!;
    const text = operationText(op);
    expect(text.split('\n')[0]).toBe(op.summary);
    expect(text).toContain(`${op.method.toUpperCase()} ${op.path}`);
    expect(text).toContain(`domain: ${op.domain}`);
    expect(operationTexts([op]).fingerprint).not.toBe(operationTexts([{ ...op, summary: op.summary + ' now' }]).fingerprint);
  });
});

describe('client against the loopback endpoint', () => {
  let fake: FakeEmbeddingsServer;
  beforeAll(async () => {
    fake = await startEmbeddingsServer({ requiredKey: KEY });
  });
  afterAll(() => fake.close());

  const client = (over: Record<string, string> = {}, logger = createLogger()) =>
    new EmbeddingsClient(resolveEmbeddingsConfig({ url: fake.url, model: 'fake-embed' }, { API_CATALOG_EMBEDDINGS_KEY: KEY, ...over })!, { logger, backoffMs: () => 5 });

  test('import mode retries 429s with back-off and places rows by index (the server answers in reverse order)', async () => {
    const lines: string[] = [];
    fake.fail429 = 2;
    const before = fake.requests;
    const got = await client({}, createLogger({ write: (l) => lines.push(l) })).embed(['list invoices', 'create a customer', 'suspend a subscription'], 'import');
    expect(fake.requests - before).toBe(3);
    expect(got.vectors).toHaveLength(3);
    const q = (await client().embed(['create a customer'], 'query')).vectors[0]!;
    expect(Array.from(got.vectors[1]!)).toEqual(Array.from(q));
    expect(lines.filter((l) => l.includes('embeddings_retry'))).toHaveLength(2);
    expect(lines.join('')).not.toContain(KEY);
  });

  test('query mode does not retry; the error names the endpoint and what to do', async () => {
    fake.fail429 = 1;
    const before = fake.requests;
    await expect(client().embed(['x y z'], 'query')).rejects.toThrow(/answered HTTP 429 \(rate limited\)/);
    expect(fake.requests - before).toBe(1);
    fake.fail429 = 0;
  });

  test('an unknown model: the endpoint message and the model name, no retries', async () => {
    const c = new EmbeddingsClient(resolveEmbeddingsConfig({ url: fake.url, model: 'no-such-model' }, { API_CATALOG_EMBEDDINGS_KEY: KEY })!);
    await expect(c.embed(['a'], 'import')).rejects.toThrow(/HTTP 404 \(model "no-such-model" not found, try pulling it first\); check the URL and the model name/);
  });

  test('Azure style: the key goes in the api-key header', async () => {
    await client({ API_CATALOG_EMBEDDINGS_AUTH: 'api-key' }).embed(['a b c'], 'query');
    expect(fake.authHeaders.at(-1)).toBe(`api-key ${KEY}`);
  });

  test('responses that break the protocol are UPSTREAM_RESPONSE_INVALID naming what is wrong', () => {
    const bad = (body: unknown, n = 1) => errorOf(() => parseEmbeddingsResponse(JSON.stringify(body), n, 'http://h/v1/embeddings'));
    expect(bad({}).message).toMatch(/no "data" array/);
    expect(bad({ data: [{ index: 0, embedding: [1, 'x'] }] }).message).toMatch(/not a finite number/);
    expect(bad({ data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }] }, 2).message).toMatch(/repeated index/);
    expect(bad({ data: [{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [1] }] }, 2).message).toMatch(/1 dimensions, expected 2/);
    expect(bad({ data: [{ index: 0, embedding: [0, 0] }] }).message).toMatch(/all zeros/);
    expect(bad({ data: [] }).code).toBe('UPSTREAM_RESPONSE_INVALID');
  });

  test('embedRegistry with batches: one request per batch, deterministic files', async () => {
    const dir = tempDir('ac-embed-batch-');
    try {
      const ops = loadCatalog(fixtureRegistry('zoo')).operations;
      const before = fake.requests;
      const r = await embedRegistry(dir, ops, client({ API_CATALOG_EMBEDDINGS_BATCH: '2' }));
      expect(fake.requests - before).toBe(Math.ceil(ops.length / 2));
      expect(r).toMatchObject({ embedded: ops.length, reused: 0, unchanged: false });
      const again = await embedRegistry(dir, ops, client());
      expect(again.unchanged).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fusion', () => {
  const entries = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, domain: name === 'e' ? 'other' : 'main', summary: name, requiredParams: [] }));
  // unit vectors: dense order for the query [1,0] is b, d, c, a, e (e orthogonal); lexical order a, b
  const rows = [[0.2, 1], [1, 0.05], [1, 1], [1, 0.3], [0, 1]].map((r) => normalize(new Float32Array(r)));
  const matrix = new Float32Array(rows.flatMap((r) => Array.from(r)));
  const dense = new DenseIndex(entries, matrix, 2);
  const lexHits: Hit[] = [
    { name: 'a', domain: 'main', summary: 'a', requiredParams: [], score: 1 },
    { name: 'b', domain: 'main', summary: 'b', requiredParams: [], score: 0.5 },
  ];
  const lexical: LexicalSearcher = {
    search: (_q, o) => {
      const list = lexHits.filter((h) => o?.domain === undefined || h.domain === o.domain);
      return { results: list.slice(o?.offset ?? 0, (o?.offset ?? 0) + (o?.limit ?? 10)), total: list.length };
    },
  };
  const q = new Float32Array([1, 0]);

  test('rrf: an operation high in both lists wins; dense-only candidates join; scores in 0..1', () => {
    const r = hybridSearch(lexical, dense, q, 'query', { fusion: 'rrf' });
    expect(r.results.map((h) => h.name)).toEqual(['b', 'a', 'd', 'c', 'e']);
    expect(r.total).toBe(5);
    for (const h of r.results) expect(h.score).toBeGreaterThan(0), expect(h.score).toBeLessThanOrEqual(1);
  });

  test('mix: lexical score and min-max cosine, half each', () => {
    const r = hybridSearch(lexical, dense, q, 'query', { fusion: 'mix' });
    expect(r.results[0]?.name).toBe('b');
    expect(r.results.map((h) => h.name)).toContain('d');
  });

  test('gated: a confident lexical answer (best score >= GATE_SCORE) is the answer, page for page', () => {
    expect(lexHits[0]?.score).toBeGreaterThanOrEqual(GATE_SCORE);
    for (const [limit, offset] of [[10, 0], [1, 0], [1, 1]] as const) {
      const r = hybridSearch(lexical, dense, q, 'query', { fusion: 'gated', limit, offset });
      expect(r).toEqual(lexical.search('query', { limit, offset }));
    }
  });

  test('gated: an unsure lexical answer (best score under GATE_SCORE) mixes like mix', () => {
    const unsure: LexicalSearcher = {
      search: (qq, o) => {
        const page = lexical.search(qq, o);
        return { ...page, results: page.results.map((h) => ({ ...h, score: h.score * 0.3 })) };
      },
    };
    expect(0.3).toBeLessThan(GATE_SCORE);
    const gated = hybridSearch(unsure, dense, q, 'query', { fusion: 'gated' }).results;
    const mixed = hybridSearch(unsure, dense, q, 'query', { fusion: 'mix' }).results;
    expect(gated).toEqual(mixed);
    expect(gated[0]?.name).toBe('b');
    // the gate is the search's own low-confidence threshold: one notion of "unsure" for agents and for fusion
    expect(GATE_SCORE).toBe(LOW_CONFIDENCE_SCORE);
  });

  test('an operation without a vector (a catalog not embedded) keeps its lexical standing under every fusion', () => {
    const withF: LexicalSearcher = {
      search: (_q, o) => {
        const list = [{ name: 'f', domain: 'main', summary: 'f', requiredParams: [], score: 1 }, ...lexHits.map((h) => ({ ...h, score: h.score * 0.3 }))];
        return { results: list.slice(o?.offset ?? 0, (o?.offset ?? 0) + (o?.limit ?? 10)), total: list.length };
      },
    };
    for (const fusion of FUSIONS) {
      const r = hybridSearch(withF, dense, q, 'query', { fusion });
      expect(r.results[0], fusion).toMatchObject({ name: 'f' });
      // gated: f's score 1 is a confident answer, which is the lexical one (no dense neighbour joins it)
      expect(r.results.map((h) => h.name).includes('d'), fusion).toBe(fusion !== 'gated');
    }
  });

  test('exact names stay first; the domain filter holds; paging slices the fused list', () => {
    expect(hybridSearch(lexical, dense, q, 'a', { fusion: 'rrf', exact: 'a' }).results[0]).toMatchObject({ name: 'a', score: 1 });
    expect(hybridSearch(lexical, dense, q, 'q', { fusion: 'rrf', domain: 'other' }).results.map((h) => h.name)).toEqual(['e']);
    const all = hybridSearch(lexical, dense, q, 'q', { fusion: 'rrf' }).results.map((h) => h.name);
    const paged = [0, 2, 4].flatMap((offset) => hybridSearch(lexical, dense, q, 'q', { fusion: 'rrf', limit: 2, offset }).results.map((h) => h.name));
    expect(paged).toEqual(all);
    expect(hybridSearch(lexical, dense, q, '', { fusion: 'rrf', domain: 'main' }).results.map((h) => h.name)).toEqual(['a', 'b']);
  });

  test('keywords reach every lexical read (as search_tools passes them without embeddings); none: no keywords option', () => {
    const seen: Array<readonly string[] | undefined> = [];
    const spy: LexicalSearcher = { search: (qq, o) => (seen.push(o?.keywords), lexical.search(qq, o)) };
    for (const fusion of FUSIONS) {
      hybridSearch(spy, dense, q, 'query', { fusion, keywords: ['alias', 'other'], limit: 2, offset: 4 });
      hybridSearch(spy, dense, q, '', { fusion, keywords: ['alias'], domain: 'main' });
    }
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const k of seen) expect(k?.[0]).toBe('alias');
    seen.length = 0;
    hybridSearch(spy, dense, q, 'query', { fusion: 'mix', keywords: [] });
    expect(seen.every((k) => k === undefined)).toBe(true);
  });
});

describe('start-up cost when not configured', () => {
  test('the server, search and the serve/search/eval commands load src/embeddings only through import() or `import type`', async () => {
    const { readdirSync, readFileSync: read } = await import('node:fs');
    const src = join(import.meta.dirname, '..', '..', 'src');
    const files = [
      ...readdirSync(join(src, 'server'), { recursive: true }).map((f) => join(src, 'server', String(f))),
      ...readdirSync(join(src, 'search'), { recursive: true }).map((f) => join(src, 'search', String(f))),
      ...['serve.ts', 'serve-reload.ts', 'index.ts', 'search.ts', 'eval.ts', 'eval-embeddings.ts'].map((f) => join(src, 'cli', f)),
    ].filter((f) => f.endsWith('.ts'));
    const eager: string[] = [];
    let lazy = 0;
    for (const f of files) {
      const text = read(f, 'utf8');
      for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)(\s+type)?\s[^;]*?from\s+['"]([^'"]*\/embeddings\/[^'"]*)['"]/g)) {
        if (m[1] === undefined) eager.push(`${f}: ${m[2]}`);
      }
      lazy += [...text.matchAll(/\bimport\(\s*['"][^'"]*\/embeddings\/[^'"]*['"]\s*\)/g)].length;
    }
    expect(eager).toEqual([]);
    expect(lazy).toBeGreaterThanOrEqual(4); // catalogs.ts, serve-reload.ts, search.ts, eval-embeddings.ts
  });
});
