// HTML building for the explorer: a tagged template that escapes every interpolated value with escape-html
// unless it is already-built HTML, and the page frame (head, navigation, search box). No request handling here.
import escapeHtml from 'escape-html';
import { LIMITS } from '../core/names.js';

/** Markup that is already safe (built by `html`); anything else interpolated is escaped. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly Part[]).map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: values are escaped, nested `html` results and arrays of them are kept. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i] as Part) + (strings[i + 1] as string);
  return new Html(out);
}

/** Names up to this long read whole (`issues_create`); longer ones may wrap between their words. */
const WHOLE_NAME_CHARS = 20;

/**
 * A name (operation, domain, parameter) that may wrap: past {@link WHOLE_NAME_CHARS}, a `<wbr>` after each `.`, `_`,
 * `-` and `/` and before a capital that follows a small letter or digit (`solutions.<wbr>booking<wbr>Businesses`), so
 * a long dotted or camelCase name breaks between its words instead of widening its table. The text (and a link's
 * name) is unchanged.
 */
export function breakable(name: string): Html {
  if (name.length <= WHOLE_NAME_CHARS) return new Html(escapeHtml(name));
  return new Html(name.split(/(?<=[._\-/])(?=.)|(?<=[a-z0-9])(?=[A-Z])/).map((part) => escapeHtml(part)).join('<wbr>'));
}

/**
 * Past this many domains the header's domain filter is a text field, not a list: a `<select>` of every domain is in
 * every page (721 domains: 60 KB, two thirds of each page) and no one scrolls a list that long; the Domains page
 * lists them (by catalog), and a name typed wrong gets the closest domains as links.
 */
export const DOMAIN_SELECT_MAX = 50;

/** A query string for a link back to the page: `/?q=a%20b&domain=x`; undefined and '' values are left out. */
export function href(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s === '' ? '/' : `/?${s}`;
}

export interface FrameOptions {
  title: string;
  /** Current query and domain, to keep them in the search box. */
  query?: string;
  domain?: string;
  domains: readonly string[];
  /** The catalog's display name, when one catalog is served. */
  catalogTitle?: string;
  /** Which navigation entry is current. */
  current?: 'domains' | 'search' | 'import' | 'log';
  /** Show the logout button (a login cookie is in use). */
  loggedIn?: boolean;
}

/** The header's domain filter: a list of every domain, or past {@link DOMAIN_SELECT_MAX} a field to type one in. */
function domainFilter(options: FrameOptions): Html {
  if (options.domains.length > DOMAIN_SELECT_MAX) {
    return html`<label for="domain-filter" class="visually-hidden">Domain (optional)</label>
<input id="domain-filter" class="domain" name="domain" type="text" value="${options.domain ?? ''}" maxlength="${LIMITS.nameMaxChars}" placeholder="in domain (optional)" autocomplete="off" spellcheck="false">`;
  }
  return html`<label for="domain-filter" class="visually-hidden">Domain</label>
<select id="domain-filter" name="domain">
<option value="">all domains</option>
${options.domains.map((d) => html`<option value="${d}"${d === options.domain ? html` selected` : ''}>${d}</option>`)}
</select>`;
}

/** The whole page: head (no inline script or style, CSP-friendly), header with navigation and search, main. */
export function frame(options: FrameOptions, main: Html): Html {
  const nav = (key: FrameOptions['current'], link: string, label: string): Html =>
    html`<li><a href="${link}"${options.current === key ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}${options.catalogTitle !== undefined && options.catalogTitle !== options.title ? ` · ${options.catalogTitle}` : ''} · api-catalog explorer</title>
<link rel="stylesheet" href="/explorer/style.css">
<link rel="icon" href="/explorer/favicon.svg" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<nav aria-label="Explorer">
<a class="brand" href="/">${options.catalogTitle !== undefined ? html`${options.catalogTitle} <span class="brand-sub">· api-catalog explorer</span>` : 'api-catalog explorer'}</a>
<ul>
${nav('domains', '/', 'Domains')}
${nav('import', '/?view=import', 'Import report')}
${nav('log', '/?view=log', 'Search log')}
</ul>
${options.loggedIn ? html`<form method="post" action="/explorer/logout" class="logout"><button type="submit">Log out</button></form>` : ''}
</nav>
<form method="get" action="/" role="search" class="search">
<label for="q">Search operations</label>
<input id="q" name="q" type="search" value="${options.query ?? ''}" maxlength="${LIMITS.queryMaxChars}" placeholder="e.g. create an issue" autocomplete="off">
${domainFilter(options)}
<button type="submit">Search</button>
</form>
</header>
<main id="main">
${main}
</main>
<footer><p>Read-only view of what agents see through list_domains, search_tools and describe_tools. Dry runs never call the API.</p></footer>
</body>
</html>
`;
}

/** Pretty JSON in a <pre> (escaped). */
export function jsonBlock(value: unknown, label: string, id?: string): Html {
  return html`<pre class="json" tabindex="0" aria-label="${label}"${id !== undefined ? html` id="${id}"` : ''}><code>${JSON.stringify(value, null, 2)}</code></pre>`;
}
