// The total deadline of an upstream call, robust to a blocked event loop: a call whose answer arrived while the
// process could not look (a synchronous stall elsewhere) is not reported as timed out. Used by http.ts.

/** A deadline timer that fires later than this past its time found the event loop blocked, not the upstream slow. */
const STALLED_MS = 100;
/** The most a stalled deadline waits again for an answer that may have arrived during the stall. */
const STALL_GRACE_MAX_MS = 5_000;

/**
 * Calls `expire` `ms` from now. When the timer fires late because the event loop was blocked (a synchronous stall
 * elsewhere in the process), an answer that arrived during the stall is still unread in the socket: timers run
 * before I/O when the loop resumes, so expiring at once would abort a call the upstream had already completed (a
 * POST that did its work, reported as a timeout and retried into a duplicate). It waits once more, as long as it
 * was late (at most {@link STALL_GRACE_MAX_MS}): the upstream gets no more time than the process spent unable to
 * look. Measured on the monotonic clock, independent of the injectable `now` (which times the retries).
 */
export function deadlineTimer(ms: number, expire: () => void): { clear(): void } {
  const due = performance.now() + ms;
  let timer = setTimeout(() => {
    const late = performance.now() - due;
    if (late <= STALLED_MS) return expire();
    timer = setTimeout(expire, Math.min(late, STALL_GRACE_MAX_MS));
  }, ms);
  return { clear: () => clearTimeout(timer) };
}
