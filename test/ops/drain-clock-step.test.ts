// The HTTP drain measures its durations on the monotonic clock, so a step of the wall clock during a shutdown (NTP
// correcting a drifted clock, a VM resumed from a snapshot, an operator's `date -s`) changes neither the quiet period
// it waits for before closing its listener nor the grace that bounds that wait. Before, both read Date.now: with the
// clock stepped back an hour after the last request, the quiet period looked an hour away, so the drain waited out
// the whole grace and logged drain_still_routed although nothing was arriving; stepped back while requests kept
// coming, the grace's end moved an hour later and the shutdown overran it by that hour. A real Streamable HTTP server
// on 127.0.0.1, real requests and its real shutdown; the step is the wall clock seen through Date.now, the clock the
// code read (as test/state/redis-clock-step.test.ts does).
import { afterEach, expect, test, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';
import { events } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** From now on Date.now reads an hour earlier than it did (the wall clock stepped back). */
function stepWallClockBack(): void {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() - 3_600_000);
}

/** `p`, or 'hung' when it has not settled after 30 s (a limit for a hang, not a speed check). */
function orHung<T>(p: Promise<T>): Promise<T | 'hung'> {
  return Promise.race([p, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref())]);
}

async function server(): Promise<{ srv: HttpHandle; log: () => string }> {
  let log = '';
  const logger = createLogger({ write: (line) => (log += line), minLevel: 'info' });
  const srv = await serveHttp({ catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0, logger }, { port: 0 });
  return { srv, log: () => log };
}

test('the wall clock stepped back after the last request: the drain still closes once quiet, not at the end of the grace', async () => {
  const { srv, log } = await server();
  // a routed request (a balancer's), then the clock steps back, then SIGTERM's shutdown with a long grace
  expect((await rawHttp(srv.port, 'GET', '/nothing', { accept: 'application/json' })).status).toBe(404);
  stepWallClockBack();
  const outcome = await orHung(srv.shutdown(10_000));
  expect(outcome).toEqual({ finished: true, abandoned: 0 });
  // the quiet period passed (nothing arrived): the listener closed without waiting for the grace to end
  expect(events(log(), 'drain_still_routed')).toEqual([]);
});

test('the wall clock stepped back while requests keep coming: the grace still ends the wait on time', async () => {
  const { srv } = await server();
  let stop = false;
  const send = () => rawHttp(srv.port, 'GET', '/nothing', { accept: 'application/json' }).catch(() => undefined);
  expect((await send())?.status).toBe(404);
  // a balancer that never stops routing here: requests one after another (each gets the drain's 503) until the
  // listener is gone
  const traffic = (async () => {
    const statuses = new Set<number>();
    while (!stop) {
      const r = await send();
      if (r === undefined) break;
      statuses.add(r.status);
    }
    return statuses;
  })();
  const shutdown = srv.shutdown(1500);
  stepWallClockBack();
  const outcome = await orHung(shutdown);
  stop = true;
  expect(outcome).toEqual({ finished: true, abandoned: 0 });
  // it gave up waiting for quiet at the grace's end (before: an hour later); the traffic was refused meanwhile
  expect(await traffic).toContain(503);
});
