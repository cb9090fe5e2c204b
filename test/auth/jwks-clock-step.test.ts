// The issuer's key set (src/server/auth/jwks.ts) times its max age and the least time between two fetches on the
// monotonic clock: a step of the wall clock back by an hour (NTP, a VM resumed) must not lock fetches out. On the
// wall clock, a fetch that failed just before the step was "less than a second ago" for the next hour, so every
// token got the old failure (503) until then, though the issuer answered again. Real HTTP: a local key endpoint
// that first fails, then serves a key set.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, expect, test, vi } from 'vitest';
import { IssuerKeys, KeysFetchError } from '../../src/server/auth/jwks.js';
import { until } from '../ops/helpers.js';

let server: Server | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

test('a failed fetch, then the wall clock stepped back an hour: the set is fetched again once the interval has passed', async () => {
  const { publicKey } = await generateKeyPair('RS256');
  const keys = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] };
  let up = false;
  server = createServer((_req, res) => {
    if (!up) return void res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(keys));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`);
  const set = new IssuerKeys({ url, timeoutMs: 5_000, maxAgeMs: 600_000, refetchIntervalMs: 50, describe: (e) => String(e) });

  await expect(set.ensureFresh()).rejects.toBeInstanceOf(KeysFetchError);
  up = true;
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() - 3_600_000);
  // a limit for a hang, not a speed check: the 50 ms interval passes on any machine long before it
  await until(async () => set.ensureFresh().then(() => true, () => false), 'the key set fetched again after the interval', 20_000);
  expect(set.current).toBeDefined();
  expect(set.fresh).toBe(true);
});
