// The operation page's dry run: the form's pre-filled arguments, execute_tool's own dry-run path (validation and
// the exact request, never a network call), and the answer beside the form: errors, or the request and a curl
// command one option a line. Arguments that still hold a placeholder (`<owner>`) are named, never called valid, and
// schema errors that only a placeholder causes are told as such, not as an error. An operation whose credential
// this server does not have still shows its request, with `<ENV_VAR not set>` where the credential would go.
import { unsetCredential, validateArguments, type FieldError } from '../../execution/index.js';
import { executeTool } from '../core/execute.js';
import type { DetailLevel } from '../core/describe.js';
import type { Envelope } from '../core/envelope.js';
import type { JsonSchema, Operation } from '../../types.js';
import { html, jsonBlock, type Html } from './html.js';
import { names, type PageDeps } from './pages.js';
import { findPlaceholders, isPlaceholder } from '../core/placeholders.js';
import { resolvedSchema } from './share.js';

/** A dry run to show on the page: what was typed and what execute_tool answered (or why the text is not JSON). */
export interface DryRunView {
  argsText: string;
  result: DryRunResult;
  /** The address held a credential-shaped value, replaced before the run (share.ts). */
  redacted?: boolean;
  /**
   * False when the arguments are too long for an address (see {@link MAX_ADDRESS_CHARS}): the answer was posted,
   * so it has no link to share, and the level links leave the arguments out.
   */
  shareable?: boolean;
}

export interface DryRunResult {
  envelope?: Envelope;
  parseError?: string;
  /** Argument paths that still hold a placeholder (`owner`, `labels[0]`). */
  placeholders?: string[];
  /** The arguments fail the schema only where a placeholder stands (a `"<count>"` where a number goes). */
  placeholderErrors?: FieldError[];
  /**
   * The operation's credential is not set on this server: execute_tool would stop at AUTH_MISSING (`message`), so the
   * envelope is the request built with `<ENV_VAR not set>` in the credential's place (`envVars` are those not set).
   */
  missingCredentials?: { envVars: string[]; message: string };
}

/**
 * The longest dry-run address the page links to or sends the browser to. Node answers a request whose request line
 * and headers pass 16 KB with a bare 431, and the headers include the Referer, which may be the previous dry run's
 * address; many proxies stop at 8 KB a line. Longer arguments are answered where they were posted, without a link.
 */
export const MAX_ADDRESS_CHARS = 6000;

/**
 * A dry run's shareable address (`/?tool=…&level=…&args=…`, without `#try`; `args` kept even when empty, so an empty
 * form is a dry run of `{}`), or undefined when it would be longer than {@link MAX_ADDRESS_CHARS}.
 */
export function dryRunAddress(tool: string, level: DetailLevel, argsText: string, redacted = false): string | undefined {
  const params = new URLSearchParams({ tool });
  if (level !== 'parameters') params.set('level', level);
  params.set('args', argsText);
  if (redacted) params.set('redacted', '1');
  const address = `/?${params.toString()}`;
  return address.length <= MAX_ADDRESS_CHARS ? address : undefined;
}

/** Runs execute_tool's own flow with dry_run: validation and the exact request, never a network call. */
export async function dryRun(deps: PageDeps, tool: string, argsText: string): Promise<DryRunResult> {
  let args: unknown;
  try {
    args = argsText.trim() === '' ? {} : JSON.parse(argsText);
  } catch (err) {
    return { parseError: `The arguments are not valid JSON: ${err instanceof Error ? err.message.slice(0, 200) : 'parse error'}` };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { parseError: 'The arguments must be a JSON object, e.g. {"owner": "octo"}.' };
  const input = args as Record<string, unknown>;
  const outcome = await executeTool(deps.catalogs, { tool_name: tool, args: input, dry_run: true }, names(deps), { settings: deps.settings, credentialStandIn: unsetCredential });
  const found = findPlaceholders(input, deps.catalogs.byName.get(outcome.operation ?? tool)?.op.inputSchema);
  const named = found.length > 0 ? { placeholders: found.map((p) => p.path) } : {};
  const env = outcome.envelope;
  if (!env.success && env.error.code === 'INVALID_ARGUMENTS' && found.length > 0) {
    const errors = (env.error.details as { errors?: FieldError[] } | undefined)?.errors ?? [];
    // each error is at a placeholder or inside one (JSON pointers, as validation names them)
    const atPlaceholder = (path: string): boolean => found.some((p) => path === p.pointer || path.startsWith(`${p.pointer}/`));
    if (errors.length > 0 && errors.every((e) => atPlaceholder(e.path))) return { envelope: env, ...named, placeholderErrors: errors };
  }
  return { envelope: env, ...named, ...(outcome.unsetCredentials !== undefined ? { missingCredentials: outcome.unsetCredentials } : {}) };
}

/**
 * The form's value for a required argument without an example, one the schema accepts where one is known: its
 * default, const or first allowed value; `false`; an empty list or object when the schema allows one. Else a
 * placeholder naming it (`"<owner>"`), which the answer names until it is replaced.
 */
function standIn(name: string, schema: JsonSchema | undefined, root: JsonSchema): unknown {
  const s = resolvedSchema(schema, root);
  if (s === undefined) return `<${name}>`;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  const allowed = Array.isArray(s.enum) ? s.enum.filter((v) => v !== null) : [];
  if (allowed.length > 0) return allowed[0];
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const positive = (n: unknown): boolean => typeof n === 'number' && n > 0;
  if (types.includes('boolean')) return false;
  if (types.includes('array') && !positive(s.minItems)) return [];
  if (types.includes('object') && !positive(s.minProperties) && !(Array.isArray(s.required) && s.required.length > 0)) return {};
  return `<${name}>`;
}

/**
 * Arguments to prefill the dry-run form: a stand-in for each required one, overlaid by the first example. A stand-in
 * the schema still refuses (a spec whose `enum` contradicts its `format`) becomes the placeholder again, so what the
 * reader sees first is never an error of the page's making.
 */
export function exampleArgs(op: Operation): Record<string, unknown> {
  const props = op.inputSchema.properties;
  const example = op.examples[0]?.args ?? {};
  // fromEntries and spreads define own properties, so an argument named `__proto__` stays an argument
  const out = Object.fromEntries((op.inputSchema.required ?? []).map((r) => [r, standIn(r, Object.hasOwn(props, r) ? props[r] : undefined, op.inputSchema)]));
  const stood = new Set(Object.keys(out).filter((r) => !isPlaceholder(out[r], r) && !Object.hasOwn(example, r)));
  const args: Record<string, unknown> = { ...out, ...example };
  if (stood.size === 0) return args;
  const checked = validateArguments(op, args);
  if (checked.ok) return args;
  const refused = new Set(checked.errors.map((e) => (e.path.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~')).filter((top) => stood.has(top)));
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, refused.has(k) ? `<${k}>` : v]));
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

/** Where the dry run can be found again: its link, or why a posted one has none. */
function shareLine(op: Operation, level: DetailLevel, dry: DryRunView): Html {
  const address = dry.shareable === false ? undefined : dryRunAddress(op.name, level, dry.argsText);
  if (address === undefined) {
    return html`<p class="share muted" id="dry-run-unshared">No link to this dry run: its arguments are too long for an address (over ${MAX_ADDRESS_CHARS} characters once encoded). The answer above is complete; to share it, share the arguments.</p>`;
  }
  return html`<p class="share"><a id="dry-run-link" href="${address}#try">Link to this dry run</a> <span class="muted">(the arguments are in the address; credentials never are)</span></p>`;
}

/** The answer beside the dry-run form: a prompt before the first run, else validation errors or the request. */
export function dryRunAnswer(op: Operation, level: DetailLevel, dry: DryRunView | undefined): Html {
  if (dry === undefined) {
    return html`<div id="dry-run-result" class="answer empty"><p class="muted">Press <strong>Dry run</strong>: the exact request appears here — method, URL,
headers (credentials as <code>***</code>), body and a <code>curl</code> line. Nothing is sent upstream.</p></div>`;
  }
  const share = shareLine(op, level, dry);
  const notice = dry.redacted === true ? html`<p class="notice" id="dry-run-redacted" role="status">A credential-shaped value was taken out of the arguments so that this address can be shared; it reads [REDACTED]. Credentials come from the server's environment, never from the page.</p>` : '';
  const r = dry.result;
  if (r.parseError !== undefined) return html`<div id="dry-run-result" class="answer">${notice}<p class="error" role="alert" id="dry-run-error">${r.parseError}</p></div>`;
  const env = r.envelope;
  if (env === undefined) return html`<div id="dry-run-result" class="answer"></div>`;
  const placeholders = r.placeholders ?? [];
  const each = placeholders.length === 1 ? 'it' : 'each';
  if (!env.success && r.placeholderErrors !== undefined) {
    // Only the form's own placeholders fail the schema (a "<count>" where a number goes): what to fill in, not an error.
    return html`<div id="dry-run-result" class="answer" role="status">${notice}<p class="notice" id="dry-run-placeholders">Still a placeholder: ${list(placeholders)}. Replace ${each} with a real value; the request is built once the schema accepts them:</p>
<ul id="dry-run-placeholder-errors">${r.placeholderErrors.map((e) => html`<li><code>${e.path === '' ? '/' : e.path}</code> ${e.message}</li>`)}</ul>
<p class="warn" id="dry-run-verdict">Not ready to send: some arguments are still placeholders.</p>${share}</div>`;
  }
  const still =
    placeholders.length > 0
      ? html`<p class="notice" id="dry-run-placeholders" role="alert">Still a placeholder: ${list(placeholders)}. Replace ${each} with a real value; as typed, execute_tool refuses the call (INVALID_ARGUMENTS) and sends nothing.</p>`
      : '';
  const missing = r.missingCredentials;
  const shows = env.success ? html`The request shows ${missing?.envVars.map((v, i) => html`${i > 0 ? ', ' : ''}<code>${unsetCredential(v)}</code>`)} where the credential goes; a` : 'A';
  const unsetNotice =
    missing !== undefined
      ? html`<p class="notice" id="dry-run-credentials" role="status">Not set on this server: ${list(missing.envVars)}. ${shows} real call stops before sending (${missing.message}).</p>`
      : '';
  if (!env.success) {
    return html`<div id="dry-run-result" class="answer">${notice}${unsetNotice}<p class="error" role="alert">${env.error.code}: ${env.error.message}</p>
${env.instruction !== undefined ? html`<p>${env.instruction}</p>` : ''}${still}${jsonBlock(env.error.details ?? {}, 'Error details')}${share}</div>`;
  }
  const value = env.value as { request: { curl?: string; warnings?: unknown } & Record<string, unknown>; read_only_mode?: boolean; would_refuse?: Array<{ code?: unknown }> };
  // a credential over plain http the operator did not allow: the real call would be UNSAFE_REQUEST (the warning says why)
  const overPlainHttp = value.would_refuse?.some((w) => w.code === 'UNSAFE_REQUEST') === true;
  // curl and the warnings are shown on their own, each once: the JSON is the request itself
  const { curl, warnings: rawWarnings, ...request } = value.request;
  const warnings = Array.isArray(rawWarnings) ? rawWarnings.filter((w): w is string => typeof w === 'string') : [];
  // a destructive operation is sent only once the user confirms it (execute_tool's CONFIRMATION_REQUIRED otherwise)
  const confirm = op.destructive && !value.read_only_mode
    ? html` It is destructive: execute_tool sends it only once the user confirms, with <code>"confirm": "${op.name}"</code> in the call or a yes to the client's confirmation prompt; without either it answers CONFIRMATION_REQUIRED and sends nothing.`
    : '';
  const readOnly = html`${value.read_only_mode ? ' The server is read-only: it would refuse to send it.' : ''}${confirm}`;
  const masked = missing !== undefined ? 'credentials the server has shown as ***' : 'credentials shown as ***';
  const verdict =
    placeholders.length > 0
      ? html`<p class="warn" id="dry-run-verdict">Not ready to send: the arguments match the schema, but some are placeholders. The request execute_tool would build from them (not sent; ${masked}).${readOnly}</p>`
      : missing !== undefined
        ? html`<p class="warn" id="dry-run-verdict">Valid arguments, but not ready to send: the server lacks the credential. The request execute_tool would build once it is set (not sent; ${masked}).${readOnly}</p>`
        : overPlainHttp
          ? html`<p class="warn" id="dry-run-verdict">Valid arguments, but not ready to send: execute_tool refuses to send the credential over plain http (UNSAFE_REQUEST; the warning below says what to set). The request it would build (not sent; ${masked}).${readOnly}</p>`
          : html`<p class="ok" id="dry-run-verdict">Valid arguments. The exact request execute_tool would send${op.destructive && !value.read_only_mode ? ' once the user confirms it' : ''} (not sent; ${masked}).${readOnly}</p>`;
  return html`<div id="dry-run-result" class="answer" role="status">${notice}${still}${unsetNotice}
${verdict}
${warnings.map((w) => html`<p class="error dry-run-warning">${w}</p>`)}
${jsonBlock(request, 'Request', 'dry-run-request')}
${curl !== undefined ? html`<pre class="json curl" tabindex="0" id="dry-run-curl" aria-label="curl"><code>${curlLines(curl)}</code></pre>` : ''}${share}</div>`;
}
