// What the explorer tells a person who is stuck, in a real browser (Debian's chromium via playwright-core, against the
// real HTTP transport serving the embedded GitHub catalog), from a first-time user's review: "did you mean" for an
// unknown operation, domain or view (the server's own suggestions, as links), dry runs that name the placeholders still
// in the form and never redact the page's own example, the spelling a search read, what to try when nothing matched,
// long queries, paging past the end, links that land on their panel, clean addresses, a shell-ready curl command,
// domain-scoped hits from other domains marked, and the search log's wording. Fails when chromium is missing.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadCatalogSet, suggestToolNames, type CatalogSet, type ExecutionSettings } from '../../src/server/core/catalogs.js';
import { LIMITS, toolNames } from '../../src/server/core/names.js';
import { searchTools } from '../../src/server/core/search.js';
import { PAGE_SIZE } from '../../src/server/explorer/paging.js';
import { SearchLog } from '../../src/server/search-log.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { suggestNames } from '../../src/registry/catalog.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

vi.setConfig({ testTimeout: 90_000 });

const CHROMIUM = '/usr/bin/chromium';
let dir = '';
let set: CatalogSet;
let settings: ExecutionSettings;
let up: Upstream;
let srv: HttpHandle;
let browser: Browser;
let page: Page;
let base = '';
const names = toolNames('');

beforeAll(async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does`).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'ac-guidance-'));
  up = await startUpstream();
  set = loadCatalogSet([]);
  void set.index;
  settings = { baseUrls: { github: up.url }, readOnly: false, env: { GITHUB_TOKEN: 'ghp_guidanceCanaryToken0123456789abcdef' } };
  srv = await serveHttp({ catalogs: set, settings, searchLog: new SearchLog({ file: join(dir, 'search.jsonl') }), rateLimitPerMinute: 0 }, { port: 0, explorer: true });
  base = `http://127.0.0.1:${srv.port}`;
  const agent = new Client({ name: 'guidance-test-agent', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
  await agent.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
  await agent.close();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([srv?.close(), up?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const links = (selector: string): Promise<Array<[string, string]>> =>
  page.locator(`${selector} a`).evaluateAll((as) => as.map((a) => [(a.textContent ?? '').trim(), a.getAttribute('href') ?? ''] as [string, string]));

describe('names that do not exist', () => {
  test('an unknown operation offers describe_tools’ own suggestions as links', async () => {
    const res = await page.goto(`${base}/?tool=issues_creat`);
    expect(res?.status()).toBe(404);
    const want = suggestToolNames(set, 'issues_creat');
    expect(want[0]).toBe('issues_create');
    expect(await links('#suggestions')).toEqual(want.map((n) => [n, `/?tool=${n}`]));
    await page.locator('#suggestions').getByRole('link', { name: 'issues_create', exact: true }).click();
    expect(await page.locator('h1').textContent()).toBe('issues_create');
  });

  test('an unknown domain, browsed or searched in, offers the closest domains in people’s words', async () => {
    expect((await page.goto(`${base}/?domain=isues`))?.status()).toBe(404);
    expect(await links('#suggestions')).toEqual(suggestNames('isues', set.domainNames).map((d) => [d, `/?domain=${d}`]));

    const res = await page.goto(`${base}/?q=create+issue&domain=isues`);
    expect(res?.status()).toBe(404);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('There is no domain named isues');
    expect(text).not.toMatch(/Call search_tools|list_domains/);
    await page.getByRole('link', { name: 'Search “create issue” in issues' }).click();
    await page.waitForURL(/domain=issues/);
    expect(await page.locator('#domain-filter').inputValue()).toBe('issues');
    expect(await page.locator('#results tbody tr').count()).toBeGreaterThan(0);
  });

  test('an unknown view is a 404 that names the views', async () => {
    expect((await page.goto(`${base}/?view=foo`))?.status()).toBe(404);
    expect(await links('#suggestions')).toEqual([
      ['Import report', '/?view=import'],
      ['Search log', '/?view=log'],
    ]);
  });
});

describe('dry runs', () => {
  test('the pre-filled placeholders are named, never called valid, and never shown as examples', async () => {
    await page.goto(`${base}/?tool=issues_create`);
    expect(await page.locator('#args').inputValue()).toContain('"<owner>"');
    const examples = await page.locator('#parameters-table td.example').allTextContents();
    expect(examples.filter((e) => /"<[\w.-]+>"/.test(e))).toEqual([]);
    expect(examples.join(' ')).toContain('"Found a bug"');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.waitForURL(/args=/);
    expect(await page.locator('#dry-run-placeholders').textContent()).toMatch(/^Still a placeholder: owner, repo\./);
    expect(await page.locator('#dry-run-result').textContent()).not.toContain('Valid arguments');
    expect(await page.locator('#dry-run-verdict').textContent()).toMatch(/^Not ready to send/);
    // real values: valid, and nothing about placeholders
    await page.locator('#args').fill('{"owner": "octo", "repo": "hello", "title": "Bug"}');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => page.locator('#dry-run-verdict').textContent()).toMatch(/^Valid arguments/);
    expect(await page.locator('#dry-run-placeholders').count()).toBe(0);
    expect(up.requests).toHaveLength(0);
  });

  test('the page’s own pre-filled example is never taken for a credential; a pasted one still is', async () => {
    for (const tool of ['apps_check-token', 'code-scanning_upload-sarif']) {
      await page.goto(`${base}/?tool=${tool}`);
      const prefilled = await page.locator('#args').inputValue();
      await page.getByRole('button', { name: 'Dry run' }).click();
      await page.waitForURL(/args=/);
      expect(page.url(), tool).not.toContain('redacted=1');
      expect(await page.locator('#dry-run-redacted').count(), tool).toBe(0);
      expect(JSON.parse(await page.locator('#args').inputValue()), tool).toEqual(JSON.parse(prefilled));
    }
    await page.goto(`${base}/?tool=apps_check-token`);
    await page.locator('#args').fill('{"client_id": "Iv1.8a61f9b3a7aba766", "access_token": "gho_R7fKq2Lm9Xw4Tz8Nc1Vb6Hy3Jd5Gs0Pa2Qe7"}');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.waitForURL(/redacted=1/);
    expect(await page.locator('#args').inputValue()).toContain('[REDACTED]');
  });

  test('the curl command has one option a line, so no line breaks inside an option', async () => {
    await page.goto(`${base}/?tool=issues_create&args=${encodeURIComponent('{"owner": "octo", "repo": "hello", "title": "Bug"}')}`);
    const lines = ((await page.locator('#dry-run-curl').textContent()) ?? '').split('\n');
    expect(lines[0]).toMatch(/^curl -X POST '.*\/repos\/octo\/hello\/issues' \\$/);
    expect(lines.slice(1).every((l) => /^ {2}-/.test(l))).toBe(true);
    expect(lines.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true);
    expect(lines.at(-1)).toBe(`  --data-raw '{"title":"Bug"}'`);
    // as drawn: the option's name is on one line
    const rects = await page.evaluate(`(() => {
      const text = document.querySelector('#dry-run-curl code').firstChild;
      const at = text.textContent.indexOf('--data-raw');
      const r = document.createRange();
      r.setStart(text, at);
      r.setEnd(text, at + '--data-raw'.length);
      return r.getClientRects().length;
    })()`);
    expect(rects).toBe(1);
  });

  test('the level links land on the describe panel', async () => {
    await page.goto(`${base}/?tool=issues_create`);
    const hrefs = await page.locator('#agent-json .tabs a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.every((h) => h?.endsWith('#agent-json'))).toBe(true);
    await page.locator('#agent-json summary').click();
    await page.getByRole('link', { name: 'Level 3 · full' }).click();
    await page.waitForURL(/level=full#agent-json$/);
    const box = await page.locator('#agent-json').boundingBox();
    expect(box !== null && box.y >= 0 && box.y < 800).toBe(true);
  });
});

describe('searching', () => {
  test('a corrected spelling is shown; nothing found offers what to try, names opening their operation', async () => {
    await page.goto(`${base}/?q=${encodeURIComponent('lst pul requets')}`);
    expect(await page.locator('#corrected').textContent()).toMatch(/^Showing results for lst pul request: the search read “requets” as “request”/);
    await page.goto(`${base}/?q=${encodeURIComponent('create an issue')}`);
    expect(await page.locator('#corrected').count()).toBe(0);

    await page.goto(`${base}/?q=issuesgett`);
    const env = await searchTools(set, { query: 'issuesgett', limit: PAGE_SIZE }, names);
    const suggested = (env.success ? (env.value as { suggestions: { didYouMean: string[] } }).suggestions.didYouMean : []) as string[];
    expect(suggested.length).toBeGreaterThan(0);
    expect(await links('#did-you-mean')).toEqual(suggested.map((s) => [s, set.byName.has(s) ? `/?tool=${s}` : `/?q=${encodeURIComponent(s)}`]));
    expect(await links('#next-steps')).toContainEqual(['Browse every domain', '/']);
    await page.locator('#did-you-mean a').first().click();
    expect(await page.locator('h1').textContent()).toBe(suggested[0]);
  });

  test('a long query is cut with an ellipsis in the heading and title; the box takes no more than search_tools keeps', async () => {
    const long = `create an issue ${'with many words '.repeat(37)}`.slice(0, 600);
    await page.goto(`${base}/?q=${encodeURIComponent(long)}`);
    const h1 = (await page.locator('h1').textContent()) ?? '';
    expect(h1).toMatch(/…$/);
    expect(h1.length).toBeLessThan(120);
    expect(await page.title()).toMatch(/… ·/);
    expect(await page.locator('#q').getAttribute('maxlength')).toBe(String(LIMITS.queryMaxChars));
    expect((await page.locator('#q').inputValue()).length).toBeLessThanOrEqual(LIMITS.queryMaxChars);
  });

  test('paging past the end shows the last page', async () => {
    const env = await searchTools(set, { query: 'issus_lst', limit: PAGE_SIZE }, names);
    const total = env.success ? (env.value as { total: number }).total : 0;
    expect(total).toBeGreaterThan(PAGE_SIZE);
    const last = Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE;
    await page.goto(`${base}/?q=issus_lst&offset=${total + 400}`);
    expect(await page.locator('#result-summary').textContent()).toContain(`showing ${last + 1}–${total} of ${total}`);
    expect(await page.locator('#results tbody tr').count()).toBe(total - last);
    expect(await page.locator('.pager a[rel=prev]').getAttribute('href')).toBe(`/?q=issus_lst&offset=${last - PAGE_SIZE || ''}`.replace(/&offset=$/, ''));
  });

  test('the search form leaves out an empty domain; a domain-scoped search marks hits from other domains', async () => {
    await page.goto(`${base}/`);
    await page.locator('#q').fill('list labels');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?q=list\+labels$/);
    await page.locator('#domain-filter').selectOption('issues');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\?q=list\+labels&domain=issues$/);
    const rows = await page.locator('#results tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('td.domain a')?.textContent ?? '', tr.querySelector('td.domain .badge')?.textContent ?? '']),
    );
    expect(rows.some(([d]) => d !== 'issues')).toBe(true);
    for (const [d, badge] of rows) expect(badge, d).toBe(d === 'issues' ? '' : 'from another domain');
  });

  test('the search log says the explorer’s own searches are not logged, and gives times in UTC', async () => {
    await page.goto(`${base}/?view=log`);
    expect(await page.locator('#log-source').textContent()).toContain('searches made on these pages are not');
    expect(await page.locator('#queries tbody tr').count()).toBe(1); // the agent's; none of this file's page searches
    const times = await page.locator('#recent td.time time').evaluateAll((ts) => ts.map((t) => [t.textContent, t.getAttribute('datetime')]));
    expect(times.length).toBeGreaterThan(0);
    for (const [text, iso] of times) expect(text).toBe(`${iso?.replace('T', ' ').slice(0, 19)} UTC`);
  });
});
