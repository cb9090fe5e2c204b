// The drain's wait before it closes its listener (src/server/ops/connections.ts): a replica behind a balancer keeps
// listening, answering 503, until no routed request has arrived for the quiet period, because closing a listener
// resets the connections the kernel accepted for it (requests lost unread, which a balancer must not retry). Fake
// clock (the monotonic one it measures with, performance.now): the quiet period is counted from the last request,
// and the grace's deadline bounds the wait.
import { createServer } from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ConnectionCloser } from '../../src/server/ops/connections.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** quiet() with its outcome observable: undefined while it waits. */
function watch(p: Promise<boolean>): { outcome: () => boolean | undefined } {
  let outcome: boolean | undefined;
  void p.then((v) => (outcome = v));
  return { outcome: () => outcome };
}

describe('ConnectionCloser.quiet: close the listener only once the balancer stopped routing here', () => {
  test('waits until no request has arrived for the quiet period, counted from the last one', async () => {
    const closer = new ConnectionCloser(createServer());
    closer.noteRequest('/mcp');
    const q = watch(closer.quiet(1000, performance.now() + 20_000));
    await vi.advanceTimersByTimeAsync(900);
    expect(q.outcome()).toBeUndefined();
    // A request at 900 ms (the balancer has not taken the replica out yet): quiet again from here.
    closer.noteRequest('/mcp');
    await vi.advanceTimersByTimeAsync(900);
    expect(q.outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    expect(q.outcome()).toBe(true);
  });

  test('probes and scrapes (/healthz, /readyz, /metrics) come straight, not via the balancer: they do not count', async () => {
    const closer = new ConnectionCloser(createServer());
    closer.noteRequest('/mcp');
    const q = watch(closer.quiet(1000, performance.now() + 20_000));
    await vi.advanceTimersByTimeAsync(500);
    for (const target of ['/readyz', '/healthz', '/metrics', '/readyz?verbose=1']) closer.noteRequest(target);
    await vi.advanceTimersByTimeAsync(500);
    expect(q.outcome()).toBe(true);
  });

  test('no request for the quiet period already: resolves at once', async () => {
    const closer = new ConnectionCloser(createServer());
    closer.noteRequest('/mcp');
    await vi.advanceTimersByTimeAsync(5000);
    const q = watch(closer.quiet(1000, performance.now() + 20_000));
    await vi.advanceTimersByTimeAsync(0);
    expect(q.outcome()).toBe(true);
  });

  test('requests that never stop: gives up at the deadline (the grace) and says so', async () => {
    const closer = new ConnectionCloser(createServer());
    closer.noteRequest('/mcp');
    const q = watch(closer.quiet(1000, performance.now() + 3000));
    for (let t = 0; t < 3000; t += 500) {
      closer.noteRequest('/mcp');
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(q.outcome()).toBe(false);
  });
});
