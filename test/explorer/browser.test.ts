// The catalog explorer in a real headless browser (test/helpers/explorer.ts: Debian's chromium driven by playwright-core
// against the real Streamable HTTP transport serving the embedded GitHub catalog): deep links, paged lists, searching
// and why each hit ranks, display names and renames, the search log and import report, phone page heights, JavaScript
// off, and the token login. The tool page (parameters, the agent's JSON and its token counts, dry runs) is
// tool-page.test.ts. Fails when chromium is missing.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { PAGE_SIZE } from '../../src/server/explorer/paging.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { toolNames } from '../../src/server/core/names.js';
import { searchTools } from '../../src/server/core/search.js';
import type { HttpHandle } from '../../src/server/transports/http.js';
import { agentSearch, baseOf, explorerRig, tableRows } from '../helpers/explorer.js';
import { rawHttp } from '../helpers/raw-http.js';

// A browser on two shared cores: page loads can take seconds under load.
vi.setConfig({ testTimeout: 90_000 });

const LOGIN_TOKEN = 'explorer-login-token-5f0c2b7a9e';
const NONSENSE = 'qqqxyzzy wibblefrotz';
const THINGS_TITLE = 'Things for agents';
const THINGS_DESCRIPTION = 'Everything a thing store does, for the tests.';

// an agent session over real HTTP fills the search log: one useful search, one that finds nothing
const rig = explorerRig({
  name: 'ac-explorer',
  token: 'ghp_canaryExplorerToken0123456789abcdef',
  viewport: { width: 1280, height: 900 },
  agent: {
    name: 'explorer-test-agent',
    session: async (client) => {
      await client.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
      await client.callTool({ name: 'describe_tools', arguments: { tool_names: ['issues_create'] } });
      await client.callTool({ name: 'search_tools', arguments: { query: NONSENSE } });
    },
  },
});
let things: CatalogSet;
let srvAuth: HttpHandle;
let srvThings: HttpHandle;
const names = toolNames('');
const rows = (selector: string): Promise<string[][]> => tableRows(rig.page, selector);

beforeAll(async () => {
  srvAuth = await rig.serve({ catalogs: rig.set, settings: rig.settings, rateLimitPerMinute: 0 }, { authToken: LOGIN_TOKEN });
  // a small registry with an import warning and a re-import, for the import report; with a display name and a
  // renamed operation (x-api-catalog-name through an overlay)
  const dir = rig.dir;
  cpSync('test/fixtures/specs/oas30.yaml', join(dir, 'things.yaml'));
  writeFileSync(join(dir, 'names.yaml'), "overlay: 1.0.0\ninfo: { title: names, version: '1' }\nactions:\n  - target: $.paths['/things/{id}/tags'].post\n    update: { x-api-catalog-name: things_tag }\n");
  const thingsOptions = { title: THINGS_TITLE, description: THINGS_DESCRIPTION, overlays: [{ file: join(dir, 'names.yaml') }] };
  writeRegistry(await importSpec(join(dir, 'things.yaml'), thingsOptions), join(dir, 'reg'));
  writeFileSync(join(dir, 'things.yaml'), readFileSync(join(dir, 'things.yaml'), 'utf8').replace('summary: Replace a thing', 'summary: Replace a thing entirely'));
  writeRegistry(await importSpec(join(dir, 'things.yaml'), thingsOptions), join(dir, 'reg'));
  things = loadCatalogSet([join(dir, 'reg', 'things')]);
  srvThings = await rig.serve({ catalogs: things, settings: { baseUrls: {}, readOnly: false, env: {} } });
}, 120_000);

describe('deep links', () => {
  test('/ names the API and lists its domains with their counts, a page at a time; security headers and no script', async () => {
    const res = await rig.page.goto(`${rig.base}/`);
    expect(res?.status()).toBe(200);
    const headers = res?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    const github = rig.set.catalogs[0]?.meta;
    expect(await rig.page.locator('#catalog-title').textContent()).toBe(github?.title);
    const shown: string[][] = [];
    for (;;) {
      const domains = await rows('#domains');
      expect(domains.length).toBeLessThanOrEqual(PAGE_SIZE);
      shown.push(...domains);
      const next = rig.page.locator('.pager a[rel=next]');
      if ((await next.count()) === 0) break;
      await next.click();
    }
    expect(shown.map((r) => r[0])).toEqual(rig.set.domains.map((d) => d.name));
    const issues = shown.find((r) => r[0] === 'issues');
    expect(Number(issues?.[1])).toBe(rig.set.domains.find((d) => d.name === 'issues')?.toolCount);
    expect(await rig.page.locator('script').count()).toBe(0);
    expect(await rig.page.title()).toContain(github?.title);
  });

  test('/?domain=issues lists that domain, paged; the pager walks every operation once', async () => {
    await rig.page.goto(`${rig.base}/?domain=issues`);
    expect(await rig.page.locator('h1').textContent()).toContain('issues');
    const want = rig.set.operations.filter((o) => o.domain === 'issues').map((o) => o.name);
    expect(want.length).toBeGreaterThan(PAGE_SIZE);
    const seen: string[] = [];
    for (;;) {
      seen.push(...(await rows('#operations')).map((r) => r[0]?.replace(/ destructive$/, '') as string));
      const next = rig.page.locator('.pager a[rel=next]');
      if ((await next.count()) === 0) break;
      await next.click();
    }
    expect(seen).toEqual(want);
    // and back
    await rig.page.locator('.pager a[rel=prev]').click();
    expect((await rows('#operations'))[0]?.[0]?.replace(/ destructive$/, '')).toBe(want[Math.floor((want.length - 1) / PAGE_SIZE) * PAGE_SIZE - PAGE_SIZE]);
  });

  test('/?q= shows the agents’ ranking with the same scores, and the next page', async () => {
    await rig.page.goto(`${rig.base}/?q=${encodeURIComponent('create an issue')}`);
    const shown = await rows('#results');
    const expected = await agentSearch(rig.set, 'create an issue');
    expect(shown.map((r) => [r[2], Number(r[1])])).toEqual(expected.map((r) => [r.name, r.score]));
    expect(shown[0]?.[2]).toBe('issues_create');
    await rig.page.locator('.pager a[rel=next]').click();
    await rig.page.waitForURL(/offset=25/);
    const next = await rows('#results');
    const env = await searchTools(rig.set, { query: 'create an issue', limit: 25, offset: 25 }, names);
    if (!env.success) throw new Error('search failed');
    expect(next.map((r) => [Number(r[0]), r[2]])).toEqual((env.value as { results: Array<{ name: string }> }).results.map((r, i) => [26 + i, r.name]));
  });

  test('why each hit ranks: the query reading and each hit’s factors, folded, from SearchIndex explain', async () => {
    await rig.page.goto(`${rig.base}/?q=${encodeURIComponent('create an issue')}`);
    expect(await rig.page.locator('#explain').getAttribute('open')).toBeNull();
    expect(await rig.page.locator('#explain-table').isVisible()).toBe(false);
    await rig.page.locator('#explain summary').click();
    const explained = rig.set.index.search('create an issue', { limit: 25, explain: true });
    const reading = await rig.page.locator('#reading').textContent();
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
    const res = await rig.page.goto(`${rig.base}/?tool=repos_get`);
    expect(res?.status()).toBe(200);
    expect(await rig.page.locator('h1').textContent()).toBe('repos_get');
    const missing = await rig.page.goto(`${rig.base}/?tool=no_such_tool`);
    expect(missing?.status()).toBe(404);
    expect(await rig.page.locator('[role=alert]').textContent()).toContain('no_such_tool');
  });

  test('hostile input is escaped, never markup', async () => {
    await rig.page.goto(`${rig.base}/?q=${encodeURIComponent('<script>alert(1)</script><img src=x>')}`);
    expect(await rig.page.locator('script').count()).toBe(0);
    expect(await rig.page.locator('main img').count()).toBe(0);
    expect(await rig.page.locator('h1').textContent()).toContain('<script>alert(1)</script>');
    const hostile = '{"title": "</textarea><script>alert(1)</script>"}';
    await rig.page.goto(`${rig.base}/?tool=issues_create&args=${encodeURIComponent(hostile)}`);
    expect(await rig.page.locator('script').count()).toBe(0);
    expect(await rig.page.locator('#args').inputValue()).toBe(hostile);
  });
});

describe('a catalog’s own names', () => {
  test('a catalog’s display name and description, and a renamed operation’s former name', async () => {
    await rig.page.goto(`${baseOf(srvThings)}/`);
    expect(await rig.page.locator('#catalog-title').textContent()).toBe(THINGS_TITLE);
    expect(await rig.page.locator('.catalog-description').textContent()).toBe(THINGS_DESCRIPTION);
    expect(await rig.page.locator('header .brand').textContent()).toContain(THINGS_TITLE);
    await rig.page.goto(`${baseOf(srvThings)}/?tool=things_tag`);
    expect(await rig.page.locator('#renamed-from').textContent()).toContain('Renamed from things_add-tags');
  });
});

describe('operator views', () => {
  test('the search log lists the query that found nothing first, and the one an agent used', async () => {
    await rig.page.goto(`${rig.base}/?view=log`);
    const queries = await rows('#queries');
    expect(queries[0]?.[0]).toBe(`no good result ${NONSENSE}`);
    const used = queries.find((r) => r[0] === 'create an issue');
    expect(used?.[4]).toBe('1/1');
    const recent = await rows('#recent');
    expect(recent.some((r) => r[3]?.includes('describe issues_create (#1)'))).toBe(true);
  });

  test('the import report shows warnings, lint findings and the last re-import’s changes', async () => {
    await rig.page.goto(`${baseOf(srvThings)}/?view=import`);
    expect(await rig.page.locator('#warnings-things tbody tr').count()).toBeGreaterThan(0);
    expect(await rig.page.locator('#lint-things').textContent()).toBe('No lint findings.');
    // a warning about an operation links to it (its pointer is #/paths/~1things/get/...)
    const listed = things.operations.find((o) => o.method === 'get' && o.path === '/things')?.name as string;
    expect(await rig.page.locator('#warnings-things tbody tr').first().textContent()).toContain('#/paths/~1things/get');
    await rig.page.locator('#warnings-things').getByRole('link', { name: listed }).click();
    expect(await rig.page.locator('h1').textContent()).toBe(listed);
    await rig.page.goto(`${baseOf(srvThings)}/?view=import`);
    expect(await rig.page.locator('#changes-things').textContent()).toContain('things_replace');
    await rig.page.goto(`${rig.base}/?view=import`);
    expect(await rig.page.locator('#warnings-github').textContent()).toBe('No import warnings.');
  });
});

describe('layout and access', () => {
  test('on a phone: no horizontal scrolling, and pages of a reasonable height (they ran to 5,000-19,500 px)', async () => {
    const phone = await rig.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const p = await phone.newPage();
    const dry = `/?tool=issues_create&args=${encodeURIComponent('{"owner": "octo", "repo": "hello", "title": "Bug"}')}`;
    try {
      // Before paging and compact rows (commit 450521a, 390 x 844): / 5,688 px, /?domain=repos 19,528,
      // /?domain=issues 6,029, /?q=create an issue 5,214. A page now holds 25 rows of two or three lines.
      for (const path of ['/', '/?domain=repos', '/?domain=issues', '/?q=create%20an%20issue', '/?tool=issues_create', '/?tool=issues_create&level=full', dry, '/?view=log']) {
        await p.goto(`${rig.base}${path}`);
        const { scroll, client, height } = await p.evaluate<{ scroll: number; client: number; height: number }>(
          '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, height: document.documentElement.scrollHeight })',
        );
        expect(scroll, path).toBeLessThanOrEqual(client + 1);
        expect(height, path).toBeLessThanOrEqual(3000);
      }
      // the dry run's answer follows its form on a narrow screen
      await p.goto(`${rig.base}${dry}`);
      const form = await p.locator('form.try-form').boundingBox();
      const answer = await p.locator('#dry-run-result').boundingBox();
      expect(form !== null && answer !== null && answer.y >= form.y + form.height).toBe(true);
    } finally {
      await phone.close();
    }
  });

  test('works with JavaScript disabled: search, the toggles and a dry run', async () => {
    const noJs = await rig.browser.newContext({ javaScriptEnabled: false });
    const p = await noJs.newPage();
    try {
      await p.goto(`${rig.base}/`);
      await p.locator('#q').fill('get a repository');
      await p.keyboard.press('Enter');
      await p.waitForURL(/\?q=get\+a\+repository/);
      expect(await p.locator('#results tbody tr').count()).toBeGreaterThan(0);
      await p.locator('#explain summary').click();
      expect(await p.locator('#explain-table').isVisible()).toBe(true);
      await p.goto(`${rig.base}/?tool=repos_get`);
      await p.locator('#args').fill('{"owner": "octo", "repo": "hello"}');
      await p.getByRole('button', { name: 'Dry run' }).click();
      await p.waitForURL(/args=/);
      expect(JSON.parse((await p.locator('#dry-run-request').textContent()) as string)).toMatchObject({ method: 'GET', url: `${rig.up.url}/repos/octo/hello` });
    } finally {
      await noJs.close();
    }
  });

  test('with a token: a login form once, then an HttpOnly SameSite=Strict cookie that is not the token', async () => {
    const ctx = await rig.browser.newContext();
    const p = await ctx.newPage();
    try {
      const first = await p.goto(`${baseOf(srvAuth)}/?q=create%20an%20issue`);
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
      expect((await p.goto(`${baseOf(srvAuth)}/`))?.status()).toBe(401);
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
    expect((await rawHttp(rig.srv.port, 'GET', '/', { host: 'evil.example' })).status).toBe(403);
    const form = 'tool=issues_create&args=%7B%7D';
    const foreign = await rawHttp(rig.srv.port, 'POST', '/explorer/dry-run', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(foreign.status).toBe(403);
    const sameOrigin = await rawHttp(rig.srv.port, 'POST', '/explorer/dry-run', { origin: rig.base, 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(sameOrigin.status).toBe(303);
    expect(sameOrigin.headers.location).toBe('/?tool=issues_create&args=%7B%7D#try');
    expect((await rawHttp(rig.srv.port, 'DELETE', '/', {})).status).toBe(405);
    const login = (headers: Record<string, string>) =>
      rawHttp(srvAuth.port, 'POST', '/explorer/login', { 'content-type': 'application/x-www-form-urlencoded', ...headers }, `token=${LOGIN_TOKEN}&next=%2F%3Fview%3Dlog`);
    const plain = await login({});
    expect(plain.status).toBe(303);
    expect(plain.headers.location).toBe('/?view=log');
    expect(String(plain.headers['set-cookie'])).toMatch(/^api_catalog_explorer=\d+\.[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(String((await login({ 'x-forwarded-proto': 'https' })).headers['set-cookie'])).toMatch(/; Secure$/);
    // never a redirect to another origin
    const offsite = await rawHttp(srvAuth.port, 'POST', '/explorer/login', { 'content-type': 'application/x-www-form-urlencoded' }, `token=${LOGIN_TOKEN}&next=%2F%2Fevil.example%2F`);
    expect(offsite.headers.location).toBe('/');
  });
});
