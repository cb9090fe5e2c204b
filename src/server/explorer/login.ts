// The explorer's browser login with the static token (API_CATALOG_HTTP_TOKEN): the form, where it sends the browser
// afterwards, and the cookie it sets — `<issue time>.<HMAC keyed by the token>`, never the token itself, accepted by
// every replica with the same token until it is 12 hours old. Routing is in index.ts.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { html, type Html } from './html.js';

export const COOKIE_NAME = 'api_catalog_explorer';
/** How long a login lasts: the cookie's Max-Age, and the age past which the server refuses it whatever the browser does. */
export const COOKIE_MAX_AGE_S = 12 * 60 * 60;
/** How far in the future another replica's issue time may lie (their clocks drift a little). */
const COOKIE_CLOCK_SKEW_S = 5 * 60;
/** What the cookie's HMAC signs, with its issue time; a new label when the format changes (older cookies stop working). */
const COOKIE_LABEL = 'api-catalog explorer login v2';

/** The login form's own address (a GET shows the form; the form posts to it). */
export const LOGIN_PATH = '/explorer/login';

function cookieMac(authToken: string, issuedAtS: number): string {
  return createHmac('sha256', authToken).update(`${COOKIE_LABEL}|${issuedAtS}`).digest('base64url');
}

/**
 * The login cookie's value, `<issue time, s>.<HMAC of the label and that time keyed by the token>`: it never holds the
 * token, every replica with the same token accepts it, it expires on the server after {@link COOKIE_MAX_AGE_S}, and
 * changing the token logs every browser out.
 */
export function cookieValue(authToken: string, nowMs: number): string {
  const issuedAtS = Math.floor(nowMs / 1000);
  return `${issuedAtS}.${cookieMac(authToken, issuedAtS)}`;
}

/** Whether a login cookie was issued with this token and is younger than {@link COOKIE_MAX_AGE_S} (constant-time HMAC check). */
export function cookieAccepted(authToken: string, value: string, nowMs: number): boolean {
  const m = /^(\d{1,12})\.([\w-]{43})$/.exec(value);
  if (m === null) return false;
  const issuedAtS = Number(m[1]);
  const age = nowMs / 1000 - issuedAtS;
  if (age > COOKIE_MAX_AGE_S || age < -COOKIE_CLOCK_SKEW_S) return false;
  return sameSecret(m[2] as string, cookieMac(authToken, issuedAtS));
}

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Where to go back to after logging in: the explorer's page (`/` with its query), else `/` — never another origin,
 * and never the login or logout address (a page that only shows the form again, or a POST-only route: logging in
 * from a bookmarked /explorer/login led to "no explorer page"). A control character is refused too: CR/LF cannot go
 * into a Location header (Node throws), and browsers drop a tab or newline from a URL.
 */
export function safeNext(raw: string | null): string {
  return raw !== null && (raw === '/' || raw.startsWith('/?')) && !/[\x00-\x1f\x7f]/.test(raw) && raw.length < 2000 ? raw : '/';
}

/** The login form's address that goes back to `next` (what a failed login is sent to, so a reload asks again). */
export function loginAddress(next: string, failed = false): string {
  const params = new URLSearchParams();
  if (next !== '/') params.set('next', next);
  if (failed) params.set('failed', '1');
  const query = params.toString();
  return query === '' ? LOGIN_PATH : `${LOGIN_PATH}?${query}`;
}

/** The login form: `next` is where a good token sends the browser, `error` why the last one was refused. */
export function loginPage(next: string, error?: string): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in · api-catalog explorer</title><link rel="stylesheet" href="/explorer/style.css"><link rel="icon" href="/explorer/favicon.svg" type="image/svg+xml"></head>
<body><main id="main">
<h1>api-catalog explorer</h1>
<p>This server requires a token. Enter the server's API_CATALOG_HTTP_TOKEN once; the browser then keeps an HttpOnly,
SameSite=Strict cookie derived from it (not the token) for 12 hours.</p>
${error !== undefined ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${LOGIN_PATH}" class="panel">
<input type="hidden" name="next" value="${next}">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form></main></body></html>
`;
}
