// Start-up path end to end: registries imported with the built CLI (which writes search.snapshot), served from the
// snapshot with lazily read operations, rank every query of every eval set exactly as an index built from scratch;
// a missing, stale, damaged or unreadable snapshot is rebuilt in memory with a warning, never trusted.
import { cpSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { defaultCatalogDir, loadCatalog } from '../../src/registry/catalog.js';
import { registryContentHash } from '../../src/registry/files.js';
import { encodeSnapshot, SNAPSHOT_FILE } from '../../src/registry/snapshot.js';
import { SearchIndex } from '../../src/search/index.js';
import { loadServerConfig } from '../../src/config.js';
import { buildCatalogSet, loadCatalogSet, settingsFromConfig, writeSearchSnapshot, type CatalogSet } from '../../src/server/core/catalogs.js';
import { listDomains } from '../../src/server/core/domains.js';
import { toolNames } from '../../src/server/core/names.js';
import { builtCli, connectTracedServe, REPO_ROOT } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
/** Every query text of every eval set: the search fixtures and the held-out sets copied into test/fixtures/eval. */
const QUERY_FILES = ['search', 'eval'].flatMap((d) =>
  readdirSync(join(FIXTURES, d))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(FIXTURES, d, f)),
);
const QUERIES = [
  ...new Set(
    QUERY_FILES.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => (JSON.parse(l) as { query: string }).query),
    ),
  ),
];
/** Catalogs whose specs ship with the repository (test/fixtures/real-specs; no network): every query runs against each. */
const SPECS: Array<[string, string]> = ['stripe', 'vimeo', 'sendgrid', 'launchdarkly'].map((name) => [name, join(FIXTURES, 'real-specs', `${name}.json`)]);

let out: string;
beforeAll(async () => {
  out = tempDir('startup-snapshot-');
  for (const [name, spec] of SPECS) {
    const r = await runProcess(process.execPath, [builtCli(), 'import', spec, '--name', name, '--out', out], { cwd: REPO_ROOT });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`search index snapshot: .*${name}/search\\.snapshot`));
  }
}, 300_000);

/** A logger that keeps its lines (the warnings a server prints on stderr). */
function captured(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return { logger: createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>), minLevel: 'debug' }), lines };
}

/**
 * The served set's rankings (snapshot, lazy operations) against an index built from a separate load. Thousands of
 * searches twice: about 10 s on a quiet machine, so these tests get RANKING_TIMEOUT_MS, a guard against a hang
 * sized for a machine busy with other work (a load of 11 took one past the default 60 s), not a speed check.
 */
const RANKING_TIMEOUT_MS = 300_000;
function expectIdenticalRankings(set: CatalogSet, dir: string): void {
  const fresh = loadCatalog(dir);
  const reference = SearchIndex.build(fresh.operations, buildCatalogSet([fresh]).domains);
  expect(QUERIES.length).toBeGreaterThan(500);
  for (const q of QUERIES) expect(set.index.search(q, { limit: 10 }), q).toEqual(reference.search(q, { limit: 10 }));
  expect(set.indexSource?.kind).toBe('snapshot');
}

describe('search snapshot on the start-up path', () => {
  test('the committed GitHub registry: its snapshot verifies, and every eval query ranks as a fresh build', () => {
    const { logger, lines } = captured();
    const set = loadCatalogSet([], { logger });
    expectIdenticalRankings(set, defaultCatalogDir());
    expect(lines.find((l) => l.event === 'search_index')).toMatchObject({ level: 'info', source: 'snapshot', operations: 1223 });
    // the hash the snapshot is tied to is the registry's content, computed the same way from the files alone
    expect(set.catalogs[0]?.contentHash).toBe(registryContentHash(defaultCatalogDir()));
  }, RANKING_TIMEOUT_MS);

  test.each(SPECS.map(([name]) => name))('%s imported by the CLI: every eval query ranks as a fresh build', (name) => {
    const set = loadCatalogSet([join(out, name)]);
    expectIdenticalRankings(set, join(out, name));
  }, RANKING_TIMEOUT_MS);

  test('import --check passes with the written snapshot and fails when it is missing', async () => {
    const check = () => runProcess(process.execPath, [builtCli(), 'import', SPECS[3]![1], '--name', 'launchdarkly', '--out', out, '--check'], { cwd: REPO_ROOT });
    expect((await check()).status).toBe(0);
    const dir = join(out, 'launchdarkly');
    const saved = readFileSync(join(dir, SNAPSHOT_FILE));
    rmSync(join(dir, SNAPSHOT_FILE));
    const r = await check();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/search\.snapshot is missing; run `(?:node \S+|npx api-catalog|api-catalog) import .*launchdarkly\.json --name launchdarkly --out/);
    writeFileSync(join(dir, SNAPSHOT_FILE), saved);
  });
});

describe('a snapshot that does not fit is rebuilt in memory with a warning', () => {
  /** A private copy of the GitHub registry with its snapshot. */
  function copy(): string {
    const dir = join(tempDir('gh-'), 'github');
    cpSync(defaultCatalogDir(), dir, { recursive: true });
    return dir;
  }

  function served(dir: string): { set: CatalogSet; warning: Record<string, unknown> | undefined } {
    const { logger, lines } = captured();
    const set = loadCatalogSet([dir], { logger });
    void set.index;
    return { set, warning: lines.find((l) => l.event === 'search_index' && l.level === 'warn') };
  }

  test('stale: an operation edited after the snapshot was written (registry hash differs)', () => {
    const dir = copy();
    const file = join(dir, 'operations', 'issues.json');
    const ops = JSON.parse(readFileSync(file, 'utf8')) as Array<{ name: string; summary: string }>;
    const target = ops.find((o) => o.name === 'issues_create')!;
    target.summary = 'Open a zebra ticket';
    writeFileSync(file, JSON.stringify(ops, null, 2) + '\n');
    const { set, warning } = served(dir);
    expect(set.indexSource).toMatchObject({ kind: 'built' });
    expect(warning?.reason).toMatch(/search snapshot refused \(stale\).*api-catalog import <spec> --name github --out/);
    // the rebuilt index knows the edit (a trusted stale snapshot would not)
    expect(set.index.search('zebra ticket', { limit: 1 }).results[0]?.name).toBe('issues_create');
  });

  test('a same-size edit is stale too: the file\'s modification time changed, so its content is hashed', () => {
    const dir = copy();
    const file = join(dir, 'operations', 'issues.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"Create an issue"', '"Create an ISSUE"'));
    expect(statSync(file).size).toBe(Buffer.byteLength(text));
    const { set, warning } = served(dir);
    expect(set.indexSource).toMatchObject({ kind: 'built' });
    expect(warning?.reason).toMatch(/refused \(stale\)/);
  });

  test('a copy with new modification times but the same content: the content hash matches, the snapshot is used', () => {
    const dir = copy();
    const future = new Date(Date.now() + 3_600_000);
    for (const f of readdirSync(join(dir, 'operations'))) utimesSync(join(dir, 'operations', f), future, future);
    const { set, warning } = served(dir);
    expect(warning).toBeUndefined();
    expect(set.indexSource).toMatchObject({ kind: 'snapshot' });
  });

  test('untouched files (same sizes, times and inodes as recorded at import) are not read again', () => {
    const dir = copy();
    const file = join(dir, 'operations', 'issues.json');
    const when = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, when, when);
    writeSearchSnapshot(dir, 'test');
    // Shown by a snapshot whose header names other content but the files' stat signature: trusted on the signature
    // alone, nothing read or hashed (hashing would find the registry hash wrong and refuse it as stale).
    const snapshot = join(dir, SNAPSHOT_FILE);
    const bytes = readFileSync(snapshot);
    const headerBytes = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.subarray(12, 12 + headerBytes).toString()) as { statSignature: string; registryHash: string };
    writeFileSync(snapshot, encodeSnapshot(bytes.subarray(12 + headerBytes), { registryHash: 'f'.repeat(64), statSignature: header.statSignature }));
    const untouched = served(dir).set;
    expect(untouched.indexSource).toMatchObject({ kind: 'snapshot' });
    expect(untouched.catalogs[0]?.parsedFiles?.()).toEqual([]);
    // An edit in place that keeps the size and puts the modification time back (a normalised mtime: touch -d, cp -p,
    // tar, reproducible images) changes the file's change time, which no tool can put back: the content is hashed.
    writeSearchSnapshot(dir, 'test');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"Create an issue"', '"Create an ISSUE"'));
    utimesSync(file, when, when);
    const { set, warning } = served(dir);
    expect(set.indexSource).toMatchObject({ kind: 'built' });
    expect(warning?.reason).toMatch(/refused \(stale\)/);
  });

  test('a fresh copy is hashed once: the verified stat signature is kept in the cache folder and the next start reads no file', () => {
    const dir = copy();
    const cache = tempDir('verified-');
    const file = join(dir, 'operations', 'issues.json');
    // a whole-second time, so that it can be put back exactly below (a Date has no nanoseconds)
    const when = new Date('2026-02-03T04:05:06Z');
    utimesSync(file, when, when);
    const start = (withCache: boolean) => {
      const { logger } = captured();
      const set = loadCatalogSet([dir], { logger, ...(withCache ? { indexCache: cache } : {}) });
      void set.index;
      return set.indexSource?.kind;
    };
    // new modification times (a clone, an install): the content hash decides, and the signature is remembered
    expect(start(true)).toBe('snapshot');
    expect(readdirSync(cache)).toEqual([expect.stringMatching(/^verified-[0-9a-f]{24}\.json$/)]);
    // the next start hashes nothing: a hash that matched would be remembered again, in a new file
    const verified = join(cache, readdirSync(cache)[0]!);
    const remembered = statSync(verified, { bigint: true }).ino;
    expect(start(true)).toBe('snapshot');
    expect(statSync(verified, { bigint: true }).ino).toBe(remembered);
    // an edit that keeps the size and puts the time back changes the change time: hashed, stale, built
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"Create an issue"', '"Create an ISSUE"'));
    utimesSync(file, when, when);
    expect(start(true)).toBe('built');
    expect(start(false)).toBe('built');
    // a real edit changes the signature: hashed again, stale, built (and nothing stale is remembered)
    writeFileSync(file, text.replace('"Create an issue"', '"Open a zebra ticket"'));
    expect(start(true)).toBe('built');
  });

  test('damaged: one flipped payload byte fails the checksum', () => {
    const dir = copy();
    const bytes = readFileSync(join(dir, SNAPSHOT_FILE));
    const at = bytes.length - 1000;
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    writeFileSync(join(dir, SNAPSHOT_FILE), bytes);
    const { set, warning } = served(dir);
    expect(set.indexSource).toMatchObject({ kind: 'built' });
    expect(warning?.reason).toMatch(/refused \(checksum\)/);
    expect(set.index.search('create an issue', { limit: 1 }).results[0]?.name).toBe('issues_create');
  });

  test('unreadable payload under a valid container (another search build): refused by the search layer, rebuilt', () => {
    const dir = copy();
    writeFileSync(join(dir, SNAPSHOT_FILE), encodeSnapshot(new Uint8Array(64), { registryHash: registryContentHash(dir) }));
    const { set, warning } = served(dir);
    expect(set.indexSource).toMatchObject({ kind: 'built' });
    expect(warning?.reason).toMatch(/search snapshot refused: search snapshot/);
  });

  test('missing: built, with a warning naming the import command', () => {
    const dir = copy();
    rmSync(join(dir, SNAPSHOT_FILE));
    const { set, warning } = served(dir);
    expect(set.indexSource).toMatchObject({ kind: 'built', reason: 'no search snapshot' });
    expect(warning?.reason).toMatch(/^no search snapshot; `api-catalog import/);
  });

  test('several catalogs share one namespace: their index is built (no single snapshot describes it), quietly', () => {
    const { logger, lines } = captured();
    const set = loadCatalogSet([defaultCatalogDir(), join(out, 'launchdarkly')], { logger });
    void set.index;
    expect(set.indexSource).toMatchObject({ kind: 'built', reason: 'several catalogs' });
    expect(lines.some((l) => l.level === 'warn')).toBe(false);
  });
});

describe('lazy loading', () => {
  test('operations are read on first use: a damaged operations file is reported then, with the file and the fix', () => {
    const dir = join(tempDir('bad-'), 'github');
    cpSync(defaultCatalogDir(), dir, { recursive: true });
    writeFileSync(join(dir, 'operations', 'repos.json'), '[{"name": ');
    const set = loadCatalogSet([dir]);
    expect(set.domains.length).toBe(47);
    expect(() => set.operations).toThrow(/operations\/repos\.json is not valid JSON; re-run the import/);
    expect(() => set.index).toThrow(/not valid JSON/);
  });

  test('a search from the snapshot parses no operations file; a lookup by name parses only its domain\'s', () => {
    const set = loadCatalogSet([]);
    const catalog = set.catalogs[0]!;
    expect(set.index.search('create an issue', { limit: 5 }).results[0]?.name).toBe('issues_create');
    expect(set.index.search('', { domain: 'gists', limit: 3 }).total).toBeGreaterThan(0);
    expect(set.names).toContain('repos_get');
    expect(set.indexSource?.kind).toBe('snapshot');
    // list_domains names the credentials from catalog.json (the import recorded the security lists)
    const domains = listDomains(set, {}, toolNames(), { settings: settingsFromConfig(loadServerConfig({}, {}).config, set, {}) });
    expect(domains).toMatchObject({ success: true, value: { credentials: [{ scheme: '(default bearer)', envVars: ['GITHUB_TOKEN'], set: false }] } });
    expect(catalog.parsedFiles?.()).toEqual([]);
    const entry = set.byName.get('issues_create');
    expect(entry?.op.method).toBe('post');
    expect(entry?.op.inputSchema.required).toEqual(['owner', 'repo', 'title']);
    expect(set.byName.get('issues_create')).toBe(entry);
    expect(set.byName.has('issues_no-such-operation')).toBe(false);
    expect(catalog.parsedFiles?.()).toEqual(['issues.json']);
    // the whole list reads every file once, and keeps the objects a lookup already handed out
    expect(set.operations).toHaveLength(1223);
    expect(catalog.parsedFiles?.()).toHaveLength(47);
    expect(set.byName.get('issues_create')?.op).toBe(entry?.op);
  });

  test('without a usable snapshot, a lookup by name reads the operations but builds no index', () => {
    const dir = join(tempDir('nosnap-'), 'github');
    cpSync(defaultCatalogDir(), dir, { recursive: true });
    rmSync(join(dir, SNAPSHOT_FILE));
    const set = loadCatalogSet([dir]);
    expect(set.byName.get('issues_create')?.op.method).toBe('post');
    expect(set.indexSource).toBeUndefined();
    expect(set.catalogs[0]?.parsedFiles?.()).toHaveLength(47);
    expect(set.index.search('create an issue', { limit: 1 }).results[0]?.name).toBe('issues_create');
    expect(set.indexSource).toMatchObject({ kind: 'built', reason: 'no search snapshot' });
  });

  test('the bundled server over stdio answers search_tools from the snapshot as a fresh build ranks, and traces its start-up', async () => {
    const { client, stderr, trace: traced } = await connectTracedServe([]);
    try {
      expect((await client.listTools()).tools).toHaveLength(4);
      const c = loadCatalog(defaultCatalogDir());
      const reference = SearchIndex.build(c.operations, buildCatalogSet([c]).domains);
      for (const q of QUERIES.slice(0, 60)) {
        const r = await client.callTool({ name: 'search_tools', arguments: { query: q, limit: 5 } });
        const value = (r.structuredContent as { value: { results: Array<{ name: string }> } }).value;
        expect(value.results.map((h) => h.name), q).toEqual(reference.search(q, { limit: 5 }).results.map((h) => h.name));
      }
      const trace = await traced();
      expect(trace.index.kind).toBe('snapshot');
      expect(trace.parsedFiles).toBe(0);
      expect(Object.keys(trace.marks)).toEqual(expect.arrayContaining(['node-bootstrap', 'cli', 'serve-module', 'catalogs', 'connected', 'tools-list', 'index-ready']));
      expect(stderr()).toMatch(/"event":"search_index".*"source":"snapshot"/);
    } finally {
      await client.close();
    }
  }, 60_000);
});
