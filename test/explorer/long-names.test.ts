// From the explorer's browser audit, with the names that broke it (test/helpers/long-names.ts: Microsoft Graph's dotted
// camelCase names and long domain slugs, Stripe's camelCase names and unbroken lower-case domains), served over the
// real HTTP transport and read in Debian's chromium: at 390 and 1280 px no table is wider than its box and no name is
// cut off or pushed out of the page, and the header's domain filter stays narrow; the domains page and a domain's page
// read catalog.json and that one domain's file, never every operations file (the catalog's own count of parsed
// files); with hundreds of domains a page does not carry them all (its weight is that of its own rows) and the
// domains page jumps to a catalog's domains and to any page; form fields' borders are 3:1 and placeholders 4.5:1 on
// their backgrounds in both palettes. Fails when chromium is missing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { loadCatalogSet, writeSearchSnapshot, type CatalogSet } from '../../src/server/core/catalogs.js';
import { PAGE_SIZE } from '../../src/server/explorer/paging.js';
import type { HttpHandle } from '../../src/server/transports/http.js';
import { baseOf, explorerRig } from '../helpers/explorer.js';
import { longNameRegistries } from '../helpers/long-names.js';
import { rawHttp } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';

vi.setConfig({ testTimeout: 180_000 });

const rig = explorerRig({ name: 'ac-long-names', token: 'ghp_longNamesCanaryToken0123456789abcdef', viewport: { width: 1280, height: 900 } });
const SETTINGS = { baseUrls: {}, readOnly: false, env: {} };

/** Domains of the big server: as many as the audit's six-catalog server (721). */
const MANY = { msgraph: 400, stripe: 321 };
/** Domains of the small one: few enough for the header's list. */
const FEW = { msgraph: 20, stripe: 20 };

let many: HttpHandle;
let few: HttpHandle;
/**
 * The Graph-like catalog alone with its search snapshot (as `api-catalog import` writes it), served by a server
 * nothing else reads: the audit's Microsoft Graph server. Its index is restored without reading an operation, so
 * every operations file parsed there is one a page asked for.
 */
let fresh: { set: CatalogSet; srv: HttpHandle };
let manySet: CatalogSet;

beforeAll(async () => {
  const manyDirs = await longNameRegistries(tempDir('ac-long-names-many-'), MANY);
  writeSearchSnapshot(manyDirs[0] as string);
  // an import warning about one operation, for the import report to link
  const warning = { level: 'warning', code: 'NAME_COLLISION', pointer: `#/paths/${LISTED.replace(/\//g, '~1')}/get`, message: 'two operations map to one name' };
  writeFileSync(join(manyDirs[0] as string, 'diagnostics.json'), JSON.stringify([warning]));
  manySet = loadCatalogSet(manyDirs);
  many = await rig.serve({ catalogs: manySet, settings: SETTINGS, rateLimitPerMinute: 0 });
  const freshSet = loadCatalogSet([manyDirs[0] as string]);
  fresh = { set: freshSet, srv: await rig.serve({ catalogs: freshSet, settings: SETTINGS, rateLimitPerMinute: 0 }) };
  few = await rig.serve({ catalogs: loadCatalogSet(await longNameRegistries(tempDir('ac-long-names-few-'), FEW)), settings: SETTINGS, rateLimitPerMinute: 0 });
}, 300_000);

/** The path of an operation an import warning names. */
const LISTED = '/solutions/bookingBusinesses003/{bookingBusiness-id}/appointments';

/** The served name of the domain `i` of the Graph-like catalog, and of its cancel operation (it has a `from` column). */
function graphDomain(set: CatalogSet, i: number): string {
  return set.domainNames.filter((d) => d.startsWith('msgraph.'))[i] as string;
}

/** Everything in the page that is wider than its box or reaches out of the page (none is the answer wanted). */
async function overflowing(p: Page): Promise<string[]> {
  return p.evaluate(`(() => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
    for (const w of document.querySelectorAll('.table-wrap')) {
      if (w.scrollWidth > w.clientWidth + 1) out.push('table #' + w.firstElementChild.id + ' is ' + w.scrollWidth + ' px in a ' + w.clientWidth + ' px box');
    }
    for (const el of document.querySelectorAll('td, td a, td code, header input, header select, header button')) {
      if (el.getClientRects().length === 0) continue;
      // a cell that ends in an ellipsis on purpose (what an operation requires, a request line on a phone)
      const clipped = el.closest('td') && getComputedStyle(el.closest('td')).textOverflow === 'ellipsis';
      if (clipped) continue;
      const r = el.getBoundingClientRect();
      const what = el.tagName + '.' + el.className + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
      if (r.right > vw + 0.5 || r.left < -0.5) out.push(what + ' reaches ' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + vw);
      if (el.tagName === 'TD' && el.scrollWidth > el.clientWidth + 1) out.push(what + ' is wider than its cell');
    }
    return out;
  })()`);
}

describe('long names wrap', () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: no table wider than its box, every name on screen, the domain filter narrow`, async () => {
      const ctx = await rig.browser.newContext({ viewport: { width, height: 844 }, ...(width < 700 ? { isMobile: true } : {}) });
      const p = await ctx.newPage();
      try {
        // (the first domains of each catalog, and so their operations, are the same on both servers)
        const graph = graphDomain(manySet, 0);
        const stripeDomain = manySet.domainNames.find((d) => d.startsWith('stripe.')) as string;
        const cancel = manySet.operations.find((o) => o.domain === graph && o.method === 'post')?.name as string;
        for (const srv of [few, many]) {
          const base = baseOf(srv);
          const paths = [
            '/',
            '/?q=cancel%20booking%20appointment',
            '/?q=update%20customer%20subscription',
            `/?domain=${encodeURIComponent(graph)}`,
            `/?domain=${encodeURIComponent(stripeDomain)}`,
            `/?tool=${encodeURIComponent(cancel)}`,
          ];
          for (const path of paths) {
            await p.goto(`${base}${path}`);
            expect(await overflowing(p), `${width} px ${path}`).toEqual([]);
          }
          // the operation page has the `from` column of long names, and the search results every column
          await p.goto(`${base}/?tool=${encodeURIComponent(cancel)}`);
          expect(await p.locator('#parameters-table td.from a').count()).toBeGreaterThan(0);
          await p.goto(`${base}/?q=cancel%20booking%20appointment`);
          const names = p.locator('#results td.name a');
          expect(await names.count()).toBe(PAGE_SIZE);
          for (const box of await names.evaluateAll((links) => links.map((a) => { const r = a.getBoundingClientRect(); return { width: r.width, right: r.right }; }))) {
            expect(box.width).toBeGreaterThan(0);
            expect(box.right).toBeLessThanOrEqual(width);
          }
          // the domain filter: a list of 40 long names, or a field for 721; neither squeezes the search box
          const filter = await p.locator('#domain-filter').boundingBox();
          const search = await p.locator('#q').boundingBox();
          expect(await p.locator('#domain-filter').evaluate((el) => el.tagName)).toBe(srv === few ? 'SELECT' : 'INPUT');
          if (width > 700) {
            expect(filter?.width, 'domain filter').toBeLessThanOrEqual(16 * 16 + 1);
            expect(search?.width, 'search box').toBeGreaterThanOrEqual(width / 2);
            // on one line: the filter's middle is within the search box's height
            const middle = (filter?.y ?? 0) + (filter?.height ?? 0) / 2;
            expect(middle, 'one line').toBeGreaterThan(search?.y ?? 0);
            expect(middle, 'one line').toBeLessThan((search?.y ?? 0) + (search?.height ?? 0));
          }
        }
      } finally {
        await ctx.close();
      }
    });
  }
});

describe('what a page reads', () => {
  test('the domains page and a domain page parse no operations file but that domain’s (catalog.json has the counts)', async () => {
    const catalog = fresh.set.catalogs[0];
    const parsed = (): string[] => catalog?.parsedFiles?.() ?? ['?'];
    const home = await rawHttp(fresh.srv.port, 'GET', '/?offset=50', {});
    expect(home.status).toBe(200);
    expect(home.body).toContain(`${MANY.msgraph}</span> domains, ${MANY.msgraph * 2} operations; showing 51–75`);
    expect(home.body).toContain(`version 1.0, ${MANY.msgraph * 2} operations`);
    expect(parsed()).toEqual([]);
    const domain = fresh.set.domainNames[7] as string;
    const page = await rawHttp(fresh.srv.port, 'GET', `/?domain=${encodeURIComponent(domain)}`, {});
    expect(page.status).toBe(200);
    expect(page.body).toContain('2 operations; showing 1–2 of 2');
    expect(parsed()).toEqual([`${domain}.json`]);
    // the import report links the operation its warning names, found without the catalog's full (blocking) parse:
    // through the catalog's own reading, one domain's file a turn
    const report = await rawHttp(fresh.srv.port, 'GET', '/?view=import', {});
    const named = manySet.operations.find((o) => o.method === 'get' && o.path === LISTED)?.name.slice('msgraph.'.length) as string;
    expect(report.body).toContain(`<a href="/?tool=${encodeURIComponent(named)}">${named}</a>`);
    expect(parsed()).toEqual(fresh.set.domainNames.map((d) => `${d}.json`).sort());
    // several catalogs: the domain's own file too, its operations under the names the server serves them by
    const stripe = manySet.domainNames.find((d) => d.startsWith('stripe.')) as string;
    const listed = await rawHttp(many.port, 'GET', `/?domain=${encodeURIComponent(stripe)}`, {});
    expect(listed.body).toContain('1 operations; showing 1–1 of 1');
    expect(listed.body).toContain(`href="/?tool=stripe.PostCustomersCustomerSubscriptionsSubscriptionExposedId000"`);
  });
});

describe('many domains', () => {
  test('a page carries its own rows, not every domain: the header takes a typed domain, and a page weighs the same with 40 or 721 domains', async () => {
    const total = MANY.msgraph + MANY.stripe;
    expect(manySet.domainNames.length).toBe(total);
    const op = (await rawHttp(many.port, 'GET', `/?domain=${encodeURIComponent(graphDomain(manySet, 0))}`, {})).body.match(/href="\/\?tool=([^"]+)"/)?.[1] as string;
    for (const path of ['/', `/?domain=${encodeURIComponent(graphDomain(manySet, 0))}`, '/?q=cancel%20booking%20appointment', `/?tool=${op}`, '/?catalog=stripe']) {
      const [big, small] = await Promise.all([rawHttp(many.port, 'GET', path, {}), rawHttp(few.port, 'GET', path, {})]);
      expect(big.status, path).toBe(200);
      expect(big.body, path).not.toContain('<option');
      // A page is its frame (head, header, footer: about 2 KB), its prose (about 2 KB) and at most 25 rows of a table
      // of names (up to 80 characters, each in a link and its text), a count or a score and a 160-character
      // description or summary: under 1 KB a row with its markup. A search has two such tables (its results, and
      // each hit's factors under "Why these rank"); the operation page one operation's describe JSON instead of rows
      // (about 3 KB here). The domain list alone was 60 KB of every page.
      const tables = path.startsWith('/?q=') ? 2 : 1;
      const bound = 4 * 1024 + tables * PAGE_SIZE * 1024;
      expect(Buffer.byteLength(big.body), path).toBeLessThan(bound);
      // and where both servers show the same rows, 721 domains weigh no more than 40 (whose header lists them)
      if (path.startsWith('/?domain=') || path.startsWith('/?tool=')) expect(Buffer.byteLength(big.body), path).toBeLessThan(Buffer.byteLength(small.body));
    }
  });

  test('the domains page jumps: each catalog heading lists that catalog’s domains, and page numbers reach the last page', async () => {
    await rig.page.goto(`${baseOf(many)}/`);
    expect(await rig.page.locator('#domain-total').textContent()).toBe(String(MANY.msgraph + MANY.stripe));
    await rig.page.locator('#catalog-stripe h2 a').click();
    await rig.page.waitForURL(/\?catalog=stripe$/);
    expect(await rig.page.locator('#domain-total').textContent()).toBe(String(MANY.stripe));
    const stripe = manySet.domainNames.filter((d) => d.startsWith('stripe.'));
    expect(await rig.page.locator('#domains td.name a').first().textContent()).toBe(stripe[0]);
    const last = Math.ceil(MANY.stripe / PAGE_SIZE);
    await rig.page.locator('.pager .pages a', { hasText: new RegExp(`^${last}$`) }).click();
    await rig.page.waitForURL(new RegExp(`catalog=stripe&offset=${(last - 1) * PAGE_SIZE}$`));
    expect(await rig.page.locator('#domains td.name a').last().textContent()).toBe(stripe[stripe.length - 1]);
    // a name typed into the header's domain field searches in that domain
    await rig.page.locator('#q').fill('cancel booking appointment');
    await rig.page.locator('#domain-filter').fill(graphDomain(manySet, 3));
    await rig.page.getByRole('button', { name: 'Search' }).click();
    expect(await rig.page.locator('h1').textContent()).toContain(graphDomain(manySet, 3));
    expect((await rawHttp(many.port, 'GET', '/?catalog=nope', {})).status).toBe(404);
  });
});

/** Runs in the page: WCAG contrast of two CSS colours, and the first opaque background behind an element. */
const COLOR_HELPERS = `
  const rgb = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c); const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number); return { c: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.a > 0) return c.c; } return [255, 255, 255]; };
`;

describe('form fields', () => {
  test('borders are 3:1 on the field and on what is around it, placeholders 4.5:1, in both palettes (WCAG 1.4.11)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const ctx = await rig.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
      const p = await ctx.newPage();
      try {
        for (const [base, path] of [
          [rig.base, '/?tool=issues_create'],
          [baseOf(many), '/'],
        ] as const) {
          await p.goto(`${base}${path}`);
          const fields = await p.evaluate<Array<{ id: string; inside: number; around: number; placeholder: number | null }>>(`(() => { ${COLOR_HELPERS}
            return [...document.querySelectorAll('input:not([type=hidden]), select, textarea')].map((el) => {
              const s = getComputedStyle(el);
              const border = rgb(s.borderTopColor).c;
              const fill = bgOf(el);
              const hint = el.getAttribute('placeholder') !== null ? ratio(rgb(getComputedStyle(el, '::placeholder').color).c, fill) : null;
              return { id: el.id, inside: ratio(border, fill), around: ratio(border, bgOf(el.parentElement)), placeholder: hint };
            });
          })()`);
          expect(fields.map((f) => f.id).sort(), `${scheme} ${path}`).toEqual(path === '/' ? ['domain-filter', 'q'] : ['args', 'domain-filter', 'q']);
          for (const f of fields) {
            expect(f.inside, `${scheme} ${path} #${f.id} border on its fill`).toBeGreaterThanOrEqual(3);
            expect(f.around, `${scheme} ${path} #${f.id} border on the background around it`).toBeGreaterThanOrEqual(3);
            if (f.placeholder !== null) expect(f.placeholder, `${scheme} ${path} #${f.id} placeholder`).toBeGreaterThanOrEqual(4.5);
          }
        }
      } finally {
        await ctx.close();
      }
    }
  });
});
