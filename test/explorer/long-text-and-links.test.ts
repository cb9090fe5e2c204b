// From the explorer audit, in a real browser (Debian's chromium via playwright-core, against the real HTTP transport
// serving the embedded GitHub catalog): long unbroken text never makes a page scroll sideways (the query reading under
// "Why these rank" on a phone, a 300-character operation name, a dry-run error naming a 300-character argument, at
// 390 and 1280 px); an address too long for the server is a page with the way back, not JSON; the typo notice quotes
// the word as typed; the import report of a server with several catalogs links each changed operation by the name
// the server serves (only those it has); and a description link whose target holds parentheses leaves no stray ")".
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet } from '../../src/server/core/catalogs.js';
import type { HttpHandle } from '../../src/server/transports/http.js';
import { baseOf, explorerRig } from '../helpers/explorer.js';

vi.setConfig({ testTimeout: 120_000 });

const rig = explorerRig({ name: 'ac-long-text', token: 'ghp_longTextCanaryToken0123456789abcdef', viewport: { width: 1280, height: 900 } });

const LONG = 'x'.repeat(300);
const LONG_KEY_ARGS = encodeURIComponent(JSON.stringify({ [LONG]: 1, owner: 'o', repo: 'r', title: 't' }));
// a link whose address holds parentheses, and one whose title does
const LINKED = 'See [docs](javascript:alert(1)) and [the wiki](https://en.wikipedia.org/wiki/Thing_(object) "Thing (object)") for more.';

let multi: HttpHandle;
let linked: HttpHandle;

beforeAll(async () => {
  const dir = rig.dir;
  // two catalogs, each re-imported with a change, so each has a changes.json; one also names an operation it no longer has
  const spec = join(dir, 'things.yaml');
  const original = readFileSync('test/fixtures/specs/oas30.yaml', 'utf8');
  for (const name of ['things', 'widgets']) {
    writeFileSync(spec, original);
    writeRegistry(await importSpec(spec, { name }), join(dir, 'reg'));
    writeFileSync(spec, original.replace('summary: Replace a thing', 'summary: Replace a thing entirely'));
    writeRegistry(await importSpec(spec, { name }), join(dir, 'reg'));
  }
  const changes = join(dir, 'reg', 'widgets', 'changes.json');
  const c = JSON.parse(readFileSync(changes, 'utf8')) as { domains: Array<{ changed: string[] }> };
  c.domains[0]?.changed.push('things_gone-since');
  writeFileSync(changes, JSON.stringify(c));
  multi = await rig.serve({ catalogs: loadCatalogSet([join(dir, 'reg', 'things'), join(dir, 'reg', 'widgets')]), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 });

  const overlay = join(dir, 'linked.yaml');
  writeFileSync(overlay, `overlay: 1.0.0\ninfo: { title: links, version: '1' }\nactions:\n  - target: $.paths['/things'].get\n    update: { description: ${JSON.stringify(LINKED)} }\n`);
  writeRegistry(await importSpec(spec, { name: 'linked', overlays: [{ file: overlay }] }), join(dir, 'reg2'));
  linked = await rig.serve({ catalogs: loadCatalogSet([join(dir, 'reg2', 'linked')]), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 });
}, 120_000);

/** The document's width past the viewport (0 when nothing scrolls sideways). */
async function sideways(p: Page): Promise<number> {
  return p.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

describe('long unbroken text wraps', () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: the query reading opened, a 300-character operation name, a dry-run error naming a 300-character argument`, async () => {
      const ctx = await rig.browser.newContext({ viewport: { width, height: 844 }, ...(width < 700 ? { isMobile: true } : {}) });
      const p = await ctx.newPage();
      try {
        await p.goto(`${rig.base}/?q=${encodeURIComponent('create an issue')}`);
        await p.locator('#explain summary').click();
        // the reading holds a long value without a break opportunity (uncreate/discreate/…/destroy)
        expect(await p.locator('#reading').isVisible()).toBe(true);
        expect(await sideways(p), 'the query reading').toBeLessThanOrEqual(0);

        const unknown = await p.goto(`${rig.base}/?tool=${LONG}`);
        expect(unknown?.status()).toBe(404);
        expect(await sideways(p), 'unknown operation').toBeLessThanOrEqual(0);

        await p.goto(`${rig.base}/?tool=issues_create&args=${LONG_KEY_ARGS}`);
        expect(await p.locator('#dry-run-result p.error').first().textContent()).toContain(LONG);
        expect(await sideways(p), 'dry-run error').toBeLessThanOrEqual(0);
      } finally {
        await ctx.close();
      }
    });
  }
});

describe('what a reader is told', () => {
  test('an address too long for the server: a page with the way back to the operation, not JSON', async () => {
    const args = encodeURIComponent(JSON.stringify({ owner: 'o', repo: 'r', title: 't', body: 'A "long" report.\n'.repeat(1200) }));
    const res = await rig.page.goto(`${rig.base}/?tool=issues_create&args=${args}`);
    expect(res?.status()).toBe(431);
    expect(await rig.page.locator('h1').textContent()).toBe('The address is too long');
    await rig.page.locator('#back').click();
    expect(await rig.page.locator('h1').textContent()).toBe('issues_create');
  });

  test('the typo notice quotes the word as the reader typed it', async () => {
    await rig.page.goto(`${rig.base}/?q=${encodeURIComponent('Isue COMMENTS')}`);
    expect(await rig.page.locator('#corrected').textContent()).toMatch(/the search read “Isue” as “issue”/);
  });

  test('several catalogs: the import report links each added or changed operation by its served name, only those it has', async () => {
    await rig.page.goto(`${baseOf(multi)}/?view=import`);
    for (const catalog of ['things', 'widgets']) {
      const link = rig.page.locator(`#changes-${catalog} a`, { hasText: 'things_replace' });
      expect(await link.getAttribute('href')).toBe(`/?tool=${catalog}.things_replace`);
    }
    expect(await rig.page.locator('#changes-widgets').textContent()).toContain('things_gone-since');
    expect(await rig.page.locator('#changes-widgets a', { hasText: 'things_gone-since' }).count()).toBe(0);
    await rig.page.locator('#changes-widgets a', { hasText: 'things_replace' }).click();
    expect(await rig.page.locator('h1').textContent()).toBe('widgets.things_replace');
  });

  test('a description link whose target holds parentheses keeps its text, with no stray ")" and no address', async () => {
    const name = loadCatalogSet([join(rig.dir, 'reg2', 'linked')]).operations.find((o) => o.path === '/things' && o.method === 'get')?.name as string;
    await rig.page.goto(`${baseOf(linked)}/?tool=${name}`);
    expect(await rig.page.locator('.lead-text').textContent()).toBe('See docs and the wiki for more.');
  });
});
