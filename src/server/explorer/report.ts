// The explorer's operator views: the import report (warnings and lint findings from each registry's
// diagnostics.json, what the last re-import changed from changes.json) and the search log (poorly answered
// queries first). Reads those files, and each catalog's operations (one domain's file a turn, through the catalog) to
// link what they name; writes nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Catalog } from '../../registry/catalog.js';
import type { CatalogSet } from '../core/catalogs.js';
import type { Operation } from '../../types.js';
import { redactSecretPatterns } from '../../logger.js';
import { GOOD_SCORE, readSearchLog, summarizeQueries } from '../search-log.js';
import { href, html, type Html } from './html.js';
import type { Page } from './pages.js';
import { pageOf, pager, rangeText } from './paging.js';

/** Shown rows per import-report table; the rest is counted. */
const MAX_ROWS = 300;
/** Latest searches shown under the grouped queries. */
const RECENT = 10;

interface DiagnosticRow {
  level: string;
  code: string;
  pointer: string;
  message: string;
}

/** changes.json as the importer writes it (src/importer/write.ts ChangesFile; only JSON crosses to run time). */
interface ChangesJson {
  before: { version: string; sourceSha256: string; operationCount: number };
  after: { version: string; sourceSha256: string; operationCount: number };
  domains: Array<{ domain: string; added: string[]; removed: string[]; changed: string[] }>;
  serversChanged?: { before: string[]; after: string[] };
}

type Read<T> = { ok: true; value: T } | { ok: false; missing: boolean };

function readJson<T>(file: string): Read<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { ok: false, missing: true };
  }
  try {
    return { ok: true, value: JSON.parse(text) as T };
  } catch {
    return { ok: false, missing: false };
  }
}

/** A catalog's operations by request (`get /pets/{id}`) and their names, for the links of its import report. */
interface Known {
  byRequest: Map<string, string>;
  names: Set<string>;
}

const known = new WeakMap<Catalog, Promise<Known>>();

/**
 * What the report links to, read once per loaded catalog (a reload loads new ones), through the catalog's own reading
 * of one domain's file (`operationsInDomain`: the files as loaded, each parsed once whoever asks), one domain a turn,
 * so MCP calls are answered in between; never `catalog.operations`, which parses every file in one go on the thread
 * that answers MCP (seconds for Microsoft Graph's 478). A file that cannot be read, changed since the catalog was
 * loaded (a re-import: the server loads the new version) or is refused only loses its links. A catalog without its
 * files (filtered at serve time, or built in memory) has its operations in memory already.
 */
function knownOperations(catalog: Catalog): Promise<Known> {
  let found = known.get(catalog);
  if (found === undefined) {
    found = catalog.operationsInDomain === undefined ? Promise.resolve(indexed([catalog.operations])) : readKnown(catalog);
    known.set(catalog, found);
  }
  return found;
}

function indexed(lists: Iterable<readonly unknown[]>): Known {
  const out: Known = { byRequest: new Map(), names: new Set() };
  for (const list of lists) {
    for (const o of list) {
      const op = o as Partial<Operation> | null;
      if (op === null || typeof op !== 'object' || typeof op.name !== 'string') continue;
      out.names.add(op.name);
      if (typeof op.method === 'string' && typeof op.path === 'string') out.byRequest.set(`${op.method} ${op.path}`, op.name);
    }
  }
  return out;
}

async function readKnown(catalog: Catalog): Promise<Known> {
  const lists: Operation[][] = [];
  const domains = Array.isArray(catalog.meta.domains) ? catalog.meta.domains : [];
  for (const d of domains) {
    if (d.toolCount === 0) continue;
    await nextTurn();
    try {
      const ops = catalog.operationsInDomain?.(d.name);
      if (ops !== undefined) lists.push(ops);
    } catch {
      // unreadable, changed since loaded or refused: its operations are named without links
    }
  }
  return indexed(lists);
}

/** The operation a diagnostic's pointer (`#/paths/~1pets~1{id}/get/...`) is about, as the set names it. */
function operationAt(catalog: Known, prefix: string, pointer: string): string | undefined {
  const m = /^#?\/paths\/([^/]+)\/([a-z]+)(?:\/|$)/.exec(pointer);
  if (!m) return undefined;
  const path = (m[1] as string).replace(/~1/g, '/').replace(/~0/g, '~');
  const name = catalog.byRequest.get(`${m[2]} ${path}`);
  return name === undefined ? undefined : prefix + name;
}

function diagnosticsTable(id: string, rows: DiagnosticRow[], empty: string, opOf: (pointer: string) => string | undefined): Html {
  if (rows.length === 0) return html`<p id="${id}" class="ok">${empty}</p>`;
  return html`<div class="table-wrap"><table class="stack" id="${id}">
<thead><tr><th scope="col">Code</th><th scope="col">Where (JSON pointer)</th><th scope="col">Message</th></tr></thead>
<tbody>${rows.slice(0, MAX_ROWS).map((d) => {
    const op = opOf(d.pointer);
    return html`<tr><td data-label="Code"><code>${d.code}</code></td><td data-label="Where"><code>${d.pointer}</code>${op !== undefined ? html`<br><a href="${href({ tool: op })}">${op}</a>` : ''}</td><td data-label="Message">${d.message}</td></tr>`;
  })}</tbody></table></div>${rows.length > MAX_ROWS ? html`<p class="muted">… and ${rows.length - MAX_ROWS} more in diagnostics.json.</p>` : ''}`;
}

/**
 * Operation names, each a link to its page where `served` knows the name (as the server calls it: `github.x` when it
 * serves several catalogs); a name it does not have (removed or renamed since) is plain text, never a link to a 404.
 */
function names(list: string[], served: (name: string) => string | undefined = (n) => n): Html {
  if (list.length === 0) return html`<span class="muted">—</span>`;
  return html`${list.slice(0, 50).map((n, i) => {
    const name = served(n);
    return html`${i > 0 ? ', ' : ''}${name !== undefined ? html`<a href="${href({ tool: name })}">${n}</a>` : n}`;
  })}${list.length > 50 ? ` and ${list.length - 50} more` : ''}`;
}

/** The section on the last re-import; changes.json names operations as the catalog does (`served` adds a prefix). */
function changesSection(catalog: string, dir: string, served: (name: string) => string | undefined): Html {
  const read = readJson<ChangesJson>(join(dir, 'changes.json'));
  if (!read.ok) {
    return read.missing
      ? html`<p class="muted" id="changes-${catalog}">No re-import recorded yet: changes.json appears after a re-import that changed something (<code>npm run import -- &lt;spec&gt; --name ${catalog}</code>).</p>`
      : html`<p class="error" id="changes-${catalog}">changes.json is not valid JSON; re-run the import.</p>`;
  }
  const c = read.value;
  const domains = Array.isArray(c.domains) ? c.domains : [];
  return html`<div id="changes-${catalog}">
<p>From version ${c.before?.version ?? '?'} (${c.before?.operationCount ?? '?'} operations) to ${c.after?.version ?? '?'} (${c.after?.operationCount ?? '?'} operations).</p>
${c.serversChanged ? html`<p class="error">The API's servers changed from ${c.serversChanged.before.join(', ') || '(none)'} to ${c.serversChanged.after.join(', ') || '(none)'}.</p>` : ''}
${
  domains.length === 0
    ? html`<p class="muted">No operation was added, removed or changed (metadata or diagnostics only).</p>`
    : html`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Domain</th><th scope="col">Added</th><th scope="col">Removed</th><th scope="col">Changed</th></tr></thead>
<tbody>${domains.map(
        (d) => html`<tr><td data-label="Domain">${d.domain}</td><td data-label="Added">${names(d.added, served)}</td><td data-label="Removed">${d.removed.slice(0, 50).join(', ') || '—'}</td><td data-label="Changed">${names(d.changed, served)}</td></tr>`,
      )}</tbody></table></div>`
}</div>`;
}

/** `/?view=import`: per catalog, import warnings, lint findings and the last re-import's changes. */
export async function importPage(set: CatalogSet): Promise<Page> {
  const sections: Html[] = [];
  for (const c of set.catalogs) sections.push(await importSection(c, set.catalogs.length > 1));
  return { status: 200, title: 'Import report', current: 'import', body: html`<h1>Import report</h1>${sections}` };
}

/** One catalog's section of the import report. */
async function importSection(c: Catalog, multi: boolean): Promise<Html> {
  const read = readJson<DiagnosticRow[]>(join(c.dir, 'diagnostics.json'));
  const all = read.ok && Array.isArray(read.value) ? read.value : [];
  const warnings = all.filter((d) => !d.code.startsWith('LINT_'));
  const lint = all.filter((d) => d.code.startsWith('LINT_'));
  // the operations are read only when something is to be linked
  const ops = all.length > 0 || existsSync(join(c.dir, 'changes.json')) ? await knownOperations(c) : indexed([]);
  const prefix = multi ? `${c.meta.name}.` : '';
  const opOf = (pointer: string): string | undefined => operationAt(ops, prefix, pointer);
  // the names the server serves (as it serves them), of the catalog as loaded: one renamed or removed since is no link
  const served = (name: string): string | undefined => (ops.names.has(name) ? prefix + name : undefined);
  return html`<section aria-labelledby="cat-${c.meta.name}">
<h2 id="cat-${c.meta.name}">${c.meta.title} <span class="muted">(${c.meta.name}, imported from <code>${c.meta.source}</code>, version ${c.meta.version})</span></h2>
${!read.ok && !read.missing ? html`<p class="error">diagnostics.json is not valid JSON; re-run the import.</p>` : ''}
<h3>Import warnings (${warnings.length})</h3>
${diagnosticsTable(`warnings-${c.meta.name}`, warnings, 'No import warnings.', opOf)}
<h3>Lint findings (${lint.length})</h3>
<p class="muted">Operations without a description, near-duplicates, and descriptions that read like instructions to an AI.</p>
${diagnosticsTable(`lint-${c.meta.name}`, lint, 'No lint findings.', opOf)}
<h3>What the last re-import changed</h3>
${changesSection(c.meta.name, c.dir, served)}
</section>`;
}

/** A logged time (ISO 8601, written in UTC) as `2026-05-04 09:30:12 UTC`, machine-readable in <time>. */
function when(iso: string): Html {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return html`${iso.slice(0, 40)}`;
  return html`<time datetime="${d.toISOString()}">${d.toISOString().replace('T', ' ').slice(0, 19)} UTC</time>`;
}

/** Where the search log's lines come from: agents' search_tools calls only. */
const LOG_SOURCE = html`<p class="muted" id="log-source">Only agents' <code>search_tools</code> calls are logged; searches made on these pages are not. Times are UTC.</p>`;

/** `/?view=log` (with `offset`): queries grouped, poorly answered ones first (paged), then the latest searches. */
export function logPage(file: string | undefined, offset = 0): Page {
  const base = { status: 200, title: 'Search log', current: 'log' as const };
  if (file === undefined) {
    return {
      ...base,
      body: html`<h1>Search log</h1><p id="log-off">The search log is off. Start the server with <code>--search-log &lt;file&gt;</code>
(or <code>API_CATALOG_SEARCH_LOG</code>) to record what agents search for, what they get and whether they use it.</p>`,
    };
  }
  // Lines are redacted when written; a log from an older version (or edited by hand) may still hold a pasted token.
  const searches = readSearchLog(file).map((sl) => ({ ...sl, query: redactSecretPatterns(sl.query) }));
  const queries = summarizeQueries(searches);
  const { rows, offset: at } = pageOf(queries, offset);
  const recent = searches.slice(0, RECENT);
  return {
    ...base,
    body: html`<h1>Search log</h1>
${LOG_SOURCE}
<p>${searches.length} searches, ${queries.length} distinct queries, ${queries.filter((q) => q.poor).length} without a good result
(nothing found, best score under ${GOOD_SCORE}, or no agent went on to describe or execute a result). Those come first${
      queries.length > 0 ? `; showing ${rangeText(at, rows.length, queries.length)}` : ''
    }.</p>
${
  queries.length === 0
    ? html`<p id="log-empty">No searches logged yet.</p>`
    : html`<div class="table-wrap"><table class="stack queries" id="queries">
<thead><tr><th scope="col">Query</th><th scope="col" class="num">Searches</th><th scope="col" class="num">Found</th><th scope="col" class="num">Best score</th><th scope="col" class="num">Used</th><th scope="col">Top results</th><th scope="col">Last</th></tr></thead>
<tbody>${rows.map(
        (q) => html`<tr${q.poor ? html` class="poor"` : ''}><td data-label="Query">${q.poor ? html`<span class="badge bad">no good result</span> ` : ''}<a href="${href({ q: q.query, domain: q.domain })}">${q.query}</a>${q.domain !== undefined ? html` <span class="muted">in ${q.domain}</span>` : ''}</td>
<td class="num inline" data-label="Searches">${q.searches}</td><td class="num inline" data-label="Found">${q.total}</td><td class="num inline" data-label="Best score">${q.topScore.toFixed(3)}</td>
<td class="num inline" data-label="Used">${q.followed}/${q.searches}</td><td data-label="Top results">${names(q.topResults.map((r) => r.name))}</td><td class="time" data-label="Last">${when(q.lastTime)}</td></tr>`,
      )}</tbody></table></div>
${pager(at, rows.length, queries.length, (o) => href({ view: 'log', offset: o || undefined }), 'Query pages')}`
}
${
  recent.length > 0
    ? html`<h2>Latest searches</h2><div class="table-wrap"><table class="stack" id="recent">
<thead><tr><th scope="col">Time</th><th scope="col">Session</th><th scope="col">Query</th><th scope="col">Then</th></tr></thead>
<tbody>${recent.map(
        (s) => html`<tr><td class="time" data-label="Time">${when(s.time)}</td><td data-label="Session"><code>${s.session}</code></td>
<td data-label="Query"><a href="${href({ q: s.query, domain: s.domain })}">${s.query}</a> <span class="muted">(${s.total} found)</span></td>
<td data-label="Then">${s.followUps.length === 0 ? html`<span class="muted">nothing</span>` : s.followUps.map((f, i) => html`${i > 0 ? '; ' : ''}${f.action} <a href="${href({ tool: f.tool })}">${f.tool}</a> (#${f.rank})`)}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}`,
  };
}
