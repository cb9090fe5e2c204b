// HAProxy's retries with the shipped deploy/haproxy.cfg (issue 24 item 6), run for real: two `serve --http`
// replicas behind it, one SIGKILLed while it is answering. A 2026-07-28 request that only reads (search_tools, held
// in the replica by its embeddings endpoint, so the replica has taken it and is working on it) is re-sent to the
// other replica and answered; an execute_tool of a POST (held at its upstream) is not re-sent: the client gets
// HAProxy's 502 and the other replica's upstream never sees the call. Each replica has its own embeddings endpoint
// and upstream, so the one that took a request is known without guessing. A legacy (session) request is never taken
// for such a read, whatever its Mcp-Method / Mcp-Name headers say (ops50 audit, section 9): it goes to the backend
// that does not re-send, and one whose headers disagree with its body is refused by the replica (400, -32020).
// Needs `npm run build`; fails when haproxy is missing.
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { startBalancer, type Balancer } from '../helpers/balancer.js';
import { startEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/embeddings-server.js';
import { call, connectHttp, describeHandle, MODERN_VERSION, REPO_ROOT } from '../helpers/mcp.js';
import { callTool, modernRpc, openSession, rpc } from '../helpers/mcp-raw.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { holdRoute, until } from '../ops/helpers.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(REPO_ROOT, 'test', 'embeddings', 'fixtures', 'club.yaml');
const TOKEN = `tok-${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 32)}`;
const SIGNING_KEY = createHash('sha256').update(`retry-${Math.random()}`).digest('hex');
const AUTH = { Authorization: `Bearer ${TOKEN}` };
/** A query the lexical index cannot answer alone (synonyms only the embeddings know), so search asks the endpoint. */
const HELD_QUERY = 'hibernate my membership';
/** A deadline for the whole test (two replica starts and a balancer), not a timing target. */
const TEST_TIMEOUT_MS = 120_000;

let root = '';

beforeAll(async () => {
  root = tempDir('ac-haproxy-retry-');
  const importer = await startEmbeddingsServer();
  const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    expect(await importCli([SPEC, '--name', 'club', '--out', root, '--embeddings-url', importer.url, '--embeddings-model', 'fake-embed', '--quiet'])).toBe(0);
  } finally {
    quiet.mockRestore();
    await importer.close();
  }
});

interface Pair {
  replicas: Replica[];
  embeddings: FakeEmbeddingsServer[];
  upstreams: Upstream[];
  lb: Balancer;
  close(): Promise<void>;
}

/** Two replicas, each with its own embeddings endpoint and upstream, behind HAProxy with deploy/haproxy.cfg. */
async function startPair(): Promise<Pair> {
  const embeddings = await Promise.all([0, 1].map(() => startEmbeddingsServer()));
  const upstreams = await Promise.all([0, 1].map(() => startUpstream()));
  const replicas = await Promise.all(
    [0, 1].map((i) =>
      startReplica(['--registry', join(root, 'club'), '--allow-host', '127.0.0.1'], {
        API_CATALOG_HTTP_TOKEN: TOKEN,
        API_CATALOG_SIGNING_KEY: SIGNING_KEY,
        API_CATALOG_EMBEDDINGS_URL: (embeddings[i] as FakeEmbeddingsServer).url,
        API_CATALOG_EMBEDDINGS_MODEL: 'fake-embed',
        // The held query must not fall back to lexical search while the test kills its replica.
        API_CATALOG_EMBEDDINGS_TIMEOUT_MS: '60000',
        CLUB_BASE_URL: (upstreams[i] as Upstream).url,
        API_CATALOG_RATE_LIMIT: '0',
        API_CATALOG_READ_RATE_LIMIT: '0',
      }),
    ),
  );
  const lb = await startBalancer('haproxy', replicas.map((r) => r.port));
  return {
    replicas,
    embeddings,
    upstreams,
    lb,
    async close() {
      await lb.close();
      for (const r of replicas) await r.kill();
      for (const e of embeddings) await e.close();
      for (const u of upstreams) await u.close();
    },
  };
}

/** HAProxy's log lines (option httplog), one per request it finished. */
function requestLines(lb: Balancer): string[] {
  return lb.log().split('\n').filter((l) => /^127\.0\.0\.1:\d+ \[/.test(l));
}

/**
 * One 2026-07-28 tools/call on a connection of its own (`agent: false`): the first request of its client
 * connection, so HAProxy answers a failure with an HTTP status (and logs it) instead of closing silently.
 */
function modernCallOnNewConnection(url: string, name: string, args: Record<string, unknown>): Promise<{ status: number; body: string }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'retry-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args, _meta: meta } });
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: Number(target.port),
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: {
          ...AUTH,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN_VERSION,
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('HAProxy (deploy/haproxy.cfg) when a replica dies mid-answer', () => {
  test('a read-only 2026-07-28 request (search_tools) is re-sent to the other replica and answered; the log shows the retry', async () => {
    const pair = await startPair();
    const client = await connectHttp(pair.lb.url, 'modern', { headers: AUTH, name: 'retry-read' });
    try {
      const [e0, e1] = pair.embeddings as [FakeEmbeddingsServer, FakeEmbeddingsServer];
      // Both endpoints hold what they get: the replica HAProxy picks is then in the middle of the answer.
      const before = [e0.requests, e1.requests];
      e0.behaviour = 'stall';
      e1.behaviour = 'stall';
      const pending = call(client, 'search_tools', { query: HELD_QUERY });
      await until(() => e0.requests > (before[0] as number) || e1.requests > (before[1] as number), 'the search to reach a replica\'s embeddings endpoint');
      const victim = e0.requests > (before[0] as number) ? 0 : 1;
      const other = 1 - victim;
      const otherEmbeddings = pair.embeddings[other] as FakeEmbeddingsServer;
      const otherBefore = otherEmbeddings.requests;
      otherEmbeddings.behaviour = 'ok';
      await (pair.replicas[victim] as Replica).kill();

      const r = await pending;
      expect(r.success, JSON.stringify(r).slice(0, 500)).toBe(true);
      expect((r.value as { results: Array<{ name: string }> }).results[0]?.name).toBe('suspendSubscription');
      expect((r.value as { mode: string }).mode).toMatch(/^hybrid/);
      // The other replica answered it: its endpoint embedded the same query.
      expect(otherEmbeddings.requests).toBeGreaterThan(otherBefore);
      // HAProxy's line for it: the read backend, the other replica, 200, one retry redispatched (`+1`).
      const retried = () => requestLines(pair.lb).filter((l) => l.includes('{tools/call|search_tools}') && l.includes(`replicas_read/r${other + 1} `) && / 200 /.test(l) && /\/\+1 /.test(l));
      await until(() => retried().length > 0, `HAProxy's log line of the retried search:\n${pair.lb.log().slice(-3000)}`);
      expect(retried()).toHaveLength(1);
    } finally {
      await client.close().catch(() => undefined);
      await pair.close();
    }
  }, TEST_TIMEOUT_MS);

  test('an execute_tool of a POST whose replica dies after sending it upstream is not re-sent: 502, and the other replica never calls its upstream', async () => {
    const pair = await startPair();
    const client = await connectHttp(pair.lb.url, 'modern', { headers: AUTH, name: 'retry-write' });
    try {
      const path = '/subscriptions/sub-42/suspend';
      const held = pair.upstreams.map((u) => holdRoute(u, path));
      const handle = await describeHandle(client, 'suspendSubscription');
      const pending = modernCallOnNewConnection(pair.lb.url, 'execute_tool', { tool_name: 'suspendSubscription', args: { id: 'sub-42' }, handle });
      await until(() => held.some((h) => h.arrived() > 0), 'the POST to reach a replica\'s upstream');
      const victim = (held[0] as ReturnType<typeof holdRoute>).arrived() > 0 ? 0 : 1;
      const other = 1 - victim;
      // Were HAProxy to re-send the call, the other replica's upstream would answer it at once.
      (held[other] as ReturnType<typeof holdRoute>).release();
      await (pair.replicas[victim] as Replica).kill();

      const answer = await pending;
      expect(answer.status, answer.body.slice(0, 300)).toBe(502);
      expect((pair.upstreams[other] as Upstream).requests).toEqual([]);
      expect((held[victim] as ReturnType<typeof holdRoute>).arrived()).toBe(1);
      // HAProxy's line for it: the write backend, the killed replica, 502 after the server closed (SH), no retry.
      const lines = () => requestLines(pair.lb).filter((l) => l.includes('{tools/call|execute_tool}'));
      await until(() => lines().length > 0, `HAProxy's log line of the execute_tool:\n${pair.lb.log().slice(-3000)}`);
      expect(lines()).toHaveLength(1);
      expect(lines()[0]).toContain(`replicas/r${victim + 1} `);
      expect(lines()[0]).toMatch(/ 502 .* SH-- \d+\/\d+\/\d+\/\d+\/0 /);
    } finally {
      await client.close().catch(() => undefined);
      await pair.close();
    }
  }, TEST_TIMEOUT_MS);

  test('a legacy request with read headers (Mcp-Method: tools/call, Mcp-Name: search_tools) goes to the backend that does not re-send; one whose body disagrees is refused by the replica', async () => {
    const up = await startUpstream();
    // One replica: a legacy session without a shared store lives on the replica that opened it.
    const replica = await startReplica(['--registry', join(root, 'club'), '--allow-host', '127.0.0.1'], {
      API_CATALOG_HTTP_TOKEN: TOKEN,
      API_CATALOG_SIGNING_KEY: SIGNING_KEY,
      CLUB_BASE_URL: up.url,
      API_CATALOG_RATE_LIMIT: '0',
      API_CATALOG_READ_RATE_LIMIT: '0',
    });
    const lb = await startBalancer('haproxy', [replica.port]);
    try {
      const s = await openSession(lb.url, lb.url, AUTH);
      const readHeaders = { ...AUTH, 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' };
      const read = await callTool(lb.url, s, 'search_tools', { query: 'suspend a subscription' }, readHeaders);
      expect(read.status).toBe(200);
      expect(read.envelope?.success).toBe(true);
      const listing = await rpc(lb.url, s, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...AUTH, 'mcp-method': 'tools/list' });
      expect(listing.status).toBe(200);
      // an execute_tool labelled as a read: refused before it runs, the upstream never called
      const lie = await callTool(lb.url, s, 'execute_tool', { tool_name: 'suspendSubscription', args: { id: 'sub-42' } }, readHeaders);
      expect(lie.status).toBe(400);
      expect(lie.msg?.error?.code).toBe(-32020);
      expect(up.requests).toEqual([]);
      // the same read as a 2026-07-28 request: the re-sending backend
      const modern = await modernRpc(lb.url, 'tools/call', { name: 'search_tools', arguments: { query: 'suspend a subscription' } }, { headers: AUTH });
      expect(modern.status).toBe(200);

      // HAProxy's lines for the four (sequential, so in this order), by the headers it captured
      const lines = () => requestLines(lb).filter((l) => /\{tools\/(call|list)\|/.test(l));
      await until(() => lines().length >= 4, `HAProxy's log lines of the four requests:\n${lb.log().slice(-3000)}`);
      const [legacyRead, legacyListing, legacyLie, modernRead] = lines() as [string, string, string, string];
      expect(lines()).toHaveLength(4);
      for (const l of [legacyRead, legacyListing, legacyLie]) expect(l).toMatch(/ replicas\/r1 /);
      expect(legacyRead).toContain('{tools/call|search_tools}');
      expect(legacyListing).toContain('{tools/list|}');
      expect(legacyLie).toMatch(/ 400 .*\{tools\/call\|search_tools\}/);
      expect(modernRead).toMatch(/ replicas_read\/r1 .* 200 .*\{tools\/call\|search_tools\}/);
    } finally {
      await lb.close();
      await replica.kill();
      await up.close();
    }
  }, TEST_TIMEOUT_MS);
});
