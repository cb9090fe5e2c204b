// The rounds of one execute_tool call (create-server.ts): the run with the confirmation state of this request; the
// unit a call that sends nothing is charged (before the user is asked: a confirmation question the confirm bucket,
// a refusal the read bucket); and, for a 2025-era client whose call waits for the user, the elicitation/create sent
// inside the call (confirm.ts) and the run with the answer.
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Operation } from '../types.js';
import { noAnswerEnvelope, type Confirmations } from './confirm.js';
import type { Envelope } from './core/envelope.js';
import type { ConfirmAnswer, ExecuteOutcome } from './core/execute.js';
import { rateLimitedEnvelope, type ExecuteGate, type SessionState } from './session.js';

export interface RoundsOptions {
  era: 'legacy' | 'modern';
  /** The execute_tool name the agent called (prefixed), for the answers built here. */
  tool: string;
  /** The call's arguments as the agent sent them (the confirmation binds them). */
  input: unknown;
  ctx: ServerContext;
  confirmations: Confirmations;
  session: SessionState;
  /** The call's execute bucket (its onDispatch): whether the call got that far. */
  gate: ExecuteGate;
  /** The read unit is already spent (a dry run spends it first, as list/search/describe do). */
  readSpent: boolean;
}

export interface RoundsResult {
  outcome: ExecuteOutcome;
  /** How a legacy client's confirmation ended (its elicitation's action, 'timeout' or 'failed'), for the log line. */
  confirmation?: string;
  /** RATE_LIMITED (read or confirm bucket): the call would have sent nothing, and the user was not asked. */
  limited?: Envelope;
  /** Which bucket `limited` came from. */
  limitedBucket?: 'read' | 'confirm';
}

/** The outcome without its pending confirmation: nothing is to be asked any more. */
function settled(outcome: ExecuteOutcome, envelope: Envelope): ExecuteOutcome {
  const { confirmationPending: _pending, confirmationRequest: _request, ...rest } = outcome;
  return { ...rest, envelope };
}

/**
 * Runs the call. A call that sends nothing spends no execute unit, which protects the upstream API, but one unit of
 * another bucket, taken after the run, before anyone is asked:
 * - a confirmation question (the input_required answer, a legacy elicitation/create) one unit of the confirm bucket
 *   and nothing else: it is the user's attention that is limited, on every transport (the read bucket is off over
 *   stdio by default); once it is empty the call answers RATE_LIMITED (bucket confirm) and the user is not asked;
 * - a refusal (invalid arguments, not described, a missing credential, CONFIRMATION_REQUIRED for a client that
 *   cannot be asked) one read unit, as a dry run does.
 * The user's answer is never hidden behind RATE_LIMITED: a 2026-07-28 retry bringing a decline or cancel spends
 * nothing (its question was counted; the same state sending a "no" again is a refusal like any other), and a legacy call's second run (with the answer) spends the execute unit if
 * it sends, nothing if it does not.
 */
export async function runExecuteRounds(
  run: (askConfirmation: (op: Operation) => Promise<ConfirmAnswer>) => Promise<ExecuteOutcome>,
  o: RoundsOptions,
): Promise<RoundsResult> {
  /** This request brings the user's "no" (a 2026-07-28 retry) the first time: its question was charged when asked. */
  let userSaidNo = false;
  const first = await run(async (op) => {
    const { answer, firstNo } = await o.confirmations.answer(op, o.input, o.ctx);
    userSaidNo = firstNo === true;
    return answer;
  });
  const op = first.confirmationPending;
  if (!o.gate.reached && !o.readSpent && !userSaidNo) {
    const bucket = op !== undefined ? 'confirm' : 'read';
    const rate = await o.session.takeToken(bucket);
    if (!rate.ok) {
      const limited = rateLimitedEnvelope(o.tool, bucket, o.session.limit(bucket), rate.retryAfterMs, true);
      return { outcome: settled(first, limited), limited, limitedBucket: bucket };
    }
  }
  if (op === undefined || o.era !== 'legacy') return { outcome: first };
  // A 2025-era client is asked here, inside the call (confirm.ts), and the call runs again with the answer: a failed
  // ask ends in our envelope and log line, never in the SDK shim's bare text.
  const answer = await o.confirmations.elicit(op, o.ctx, first.confirmationRequest);
  if (typeof answer === 'object' && 'noAnswer' in answer) {
    return { outcome: settled(first, noAnswerEnvelope(op, o.tool, answer)), confirmation: answer.ended };
  }
  const outcome = await run(() => Promise.resolve(answer));
  return { outcome, confirmation: typeof answer === 'string' ? answer : 'failed' };
}
