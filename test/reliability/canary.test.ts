// H1 (with H2, H3, H4, H6, H7): canary secrets in the environment (basic auth, API key in header and query,
// bearer, GITHUB_TOKEN) drive whole sessions through the spawned stdio and HTTP servers — dry runs, upstream echoes
// of the credential, a 401 body carrying it, HTML errors, cross-origin redirects, bad arguments, resources — and
// every captured byte (stdout, stderr, HTTP bodies and headers, import output), in each protocol era, is scanned for the secrets and
// their encoded forms. 0 hits. The credentials must still reach the upstream, so the scan cannot pass vacuously.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ERAS, REPO_ROOT, type Era } from '../helpers/mcp.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { envelope, httpDriver, importFixture, stdioDriver, threadHandles, type Driver, type Message } from './helpers.js';

const hex = (n: number): string => randomBytes(n).toString('hex');
const USER = `vault-user-${hex(4)}`;
const PASSWORD = `CANARY-${hex(8)}/p@ss w0rd+=`;
const API_KEY = `CANARY-${hex(8)}`;
const TOKEN = `CANARY-${hex(8)}`;
const GITHUB_TOKEN = `CANARY-${hex(8)}`;
const CLIENT_TOKEN = `CLIENT-${hex(8)}`;
const SECRETS = { PASSWORD, API_KEY, TOKEN, GITHUB_TOKEN };

/** Every form a leaked secret could take in output. */
function needles(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const b64url = (s: string): string => Buffer.from(s).toString('base64url');
  for (const [name, s] of Object.entries(SECRETS)) {
    out.push([name, s], [`${name} urlencoded`, encodeURIComponent(s)], [`${name} form-encoded`, new URLSearchParams({ x: s }).toString().slice(2)]);
    out.push([`${name} base64`, b64(s)], [`${name} base64url`, b64url(s)], [`${name} JSON-escaped`, JSON.stringify(s).slice(1, -1)]);
    out.push([`${name} random core`, s.slice('CANARY-'.length, 'CANARY-'.length + 16)]);
  }
  out.push(['basic user:password base64', b64(`${USER}:${PASSWORD}`)], ['basic user:password base64url', b64url(`${USER}:${PASSWORD}`)]);
  // Base64 of a string embedded at another offset differs; the middle of the encoding of `user:pass` is stable.
  out.push(['basic base64 core', b64(`${USER}:${PASSWORD}`).slice(8, 40)]);
  return out;
}

function scan(label: string, text: string): string[] {
  return needles()
    .filter(([, n]) => n.length >= 8 && text.includes(n))
    .map(([what]) => `${label}: ${what}`);
}

let up: Upstream;
let other: Upstream;
let vaultDir: string;
let importOutput: string;
const githubDir = join(REPO_ROOT, 'registry', 'github');
const env = (): Record<string, string> => ({
  VAULT_USERNAME: USER,
  VAULT_PASSWORD: PASSWORD,
  VAULT_API_KEY: API_KEY,
  VAULT_TOKEN: TOKEN,
  GITHUB_TOKEN,
  VAULT_BASE_URL: `${up.url}/v1`,
  GITHUB_BASE_URL: up.url,
});

beforeAll(async () => {
  up = await startUpstream();
  other = await startUpstream();
  const echoAll = (req: { method?: string; url?: string; headers: Record<string, unknown> }, body: string): string =>
    JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body });
  up.route('/v1/basic/denied', {
    kind: 'handler',
    handle: (req, res, rec) => {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': `Basic realm="${req.headers.authorization ?? ''}"`, 'x-echo': String(req.headers.authorization ?? '') });
      res.end(JSON.stringify({ message: `bad credentials ${req.headers.authorization ?? ''} ${PASSWORD}`, echo: echoAll(req, rec.text) }));
    },
  });
  up.route('/v1/key/html-error', {
    kind: 'handler',
    handle: (req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(`<html><body><h1>Error</h1><pre>${String(req.headers['x-api-key'] ?? '')} at /srv/app.js:12 ${req.url ?? ''}</pre></body></html>`);
    },
  });
  up.route('/v1/key/redirect', { kind: 'redirect', status: 302, location: `${other.url}/v1/key/echo` });
  up.route('/v1/basic/move', { kind: 'redirect', status: 307, location: `${other.url}/v1/basic/echo` });
  const imported = importFixture(join(REPO_ROOT, 'test', 'fixtures', 'reliability', 'vault.yaml'), 'vault');
  vaultDir = imported.dir;
  importOutput = imported.output;
});

afterAll(async () => {
  await up?.close();
  await other?.close();
});

/** The whole session both transports run. Returns the responses by step for assertions. */
async function session(d: Driver): Promise<Record<string, Message>> {
  const r: Record<string, Message> = {};
  r.toolsList = await d.rpc('tools/list');
  r.resources = await d.rpc('resources/list');
  r.templates = await d.rpc('resources/templates/list');
  r.domains = await d.tool('list_domains', {});
  r.search = await d.tool('search_tools', { query: 'echo the request with an api key' });
  r.searchGithub = await d.tool('search_tools', { query: 'get a repository' });
  r.executeUndescribed = await d.tool('execute_tool', { tool_name: 'vault.keyEcho', args: {} });
  const names = ['vault.basicEcho', 'vault.basicDenied', 'vault.basicMove', 'vault.keyEcho', 'vault.keyRedirect'];
  r.describe = await d.tool('describe_tools', { tool_names: names });
  r.describe2 = await d.tool('describe_tools', { tool_names: ['vault.keyHtmlError', 'vault.keyItem', 'vault.queryEcho', 'vault.bearerEcho', 'github.repos_get'] });
  r.describeFull = await d.tool('describe_tools', { tool_names: ['vault.basicEcho'], detail: 'full' });
  r.resourceRead = await d.rpc('resources/read', { uri: 'resource:///tool_descriptions?tools=vault.basicEcho,vault.queryEcho,vault.bearerEcho' });
  for (const op of ['basicEcho', 'keyEcho', 'queryEcho', 'bearerEcho', 'basicMove']) {
    r[`dry_${op}`] = await d.tool('execute_tool', { tool_name: `vault.${op}`, args: op === 'basicMove' ? { note: 'x' } : {}, dry_run: true });
  }
  r.basicEcho = await d.tool('execute_tool', { tool_name: 'vault.basicEcho', args: {} });
  r.keyEcho = await d.tool('execute_tool', { tool_name: 'vault.keyEcho', args: { q: 'hello' } });
  r.queryEcho = await d.tool('execute_tool', { tool_name: 'vault.queryEcho', args: {} });
  r.bearerEcho = await d.tool('execute_tool', { tool_name: 'vault.bearerEcho', args: {} });
  r.githubRepo = await d.tool('execute_tool', { tool_name: 'github.repos_get', args: { owner: 'octo', repo: 'hello' } });
  r.denied = await d.tool('execute_tool', { tool_name: 'vault.basicDenied', args: {} });
  r.htmlError = await d.tool('execute_tool', { tool_name: 'vault.keyHtmlError', args: {} });
  r.redirect302 = await d.tool('execute_tool', { tool_name: 'vault.keyRedirect', args: {} });
  r.redirect307 = await d.tool('execute_tool', { tool_name: 'vault.basicMove', args: { note: 'x' } });
  r.badArgs = await d.tool('execute_tool', { tool_name: 'vault.keyItem', args: { id: 'not-a-number', extra: API_KEY.slice(0, 3) } });
  r.unknown = await d.tool('execute_tool', { tool_name: 'vault.nope', args: {} });
  r.badRpc = await d.rpc('tools/call', { name: 'no_such_tool', arguments: {} });
  r.badMethod = await d.rpc('no/such/method');
  return r;
}

function checkSession(r: Record<string, Message>, kind: string): void {
  const e = (k: string): Message => envelope(r[k] as Message);
  // The flow really ran: credentials were sent upstream, dry runs and refusals happened.
  expect(e('executeUndescribed').error?.code, kind).toBe('TOOL_DESCRIPTION_REQUIRED');
  for (const k of ['basicEcho', 'keyEcho', 'queryEcho', 'bearerEcho', 'githubRepo']) expect(e(k).success, `${kind} ${k} ${JSON.stringify(e(k)).slice(0, 300)}`).toBe(true);
  for (const k of ['dry_basicEcho', 'dry_keyEcho', 'dry_queryEcho', 'dry_bearerEcho', 'dry_basicMove']) expect(e(k).success, `${kind} ${k}`).toBe(true);
  expect(e('denied').success).toBe(false);
  expect(e('htmlError').success).toBe(false);
  for (const k of ['redirect302', 'redirect307']) expect(e(k).error?.code, `${kind} ${k}`).toBe('UPSTREAM_REDIRECT_REFUSED');
  expect(e('badArgs').error?.code).toBe('INVALID_ARGUMENTS');
  expect(e('unknown').error?.code).toBe('UNKNOWN_TOOL');
  // The upstream really echoed the credentials back; what the client got is the redaction marker instead.
  const echoed = JSON.stringify(e('keyEcho').value);
  expect(echoed, `${kind} keyEcho`).toContain('"x-api-key":"***"');
  expect(JSON.stringify(e('basicEcho').value), `${kind} basicEcho`).toMatch(/"authorization":"(Basic )?\*\*\*"/);
}

function checkUpstream(since: number, kind: string): void {
  const seen = up.requests.slice(since);
  const header = (p: string, h: string): unknown => seen.find((q) => q.pathname === p)?.headers[h];
  const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  expect(header('/v1/basic/echo', 'authorization'), kind).toBe(basic);
  expect(header('/v1/key/echo', 'x-api-key'), kind).toBe(API_KEY);
  expect(header('/v1/bearer/echo', 'authorization'), kind).toBe(`Bearer ${TOKEN}`);
  expect(seen.find((q) => q.pathname === '/v1/query/echo')?.url, kind).toContain(`api_key=${encodeURIComponent(API_KEY)}`);
  expect(String(header('/repos/octo/hello', 'authorization')), kind).toContain(GITHUB_TOKEN);
  // H6: the MCP client's own token (HTTP Authorization) never goes upstream.
  for (const q of seen) expect(JSON.stringify(q.headers) + q.url, kind).not.toContain(CLIENT_TOKEN);
  // H4: nothing with credentials (in fact nothing at all) reached the other origin.
  for (const q of other.requests) {
    const text = JSON.stringify(q.headers) + q.url + q.text;
    expect(scan(`${kind} second origin`, text)).toEqual([]);
  }
}

describe.each(ERAS)('H1 canary: no secret in any output (%s era)', (era: Era) => {
  test('stdio: a whole session through the spawned server', async () => {
    const since = up.requests.length;
    const d = await stdioDriver(['--registry', vaultDir, '--registry', githubDir], env(), era);
    let r: Record<string, Message>;
    try {
      r = await session(threadHandles(d));
    } finally {
      expect(await d.close()).toBe(0);
    }
    checkSession(r, 'stdio');
    checkUpstream(since, 'stdio');
    for (const line of d.capture.stdout.split('\n').filter((l) => l.trim() !== '')) expect((JSON.parse(line) as Message).jsonrpc).toBe('2.0');
    const hits = [...scan('stdout', d.capture.stdout), ...scan('stderr', d.capture.stderr), ...scan('import output', importOutput)];
    expect(hits).toEqual([]);
    expect(d.capture.stderr.length).toBeGreaterThan(0); // logs were produced and scanned
  }, 60_000);

  test('HTTP: a whole session, plus protocol errors, with a client bearer token that must not be forwarded', async () => {
    const since = up.requests.length;
    const d = await httpDriver(['--registry', vaultDir, '--registry', githubDir], env(), { authorization: `Bearer ${CLIENT_TOKEN}` }, era);
    let r: Record<string, Message>;
    try {
      r = await session(threadHandles(d));
      // Transport-level errors carry no secret either.
      await d.post('{bad json');
      await d.post('x'.repeat(5000) + API_KEY, { 'content-type': 'text/plain' });
      await d.post(JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'execute_tool', arguments: { tool_name: 'vault.keyEcho', args: { q: 1 } } } }), { 'mcp-session-id': 'nope' });
    } finally {
      await d.close();
    }
    checkSession(r, 'http');
    checkUpstream(since, 'http');
    const hits = [...scan('stdout', d.capture.stdout), ...scan('stderr', d.capture.stderr), ...d.capture.http.flatMap((t, i) => scan(`http response ${i}`, t))];
    expect(hits).toEqual([]);
    expect(d.capture.http.length).toBeGreaterThan(30);
  }, 60_000);
});

describe('H1 canary: the scan', () => {
  test('the scan itself finds a planted secret in every encoded form (guards against a vacuous pass)', () => {
    const basic = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    expect(scan('t', `Authorization: Basic ${basic}`).length).toBeGreaterThan(0);
    expect(scan('t', `?api_key=${encodeURIComponent(PASSWORD)}`).length).toBeGreaterThan(0);
    expect(scan('t', JSON.stringify({ k: API_KEY }))).toContain('t: API_KEY');
    expect(scan('t', Buffer.from(GITHUB_TOKEN).toString('base64'))).toContain('t: GITHUB_TOKEN base64');
    expect(scan('t', 'nothing here')).toEqual([]);
  });
});
