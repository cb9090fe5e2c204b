// The explorer's response headers, and the small standalone pages a browser gets outside the explorer's own routes:
// the MCP endpoint opened in a browser, an address over Node's header limit (served by the transport, src/server/
// transports/http.ts), a path the server does not have (not-found.ts), and the explorer's own answers when it cannot
// log a browser in (no static token) or cannot check its credentials now (index.ts). They share the explorer's stylesheet and
// headers, and need nothing from the catalog, so this module loads only the HTML helper: the transport imports it
// at start without loading the explorer.
import { html, type Html } from './html.js';
import { clientConfigs } from '../auth/client-config.js';

/** Every explorer response's headers: no script, no framing, no caching, same-origin forms only. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // not no-referrer: with it, browsers send `Origin: null` on form POSTs, which the transport's Origin check refuses
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** A standalone page's headers: the explorer's, as HTML. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8' };

/** A page outside the explorer's frame: its title, the stylesheet and tab icon, and the body. */
export function standalonePage(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · api-catalog</title><link rel="stylesheet" href="/explorer/style.css"><link rel="icon" href="/explorer/favicon.svg" type="image/svg+xml"></head>
<body><main id="main">
<h1>${title}</h1>
${body}
</main></body></html>
`;
}

/**
 * How MCP clients reach and authenticate to this server, as the pages a browser can open without credentials tell it
 * (never a token, never a principal's name).
 */
export interface ClientAccess {
  /** The MCP endpoint as clients reach it: the --public-url, else this request's own scheme, Host and path. */
  endpoint: string;
  /**
   * Browsers reach this server over TLS: the request came through a TLS-terminating proxy (X-Forwarded-Proto:
   * https) or the --public-url is https. The explorer's login cookie gets `Secure` then; the endpoint's scheme is the
   * forwarded one too, unless the --public-url names the endpoint.
   */
  https: boolean;
  /**
   * The Authorization header to configure, a placeholder (the start banner's decision, from auth/client-config.ts);
   * undefined when clients need none: no authentication, or OAuth (the client gets its token itself).
   */
  authorization?: string;
  /** OAuth: the issuer, and the Protected Resource Metadata URL clients discover it from. */
  oauth?: { issuer: string; metadataUrl: string };
  /** The static API_CATALOG_HTTP_TOKEN is set (the explorer's login form needs it). */
  staticToken: boolean;
  /** Named tokens (--tokens) are accepted. */
  namedTokens: boolean;
}

/** The client configurations to paste (Cursor and Claude Code; VS Code), with the header when clients need one. */
function clientConfigBlocks(access: ClientAccess): Html {
  return html`${clientConfigs(access.endpoint, access.authorization).map(
    (c, i) => html`<p>${c.clients.map((k, j) => html`${j > 0 ? ' and ' : ''}${k.name} (<code>${k.file}</code>)`)}:</p>
<pre class="json"${i === 0 ? html` id="client-config"` : ''}><code>${JSON.stringify(c.config, null, 2)}</code></pre>
`,
  )}`;
}

/** How a client authenticates, in a sentence or two; empty for a server without authentication. */
export function clientAuthText(access: ClientAccess): Html {
  if (access.oauth !== undefined) {
    const others = access.staticToken || access.namedTokens ? html` A script without OAuth support may send <code>Authorization: Bearer &lt;token&gt;</code> with a token the server's operator gave it.` : '';
    return html`<p id="client-auth">This server takes OAuth access tokens from <code>${access.oauth.issuer}</code>. An MCP client with OAuth support needs only the URL, so the configuration has no <code>Authorization</code> header: the client reads the server's metadata (<a href="${access.oauth.metadataUrl}">${access.oauth.metadataUrl}</a>), gets its token from the authorization server (asking for the scopes <code>catalog:read</code> and <code>catalog:execute</code>) and sends it itself.${others}</p>
`;
  }
  if (access.authorization !== undefined) return html`<p id="client-auth">This server needs a token: replace <code>&lt;token&gt;</code> with the one its operator gave you.</p>\n`;
  return html``;
}

/**
 * What a browser that opens the MCP endpoint gets: what the address is for, where the explorer is, and the client
 * configuration to paste (with the Authorization header only where clients configure one by hand; an OAuth client
 * gets its token itself, as the start banner says).
 */
export function mcpEndpointPage(access: ClientAccess): string {
  return standalonePage(
    'This is the MCP endpoint',
    html`<p id="mcp-endpoint">This address (<code>${access.endpoint}</code>) is where AI agents talk to the server, through an MCP client; it has no page to read.
The catalog explorer, where people browse what agents see, is at <a href="/" id="home">/</a>.</p>
<h2>Connect an MCP client</h2>
${clientConfigBlocks(access)}${clientAuthText(access)}`,
  ).text;
}

/**
 * The page for a browser without credentials on a server with no static token (OAuth, named tokens only): the login
 * form needs API_CATALOG_HTTP_TOKEN, so it says so, what else lets a request in (the header /mcp takes, which a
 * browser sends only through an extension or a proxy), and how MCP clients connect.
 */
export function noLoginPage(access: ClientAccess | undefined): Html {
  const what =
    access?.oauth !== undefined
      ? html`an OAuth access token from <code>${access.oauth.issuer}</code> with the scope <code>catalog:read</code>`
      : access?.namedTokens === true
        ? html`a token of the server's tokens file (<code>api-catalog token new</code>) with the scope <code>catalog:read</code>`
        : html`a token this server accepts`;
  return standalonePage(
    'api-catalog explorer',
    html`<p class="error" role="alert" id="needs-token">The explorer's login form needs the server's static token, and this server has none set, so a browser cannot log in here.</p>
<p>Two ways in: the server's operator sets <code>API_CATALOG_HTTP_TOKEN</code> (at least 16 characters, e.g. <code>openssl rand -hex 32</code>) and restarts it, and the explorer then asks for that token once; or the browser sends the header <code>/mcp</code> takes, <code>Authorization: Bearer &lt;token&gt;</code> with ${what}, through an extension or a proxy that adds request headers.</p>
${
  access !== undefined
    ? html`<h2>MCP clients</h2>
<p id="mcp-clients">Agents connect to <code>${access.endpoint}</code>; <a href="${access.endpoint}">that address</a>, opened in a browser, shows the client configuration to paste.</p>
${clientAuthText(access)}`
    : ''
}`,
  );
}

/** The page for a request whose credentials could not be checked now: /mcp's 503 message; the browser may retry. */
export function unavailablePage(message: string): Html {
  return standalonePage(
    'Try again shortly',
    html`<p class="error" role="alert" id="unavailable">${message}.</p>
<p>The token was not refused: reload this page in a few seconds.</p>`,
  );
}

/**
 * What a browser gets for an address longer than Node accepts (a request line and headers over 16 KB: a dry run's
 * arguments too large for a shareable address): the way back to the form, or to the operation (`tool`) when the
 * address names one.
 */
export function addressTooLongPage(tool: string | undefined): string {
  const back = tool !== undefined ? html`<a href="/?${new URLSearchParams({ tool }).toString()}" id="back">the operation ${tool}</a>` : html`<a href="/" id="back">the explorer</a>`;
  return standalonePage(
    'The address is too long',
    html`<p class="error" role="alert" id="too-long">This address is longer than the server accepts (16 KB with the request's headers). When it is a dry run, its arguments are too large to travel in a shareable address.</p>
<p>Go back with the browser's Back button: the form keeps what you typed, so you can shorten the arguments. Or open ${back}.</p>`,
  ).text;
}
