// What the operator's records say about a call is what the call was (audit ops50 #4 and #7), on one real
// `serve --http --tokens <file> --audit-log <file>` process:
// - a search_tools that found nothing is counted `api_catalog_search_answers_total{confidence="none"}` (the documented
//   "searches that find nothing good" alert, confidence=~"low|none"), not `normal`;
// - an execute_tool that asked for a dry run and was refused (not described, invalid arguments, a token without
//   catalog:execute) is audited `"dry_run": true`; one that did not ask is `false`.
// Needs `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newToken } from '../../src/server/auth/tokens.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { callTool, modernCall, openSession } from '../helpers/mcp-raw.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { until } from '../ops/helpers.js';

const alice = newToken('alice', ['catalog:read', 'catalog:execute']);
const reader = newToken('reader', ['catalog:read']);
const as = (t: { token: string }) => ({ authorization: `Bearer ${t.token}` });

let auditFile: string;
let up: Upstream;
let r: Replica;

beforeAll(async () => {
  const dir = tempDir('ac-ops-asked-');
  const tokensFile = join(dir, 'tokens.txt');
  auditFile = join(dir, 'audit.log');
  writeFileSync(tokensFile, `${alice.line}\n${reader.line}\n`, { mode: 0o600 });
  up = await startUpstream();
  r = await startReplica(['--registry', fixtureRegistry('petstore'), '--tokens', tokensFile, '--audit-log', auditFile], { PETSTORE_BASE_URL: up.url });
});
afterAll(async () => {
  await r?.stop();
  await up?.close();
});

async function searchAnswers(): Promise<Record<string, number>> {
  const res = await fetch(r.url.replace(/\/mcp$/, '/metrics'), { headers: as(alice) });
  expect(res.status).toBe(200);
  const text = await res.text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^api_catalog_search_answers_total\{confidence="(\w+)"\} (\S+)$/gm)) out[m[1] as string] = Number(m[2]);
  return out;
}

const auditLines = (): Array<Record<string, unknown>> =>
  readFileSync(auditFile, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('api_catalog_search_answers_total', () => {
  test('a search that found nothing is counted confidence="none"; one that found something is not', async () => {
    expect(await searchAnswers()).toEqual({ none: 0, low: 0, normal: 0 });
    const nothing = await modernCall(r.url, 'search_tools', { query: 'zzqx frobnicate the quantum llama' }, { headers: as(alice) });
    expect(nothing.envelope.value).toMatchObject({ results: [], total: 0 });
    const legacy = await openSession(r.url, r.url, as(alice));
    expect((await callTool(r.url, legacy, 'search_tools', { query: 'qqqzzz vvvxxx' }, as(alice))).envelope.value.total).toBe(0);
    expect(await searchAnswers()).toEqual({ none: 2, low: 0, normal: 0 });
    const found = await modernCall(r.url, 'search_tools', { query: 'get pet' }, { headers: as(alice) });
    expect(found.envelope.value.total).toBeGreaterThan(0);
    const after = await searchAnswers();
    expect(after.none).toBe(2);
    expect((after.low ?? 0) + (after.normal ?? 0)).toBe(1);
  });
});

describe('the audit log records what the call asked for', () => {
  test('a refused dry run is "dry_run": true (not described, invalid arguments, no catalog:execute); a refused real call false', async () => {
    const before = auditLines().length;
    const undescribed = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 }, dry_run: true }, { headers: as(alice) });
    expect(undescribed.envelope.error.code).toBe('TOOL_DESCRIPTION_REQUIRED');
    const d = await modernCall(r.url, 'describe_tools', { tool_names: ['pets.delete'] }, { headers: as(alice) });
    const handle = d.envelope.value.tools[0].example.handle as string;
    const invalid = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.delete', args: {}, handle, dry_run: true }, { headers: as(alice) });
    expect(invalid.envelope.error.code).toBe('INVALID_ARGUMENTS');
    const scoped = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 }, dry_run: true }, { headers: as(reader) });
    expect(scoped.status).toBe(403);
    const ran = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 }, handle, dry_run: true }, { headers: as(alice) });
    expect(ran.envelope.value.dry_run).toBe(true);
    // control: a real call refused the same ways
    const real = await modernCall(r.url, 'execute_tool', { tool_name: 'pets.delete', args: { petId: 1 } }, { headers: as(reader) });
    expect(real.status).toBe(403);
    await until(() => auditLines().length >= before + 5, 'five audit lines');
    const lines = auditLines().slice(before);
    expect(lines.map((l) => [l.principal, l.outcome, l.dry_run, l.dispatched])).toEqual([
      ['token:alice', 'TOOL_DESCRIPTION_REQUIRED', true, false],
      ['token:alice', 'INVALID_ARGUMENTS', true, false],
      ['token:reader', 'INSUFFICIENT_SCOPE', true, false],
      ['token:alice', 'ok', true, false],
      ['token:reader', 'INSUFFICIENT_SCOPE', false, false],
    ]);
    expect(up.hits('/pets/1')).toHaveLength(0);
  });
});
