// Helpers for the operations tests: an upstream route that holds each request until the test releases it (an
// execute_tool "already sent upstream"), polling with a deadline, and reading a replica's JSON log lines. Test-only.
import type { ServerResponse } from 'node:http';
import type { Upstream } from '../helpers/upstream.js';

export interface HeldRoute {
  /** Requests that reached the route (held or answered). */
  arrived(): number;
  /** Resolves once `n` requests have arrived. */
  waitArrived(n?: number): Promise<void>;
  /** Answers every held request (and every later one at once). */
  release(): void;
}

/** Holds requests to `pathname` of the upstream until release(); then answers 200 `{id, ok: true}` with a request id. */
export function holdRoute(up: Upstream, pathname: string): HeldRoute {
  const held: ServerResponse[] = [];
  let released = false;
  let arrived = 0;
  const answer = (res: ServerResponse) => {
    if (res.destroyed) return;
    const body = JSON.stringify({ id: 1, ok: true });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': `req-${arrived}` });
    res.end(body);
  };
  up.route(pathname, {
    kind: 'handler',
    handle: (_req, res) => {
      arrived++;
      if (released) answer(res);
      else held.push(res);
    },
  });
  return {
    arrived: () => arrived,
    waitArrived: (n = 1) => until(() => arrived >= n, `${n} request(s) to reach ${pathname}`),
    release() {
      released = true;
      for (const res of held.splice(0)) answer(res);
    },
  };
}

/** Polls `ok` every 25 ms until it holds; throws naming `what` after `ms` (a deadline, not a timing assertion). */
export async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The JSON log lines of `text` whose event is `event`. */
export function events(text: string, event: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(`"event":"${event}"`))
    .map((l) => JSON.parse(l) as Record<string, any>);
}
