// describe_tools as an agent uses it: the describe handles its answer carries, by operation name, to pass to
// execute_tool as `handle` (what the answer's instruction says to do). A 2026-07-28 server remembers no describe on
// any transport, so its clients must pass them; a legacy connection or session also remembers. Test-only.
import type { Client } from '@modelcontextprotocol/client';
import { call, type Envelope } from './mcp.js';

/** The handles in a describe_tools envelope (in each example call, or beside the name), by operation name. */
export function handlesIn(envelope: Envelope): Record<string, string> {
  const handles: Record<string, string> = {};
  for (const entry of (envelope.value?.tools ?? []) as Array<{ name?: string; handle?: string; example?: { handle?: string } }>) {
    const handle = entry.example?.handle ?? entry.handle;
    if (typeof entry.name === 'string' && typeof handle === 'string') handles[entry.name] = handle;
  }
  return handles;
}

/** describe_tools for `names` (plus any other argument); returns the envelope and the handles it carries. */
export async function describeWithHandles(
  client: Client,
  names: string[],
  extra: Record<string, unknown> = {},
): Promise<{ envelope: Envelope & { isError: boolean }; handles: Record<string, string> }> {
  const envelope = await call(client, 'describe_tools', { tool_names: names, ...extra });
  return { envelope, handles: handlesIn(envelope) };
}
