// Confirmation of a destructive execute_tool called without "confirm", through Multi Round-Trip Requests: the call
// answers input_required with an elicitation form and a signed requestState (the SDK's createRequestStateCodec,
// bound to the principal, carrying the tool and a hash of the call's arguments, expiring); the retry carries the
// answer. A 2026-07-28 client retries itself. An accepted state is used once: its nonce is claimed in the state
// store (shared by replicas with --state redis://), so one approval runs one call, never a replay of it (MRTR: single
// use "MUST" be enforced server-side where it matters). A claim only holds where every process that accepts the state
// sees it, so the state carries the claim store's epoch (StateStore.claimEpoch): a state is accepted only by a
// process whose store holds that epoch still. Without --state that is the process that issued it (a restart, or
// another replica sharing only the signing key, refuses it: "ask the user again", naming --state); with --state, any
// replica on that Redis, until the Redis restarts, fails over or loses its data. A legacy (2025-era) client is asked inside the
// call instead (elicit(): a real elicitation/create on the call's own stream), not through the SDK's input_required
// shim: the shim answers a failed elicitation (an error from the client, no answer in time) with its own bare text,
// outside our handler, so the agent got no envelope and the log no line saying how the call ended.
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/server';
import { randomBytes, sha256Hex } from '../crypto.js';
import { AppError } from '../errors.js';
import { MemoryStateStore, type StateStore } from '../state/index.js';
import type { Operation } from '../types.js';
import { fail, type Envelope } from './core/envelope.js';
import type { ConfirmAnswer } from './core/execute.js';
import type { Signer } from './signing.js';

/** How long a confirmation may take between the input_required answer and the retry. */
export const CONFIRMATION_TTL_SECONDS = 600;

/** How long a legacy client has to answer the elicitation/create of a confirmation (human-paced; as the SDK shim had). */
export const LEGACY_ELICITATION_TIMEOUT_MS = 120_000;

/**
 * How much longer than its own lifetime a used state stays claimed: another replica's clock may run behind this
 * one's, and there the state would still verify after this replica thinks it expired.
 */
const CLAIM_SKEW_MS = 60_000;

/** What the signed requestState carries (readable by the client: nothing secret). */
interface ConfirmState {
  /** The operation to confirm. */
  t: string;
  /** A hash of the execute_tool arguments that would run. */
  a: string;
  /** A random nonce: what an accepted answer claims, so that the state runs one call. */
  n: string;
  /** When the state expires (epoch seconds, as the codec's own expiry): how long the claim must last. */
  x: number;
  /** The claim store's epoch when the state was issued (StateStore.claimEpoch): only a store still in it can claim it. */
  e?: string;
}

/** The elicitation key in inputRequests / inputResponses. */
const KEY = 'confirm';

export interface ConfirmationOptions {
  era: 'legacy' | 'modern';
  principal: string;
  /** The signer whose requestState key seals the state (shared by replicas). */
  signer: () => Signer;
  /** Resolves once the signer's key is known (it may come from the shared store); rejects STATE_UNAVAILABLE. */
  keyReady: () => Promise<void>;
  /** The client's initialize-time capabilities (legacy connections). */
  legacyCapabilities: () => ClientCapabilities | undefined;
  /**
   * A legacy HTTP session on a shared store: the client's answer to an elicitation may reach another replica,
   * which cannot resume the call, so "confirm" is needed there (as before the modern era).
   */
  legacySharedHttp: boolean;
  /**
   * Where used confirmations are claimed (the server's state store: with --state redis:// every replica sees a
   * claim). Default: one in-memory store for the whole process (stdio, a single HTTP process).
   */
  state?: StateStore;
}

/** The claims of a process whose servers were given no store (one process: all its connections agree). */
let processClaims: StateStore | undefined;

/** JSON with sorted keys: the same arguments hash the same whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The part of an execute_tool call a confirmation binds: the operation, its arguments and the field selection. */
export function callHash(input: unknown): string {
  const o = (input ?? {}) as Record<string, unknown>;
  return sha256Hex(canonical({ tool_name: o.tool_name, args: o.args ?? {}, fields: o.fields ?? null })).slice(0, 32);
}

/** A form elicitation is possible: `elicitation` declared, with form mode or no mode named (the pre-mode meaning). */
function supportsForm(caps: ClientCapabilities | undefined): boolean {
  const e = caps?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (e === undefined || e === null) return false;
  return e.form !== undefined || e.url === undefined;
}

/** Why a requestState cannot be used (details.reason). */
type RefusalReason = 'expired' | 'other_caller' | 'used' | 'invalid' | 'other_call' | 'other_process' | 'store_reset';

/** Readable reasons for a requestState that cannot be used. */
const REFUSALS: Record<RefusalReason, string> = {
  expired: `the confirmation took longer than ${CONFIRMATION_TTL_SECONDS / 60} minutes and expired`,
  other_caller: 'the confirmation state was issued to another caller',
  used: 'this confirmation was already used (one approval runs one call); ask the user again',
  invalid: 'the confirmation state is not valid (altered or from another server)',
  other_call: 'the confirmation was given for another call',
  other_process:
    'the confirmation was issued by another server process (this one restarted since, or the retry reached another replica) that shares no record of used confirmations with this one, so it could run twice; ask the user again (behind several replicas, confirmations need a shared --state redis://...)',
  store_reset:
    'the confirmation was issued before the shared state store restarted, failed over or lost its data (its record of used confirmations may be incomplete), so it could run twice; ask the user again',
};

/** A refused answer; `askAgain`: the client can be asked, so the next step is the same call, not "confirm". */
function refusal(reason: RefusalReason, askAgain: boolean): { refused: string; reason: RefusalReason; askAgain: boolean } {
  return { refused: REFUSALS[reason], reason, askAgain };
}

/** The codec's refusal message as a reason (its messages are fixed reason codes: 'expired', 'bind', the rest). */
function codecReason(message: string): RefusalReason {
  return message === 'expired' ? 'expired' : message === 'bind' ? 'other_caller' : 'invalid';
}

/** The confirmation question: the concrete request line (core/execute's requestLine) when known, else the template. */
function form(op: Operation, request: string | undefined): ReturnType<typeof inputRequired.elicit> {
  return inputRequired.elicit({
    message: `Allow the destructive API call ${op.name} (${request ?? `${op.method.toUpperCase()} ${op.path}`})?`,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: 'Confirm', description: `Run ${op.name}` } },
      required: ['confirm'],
    },
  });
}

/** A client's error text, one line and short (it goes into the envelope and the agent's context). */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}...` : flat;
}

/**
 * An execute_tool call as it runs when the client can ask its user: without the agent's own "confirm". A client that
 * supports elicitation is asked to confirm with the user instead (docs/TOOLS.md), so the agent's word never stands in
 * for the user's answer: it used to skip the user, even right after they declined. `confirm` stays the way for
 * clients that cannot be asked.
 */
export function withoutAgentConfirm(input: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(input, 'confirm')) return input;
  const rest = { ...input };
  delete rest.confirm;
  return rest;
}

/** The answer a request brings for its confirmation (Confirmations.answer). */
export interface RoundAnswer {
  answer: ConfirmAnswer;
  /** A "no" (decline or cancel) this state brings for the first time: its question was charged when it was asked. */
  firstNo?: boolean;
}

/**
 * A legacy ask that ended without the user's answer, on a client that can still ask: no answer in time, or an error
 * that does not say the client cannot show a form. The call is not run; the next one asks again.
 */
export interface NoAnswer {
  /** Why, for the message ("the user did not answer ... within 120 s"). */
  noAnswer: string;
  /** The tool_call line's `confirmation`. */
  ended: 'timeout' | 'failed';
}

/**
 * The client's error says it cannot show a form at all: it has no elicitation/create handler (-32601), or it
 * refuses form mode as unsupported (the SDK client's "Client does not support form-mode elicitation requests").
 */
function cannotShowForms(err: unknown): boolean {
  if (!(err instanceof ProtocolError)) return false;
  if (err.code === ProtocolErrorCode.MethodNotFound) return true;
  return /not support|unsupported/i.test(err.message) && /elicitation|form/i.test(err.message);
}

/**
 * CONFIRMATION_REQUIRED for a NoAnswer: nothing sent, and no "confirm" fallback, since that client can still ask
 * (the agent's confirm is ignored there): the user is asked again if the agent calls again.
 */
export function noAnswerEnvelope(op: Operation, tool: string, answer: NoAnswer): Envelope {
  return fail(
    op.name,
    'CONFIRMATION_REQUIRED',
    `execute_tool: ${op.name} was not run: ${answer.noAnswer}; nothing was sent`,
    `Tell the user the action was not performed. Call ${tool} again only if they still want it: they will be asked again ("confirm" does not replace their answer on this connection).`,
    { reason: answer.ended === 'timeout' ? 'no_answer' : 'client_error' },
  );
}

export class Confirmations {
  private codec: RequestStateCodec<ConfirmState> | undefined;
  /**
   * A legacy client declared elicitation but answered that it cannot show a form (cannotShowForms): from then on this
   * connection or session cannot be asked, so "confirm" (the fallback that failure's answer offers) is how it
   * confirms. Never set by a timeout or another error: a user who did not answer in time is not a client that cannot
   * ask, and the agent's own confirm must not stand in for them on the next call.
   */
  private failedToAsk = false;

  constructor(private readonly options: ConfirmationOptions) {}

  private stateCodec(): RequestStateCodec<ConfirmState> {
    const principal = this.options.principal;
    return (this.codec ??= createRequestStateCodec<ConfirmState>({
      key: this.options.signer().requestStateKey,
      ttlSeconds: CONFIRMATION_TTL_SECONDS,
      bind: () => principal,
    }));
  }

  /** Whether this request's client can be asked (capabilities checked first: a modern client without them would get -32021). */
  canAsk(ctx: ServerContext): boolean {
    if (this.options.era === 'modern') {
      // The envelope's keys are hidden from the SDK's public types; the SDK has validated their shape.
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      return supportsForm(envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined);
    }
    return !this.failedToAsk && !this.options.legacySharedHttp && supportsForm(this.options.legacyCapabilities());
  }

  /**
   * The answer for `op` in this round: the user's answer when the request carries a valid state for this very
   * call, 'ask' when the client can be asked, else 'unavailable' (CONFIRMATION_REQUIRED with the fix). An accept
   * claims the state's nonce first: a second use of the same state is refused, and a store that cannot be reached
   * rejects (STATE_UNAVAILABLE: fail closed, nothing sent, and the state stays unused for a retry). A state whose
   * claim this store cannot see (issued under another epoch: another process without --state, or before a shared
   * store restarted, failed over or lost its data) is refused, never claimed here: its claim elsewhere, or one the
   * store has lost, would not stop this one. The epoch check and the claim are one atomic step (claimOnceInEpoch).
   */
  async answer(op: Operation, input: unknown, ctx: ServerContext): Promise<RoundAnswer> {
    const raw = ctx.mcpReq.requestState();
    if (typeof raw === 'string') {
      const refused = (reason: RefusalReason): RoundAnswer => ({ answer: refusal(reason, this.canAsk(ctx)) });
      if (!this.options.signer().isReady) await this.options.keyReady();
      let state: ConfirmState;
      try {
        state = await this.stateCodec().verify(raw, ctx);
      } catch (err) {
        return refused(codecReason(err instanceof Error ? err.message : ''));
      }
      if (state.t !== op.name || state.a !== callHash(input)) return refused('other_call');
      // A state without a nonce (an older server's) cannot be claimed, so it could be replayed: never accepted.
      if (typeof state.n !== 'string' || typeof state.x !== 'number') return refused('invalid');
      const view = inputResponse(ctx.mcpReq.inputResponses, KEY);
      if (view.kind === 'elicit') {
        // cancel: the user dismissed the form without answering, which is not a "no" (the agent may ask again)
        const no = view.action === 'cancel' ? 'cancel' : view.action !== 'accept' || view.content?.confirm !== true ? 'decline' : undefined;
        if (no !== undefined) return { answer: no, firstNo: await this.firstNo(state) };
        const claimed = typeof state.e === 'string' ? await this.claimStore().claimOnceInEpoch(this.options.principal, `confirm:${state.n}`, this.claimTtlMs(state), state.e) : 'stale';
        if (claimed === 'stale') return refused(this.claimStore().shared ? 'store_reset' : 'other_process');
        return claimed === 'claimed' ? { answer: 'accept' } : refused('used');
      }
    }
    return { answer: this.canAsk(ctx) ? 'ask' : 'unavailable' };
  }

  /**
   * Whether this is the first time this state brings the user's "no": its question was charged when it was asked, so
   * that answer costs nothing (execute-rounds.ts). The same state sent again with a "no" is still answered as the
   * user's no, but charged like any call that sends nothing: replaying a signed decline is no free loop. The no does
   * not use the state (the user may still accept it); a store that cannot be reached counts it as a repeat.
   */
  private async firstNo(state: ConfirmState): Promise<boolean> {
    return this.claim(state, 'confirm-no').catch(() => false);
  }

  /** Where this server's claims go: the state store, else the process's own. */
  private claimStore(): StateStore {
    return this.options.state ?? (processClaims ??= new MemoryStateStore());
  }

  /** How long a claim of the state's nonce must last: its remaining lifetime, plus clock skew. */
  private claimTtlMs(state: ConfirmState): number {
    return (state.x + 1) * 1000 - Date.now() + CLAIM_SKEW_MS;
  }

  /**
   * Claims the state's nonce (under `kind`) for its remaining lifetime; false when claimed before. An accept claims
   * through claimOnceInEpoch instead (answer), checking the epoch in the same step.
   */
  private claim(state: ConfirmState, kind: 'confirm-no'): Promise<boolean> {
    return this.claimStore().claimOnce(this.options.principal, `${kind}:${state.n}`, this.claimTtlMs(state));
  }

  /**
   * The input_required answer: one elicitation form and the signed state of this call. `request` is the concrete
   * request line (core/execute's requestLine of the validated arguments); without it the message shows the path template.
   */
  async ask(op: Operation, input: unknown, ctx: ServerContext, request?: string): Promise<InputRequiredResult> {
    if (!this.options.signer().isReady) await this.options.keyReady();
    // read afresh for each question (never cached: a Redis restarted or emptied must show its new one)
    const e = await this.claimStore().claimEpoch();
    return inputRequired({
      inputRequests: { [KEY]: form(op, request) },
      requestState: await this.stateCodec().mint(
        // x: the codec's own expiry, computed the same way (it keeps it to itself)
        { t: op.name, a: callHash(input), n: randomBytes(16).toString('base64url'), x: Math.floor(Date.now() / 1000) + CONFIRMATION_TTL_SECONDS, e },
        ctx,
      ),
    });
  }

  /**
   * A legacy connection: asks the user now, with a real elicitation/create on this call's stream (the question
   * ask() would put in its input_required answer), and returns the answer for executeTool. A client that answers it
   * cannot show a form (cannotShowForms) is `refused` with the reason, which the envelope turns into
   * CONFIRMATION_REQUIRED with the "confirm" fallback, accepted from then on. No answer within
   * LEGACY_ELICITATION_TIMEOUT_MS, or another error, is a NoAnswer (noAnswerEnvelope): not run, and the next call
   * asks again. The call being cancelled meanwhile throws CANCELLED (no answer is sent for it).
   */
  async elicit(op: Operation, ctx: ServerContext, request?: string): Promise<ConfirmAnswer | NoAnswer> {
    try {
      const answer = await ctx.mcpReq.send(
        { method: 'elicitation/create', params: { ...form(op, request).params } },
        { timeout: LEGACY_ELICITATION_TIMEOUT_MS, resetTimeoutOnProgress: true, signal: ctx.mcpReq.signal },
      );
      if (answer.action === 'cancel') return 'cancel';
      return answer.action === 'accept' && answer.content?.confirm === true ? 'accept' : 'decline';
    } catch (err) {
      if (ctx.mcpReq.signal.aborted) throw new AppError('CANCELLED', 'the call was cancelled by the client while the user was being asked to confirm it; nothing was sent');
      const said = oneLine(err instanceof Error ? err.message : String(err));
      if (cannotShowForms(err)) {
        this.failedToAsk = true;
        return { refused: `the client could not ask the user to confirm (it answered with an error: ${said})` };
      }
      if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
        return { noAnswer: `the user did not answer the confirmation within ${LEGACY_ELICITATION_TIMEOUT_MS / 1000} s`, ended: 'timeout' };
      }
      return { noAnswer: `the client could not show the confirmation this time (it answered with an error: ${said})`, ended: 'failed' };
    }
  }
}
