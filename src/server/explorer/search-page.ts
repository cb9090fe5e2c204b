// The explorer's search page (`/?q=...`, with `domain` and `offset`): search_tools' own ranking and scores, paged,
// and — folded under the results — why each hit ranks: how the query was read and each hit's retrieval score,
// coverage and re-ranking factors, from SearchIndex.search(..., { explain: true }) on the same query.
import { searchTools } from '../core/search.js';
import type { HitExplanation, QueryReading } from '../../search/index.js';
import { href, html, type Html } from './html.js';
import { PAGE_SIZE, pager, rangeText } from './paging.js';
import { names, type Page, type PageDeps } from './pages.js';

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
function explainSection(deps: PageDeps, query: string, domain: string | undefined, offset: number, hits: readonly Hit[]): Html | '' {
  if (query === '' || hits.length === 0) return '';
  const found = deps.catalogs.index.search(query, { limit: PAGE_SIZE, offset, explain: true, ...(domain !== undefined ? { domain } : {}) });
  const byName = new Map(found.results.map((h) => [h.name, h.explain]));
  const hybrid = deps.catalogs.embeddings !== undefined;
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
<tbody>${hits.map((h, i) => html`<tr><td class="num" data-label="Rank">${offset + i + 1}</td><td data-label="Operation">${h.name}</td>${explainCells(byName.get(h.name))}</tr>`)}</tbody>
</table></div>
</details>`;
}

/** `/?q=...` (and `domain`, `offset`): search_tools results with scores, a page at a time, and why they rank. */
export async function searchPage(deps: PageDeps, query: string, domain: string | undefined, offset: number): Promise<Page> {
  const input: Record<string, unknown> = { query, limit: PAGE_SIZE, offset };
  if (domain !== undefined) input.domain = domain;
  const env = await searchTools(deps.catalogs, input, names(deps));
  const base = { title: `Search: ${query}`, current: 'search' as const, query, ...(domain !== undefined ? { domain } : {}) };
  if (!env.success) {
    return { ...base, status: 400, body: html`<h1>Search</h1><p class="error" role="alert">${env.error.message}</p><p>${env.instruction ?? ''}</p>` };
  }
  const value = env.value as { results: Hit[]; total: number; suggestions?: { domains: string[]; didYouMean: string[] } };
  const suggestions = value.suggestions;
  const link = (o: number): string => href({ q: query, domain, offset: o || undefined });
  return {
    ...base,
    status: 200,
    body: html`<h1>Search results for <q>${query}</q>${domain !== undefined ? html` in <code>${domain}</code>` : ''}</h1>
<p id="result-summary">${value.total} matching operations; showing ${rangeText(offset, value.results.length, value.total)}, ranked and scored as search_tools answers agents (1 = the best match).</p>
${
  value.results.length === 0
    ? html`<p class="error" role="status">No operation matched.</p>
${suggestions && suggestions.didYouMean.length > 0 ? html`<p>Did you mean: ${suggestions.didYouMean.map((s, i) => html`${i > 0 ? ', ' : ''}<a href="${href({ q: s })}">${s}</a>`)}?</p>` : ''}
${suggestions && suggestions.domains.length > 0 ? html`<p>Domains to browse: ${suggestions.domains.map((s, i) => html`${i > 0 ? ', ' : ''}<a href="${href({ domain: s })}">${s}</a>`)}</p>` : ''}`
    : html`${explainSection(deps, query, domain, offset, value.results)}
<div class="table-wrap"><table class="stack results" id="results">
<thead><tr><th scope="col" class="num">#</th><th scope="col" class="num">Score</th><th scope="col">Operation</th><th scope="col">Domain</th><th scope="col">Summary</th><th scope="col">Required</th></tr></thead>
<tbody>
${value.results.map(
  (r, i) => html`<tr><td class="num rank" data-label="Rank">${offset + i + 1}</td><td class="num score" data-label="Score">${r.score.toFixed(3)}</td>
<td class="name" data-label="Operation"><a href="${href({ tool: r.name })}">${r.name}</a></td><td class="domain" data-label="Domain"><a href="${href({ domain: r.domain })}">${r.domain}</a></td>
<td class="summary" data-label="Summary">${r.summary}</td><td class="required" data-label="Required">${r.requiredParams.length > 0 ? r.requiredParams.join(', ') : ''}</td></tr>`,
)}
</tbody></table></div>`
}
${pager(offset, value.results.length, value.total, link, 'Result pages')}`,
  };
}
