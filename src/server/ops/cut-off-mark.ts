// Whether the request a tool call belongs to was already answered at the end of the shutdown grace: the HTTP
// transport runs each request it tracks (cut-off-calls.ts) inside its mark, and the tool call reads the mark when it
// finishes, so that its audit line says what its client was told (CANCELLED), not an outcome the client never saw.
// Per request, carried through the SDK's dispatch by async context. No library here.
import { AsyncLocalStorage } from 'node:async_hooks';

/** One tracked request: `answered` once its shutdown answer (CANCELLED) went to its client. */
export interface CutOffMark {
  answered: boolean;
}

const marks = new AsyncLocalStorage<CutOffMark>();

/** Runs `fn` (the request's dispatch) inside `mark`: the tool call it starts finds it with cutOffMark(). */
export function withCutOffMark<T>(mark: CutOffMark, fn: () => T): T {
  return marks.run(mark, fn);
}

/** The mark of the request this code runs for; undefined outside a tracked HTTP request (stdio, a probe). */
export function cutOffMark(): CutOffMark | undefined {
  return marks.getStore();
}
