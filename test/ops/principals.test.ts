// One real `serve --http --tokens <file> --audit-log <file>` process with three named tokens (RELIABILITY O12-O16):
// each name is its own principal (sessions, describe handles, rate limits), scopes hold, the file is re-read on
// change (a broken edit keeps the old entries), every execute_tool leaves one audit line (who, what, outcome,
// upstream status and request id; never an argument), and /metrics counts it all with bounded labels behind the
// same authentication. Needs `npm run build`.
import { statSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newToken } from '../../src/server/auth/tokens.js';
import { AuditLog } from '../../src/server/ops/audit.js';
import { createLogger } from '../../src/logger.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { callTool, modernCall, openSession, rpc } from '../helpers/mcp-raw.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { events, until } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const alice = newToken('alice', ['catalog:read', 'catalog:execute']);
const bob = newToken('bob', ['catalog:read']);
const carol = newToken('carol', ['catalog:read', 'catalog:execute']);
const dave = newToken('dave', ['catalog:read', 'catalog:execute']);
const SECRET_ARG = 'rex-the-argument-value-9f2c';

let dir: string;
let tokensFile: string;
let auditFile: string;
let up: Upstream;
let r: Replica;
const as = (t: { token: string }) => ({ authorization: `Bearer ${t.token}` });

beforeAll(async () => {
  dir = tempDir('ac-principals-');
  tokensFile = join(dir, 'tokens.txt');
  auditFile = join(dir, 'audit.log');
  writeFileSync(tokensFile, `# name scopes hash\n${alice.line}\n${bob.line}\n${carol.line}\n`, { mode: 0o600 });
  up = await startUpstream();
  up.route('/pets/7', { kind: 'status', status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'up-req-77' }, body: { id: 7 } });
  r = await startReplica(['--registry', fixtureRegistry('petstore'), '--tokens', tokensFile, '--audit-log', auditFile, '--rate-limit', '2'], {
    PETSTORE_BASE_URL: up.url,
  });
});
afterAll(async () => {
  await r?.stop();
  await up?.close();
  for (const t of [alice, bob, carol, dave]) expect(r.stderr()).not.toContain(t.token);
});

describe('named tokens: each name is a principal', () => {
  test('O13: no token or an unknown one: 401; a read-only name gets 403 on execute_tool', async () => {
    expect((await rpc(r.url, undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);
    const wrong = await rpc(r.url, undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: 'Bearer act_not-a-real-token-000000000000000000000000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.msg.error.message).toMatch(/a token the server operator gave you/);
    const denied = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 1 } }, { headers: as(bob) });
    expect(denied.status).toBe(403);
    expect(denied.msg.error.message).toMatch(/needs the scope catalog:execute; the token "bob" has catalog:read: ask the server's operator to add catalog:execute to its line of the tokens file/);
    // The same refusal from a legacy (claim-less) request naming an operation that does not exist: still audited (O15).
    const deniedLegacy = await rpc(r.url, undefined, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute_tool', arguments: { tool_name: 'no.such', args: {} } } }, as(bob));
    expect(deniedLegacy.status).toBe(403);
    expect((await modernCall(r.url, 'search_tools', { query: 'pet' }, { headers: as(bob) })).envelope.success).toBe(true);
  });

  test("O13: a legacy session belongs to its name: another name presenting its id gets 404", async () => {
    const s = await openSession(r.url, r.url, as(alice));
    expect((await callTool(r.url, s, 'list_domains', {}, as(alice))).envelope.success).toBe(true);
    expect((await callTool(r.url, s, 'list_domains', {}, as(carol))).status).toBe(404);
  });

  test("O13: a describe handle belongs to its name; execute limits count per name", async () => {
    const d = await modernCall(r.url, 'describe_tools', { tool_names: ['pets.get'] }, { headers: as(alice) });
    const handle = d.envelope.value.tools[0].example.handle as string;
    const stolen = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 }, handle }, { headers: as(carol) });
    expect(stolen.envelope.error).toMatchObject({ code: 'TOOL_DESCRIPTION_REQUIRED', details: { reason: 'mismatch' } });
    // --rate-limit 2: alice's third execute is refused, carol's bucket is her own.
    for (let i = 0; i < 2; i++) {
      const ok = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 }, handle }, { headers: as(alice) });
      expect(ok.envelope.success, JSON.stringify(ok.envelope)).toBe(true);
    }
    const limited = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 }, handle }, { headers: as(alice) });
    expect(limited.envelope.error.code).toBe('RATE_LIMITED');
    const ch = (await modernCall(r.url, 'describe_tools', { tool_names: ['pets.create'] }, { headers: as(carol) })).envelope.value.tools[0].example.handle;
    const dry = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.create', args: { name: SECRET_ARG }, dry_run: true, handle: ch }, { headers: as(carol) });
    expect(dry.envelope.success).toBe(true);
  });
});

describe('the audit log', () => {
  test('O15: one line per execute_tool: principal, operation, path template, outcome, upstream status and request id; mode 0600; no argument values', () => {
    expect(statSync(auditFile).mode & 0o777).toBe(0o600);
    const lines = readFileSync(auditFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    // bob's two 403s (refused by the transport's scope check, before MCP: audited there), carol's stolen handle,
    // alice's two calls and her limited one, carol's dry run.
    expect(lines.map((l) => [l.principal, l.outcome, l.dry_run])).toEqual([
      ['token:bob', 'INSUFFICIENT_SCOPE', false],
      ['token:bob', 'INSUFFICIENT_SCOPE', false],
      ['token:carol', 'TOOL_DESCRIPTION_REQUIRED', false],
      ['token:alice', 'ok', false],
      ['token:alice', 'ok', false],
      ['token:alice', 'RATE_LIMITED', false],
      ['token:carol', 'ok', true],
    ]);
    // bob's refusals: the operation when the name is one (the path template), the era, never dispatched, no session.
    expect(lines[0]).toEqual({
      type: 'audit',
      time: expect.any(String),
      principal: 'token:bob',
      era: 'modern',
      tool: 'pets.get',
      catalog: 'petstore',
      method: 'GET',
      path: '/pets/{petId}',
      outcome: 'INSUFFICIENT_SCOPE',
      dry_run: false,
      dispatched: false,
      duration_ms: 0,
    });
    expect(lines[1]).toEqual({ type: 'audit', time: expect.any(String), principal: 'token:bob', era: 'legacy', outcome: 'INSUFFICIENT_SCOPE', dry_run: false, dispatched: false, duration_ms: 0 });
    // A rate-limited call names the operation too (known from the request, before the limit refused it).
    expect(lines[5]).toMatchObject({ principal: 'token:alice', outcome: 'RATE_LIMITED', tool: 'pets.get', catalog: 'petstore', method: 'GET', path: '/pets/{petId}', dispatched: false });
    expect(lines[3]).toMatchObject({
      type: 'audit',
      era: 'modern',
      tool: 'pets.get',
      catalog: 'petstore',
      method: 'GET',
      path: '/pets/{petId}',
      dispatched: true,
      upstream_status: 200,
      upstream_request_id: 'up-req-77',
    });
    expect(typeof lines[3]?.duration_ms).toBe('number');
    expect(new Date(lines[3]?.time as string).toString()).not.toBe('Invalid Date');
    expect(lines[6]).toMatchObject({ tool: 'pets.create', method: 'POST', path: '/pets', dispatched: false, dry_run: true });
    const text = readFileSync(auditFile, 'utf8');
    expect(text).not.toContain(SECRET_ARG);
    expect(text).not.toContain('/pets/7');
    for (const t of [alice, carol]) expect(text).not.toContain(t.token);
  });

  test('O15: rotates to <file>.1 at its size limit (like the search log); without a file, lines go to the log stream', () => {
    const file = join(dir, 'rotating.log');
    const logged: string[] = [];
    const audit = new AuditLog({ file, maxBytes: 4096, logger: createLogger({ write: (l) => logged.push(l) }) });
    const record = { era: 'legacy' as const, principal: 'token:alice', session: 'abc', kind: 'execute_tool' as const, outcome: 'ok', durationMs: 3, operation: 'pets.get', dispatched: true };
    for (let i = 0; i < 40; i++) audit.observe(record);
    audit.close();
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(statSync(file).size).toBeLessThanOrEqual(4096);
    expect(statSync(`${file}.1`).mode & 0o777).toBe(0o600);
    const toStream = new AuditLog({ logger: createLogger({ write: (l) => logged.push(l) }) });
    toStream.observe(record);
    toStream.observe({ ...record, kind: 'search_tools' });
    expect(logged.map((l) => JSON.parse(l) as Record<string, any>)).toEqual([expect.objectContaining({ event: 'audit', principal: 'token:alice', tool: 'pets.get', outcome: 'ok' })]);
  });
});

describe('/metrics', () => {
  test('O16: behind the same authentication; counts calls, upstream requests, refusals and sessions with bounded labels only', async () => {
    expect((await fetch(r.url.replace(/\/mcp$/, '/metrics'))).status).toBe(401);
    expect((await fetch(r.url.replace(/\/mcp$/, '/metrics'), { headers: { ...as(bob), origin: 'https://evil.example' } })).status).toBe(403);
    const res = await fetch(r.url.replace(/\/mcp$/, '/metrics'), { headers: as(bob) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}"=,]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('api_catalog_tool_calls_total{tool="execute_tool",outcome="ok"}')).toBe(3);
    expect(value('api_catalog_tool_calls_total{tool="execute_tool",outcome="RATE_LIMITED"}')).toBe(1);
    expect(value('api_catalog_tool_calls_total{tool="execute_tool",outcome="TOOL_DESCRIPTION_REQUIRED"}')).toBe(1);
    expect(value('api_catalog_upstream_requests_total{catalog="petstore",method="GET",status_class="2xx"}')).toBe(2);
    expect(value('api_catalog_rate_limited_total{bucket="execute"}')).toBe(1);
    expect(value('api_catalog_search_answers_total{confidence="normal"}') + value('api_catalog_search_answers_total{confidence="low"}')).toBe(1);
    expect(value('api_catalog_http_refused_total{reason="scope"}')).toBe(2);
    // bob's scope refusals are counted there, not as tool calls (they never reached MCP).
    expect(text).not.toContain('INSUFFICIENT_SCOPE');
    // The upstream request time: one sample per call that went upstream (alice's two), none for refusals or dry runs.
    expect(value('api_catalog_upstream_request_duration_seconds_count{catalog="petstore",method="GET"}')).toBe(2);
    expect(text).not.toMatch(/^api_catalog_upstream_request_duration_seconds_count\{catalog="petstore",method="POST"\}/m);
    expect(value('api_catalog_http_refused_total{reason="auth"}')).toBeGreaterThanOrEqual(2);
    expect(value('api_catalog_mcp_requests_total{era="legacy"}')).toBeGreaterThanOrEqual(3);
    expect(value('api_catalog_legacy_sessions_open')).toBe(1);
    expect(value('api_catalog_ready')).toBe(1);
    expect(text).toMatch(/^api_catalog_tool_call_duration_seconds_bucket\{le="0\.005",tool="execute_tool"\} \d+$/m);
    expect(text).toMatch(/^api_catalog_build_info\{version="\d+\.\d+\.\d+",node_version="v\d+/m);
    expect(text).toMatch(/^api_catalog_process_resident_memory_bytes \d+/m);
    // Bounded labels: no principal, no query, no argument, no token.
    for (const s of ['alice', 'carol', 'token:', 'pet', SECRET_ARG, alice.token, '/pets/']) expect(text.replace(/petstore/g, '')).not.toContain(s);
  });
});

describe('the token file is re-read on change', () => {
  test('O14: a new line works, a removed one is refused, a broken edit keeps the previous entries whose line is unchanged and names the line', async () => {
    const list = (t: { token: string }) => rpc(r.url, undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, as(t)).then((x) => x.status);
    expect(await list(dave)).toBe(401);
    writeFileSync(tokensFile, `${bob.line}\n${carol.line}\n${dave.line}\n`);
    await until(async () => (await list(dave)) !== 401, 'the new token to be accepted');
    expect(await list(alice)).toBe(401);
    writeFileSync(tokensFile, `${bob.line}\n${dave.line}\nbroken line\n`);
    await until(() => events(r.stderr(), 'tokens_reload_failed').length > 0, 'the broken edit to be reported');
    expect(events(r.stderr(), 'tokens_reload_failed')[0]?.message).toContain(`--tokens ${tokensFile} line 3: expected 3 fields`);
    expect(await list(dave)).not.toBe(401);
    // carol's line was deleted in the same save: refused, although the edit as a whole was (fail closed)
    expect(await list(carol)).toBe(401);
    // Removed, the file revokes every token (fail closed) until it is back.
    rmSync(tokensFile);
    await until(() => events(r.stderr(), 'tokens_file_gone').length > 0, 'the removal to be reported');
    expect(await list(dave)).toBe(401);
    expect(await list(bob)).toBe(401);
    writeFileSync(tokensFile, `${bob.line}\n`, { mode: 0o600 });
    await until(async () => (await list(bob)) !== 401, 'the file back');
    expect(await list(dave)).toBe(401);
  });
});
