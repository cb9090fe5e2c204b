// The catalog explorer in a real headless browser: Debian's chromium driven by playwright-core against the real
// Streamable HTTP transport serving the embedded GitHub catalog. Deep links, searching by typing, describe levels
// with token counts checked against js-tiktoken on the same describe_tools answer, dry runs (never upstream),
// the search log and import report, a phone viewport, JavaScript off, and the token login. Fails when chromium is missing.
import { existsSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet, type ExecutionSettings } from '../../src/server/core/catalogs.js';
import { describeTools, type DetailLevel } from '../../src/server/core/describe.js';
import { toolNames } from '../../src/server/core/names.js';
import { searchTools } from '../../src/server/core/search.js';
import { SearchLog } from '../../src/server/search-log.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { rawHttp } from '../helpers/raw-http.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

// A browser on two shared cores: page loads can take seconds under load.
vi.setConfig({ testTimeout: 90_000 });

const CHROMIUM = '/usr/bin/chromium';
const CANARY = 'ghp_canaryExplorerToken0123456789abcdef';
const LOGIN_TOKEN = 'explorer-login-token-5f0c2b7a9e';
const NONSENSE = 'qqqxyzzy wibblefrotz';

let dir = '';
let set: CatalogSet;
let things: CatalogSet;
let settings: ExecutionSettings;
let up: Upstream;
let srv: HttpHandle;
let srvAuth: HttpHandle;
let srvThings: HttpHandle;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const encoder = new Tiktoken(o200k);
const names = toolNames('');

/** What the page must show: o200k tokens of the compact describe_tools answer an agent gets. */
function expectedTokens(tool: string, detail: DetailLevel): { tokens: number; envelope: unknown } {
  const { envelope } = describeTools(set, { tool_names: [tool], detail }, names, { settings });
  return { tokens: encoder.encode(JSON.stringify(envelope)).length, envelope };
}

async function coreSearch(query: string): Promise<Array<{ name: string; score: number }>> {
  const env = await searchTools(set, { query, limit: 25 }, names);
  if (!env.success) throw new Error('search failed');
  return (env.value as { results: Array<{ name: string; score: number }> }).results;
}

async function rows(selector: string): Promise<string[][]> {
  return page.locator(`${selector} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
}

beforeAll(async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does`).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'ac-explorer-'));
  up = await startUpstream();
  set = loadCatalogSet([]);
  void set.index;
  settings = { baseUrls: { github: up.url }, readOnly: false, env: { GITHUB_TOKEN: CANARY } };
  const searchLog = new SearchLog({ file: join(dir, 'search.jsonl') });
  srv = await serveHttp({ catalogs: set, settings, searchLog, rateLimitPerMinute: 0 }, { port: 0, explorer: true });
  srvAuth = await serveHttp({ catalogs: set, settings, rateLimitPerMinute: 0 }, { port: 0, explorer: true, authToken: LOGIN_TOKEN });

  // a small registry with an import warning and a re-import, for the import report
  cpSync('test/fixtures/specs/oas30.yaml', join(dir, 'things.yaml'));
  writeRegistry(await importSpec(join(dir, 'things.yaml')), join(dir, 'reg'));
  writeFileSync(join(dir, 'things.yaml'), readFileSync(join(dir, 'things.yaml'), 'utf8').replace('summary: Replace a thing', 'summary: Replace a thing entirely'));
  writeRegistry(await importSpec(join(dir, 'things.yaml')), join(dir, 'reg'));
  things = loadCatalogSet([join(dir, 'reg', 'things')]);
  srvThings = await serveHttp({ catalogs: things, settings: { baseUrls: {}, readOnly: false, env: {} } }, { port: 0, explorer: true });

  // an agent session over real HTTP fills the search log: one useful search, one that finds nothing
  const client = new Client({ name: 'explorer-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
  await client.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
  await client.callTool({ name: 'describe_tools', arguments: { tool_names: ['issues_create'] } });
  await client.callTool({ name: 'search_tools', arguments: { query: NONSENSE } });
  await client.close();

  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([srv?.close(), srvAuth?.close(), srvThings?.close(), up?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const base = (h: HttpHandle): string => `http://127.0.0.1:${h.port}`;

describe('deep links', () => {
  test('/ lists every domain with its count; security headers and no script', async () => {
    const res = await page.goto(`${base(srv)}/`);
    expect(res?.status()).toBe(200);
    const headers = res?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    const domains = await rows('#domains');
    expect(domains).toHaveLength(set.domains.length);
    const issues = domains.find((r) => r[0] === 'issues');
    expect(Number(issues?.[1])).toBe(set.domains.find((d) => d.name === 'issues')?.toolCount);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.title()).toContain('Domains');
  });

  test('/?domain=issues lists that domain', async () => {
    await page.goto(`${base(srv)}/?domain=issues`);
    expect(await page.locator('h1').textContent()).toContain('issues');
    const ops = await rows('#operations');
    expect(ops.map((r) => r[0]?.replace(/ destructive$/, ''))).toEqual(set.operations.filter((o) => o.domain === 'issues').map((o) => o.name));
  });

  test('/?q= shows the agents’ ranking with the same scores', async () => {
    await page.goto(`${base(srv)}/?q=${encodeURIComponent('create an issue')}`);
    const shown = await rows('#results');
    const expected = await coreSearch('create an issue');
    expect(shown.map((r) => [r[2], Number(r[1])])).toEqual(expected.map((r) => [r.name, r.score]));
    expect(shown[0]?.[2]).toBe('issues_create');
  });

  test('/?tool= shows the operation; an unknown one is a 404 page', async () => {
    const res = await page.goto(`${base(srv)}/?tool=repos_get`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('repos_get');
    const missing = await page.goto(`${base(srv)}/?tool=no_such_tool`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator('[role=alert]').textContent()).toContain('no_such_tool');
  });

  test('hostile input is escaped, never markup', async () => {
    await page.goto(`${base(srv)}/?q=${encodeURIComponent('<script>alert(1)</script><img src=x>')}`);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('h1').textContent()).toContain('<script>alert(1)</script>');
  });
});

describe('search, describe levels, dry run', () => {
  test('search by typing, open a result, switch levels: the token count is the server’s count', async () => {
    await page.goto(`${base(srv)}/`);
    await page.locator('#q').pressSequentially('list pull requests');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?q=list\+pull\+requests/);
    const expected = await coreSearch('list pull requests');
    const shown = await rows('#results');
    expect(shown[0]?.[2]).toBe(expected[0]?.name);
    const first = expected[0]?.name as string;
    await page.locator('#results tbody tr').first().getByRole('link', { name: first }).click();
    await page.waitForURL(new RegExp(`\\?tool=${first}`));
    for (const [label, level] of [['Level 2 · parameters', 'parameters'], ['Level 3 · full', 'full'], ['Level 1 · summary', 'summary']] as const) {
      if (level !== 'parameters') await page.getByRole('link', { name: label }).click();
      await expect.poll(() => page.locator('.tabs [aria-current=page]').textContent()).toBe(label);
      const want = expectedTokens(first, level);
      expect(Number(await page.locator('#token-count').getAttribute('data-tokens'))).toBe(want.tokens);
      expect(await page.locator('#token-count').textContent()).toBe(`${want.tokens} tokens`);
      expect(JSON.parse((await page.locator('#describe-output').textContent()) as string)).toEqual(want.envelope);
    }
  });

  test('dry run shows the exact request and curl with the credential redacted, and sends nothing', async () => {
    up.clear();
    await page.goto(`${base(srv)}/?tool=issues_create`);
    await page.locator('#args').fill('{"owner": "octo", "repo": "hello", "title": "Bug"}');
    await page.getByRole('button', { name: 'Dry run' }).click();
    const request = JSON.parse((await page.locator('#dry-run-request').textContent()) as string) as { method: string; url: string; headers: Record<string, string>; body: string };
    expect(request).toMatchObject({ method: 'POST', url: `${up.url}/repos/octo/hello/issues`, body: '{"title":"Bug"}' });
    expect(request.headers.authorization).toBe('Bearer ***');
    expect(await page.locator('#dry-run-curl').textContent()).toMatch(/^curl -X POST '.*\/repos\/octo\/hello\/issues'/);
    expect(await page.content()).not.toContain(CANARY);
    expect(up.requests).toHaveLength(0);
    // the form keeps what was typed; invalid arguments show execute_tool's own error
    await page.locator('#args').fill('{"owner": "octo"}');
    await page.getByRole('button', { name: 'Dry run' }).click();
    expect(await page.locator('#dry-run-result [role=alert]').textContent()).toMatch(/^INVALID_ARGUMENTS: .*required property/);
    await page.locator('#args').fill('{not json');
    await page.getByRole('button', { name: 'Dry run' }).click();
    expect(await page.locator('#dry-run-error').textContent()).toContain('not valid JSON');
    expect(up.requests).toHaveLength(0);
  });
});

describe('operator views', () => {
  test('the search log lists the query that found nothing first, and the one an agent used', async () => {
    await page.goto(`${base(srv)}/?view=log`);
    const queries = await rows('#queries');
    expect(queries[0]?.[0]).toBe(`no good result ${NONSENSE}`);
    const used = queries.find((r) => r[0] === 'create an issue');
    expect(used?.[4]).toBe('1/1');
    const recent = await rows('#recent');
    expect(recent.some((r) => r[3]?.includes('describe issues_create (#1)'))).toBe(true);
  });

  test('the import report shows warnings, lint findings and the last re-import’s changes', async () => {
    await page.goto(`${base(srvThings)}/?view=import`);
    expect(await page.locator('#warnings-things tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#lint-things').textContent()).toBe('No lint findings.');
    // a warning about an operation links to it (its pointer is #/paths/~1things/get/...)
    const listed = things.operations.find((o) => o.method === 'get' && o.path === '/things')?.name as string;
    expect(await page.locator('#warnings-things tbody tr').first().textContent()).toContain('#/paths/~1things/get');
    await page.locator('#warnings-things').getByRole('link', { name: listed }).click();
    expect(await page.locator('h1').textContent()).toBe(listed);
    await page.goto(`${base(srvThings)}/?view=import`);
    expect(await page.locator('#changes-things').textContent()).toContain('things_replace');
    await page.goto(`${base(srv)}/?view=import`);
    expect(await page.locator('#warnings-github').textContent()).toBe('No import warnings.');
  });
});

describe('layout and access', () => {
  test('readable on a phone: no horizontal scrolling on the main views', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const p = await phone.newPage();
    try {
      for (const path of ['/', '/?q=create%20an%20issue', '/?tool=issues_create&level=full', '/?view=log']) {
        await p.goto(`${base(srv)}${path}`);
        const { scroll, client } = await p.evaluate<{ scroll: number; client: number }>(
          '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
        );
        expect(scroll, path).toBeLessThanOrEqual(client + 1);
      }
    } finally {
      await phone.close();
    }
  });

  test('works with JavaScript disabled', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const p = await noJs.newPage();
    try {
      await p.goto(`${base(srv)}/`);
      await p.locator('#q').fill('get a repository');
      await p.keyboard.press('Enter');
      await p.waitForURL(/\?q=get\+a\+repository/);
      expect(await p.locator('#results tbody tr').count()).toBeGreaterThan(0);
    } finally {
      await noJs.close();
    }
  });

  test('with a token: a login form once, then an HttpOnly SameSite=Strict cookie that is not the token', async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    try {
      const first = await p.goto(`${base(srvAuth)}/?q=create%20an%20issue`);
      expect(first?.status()).toBe(401);
      await p.locator('#token').fill('wrong-token-value-123456');
      await p.getByRole('button', { name: 'Log in' }).click();
      expect(await p.locator('[role=alert]').textContent()).toContain('not right');
      await p.locator('#token').fill(LOGIN_TOKEN);
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.waitForURL(/\?q=create%20an%20issue|\?q=create\+an\+issue/);
      expect(await p.locator('#results tbody tr').count()).toBeGreaterThan(0);
      const [cookie] = await ctx.cookies();
      expect(cookie).toMatchObject({ name: 'api_catalog_explorer', httpOnly: true, sameSite: 'Strict' });
      expect(cookie?.value).not.toContain(LOGIN_TOKEN);
      // logging out ends it
      await p.getByRole('button', { name: 'Log out' }).click();
      expect((await p.goto(`${base(srvAuth)}/`))?.status()).toBe(401);
    } finally {
      await ctx.close();
    }
  });

  test('the /mcp checks apply: bearer header, Host and Origin', async () => {
    expect((await rawHttp(srvAuth.port, 'GET', '/', {})).status).toBe(401);
    const withHeader = await rawHttp(srvAuth.port, 'GET', '/?domain=issues', { authorization: `Bearer ${LOGIN_TOKEN}` });
    expect(withHeader.status).toBe(200);
    expect(withHeader.body).toContain('<h1>Domain <code>issues</code></h1>');
    expect((await rawHttp(srvAuth.port, 'GET', '/', { authorization: 'Bearer not-the-token-000000' })).status).toBe(401);
    expect((await rawHttp(srv.port, 'GET', '/', { host: 'evil.example' })).status).toBe(403);
    const form = 'tool=issues_create&args=%7B%7D';
    const foreign = await rawHttp(srv.port, 'POST', '/explorer/dry-run', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(foreign.status).toBe(403);
    const sameOrigin = await rawHttp(srv.port, 'POST', '/explorer/dry-run', { origin: base(srv), 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(sameOrigin.status).toBe(200);
    expect((await rawHttp(srv.port, 'DELETE', '/', {})).status).toBe(405);
    const login = (headers: Record<string, string>) =>
      rawHttp(srvAuth.port, 'POST', '/explorer/login', { 'content-type': 'application/x-www-form-urlencoded', ...headers }, `token=${LOGIN_TOKEN}&next=%2F%3Fview%3Dlog`);
    const plain = await login({});
    expect(plain.status).toBe(303);
    expect(plain.headers.location).toBe('/?view=log');
    expect(String(plain.headers['set-cookie'])).toMatch(/^api_catalog_explorer=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(String((await login({ 'x-forwarded-proto': 'https' })).headers['set-cookie'])).toMatch(/; Secure$/);
    // never a redirect to another origin
    const offsite = await rawHttp(srvAuth.port, 'POST', '/explorer/login', { 'content-type': 'application/x-www-form-urlencoded' }, `token=${LOGIN_TOKEN}&next=%2F%2Fevil.example%2F`);
    expect(offsite.headers.location).toBe('/');
  });
});
