// The catalog explorer's HTTP routing (served by the Streamable HTTP transport at `/` and `/explorer/*`, after
// its Host/Origin checks): deep links (empty form fields redirected away), the stylesheet and icon, dry runs at
// shareable addresses (a GET; credentials taken out of the address first), the login form, auth and the scopes /mcp
// would want (catalog:read for pages, catalog:execute for dry runs), security headers, compression (compress.ts), and
// the HTML 404 a browser gets for a path the server does not have. Read-only: dry runs never call upstream; it never
// touches MCP sessions.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { silentLogger, type Logger } from '../../logger.js';
import type { Operation } from '../../types.js';
import { FAVICON_SVG, STYLE_CSS } from './assets.js';
import { sendBody } from './compress.js';
import { frame, html, type Html } from './html.js';
import { dryRunAddress } from './dry-run.js';
import { dryRun, operationPage, parseLevel } from './operation-page.js';
import { domainPage, domainsPage, notFound, type Page, type PageDeps } from './pages.js';
import { strayPage, unknownView } from './not-found.js';
import { SECURITY_HEADERS, noLoginPage, unavailablePage, type ClientAccess } from './standalone.js';
import { parseOffset } from './paging.js';
import { exampleStrings } from './params.js';
import { importPage, logPage } from './report.js';
import { COOKIE_MAX_AGE_S, COOKIE_NAME, LOGIN_PATH, cookieAccepted, cookieOf, cookieValue, loginAddress, loginPage, safeNext } from './login.js';
import { searchPage } from './search-page.js';
import { serverSecrets, shareableArgs } from './share.js';
import { warmTokenizer } from './tokens.js';

/** What an explorer request does, as far as scopes go: read the catalog (every page), or run a dry run. */
export type ExplorerAction = 'read' | 'dry-run';

/** A scope the request's principal lacks: which, and the refusal /mcp would give (`Forbidden: this request needs …`). */
export interface ScopeRefusal {
  scope: string;
  message: string;
}

export interface ExplorerContext {
  deps: PageDeps & { searchLogFile?: string };
  /**
   * Whether this request passed the /mcp path's own auth check (its Authorization header), or the server needs
   * none. The transport computes it with the same function it uses for /mcp, so every scheme it accepts applies.
   */
  headerAuthorized: boolean;
  /**
   * The scope check /mcp makes, for the principal of the Authorization header: undefined when it may do `action`
   * (reading pages needs catalog:read, as list_domains does; a dry run catalog:execute, as execute_tool's dry run
   * does). Absent when the header named no principal or every principal has every scope (static token, no auth).
   */
  refused?: (action: ExplorerAction) => ScopeRefusal | undefined;
  /** The clock for the login cookie's age (ms since the epoch); default Date.now. */
  now?: () => number;
  /**
   * The static bearer token (API_CATALOG_HTTP_TOKEN), when one is configured: a browser logs in once with it
   * through the login form and then carries a cookie derived from it. Without it, the page needs the header.
   */
  authToken?: string;
  /** Checks a token typed into the login form with the transport's own (constant-time) check. */
  verifyToken?: (token: string) => boolean;
  /**
   * How MCP clients and browsers reach this server, as the transport reads the request (its clientAccess, the one
   * reading of X-Forwarded-Proto and --public-url): whether the login cookie gets `Secure`, and what the page says
   * where a browser cannot log in (no static token) instead of a bare refusal.
   */
  access: ClientAccess;
  /**
   * The request's credentials could not be checked (the OAuth issuer cannot be reached): /mcp's 503 refusal and its
   * Retry-After. The page answers 503 too, not 401: the token may well be good.
   */
  unavailable?: { message: string; retryAfter: string };
  logger?: Logger;
}

export { COOKIE_MAX_AGE_S, COOKIE_NAME, cookieAccepted, cookieValue } from './login.js';

const MAX_FORM_BYTES = 64 * 1024;
const WRONG_TOKEN = 'That token is not right.';

/** True for the paths the explorer answers: `/` and everything under `/explorer/`. */
export function isExplorerPath(pathname: string): boolean {
  return pathname === '/' || pathname.startsWith('/explorer/');
}

/** Writes an answer with the explorer's headers; HTML, CSS and SVG compressed when the browser takes it (compress.ts). */
function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}, head = false): Promise<void> {
  return sendBody(res, status, { ...SECURITY_HEADERS, 'Content-Type': type, ...headers }, body, { head });
}

/** A static asset: compressed once and kept, with an ETag per coding (a conditional request may get a 304). */
function sendAsset(res: ServerResponse, type: string, body: string, maxAge: number, head: boolean): Promise<void> {
  return sendBody(res, 200, { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': `max-age=${maxAge}` }, body, { head, asset: true });
}

type Form = { ok: true; fields: URLSearchParams } | { ok: false; status: number; message: string };

function readForm(req: IncomingMessage): Promise<Form> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return Promise.resolve({ ok: false, status: 415, message: 'Send the form as application/x-www-form-urlencoded.' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        if (!done) resolve({ ok: false, status: 413, message: `The form is larger than ${MAX_FORM_BYTES} bytes.` });
        done = true;
        req.pause();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve({ ok: true, fields: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) });
      done = true;
    });
    req.on('error', () => {
      if (!done) resolve({ ok: false, status: 400, message: 'The form could not be read.' });
      done = true;
    });
  });
}

/** The page for a principal without catalog:read: the refusal /mcp gives, and nothing from the catalog. */
function forbiddenPage(refusal: ScopeRefusal): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Forbidden · api-catalog explorer</title><link rel="stylesheet" href="/explorer/style.css"><link rel="icon" href="/explorer/favicon.svg" type="image/svg+xml"></head>
<body><main id="main">
<h1>Forbidden</h1>
<p class="error" role="alert" id="forbidden">${refusal.message}.</p>
<p>The explorer shows the catalog, which needs the scope <code>${refusal.scope}</code>, as <code>list_domains</code>, <code>search_tools</code> and <code>describe_tools</code> do over MCP.</p>
</main></body></html>
`;
}

/**
 * The dry-run answer's text when the principal may not run one: the refusal /mcp gives execute_tool's dry run (the
 * answer's error line, where a dry run's error goes; it names the scope).
 */
function dryRunRefusedText(refusal: ScopeRefusal): string {
  return `Dry run not run. ${refusal.message}.`;
}

/** Answers one explorer request. Never throws for bad input: every failure is a page with a status. */
export async function handleExplorer(req: IncomingMessage, res: ServerResponse, ctx: ExplorerContext): Promise<void> {
  const logger = ctx.logger ?? silentLogger;
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  const head = method === 'HEAD';
  const pathname = url.pathname;

  if (pathname === '/explorer/style.css' || pathname === '/explorer/favicon.svg' || pathname === '/favicon.ico') {
    if (method !== 'GET' && !head) return send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed', { Allow: 'GET, HEAD' });
    return pathname === '/explorer/style.css'
      ? sendAsset(res, 'text/css; charset=utf-8', STYLE_CSS, 300, head)
      : sendAsset(res, 'image/svg+xml', FAVICON_SVG, 86400, head);
  }
  // A browser's request for a path the server does not have (the transport sends these here only when they accept
  // HTML): a page with the way home, before auth and without anything from the catalog.
  if (!isExplorerPath(pathname)) return send(res, 404, 'text/html; charset=utf-8', strayPage(pathname).text, {}, head);

  const now = ctx.now ?? Date.now;
  const cookie = cookieOf(req, COOKIE_NAME);
  const cookieOk = ctx.authToken !== undefined && cookie !== undefined && cookieAccepted(ctx.authToken, cookie, now());
  const authorized = ctx.headerAuthorized || cookieOk;
  // A login cookie is the static token's, which has every scope; a header's named or OAuth token may lack one.
  const refused = (action: ExplorerAction): ScopeRefusal | undefined => {
    const refusal = cookieOk ? undefined : ctx.refused?.(action);
    if (refusal !== undefined) logger.log('warn', { event: 'http_refused', reason: 'scope', path: 'explorer', detail: `insufficient_scope ${refusal.scope}` });
    return refusal;
  };

  if (pathname === LOGIN_PATH && (method === 'GET' || head)) {
    // the form's own address (where a failed login is sent, and what a bookmark of it opens): the form, or, for a
    // browser already in, the page it was going to
    const next = safeNext(url.searchParams.get('next'));
    if (authorized) return redirect(res, next);
    if (ctx.authToken !== undefined) {
      const error = url.searchParams.get('failed') === '1' ? WRONG_TOKEN : undefined;
      return send(res, 401, 'text/html; charset=utf-8', loginPage(next, error).text, { 'WWW-Authenticate': 'Bearer realm="api-catalog"' }, head);
    }
    // no static token: the page below says what lets a browser in
  }
  if (pathname === LOGIN_PATH && method === 'POST') {
    const form = await readForm(req);
    if (!form.ok) return send(res, form.status, 'text/plain; charset=utf-8', form.message);
    const next = safeNext(form.fields.get('next'));
    const token = form.fields.get('token') ?? '';
    if (ctx.authToken === undefined || ctx.verifyToken === undefined) {
      return send(res, 404, 'text/html; charset=utf-8', loginPage(next, 'This server has no static token: no login is needed or possible here.').text);
    }
    if (!ctx.verifyToken(token)) {
      // Never log what was typed: it may be a near-miss of the real token.
      logger.log('warn', { event: 'explorer_login_failed' });
      // to the form's address (post/redirect/get): a reload asks again instead of posting the wrong token again
      return redirect(res, loginAddress(next, true));
    }
    logger.log('info', { event: 'explorer_login' });
    // Behind a TLS-terminating proxy the browser speaks https: keep the cookie off plain http then (the transport
    // decides it, from X-Forwarded-Proto or an https --public-url, for the endpoint it shows too).
    const secure = ctx.access.https ? '; Secure' : '';
    res.writeHead(303, {
      ...SECURITY_HEADERS,
      Location: next,
      'Set-Cookie': `${COOKIE_NAME}=${cookieValue(ctx.authToken, now())}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}${secure}`,
      'Content-Length': '0',
    });
    res.end();
    return;
  }
  if (pathname === '/explorer/logout' && method === 'POST') {
    res.writeHead(303, { ...SECURITY_HEADERS, Location: '/', 'Set-Cookie': `${COOKIE_NAME}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`, 'Content-Length': '0' });
    res.end();
    return;
  }

  if (!authorized && ctx.unavailable !== undefined) {
    // /mcp's 503: the credentials may be good, they could not be checked now (a 401 would say they are wrong)
    logger.log('warn', { event: 'http_refused', reason: 'auth', path: 'explorer', status: 503 });
    return send(res, 503, 'text/html; charset=utf-8', unavailablePage(ctx.unavailable.message).text, { 'Retry-After': ctx.unavailable.retryAfter }, head);
  }
  if (!authorized) {
    logger.log('warn', { event: 'http_refused', reason: 'auth', path: 'explorer' });
    if (ctx.authToken !== undefined) {
      const next = safeNext(method === 'GET' ? `${pathname}${url.search}` : '/');
      return send(res, 401, 'text/html; charset=utf-8', loginPage(next).text, { 'WWW-Authenticate': 'Bearer realm="api-catalog"' }, head);
    }
    // no static token, so no login form: a page that says what would let a browser in, and how agents connect
    return send(res, 401, 'text/html; charset=utf-8', noLoginPage(ctx.access).text, { 'WWW-Authenticate': 'Bearer realm="api-catalog"' }, head);
  }

  // every page shows the catalog: the scope list_domains needs over MCP
  const noRead = refused('read');
  if (noRead !== undefined) return send(res, 403, 'text/html; charset=utf-8', forbiddenPage(noRead).text, {}, head);

  let page: Page;
  if (pathname === '/' && (method === 'GET' || head)) {
    // A form's empty fields (`q=`, "all domains" as `domain=`) make no difference: the address leaves them out.
    const cleaned = withoutEmpty(url.searchParams);
    if (cleaned !== undefined) return redirect(res, cleaned);
    // A dry run's address may be shared: one that holds a credential is answered with the cleaned address instead.
    const args = url.searchParams.get('args');
    if (args !== null) {
      const tool = url.searchParams.get('tool');
      const shared = shareableArgs(args.slice(0, MAX_FORM_BYTES), serverSecrets(ctx.deps.settings), publicExamples(ctx, tool), operationOf(ctx, tool)?.inputSchema);
      if (shared.changed) {
        const params = new URLSearchParams(url.searchParams);
        params.set('args', shared.text);
        params.set('redacted', '1');
        return redirect(res, `/?${params.toString()}#try`);
      }
    }
    // An operation page shows a token count: the tokenizer loads in its worker while the reader looks around.
    warmTokenizer();
    page = await routePage(ctx, url.searchParams, () => refused('dry-run'));
  } else if (pathname === '/explorer/dry-run' && method === 'POST') {
    // The page's dry-run form: answered with the dry run's shareable address (credentials taken out), or, when the
    // arguments are too long for an address, with the dry run itself, without a link.
    const form = await readForm(req);
    if (!form.ok) return send(res, form.status, 'text/plain; charset=utf-8', form.message);
    const tool = form.fields.get('tool') ?? '';
    const level = parseLevel(form.fields.get('level'));
    const shared = shareableArgs((form.fields.get('args') ?? '').slice(0, MAX_FORM_BYTES), serverSecrets(ctx.deps.settings), publicExamples(ctx, tool), operationOf(ctx, tool)?.inputSchema);
    const noRun = refused('dry-run');
    if (noRun !== undefined) {
      // answered here, not at an address that would only be refused again: the operation, the (cleaned) arguments kept
      const dry = { argsText: shared.text, result: { parseError: dryRunRefusedText(noRun) }, ...(shared.changed ? { redacted: true } : {}) };
      return sendPage(ctx, res, refusedDryRun(await operationPage(ctx.deps, tool, level, dry)), cookieOk, false);
    }
    const to = dryRunAddress(tool, level, shared.text, shared.changed);
    if (to !== undefined) return redirect(res, `${to}#try`);
    warmTokenizer();
    const dry = { argsText: shared.text, result: await dryRun(ctx.deps, tool, shared.text), shareable: false, ...(shared.changed ? { redacted: true } : {}) };
    page = await operationPage(ctx.deps, tool, level, dry, level !== 'parameters');
  } else if (pathname === '/' || pathname === '/explorer/dry-run') {
    return send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed', { Allow: pathname === '/' ? 'GET, HEAD' : 'POST' });
  } else {
    page = notFound('Not found', html`There is no explorer page at <code>${pathname.slice(0, 200)}</code>.`);
  }
  return sendPage(ctx, res, page, cookieOk, head);
}

/** A page in the explorer's frame. */
function sendPage(ctx: ExplorerContext, res: ServerResponse, page: Page, cookieOk: boolean, head: boolean): Promise<void> {
  const doc = frame(
    {
      title: page.title,
      ...(page.query !== undefined ? { query: page.query } : {}),
      ...(page.domain !== undefined ? { domain: page.domain } : {}),
      domains: ctx.deps.catalogs.domainNames,
      ...(ctx.deps.catalogs.catalogs.length === 1 ? { catalogTitle: ctx.deps.catalogs.catalogs[0]?.meta.title } : {}),
      ...(page.current !== undefined ? { current: page.current } : {}),
      loggedIn: cookieOk && !ctx.headerAuthorized,
    },
    page.body,
  );
  return send(res, page.status, 'text/html; charset=utf-8', doc.text, {}, head);
}

/** Query parameters that mean nothing when empty; `args` is not one (empty arguments are `{}`). */
const DROPPED_WHEN_EMPTY = ['q', 'domain', 'tool', 'level', 'offset', 'view', 'catalog'];

/** The address without its empty parameters, or undefined when it has none. */
function withoutEmpty(params: URLSearchParams): string | undefined {
  const empty = DROPPED_WHEN_EMPTY.filter((k) => params.has(k) && (params.get(k) ?? '').trim() === '');
  if (empty.length === 0) return undefined;
  const kept = new URLSearchParams([...params].filter(([k, v]) => !(DROPPED_WHEN_EMPTY.includes(k) && v.trim() === '')));
  const s = kept.toString();
  return s === '' ? '/' : `/?${s}`;
}

/** The operation a dry run names, if it exists. */
function operationOf(ctx: ExplorerContext, tool: string | null): Operation | undefined {
  return tool === null ? undefined : ctx.deps.catalogs.byName.get(tool)?.op;
}

/** The strings of an operation's published examples: what the page pre-fills, never taken for a credential. */
function publicExamples(ctx: ExplorerContext, tool: string | null): Set<string> {
  const op = operationOf(ctx, tool);
  return op === undefined ? new Set() : exampleStrings(op);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { ...SECURITY_HEADERS, Location: location, 'Content-Length': '0' });
  res.end();
}

/** An operation page whose dry run was refused for a missing scope: 403 (an unknown operation stays a 404). */
function refusedDryRun(page: Page): Page {
  return page.status === 200 ? { ...page, status: 403 } : page;
}

/**
 * Deep links: `tool` (with `level`; `args` runs a dry run, when `dryRunRefused` has no objection), then `q` (with
 * `domain`, `offset`), `view`, `domain` (with `offset`), else the domains (with `catalog`, `offset`).
 */
async function routePage(ctx: ExplorerContext, params: URLSearchParams, dryRunRefused: () => ScopeRefusal | undefined): Promise<Page> {
  const offset = parseOffset(params.get('offset'));
  const tool = params.get('tool');
  if (tool !== null && tool !== '') {
    const level = parseLevel(params.get('level'));
    const argsText = params.get('args')?.slice(0, MAX_FORM_BYTES) ?? null;
    const noRun = argsText === null ? undefined : dryRunRefused();
    if (argsText !== null && noRun !== undefined) {
      // the operation without the dry run, the arguments kept in the form, the refusal where the answer would be
      return refusedDryRun(await operationPage(ctx.deps, tool, level, { argsText, result: { parseError: dryRunRefusedText(noRun) } }, params.get('level') !== null));
    }
    const dry =
      argsText === null
        ? undefined
        : { argsText, result: await dryRun(ctx.deps, tool, argsText), ...(params.get('redacted') === '1' ? { redacted: true } : {}) };
    return operationPage(ctx.deps, tool, level, dry, params.get('level') !== null);
  }
  const domain = params.get('domain') || undefined;
  const q = (params.get('q') ?? '').trim();
  if (q !== '') return searchPage(ctx.deps, q, domain, offset);
  const view = params.get('view');
  if (view === 'import') return importPage(ctx.deps.catalogs);
  if (view === 'log') return logPage(ctx.deps.searchLogFile, offset);
  if (view !== null) return unknownView(view);
  if (domain !== undefined) return domainPage(ctx.deps, domain, offset);
  return domainsPage(ctx.deps, offset, params.get('catalog') ?? undefined);
}
