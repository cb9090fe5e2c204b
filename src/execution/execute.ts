// executeOperation: read-only gate -> validation -> request build (auth, encoding) -> HTTP -> shaped result.
// Never throws: every outcome is a value, redacted of every credential in use, saying whether the request was sent
// and how long its upstream round trip took.
import { isAppError, type AppError, type ErrorCode } from '../errors.js';
import type { Operation } from '../types.js';
import { credentialStatus, envPrefix, resolveAuth, SESSION_SOURCE, sessionHeaders } from './auth.js';
import { allCredentialVariables, credentialNames } from './credential-names.js';
import { DEFAULTS, parseRetryAfter, send, SendError } from './http.js';
import { buildRequest, originOf, type BuiltRequest } from './request.js';
import { policyInstruction } from './policy.js';
import { Redactor } from './redact.js';
import { bodyText, decodeBody, MAX_JSON_DEPTH } from './decode.js';
import { CheckedFields, checkFields, project, projectionWarning } from './projection.js';
import { apiErrorMessage, instructionFor, narrowingParams, paginationHint, selectHeaders, truncate } from './shape.js';
import type { ExecuteOptions, ExecutionConfig, ExecutionOutcome, WireFacts } from './types.js';
import { validateArguments } from './validate.js';

const DEFAULT_TOKEN_BUDGET = 8_000;

const INSTRUCTIONS: Partial<Record<ErrorCode, string>> = {
  READ_ONLY_MODE: 'The server runs in read-only mode: only operations that read (GET/HEAD that run no write action, or marked x-api-catalog-read-only) can be executed. Use a read operation or ask the operator.',
  NOT_EXECUTABLE: 'This operation cannot be called as described by the API; pick another one with search_tools.',
  INVALID_ARGUMENTS: 'Fix the listed fields (see describe_tools for the schema) and call execute_tool again.',
  AUTH_MISSING: 'Ask the operator to set the named environment variable(s) for this API, then call again.',
  CONFIG_INVALID: 'The server configuration is incomplete (base URL); ask the operator to fix it.',
  UNSAFE_REQUEST: 'The arguments would change where the request goes; pass plain identifiers.',
  UPSTREAM_TIMEOUT: 'The API did not answer in time: retry later, or narrow the request (smaller page, filters).',
  UPSTREAM_UNREACHABLE: 'The API cannot be reached from the server: check the base URL and network, then retry.',
  UPSTREAM_REDIRECT_REFUSED: 'The API redirected somewhere the server will not follow; call the operation at its own host or ask the operator to set the base URL.',
  UPSTREAM_RESPONSE_INVALID: 'The API sent a broken response: retry; if it persists, the upstream service is at fault.',
  CANCELLED: 'The call was cancelled; call again if it is still needed.',
  INTERNAL: 'An internal error occurred; retry, and report it if it persists.',
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An outcome before the wire facts are added (the pipeline's answer). */
type Answer = DistributiveOmit<ExecutionOutcome, keyof WireFacts>;

function failure(code: ErrorCode, message: string, redactor: Redactor, details?: unknown, status?: number, instruction?: string): Answer {
  return {
    ok: false,
    code,
    message: redactor.string(message),
    ...(details !== undefined ? { details: redactor.deep(details) } : {}),
    instruction: redactor.string(instruction ?? INSTRUCTIONS[code] ?? 'Adjust the request and try again.'),
    ...(status !== undefined ? { status } : {}),
  };
}

/** Every credential value the config could use, so even early failures are redacted. */
export function configRedactor(config: ExecutionConfig): Redactor {
  const env = config.env ?? process.env;
  const values: string[] = [];
  const names = credentialNames(config);
  for (const name of allCredentialVariables(names).filter((n) => n !== names.username)) {
    const v = env[name];
    if (v !== undefined && v !== '') values.push(v);
  }
  const user = env[names.username];
  const pass = env[names.password];
  if (user !== undefined && pass !== undefined) values.push(`${user}:${pass}`);
  if (config.sessionCredential !== undefined && config.sessionCredential !== '') values.push(config.sessionCredential);
  return new Redactor(values);
}

/**
 * What the call did on the wire: when the request was first handed to fetch, when sending ended (the response body
 * read, or the failure), and whether it went out (send's verdict: an attempt the address policy refused at connect
 * time did not).
 */
class Wire {
  private sentAt: number | undefined;
  private endedAt: number | undefined;
  private sent = false;

  /** send's onSend: the first attempt starts the clock. */
  readonly handed = (): void => {
    this.sentAt ??= performance.now();
  };

  ended(sent: boolean): void {
    this.endedAt = performance.now();
    this.sent = sent && this.sentAt !== undefined;
  }

  facts(): WireFacts {
    if (!this.sent || this.sentAt === undefined || this.endedAt === undefined) return { sent: false };
    return { sent: true, upstreamMs: this.endedAt - this.sentAt };
  }
}

/**
 * Validates, builds and sends one operation call and shapes the answer. Defaults: 10 s connect, 30 s total
 * (retries and redirects included), 5 MiB response cap, 8 000-token data budget, 2 retries for idempotent
 * calls. `options.fields` projects the data (dotted paths or JMESPath) before the budget is applied; a projection
 * that is not a CheckedFields is checked before anything is sent. Every outcome says whether the request was
 * handed to fetch (`sent`) and, when it was, the upstream round trip's milliseconds (`upstreamMs`).
 */
export async function executeOperation(op: Operation, args: unknown, config: ExecutionConfig, options: ExecuteOptions = {}): Promise<ExecutionOutcome> {
  const wire = new Wire();
  let answer: Answer;
  try {
    answer = await pipeline(op, args, config, options, wire);
  } catch (err) {
    // Unexpected (a bug, e.g. in shaping): still a value, and still saying whether the request went out.
    answer = fromError(err, configRedactor(config), op);
  }
  return { ...answer, ...wire.facts() };
}

async function pipeline(op: Operation, args: unknown, config: ExecutionConfig, options: ExecuteOptions, wire: Wire): Promise<Answer> {
  const early = configRedactor(config);
  const method = op.method.toUpperCase();
  if (config.readOnly === true && !op.readOnly) {
    return failure('READ_ONLY_MODE', `${op.name} is ${method} and does not only read; the server is in read-only mode`, early);
  }
  if (!op.executable) {
    return failure('NOT_EXECUTABLE', `${op.name} cannot be executed: ${(op.problems ?? []).join('; ') || 'the API description is incomplete'}`, early);
  }
  const validation = validateArguments(op, args);
  if (!validation.ok) {
    const list = validation.errors.map((e) => `${e.path || '(arguments)'}: ${e.message}${e.suggestion ? ` (${e.suggestion})` : ''}`).join('; ');
    return failure('INVALID_ARGUMENTS', `${op.name}: invalid arguments: ${list}`, early, { errors: validation.errors });
  }
  let req: BuiltRequest;
  let projection: CheckedFields | undefined;
  try {
    // A caller that checked the projection first (execute_tool) passes what checkFields returned: not parsed again.
    projection = options.fields === undefined || options.fields instanceof CheckedFields ? options.fields : checkFields(options.fields);
    req = buildRequest(op, validation.args, config);
  } catch (err) {
    return fromError(err, early, op);
  }
  // A credential never goes out over plain http to another host unless the operator allowed it.
  if (req.plainHttp?.refusal !== undefined) return fromError(req.plainHttp.refusal, early, op);
  // Scrub every configured credential, not only the ones this request used (an API may echo any of them).
  const redactor = req.redactor.merge(early);
  req.redactor = redactor;
  // The caller is told, and waited for, as the request goes to send, after every check of this layer's own (send's
  // address policy may still refuse it at connect time): it may stop it there, with nothing sent, and its error is
  // the answer (the server's execute rate limit is spent only by calls that go out). Not for a call cancelled already.
  if (options.signal?.aborted !== true) {
    try {
      await options.onSent?.();
    } catch (err) {
      return fromError(err, redactor, op);
    }
  }
  let raw;
  try {
    raw = await send(req, {
      connectMs: config.timeouts?.connectMs ?? DEFAULTS.connectMs,
      totalMs: config.timeouts?.totalMs ?? DEFAULTS.totalMs,
      maxBytes: config.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
      maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      ...(options.sleep !== undefined ? { sleep: options.sleep } : {}),
      ...(options.random !== undefined ? { random: options.random } : {}),
      ...(config.blockPrivateAddresses === true ? { blockPrivate: exemptOrigin(config) } : {}),
      onSend: wire.handed,
    });
    wire.ended(true);
  } catch (err) {
    wire.ended(err instanceof SendError && err.sent);
    return fromError(err, redactor, op, undefined, badPortInstruction(err, config));
  }
  const headers = redactor.deep(selectHeaders(raw.headers));
  const contentType = raw.headers.get('content-type') ?? '';
  let data: unknown;
  /** What the agent must know to read data right (redacted: they quote upstream text). */
  const warnings: string[] = [];
  let tooDeep = false;
  let charsetMisread = false;
  try {
    const decoded = decodeBody(raw.bytes, contentType, raw.cutAt !== undefined);
    // The raw text is searched for secrets instead of re-serializing the parsed data, unless its escapes could hide
    // one (`\/`, `\u00XX`): Redactor.deep decides.
    data = redactor.deep(decoded.data, decoded.text);
    for (const w of decoded.warnings ?? []) warnings.push(redactor.string(w));
    tooDeep = decoded.tooDeep === true;
    charsetMisread = decoded.charsetMisread === true;
  } catch (err) {
    if (raw.status >= 400 && isAppError(err)) data = bodyText(raw.bytes, contentType).text.slice(0, 2000);
    else return fromError(err, redactor, op, raw.status);
  }

  if (raw.status >= 400) {
    const retryAfter = parseRetryAfter(raw.headers.get('retry-after'), Date.now());
    // an absurd Retry-After (`1e400`) is Infinity: no number to show
    const retryAfterS = retryAfter !== undefined && Number.isFinite(retryAfter) ? Math.ceil(retryAfter / 1000) : undefined;
    const apiMessage = apiErrorMessage(data);
    const credentials = rejectedCredentials(raw.status, op, config);
    const snippet = truncate(data, 500, op)?.data ?? data;
    const long = raw.status === 414 || raw.status === 431 ? longArguments(op, validation.args) : undefined;
    return failure(
      'UPSTREAM_ERROR',
      `${op.name}: the API answered ${raw.status}${apiMessage !== undefined ? `: ${apiMessage}` : ''}`,
      redactor,
      { status: raw.status, headers, body: snippet, ...(retryAfterS !== undefined ? { retryAfterSeconds: retryAfterS } : {}), attempts: raw.attempts },
      raw.status,
      instructionFor(raw.status, op, credentials, data, retryAfterS, long),
    );
  }

  const pagination = paginationHint(op, raw.headers, data, (s) => redactor.string(s));
  const params = narrowingParams(op);
  const narrow = params.length > 0 ? `paging or filter arguments (${params.join(', ')})` : 'paging or filter arguments, if the operation has any';
  if (raw.cutAt !== undefined) {
    // The body stopped at the byte cap: its text is partial, not parsed, so a projection has nothing to select from
    // and "fields" cannot make it smaller; only a smaller answer (or a larger cap, the operator's) can.
    if (projection !== undefined) {
      warnings.push(`fields: not applied: the response was larger than ${raw.cutAt} bytes, the most this server reads, so it was cut and is shown as text, not parsed; data is that text, unprojected`);
    }
    const text = typeof data === 'string' ? data : '';
    const cut = truncate(text, config.tokenBudget ?? DEFAULT_TOKEN_BUDGET, op);
    return {
      ok: true,
      status: raw.status,
      headers,
      data: cut?.data ?? data,
      truncated: {
        size: raw.cutAt,
        reason: 'maxResponseBytes',
        hint: `The response was larger than ${raw.cutAt} bytes and was cut (shown as text, not parsed, so "fields" cannot select from it). For a complete answer, ask for less with ${narrow}; the cap is the operator's API_CATALOG_MAX_RESPONSE_BYTES.`,
      },
      ...(pagination !== undefined ? { pagination } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      instruction: answerInstruction({ capCutAt: raw.cutAt, budgetCut: false, text: true, tooDeep: false, charsetMisread, missed: false }, narrow),
    };
  }
  let missed = false;
  if (tooDeep) {
    // kept as text (decodeBody's warning says why): a projection would select nothing from it
    if (projection !== undefined) warnings.push('fields: not applied: the response is shown as text (see the warning before this one); data is that text, unprojected');
  } else if (projection !== undefined) {
    let projected: unknown;
    try {
      projected = project(data, projection);
    } catch (err) {
      return fromError(err, redactor, op);
    }
    // A projection that matched nothing gives {} or null: said in a warning, or an agent reads it as the API's
    // answer. Redacted like everything else the call returns (it quotes the agent's paths and upstream key names).
    const warning = projectionWarning(data, projection, projected);
    if (warning !== undefined) warnings.push(redactor.string(warning));
    missed = warning !== undefined;
    data = projected;
  }
  const cut = truncate(data, config.tokenBudget ?? DEFAULT_TOKEN_BUDGET, op, projection === undefined ? raw.bytes.length : undefined);
  const instruction = answerInstruction({ budgetCut: cut !== undefined, text: typeof data === 'string', tooDeep, charsetMisread, missed }, narrow);
  return {
    ok: true,
    status: raw.status,
    headers,
    data: cut?.data ?? data,
    ...(cut !== undefined ? { truncated: cut.info, full: data } : {}),
    ...(pagination !== undefined ? { pagination } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(instruction !== undefined ? { instruction } : {}),
  };
}

/** What a successful answer's instruction speaks of. */
interface AnswerFacts {
  /** The body stopped at the byte cap (this many bytes): partial text, never parsed or projected. */
  capCutAt?: number;
  /** data was cut to the token budget (the caller may keep the full result and say where). */
  budgetCut: boolean;
  /** data is text, which "fields" cannot select from. */
  text: boolean;
  /** JSON kept as text: it nests deeper than MAX_JSON_DEPTH. */
  tooDeep: boolean;
  /** A charset this runtime cannot decode: read as UTF-8. */
  charsetMisread: boolean;
  /** Some "fields" paths matched nothing (a warning names them). */
  missed: boolean;
}

/**
 * A successful answer's next step: one sentence for each thing the agent must know, so that no warning hides another
 * (a charset read as UTF-8 in a cut result, paths that matched nothing in a projection that was cut). Undefined when
 * the caller's usual step says it all by itself: nothing to say, a cut of parsed data alone (read the stored full
 * result, or narrow with "fields"), or paths that matched nothing alone (fix them). The caller puts where it kept
 * the full result before this.
 */
function answerInstruction(f: AnswerFacts & { capCutAt: number }, narrow: string): string;
function answerInstruction(f: AnswerFacts, narrow: string): string | undefined;
function answerInstruction(f: AnswerFacts, narrow: string): string | undefined {
  const steps: string[] = [];
  let usual = 0;
  if (f.capCutAt !== undefined) {
    steps.push(`The response was cut at ${f.capCutAt} bytes (the response size cap), so data is partial text and "fields" cannot select from it: call again with ${narrow} to get a smaller answer, or ask the operator to raise API_CATALOG_MAX_RESPONSE_BYTES.`);
  } else if (f.budgetCut) {
    // "fields" selects from parsed data only: for text (too deep included) it would select nothing
    if (!f.text) usual++;
    const how = f.text ? (f.tooDeep ? '.' : `: ask for less with ${narrow}.`) : `: for a smaller answer, call again with "fields" to select only what you need, or with ${narrow}.`;
    steps.push(`The data was cut to fit the token budget (see truncated)${how}`);
  }
  if (f.tooDeep) steps.push(`data is the response's text, not parsed: its JSON nests deeper than ${MAX_JSON_DEPTH} levels (see warnings), so "fields" cannot select from it; read it as text, or ask for less with ${narrow}.`);
  if (f.missed) {
    usual++;
    steps.push('Some "fields" paths matched nothing in this response (see warnings): fix them from the fields listed there, or call again without "fields".');
  }
  if (f.charsetMisread) steps.push('Some characters of data may be wrong: see warnings.');
  return steps.length === 0 || (steps.length === 1 && usual === 1) ? undefined : steps.join(' ');
}

/**
 * The arguments that make a request long, longest first, for a 414/431 answer: query, header and path values
 * (`ids (3000 items)`, `q (2048 characters)`), at most three.
 */
function longArguments(op: Operation, args: Record<string, unknown>): string[] {
  const sized: Array<{ name: string; size: number; label: string }> = [];
  for (const b of op.bindings) {
    if (b.in !== 'query' && b.in !== 'header' && b.in !== 'path' && b.in !== 'cookie') continue;
    const v = args[b.arg];
    if (v === undefined) continue;
    const size = (JSON.stringify(v) ?? '').length;
    const label = Array.isArray(v) ? `${b.arg} (${v.length} items)` : typeof v === 'string' ? `${b.arg} (${v.length} characters)` : b.arg;
    sized.push({ name: b.arg, size, label });
  }
  return sized
    .sort((a, b) => b.size - a.size)
    .slice(0, 3)
    .map((s) => s.label);
}

/**
 * The credentials a 401/403 speaks of: those this request carried (the env vars it read, and the caller's own token
 * when it filled a scheme, which the env vars then did not), else every env var the operation can read (nothing was
 * sent: set one).
 */
function rejectedCredentials(status: number, op: Operation, config: ExecutionConfig): { envVars: string[]; header?: string } {
  if (status !== 401 && status !== 403) return { envVars: [] };
  const sent = resolveAuth(op, config).sources;
  if (sent.length === 0) return { envVars: credentialStatus(op, config).flatMap((c) => c.envVars) };
  const envVars = [...new Set(sent.filter((s) => s !== SESSION_SOURCE))];
  return sent.includes(SESSION_SOURCE) ? { envVars, header: sessionHeaders(config.catalog.name) } : { envVars };
}

/** The operator's configured base URL origin: exempt from private-address blocking (they named it). */
function exemptOrigin(config: ExecutionConfig): { exemptOrigin?: string } {
  const o = config.baseUrl !== undefined ? originOf(config.baseUrl) : undefined;
  return o !== undefined ? { exemptOrigin: o } : {};
}

/**
 * The next step when fetch refused the upstream's port (a Fetch "bad port"): the generic UPSTREAM_UNREACHABLE one
 * says "retry", which can never work here; only another port in the base URL can.
 */
function badPortInstruction(err: unknown, config: ExecutionConfig): string | undefined {
  if (!isAppError(err) || err.code !== 'UPSTREAM_UNREACHABLE' || (err.details as { code?: unknown } | undefined)?.code !== 'bad port') return undefined;
  return `Do not retry: the server's HTTP client never sends to this port. Tell the user to point the base URL at another port (--base-url, ${envPrefix(config.catalog.name)}_BASE_URL, or catalogs.${config.catalog.name}.baseUrl in the config file).`;
}

/**
 * The next step for an UPSTREAM_RESPONSE_INVALID that no retry can fix (headers over the client's limit, bytes that
 * are not HTTP, a body that does not decode as its Content-Encoding says): the generic step says "retry".
 */
function unreadableInstruction(err: AppError): string | undefined {
  if (err.code !== 'UPSTREAM_RESPONSE_INVALID' || (err.details as { retryable?: unknown } | undefined)?.retryable !== false) return undefined;
  return "Do not retry: the API's answer cannot be read (see the message for what it sent); tell the user the upstream service, or the port the base URL names, is at fault.";
}

function fromError(err: unknown, redactor: Redactor, op: Operation, status?: number, instruction?: string): Answer {
  if (isAppError(err)) {
    return failure(err.code, err.message, redactor, err.details ?? undefined, status, instruction ?? policyInstruction(err) ?? unreadableInstruction(err));
  }
  // Unexpected: a generic, redacted message without the stack (H3).
  const message = err instanceof Error ? err.message : String(err);
  return failure('INTERNAL', `${op.name}: unexpected failure (${message.slice(0, 200)})`, redactor);
}

