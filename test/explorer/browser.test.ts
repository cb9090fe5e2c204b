// The catalog explorer in a real headless browser: Debian's chromium driven by playwright-core against the real
// Streamable HTTP transport serving the embedded GitHub catalog. Deep links, paged lists, searching by typing and why
// each hit ranks, the tool page (parameters table, the agent's JSON behind a toggle with token counts checked against
// js-tiktoken), dry runs at shareable addresses beside their form (never upstream, never a credential in the address),
// display names and renames, the search log and import report, phone page heights, JavaScript off, and the token
// login. Fails when chromium is missing.
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
import { PAGE_SIZE } from '../../src/server/explorer/paging.js';
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
const THINGS_TITLE = 'Things for agents';
const THINGS_DESCRIPTION = 'Everything a thing store does, for the tests.';

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

  // a small registry with an import warning and a re-import, for the import report; with a display name and a
  // renamed operation (x-api-catalog-name through an overlay)
  cpSync('test/fixtures/specs/oas30.yaml', join(dir, 'things.yaml'));
  writeFileSync(join(dir, 'names.yaml'), "overlay: 1.0.0\ninfo: { title: names, version: '1' }\nactions:\n  - target: $.paths['/things/{id}/tags'].post\n    update: { x-api-catalog-name: things_tag }\n");
  const thingsOptions = { title: THINGS_TITLE, description: THINGS_DESCRIPTION, overlays: [{ file: join(dir, 'names.yaml') }] };
  writeRegistry(await importSpec(join(dir, 'things.yaml'), thingsOptions), join(dir, 'reg'));
  writeFileSync(join(dir, 'things.yaml'), readFileSync(join(dir, 'things.yaml'), 'utf8').replace('summary: Replace a thing', 'summary: Replace a thing entirely'));
  writeRegistry(await importSpec(join(dir, 'things.yaml'), thingsOptions), join(dir, 'reg'));
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
  test('/ names the API and lists its domains with their counts, a page at a time; security headers and no script', async () => {
    const res = await page.goto(`${base(srv)}/`);
    expect(res?.status()).toBe(200);
    const headers = res?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    const github = set.catalogs[0]?.meta;
    expect(await page.locator('#catalog-title').textContent()).toBe(github?.title);
    const shown: string[][] = [];
    for (;;) {
      const domains = await rows('#domains');
      expect(domains.length).toBeLessThanOrEqual(PAGE_SIZE);
      shown.push(...domains);
      const next = page.locator('.pager a[rel=next]');
      if ((await next.count()) === 0) break;
      await next.click();
    }
    expect(shown.map((r) => r[0])).toEqual(set.domains.map((d) => d.name));
    const issues = shown.find((r) => r[0] === 'issues');
    expect(Number(issues?.[1])).toBe(set.domains.find((d) => d.name === 'issues')?.toolCount);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.title()).toContain(github?.title);
  });

  test('/?domain=issues lists that domain, paged; the pager walks every operation once', async () => {
    await page.goto(`${base(srv)}/?domain=issues`);
    expect(await page.locator('h1').textContent()).toContain('issues');
    const want = set.operations.filter((o) => o.domain === 'issues').map((o) => o.name);
    expect(want.length).toBeGreaterThan(PAGE_SIZE);
    const seen: string[] = [];
    for (;;) {
      seen.push(...(await rows('#operations')).map((r) => r[0]?.replace(/ destructive$/, '') as string));
      const next = page.locator('.pager a[rel=next]');
      if ((await next.count()) === 0) break;
      await next.click();
    }
    expect(seen).toEqual(want);
    // and back
    await page.locator('.pager a[rel=prev]').click();
    expect((await rows('#operations'))[0]?.[0]?.replace(/ destructive$/, '')).toBe(want[Math.floor((want.length - 1) / PAGE_SIZE) * PAGE_SIZE - PAGE_SIZE]);
  });

  test('/?q= shows the agents’ ranking with the same scores, and the next page', async () => {
    await page.goto(`${base(srv)}/?q=${encodeURIComponent('create an issue')}`);
    const shown = await rows('#results');
    const expected = await coreSearch('create an issue');
    expect(shown.map((r) => [r[2], Number(r[1])])).toEqual(expected.map((r) => [r.name, r.score]));
    expect(shown[0]?.[2]).toBe('issues_create');
    await page.locator('.pager a[rel=next]').click();
    await page.waitForURL(/offset=25/);
    const next = await rows('#results');
    const env = await searchTools(set, { query: 'create an issue', limit: 25, offset: 25 }, names);
    if (!env.success) throw new Error('search failed');
    expect(next.map((r) => [Number(r[0]), r[2]])).toEqual((env.value as { results: Array<{ name: string }> }).results.map((r, i) => [26 + i, r.name]));
  });

  test('why each hit ranks: the query reading and each hit’s factors, folded, from SearchIndex explain', async () => {
    await page.goto(`${base(srv)}/?q=${encodeURIComponent('create an issue')}`);
    expect(await page.locator('#explain').getAttribute('open')).toBeNull();
    expect(await page.locator('#explain-table').isVisible()).toBe(false);
    await page.locator('#explain summary').click();
    const explained = set.index.search('create an issue', { limit: 25, explain: true });
    const reading = await page.locator('#reading').textContent();
    expect(reading).toContain(`Read as${explained.reading?.words}`);
    expect(reading).toContain(`Head noun${explained.reading?.head}`);
    const table = await rows('#explain-table');
    expect(table.map((r) => r[1])).toEqual(explained.results.map((h) => h.name));
    const top = explained.results[0]?.explain;
    expect(table[0]?.[2]).toBe(`${top?.retrieval.toFixed(3)}${top?.retrievalWeight ?? ''}`);
    expect(table[0]?.[3]).toBe(`${Math.round((top?.coverage ?? 0) * 100)}%`);
    for (const s of top?.signals.filter((x) => x.factor !== 1) ?? []) expect(table[0]?.[4]).toContain(`${s.name} ×${s.factor.toFixed(3)}`);
    expect(table[0]?.[5]).toBe(top?.reranked.toFixed(3));
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
    const hostile = '{"title": "</textarea><script>alert(1)</script>"}';
    await page.goto(`${base(srv)}/?tool=issues_create&args=${encodeURIComponent(hostile)}`);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('#args').inputValue()).toBe(hostile);
  });
});

describe('the tool page', () => {
  test('search by typing, open a result: parameters as a table, the agent’s JSON behind a toggle with the server’s token count', async () => {
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
    // one row per argument: name, in, type, required as the registry has them
    const op = set.byName.get(first)?.op;
    const params = await rows('#parameters-table');
    expect(params.map((r) => r[0])).toEqual(Object.keys(op?.inputSchema.properties ?? {}));
    for (const r of params) {
      const b = op?.bindings.find((x) => x.arg === r[0]);
      expect(r[1], r[0]).toBe(b?.in);
      expect(r[3], r[0]).toBe(op?.inputSchema.required?.includes(r[0] as string) ? 'required' : '');
    }
    // the describe_tools answer is folded away until asked for
    expect(await page.locator('#agent-json').getAttribute('open')).toBeNull();
    expect(await page.locator('#describe-output').isVisible()).toBe(false);
    await page.locator('#agent-json summary').click();
    for (const [label, level] of [['Level 2 · parameters', 'parameters'], ['Level 3 · full', 'full'], ['Level 1 · summary', 'summary']] as const) {
      if (level !== 'parameters') await page.getByRole('link', { name: label }).click();
      await expect.poll(() => page.locator('.tabs [aria-current=page]').textContent()).toBe(label);
      // a level picked explicitly keeps the toggle open
      expect(await page.locator('#describe-output').isVisible()).toBe(true);
      const want = expectedTokens(first, level);
      // the tokenizer loads in a worker: until then the page shows an estimate, and a reload the exact count
      await expect
        .poll(async () => {
          const count = await page.locator('#token-count').getAttribute('data-tokens');
          if (count === null) {
            await page.reload();
            // the first level is the page's default: a reload folds the answer away again, the tabs with it
            if ((await page.locator('#agent-json').getAttribute('open')) === null) await page.locator('#agent-json summary').click();
          }
          return Number(count);
        }, { timeout: 60_000 })
        .toBe(want.tokens);
      expect(await page.locator('#token-count').textContent()).toBe(`${want.tokens} tokens`);
      expect(JSON.parse((await page.locator('#describe-output').textContent()) as string)).toEqual(want.envelope);
    }
  });

  test('a dry run answers beside its form, in the first viewport, at an address anyone can open; nothing is sent', async () => {
    up.clear();
    await page.goto(`${base(srv)}/?tool=issues_create`);
    expect(await page.locator('#dry-run-result').textContent()).toContain('Press Dry run');
    await page.locator('#args').fill('{"owner": "octo", "repo": "hello", "title": "Bug"}');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.waitForURL(/\?tool=issues_create&args=.*#try$/);
    const request = JSON.parse((await page.locator('#dry-run-request').textContent()) as string) as { method: string; url: string; headers: Record<string, string>; body: string };
    expect(request).toMatchObject({ method: 'POST', url: `${up.url}/repos/octo/hello/issues`, body: '{"title":"Bug"}' });
    expect(request.headers.authorization).toBe('Bearer ***');
    expect(await page.locator('#dry-run-curl').textContent()).toMatch(/^curl -X POST '.*\/repos\/octo\/hello\/issues'/);
    expect(await page.content()).not.toContain(CANARY);
    // the address is the dry run: opened afresh (no fragment, another browser context) it shows the same answer,
    // beside the form and in the first 1280 x 800 viewport (a laptop; the screenshots' size)
    const shared = page.url().replace(/#try$/, '');
    expect(shared).not.toContain(CANARY);
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await other.newPage();
      await p.goto(shared);
      expect(JSON.parse((await p.locator('#dry-run-request').textContent()) as string)).toEqual(request);
      const form = await p.locator('form.try-form').boundingBox();
      const answer = await p.locator('#dry-run-result').boundingBox();
      const ok = await p.locator('#dry-run-result .ok').boundingBox();
      expect(form && answer && ok).toBeTruthy();
      if (!form || !answer || !ok) return;
      expect(answer.x).toBeGreaterThanOrEqual(form.x + form.width); // beside, to the right
      expect(answer.y).toBeLessThan(form.y + form.height); // on the same band, not below it
      expect(ok.y + ok.height).toBeLessThanOrEqual(800); // readable without scrolling
      expect(await p.locator('#dry-run-link').getAttribute('href')).toBe(`${shared.slice(base(srv).length)}#try`);
    } finally {
      await other.close();
    }
    // the form keeps what was typed; invalid arguments show execute_tool's own error
    await page.locator('#args').fill('{"owner": "octo"}');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => page.locator('#dry-run-result [role=alert]').textContent()).toMatch(/^INVALID_ARGUMENTS: .*required property/);
    expect(await page.locator('#args').inputValue()).toBe('{"owner": "octo"}');
    await page.locator('#args').fill('{not json');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => page.locator('#dry-run-error').textContent()).toContain('not valid JSON');
    expect(up.requests).toHaveLength(0);
  });

  test('no credential ever stays in a dry run’s address: pasted tokens, credential-named arguments and the server’s own secret', async () => {
    const pasted = 'ghp_R7fKq2Lm9Xw4Tz8Nc1Vb6Hy3Jd5Gs0Pa2Qe7';
    for (const [args, gone] of [
      [`{"owner": "octo", "repo": "hello", "title": "token ${pasted}"}`, pasted],
      [`{"owner": "octo", "repo": "hello", "title": "Bug", "body": "${CANARY}"}`, CANARY],
      ['{"owner": "octo", "repo": "hello", "title": "Bug", "password": "hunter2-is-not-safe"}', 'hunter2-is-not-safe'],
    ] as const) {
      await page.goto(`${base(srv)}/?tool=issues_create`);
      await page.locator('#args').fill(args);
      await page.getByRole('button', { name: 'Dry run' }).click();
      await page.waitForURL(/redacted=1/);
      expect(page.url()).not.toContain(encodeURIComponent(gone).slice(0, 12));
      expect(decodeURIComponent(page.url())).toContain('[REDACTED]');
      expect(await page.locator('#dry-run-redacted').textContent()).toContain('credential-shaped value was taken out');
      expect(await page.content()).not.toContain(gone);
      expect(await page.locator('#args').inputValue()).toContain('[REDACTED]');
    }
    // the form of earlier versions (a POST) is answered with the cleaned address
    const posted = await rawHttp(srv.port, 'POST', '/explorer/dry-run', { origin: base(srv), 'content-type': 'application/x-www-form-urlencoded' }, `tool=issues_create&args=${encodeURIComponent(`{"title": "${pasted}"}`)}`);
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toMatch(/^\/\?tool=issues_create&args=.*&redacted=1#try$/);
    expect(decodeURIComponent(String(posted.headers.location))).not.toContain(pasted);
  });

  test('a catalog’s display name and description, and a renamed operation’s former name', async () => {
    await page.goto(`${base(srvThings)}/`);
    expect(await page.locator('#catalog-title').textContent()).toBe(THINGS_TITLE);
    expect(await page.locator('.catalog-description').textContent()).toBe(THINGS_DESCRIPTION);
    expect(await page.locator('header .brand').textContent()).toContain(THINGS_TITLE);
    await page.goto(`${base(srvThings)}/?tool=things_tag`);
    expect(await page.locator('#renamed-from').textContent()).toContain('Renamed from things_add-tags');
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
  test('on a phone: no horizontal scrolling, and pages of a reasonable height (they ran to 5,000-19,500 px)', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const p = await phone.newPage();
    const dry = `/?tool=issues_create&args=${encodeURIComponent('{"owner": "octo", "repo": "hello", "title": "Bug"}')}`;
    try {
      // Before paging and compact rows (commit 450521a, 390 x 844): / 5,688 px, /?domain=repos 19,528,
      // /?domain=issues 6,029, /?q=create an issue 5,214. A page now holds 25 rows of two or three lines.
      for (const path of ['/', '/?domain=repos', '/?domain=issues', '/?q=create%20an%20issue', '/?tool=issues_create', '/?tool=issues_create&level=full', dry, '/?view=log']) {
        await p.goto(`${base(srv)}${path}`);
        const { scroll, client, height } = await p.evaluate<{ scroll: number; client: number; height: number }>(
          '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, height: document.documentElement.scrollHeight })',
        );
        expect(scroll, path).toBeLessThanOrEqual(client + 1);
        expect(height, path).toBeLessThanOrEqual(3000);
      }
      // the dry run's answer follows its form on a narrow screen
      await p.goto(`${base(srv)}${dry}`);
      const form = await p.locator('form.try-form').boundingBox();
      const answer = await p.locator('#dry-run-result').boundingBox();
      expect(form !== null && answer !== null && answer.y >= form.y + form.height).toBe(true);
    } finally {
      await phone.close();
    }
  });

  test('works with JavaScript disabled: search, the toggles and a dry run', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const p = await noJs.newPage();
    try {
      await p.goto(`${base(srv)}/`);
      await p.locator('#q').fill('get a repository');
      await p.keyboard.press('Enter');
      await p.waitForURL(/\?q=get\+a\+repository/);
      expect(await p.locator('#results tbody tr').count()).toBeGreaterThan(0);
      await p.locator('#explain summary').click();
      expect(await p.locator('#explain-table').isVisible()).toBe(true);
      await p.goto(`${base(srv)}/?tool=repos_get`);
      await p.locator('#args').fill('{"owner": "octo", "repo": "hello"}');
      await p.getByRole('button', { name: 'Dry run' }).click();
      await p.waitForURL(/args=/);
      expect(JSON.parse((await p.locator('#dry-run-request').textContent()) as string)).toMatchObject({ method: 'GET', url: `${up.url}/repos/octo/hello` });
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
    expect(sameOrigin.status).toBe(303);
    expect(sameOrigin.headers.location).toBe('/?tool=issues_create&args=%7B%7D#try');
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
