// The execute_tool calls in progress in this process, so that a forced exit (a second SIGTERM/SIGINT: signals.ts)
// still writes the audit line each of them would have written on finishing. Process-wide, as signals are: every
// server instance (stdio, a legacy session, a 2026-07-28 request) registers its calls here. No library here.

/** Each call in flight: writes its audit record as abandoned (synchronously). */
const calls = new Set<() => void>();

/** Registers a call in flight; the returned function removes it (idempotent). */
export function trackCall(abandon: () => void): () => void {
  calls.add(abandon);
  return () => void calls.delete(abandon);
}

/**
 * At a forced exit: writes the abandoned record of every call in flight, now and synchronously (the audit log's
 * appends are synchronous writes, so they are in the file before process.exit), and forgets them. Returns how many.
 */
export function abandonCalls(): number {
  const list = [...calls];
  calls.clear();
  for (const abandon of list) {
    try {
      abandon();
    } catch {
      // one failing record must not keep the others (or the exit) from happening
    }
  }
  return list.length;
}
