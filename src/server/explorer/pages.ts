// The explorer's catalog pages: every domain (with what each API is: its display name and description) and one
// domain's operations, both paged. What they show comes from list_domains and the loaded catalogs, so the page
// shows what agents get. Shared page types live here; search and operation pages have their own modules.
import { MAP_LIMIT } from '../core/domain-map.js';
import { listDomains } from '../core/domains.js';
import { LIMITS, toolNames, type ToolNames } from '../core/names.js';
import { suggestNames } from '../../registry/catalog.js';
import type { CatalogSet, ExecutionSettings } from '../core/catalogs.js';
import type { Envelope } from '../core/envelope.js';
import { href, html, type Html } from './html.js';
import { pageOf, pager, rangeText } from './paging.js';
import { proseLine } from './prose.js';

/** What the pages read: the loaded catalogs and the server's execution settings (for dry runs and credentials). */
export interface PageDeps {
  catalogs: CatalogSet;
  settings: ExecutionSettings;
  toolPrefix?: string;
}

export interface Page {
  status: number;
  title: string;
  current?: 'domains' | 'search' | 'import' | 'log';
  query?: string;
  domain?: string;
  body: Html;
}

/** The four tools' names as this server calls them (`--prefix`). */
export function names(deps: PageDeps): ToolNames {
  return toolNames(deps.toolPrefix ?? '');
}

/** A 404 page: what is missing, then what may help (suggestions), then the way home. */
export function notFound(title: string, message: Html, help: Html | '' = ''): Page {
  return { status: 404, title, body: html`<h1>${title}</h1><p class="error" role="alert">${message}</p>${help}<p><a href="/">All domains</a></p>` };
}

/** "a, b or c" as links. */
export function orList(items: readonly string[], link: (item: string) => string): Html {
  return html`${items.map((n, i) => html`${i > 0 ? (i === items.length - 1 ? ' or ' : ', ') : ''}<a href="${link(n)}">${n}</a>`)}`;
}

/** The domains closest to a name no domain has (search_tools' own suggestions for an unknown domain). */
export function closeDomains(deps: PageDeps, domain: string): string[] {
  return suggestNames(domain.slice(0, LIMITS.nameMaxChars), deps.catalogs.domainNames);
}

/** `/` (with `offset`): what each API is, then every domain with its operation count and description (list_domains). */
export function domainsPage(deps: PageDeps, offset: number): Page {
  // every domain, paged: the explorer is a person's view, never folded into groups as an agent's map is
  const env = listDomains(deps.catalogs, {}, names(deps), { complete: true }) as Extract<Envelope, { success: true }>;
  const value = env.value as { totalDomains: number; totalTools: number; domains: Array<{ name: string; toolCount: number; description: string }> };
  const catalogs = deps.catalogs.catalogs;
  const one = catalogs.length === 1 ? catalogs[0] : undefined;
  const { rows, offset: at } = pageOf(value.domains, offset);
  const about = catalogs.map(
    (c) => html`<div class="catalog" id="catalog-${c.meta.name}">${one === undefined ? html`<h2>${c.meta.title}</h2>` : ''}
${c.meta.description !== '' ? html`<p class="catalog-description">${proseLine(c.meta.description)}</p>` : ''}
<p class="muted">Catalog <code>${c.meta.name}</code>, version ${c.meta.version || '—'}, ${c.operations.length} operations.</p></div>`,
  );
  return {
    status: 200,
    title: one !== undefined ? one.meta.title : 'Domains',
    current: 'domains',
    body: html`<h1 id="catalog-title">${one !== undefined ? one.meta.title : `${catalogs.length} APIs`}</h1>
${about}
<h2 id="domains-heading">Domains</h2>
<p id="domain-summary"><span id="domain-total">${value.totalDomains}</span> domains, ${value.totalTools} operations; showing ${rangeText(at, rows.length, value.totalDomains)}. This is the list_domains answer agents get${value.totalDomains > MAP_LIMIT ? html` (with more than ${MAP_LIMIT} domains, agents get them folded into groups by the first words of their names)` : ''}.</p>
<div class="table-wrap"><table class="stack domains" id="domains">
<thead><tr><th scope="col">Domain</th><th scope="col" class="num">Operations</th><th scope="col">Description</th></tr></thead>
<tbody>
${rows.map(
  (d) => html`<tr><td class="name" data-label="Domain"><a href="${href({ domain: d.name })}">${d.name}</a></td><td class="num count" data-label="Operations">${d.toolCount}</td><td class="desc" data-label="Description">${proseLine(d.description)}</td></tr>`,
)}
</tbody></table></div>
${pager(at, rows.length, value.totalDomains, (o) => href({ offset: o || undefined }), 'Domain pages')}`,
  };
}

/** `/?domain=x` (with `offset`): the operations of one domain, in name order. */
export function domainPage(deps: PageDeps, domain: string, offset: number): Page {
  const info = deps.catalogs.domains.find((d) => d.name === domain);
  if (info === undefined) {
    const close = closeDomains(deps, domain);
    return notFound(
      'Unknown domain',
      html`There is no domain named <code>${domain.slice(0, LIMITS.nameMaxChars)}</code>.`,
      close.length > 0 ? html`<p id="suggestions">Did you mean ${orList(close, (d) => href({ domain: d }))}?</p>` : '',
    );
  }
  const ops = deps.catalogs.operations.filter((o) => o.domain === domain);
  const { rows, offset: at } = pageOf(ops, offset);
  return {
    status: 200,
    title: `Domain ${domain}`,
    current: 'domains',
    domain,
    body: html`<h1>Domain <code>${domain}</code></h1>
<p>${proseLine(info.description)}</p>
<p class="muted" id="operation-summary">${ops.length} operations; showing ${rangeText(at, rows.length, ops.length)}. Agents browse it with search_tools {"domain": "${domain}"}.</p>
<div class="table-wrap"><table class="stack ops" id="operations">
<thead><tr><th scope="col">Operation</th><th scope="col">Request</th><th scope="col">Summary</th></tr></thead>
<tbody>
${rows.map(
  (o) => html`<tr><td class="name" data-label="Operation"><a href="${href({ tool: o.name })}">${o.name}</a>${o.destructive ? html` <span class="badge bad">destructive</span>` : ''}</td>
<td class="request" data-label="Request"><span class="method">${o.method.toUpperCase()}</span> <code>${o.path}</code></td><td class="summary" data-label="Summary">${o.summary}</td></tr>`,
)}
</tbody></table></div>
${pager(at, rows.length, ops.length, (o) => href({ domain, offset: o || undefined }), 'Operation pages')}`,
  };
}
