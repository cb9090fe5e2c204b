// From the explorer's browser audit (Debian's chromium via playwright-core, the real HTTP transport, the embedded
// GitHub catalog): after a wrong token the address bar showed /explorer/login, and opening that address (Enter, a
// bookmark) was a 404 and logging in from there landed on "There is no explorer page at /explorer/login". Now the
// login form has its own address (a failed login is sent back to it, so a reload asks again instead of re-posting),
// and a login never sends the browser back to the login or logout address. And a destructive operation's dry run says
// that execute_tool sends the request only once the user confirms it, as execute_tool does.
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { toolNames } from '../../src/server/core/names.js';
import { executeTool } from '../../src/server/core/execute.js';
import type { HttpHandle } from '../../src/server/transports/http.js';
import { baseOf, explorerRig } from '../helpers/explorer.js';
import { rawHttp } from '../helpers/raw-http.js';

vi.setConfig({ testTimeout: 90_000 });

const TOKEN = 'explorer-login-address-token-3c9d1e';
const rig = explorerRig({ name: 'ac-login-address', token: 'ghp_loginAddressCanary0123456789abcdef', viewport: { width: 1280, height: 900 } });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
let auth: HttpHandle;

beforeAll(async () => {
  auth = await rig.serve({ catalogs: rig.set, settings: rig.settings, rateLimitPerMinute: 0 }, { authToken: TOKEN });
});

describe('the login address', () => {
  test('a wrong token, then Enter in the address bar: the login form again, and the right token opens the page first asked for', async () => {
    const ctx = await rig.browser.newContext();
    const p = await ctx.newPage();
    try {
      expect((await p.goto(`${baseOf(auth)}/?tool=issues_create`))?.status()).toBe(401);
      await p.locator('#token').fill('wrong-token-value-123456');
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.waitForURL(/\/explorer\/login\?/);
      expect(await p.locator('[role=alert]').textContent()).toContain('not right');
      // the address bar's Enter (or a bookmark of it): a GET of the same address
      const again = await p.goto(p.url());
      expect(again?.status()).toBe(401);
      expect(await p.locator('h1').textContent()).toBe('api-catalog explorer');
      await p.locator('#token').fill(TOKEN);
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.waitForURL(/\/\?tool=issues_create$/);
      expect(await p.locator('h1').textContent()).toBe('issues_create');
      // logged in, the login address goes on to where it was going
      await p.goto(`${baseOf(auth)}/explorer/login?next=${encodeURIComponent('/?view=log')}`);
      expect(new URL(p.url()).search).toBe('?view=log');
    } finally {
      await ctx.close();
    }
  });

  test('a bookmark of the bare login address: the form, then the explorer’s first page', async () => {
    const ctx = await rig.browser.newContext();
    const p = await ctx.newPage();
    try {
      await p.goto(`${baseOf(auth)}/explorer/login`);
      await p.locator('#token').fill(TOKEN);
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.waitForURL(/\/$/);
      expect(await p.locator('#catalog-title').textContent()).toBe(rig.set.catalogs[0]?.meta.title);
    } finally {
      await ctx.close();
    }
  });

  test('a login never goes back to the login or logout address, nor off the explorer page', async () => {
    const login = (next: string) => rawHttp(auth.port, 'POST', '/explorer/login', FORM, new URLSearchParams({ token: TOKEN, next }).toString());
    for (const next of ['/explorer/login', '/explorer/login?next=%2F%3Fview%3Dlog', '/explorer/logout', '/explorer/dry-run', '//evil.example/', '/\\evil.example']) {
      expect((await login(next)).headers.location, next).toBe('/');
    }
    expect((await login('/?view=log')).headers.location).toBe('/?view=log');
    // the failed one is sent to the form's address, keeping where it was going
    const failed = await rawHttp(auth.port, 'POST', '/explorer/login', FORM, new URLSearchParams({ token: 'nope-nope-nope', next: '/?q=pull' }).toString());
    expect(failed.status).toBe(303);
    expect(failed.headers.location).toBe('/explorer/login?next=%2F%3Fq%3Dpull&failed=1');
    const form = await rawHttp(auth.port, 'GET', failed.headers.location as string, {});
    expect(form.body).toContain('name="next" value="/?q=pull"');
    expect(form.body).toContain('That token is not right.');
    // the bearer header counts as logged in; a server without auth has nothing to log in to
    const withHeader = await rawHttp(auth.port, 'GET', '/explorer/login?next=%2F%3Fview%3Dimport', { authorization: `Bearer ${TOKEN}` });
    expect([withHeader.status, withHeader.headers.location]).toEqual([303, '/?view=import']);
    const open = await rawHttp(rig.srv.port, 'GET', '/explorer/login', {});
    expect([open.status, open.headers.location]).toEqual([303, '/']);
  });
});

describe('a destructive operation’s dry run', () => {
  test('says execute_tool sends it only once the user confirms, naming the confirm argument; execute_tool does refuse it without', async () => {
    const args = { owner: 'octo', repo: 'hello' };
    await rig.page.goto(`${rig.base}/?tool=repos_delete&args=${encodeURIComponent(JSON.stringify(args))}`);
    const verdict = (await rig.page.locator('#dry-run-verdict').textContent()) ?? '';
    expect(verdict).toContain('execute_tool would send once the user confirms it');
    expect(verdict).toContain('"confirm": "repos_delete"');
    expect(verdict).toContain('CONFIRMATION_REQUIRED');
    const real = await executeTool(rig.set, { tool_name: 'repos_delete', args }, toolNames(''), { settings: rig.settings });
    expect(real.envelope.success ? 'sent' : real.envelope.error.code).toBe('CONFIRMATION_REQUIRED');
    // an operation that needs no confirmation says nothing of it
    await rig.page.goto(`${rig.base}/?tool=repos_get&args=${encodeURIComponent(JSON.stringify(args))}`);
    expect(await rig.page.locator('#dry-run-verdict').textContent()).not.toContain('confirm');
  });
});
