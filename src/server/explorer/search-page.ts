// The explorer's search page (`/?q=...`, with `domain` and `offset`): search_tools' own ranking and scores, paged
// (an offset past the end shows the last page), with what a person needs around them: the spelling the search read
// ("Showing results for ..."), what to try when nothing matched, a domain name that does not exist, hits that a
// domain-scoped search reached in another domain; and — folded under the results — why each hit ranks: how the query
// was read and each hit's retrieval score, coverage and re-ranking factors, from SearchIndex.search(..., { explain:
// true }) on the same query. These searches are not written to the search log (no observer is passed).
import { LIMITS } from '../core/names.js';
import { searchTools } from '../core/search.js';
import type { HitExplanation, QueryReading, SearchResult } from '../../search/index.js';
import { breakable, href, html, type Html } from './html.js';
import { PAGE_SIZE, pager, rangeText } from './paging.js';
import { closeDomains, names, notFound, orList, type Page, type PageDeps } from './pages.js';

/** Longest query shown in a heading or title; the search box keeps it whole. */
const SHOWN_QUERY_CHARS = 80;

interface Hit {
  name: string;
  domain: string;
  summary: string;
  requiredParams: string[];
  score: number;
}

/** How the query was read, one item per thing the analysis decided (a later search version may add `units`). */
function readingItems(r: QueryReading): Array<[string, string]> {
  const items: Array<[string, string]> = [['Read as', r.words || '(nothing)']];
  if (r.laterStep !== undefined) items.push(['Later step (weighs less)', r.laterStep]);
  if (r.appended !== undefined) items.push(['Appended (weighs less)', r.appended]);
  if (r.head !== undefined) items.push(['Head noun', r.head]);
  if (r.methods !== undefined) items.push(['Method', r.methods.join('/').toUpperCase()]);
  if (r.shape !== undefined) items.push(['Shape', r.shape]);
  if (r.scopes !== undefined) items.push(['Scope', r.scopes.join(', ')]);
  const units = (r as QueryReading & { units?: unknown }).units;
  if (Array.isArray(units)) {
    for (const u of units) {
      if (u !== null && typeof u === 'object' && typeof (u as { unit?: unknown }).unit === 'string') {
        items.push([`Unit ${(u as { unit: string }).unit}`, String((u as { reading?: unknown }).reading ?? '')]);
      }
    }
  }
  return items;
}

/** One hit's factors: the retrieval score, the share of the query it covers, every signal that moved it. */
function explainCells(e: HitExplanation | undefined): Html {
  if (e === undefined) {
    return html`<td colspan="4" data-label="Why" class="muted">No lexical explanation: this hit comes from the embeddings ranking.</td>`;
  }
  const moved = e.signals.filter((s) => s.factor !== 1);
  const power = e.retrievalWeight === undefined ? '' : html`<sup>${e.retrievalWeight}</sup>`;
  return html`<td class="num" data-label="Retrieval (BM25+)">${e.retrieval.toFixed(3)}${power}</td><td class="num" data-label="Covers">${Math.round(e.coverage * 100)}%</td>
<td data-label="Signals">${moved.length === 0 ? html`<span class="muted">none moved it</span>` : moved.map((s, i) => html`${i > 0 ? ', ' : ''}<span class="signal">${s.name} ×${s.factor.toFixed(3)}</span>`)}${
    e.exact ? html` <span class="badge">names it exactly: first</span>` : ''
  }</td><td class="num" data-label="Product">${e.reranked.toFixed(3)}</td>`;
}

/** The folded "why" under the results: the query's reading and a table of each hit's factors. */
function explainSection(found: SearchResult, hybrid: boolean, offset: number, hits: readonly Hit[]): Html | '' {
  if (hits.length === 0) return '';
  const byName = new Map(found.results.map((h) => [h.name, h.explain]));
  return html`<details class="why" id="explain">
<summary>Why these rank in this order</summary>
${found.reading !== undefined ? html`<dl class="reading" id="reading">${readingItems(found.reading).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>` : ''}
<p class="muted">Each hit's lexical retrieval score (BM25+ over the query's concepts, raised to its learned power, the small
number), the share of the query it covers, and every re-ranking signal that moved it (docs/SEARCH.md names them); their
product, normalized, is the score.${
    hybrid ? ' This server also ranks with embeddings: the factors explain the lexical part of the fused ranking.' : ''
  }</p>
<div class="table-wrap"><table class="stack explain" id="explain-table">
<thead><tr><th scope="col" class="num">#</th><th scope="col">Operation</th><th scope="col" class="num">Retrieval</th><th scope="col" class="num">Covers</th><th scope="col">Signals that moved it</th><th scope="col" class="num">Product</th></tr></thead>
<tbody>${hits.map((h, i) => html`<tr><td class="num" data-label="Rank">${offset + i + 1}</td><td data-label="Operation">${breakable(h.name)}</td>${explainCells(byName.get(h.name))}</tr>`)}</tbody>
</table></div>
</details>`;
}

/** A query as a heading or title shows it: cut at {@link SHOWN_QUERY_CHARS} with an ellipsis. */
export function shownQuery(query: string): string {
  return query.length > SHOWN_QUERY_CHARS ? `${query.slice(0, SHOWN_QUERY_CHARS - 1).trimEnd()}…` : query;
}

/**
 * The query as the search spelt it, when its typo reading corrected a word: the query with each fix applied, and each
 * fix as the reader typed the word (the reading has it lower-cased: "Isue" is read as "isue").
 */
function correctedQuery(query: string, reading: QueryReading | undefined): { text: string; fixes: Array<[string, string]> } | undefined {
  const note = reading?.units.find((u) => u.unit === 'typos')?.reading;
  if (note === undefined) return undefined;
  const read = note.split(', ').map((f) => f.split(' -> ')).filter((f): f is [string, string] => f.length === 2);
  if (read.length === 0) return undefined;
  let text = query;
  const fixes: Array<[string, string]> = [];
  for (const [from, to] of read) {
    const word = new RegExp(`(?<![\\p{L}\\p{N}])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'giu');
    fixes.push([query.match(word)?.[0] ?? from, to]);
    text = text.replace(word, to);
  }
  return { text, fixes };
}

/** A suggestion as a link: an operation's name opens it, words search for them. */
function suggestionLink(deps: PageDeps, s: string, domain: string | undefined): string {
  return deps.catalogs.byName.has(s) ? href({ tool: s }) : href({ q: s, domain });
}

interface SearchValue {
  results: Hit[];
  total: number;
  confidence?: 'low';
  suggestions?: { domains: string[]; didYouMean?: string[] };
}

/** What to try after a search that found nothing: its suggestions, then the ways to browse. */
function nothingFound(deps: PageDeps, query: string, domain: string | undefined, value: SearchValue): Html {
  const didYouMean = value.suggestions?.didYouMean ?? [];
  const domains = value.suggestions?.domains ?? [];
  return html`<p class="error" role="status" id="no-results">No operation matched.</p>
<ul class="next-steps" id="next-steps">
${didYouMean.length > 0 ? html`<li id="did-you-mean">Did you mean ${orList(didYouMean, (s) => suggestionLink(deps, s, domain))}?</li>` : ''}
${domains.length > 0 ? html`<li>Browse a domain that shares its words: ${orList(domains, (d) => href({ domain: d }))}.</li>` : ''}
${domain !== undefined ? html`<li><a href="${href({ q: query })}">Search all domains</a> instead of <code>${domain}</code>.</li>` : ''}
<li>Use fewer words, the API's own: a short “action resource” such as “create issue” or “list members”.</li>
<li><a href="/">Browse every domain</a>.</li>
</ul>`;
}

/** `/?q=...` (and `domain`, `offset`): search_tools results with scores, a page at a time, and why they rank. */
export async function searchPage(deps: PageDeps, rawQuery: string, domain: string | undefined, offset: number): Promise<Page> {
  const query = rawQuery.slice(0, LIMITS.queryMaxChars).trim();
  const shown = shownQuery(query);
  const base = { title: `Search: ${shown}`, current: 'search' as const, query, ...(domain !== undefined ? { domain } : {}) };
  if (domain !== undefined && !deps.catalogs.domainNames.includes(domain)) {
    const close = closeDomains(deps, domain);
    return {
      ...notFound('Unknown domain', html`There is no domain named <code>${domain.slice(0, LIMITS.nameMaxChars)}</code> to search in.`, html`<ul class="next-steps" id="suggestions">
${close.map((d) => html`<li>Did you mean <a href="${href({ domain: d })}">${d}</a>? <a href="${href({ q: query, domain: d })}">Search “${shown}” in ${d}</a>.</li>`)}
<li><a href="${href({ q: query })}">Search “${shown}” in all domains</a>.</li></ul>`),
      current: 'search',
      query,
    };
  }
  const run = async (at: number) => {
    const input: Record<string, unknown> = { query, limit: PAGE_SIZE, offset: at };
    if (domain !== undefined) input.domain = domain;
    return searchTools(deps.catalogs, input, names(deps));
  };
  let env = await run(offset);
  if (!env.success) {
    return { ...base, status: 400, body: html`<h1>Search</h1><p class="error" role="alert">${env.error.message}</p>` };
  }
  let value = env.value as SearchValue;
  // past the end: the last page, as a domain's list does
  if (value.results.length === 0 && value.total > 0 && offset > 0) {
    offset = Math.floor((value.total - 1) / PAGE_SIZE) * PAGE_SIZE;
    env = await run(offset);
    if (env.success) value = env.value as SearchValue;
  }
  const found = deps.catalogs.index.search(query, { limit: PAGE_SIZE, offset, explain: true, ...(domain !== undefined ? { domain } : {}) });
  const corrected = correctedQuery(query, found.reading);
  const link = (o: number): string => href({ q: query, domain, offset: o || undefined });
  const reached = domain !== undefined && value.results.some((r) => r.domain !== domain);
  const weak = value.confidence === 'low' && value.suggestions !== undefined && value.suggestions.domains.length > 0;
  return {
    ...base,
    status: 200,
    body: html`<h1>Search results for <q>${shown}</q>${domain !== undefined ? html` in <code>${domain}</code>` : ''}</h1>
${
  corrected !== undefined
    ? html`<p class="notice" id="corrected" role="status">Showing results for <q>${shownQuery(corrected.text)}</q>: the search read ${corrected.fixes.map(
        ([from, to], i) => html`${i > 0 ? ', ' : ''}“${from}” as “${to}”`,
      )}, as it does for agents.</p>`
    : ''
}
<p id="result-summary">${value.total} matching operations; showing ${rangeText(offset, value.results.length, value.total)}, ranked and scored as search_tools answers agents (1 = the best match).${
      reached ? html` Rows marked <span class="badge">from another domain</span> are operations of other domains whose path names this domain's resource; search_tools includes them a little lower.` : ''
    }</p>
${weak ? html`<p class="notice" id="weak-match">None of these covers the query well. Try other words, or browse ${orList(value.suggestions?.domains ?? [], (d) => href({ domain: d }))}.</p>` : ''}
${
  value.results.length === 0
    ? nothingFound(deps, query, domain, value)
    : html`${explainSection(found, deps.catalogs.embeddings !== undefined, offset, value.results)}
<div class="table-wrap"><table class="stack results" id="results">
<thead><tr><th scope="col" class="num">#</th><th scope="col" class="num">Score</th><th scope="col">Operation</th><th scope="col">Domain</th><th scope="col">Summary</th><th scope="col">Required</th></tr></thead>
<tbody>
${value.results.map(
  (r, i) => html`<tr${domain !== undefined && r.domain !== domain ? html` class="reached"` : ''}><td class="num rank" data-label="Rank">${offset + i + 1}</td><td class="num score" data-label="Score">${r.score.toFixed(3)}</td>
<td class="name" data-label="Operation"><a href="${href({ tool: r.name })}">${breakable(r.name)}</a></td><td class="domain" data-label="Domain"><a href="${href({ domain: r.domain })}" title="${r.domain}">${breakable(r.domain)}</a>${
    domain !== undefined && r.domain !== domain ? html` <span class="badge" title="Not in ${domain}: its path names this domain's resource">from another domain</span>` : ''
  }</td>
<td class="summary" data-label="Summary">${r.summary}</td><td class="required" data-label="Required"${r.requiredParams.length > 0 ? html` title="${r.requiredParams.join(', ')}"` : ''}>${r.requiredParams.map((p, k) => html`${k > 0 ? ', ' : ''}${breakable(p)}`)}</td></tr>`,
)}
</tbody></table></div>`
}
${pager(offset, value.results.length, value.total, link, 'Result pages', domain === undefined ? 'add words to the search, or pick a domain to search in' : 'add words to the search')}`,
  };
}
