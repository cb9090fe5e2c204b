// What the explorer tells a person who is stuck, in a real browser (Debian's chromium via playwright-core, against the
// real HTTP transport serving the embedded GitHub catalog), from a first-time user's review: "did you mean" for an
// unknown operation, domain or view (the server's own suggestions, as links), dry runs that name the placeholders still
// in the form and never redact the page's own example, the spelling a search read, what to try when nothing matched,
// long queries, paging past the end, links that land on their panel, clean addresses, a shell-ready curl command,
// domain-scoped hits from other domains marked, and the search log's wording. Fails when chromium is missing.
import { describe, expect, test, vi } from 'vitest';
import { suggestToolNames } from '../../src/server/core/catalogs.js';
import { LIMITS, toolNames } from '../../src/server/core/names.js';
import { searchTools } from '../../src/server/core/search.js';
import { PAGE_SIZE } from '../../src/server/explorer/paging.js';
import { suggestNames } from '../../src/registry/suggest.js';
import { explorerRig } from '../helpers/explorer.js';

vi.setConfig({ testTimeout: 90_000 });

const rig = explorerRig({
  name: 'ac-guidance',
  token: 'ghp_guidanceCanaryToken0123456789abcdef',
  viewport: { width: 1280, height: 800 },
  agent: { name: 'guidance-test-agent', session: async (agent) => void (await agent.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } })) },
});
const names = toolNames('');

const links = (selector: string): Promise<Array<[string, string]>> =>
  rig.page.locator(`${selector} a`).evaluateAll((as) => as.map((a) => [(a.textContent ?? '').trim(), a.getAttribute('href') ?? ''] as [string, string]));

describe('names that do not exist', () => {
  test('an unknown operation offers describe_tools’ own suggestions as links', async () => {
    const res = await rig.page.goto(`${rig.base}/?tool=issues_creat`);
    expect(res?.status()).toBe(404);
    const want = suggestToolNames(rig.set, 'issues_creat');
    expect(want[0]).toBe('issues_create');
    expect(await links('#suggestions')).toEqual(want.map((n) => [n, `/?tool=${n}`]));
    await rig.page.locator('#suggestions').getByRole('link', { name: 'issues_create', exact: true }).click();
    expect(await rig.page.locator('h1').textContent()).toBe('issues_create');
  });

  test('an unknown domain, browsed or searched in, offers the closest domains in people’s words', async () => {
    expect((await rig.page.goto(`${rig.base}/?domain=isues`))?.status()).toBe(404);
    expect(await links('#suggestions')).toEqual(suggestNames('isues', rig.set.domainNames).map((d) => [d, `/?domain=${d}`]));

    const res = await rig.page.goto(`${rig.base}/?q=create+issue&domain=isues`);
    expect(res?.status()).toBe(404);
    const text = (await rig.page.locator('main').textContent()) ?? '';
    expect(text).toContain('There is no domain named isues');
    expect(text).not.toMatch(/Call search_tools|list_domains/);
    await rig.page.getByRole('link', { name: 'Search “create issue” in issues' }).click();
    await rig.page.waitForURL(/domain=issues/);
    expect(await rig.page.locator('#domain-filter').inputValue()).toBe('issues');
    expect(await rig.page.locator('#results tbody tr').count()).toBeGreaterThan(0);
  });

  test('an unknown view is a 404 that names the views', async () => {
    expect((await rig.page.goto(`${rig.base}/?view=foo`))?.status()).toBe(404);
    expect(await links('#suggestions')).toEqual([
      ['Import report', '/?view=import'],
      ['Search log', '/?view=log'],
    ]);
  });
});

describe('dry runs', () => {
  test('the pre-filled placeholders are named, never called valid, and never shown as examples', async () => {
    await rig.page.goto(`${rig.base}/?tool=issues_create`);
    expect(await rig.page.locator('#args').inputValue()).toContain('"<owner>"');
    const examples = await rig.page.locator('#parameters-table td.example').allTextContents();
    expect(examples.filter((e) => /"<[\w.-]+>"/.test(e))).toEqual([]);
    expect(examples.join(' ')).toContain('"Found a bug"');
    await rig.page.getByRole('button', { name: 'Dry run' }).click();
    await rig.page.waitForURL(/args=/);
    expect(await rig.page.locator('#dry-run-placeholders').textContent()).toMatch(/^Still a placeholder: owner, repo\..*execute_tool refuses the call \(INVALID_ARGUMENTS\) and sends nothing\.$/);
    expect(await rig.page.locator('#dry-run-result').textContent()).not.toContain('Valid arguments');
    expect(await rig.page.locator('#dry-run-verdict').textContent()).toMatch(/^Not ready to send/);
    // real values: valid, and nothing about placeholders
    await rig.page.locator('#args').fill('{"owner": "octo", "repo": "hello", "title": "Bug"}');
    await rig.page.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => rig.page.locator('#dry-run-verdict').textContent()).toMatch(/^Valid arguments/);
    expect(await rig.page.locator('#dry-run-placeholders').count()).toBe(0);
    expect(rig.up.requests).toHaveLength(0);
  });

  test('the page’s own pre-filled example is never taken for a credential; a pasted one still is', async () => {
    for (const tool of ['apps_check-token', 'code-scanning_upload-sarif']) {
      await rig.page.goto(`${rig.base}/?tool=${tool}`);
      const prefilled = await rig.page.locator('#args').inputValue();
      await rig.page.getByRole('button', { name: 'Dry run' }).click();
      await rig.page.waitForURL(/args=/);
      expect(rig.page.url(), tool).not.toContain('redacted=1');
      expect(await rig.page.locator('#dry-run-redacted').count(), tool).toBe(0);
      expect(JSON.parse(await rig.page.locator('#args').inputValue()), tool).toEqual(JSON.parse(prefilled));
    }
    await rig.page.goto(`${rig.base}/?tool=apps_check-token`);
    await rig.page.locator('#args').fill('{"client_id": "Iv1.8a61f9b3a7aba766", "access_token": "gho_R7fKq2Lm9Xw4Tz8Nc1Vb6Hy3Jd5Gs0Pa2Qe7"}');
    await rig.page.getByRole('button', { name: 'Dry run' }).click();
    await rig.page.waitForURL(/redacted=1/);
    expect(await rig.page.locator('#args').inputValue()).toContain('[REDACTED]');
  });

  test('the curl command has one option a line, so no line breaks inside an option', async () => {
    await rig.page.goto(`${rig.base}/?tool=issues_create&args=${encodeURIComponent('{"owner": "octo", "repo": "hello", "title": "Bug"}')}`);
    const lines = ((await rig.page.locator('#dry-run-curl').textContent()) ?? '').split('\n');
    expect(lines[0]).toMatch(/^curl -X POST '.*\/repos\/octo\/hello\/issues' \\$/);
    expect(lines.slice(1).every((l) => /^ {2}-/.test(l))).toBe(true);
    expect(lines.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true);
    expect(lines.at(-1)).toBe(`  --data-raw '{"title":"Bug"}'`);
    // as drawn: the option's name is on one line
    const rects = await rig.page.evaluate(`(() => {
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
    await rig.page.goto(`${rig.base}/?tool=issues_create`);
    const hrefs = await rig.page.locator('#agent-json .tabs a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.every((h) => h?.endsWith('#agent-json'))).toBe(true);
    await rig.page.locator('#agent-json summary').click();
    await rig.page.getByRole('link', { name: 'Level 3 · full' }).click();
    await rig.page.waitForURL(/level=full#agent-json$/);
    const box = await rig.page.locator('#agent-json').boundingBox();
    expect(box !== null && box.y >= 0 && box.y < 800).toBe(true);
  });
});

describe('searching', () => {
  test('a corrected spelling is shown; nothing found offers what to try, names opening their operation', async () => {
    await rig.page.goto(`${rig.base}/?q=${encodeURIComponent('lst pul requets')}`);
    expect(await rig.page.locator('#corrected').textContent()).toMatch(/^Showing results for lst pul request: the search read “requets” as “request”/);
    await rig.page.goto(`${rig.base}/?q=${encodeURIComponent('create an issue')}`);
    expect(await rig.page.locator('#corrected').count()).toBe(0);

    await rig.page.goto(`${rig.base}/?q=issuesgett`);
    const env = await searchTools(rig.set, { query: 'issuesgett', limit: PAGE_SIZE }, names);
    const suggested = (env.success ? (env.value as { suggestions: { didYouMean: string[] } }).suggestions.didYouMean : []) as string[];
    expect(suggested.length).toBeGreaterThan(0);
    expect(await links('#did-you-mean')).toEqual(suggested.map((s) => [s, rig.set.byName.has(s) ? `/?tool=${s}` : `/?q=${encodeURIComponent(s)}`]));
    expect(await links('#next-steps')).toContainEqual(['Browse every domain', '/']);
    await rig.page.locator('#did-you-mean a').first().click();
    expect(await rig.page.locator('h1').textContent()).toBe(suggested[0]);
  });

  test('a long query is cut with an ellipsis in the heading and title; the box takes no more than search_tools keeps', async () => {
    const long = `create an issue ${'with many words '.repeat(37)}`.slice(0, 600);
    await rig.page.goto(`${rig.base}/?q=${encodeURIComponent(long)}`);
    const h1 = (await rig.page.locator('h1').textContent()) ?? '';
    expect(h1).toMatch(/…$/);
    expect(h1.length).toBeLessThan(120);
    expect(await rig.page.title()).toMatch(/… ·/);
    expect(await rig.page.locator('#q').getAttribute('maxlength')).toBe(String(LIMITS.queryMaxChars));
    expect((await rig.page.locator('#q').inputValue()).length).toBeLessThanOrEqual(LIMITS.queryMaxChars);
  });

  test('paging past the end shows the last page', async () => {
    const env = await searchTools(rig.set, { query: 'issus_lst', limit: PAGE_SIZE }, names);
    const total = env.success ? (env.value as { total: number }).total : 0;
    expect(total).toBeGreaterThan(PAGE_SIZE);
    const last = Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE;
    await rig.page.goto(`${rig.base}/?q=issus_lst&offset=${total + 400}`);
    expect(await rig.page.locator('#result-summary').textContent()).toContain(`showing ${last + 1}–${total} of ${total}`);
    expect(await rig.page.locator('#results tbody tr').count()).toBe(total - last);
    expect(await rig.page.locator('.pager a[rel=prev]').getAttribute('href')).toBe(`/?q=issus_lst&offset=${last - PAGE_SIZE || ''}`.replace(/&offset=$/, ''));
  });

  test('the search form leaves out an empty domain; a domain-scoped search marks hits from other domains', async () => {
    await rig.page.goto(`${rig.base}/`);
    await rig.page.locator('#q').fill('list labels');
    await rig.page.keyboard.press('Enter');
    await rig.page.waitForURL(/\?q=list\+labels$/);
    await rig.page.locator('#domain-filter').selectOption('issues');
    await rig.page.getByRole('button', { name: 'Search' }).click();
    await rig.page.waitForURL(/\?q=list\+labels&domain=issues$/);
    const rows = await rig.page.locator('#results tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('td.domain a')?.textContent ?? '', tr.querySelector('td.domain .badge')?.textContent ?? '']),
    );
    expect(rows.some(([d]) => d !== 'issues')).toBe(true);
    for (const [d, badge] of rows) expect(badge, d).toBe(d === 'issues' ? '' : 'from another domain');
  });

  test('the search log says the explorer’s own searches are not logged, and gives times in UTC', async () => {
    await rig.page.goto(`${rig.base}/?view=log`);
    expect(await rig.page.locator('#log-source').textContent()).toContain('searches made on these pages are not');
    expect(await rig.page.locator('#queries tbody tr').count()).toBe(1); // the agent's; none of this file's page searches
    const times = await rig.page.locator('#recent td.time time').evaluateAll((ts) => ts.map((t) => [t.textContent, t.getAttribute('datetime')]));
    expect(times.length).toBeGreaterThan(0);
    for (const [text, iso] of times) expect(text).toBe(`${iso?.replace('T', ' ').slice(0, 19)} UTC`);
  });
});
