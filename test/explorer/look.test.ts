// How the explorer looks and behaves in a real browser (Debian's chromium via playwright-core, against the real HTTP
// transport serving the embedded GitHub catalog), from a first-time user's review: parameter names and types that
// never break mid-word, a dark palette for readers who ask for one with every text readable in both, a keyboard focus
// ring visible on any background and absent after a mouse click, an icon and HTML 404 pages for browsers (no console
// errors) while MCP clients keep their JSON errors, and descriptions without raw Markdown. Fails when chromium is
// missing.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { rawHttp } from '../helpers/raw-http.js';

vi.setConfig({ testTimeout: 90_000 });

const CHROMIUM = '/usr/bin/chromium';
let set: CatalogSet;
let srv: HttpHandle;
let browser: Browser;
let base = '';

beforeAll(async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does`).toBe(true);
  set = loadCatalogSet([]);
  void set.index;
  srv = await serveHttp({ catalogs: set, settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, { port: 0, explorer: true });
  base = `http://127.0.0.1:${srv.port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

async function withPage<T>(options: { colorScheme?: 'light' | 'dark'; width?: number }, fn: (p: Page) => Promise<T>): Promise<T> {
  const ctx = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, colorScheme: options.colorScheme ?? 'light' });
  try {
    return await fn(await ctx.newPage());
  } finally {
    await ctx.close();
  }
}

/** Runs in the page: WCAG contrast of two CSS colours, and the first opaque background behind an element. */
const COLOR_HELPERS = `
  const rgb = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c); if (!m) return undefined; const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number); return { c: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c && c.a > 0) return c.c; } return [255, 255, 255]; };
`;

/** Every visible text in the page whose colour is under 4.5:1 on its background (3:1 for large text). */
async function lowContrast(p: Page): Promise<string[]> {
  return p.evaluate(`(() => { ${COLOR_HELPERS}
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (['OPTION', 'SCRIPT', 'STYLE'].includes(el.tagName) || el.closest('.visually-hidden, .skip')) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
      if (!own || el.getClientRects().length === 0) continue;
      const s = getComputedStyle(el);
      if (s.visibility !== 'visible') continue;
      const size = parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      const r = ratio(rgb(s.color).c, bgOf(el));
      if (r < (large ? 3 : 4.5)) out.push(el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 30) + '" ' + r.toFixed(2));
    }
    return out;
  })()`);
}

const PLACEHOLDER_ARGS = encodeURIComponent('{"owner": "<owner>", "repo": "<repo>", "title": "Bug"}');
const AUDITED = ['/', '/?q=create%20an%20issue', '/?q=issuesgett', `/?tool=issues_create&args=${PLACEHOLDER_ARGS}`, '/?tool=repos_get&args=%7B%22owner%22%3A%22o%22%2C%22repo%22%3A%22r%22%7D', '/?tool=nope', '/?view=log'];

describe('reading', () => {
  test('on a desktop, parameter names, places and types never break mid-word; descriptions wrap', async () => {
    await withPage({}, async (p) => {
      for (const tool of ['issues_create', 'code-scanning_upload-sarif', 'repos_create-or-update-file-contents']) {
        await p.goto(`${base}/?tool=${tool}`);
        // an inline box that wraps has more than one rectangle: one per line
        const lines = await p.evaluate(`[...document.querySelectorAll('#parameters-table td.param code, #parameters-table td.type code, #parameters-table td.in')]
          .map((el) => { const r = document.createRange(); r.selectNodeContents(el); return [el.textContent, r.getClientRects().length]; })`);
        const broken = (lines as Array<[string, number]>).filter(([, n]) => n > 1);
        expect(broken, tool).toEqual([]);
        expect((lines as unknown[]).length, tool).toBeGreaterThan(0);
      }
      // the description column still wraps (it is not all on one line)
      const descLines = await p.evaluate(`Math.max(...[...document.querySelectorAll('#parameters-table td.desc')].map((el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getClientRects().length; }))`);
      expect(descLines).toBeGreaterThan(1);
    });
  });

  test('descriptions show text, not Markdown: no backticks or _emphasis_ markers, bullet lines as a list', async () => {
    await withPage({}, async (p) => {
      await p.goto(`${base}/?tool=issues_create`);
      const op = set.byName.get('issues_create')?.op;
      expect(op?.description).toMatch(/`application\/vnd\.github\.raw\+json`/);
      await p.locator('details.more summary').click();
      const full = (await p.locator('details.more').textContent()) ?? '';
      expect(full).not.toContain('`');
      expect(full).toContain('the API returns a 410 Gone status');
      expect(await p.locator('details.more li').allTextContents()).toEqual(
        (op?.description ?? '').split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2).replace(/`/g, '')),
      );
      const assignee = await p.locator('#parameters-table tr', { hasText: 'assignee' }).first().locator('td.desc').textContent();
      expect(assignee).toContain('NOTE: Only users with push access');
      expect(assignee).not.toMatch(/(^|\s)_|_(\s|$)/);
    });
  });
});

describe('dark mode and focus', () => {
  test('readers who ask for dark get a dark palette; every text is 4.5:1 (3:1 large) in both palettes', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await withPage({ colorScheme: scheme }, async (p) => {
        for (const path of AUDITED) {
          await p.goto(`${base}${path}`);
          expect(await lowContrast(p), `${scheme} ${path}`).toEqual([]);
        }
        const { bg, scheme: declared } = await p.evaluate<{ bg: string; scheme: string }>(
          '({ bg: getComputedStyle(document.body).backgroundColor, scheme: getComputedStyle(document.documentElement).colorScheme })',
        );
        expect(declared).toBe('light dark');
        expect(bg).toBe(scheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
      });
    }
  });

  test('the keyboard focus ring is 3:1 on the page in both palettes (two colours 9:1 apart); a mouse click shows none', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await withPage({ colorScheme: scheme }, async (p) => {
        await p.goto(`${base}/?tool=issues_create`);
        await p.keyboard.press('Tab'); // the skip link
        await p.keyboard.press('Tab'); // the brand link
        const ring = await p.evaluate<{ tag: string; style: string; inner: number; outer: number; apart: number }>(`(() => { ${COLOR_HELPERS}
          const el = document.activeElement; const s = getComputedStyle(el); const bg = bgOf(el.parentElement);
          const inner = rgb(s.outlineColor).c; const outer = rgb(s.boxShadow)?.c ?? inner;
          return { tag: el.tagName, style: s.outlineStyle, inner: ratio(inner, bg), outer: ratio(outer, bg), apart: ratio(inner, outer) };
        })()`);
        expect(ring.tag).toBe('A');
        expect(ring.style).toBe('solid');
        expect(Math.max(ring.inner, ring.outer), scheme).toBeGreaterThanOrEqual(3);
        expect(ring.apart).toBeGreaterThanOrEqual(9);
        // a mouse click focuses the summary but shows no ring
        await p.locator('details.more summary').click();
        const clicked = await p.evaluate<{ tag: string; outline: string; shadow: string }>(
          '(() => { const s = getComputedStyle(document.activeElement); return { tag: document.activeElement.tagName, outline: s.outlineStyle, shadow: s.boxShadow }; })()',
        );
        expect(clicked).toEqual({ tag: 'SUMMARY', outline: 'none', shadow: 'none' });
      });
    }
  });
});

describe('what a browser gets', () => {
  test('pages load without a console error or a failed request (the icon is served)', async () => {
    await withPage({}, async (p) => {
      const problems: string[] = [];
      p.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      p.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
      });
      for (const path of ['/', '/?q=create%20an%20issue', '/?tool=issues_create', '/?view=import']) {
        await p.goto(`${base}${path}`);
        await p.waitForLoadState('load');
      }
      expect(problems).toEqual([]);
      const icon = await rawHttp(srv.port, 'GET', '/favicon.ico', {});
      expect(icon.status).toBe(200);
      expect(icon.headers['content-type']).toBe('image/svg+xml');
      expect(icon.body).toMatch(/^<svg /);
    });
  });

  test('a path the server does not have is an HTML 404 with the way home for a browser, a JSON-RPC error for anything else', async () => {
    await withPage({}, async (p) => {
      for (const path of ['/robots.txt', '/index.html', '/explorer', '/explorer/nope']) {
        const res = await p.goto(`${base}${path}`);
        expect(res?.status(), path).toBe(404);
        expect(res?.headers()['content-type'], path).toBe('text/html; charset=utf-8');
        expect(await p.locator('[role=alert]').textContent(), path).toMatch(/no (explorer )?page/i);
      }
      await p.goto(`${base}/robots.txt`);
      await p.locator('main a[href="/"]').first().click();
      await p.waitForURL(`${base}/`);
      expect(await p.locator('#domains tbody tr').count()).toBeGreaterThan(0);
    });
    // MCP clients and scripts: the transport's JSON-RPC error, as before
    for (const accept of [undefined, 'application/json, text/event-stream', '*/*']) {
      const r = await rawHttp(srv.port, 'GET', '/robots.txt', accept === undefined ? {} : { accept });
      expect(r.status, accept).toBe(404);
      expect(JSON.parse(r.body), accept).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Not Found: the MCP endpoint is /mcp' }, id: null });
    }
    const post = await rawHttp(srv.port, 'POST', '/index.html', { accept: 'text/html', 'content-type': 'application/json' }, '{}');
    expect(post.headers['content-type']).toBe('application/json');
  });
});
