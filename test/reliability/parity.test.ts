// L3 (and C1 for the same script): the same flow — list, search, describe at three levels, dry run, real execute
// against the fake upstream, refusals and bad arguments — over the spawned stdio server and the spawned HTTP
// server gives the same tool results in each protocol era, byte for byte after removing what is per-process (the
// upstream port; describe handles, signed with each process's own key). Each execute passes the handle the flow
// got for its operation, as an agent on the stateless 2026-07-28 HTTP path must.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, fixtureRegistry } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { envelope, httpDriver, importFixture, stdioDriver, type Driver, type Message } from './helpers.js';

let up: Upstream;
let vaultDir: string;
beforeAll(async () => {
  up = await startUpstream();
  up.route('/pets/500', { kind: 'status', status: 500, body: { message: 'boom' } });
  up.route('/pets/429', { kind: 'status', status: 404, body: { message: 'no such pet' } });
  vaultDir = importFixture(join(REPO_ROOT, 'test', 'fixtures', 'reliability', 'vault.yaml'), 'vault').dir;
});
afterAll(async () => {
  await up?.close();
});

const env = (): Record<string, string> => ({ PETSTORE_BASE_URL: up.url, PETSTORE_API_KEY: 'k-123', VAULT_BASE_URL: `${up.url}/v1`, VAULT_API_KEY: 'k-456' });

// Note: reading the tool_descriptions resource authorizes like describe_tools, so it reads pets.list, not pets.get.
async function flow(d: Driver): Promise<unknown[]> {
  const steps: Array<[string, unknown]> = [
    ['list_domains', {}],
    ['search_tools', { query: 'list pets' }],
    ['search_tools', { query: 'pets', domain: 'petstore.pets', limit: 2, offset: 1 }],
    ['search_tools', { query: 'zzzz qqqq' }],
    ['execute_tool', { tool_name: 'petstore.pets.get', args: { petId: 1 } }],
    ['describe_tools', { tool_names: ['petstore.pets.get', 'petstore.pets.list'], detail: 'summary' }],
    ['describe_tools', { tool_names: ['petstore.pets.get', 'petstore.pets.list'] }],
    ['describe_tools', { tool_names: ['petstore.pets.get'], detail: 'full' }],
    ['describe_tools', { tool_names: ['petstore.pets.gett'] }],
    ['execute_tool', { tool_name: 'petstore.pets.get', args: { petId: 7 }, dry_run: true }],
    ['execute_tool', { tool_name: 'petstore.pets.get', args: { petId: 7 } }],
    ['execute_tool', { tool_name: 'petstore.pets.get', args: { petId: 500 } }],
    ['execute_tool', { tool_name: 'petstore.pets.get', args: { petId: 429 } }],
    ['execute_tool', { tool_name: 'petstore.pets.get', args: { petId: 'seven' } }],
    ['execute_tool', { tool_name: 'petstore.pets.list', args: { limit: 2 } }],
    ['describe_tools', { tool_names: ['vault.keyEcho'] }],
    ['execute_tool', { tool_name: 'vault.keyEcho', args: { q: 'same' } }],
  ];
  const out: unknown[] = [];
  const handles = new Map<string, string>();
  out.push((await d.rpc('tools/list')).result);
  out.push((await d.rpc('resources/list')).result);
  const read = (await d.rpc('resources/read', { uri: 'resource:///tool_descriptions?tools=petstore.pets.list' })).result;
  handles.set('petstore.pets.list', JSON.parse(read.contents[0].text)['petstore.pets.list'].handle as string);
  out.push(read);
  for (const [name, raw] of steps) {
    const args = raw as { tool_name?: string };
    const handle = name === 'execute_tool' && args.tool_name !== undefined ? handles.get(args.tool_name) : undefined;
    const m: Message = await d.tool(name, handle !== undefined ? { ...args, handle } : args);
    const e = envelope(m);
    if (name === 'describe_tools' && e.success) {
      for (const t of e.value.tools as Array<{ name: string; handle?: string; example?: { handle?: string } }>) {
        const h = t.example?.handle ?? t.handle;
        if (h !== undefined) handles.set(t.name, h);
      }
    }
    out.push({ name, args, isError: m.result?.isError ?? false, envelope: e, text: m.result?.content });
  }
  return out;
}

/**
 * Headers the two transports' HTTP clients legitimately differ in are not part of a tool result; only the port. A
 * handle is bounded by characters that cannot be in it, not by `\b`: its MAC may end in `-` (1 in 64), and `\b`
 * after `-` before a quote does not match, so such a handle stayed in and the two flows differed by chance.
 */
const normalize = (v: unknown): string =>
  JSON.stringify(v)
    .replaceAll(`127.0.0.1:${up.port}`, '127.0.0.1:<port>')
    .replace(/(?<![A-Za-z0-9_-])[0-9a-z]{5,11}\.[A-Za-z0-9_-]{16}(?![A-Za-z0-9_-])/g, '<handle>');

test.each(ERAS)('L3: stdio and Streamable HTTP give identical results for the same flow (%s era)', async (era) => {
  const args = ['--registry', fixtureRegistry('petstore'), '--registry', vaultDir];
  const s = await stdioDriver(args, env(), era);
  const a = await flow(s).finally(() => s.close());
  const h = await httpDriver(args, env(), {}, era);
  const b = await flow(h).finally(() => h.close());
  // The flow exercised success and every kind of refusal.
  const codes = (a.slice(3) as Array<{ envelope: Message }>).map((x) => (x.envelope.success ? 'ok' : x.envelope.error?.code));
  expect(codes).toEqual(['ok', 'ok', 'ok', 'ok', 'TOOL_DESCRIPTION_REQUIRED', 'ok', 'ok', 'ok', 'UNKNOWN_TOOL', 'ok', 'ok', 'UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'INVALID_ARGUMENTS', 'ok', 'ok', 'ok']);
  // step by step, so a difference names its step and shows the fields that differ
  const steps = (x: unknown[]): unknown[] => JSON.parse(normalize(x)) as unknown[];
  const [sa, sb] = [steps(a), steps(b)];
  expect(sb.length).toBe(sa.length);
  for (let k = 0; k < sa.length; k++) {
    const step = sa[k] as { name?: string; args?: unknown };
    expect(sb[k], `step ${k}: ${step.name ?? 'tools/list, resources/list, resources/read'} ${JSON.stringify(step.args ?? '')}`).toEqual(sa[k]);
  }
  // C1 for this script too: every stdout line of the stdio server is a JSON-RPC 2.0 message.
  const lines = s.capture.stdout.split('\n').filter((l) => l !== '');
  expect(lines.length).toBe(1 + 3 + 17); // initialize (or server/discover), three reads, seventeen tool calls
  for (const l of lines) expect((JSON.parse(l) as Message).jsonrpc).toBe('2.0');
}, 60_000);
