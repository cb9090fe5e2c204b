// What executeOperation says about the wire, over real loopback HTTP: `sent` is true exactly when the request was
// handed to fetch (every refusal before that, the execution layer's own included, is `sent: false` with no
// `upstreamMs`, and no `onSent` unless send's address policy refused it), and `upstreamMs` is the upstream round trip's time, bounded by what the test sees
// on both sides (no clock assertion). Also: a projection checked by checkFields is taken as it is.
import { describe, expect, it, vi } from 'vitest';
import type { ServerResponse } from 'node:http';
import { CheckedFields, checkFields, executeOperation, type ExecuteOptions, type ExecutionConfig, type ExecutionOutcome } from '../../src/execution/index.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { catalog, fail, fakeSleep, okay, op, useUpstream, withSchemes } from './fixtures.js';

let up: Upstream;
let cfg: ExecutionConfig;
useUpstream((u, c) => {
  up = u;
  cfg = c;
}, { totalMs: 5_000 });

/** Runs the call counting onSent. */
async function run(o: Parameters<typeof executeOperation>[0], args: unknown, config: ExecutionConfig, options: ExecuteOptions = {}): Promise<{ out: ExecutionOutcome; onSent: number }> {
  let onSent = 0;
  const out = await executeOperation(o, args, config, { ...options, onSent: () => void onSent++ });
  return { out, onSent };
}

describe('never sent: sent false, no upstreamMs, nothing at the upstream', () => {
  const keyed = withSchemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } });
  // [what, the call, its code, onSent calls]: onSent is told (and awaited: the server's execute rate limit) as the
  // request goes to send, after every check of the execution layer's own; only send's address policy, on an IP
  // literal before connecting or in the connect lookup, refuses it after that.
  const cases: Array<[string, () => Promise<{ out: ExecutionOutcome; onSent: number }>, string, number?]> = [
    ['read-only mode', () => run(op({ method: 'delete' }), {}, { ...cfg, readOnly: true }), 'READ_ONLY_MODE'],
    ['not executable', () => run({ ...op({ path: '/x' }), executable: false }, {}, cfg), 'NOT_EXECUTABLE'],
    ['invalid arguments', () => run(op({ path: '/x' }), { nope: 1 }, cfg), 'INVALID_ARGUMENTS'],
    ['a projection that does not parse', () => run(op({ path: '/x' }), {}, cfg, { fields: '[[[' }), 'INVALID_ARGUMENTS'],
    ['a missing credential', () => run(op({ path: '/x', security: [{ key: [] }] }), {}, { ...cfg, catalog: keyed }), 'AUTH_MISSING'],
    ['a base URL that is no URL', () => run(op({ path: '/x' }), {}, { ...cfg, baseUrl: 'not a url' }), 'CONFIG_INVALID'],
    [
      'a credential over plain http to another host',
      () => run(op({ path: '/x', security: [{ key: [] }] }), {}, { catalog: withSchemes(keyed.securitySchemes, catalog({ servers: [{ url: 'http://api.example.com' }] })), env: { TESTAPI_API_KEY: 'k-1' } }),
      'UNSAFE_REQUEST',
    ],
    [
      'a private IP literal (address policy, before connecting)',
      () => run(op({ path: '/x' }), {}, { catalog: catalog({ servers: [{ url: up.url }] }), env: {}, blockPrivateAddresses: true }),
      'UNSAFE_REQUEST',
      1,
    ],
    [
      'a name resolving to loopback (address policy, in the connect lookup)',
      () => run(op({ path: '/x' }), {}, { catalog: catalog({ servers: [{ url: `http://localhost:${up.port}` }] }), env: {}, blockPrivateAddresses: true }),
      'UNSAFE_REQUEST',
      1,
    ],
    [
      'a call cancelled before it was sent',
      () => {
        const ac = new AbortController();
        ac.abort();
        return run(op({ path: '/x' }), {}, cfg, { signal: ac.signal });
      },
      'CANCELLED',
    ],
  ];
  it.each(cases)('%s', async (_what, call, code, handed = 0) => {
    const { out, onSent } = await call();
    expect(fail(out).code).toBe(code);
    expect(out.sent).toBe(false);
    expect(out).not.toHaveProperty('upstreamMs');
    expect(onSent).toBe(handed);
    expect(up.requests).toEqual([]);
  });
});

describe('sent: the request was handed to fetch', () => {
  it('an answer, and an API error, are sent with their upstream time', async () => {
    up.route('/ok', { kind: 'status', status: 200, body: { id: 1 } });
    up.route('/missing', { kind: 'status', status: 404, body: { message: 'Not Found' } });
    for (const [path, ok] of [['/ok', true], ['/missing', false]] as const) {
      const { out, onSent } = await run(op({ path }), {}, cfg);
      expect(out.ok).toBe(ok);
      expect(out.sent).toBe(true);
      expect(out.upstreamMs).toBeGreaterThanOrEqual(0);
      expect(onSent).toBe(1);
    }
  });

  it('retries are one sending: onSent once, the time covers every attempt', async () => {
    up.route('/flaky', { kind: 'sequence', steps: [{ kind: 'status', status: 503 }, { kind: 'status', status: 200, body: { ok: true } }] });
    const { out, onSent } = await run(op({ path: '/flaky' }), {}, cfg, { ...fakeSleep(), random: () => 0 });
    okay(out);
    expect(up.hits('/flaky')).toHaveLength(2);
    expect(onSent).toBe(1);
    expect(out.sent).toBe(true);
  });

  it('no answer at all still went to fetch: connection refused and a cancellation in flight are sent', async () => {
    const gone = await startUpstream();
    await gone.close();
    const refused = await run(op({ path: '/x' }), {}, { ...cfg, baseUrl: gone.url });
    expect(fail(refused.out).code).toBe('UPSTREAM_UNREACHABLE');
    expect(refused.out.sent).toBe(true);
    expect(refused.onSent).toBe(1);

    up.route('/slow', { kind: 'stall' });
    const ac = new AbortController();
    const pending = run(op({ path: '/slow' }), {}, cfg, { signal: ac.signal });
    await vi.waitFor(() => expect(up.hits('/slow')).toHaveLength(1), { timeout: 10_000, interval: 10 });
    ac.abort();
    const cancelled = await pending;
    expect(fail(cancelled.out).code).toBe('CANCELLED');
    expect(cancelled.out.sent).toBe(true);
    expect(cancelled.out.upstreamMs).toBeGreaterThanOrEqual(0);
  });
});

describe('upstreamMs is the upstream round trip', () => {
  it('covers the time the upstream held the answer, and lies within the call', async () => {
    // The upstream holds the request until the test has seen it arrive; the test then releases it. The upstream
    // time must contain [arrival, release] (both seen in this process) and fit in [onSent, return].
    let arrivedAt = 0;
    let held: ServerResponse | undefined;
    up.route('/held', {
      kind: 'handler',
      handle: (_req, res) => {
        arrivedAt = performance.now();
        held = res;
      },
    });
    let sentAt = 0;
    const pending = executeOperation(op({ path: '/held' }), {}, cfg, { onSent: () => void (sentAt = performance.now()) });
    await vi.waitFor(() => expect(held).toBeDefined(), { timeout: 10_000, interval: 10 });
    const releasedAt = performance.now();
    held!.writeHead(200, { 'content-type': 'application/json' });
    held!.end(JSON.stringify({ id: 1 }));
    const out = okay(await pending);
    const returnedAt = performance.now();
    expect(out.upstreamMs).toBeGreaterThanOrEqual(releasedAt - arrivedAt);
    expect(out.upstreamMs).toBeLessThanOrEqual(returnedAt - sentAt);
    expect(sentAt).toBeLessThanOrEqual(arrivedAt);
  });
});

describe('a projection checked once', () => {
  it('checkFields returns the checked projection; executeOperation takes it as it is and projects with it', async () => {
    expect(() => checkFields('[[[')).toThrow(/not a valid JMESPath expression/);
    const checked = checkFields('[].id');
    expect(checked).toBeInstanceOf(CheckedFields);
    expect(checked.fields).toBe('[].id');
    expect(checkFields(['id', 'user.login']).fields).toEqual(['id', 'user.login']);
    up.route('/items', { kind: 'status', status: 200, body: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }] });
    expect(okay(await executeOperation(op({ path: '/items' }), {}, cfg, { fields: checked })).data).toEqual([1, 2]);
    // a plain string is still checked before anything is sent (direct callers stay safe)
    expect(fail(await executeOperation(op({ path: '/items', method: 'post' }), {}, cfg, { fields: 'a,,b' })).code).toBe('INVALID_ARGUMENTS');
    expect(up.hits('/items')).toHaveLength(1);
  });
});
