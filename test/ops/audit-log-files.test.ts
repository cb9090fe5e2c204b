// The --audit-log file under faults (audit 11, defects 2 and 3), with real `serve --http` processes:
// - a full disk (here the file-size limit, RLIMIT_FSIZE, set on the replica with prlimit: the same short write and
//   then failing writes as ENOSPC, without root): the record cut short stays alone on its line and the first record
//   after space is back starts a new line; lost records are counted in /metrics; the failure is logged once, the
//   recovery once, and a later failure again;
// - two replicas appending to one file with rotation: one rotation per overflow (each file stays under the size
//   when calls come one at a time), every line parses, and no record is lost while an older one is kept.
// Needs `npm run build`; prlimit (util-linux).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { freePort } from '../helpers/redis.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { events, until } from './helpers.js';

let up: Upstream;

beforeAll(async () => {
  up = await startUpstream();
  // every pet answers, with its id as the request id: each audit line says which call it is
  up.setDefault({
    kind: 'handler',
    handle: (req, res) => {
      const id = /^\/pets\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 'none';
      const body = JSON.stringify({ id: Number(id) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': `call-${id}` });
      res.end(body);
    },
  });
});
afterAll(async () => up?.close());

const ENV = () => ({ PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0', API_CATALOG_READ_RATE_LIMIT: '0' });

async function execute(url: string, petId: number): Promise<void> {
  const r = await modernCall(url, 'execute_tool', { tool_name: 'pets.get', args: { petId } });
  expect(r.envelope?.success, JSON.stringify(r.envelope)).toBe(true);
}

/** The series' value in a /metrics scrape of the replica at `port`. */
async function metric(port: number, series: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const m = new RegExp(`^${series} (\\S+)$`, 'm').exec(text);
  return m?.[1] !== undefined ? Number(m[1]) : undefined;
}

function prlimit(args: string[]): void {
  const r = spawnSync('prlimit', args, { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) throw new Error(`prlimit ${args.join(' ')} failed (${r.error?.message ?? r.stderr}): install util-linux`);
}

describe('a full disk', () => {
  test('the record cut short stays alone on its line, the next one parses; lost records are counted; failure and recovery are logged', async () => {
    const dir = tempDir('ac-audit-full-');
    const file = join(dir, 'audit.log');
    // What was there before: the file-size limit is set 40 bytes past it, inside the first audit record.
    const before = `${JSON.stringify({ type: 'note', text: 'written before the server started' })}\n`;
    writeFileSync(file, before, { mode: 0o600 });
    const limit = Buffer.byteLength(before) + 40;
    const port = await freePort();
    // prlimit runs the server with a soft file-size limit (raised later by the test, up to the unlimited hard one)
    const child = spawn(
      'prlimit',
      [`--fsize=${limit}:unlimited`, process.execPath, builtCli(), 'serve', '--http', '--port', String(port), '--registry', fixtureRegistry('petstore'), '--no-require-describe', '--index-cache', 'off', '--audit-log', file],
      { cwd: REPO_ROOT, env: { ...(process.env as Record<string, string>), ...ENV() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    child.stderr.on('data', (d: Buffer) => (log += d.toString('utf8')));
    child.stdout.on('data', (d: Buffer) => (log += d.toString('utf8')));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const url = `http://127.0.0.1:${port}/mcp`;
      await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status).catch(() => 0)) === 200 || child.exitCode !== null, 'the replica to be ready');
      expect(child.exitCode, log).toBeNull();
      // The first record is cut after 40 bytes, the next three fail whole.
      for (let id = 1; id <= 4; id++) await execute(url, id);
      expect(await metric(port, 'api_catalog_audit_write_failures_total')).toBe(4);
      expect(events(log, 'audit_log_write_failed')).toEqual([expect.objectContaining({ level: 'error', file, error: 'EFBIG' })]);
      // Space is back.
      prlimit(['--pid', String(child.pid), '--fsize=unlimited:unlimited']);
      for (let id = 5; id <= 6; id++) await execute(url, id);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(before)).toBe(true);
      const lines = text.slice(before.length).split('\n');
      expect(lines.at(-1)).toBe('');
      // the torn part alone on its line, then whole records only
      expect(lines[0]).toHaveLength(40);
      expect(lines[0]).toMatch(/^\{"type":"audit",/);
      expect(() => JSON.parse(lines[0] as string)).toThrow();
      expect(lines.slice(1, -1).map((l) => (JSON.parse(l) as { upstream_request_id: string }).upstream_request_id)).toEqual(['call-5', 'call-6']);
      expect(await metric(port, 'api_catalog_audit_write_failures_total')).toBe(4);
      expect(events(log, 'audit_log_write_recovered')).toEqual([expect.objectContaining({ file, lost: 4 })]);
      // A later failure is reported again (the file is at its limit again: the next write fails whole).
      prlimit(['--pid', String(child.pid), `--fsize=${statSync(file).size}:unlimited`]);
      await execute(url, 7);
      expect(await metric(port, 'api_catalog_audit_write_failures_total')).toBe(5);
      expect(events(log, 'audit_log_write_failed')).toHaveLength(2);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });
});

describe('two replicas appending to one audit log', () => {
  let replicas: Replica[] = [];
  let file = '';
  const MAX = 4096;

  beforeAll(async () => {
    file = join(tempDir('ac-audit-shared-'), 'audit.log');
    replicas = await Promise.all(
      [0, 1].map(() => startReplica(['--registry', fixtureRegistry('petstore'), '--no-require-describe', '--audit-log', file, '--audit-log-max-bytes', String(MAX)], ENV())),
    );
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop();
  });

  /** Every line of <file>.1 then <file>, each parsed (a torn or glued line fails the test). */
  const records = (): Array<{ upstream_request_id: string }> =>
    [`${file}.1`, file]
      .filter((f) => existsSync(f))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l !== ''))
      .map((l) => JSON.parse(l) as { upstream_request_id: string });

  test('calls one at a time, alternating: one rotation per overflow, each file under the size, the newest records kept in order', async () => {
    const ids: number[] = [];
    for (let id = 1; id <= 40; id++) {
      await execute((replicas[id % 2] as Replica).url, id);
      ids.push(id);
    }
    // Counting only its own bytes, each replica rotated late (files of twice the size) and renamed files the other
    // had just started.
    for (const f of [`${file}.1`, file]) expect(statSync(f).size).toBeLessThanOrEqual(MAX);
    const kept = records().map((r) => r.upstream_request_id);
    expect(kept.length).toBeGreaterThan(10);
    expect(kept).toEqual(ids.slice(-kept.length).map((id) => `call-${id}`));
  });

  test('concurrent calls on both: every line parses, and no call is lost while one that ended before it began is kept', async () => {
    const calls: Array<{ id: number; start: bigint; end: bigint }> = [];
    let next = 1000;
    // six clients, each making calls one after another, alternating replicas
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (client) => {
        for (let k = 0; k < 25; k++) {
          const id = next++;
          const start = process.hrtime.bigint();
          await execute((replicas[(client + k) % 2] as Replica).url, id);
          calls.push({ id, start, end: process.hrtime.bigint() });
        }
      }),
    );
    const kept = new Set(records().map((r) => r.upstream_request_id));
    const keptCalls = calls.filter((c) => kept.has(`call-${c.id}`));
    expect(keptCalls.length).toBeGreaterThan(5);
    // A call that began after a kept call had its answer was audited after that call's line was written: it must be
    // kept too (only the oldest records may go, with the generation rotated out).
    const firstAnswered = keptCalls.reduce((m, c) => (c.end < m ? c.end : m), keptCalls[0]?.end as bigint);
    const lostNewer = calls.filter((c) => c.start > firstAnswered && !kept.has(`call-${c.id}`)).map((c) => c.id);
    expect(lostNewer).toEqual([]);
    for (const r of replicas) expect(events(r.stderr(), 'audit_log_write_failed')).toEqual([]);
  });
});
