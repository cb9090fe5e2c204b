// The explorer's page for one operation (`/?tool=<name>`): what it does, a dry run whose answer sits beside its form
// (posted, then shown at an address that can be shared: `&args=<json>`, credentials never in it), the parameters as
// a table, and the describe_tools answer the agent receives (each level, with its o200k token count) behind a toggle.
// Text comes from the same core functions agents call (describeTools, executeTool with dry_run).
import { describeTools, DETAIL_LEVELS, operationFingerprint, type DetailLevel } from '../core/describe.js';
import { suggestToolNames } from '../core/catalogs.js';
import { LIMITS } from '../core/names.js';
import type { Envelope } from '../core/envelope.js';
import { attachHandles } from '../handles.js';
import { DEFAULT_HANDLE_TTL_MS, Signer } from '../signing.js';
import type { Operation } from '../../types.js';
import { dryRunAddress, dryRunAnswer, exampleArgs, type DryRunView } from './dry-run.js';
import { breakable, href, html, jsonBlock, type Html } from './html.js';
import { names, notFound, orList, type Page, type PageDeps } from './pages.js';
import { parameterTable } from './params.js';
import { blocks, prose } from './prose.js';
import { countTokens, TOKENIZER_NAME, type TokenCount } from './tokens.js';

export { dryRun, type DryRunView } from './dry-run.js';

const LEVEL_LABELS: Record<DetailLevel, string> = { summary: 'Level 1 · summary', parameters: 'Level 2 · parameters', full: 'Level 3 · full' };

/** The lead of an operation's description shown at once; the rest is behind "Full description". */
const LEAD_CHARS = 280;

/**
 * Signs the page's stand-in describe handles: a key of its own, random per process and never the server's, so
 * execute_tool refuses every handle the page shows ("mismatch"), and the page authorizes nothing.
 */
const standInSigner = Signer.random();
const HOUR_MS = 60 * 60_000;

/**
 * A describe handle of the real shape and length (`<expiry>.<16 base64url characters>`, what describe_tools gives an
 * agent at Levels 2 and 3), so the JSON shown and its token count are what the agent pays for. Signed by
 * {@link standInSigner} for a principal no caller has; its expiry is counted from the start of the hour, so the text
 * (and its cached token count) stays the same for an hour.
 */
export function standInHandle(name: string, op: Operation, nowMs = Date.now()): string {
  return standInSigner.handle(name, operationFingerprint(op), 'explorer-page', Math.floor(nowMs / HOUR_MS) * HOUR_MS + DEFAULT_HANDLE_TTL_MS);
}

/** The describe_tools answer for one tool at one level, as the agent receives it (compact JSON), and its tokens. */
export async function describeForAgent(deps: PageDeps, tool: string, level: DetailLevel): Promise<{ envelope: Envelope; text: string; tokens: TokenCount }> {
  const outcome = describeTools(deps.catalogs, { tool_names: [tool], detail: level }, names(deps), { settings: deps.settings });
  const op = deps.catalogs.byName.get(tool)?.op;
  // the server adds each described operation's handle (Levels 2 and 3) to the answer; so does the page, a stand-in
  const envelope = op === undefined ? outcome.envelope : attachHandles(outcome.envelope, (n) => (n === tool ? standInHandle(tool, op) : undefined));
  const text = JSON.stringify(envelope);
  return { envelope, text, tokens: await countTokens(text) };
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

/** The description, Markdown taken out: its lead at once, the whole text behind a toggle when there is more. */
function descriptionBlock(text: string): Html | '' {
  const all = blocks(text);
  const first = all[0];
  if (first === undefined) return '';
  if (all.length === 1 && first.kind === 'p' && first.text.length <= LEAD_CHARS) return html`<p class="lead-text">${first.text}</p>`;
  const lead = first.kind === 'p' ? first.text : first.items.join('; ');
  const cut = lead.length <= LEAD_CHARS ? lead : `${lead.slice(0, lead.lastIndexOf(' ', LEAD_CHARS) > 0 ? lead.lastIndexOf(' ', LEAD_CHARS) : LEAD_CHARS)}…`;
  return html`<p class="lead-text">${cut}</p><details class="more"><summary>Full description</summary><div class="prose">${prose(text)}</div></details>`;
}

/** The page for a name no operation has: the closest names (describe_tools' own suggestions) and a search. */
function unknownOperation(deps: PageDeps, tool: string): Page {
  const name = tool.slice(0, LIMITS.nameMaxChars);
  const close = suggestToolNames(deps.catalogs, name);
  return notFound(
    'Unknown operation',
    html`There is no operation named <code>${name}</code>.`,
    html`${close.length > 0 ? html`<p id="suggestions">Did you mean ${orList(close, (n) => href({ tool: n }))}?</p>` : ''}
<p>Or <a href="${href({ q: name })}">search for “${name}”</a>.</p>`,
  );
}

/**
 * `/?tool=x` (with `level`, and `args` for a dry run): one operation. `showAgentJson` opens the describe_tools
 * toggle (a level was picked explicitly).
 */
export async function operationPage(deps: PageDeps, tool: string, level: DetailLevel, dry?: DryRunView, showAgentJson = false): Promise<Page> {
  const entry = deps.catalogs.byName.get(tool);
  if (entry === undefined) return unknownOperation(deps, tool);
  const op = entry.op;
  const described = await describeForAgent(deps, tool, level);
  const argsText = dry?.argsText ?? JSON.stringify(exampleArgs(op), null, 2);
  const renamed = Object.entries(entry.catalog.meta.renamed ?? {}).find(([, to]) => to === entry.localName)?.[0];
  // a level link keeps the dry run when it has an address; a posted one too long for an address is left out
  const keepArgs = dry !== undefined && dry.shareable !== false && dryRunAddress(tool, level, dry.argsText) !== undefined;
  const levels = DETAIL_LEVELS.map(
    (l) => html`<li><a href="${href({ tool, level: l === 'parameters' ? undefined : l, args: keepArgs ? dry.argsText : undefined })}#agent-json"${l === level ? html` aria-current="page"` : ''}>${LEVEL_LABELS[l]}</a></li>`,
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
<p class="request-line"><span class="method">${op.method.toUpperCase()}</span> <code>${op.path}</code> · domain <a href="${href({ domain: op.domain })}">${breakable(op.domain)}</a>${badges}</p>
<p class="lead">${op.summary}</p>
${renamed !== undefined ? html`<p class="muted" id="renamed-from">Renamed from <code>${renamed}</code> (x-api-catalog-name); the spec's operationId is <code>${op.operationId}</code>.</p>` : ''}
${descriptionBlock(op.description)}
<section id="try" aria-labelledby="try-heading">
<h2 id="try-heading">Try it (dry run)</h2>
<div class="try-grid">
<form method="post" action="/explorer/dry-run#try" class="panel try-form">
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
<p class="muted" id="token-note">describe_tools {"tool_names": ["${op.name}"], "detail": "${level}"}: ${tokenNote(described.tokens)}${level !== 'summary' ? html` Its <code>handle</code> is a stand-in of the real length that execute_tool does not accept: an agent gets its own.` : ''}</p>
${jsonBlock(described.envelope, `describe_tools answer at level ${level}`, 'describe-output')}
</details>`,
  };
}

/** Parses `level`: one of the describe levels, default `parameters` (describe_tools' default). */
export function parseLevel(raw: string | null): DetailLevel {
  return DETAIL_LEVELS.includes(raw as DetailLevel) ? (raw as DetailLevel) : 'parameters';
}
