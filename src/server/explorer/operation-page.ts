// The explorer's page for one operation (`/?tool=<name>`): what it does, a dry run whose answer sits beside its form
// at an address that can be shared (`&args=<json>`, a GET, credentials never in it), the parameters as a table, and
// the describe_tools answer the agent receives (each level, with its o200k token count) behind a toggle. Text comes
// from the same core functions agents call (describeTools, executeTool with dry_run).
import { describeTools, DETAIL_LEVELS, typeLabel, type DetailLevel } from '../core/describe.js';
import { executeTool } from '../core/execute.js';
import { LIMITS } from '../core/names.js';
import type { CatalogEntry } from '../core/catalogs.js';
import type { Envelope } from '../core/envelope.js';
import type { JsonSchema, Operation } from '../../types.js';
import { href, html, jsonBlock, type Html } from './html.js';
import { names, notFound, type Page, type PageDeps } from './pages.js';
import { countTokens, TOKENIZER_NAME, type TokenCount } from './tokens.js';

const LEVEL_LABELS: Record<DetailLevel, string> = { summary: 'Level 1 · summary', parameters: 'Level 2 · parameters', full: 'Level 3 · full' };

/** The lead of an operation's description shown at once; the rest is behind "Full description". */
const LEAD_CHARS = 280;
/** Longest default or example shown in a parameter row. */
const VALUE_CHARS = 60;

/** A dry run to show on the page: what was typed and what execute_tool answered (or why the text is not JSON). */
export interface DryRunView {
  argsText: string;
  result: { envelope?: Envelope; parseError?: string };
  /** The address held a credential-shaped value, replaced before the run (share.ts). */
  redacted?: boolean;
}

/** The describe_tools answer for one tool at one level, as the agent receives it (compact JSON), and its tokens. */
export async function describeForAgent(deps: PageDeps, tool: string, level: DetailLevel): Promise<{ envelope: Envelope; text: string; tokens: TokenCount }> {
  const outcome = describeTools(deps.catalogs, { tool_names: [tool], detail: level }, names(deps), { settings: deps.settings });
  const text = JSON.stringify(outcome.envelope);
  return { envelope: outcome.envelope, text, tokens: await countTokens(text) };
}

/** The count in the panel's header: exact, or clearly an estimate. */
function tokenBadge(t: TokenCount): Html {
  return t.exact
    ? html`<span class="tokens" id="token-count" data-tokens="${t.tokens}">${t.tokens} tokens</span>`
    : html`<span class="tokens estimate" id="token-count" data-estimate="${t.estimate}">≈${t.estimate} tokens (estimate)</span>`;
}

function tokenNote(t: TokenCount): string {
  if (t.exact) return `${t.tokens} ${TOKENIZER_NAME} tokens on its compact JSON text, shown indented here.`;
  const est = `about ${t.estimate} tokens on its compact JSON text (its length ÷ 4.25, an estimate), shown indented here.`;
  return t.reason === 'loading'
    ? `${est} The exact ${TOKENIZER_NAME} count is being computed in the background; reload the page to see it.`
    : `${est} The ${TOKENIZER_NAME} tokenizer could not be loaded on this server, so there is no exact count.`;
}

/** Runs execute_tool's own flow with dry_run: validation and the exact request, never a network call. */
export async function dryRun(deps: PageDeps, tool: string, argsText: string): Promise<DryRunView['result']> {
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

/** Arguments to prefill the dry-run form: placeholders for the required ones, overlaid by the first example. */
function exampleArgs(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of op.inputSchema.required ?? []) out[r] = `<${r}>`;
  return { ...out, ...(op.examples[0]?.args ?? {}) };
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

function schemaOf(op: Operation, arg: string): Exclude<JsonSchema, boolean> {
  const s = Object.hasOwn(op.inputSchema.properties, arg) ? op.inputSchema.properties[arg] : undefined;
  return s !== undefined && typeof s === 'object' ? s : {};
}

/**
 * Where the value of each argument comes from: the operations whose responses give it (`paramSources`, computed at
 * import when the registry has it), as public names this server serves.
 */
function sourcesOf(entry: CatalogEntry, deps: PageDeps): Record<string, string[]> {
  const raw = (entry.op as Operation & { paramSources?: Record<string, unknown> }).paramSources;
  if (raw === undefined || raw === null || typeof raw !== 'object') return {};
  const prefix = deps.catalogs.catalogs.length > 1 ? `${entry.catalog.meta.name}.` : '';
  const out: Record<string, string[]> = {};
  for (const [arg, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue;
    const served = list.filter((n): n is string => typeof n === 'string').map((n) => prefix + n).filter((n) => deps.catalogs.byName.has(n));
    if (served.length > 0) out[arg] = served;
  }
  return out;
}

/** The parameters table: name, in, type, required, default, description, example, and `from` where known. */
function parameterTable(entry: CatalogEntry, deps: PageDeps): Html {
  const op = entry.op;
  const args = Object.keys(op.inputSchema.properties);
  if (args.length === 0) return html`<p id="parameters-none" class="muted">No parameters.</p>`;
  const required = new Set(op.inputSchema.required ?? []);
  const example = op.examples[0]?.args ?? {};
  const sources = sourcesOf(entry, deps);
  const withFrom = Object.keys(sources).length > 0;
  const rows = args.map((arg) => {
    const s = schemaOf(op, arg);
    const binding = op.bindings.find((b) => b.arg === arg);
    const examples = Array.isArray(s.examples) ? s.examples : [];
    const sample = examples.length > 0 ? examples[0] : Object.hasOwn(example, arg) ? example[arg] : s.example;
    const wire = binding !== undefined && binding.name !== arg && binding.name !== '' ? binding.name : undefined;
    const from = sources[arg] ?? [];
    return html`<tr><td class="param" data-label="Name"><code>${arg}</code>${wire !== undefined ? html` <span class="muted">(sent as <code>${wire}</code>)</span>` : ''}</td>
<td class="in" data-label="In">${binding?.in ?? '—'}</td><td class="type" data-label="Type"><code>${typeLabel(s)}</code></td>
<td class="req" data-label="Required">${required.has(arg) ? html`<span class="badge">required</span>` : ''}</td>
<td class="default" data-label="Default">${s.default !== undefined ? html`<code>${shortJson(s.default)}</code>` : ''}</td>
<td class="desc" data-label="Description">${typeof s.description === 'string' ? s.description : ''}</td>
<td class="example" data-label="Example">${sample !== undefined ? html`<code>${shortJson(sample)}</code>` : ''}</td>${
      withFrom ? html`<td class="from" data-label="From">${from.map((n, i) => html`${i > 0 ? ', ' : ''}<a href="${href({ tool: n })}">${n}</a>`)}</td>` : ''
    }</tr>`;
  });
  return html`<div class="table-wrap"><table class="stack params" id="parameters-table">
<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Default</th><th scope="col">Description</th><th scope="col">Example</th>${
    withFrom ? html`<th scope="col" title="Operations whose responses give this value">From</th>` : ''
  }</tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** The description: its lead at once, the whole text behind a toggle when it is longer. */
function descriptionBlock(text: string): Html | '' {
  if (text.trim() === '') return '';
  const first = text.split(/\n\s*\n/)[0] ?? '';
  if (first.length <= LEAD_CHARS && first.length === text.length) return html`<p class="lead-text">${text}</p>`;
  const cut = first.length <= LEAD_CHARS ? first : `${first.slice(0, first.lastIndexOf(' ', LEAD_CHARS) > 0 ? first.lastIndexOf(' ', LEAD_CHARS) : LEAD_CHARS)}…`;
  return html`<p class="lead-text">${cut}</p><details class="more"><summary>Full description</summary>${text.split(/\n\s*\n/).map((p) => html`<p>${p}</p>`)}</details>`;
}

/** The answer beside the dry-run form: a prompt before the first run, else validation errors or the request. */
function dryRunAnswer(op: Operation, level: DetailLevel, dry: DryRunView | undefined): Html {
  if (dry === undefined) {
    return html`<div id="dry-run-result" class="answer empty"><p class="muted">Press <strong>Dry run</strong>: the exact request appears here — method, URL,
headers (credentials as <code>***</code>), body and a <code>curl</code> line. Nothing is sent upstream.</p></div>`;
  }
  const link = `${href({ tool: op.name, level: level === 'parameters' ? undefined : level, args: dry.argsText })}#try`;
  const share = html`<p class="share"><a id="dry-run-link" href="${link}">Link to this dry run</a> <span class="muted">(the arguments are in the address; credentials never are)</span></p>`;
  const notice = dry.redacted === true ? html`<p class="notice" id="dry-run-redacted" role="status">A credential-shaped value was taken out of the arguments so that this address can be shared; it reads [REDACTED]. Credentials come from the server's environment, never from the page.</p>` : '';
  const r = dry.result;
  if (r.parseError !== undefined) return html`<div id="dry-run-result" class="answer">${notice}<p class="error" role="alert" id="dry-run-error">${r.parseError}</p></div>`;
  const env = r.envelope;
  if (env === undefined) return html`<div id="dry-run-result" class="answer"></div>`;
  if (!env.success) {
    return html`<div id="dry-run-result" class="answer">${notice}<p class="error" role="alert">${env.error.code}: ${env.error.message}</p>
${env.instruction !== undefined ? html`<p>${env.instruction}</p>` : ''}${jsonBlock(env.error.details ?? {}, 'Error details')}${share}</div>`;
  }
  const value = env.value as { request: { curl?: string; warnings?: unknown } & Record<string, unknown>; read_only_mode?: boolean };
  const { curl, ...request } = value.request;
  const warnings = Array.isArray(value.request.warnings) ? value.request.warnings.filter((w): w is string => typeof w === 'string') : [];
  return html`<div id="dry-run-result" class="answer" role="status">${notice}
<p class="ok">Valid arguments. The exact request execute_tool would send (not sent; credentials shown as ***).${value.read_only_mode ? ' The server is read-only: it would refuse to send it.' : ''}</p>
${warnings.map((w) => html`<p class="error">${w}</p>`)}
${jsonBlock(request, 'Request', 'dry-run-request')}
${curl !== undefined ? html`<pre class="json" tabindex="0" id="dry-run-curl" aria-label="curl"><code>${curl}</code></pre>` : ''}${share}</div>`;
}

/**
 * `/?tool=x` (with `level`, and `args` for a dry run): one operation. `showAgentJson` opens the describe_tools
 * toggle (a level was picked explicitly).
 */
export async function operationPage(deps: PageDeps, tool: string, level: DetailLevel, dry?: DryRunView, showAgentJson = false): Promise<Page> {
  const entry = deps.catalogs.byName.get(tool);
  if (entry === undefined) {
    return notFound('Unknown operation', html`There is no operation named <code>${tool.slice(0, LIMITS.nameMaxChars)}</code>. <a href="${href({ q: tool.slice(0, 200) })}">Search for it</a>.`);
  }
  const op = entry.op;
  const described = await describeForAgent(deps, tool, level);
  const argsText = dry?.argsText ?? JSON.stringify(exampleArgs(op), null, 2);
  const renamed = Object.entries(entry.catalog.meta.renamed ?? {}).find(([, to]) => to === entry.localName)?.[0];
  const levels = DETAIL_LEVELS.map(
    (l) => html`<li><a href="${href({ tool, level: l === 'parameters' ? undefined : l, args: dry?.argsText })}"${l === level ? html` aria-current="page"` : ''}>${LEVEL_LABELS[l]}</a></li>`,
  );
  const badges = [
    op.destructive ? html` · <span class="badge bad">destructive</span>` : '',
    op.deprecated ? html` · <span class="badge">deprecated</span>` : '',
    op.flags?.includes('instruction-like') ? html` · <span class="badge bad" title="The import lint found text that reads like instructions to an AI">instruction-like text</span>` : '',
  ];
  return {
    status: 200,
    title: tool,
    current: 'search',
    body: html`<h1><code>${op.name}</code></h1>
<p class="request-line"><span class="method">${op.method.toUpperCase()}</span> <code>${op.path}</code> · domain <a href="${href({ domain: op.domain })}">${op.domain}</a>${badges}</p>
<p class="lead">${op.summary}</p>
${renamed !== undefined ? html`<p class="muted" id="renamed-from">Renamed from <code>${renamed}</code> (x-api-catalog-name); the spec's operationId is <code>${op.operationId}</code>.</p>` : ''}
${descriptionBlock(op.description)}
<section id="try" aria-labelledby="try-heading">
<h2 id="try-heading">Try it (dry run)</h2>
<div class="try-grid">
<form method="get" action="/#try" class="panel try-form">
<input type="hidden" name="tool" value="${op.name}">
${level !== 'parameters' ? html`<input type="hidden" name="level" value="${level}">` : ''}
<label for="args">Arguments (JSON, as in execute_tool's <code>args</code>)</label>
<textarea id="args" name="args" spellcheck="false" rows="${Math.min(14, Math.max(3, argsText.split('\n').length + 1))}">${argsText}</textarea>
<p><button type="submit">Dry run</button> <span class="muted">Validates and builds the request; nothing is sent.</span></p>
</form>
${dryRunAnswer(op, level, dry)}
</div>
</section>
<h2 id="parameters">Parameters</h2>
${parameterTable(entry, deps)}
<details class="agent"${showAgentJson ? html` open` : ''} id="agent-json">
<summary>What the agent receives: describe_tools, ${LEVEL_LABELS[level]} — ${tokenBadge(described.tokens)}</summary>
<nav aria-label="Describe level"><ul class="tabs">${levels}</ul></nav>
<p class="muted" id="token-note">describe_tools {"tool_names": ["${op.name}"], "detail": "${level}"}: ${tokenNote(described.tokens)}</p>
${jsonBlock(described.envelope, `describe_tools answer at level ${level}`, 'describe-output')}
</details>`,
  };
}

/** Parses `level`: one of the describe levels, default `parameters` (describe_tools' default). */
export function parseLevel(raw: string | null): DetailLevel {
  return DETAIL_LEVELS.includes(raw as DetailLevel) ? (raw as DetailLevel) : 'parameters';
}
