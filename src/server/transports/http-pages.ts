// The pages a browser gets from the transport itself where an MCP client gets a JSON-RPC error, for the requests the
// explorer answers (http.ts's explorer branch: `/`, `/explorer/*`, the tab icon, and any GET or HEAD that accepts
// HTML): a Host or Origin the server does not accept (403, saying what the operator configures), a replica that is
// shutting down (503), and a page that failed while it was built (503 with Retry-After while the catalog changed on
// disk and is being reloaded, else 500). Each is a standalone explorer page (its stylesheet and security headers;
// every value escaped by the explorer's `html`), never the error's own text: a message may name server paths, and
// the log has it (http_internal_error). `/mcp` and the probes keep their JSON-RPC errors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAppError } from '../../errors.js';
import { html, type Html } from '../explorer/html.js';
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

/** Writes `p` with the explorer's headers (no body for HEAD); a response already started is only ended. */
export function sendErrorPage(req: IncomingMessage, res: ServerResponse, p: ErrorPage): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(p.status, { ...PAGE_HEADERS, 'Content-Length': String(Buffer.byteLength(p.page.text)), ...p.headers });
  res.end(req.method === 'HEAD' ? undefined : p.page.text);
}

const HOME = html`<p><a href="/" id="home">Back to the explorer</a></p>`;

/** A header value as shown on a page: at most 100 characters (escaped by `html` where it is put). */
function shown(value: string | undefined): string {
  return value === undefined || value === '' ? '(none)' : value.slice(0, 100);
}

/** The Host header is not one this server answers to (DNS-rebinding protection): what the operator allows. */
export function hostRefusedPage(host: string | undefined): ErrorPage {
  const name = shown(host);
  const named = host === undefined || host === '' ? '<name>' : name;
  return {
    status: 403,
    page: standalonePage(
      'Forbidden: this address is not allowed',
      html`<p class="error" role="alert" id="host-refused">This server does not answer to the name this page was asked for with (<code>Host: ${name}</code>). It answers only to its own address and the names its operator allows, so that another site cannot reach it through a name of its own (DNS rebinding).</p>
<p id="host-fix">If this is how people reach the server (a DNS name, a proxy that forwards its own <code>Host</code>), its operator allows the name: <code>--allow-host ${named}</code> (or <code>API_CATALOG_ALLOW_HOSTS</code>, or <code>serve.http.allowHosts</code> in the config file), or sets <code>--public-url https://&lt;that name&gt;/mcp</code> when it is also the address MCP clients use, and restarts the server.</p>`,
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
