// The rounds of one execute_tool call (create-server.ts): the run with the confirmation state of this request; the
// read unit a call that sends nothing is charged (before the user is asked); and, for a 2025-era client whose call
// waits for the user, the elicitation/create sent inside the call (confirm.ts) and the run with the answer.
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
  /** RATE_LIMITED (read bucket): the call would have sent nothing, and the user was not asked. */
  limited?: Envelope;
}

/** The outcome without its pending confirmation: nothing is to be asked any more. */
function settled(outcome: ExecuteOutcome, envelope: Envelope): ExecuteOutcome {
  const { confirmationPending: _pending, confirmationRequest: _request, ...rest } = outcome;
  return { ...rest, envelope };
}

/**
 * Runs the call. A call refused before its request goes out (invalid arguments, not described, a missing
 * credential, each confirmation question: the input_required answer, a legacy elicitation/create) spends no
 * execute unit, which protects the upstream API, but one read unit, as a dry run does: else an agent in a loop could
 * raise confirmation prompts without limit. The unit is taken after the run, before anyone is asked; once the read
 * bucket is empty such a call answers RATE_LIMITED and the user is not asked. One unit per question: the user's
 * answer is never hidden behind RATE_LIMITED, so a 2026-07-28 retry bringing a decline or cancel spends none, and a
 * legacy call's second run (with the answer) spends the execute unit if it sends, nothing if it does not.
 */
export async function runExecuteRounds(
  run: (askConfirmation: (op: Operation) => Promise<ConfirmAnswer>) => Promise<ExecuteOutcome>,
  o: RoundsOptions,
): Promise<RoundsResult> {
  /** This request brings the user's "no" (a 2026-07-28 retry): its question was charged when it was asked. */
  let userSaidNo = false;
  const first = await run(async (op) => {
    const answer = await o.confirmations.answer(op, o.input, o.ctx);
    userSaidNo = answer === 'decline' || answer === 'cancel';
    return answer;
  });
  if (!o.gate.reached && !o.readSpent && !userSaidNo) {
    const rate = await o.session.takeToken('read');
    if (!rate.ok) {
      const limited = rateLimitedEnvelope(o.tool, 'read', o.session.limit('read'), rate.retryAfterMs, true);
      return { outcome: settled(first, limited), limited };
    }
  }
  const op = first.confirmationPending;
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
