// The token count on an operation page never holds up the server. js-tiktoken and its o200k rank table (seconds of
// synchronous CPU) load in a worker thread, never in the main thread: the first operation page answers at once with a
// labelled estimate, the server answers probes and MCP calls meanwhile, and a later view shows the exact count.
// Proven without timing: a tripwire on the package in this (the server's main) thread, and what the pages say.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadCatalogSet, type CatalogSet, type ExecutionSettings } from '../../src/server/core/catalogs.js';
import { describeTools } from '../../src/server/core/describe.js';
import { toolNames } from '../../src/server/core/names.js';
import { standInHandle } from '../../src/server/explorer/operation-page.js';
import { tokenizerState } from '../../src/server/explorer/tokens.js';
import { attachHandles } from '../../src/server/handles.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { REPO_ROOT } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';
import { runProcess } from '../helpers/run.js';

// Every import of js-tiktoken in this thread goes through here (and gets the real package): a main-thread load of the
// tokenizer, as before, is recorded. The server's worker loads it with its own require, which this does not see.
const mainThreadLoads = vi.hoisted(() => [] as string[]);
vi.mock('js-tiktoken/lite', async (importOriginal) => {
  mainThreadLoads.push('js-tiktoken/lite');
  return importOriginal();
});
vi.mock('js-tiktoken/ranks/o200k_base', async (importOriginal) => {
  mainThreadLoads.push('js-tiktoken/ranks/o200k_base');
  return importOriginal();
});

vi.setConfig({ testTimeout: 120_000 });

let set: CatalogSet;
let srv: HttpHandle;
const settings: ExecutionSettings = { baseUrls: {}, readOnly: false, env: {} };

beforeAll(async () => {
  set = loadCatalogSet([]);
  void set.index;
  srv = await serveHttp({ catalogs: set, settings, rateLimitPerMinute: 0 }, { port: 0, explorer: true });
}, 120_000);

afterAll(async () => {
  await srv?.close();
});

/**
 * The exact count the page must end up showing, computed by js-tiktoken in a child process (loading it here would
 * hold this test's thread for seconds, and the tripwire below is about this thread).
 */
async function exactTokens(tool: string): Promise<number> {
  // the answer as an agent gets it: with the operation's describe handle (the page's stand-in, same shape and length)
  const op = set.byName.get(tool)!.op;
  const envelope = attachHandles(describeTools(set, { tool_names: [tool], detail: 'parameters' }, toolNames(''), { settings }).envelope, (n) => (n === tool ? standInHandle(tool, op) : undefined));
  const count = `const { Tiktoken } = require('js-tiktoken/lite'); const r = require('js-tiktoken/ranks/o200k_base'); let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => console.log(new Tiktoken(r.default ?? r).encode(s).length));`;
  const out = await runProcess(process.execPath, ['-e', count], { cwd: REPO_ROOT, input: JSON.stringify(envelope) });
  expect(out.status, out.stderr).toBe(0);
  return Number(out.stdout.trim());
}

const attr = (body: string, name: string): string | undefined => new RegExp(`id="token-count"[^>]*\\b${name}="(\\d+)"`).exec(body)?.[1];

describe('the token count is off the request path', () => {
  test('the first operation page answers with an estimate; probes and MCP calls are answered; the exact count follows; js-tiktoken never loads in the main thread', async () => {
    expect(tokenizerState().state).toBe('off');
    const first = await rawHttp(srv.port, 'GET', '/?tool=issues_create', { accept: 'text/html' });
    expect(first.status).toBe(200);
    // answered without waiting for the tokenizer: an estimate, labelled as one, and no exact count
    expect(attr(first.body, 'data-tokens')).toBeUndefined();
    expect(Number(attr(first.body, 'data-estimate'))).toBeGreaterThan(0);
    expect(first.body).toContain('tokens (estimate)');
    expect(first.body).toContain('being computed in the background; reload the page to see it');
    expect(tokenizerState().state).not.toBe('off');

    // the server goes on answering
    expect((await rawHttp(srv.port, 'GET', '/healthz', {})).status).toBe(200);
    const client = new Client({ name: 'tokens-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('describe_tools');
    await client.close();

    // a later view has the exact o200k count (the worker loaded and counted it)
    const want = await exactTokens('issues_create');
    await expect
      .poll(async () => attr((await rawHttp(srv.port, 'GET', '/?tool=issues_create', {})).body, 'data-tokens'), { timeout: 100_000, interval: 250 })
      .toBe(String(want));
    expect(tokenizerState().state).toBe('ready');
    // once the tokenizer is ready, a page never seen before gets its exact count on its first view
    const other = await rawHttp(srv.port, 'GET', '/?tool=repos_get&level=full', {});
    expect(attr(other.body, 'data-tokens')).toBeDefined();
    expect(attr(other.body, 'data-estimate')).toBeUndefined();

    // the tripwire: nothing in this thread, the server's, ever imported the tokenizer
    expect(mainThreadLoads).toEqual([]);
  });
});
