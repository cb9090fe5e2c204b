// A search hit's row on a phone (390 px, Debian's chromium through playwright-core, the real HTTP transport): its
// domain and what it requires share one line however long the domain's name (the name ends in an ellipsis, its link's
// title has it whole; the required list too), so a row takes a line for its name, one for its summary and one for
// those two: three, where a long domain name took a fourth (and a long required list a fifth and sixth). With the
// long names of test/helpers/long-names.ts (Microsoft Graph's dotted domains, Stripe's unbroken ones), and a catalog
// of short operation names in long domains. Fails when chromium is missing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import type { HttpHandle } from '../../src/server/transports/http.js';
import { baseOf, explorerRig } from '../helpers/explorer.js';
import { longNameRegistries } from '../helpers/long-names.js';
import { tempDir } from '../helpers/temp.js';

vi.setConfig({ testTimeout: 120_000 });

const rig = explorerRig({ name: 'ac-phone-rows', token: 'ghp_phoneRowsCanaryToken0123456789abcdef', viewport: { width: 390, height: 844 } });

/** A tag long enough that its domain fills a phone's line: the audit's Microsoft Graph slug. */
const LONG_TAG = 'solutions.bookingBusinesses.bookingBusiness.calendarViewAppointments.staffMembersAvailability';

/** Short operation names (one line beside rank and score) in one long domain, each with a required parameter. */
async function shortNamesLongDomain(dir: string): Promise<string> {
  const paths: Record<string, unknown> = {};
  for (const [verb, id] of [['get', 'listShifts'], ['post', 'cancelShift']] as const) {
    paths[`/solutions/bookingBusinesses/{bookingBusiness-id}/shifts/${id}`] = {
      [verb]: {
        tags: [LONG_TAG],
        operationId: id,
        summary: `${id === 'listShifts' ? 'List' : 'Cancel'} the shifts`,
        parameters: [{ name: 'bookingBusiness-id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    };
  }
  const file = join(dir, 'shifts.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'Shifts', version: '1.0' }, servers: [{ url: 'https://shifts.example.com' }], paths }));
  writeRegistry(await importSpec(file, { name: 'shifts' }), join(dir, 'reg'));
  return join(dir, 'reg', 'shifts');
}

let srv: HttpHandle;
let page: Page;

beforeAll(async () => {
  const dir = tempDir('ac-phone-rows-');
  const dirs = [...(await longNameRegistries(dir, { msgraph: 3, stripe: 3 })), await shortNamesLongDomain(dir)];
  srv = await rig.serve({ catalogs: loadCatalogSet(dirs), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 });
  page = await (await rig.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })).newPage();
});

interface Row {
  /** The row's lines, top to bottom: the classes of the cells with text on each (`rank+score+name`). */
  lines: string[];
  domain: string;
  domainTitle: string | null;
  required: string;
  requiredTitle: string | null;
}

/** Each result row as laid out: the text lines of its cells (boxes that overlap vertically are one line). */
function rows(p: Page): Promise<Row[]> {
  return p.evaluate(`(() => [...document.querySelectorAll('#results tbody tr')].map((tr) => {
    const boxes = [];
    for (const td of tr.querySelectorAll('td')) {
      const range = document.createRange();
      range.selectNodeContents(td);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) boxes.push({ top: r.top, bottom: r.bottom, cell: td.classList[td.classList.length - 1] });
    }
    boxes.sort((a, b) => a.top - b.top);
    const lines = [];
    for (const b of boxes) {
      const last = lines[lines.length - 1];
      if (last !== undefined && b.top < last.bottom - 2) { last.bottom = Math.max(last.bottom, b.bottom); last.cells.add(b.cell); }
      else lines.push({ bottom: b.bottom, cells: new Set([b.cell]) });
    }
    const domain = tr.querySelector('td.domain a');
    const required = tr.querySelector('td.required');
    return {
      lines: lines.map((l) => [...l.cells].join('+')),
      domain: domain.textContent,
      domainTitle: domain.getAttribute('title'),
      required: required.textContent,
      requiredTitle: required.getAttribute('title'),
    };
  }))()`);
}

/** How wide the page's content is (wider than the viewport: it scrolls sideways). */
const pageWidth = (p: Page): Promise<number> => p.evaluate<number>('document.documentElement.scrollWidth');

describe('search results at 390 px', () => {
  test('a short name in a long domain: three lines, the domain cut with an ellipsis and whole in its title', async () => {
    await page.goto(`${baseOf(srv)}/?q=${encodeURIComponent('cancel shifts')}`);
    const found = await rows(page);
    const shifts = found.filter((r) => r.domain.startsWith('shifts.'));
    expect(shifts.length).toBeGreaterThan(0);
    for (const r of shifts) {
      expect(r.lines, r.domain).toEqual(['rank+score+name', 'summary', 'domain+required']);
      expect(r.domainTitle).toBe(r.domain);
      expect(r.requiredTitle).toBe('bookingBusiness-id');
    }
    // the domain's name is longer than its box: cut, with the ellipsis
    const cut = await page.evaluate<{ scroll: number; client: number; overflow: string }>(`(() => {
      const a = document.querySelector('#results td.domain a');
      return { scroll: a.scrollWidth, client: a.clientWidth, overflow: getComputedStyle(a).textOverflow };
    })()`);
    expect(cut.scroll).toBeGreaterThan(cut.client);
    expect(cut.overflow).toBe('ellipsis');
    // and the page does not scroll sideways
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  });

  for (const query of ['cancel booking appointment', 'update customer subscription']) {
    test(`long names (${query}): the domain and what it requires take one line, the last`, async () => {
      await page.goto(`${baseOf(srv)}/?q=${encodeURIComponent(query)}`);
      const found = await rows(page);
      expect(found.length).toBeGreaterThan(0);
      for (const r of found) {
        // the name's and the summary's lines (a long name wraps between its words), then one line for the rest
        expect(r.lines.at(-1), `${r.domain}: ${r.lines.join(' | ')}`).toBe('domain+required');
        expect(r.lines.filter((l) => l.includes('domain') || l.includes('required')), r.domain).toHaveLength(1);
        expect(r.domainTitle).toBe(r.domain);
        if (r.required !== '') expect(r.requiredTitle).toBe(r.required);
      }
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    });
  }
});
