// `serve`'s SIGHUP listener (ReloadSignal, src/cli/serve-reload.ts) is taken away by its own close(): exactly the
// listener it added, none of the process's others, and a SIGHUP after it reloads nothing. serve.ts calls it when it
// returns (test/ops/serve-listeners.test.ts checks that end to end, with the built CLI and a real SIGTERM).
import { afterEach, expect, test } from 'vitest';
import { ReloadSignal } from '../../src/cli/serve-reload.js';
import { LiveCatalogs } from '../../src/server/core/reload.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { until } from '../helpers/timing.js';

const others: Array<() => void> = [];
afterEach(() => {
  for (const l of others.splice(0)) process.off('SIGHUP', l);
});

test('close() removes the SIGHUP listener it added, and only it; a SIGHUP then reloads nothing', async () => {
  // another part of the process listens too (an embedding application's own)
  let theirs = 0;
  const their = () => theirs++;
  others.push(their);
  process.on('SIGHUP', their);
  const before = process.listeners('SIGHUP');

  const served = { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} } };
  const live = new LiveCatalogs(served, { load: () => Promise.resolve(served) });
  const signal = new ReloadSignal();
  expect(process.listenerCount('SIGHUP')).toBe(before.length + 1);
  signal.reloads(live);
  process.emit('SIGHUP', 'SIGHUP');
  await until(() => live.reloadCount === 1, 'the SIGHUP reload');
  expect(theirs).toBe(1);

  signal.close();
  expect(process.listeners('SIGHUP')).toEqual(before);
  signal.close();
  expect(process.listeners('SIGHUP')).toEqual(before);
  // the process's own listener still hears it; this one does not: no reload starts (had one started, this request
  // would run once more after it, and the count would be 3)
  process.emit('SIGHUP', 'SIGHUP');
  expect(theirs).toBe(2);
  expect(await live.reload('request')).toMatchObject({ ok: true });
  expect(live.reloadCount).toBe(2);
  live.close();
});
