// The explorer's access checks over real HTTP (the Streamable HTTP transport serving the petstore fixture with named
// tokens, a static token and the explorer on): a named token's scopes hold on the page as on /mcp (pages need
// catalog:read, with /mcp's own refusal when it is missing; a dry run needs catalog:execute, else the operation's page
// without running it), and the login cookie carries its issue time: refused on the server after 12 hours, accepted by
// another replica with the same token, never forgeable by changing the time.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newToken } from '../../src/server/auth/tokens.js';
import { COOKIE_MAX_AGE_S, COOKIE_NAME } from '../../src/server/explorer/index.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { modernCall } from '../helpers/mcp-raw.js';
import { rawHttp, type RawResponse } from '../helpers/raw-http.js';

const STATIC_TOKEN = 'explorer-scopes-static-token-7d41c9';
const reader = newToken('reader', ['catalog:read']);
const runner = newToken('runner', ['catalog:execute']);
const both = newToken('both', ['catalog:read', 'catalog:execute']);
const NAMED = [reader, runner, both].map((t) => ({ ...t, name: t.line.split(' ')[0] as string, scopes: (t.line.split(' ')[1] as string).split(',') }));

// the clock the servers read (the login cookie's age); moved by the tests, never waited on
let clock = Date.parse('2026-03-01T08:00:00Z');
let srv: HttpHandle;
let replica: HttpHandle;

function serve(): Promise<HttpHandle> {
  return serveHttp(
    {
      catalogs: catalogs(fixtureRegistry('petstore')),
      settings: { baseUrls: { petstore: 'http://127.0.0.1:9/v1' }, readOnly: false, env: {} },
      rateLimitPerMinute: 0,
      now: () => clock,
    },
    {
      port: 0,
      explorer: true,
      authToken: STATIC_TOKEN,
      tokens: { match: (t) => NAMED.find((n) => n.token === t) },
    },
  );
}

beforeAll(async () => {
  srv = await serve();
  replica = await serve();
});
afterAll(async () => {
  await srv?.close();
  await replica?.close();
});

const bearer = (t: string) => ({ authorization: `Bearer ${t}`, accept: 'text/html' });
const get = (path: string, headers: Record<string, string>, on = srv): Promise<RawResponse> => rawHttp(on.port, 'GET', path, headers);
/** A page's text as a reader sees it: the entities escape-html writes, decoded. */
const unescaped = (body: string): string =>
  body.replace(/&(quot|#39|lt|gt|amp);/g, (_, e: string) => ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' })[e] as string);
const DRY_ARGS = '{"petId": 7}';
const DRY = `/?tool=pets.get&args=${encodeURIComponent(DRY_ARGS)}`;

describe('scopes: the explorer asks what /mcp asks', () => {
  test('a token without catalog:read gets a 403 page with /mcp’s refusal and nothing from the catalog', async () => {
    const mcp = await modernCall(srv.url, 'list_domains', {}, { headers: { authorization: `Bearer ${runner.token}` } });
    expect(mcp.status).toBe(403);
    const refusal = mcp.msg.error.message as string;
    expect(refusal).toMatch(/needs the scope catalog:read; the token "runner" has catalog:execute/);
    for (const path of ['/', '/?domain=pets', '/?q=pet', '/?tool=pets.get', DRY, '/?view=import']) {
      const page = await get(path, bearer(runner.token));
      expect(page.status, path).toBe(403);
      expect(page.headers['content-type'], path).toMatch(/^text\/html/);
      expect(unescaped(page.body), path).toContain(`${refusal}.`);
      expect(page.body, path).not.toMatch(/pets\.get|Petstore|store\.inventory/);
    }
    const posted = await rawHttp(srv.port, 'POST', '/explorer/dry-run', { ...bearer(runner.token), 'content-type': 'application/x-www-form-urlencoded' }, `tool=pets.get&args=${encodeURIComponent(DRY_ARGS)}`);
    expect(posted.status).toBe(403);
    expect(posted.body).toContain('catalog:read');
    // the stylesheet and the icon are no catalog: they load, so the page is readable
    expect((await get('/explorer/style.css', bearer(runner.token))).status).toBe(200);
  });

  test('a token with catalog:read browses, but a dry run (GET or POST) is not run without catalog:execute', async () => {
    const mcp = await modernCall(srv.url, 'execute_tool', { tool_name: 'pets.get', args: { petId: 7 }, dry_run: true }, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(mcp.status).toBe(403);
    const refusal = mcp.msg.error.message as string;
    expect((await get('/', bearer(reader.token))).status).toBe(200);
    const page = await get('/?tool=pets.get', bearer(reader.token));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1><code>pets.get</code></h1>');

    const dry = await get(DRY, bearer(reader.token));
    expect(dry.status).toBe(403);
    expect(dry.body).toContain('<h1><code>pets.get</code></h1>');
    expect(dry.body).toMatch(/id="dry-run-error">Dry run not run\. Forbidden: this request needs the scope catalog:execute/);
    expect(unescaped(dry.body)).toContain(`Dry run not run. ${refusal}.`);
    expect(dry.body).not.toContain('id="dry-run-request"');
    expect(dry.body).not.toContain('petstore.invalid');
    expect(dry.body).not.toContain('127.0.0.1:9');
    // the reader's arguments stay in the form
    expect(dry.body).toContain('{&quot;petId&quot;: 7}');

    const posted = await rawHttp(srv.port, 'POST', '/explorer/dry-run', { ...bearer(reader.token), 'content-type': 'application/x-www-form-urlencoded' }, `tool=pets.get&args=${encodeURIComponent(DRY_ARGS)}`);
    expect(posted.status).toBe(403);
    expect(posted.headers.location).toBeUndefined();
    expect(posted.body).toMatch(/id="dry-run-error">Dry run not run\. Forbidden: this request needs the scope catalog:execute/);
    expect(posted.body).not.toContain('id="dry-run-request"');
  });

  test('a token with both scopes, the static token and a login cookie get the dry run', async () => {
    const login = await rawHttp(srv.port, 'POST', '/explorer/login', { 'content-type': 'application/x-www-form-urlencoded' }, `token=${STATIC_TOKEN}&next=%2F`);
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    for (const headers of [bearer(both.token), bearer(STATIC_TOKEN), { cookie, accept: 'text/html' }, { cookie, ...bearer(reader.token) }]) {
      const dry = await get(DRY, headers);
      expect(dry.status, JSON.stringify(Object.keys(headers))).toBe(200);
      expect(dry.body).toContain('id="dry-run-request"');
      expect(dry.body).toContain('/pets/7');
    }
  });
});

describe('the login cookie', () => {
  const login = async (on = srv): Promise<string> => {
    const res = await rawHttp(on.port, 'POST', '/explorer/login', { 'content-type': 'application/x-www-form-urlencoded' }, `token=${STATIC_TOKEN}&next=%2F`);
    expect(res.status).toBe(303);
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(new RegExp(`^${COOKIE_NAME}=\\d+\\.[\\w-]{43}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}$`));
    return set.split(';')[0] as string;
  };
  const page = (cookie: string, on = srv) => get('/?domain=pets', { cookie, accept: 'text/html' }, on);

  test('holds its issue time and is refused on the server once 12 hours old, whatever the browser keeps', async () => {
    const started = clock;
    try {
      const cookie = await login();
      expect(cookie).not.toContain(STATIC_TOKEN);
      expect((await page(cookie)).status).toBe(200);
      clock = started + (COOKIE_MAX_AGE_S - 60) * 1000;
      expect((await page(cookie)).status).toBe(200);
      clock = started + (COOKIE_MAX_AGE_S + 1) * 1000;
      const expired = await page(cookie);
      expect(expired.status).toBe(401);
      expect(expired.body).toContain('id="token"');
      // a fresh login works again
      expect((await page(await login())).status).toBe(200);
    } finally {
      clock = started;
    }
  });

  test('every replica with the same token accepts it; a changed time, the old fixed-label cookie or another token’s are refused', async () => {
    const cookie = await login();
    expect((await page(cookie, replica)).status).toBe(200);
    const [name, value] = cookie.split('=') as [string, string];
    const [issued, mac] = value.split('.') as [string, string];
    // moving the issue time forward (to stretch the login) breaks the HMAC
    expect((await page(`${name}=${Number(issued) + 3600}.${mac}`)).status).toBe(401);
    // the cookie of earlier versions: an HMAC of a fixed label, valid forever
    const v1 = createHmac('sha256', STATIC_TOKEN).update('api-catalog explorer login v1').digest('base64url');
    expect((await page(`${name}=${v1}`)).status).toBe(401);
    const otherToken = createHmac('sha256', 'another-token-entirely-000000').update(`api-catalog explorer login v2|${issued}`).digest('base64url');
    expect((await page(`${name}=${issued}.${otherToken}`)).status).toBe(401);
  });
});
