// The explorer's catalog pages: every domain (with what each API is: its display name and description) and one
// domain's operations, both paged. What they show is what list_domains answers agents (the catalogs' catalog.json:
// no operation is read for it) and one domain's own operations file. Shared page types live here; search and
// operation pages have their own modules.
import { MAP_LIMIT } from '../core/domain-map.js';
import { LIMITS, toolNames, type ToolNames } from '../core/names.js';
import type { Catalog } from '../../registry/catalog.js';
import { suggestNames } from '../../registry/suggest.js';
import type { CatalogSet, ExecutionSettings } from '../core/catalogs.js';
import { oneLine } from '../core/text.js';
import type { Operation } from '../../types.js';
import { breakable, href, html, type Html } from './html.js';
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

/** Operations of a catalog, from catalog.json (its domains' counts, checked against its operations count at load). */
function operationCount(c: Catalog): number {
  return c.meta.domains.reduce((n, d) => n + d.toolCount, 0);
}

/**
 * `/` (with `offset`, and `catalog` for one catalog's domains): what each API is, then every domain with its
 * operation count and description (what list_domains answers), from catalog.json alone: no operation is read.
 */
export function domainsPage(deps: PageDeps, offset: number, catalog?: string): Page {
  const catalogs = deps.catalogs.catalogs;
  const one = catalogs.length === 1 ? catalogs[0] : undefined;
  const named = catalog === undefined ? undefined : catalogs.find((c) => c.meta.name === catalog);
  if (catalog !== undefined && named === undefined) {
    return notFound(
      'Unknown catalog',
      html`There is no catalog named <code>${catalog.slice(0, LIMITS.nameMaxChars)}</code>.`,
      html`<p id="suggestions">This server serves ${orList(catalogs.map((c) => c.meta.name), (name) => href({ catalog: catalogs.length > 1 ? name : undefined }))}.</p>`,
    );
  }
  // one catalog's domains: only a choice when there are several
  const picked = one === undefined ? named : undefined;
  // every domain, paged: the explorer is a person's view, never folded into groups as an agent's map is
  const all = picked === undefined ? deps.catalogs.domains : deps.catalogs.domains.filter((d) => d.catalog === picked.meta.name);
  const totalTools = all.reduce((n, d) => n + d.toolCount, 0);
  const { rows, offset: at } = pageOf(all, offset);
  const shownCatalogs = picked === undefined ? catalogs : [picked];
  const about = shownCatalogs.map((c) => {
    const count = deps.catalogs.domains.filter((d) => d.catalog === c.meta.name).length;
    return html`<div class="catalog" id="catalog-${c.meta.name}">${one === undefined && picked === undefined ? html`<h2><a href="${href({ catalog: c.meta.name })}">${c.meta.title}</a></h2>` : ''}
${c.meta.description !== '' ? html`<p class="catalog-description">${proseLine(c.meta.description)}</p>` : ''}
<p class="muted">Catalog <code>${c.meta.name}</code>, version ${c.meta.version || '—'}, ${operationCount(c)} operations${
      one === undefined && picked === undefined ? html` in <a href="${href({ catalog: c.meta.name })}">${count} domains</a>` : ''
    }.</p></div>`;
  });
  const heading = one !== undefined ? one.meta.title : picked !== undefined ? picked.meta.title : `${catalogs.length} APIs`;
  return {
    status: 200,
    title: picked !== undefined ? `Domains of ${picked.meta.title}` : one !== undefined ? one.meta.title : 'Domains',
    current: 'domains',
    body: html`<h1 id="catalog-title">${heading}</h1>
${about}
<h2 id="domains-heading">Domains</h2>
<p id="domain-summary"><span id="domain-total">${all.length}</span> domains, ${totalTools} operations; showing ${rangeText(at, rows.length, all.length)}. This is the list_domains answer agents get${
      picked !== undefined ? html` for {"catalog": "${picked.meta.name}"} (<a href="/">all ${catalogs.length} catalogs</a>)` : ''
    }${all.length > MAP_LIMIT ? html` (with more than ${MAP_LIMIT} domains, agents get them folded into groups by the first words of their names)` : ''}.</p>
<div class="table-wrap"><table class="stack domains" id="domains">
<thead><tr><th scope="col">Domain</th><th scope="col" class="num">Operations</th><th scope="col">Description</th></tr></thead>
<tbody>
${rows.map(
  (d) => html`<tr><td class="name" data-label="Domain"><a href="${href({ domain: d.name })}">${breakable(d.name)}</a></td><td class="num count" data-label="Operations">${d.toolCount}</td><td class="desc" data-label="Description">${proseLine(oneLine(d.description, 160))}</td></tr>`,
)}
</tbody></table></div>
${pager(at, rows.length, all.length, (o) => href({ catalog: picked?.meta.name, offset: o || undefined }), 'Domain pages')}`,
  };
}

/**
 * One domain's operations, public names, in name order: read from that domain's own file when its catalog has one
 * (never every operations file); else (a catalog filtered at serve time, or laid out otherwise) from the whole list.
 */
function domainOperations(deps: PageDeps, domain: string, catalogName: string): Operation[] {
  const catalog = deps.catalogs.catalogs.find((c) => c.meta.name === catalogName);
  const prefix = deps.catalogs.catalogs.length > 1 ? `${catalogName}.` : '';
  const own = catalog !== undefined && domain.startsWith(prefix) ? catalog.operationsInDomain?.(domain.slice(prefix.length)) : undefined;
  if (own === undefined) return deps.catalogs.operations.filter((o) => o.domain === domain);
  const ops = prefix === '' ? [...own] : own.map((o) => ({ ...o, name: prefix + o.name, domain }));
  return ops.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
  const ops = domainOperations(deps, domain, info.catalog);
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
  (o) => html`<tr><td class="name" data-label="Operation"><a href="${href({ tool: o.name })}">${breakable(o.name)}</a>${o.destructive ? html` <span class="badge bad">destructive</span>` : ''}</td>
<td class="request" data-label="Request"><span class="method">${o.method.toUpperCase()}</span> <code>${o.path}</code></td><td class="summary" data-label="Summary">${o.summary}</td></tr>`,
)}
</tbody></table></div>
${pager(at, rows.length, ops.length, (o) => href({ domain, offset: o || undefined }), 'Operation pages', 'search in this domain (pick it beside the search box) to reach the rest')}`,
  };
}
