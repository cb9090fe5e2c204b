// The search log (serve --search-log): lines written through a real MCP client session of each era (2026-07-28 and
// legacy), follow-ups joined to their search, no arguments or credentials in the file, rotation at a size, write
// failures that never break a search, the reader's "no good result first" order, and the serve flags.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/args.js';
import { resolveServerConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { sessionTag } from '../../src/server/create-server.js';
import { readSearchLog, SearchLog, summarizeQueries, type FollowUpLine, type SearchLine } from '../../src/server/search-log.js';
import { ERAS, call, catalogs, connectInMemory, fixtureRegistry, type Connected, type Era } from '../helpers/mcp.js';
import { describeWithHandles } from '../helpers/describe-handles.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

let dir = '';
const open: Connected[] = [];
let up: Upstream;
beforeEach(() => {
  dir = tempDir('ac-searchlog-');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await up?.close();
});

function lines(file: string): Array<SearchLine | FollowUpLine> {
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SearchLine | FollowUpLine);
}

const CANARY_TOKEN = 'canary-upstream-token-7c1f9e2d';

async function session(log: SearchLog, era: Era): Promise<Connected> {
  up ??= await startUpstream();
  const c = await connectInMemory({
    catalogs: catalogs(fixtureRegistry('petstore')),
    settings: { baseUrls: { petstore: up.url }, readOnly: false, env: { PETSTORE_TOKEN: CANARY_TOKEN } },
    rateLimitPerMinute: 0,
    searchLog: log,
  }, { era });
  open.push(c);
  return c;
}

describe.each(ERAS)('%s era', (era: Era) => {
  describe('search log lines', () => {
    test('a search, then describe, dry run and execute of a result: joined by the search id, with the hashed session', async () => {
      const file = join(dir, 'search.jsonl');
      const log = new SearchLog({ file });
      const c = await session(log, era);
      const found = await call(c.client, 'search_tools', { query: 'list pets', limit: 3 });
      expect(found.success).toBe(true);
      const top = found.value.results[0].name as string;
      const described = await describeWithHandles(c.client, [top]);
      expect(described.envelope.success).toBe(true);
      const handle = described.handles[top];
      const args = { status: 'pending', limit: 3 };
      const dry = await call(c.client, 'execute_tool', { tool_name: top, args, dry_run: true, handle });
      expect(dry.success).toBe(true);
      up.route('/pets', { kind: 'status', status: 200, body: [{ id: 1, name: 'response-data-canary' }] });
      const run = await call(c.client, 'execute_tool', { tool_name: top, args, handle });
      expect(run.success).toBe(true);
      // a second describe of the same tool is not logged twice
      await call(c.client, 'describe_tools', { tool_names: [top] });
      log.close();

      const all = lines(file);
      expect(all.map((l) => l.type)).toEqual(['search', 'follow_up', 'follow_up', 'follow_up']);
      const search = all[0] as SearchLine;
      expect(search).toMatchObject({ type: 'search', catalog: 'petstore', query: 'list pets', total: found.value.total });
      expect(search.results).toEqual(found.value.results.map((r: { name: string; score: number }) => ({ name: r.name, score: r.score })));
      // a legacy connection's session, hashed; a 2026-07-28 instance has none and logs per principal (as over HTTP)
      expect(search.session).toBe(sessionTag(era === 'legacy' ? c.app.session.id : 'principal:local'));
      expect(search.id).toMatch(/^[0-9a-f]{12}$/);
      expect(Date.parse(search.time)).not.toBeNaN();
      const follow = all.slice(1) as FollowUpLine[];
      expect(follow.map((f) => [f.action, f.tool, f.rank, f.search])).toEqual([
        ['describe', top, 1, search.id],
        ['dry_run', top, 1, search.id],
        ['execute', top, 1, search.id],
      ]);
      expect(follow[2]?.ok).toBe(true);
      const text = readFileSync(file, 'utf8');
      for (const secret of ['pending', '"limit"', '"args"', CANARY_TOKEN, 'response-data-canary', ...(era === 'legacy' ? [c.app.session.id] : [])]) expect(text).not.toContain(secret);
      // the reader joins them
      const joined = readSearchLog(file);
      expect(joined).toHaveLength(1);
      expect(joined[0]?.followUps.map((f) => f.action)).toEqual(['describe', 'dry_run', 'execute']);
    });

    test('a follow-up points at the latest search that returned the tool; tools never searched get no line', async () => {
      const file = join(dir, 'search.jsonl');
      const log = new SearchLog({ file });
      const c = await session(log, era);
      await call(c.client, 'search_tools', { query: 'list pets' });
      const second = await call(c.client, 'search_tools', { query: 'pets', limit: 25 });
      const name = second.value.results[0].name as string;
      const other = c.app.names.listDomains; // not an operation: no follow-up
      await call(c.client, 'describe_tools', { tool_names: [name] });
      await call(c.client, 'describe_tools', { tool_names: [other] });
      log.close();
      const all = lines(file);
      const searches = all.filter((l): l is SearchLine => l.type === 'search');
      const follow = all.filter((l): l is FollowUpLine => l.type === 'follow_up');
      expect(searches).toHaveLength(2);
      expect(follow).toEqual([expect.objectContaining({ search: searches[1]?.id, tool: name, action: 'describe' })]);
    });

    test('reading resource:///tool_descriptions for a result counts as describing it', async () => {
      const file = join(dir, 'search.jsonl');
      const log = new SearchLog({ file });
      const c = await session(log, era);
      const found = await call(c.client, 'search_tools', { query: 'get a pet' });
      const name = found.value.results[0].name as string;
      await c.client.readResource({ uri: `resource:///tool_descriptions?tools=${encodeURIComponent(name)}` });
      log.close();
      const [search, follow] = lines(file);
      expect(follow).toMatchObject({ type: 'follow_up', search: (search as SearchLine).id, action: 'describe', tool: name, rank: 1 });
    });

    test('credentials pasted into a query are redacted', async () => {
      const file = join(dir, 'search.jsonl');
      const log = new SearchLog({ file, secrets: [CANARY_TOKEN] });
      const c = await session(log, era);
      await call(c.client, 'search_tools', { query: `list pets ${CANARY_TOKEN} Bearer abcdefgh12345678` });
      log.close();
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(CANARY_TOKEN);
      expect(text).not.toContain('abcdefgh12345678');
      expect((lines(file)[0] as SearchLine).query).toBe('list pets [REDACTED] Bearer [REDACTED]');
    });
  });
});

describe('rotation and failures', () => {
  test('rotates to .1 at the size limit, keeps one .1 file, and the reader reads both', () => {
    const file = join(dir, 'search.jsonl');
    const log = new SearchLog({ file, maxBytes: 4096 });
    const results = Array.from({ length: 8 }, (_, i) => ({ name: `op_number_${i}`, score: 0.5 }));
    for (let i = 0; i < 200; i++) log.recordSearch('sess', { catalog: 'c', query: `query ${i}`, total: 8, results });
    log.close();
    expect(statSync(file).size).toBeLessThanOrEqual(4096);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(4096);
    expect(existsSync(`${file}.2`)).toBe(false);
    const read = readSearchLog(file);
    expect(read[0]?.query).toBe('query 199');
    // both files are read: more lines than the live file alone holds
    expect(read.length).toBeGreaterThan(lines(file).length);
    expect(read.every((s, i) => i === 0 || Number(s.query.split(' ')[1]) < Number(read[i - 1]?.query.split(' ')[1]))).toBe(true);
  });

  test.each(ERAS)('a write failure never breaks a search and is reported once (%s era)', async (era) => {
    const sub = join(dir, 'gone');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(sub);
    const file = join(sub, 'search.jsonl');
    const warnings: string[] = [];
    const logger = createLogger({ write: (l) => warnings.push(l), minLevel: 'warn' });
    const log = new SearchLog({ file, logger });
    const c = await session(log, era);
    expect((await call(c.client, 'search_tools', { query: 'list pets' })).success).toBe(true);
    rmSync(sub, { recursive: true, force: true });
    for (let i = 0; i < 3; i++) {
      const r = await call(c.client, 'search_tools', { query: 'list pets' });
      expect(r.success).toBe(true);
      expect(r.value.results.length).toBeGreaterThan(0);
    }
    log.close();
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0] as string)).toMatchObject({ level: 'warn', event: 'search_log_write_failed', error: 'ENOENT' });
  });

  test('a log file that cannot be opened is a clear start-up error', () => {
    expect(() => new SearchLog({ file: join(dir, 'missing-folder', 'log.jsonl') })).toThrow(/search log: cannot open .*ENOENT.*folder exists/);
  });
});

describe('reading: queries with no good result first', () => {
  test('nothing found, then low score, then never used, then the rest', () => {
    const file = join(dir, 'search.jsonl');
    const log = new SearchLog({ file });
    const r = (score: number) => [{ name: 'a', score }];
    const used = log.recordSearch('s1', { catalog: 'c', query: 'good and used', total: 1, results: r(1) });
    log.recordFollowUp('s1', 'describe', ['a']);
    log.recordSearch('s2', { catalog: 'c', query: 'good but unused', total: 1, results: r(1) });
    log.recordSearch('s2', { catalog: 'c', query: 'good but unused', total: 1, results: r(1) });
    log.recordSearch('s3', { catalog: 'c', query: 'weak', total: 1, results: r(0.2) });
    log.recordSearch('s4', { catalog: 'c', query: 'nothing', total: 0, results: [] });
    log.close();
    const summary = summarizeQueries(readSearchLog(file));
    expect(summary.map((q) => [q.query, q.poor, q.searches])).toEqual([
      ['nothing', true, 1],
      ['weak', true, 1],
      ['good but unused', true, 2],
      ['good and used', false, 1],
    ]);
    expect(used).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('serve flags', () => {
  test('--search-log and --search-log-max-bytes (flags win over env); --no-explorer', () => {
    const flags = parseServeArgs(['--http', '--search-log', '/tmp/x.jsonl', '--search-log-max-bytes', '8192', '--no-explorer']);
    const config = resolveServerConfig(flags, { API_CATALOG_SEARCH_LOG: '/tmp/env.jsonl' });
    expect(config.searchLog).toEqual({ file: '/tmp/x.jsonl', maxBytes: 8192 });
    expect(config.http?.explorer).toBe(false);
    const fromEnv = resolveServerConfig(parseServeArgs(['--http']), { API_CATALOG_SEARCH_LOG: '/tmp/env.jsonl' });
    expect(fromEnv.searchLog).toEqual({ file: '/tmp/env.jsonl', maxBytes: 10 * 1024 * 1024 });
    expect(fromEnv.http?.explorer).toBe(true);
    expect(resolveServerConfig(parseServeArgs([]), {}).searchLog).toBeUndefined();
  });

  test('bad values are clear errors', () => {
    expect(() => resolveServerConfig(parseServeArgs(['--search-log-max-bytes', '9000']), {})).toThrow(/--search-log-max-bytes needs --search-log/);
    expect(() => resolveServerConfig(parseServeArgs(['--search-log', 'x', '--search-log-max-bytes', '12']), {})).toThrow(/--search-log-max-bytes must be an integer >= 4096/);
    expect(() => parseServeArgs(['--search-log'])).toThrow(/--search-log needs a value/);
  });
});
