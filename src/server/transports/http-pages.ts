// The pages a browser gets from the transport itself where an MCP client gets a JSON-RPC error, for the requests the
// explorer answers (http.ts's explorer branch: `/`, `/explorer/*`, the tab icon, and any GET or HEAD that accepts
// HTML): a Host or Origin the server does not accept (403, saying what the operator configures), a replica that is
// shutting down (503), and a page that failed while it was built (503 with Retry-After while the catalog changed on
// disk and is being reloaded, else 500). Each is a standalone explorer page (its stylesheet and security headers;
// every value escaped by the explorer's `html`), never the error's own text: a message may name server paths, and
// the log has it (http_internal_error); the refused-Host page carries its few styles inline, as every request with
// that Host (its stylesheet's too) is refused. `/mcp` and the probes keep their JSON-RPC errors.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVE_OPTIONS } from '../../config.js';
import { isAppError } from '../../errors.js';
import { sendBody } from '../explorer/compress.js';
import { html, Html } from '../explorer/html.js';
import { PAGE_HEADERS, standalonePage } from '../explorer/standalone.js';

/** A refusal or failure as a page: its status, extra headers (Retry-After, Connection) and the page. */
export interface ErrorPage {
  status: number;
  headers?: Record<string, string>;
  page: Html;
}

/** Seconds a browser waits before reloading a page the catalog's reload interrupted. */
export const RELOAD_RETRY_AFTER_SECONDS = 5;

/** The path of a request target (`/?q=x` -> `/`); undefined when it cannot be parsed. */
export function pathnameOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/** Whether an Accept header's value asks for text/html (a browser loading a page). */
export function acceptsHtml(accept: string): boolean {
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

/** A browser asking for a page (GET or HEAD accepting text/html): it gets HTML, not a JSON-RPC error. */
export function browserPageRequest(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && acceptsHtml(String(req.headers.accept ?? ''));
}

/**
 * Whether the explorer answers this request (with the explorer on, `endpoint` being the MCP path): its pages and
 * forms, its stylesheet and icons, and any page a browser asks for that the server does not have.
 */
export function explorerRequest(req: IncomingMessage, pathname: string, endpoint: string): boolean {
  return pathname !== endpoint && (pathname === '/' || pathname.startsWith('/explorer/') || pathname === '/favicon.ico' || browserPageRequest(req));
}

/**
 * Writes `p` with the explorer's headers, compressed as the explorer's own pages are when the browser takes it
 * (compress.ts: `Vary: Accept-Encoding`; no body for HEAD); a response already started is only ended.
 */
export async function sendErrorPage(req: IncomingMessage, res: ServerResponse, p: ErrorPage): Promise<void> {
  if (res.headersSent) {
    res.end();
    return;
  }
  await sendBody(res, p.status, { ...PAGE_HEADERS, ...p.headers }, p.page.text, { head: req.method === 'HEAD' });
}

const HOME = html`<p><a href="/" id="home">Back to the explorer</a></p>`;

/** A header value as shown on a page: at most 100 characters (escaped by `html` where it is put). */
function shown(value: string | undefined): string {
  return value === undefined || value === '' ? '(none)' : value.slice(0, 100);
}

/**
 * The few styles of the explorer's stylesheet a refused-Host page needs, inline: the browser would ask for
 * /explorer/style.css with the same Host, refused too, so a linked stylesheet never arrives. The page's CSP allows this
 * one style element by its hash (never 'unsafe-inline'); the tab icon is an empty data: URL, not another request.
 */
const HOST_PAGE_STYLE =
  ':root{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff}' +
  'main{max-width:1200px;margin:0 auto;padding:12px 24px 48px}h1{font-size:1.6rem;margin:8px 0 4px;overflow-wrap:anywhere}p{margin:6px 0;overflow-wrap:anywhere}' +
  'code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;overflow-wrap:anywhere}.error{color:#b42318;font-weight:600}' +
  '@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}.error{color:#ff8b80}}';

/** The refused-Host page's CSP: the explorer's, but for its one inline style element (by hash) and a data: icon. */
const HOST_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(HOST_PAGE_STYLE).digest('base64')}'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** A standalone page that loads nothing from this server (the inline style, an empty icon). */
function selfContainedPage(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · api-catalog</title><style>${new Html(HOST_PAGE_STYLE)}</style><link rel="icon" href="data:,"></head>
<body><main id="main">
<h1>${title}</h1>
${body}
</main></body></html>
`;
}

/** --allow-host's own check (a host name or host:port), so the page suggests only a value the flag accepts. */
const ALLOW_HOSTS_SCHEMA = SERVE_OPTIONS.find((o) => o.name === 'allowHosts')!.schema;

/** Whether `host` is a value `--allow-host` takes: `catalog.example.com`, `catalog.example.com:8443`, `[::1]:3333`. */
export function allowableHost(host: string | undefined): host is string {
  return host !== undefined && host !== '' && ALLOW_HOSTS_SCHEMA.safeParse([host]).success;
}

/**
 * The Host header is not one this server answers to (DNS-rebinding protection): what the operator allows. The flag
 * is written out with the Host the browser sent only when that is a host name or host:port; otherwise (empty, a space,
 * a path, user@) with `<name>` and how to find the right name. Self-contained: it loads nothing from this server,
 * whose every request with this Host is refused too.
 */
export function hostRefusedPage(host: string | undefined): ErrorPage {
  const name = shown(host);
  const valid = allowableHost(host);
  const named = valid ? host : '<name>';
  const which = valid
    ? ''
    : html`<p id="host-name">That <code>Host</code> is not a host name (or <code>host:port</code>), so there is nothing to allow as it is. The name to allow is the one in the browser's address bar, without <code>https://</code> and the path: e.g. <code>catalog.example.com</code>, or <code>catalog.example.com:8443</code> with its port. A proxy in front of the server must pass that name on as the <code>Host</code> (nginx: <code>proxy_set_header Host $host;</code>).</p>\n`;
  return {
    status: 403,
    headers: { 'Content-Security-Policy': HOST_PAGE_CSP },
    page: selfContainedPage(
      'Forbidden: this address is not allowed',
      html`<p class="error" role="alert" id="host-refused">This server does not answer to the name this page was asked for with (<code>Host: ${name}</code>). It answers only to its own address and the names its operator allows, so that another site cannot reach it through a name of its own (DNS rebinding).</p>
${which}<p id="host-fix">If this is how people reach the server (a DNS name, a proxy that forwards its own <code>Host</code>), its operator allows the name: <code>--allow-host ${named}</code> (or <code>API_CATALOG_ALLOW_HOSTS</code>, or <code>serve.http.allowHosts</code> in the config file), or sets <code>--public-url https://&lt;that name&gt;/mcp</code> when it is also the address MCP clients use, and restarts the server.</p>`,
    ),
  };
}

/** A form or request sent from a page of another origin: what lets the explorer's own page through a proxy. */
export function originRefusedPage(origin: string): ErrorPage {
  const from = shown(origin);
  // the flags name the page's origin when it is one (`null`, sent by sandboxed or privacy-minded pages, is not)
  const named = /^https?:\/\/[^/\s]+$/i.test(from) ? from : '<origin>';
  return {
    status: 403,
    page: standalonePage(
      'Forbidden: sent from another site',
      html`<p class="error" role="alert" id="origin-refused">This request came from a page at <code>${from}</code>, and this server takes requests only from its own pages, so that another site cannot send forms here in your name. Nothing was done.</p>
<p id="origin-fix">If that page is the explorer itself, reached through a proxy or another name, its operator sets <code>--public-url</code> to the address browsers use (<code>--public-url ${named}/mcp</code>), or allows the page with <code>--allow-origin ${named}</code> (or <code>API_CATALOG_ALLOW_ORIGINS</code>, or <code>serve.http.allowOrigins</code> in the config file), and restarts the server. Allow only a page you trust.</p>
${HOME}`,
    ),
  };
}

/** The replica is shutting down (a balancer sends the next request to another one). */
export function drainingPage(retryAfterSeconds: number): ErrorPage {
  return {
    status: 503,
    headers: { 'Retry-After': String(retryAfterSeconds), Connection: 'close' },
    page: standalonePage(
      'Try again shortly',
      html`<p class="error" role="alert" id="draining">This server is shutting down, so it did not answer this request; nothing was done.</p>
<p>Reload this page in ${retryAfterSeconds} seconds: another server (or this one, restarted) answers it then.</p>`,
    ),
  };
}

/** The server has not finished starting (its authentication is not set up yet). */
export function startingPage(): ErrorPage {
  return {
    status: 503,
    headers: { 'Retry-After': '1' },
    page: standalonePage('Try again shortly', html`<p class="error" role="alert" id="starting">This server is still starting.</p>\n<p>Reload this page in a second.</p>`),
  };
}

/**
 * A page that failed while it was built: the catalog changed on disk (a re-import) and the server is loading the new
 * version (503, retry in a few seconds); a registry file that cannot be read or is damaged (500, the log names it);
 * anything else (500). The error's own text is not shown (it names server paths): the log has it.
 */
export function failedPage(err: unknown): ErrorPage {
  const code = isAppError(err) ? err.code : undefined;
  if (code === 'REGISTRY_STALE') {
    return {
      status: 503,
      headers: { 'Retry-After': String(RELOAD_RETRY_AFTER_SECONDS) },
      page: standalonePage(
        'Try again in a few seconds',
        html`<p class="error" role="alert" id="failed">The catalog is being reloaded: its files changed on disk (a re-import) after the server loaded them, and the server is loading the new version now.</p>
<p id="hint">Nothing is wrong with this page: reload it in a few seconds, and it shows the new version.</p>
${HOME}`,
      ),
    };
  }
  const registry = code === 'REGISTRY_INVALID' || code === 'REGISTRY_NOT_FOUND';
  return {
    status: 500,
    page: standalonePage(
      'This page could not be built',
      html`<p class="error" role="alert" id="failed">${registry ? 'A file of the catalog that this page needs cannot be read, or is damaged.' : 'The server failed while it built this page.'}</p>
<p id="hint">${registry ? html`Its operator finds the file in the server's log (the <code>http_internal_error</code> line) and re-runs the import of that registry, or puts the previous folder back; the server loads it without a restart.` : html`Its operator finds the reason in the server's log (the <code>http_internal_error</code> line). Reloading the page tries again.`} Other pages may still work.</p>
${code !== undefined ? html`<p>Error code: <code>${code}</code></p>\n` : ''}${HOME}`,
    ),
  };
}
