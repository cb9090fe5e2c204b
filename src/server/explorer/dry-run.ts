// The operation page's dry run: the form's pre-filled arguments, execute_tool's own dry-run path (validation and
// the exact request, never a network call), and the answer beside the form: errors, or the request and a curl
// command one option a line. Arguments that still hold a placeholder (`<owner>`) are named, never called valid.
import { executeTool } from '../core/execute.js';
import type { DetailLevel } from '../core/describe.js';
import type { Envelope } from '../core/envelope.js';
import type { Operation } from '../../types.js';
import { href, html, jsonBlock, type Html } from './html.js';
import { names, type PageDeps } from './pages.js';
import { placeholderPaths } from './params.js';

/** A dry run to show on the page: what was typed and what execute_tool answered (or why the text is not JSON). */
export interface DryRunView {
  argsText: string;
  result: { envelope?: Envelope; parseError?: string; placeholders?: string[] };
  /** The address held a credential-shaped value, replaced before the run (share.ts). */
  redacted?: boolean;
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
  const placeholders = placeholderPaths(args);
  return { envelope: outcome.envelope, ...(placeholders.length > 0 ? { placeholders } : {}) };
}

/** Arguments to prefill the dry-run form: placeholders for the required ones, overlaid by the first example. */
export function exampleArgs(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of op.inputSchema.required ?? []) out[r] = `<${r}>`;
  return { ...out, ...(op.examples[0]?.args ?? {}) };
}

/**
 * The curl line one option a line (`\` continuations, so it still pastes into a shell): a line never breaks inside
 * an option's name. Splits at spaces outside single quotes (the builder quotes every value); unchanged if unsure.
 */
export function curlLines(curl: string): string {
  const words: string[] = [];
  let word = '';
  let quoted = false;
  for (let i = 0; i < curl.length; i++) {
    const c = curl[i] as string;
    if (quoted) {
      word += c;
      if (c === "'") quoted = false;
    } else if (c === "'") {
      word += c;
      quoted = true;
    } else if (c === '\\' && i + 1 < curl.length) {
      word += c + (curl[++i] as string);
    } else if (c === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else word += c;
  }
  if (quoted) return curl;
  if (word !== '') words.push(word);
  const lines: string[] = [];
  for (const w of words) {
    // a new line for each option after the first (`curl -X POST 'url'` stays together)
    if (lines.length === 0 || (w.startsWith('-') && lines.join() !== 'curl')) lines.push(w);
    else lines[lines.length - 1] += ` ${w}`;
  }
  return lines.join(' \\\n  ');
}

function list(paths: string[]): Html {
  return html`${paths.map((p, i) => html`${i > 0 ? ', ' : ''}<code>${p}</code>`)}`;
}

/** The answer beside the dry-run form: a prompt before the first run, else validation errors or the request. */
export function dryRunAnswer(op: Operation, level: DetailLevel, dry: DryRunView | undefined): Html {
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
  const placeholders = r.placeholders ?? [];
  const still =
    placeholders.length > 0
      ? html`<p class="notice" id="dry-run-placeholders" role="alert">Still a placeholder: ${list(placeholders)}. Replace ${placeholders.length === 1 ? 'it' : 'each'} with a real value; as typed, the request sends the placeholder text itself.</p>`
      : '';
  if (!env.success) {
    return html`<div id="dry-run-result" class="answer">${notice}<p class="error" role="alert">${env.error.code}: ${env.error.message}</p>
${env.instruction !== undefined ? html`<p>${env.instruction}</p>` : ''}${still}${jsonBlock(env.error.details ?? {}, 'Error details')}${share}</div>`;
  }
  const value = env.value as { request: { curl?: string; warnings?: unknown } & Record<string, unknown>; read_only_mode?: boolean };
  const { curl, ...request } = value.request;
  const warnings = Array.isArray(value.request.warnings) ? value.request.warnings.filter((w): w is string => typeof w === 'string') : [];
  const readOnly = value.read_only_mode ? ' The server is read-only: it would refuse to send it.' : '';
  const verdict =
    placeholders.length > 0
      ? html`<p class="warn" id="dry-run-verdict">Not ready to send: the arguments match the schema, but some are placeholders. The request execute_tool would build from them (not sent; credentials shown as ***).${readOnly}</p>`
      : html`<p class="ok" id="dry-run-verdict">Valid arguments. The exact request execute_tool would send (not sent; credentials shown as ***).${readOnly}</p>`;
  return html`<div id="dry-run-result" class="answer" role="status">${notice}${still}
${verdict}
${warnings.map((w) => html`<p class="error">${w}</p>`)}
${jsonBlock(request, 'Request', 'dry-run-request')}
${curl !== undefined ? html`<pre class="json curl" tabindex="0" id="dry-run-curl" aria-label="curl"><code>${curlLines(curl)}</code></pre>` : ''}${share}</div>`;
}
