// describe_tools' `instruction`: the next step its answer names — describe at Level 2 after a summary, or call
// execute_tool, with the confirmation wording for destructive operations and never offering one this server refuses.
// Wording only: execute_tool and the execution layer enforce read-only mode themselves (refusedWhenReadOnly, op.readOnly).
import type { Operation } from '../../types.js';
import type { ToolNames } from './names.js';

/**
 * Whether a server in read-only mode refuses `op`: it changes data (Operation.readOnly, which the importer decides
 * from the method and `x-api-catalog-read-only`). What describe warns of, its instruction leaves out and
 * execute_tool answers READ_ONLY_MODE for; the execution layer checks the same value again.
 */
export function refusedWhenReadOnly(op: Operation, readOnly: boolean): boolean {
  return readOnly && !op.readOnly;
}

/** Names in an instruction: `a`, `a and b`, `a, b and c`. */
function nameList(list: readonly string[]): string {
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/**
 * Level 1's next step: a summary shows no parameters and does not authorize execute_tool, so the agent describes
 * the one it picks at Level 2 (the exact call, which it can copy) before executing it.
 */
export function summaryInstruction(ops: readonly Operation[], names: ToolNames): string {
  const which = ops.length === 1 ? `["${(ops[0] as Operation).name}"]}` : `["<name>"]} for the one that fits`;
  return `A summary does not authorize ${names.executeTool}: first call ${names.describeTools} with {"tool_names": ${which}.`;
}

/**
 * Levels 2 and 3 (and one parameter): the next step for every tool described, not the first one's. Operations
 * this server refuses (writes on a read-only server, operations that cannot be executed: their warnings say why)
 * are never offered to execute_tool; a destructive one among the rest gets the confirmation wording. Level 2
 * carries an example call: the instruction points at it. A destructive operation's example has no `confirm`:
 * copying it must not skip the user, who is asked (elicitation) or whose consent the agent must get before the
 * CONFIRMATION_REQUIRED fix tells it to pass `confirm`.
 */
export function describeInstruction(ops: readonly Operation[], names: ToolNames, readOnly: boolean, withExample: boolean, unshown?: UnshownFields): string {
  const refusedReadOnly = ops.filter((op) => op.executable && refusedWhenReadOnly(op, readOnly));
  const unusable = ops.filter((op) => !op.executable);
  const runnable = ops.filter((op) => op.executable && !refusedWhenReadOnly(op, readOnly));
  const refusedNote = [
    refusedReadOnly.length > 0 ? `${nameList(refusedReadOnly.map((op) => op.name))} change${refusedReadOnly.length > 1 ? '' : 's'} data, which this read-only server refuses` : '',
    unusable.length > 0 ? `${nameList(unusable.map((op) => op.name))} cannot be executed (see warnings)` : '',
  ].filter(Boolean).join('; ');
  if (runnable.length === 0) {
    return `Do not call ${names.executeTool}: ${refusedNote}. Tell the user${refusedReadOnly.length > 0 ? ' ("dry_run" only shows the request)' : ''}, or find another operation with ${names.searchTools}.`;
  }
  const destructive = runnable.filter((op) => op.destructive);
  const call = `{"tool_name": "${runnable.length === 1 ? (runnable[0] as Operation).name : '<name>'}", "args": {...}}`;
  let text: string;
  if (destructive.length === runnable.length) {
    text = withExample
      ? `Only if the user asked for this destructive action: call ${names.executeTool} with the example and their values; the user must confirm it.`
      : `Only if the user asked for this destructive action: call ${names.executeTool} with ${call}; the user must confirm it.`;
  } else {
    text = withExample ? `Call ${names.executeTool} with the example and the user's values.` : `Call ${names.executeTool} with ${call} using the parameters above.`;
    if (destructive.length > 0) {
      text += ` ${nameList(destructive.map((op) => op.name))} ${destructive.length > 1 ? 'are' : 'is'} destructive: only if the user asked for that action, and the user must confirm it.`;
    }
  }
  if (unshown !== undefined && runnable.some((op) => op.name === unshown.tool)) {
    const which = unshown.parameters.length === 1 ? (unshown.parameters[0] as string) : '<name>';
    const listed = unshown.parameters.length > 4 ? [...unshown.parameters.slice(0, 3), `${unshown.parameters.length - 3} more`] : unshown.parameters;
    text += ` For the fields of ${nameList(listed)} not shown, call ${names.describeTools} with {"tool_names": ["${unshown.tool}"], "parameter": "${which}"}.`;
  }
  return refusedNote === '' ? text : `${text} Not ${refusedReadOnly.length + unusable.length > 1 ? 'these' : 'this one'}: ${refusedNote}.`;
}

/** Level 2 arguments whose fields the answer does not all show (a capped list, a free-form object): one tool's. */
export interface UnshownFields {
  tool: string;
  parameters: string[];
}
