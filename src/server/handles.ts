// Describe handles in answers: the proof of a describe that execute_tool takes as "handle" where nothing remembers
// the describe (a 2026-07-28 request over HTTP, served by whichever replica). Added to describe_tools answers from
// Level 2 up (in the example call agents copy, else beside the name), never at Level 1: a summary is not enough to
// call an operation, and its answer stays as small as before.
import type { Envelope } from './core/envelope.js';

/**
 * Puts each described operation's handle into the describe_tools answer: into the example call (`example`, beside its `args`)
 * when the entry has one, else as `handle`. Level 1 (`detail: "summary"`) answers are left as they are.
 */
export function attachHandles(envelope: Envelope, handleFor: (name: string) => string | undefined): Envelope {
  if (!envelope.success) return envelope;
  const value = envelope.value as { detail?: string; tools?: unknown[] } | undefined;
  if (value === undefined || value.detail === 'summary' || !Array.isArray(value.tools)) return envelope;
  for (const raw of value.tools) {
    const entry = raw as Record<string, unknown>;
    if (typeof entry.name !== 'string' || 'error' in entry) continue;
    const handle = handleFor(entry.name);
    if (handle === undefined) continue;
    const example = entry.example as Record<string, unknown> | undefined;
    if (example !== undefined && typeof example === 'object' && 'args' in example) example.handle = handle;
    else entry.handle = handle;
  }
  return envelope;
}
