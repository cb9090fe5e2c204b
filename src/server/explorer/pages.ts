// The explorer's catalog pages: domains, one domain, search results and one operation (each describe level with
// its o200k token count, and a dry-run form). Text comes from the same core functions agents call
// (listDomains, searchTools, describeTools, executeTool with dry_run), so the page shows exactly what they get.
import { describeTools, DETAIL_LEVELS, type DetailLevel } from '../core/describe.js';
import { executeTool } from '../core/execute.js';
import { listDomains } from '../core/domains.js';
import { LIMITS, toolNames, type ToolNames } from '../core/names.js';
import { searchTools } from '../core/search.js';
import type { CatalogSet, ExecutionSettings } from '../core/catalogs.js';
import type { Envelope } from '../core/envelope.js';
import { href, html, jsonBlock, type Html } from './html.js';
import { countTokens, TOKENIZER_NAME } from './tokens.js';

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

const LEVEL_LABELS: Record<DetailLevel, string> = { summary: 'Level 1 · summary', parameters: 'Level 2 · parameters', full: 'Level 3 · full' };
export const SEARCH_PAGE_SIZE = 25;

function names(deps: PageDeps): ToolNames {
  return toolNames(deps.toolPrefix ?? '');
}

function notFound(title: string, message: Html): Page {
  return { status: 404, title, body: html`<h1>${title}</h1><p class="error" role="alert">${message}</p><p><a href="/">All domains</a></p>` };
}

/** `/`: every domain with its operation count and description (list_domains). */
export function domainsPage(deps: PageDeps): Page {
  const env = listDomains(deps.catalogs, {}, names(deps)) as Extract<Envelope, { success: true }>;
  const value = env.value as { totalDomains: number; totalTools: number; domains: Array<{ name: string; toolCount: number; description: string }> };
  const catalogs = deps.catalogs.catalogs;
  return {
    status: 200,
    title: 'Domains',
    current: 'domains',
    body: html`<h1>Domains</h1>
<p>${catalogs.map((c, i) => html`${i > 0 ? ', ' : ''}<strong>${c.meta.title}</strong> (${c.meta.name}, ${c.operations.length} operations)`)}:
<span id="domain-total">${value.totalDomains}</span> domains, ${value.totalTools} operations. This is the list_domains answer agents get.</p>
<div class="table-wrap"><table class="stack" id="domains">
<thead><tr><th scope="col">Domain</th><th scope="col" class="num">Operations</th><th scope="col">Description</th></tr></thead>
<tbody>
${value.domains.map(
  (d) => html`<tr><td data-label="Domain"><a href="${href({ domain: d.name })}">${d.name}</a></td><td class="num" data-label="Operations">${d.toolCount}</td><td data-label="Description">${d.description}</td></tr>`,
)}
</tbody></table></div>`,
  };
}

/** `/?domain=x`: the operations of one domain, in name order. */
export function domainPage(deps: PageDeps, domain: string): Page {
  const info = deps.catalogs.domains.find((d) => d.name === domain);
  if (info === undefined) return notFound('Unknown domain', html`There is no domain named <code>${domain}</code>.`);
  const ops = deps.catalogs.operations.filter((o) => o.domain === domain);
  return {
    status: 200,
    title: `Domain ${domain}`,
    current: 'domains',
    domain,
    body: html`<h1>Domain <code>${domain}</code></h1>
<p>${info.description}</p>
<p class="muted">${ops.length} operations. Agents browse it with search_tools {"domain": "${domain}"}.</p>
<div class="table-wrap"><table class="stack" id="operations">
<thead><tr><th scope="col">Operation</th><th scope="col">Request</th><th scope="col">Summary</th></tr></thead>
<tbody>
${ops.map(
  (o) => html`<tr><td data-label="Operation"><a href="${href({ tool: o.name })}">${o.name}</a>${o.destructive ? html` <span class="badge bad">destructive</span>` : ''}</td>
<td data-label="Request"><span class="method">${o.method.toUpperCase()}</span> <code>${o.path}</code></td><td data-label="Summary">${o.summary}</td></tr>`,
)}
</tbody></table></div>`,
  };
}

/** `/?q=...` (and `domain`, `offset`): search_tools results with scores, 25 per page. */
export async function searchPage(deps: PageDeps, query: string, domain: string | undefined, offset: number): Promise<Page> {
  const n = names(deps);
  const input: Record<string, unknown> = { query, limit: SEARCH_PAGE_SIZE, offset };
  if (domain !== undefined) input.domain = domain;
  const env = await searchTools(deps.catalogs, input, n);
  const base = { title: `Search: ${query}`, current: 'search' as const, query, ...(domain !== undefined ? { domain } : {}) };
  if (!env.success) {
    return { ...base, status: 400, body: html`<h1>Search</h1><p class="error" role="alert">${env.error.message}</p><p>${env.instruction ?? ''}</p>` };
  }
  const value = env.value as {
    results: Array<{ name: string; domain: string; summary: string; requiredParams: string[]; score: number }>;
    total: number;
    suggestions?: { domains: string[]; didYouMean: string[] };
  };
  const pager: Html[] = [];
  if (offset > 0) pager.push(html`<a href="${href({ q: query, domain, offset: Math.max(0, offset - SEARCH_PAGE_SIZE) || undefined })}">Previous ${SEARCH_PAGE_SIZE}</a>`);
  if (offset + value.results.length < value.total) pager.push(html`<a href="${href({ q: query, domain, offset: offset + SEARCH_PAGE_SIZE })}">Next ${SEARCH_PAGE_SIZE}</a>`);
  const suggestions = value.suggestions;
  return {
    ...base,
    status: 200,
    body: html`<h1>Search results for <q>${query}</q>${domain !== undefined ? html` in <code>${domain}</code>` : ''}</h1>
<p id="result-summary">${value.total} matching operations${value.total > 0 ? html`, showing ${offset + 1}–${offset + value.results.length}` : ''}. The same ranking and scores search_tools gives agents (score 1 = the best match, lower when the query is only partly covered).</p>
${
  value.results.length === 0
    ? html`<p class="error" role="status">No operation matched.</p>
${suggestions && suggestions.didYouMean.length > 0 ? html`<p>Did you mean: ${suggestions.didYouMean.map((s, i) => html`${i > 0 ? ', ' : ''}<a href="${href({ q: s })}">${s}</a>`)}?</p>` : ''}
${suggestions && suggestions.domains.length > 0 ? html`<p>Domains to browse: ${suggestions.domains.map((s, i) => html`${i > 0 ? ', ' : ''}<a href="${href({ domain: s })}">${s}</a>`)}</p>` : ''}`
    : html`<div class="table-wrap"><table class="stack" id="results">
<thead><tr><th scope="col" class="num">#</th><th scope="col" class="num">Score</th><th scope="col">Operation</th><th scope="col">Domain</th><th scope="col">Summary</th><th scope="col">Required</th></tr></thead>
<tbody>
${value.results.map(
  (r, i) => html`<tr><td class="num" data-label="Rank">${offset + i + 1}</td><td class="num score" data-label="Score">${r.score.toFixed(3)}</td>
<td data-label="Operation"><a href="${href({ tool: r.name })}">${r.name}</a></td><td data-label="Domain"><a href="${href({ domain: r.domain })}">${r.domain}</a></td>
<td data-label="Summary">${r.summary}</td><td data-label="Required">${r.requiredParams.join(', ')}</td></tr>`,
)}
</tbody></table></div>`
}
${pager.length > 0 ? html`<p class="pager">${pager.map((p, i) => html`${i > 0 ? ' · ' : ''}${p}`)}</p>` : ''}`,
  };
}

/** The describe_tools answer for one tool at one level, as the agent receives it (compact JSON), and its tokens. */
export async function describeForAgent(deps: PageDeps, tool: string, level: DetailLevel): Promise<{ envelope: Envelope; text: string; tokens: number }> {
  const outcome = describeTools(deps.catalogs, { tool_names: [tool], detail: level }, names(deps), { settings: deps.settings });
  const text = JSON.stringify(outcome.envelope);
  return { envelope: outcome.envelope, text, tokens: await countTokens(text) };
}

/** Arguments to prefill the dry-run form: placeholders for the required ones, overlaid by the first example. */
function exampleArgs(deps: PageDeps, tool: string): Record<string, unknown> {
  const op = deps.catalogs.byName.get(tool)?.op;
  if (op === undefined) return {};
  const out: Record<string, unknown> = {};
  for (const r of op.inputSchema.required ?? []) out[r] = `<${r}>`;
  return { ...out, ...(op.examples[0]?.args ?? {}) };
}

/** Runs execute_tool's own flow with dry_run: validation and the exact request, never a network call. */
export async function dryRun(deps: PageDeps, tool: string, argsText: string): Promise<{ envelope?: Envelope; parseError?: string }> {
  let args: unknown;
  try {
    args = argsText.trim() === '' ? {} : JSON.parse(argsText);
  } catch (err) {
    return { parseError: `The arguments are not valid JSON: ${err instanceof Error ? err.message.slice(0, 200) : 'parse error'}` };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { parseError: 'The arguments must be a JSON object, e.g. {"owner": "octo"}.' };
  const outcome = await executeTool(deps.catalogs, { tool_name: tool, args, dry_run: true }, names(deps), { settings: deps.settings });
  return { envelope: outcome.envelope };
}

/** `/?tool=x&level=...`: one operation at a describe level with its token count, and the dry-run form. */
export async function operationPage(
  deps: PageDeps,
  tool: string,
  level: DetailLevel,
  dry?: { argsText: string; result: { envelope?: Envelope; parseError?: string } },
): Promise<Page> {
  const entry = deps.catalogs.byName.get(tool);
  if (entry === undefined) return notFound('Unknown operation', html`There is no operation named <code>${tool.slice(0, LIMITS.nameMaxChars)}</code>. <a href="${href({ q: tool.slice(0, 200) })}">Search for it</a>.`);
  const op = entry.op;
  const described = await describeForAgent(deps, tool, level);
  const argsText = dry?.argsText ?? JSON.stringify(exampleArgs(deps, tool), null, 2);
  let dryHtml: Html | string = '';
  if (dry !== undefined) {
    const r = dry.result;
    if (r.parseError !== undefined) dryHtml = html`<p class="error" role="alert" id="dry-run-error">${r.parseError}</p>`;
    else if (r.envelope && !r.envelope.success) {
      dryHtml = html`<div id="dry-run-result"><p class="error" role="alert">${r.envelope.error.code}: ${r.envelope.error.message}</p>${jsonBlock(r.envelope.error.details ?? {}, 'Error details')}</div>`;
    } else if (r.envelope && r.envelope.success) {
      const value = r.envelope.value as { request: { curl?: string } & Record<string, unknown>; read_only_mode?: boolean };
      const { curl, ...request } = value.request;
      dryHtml = html`<div id="dry-run-result" role="status">
<p class="ok">Valid arguments. This is the exact request execute_tool would send (not sent; credentials shown as ***).${value.read_only_mode ? ' The server is read-only: it would refuse to send it.' : ''}</p>
<h3>Request</h3>${jsonBlock(request, 'Request', 'dry-run-request')}
${curl !== undefined ? html`<h3>curl</h3><pre class="json" tabindex="0" id="dry-run-curl"><code>${curl}</code></pre>` : ''}</div>`;
    }
  }
  const levels = DETAIL_LEVELS.map(
    (l) => html`<li><a href="${href({ tool, level: l === 'parameters' ? undefined : l })}"${l === level ? html` aria-current="page"` : ''}>${LEVEL_LABELS[l]}</a></li>`,
  );
  return {
    status: 200,
    title: tool,
    current: 'search',
    body: html`<h1><code>${op.name}</code></h1>
<p><span class="method">${op.method.toUpperCase()}</span> <code>${op.path}</code> · domain <a href="${href({ domain: op.domain })}">${op.domain}</a>
${op.destructive ? html` · <span class="badge bad">destructive</span>` : ''}${op.deprecated ? html` · <span class="badge">deprecated</span>` : ''}${
      op.flags?.includes('instruction-like') ? html` · <span class="badge bad" title="The import lint found text that reads like instructions to an AI">instruction-like text</span>` : ''
    }</p>
<p>${op.summary}</p>
<h2 id="describe">What describe_tools returns</h2>
<nav aria-label="Describe level"><ul class="tabs">${levels}</ul></nav>
<p><span class="tokens" id="token-count" data-tokens="${described.tokens}">${described.tokens} tokens</span>
(${TOKENIZER_NAME}) for the answer an agent receives: describe_tools {"tool_names": ["${op.name}"], "detail": "${level}"}, counted on its compact JSON text; shown indented here.</p>
${jsonBlock(described.envelope, `describe_tools answer at level ${level}`, 'describe-output')}
<h2 id="dry-run">Try it (dry run)</h2>
<form method="post" action="/explorer/dry-run" class="panel">
<input type="hidden" name="tool" value="${op.name}">
<input type="hidden" name="level" value="${level}">
<label for="args">Arguments (JSON object, as in execute_tool's <code>args</code>)</label>
<textarea id="args" name="args" spellcheck="false">${argsText}</textarea>
<p><button type="submit">Dry run</button> <span class="muted">Validates and builds the request; nothing is sent upstream.</span></p>
</form>
${dryHtml}`,
  };
}

/** Parses `level`: one of the describe levels, default `parameters` (describe_tools' default). */
export function parseLevel(raw: string | null): DetailLevel {
  return DETAIL_LEVELS.includes(raw as DetailLevel) ? (raw as DetailLevel) : 'parameters';
}
