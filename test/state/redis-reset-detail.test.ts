// A reset connection to Redis (audit 11, defect 6): the "use rediss://" / tls-auth-clients hints belong to a store
// never reached since start (a plain client on a TLS port is reset at once, and the reverse). A store that worked
// and is then reset (Redis killed, restarted, a failover) is told as that. Table-driven over classifyRedisError with
// the errors Node's sockets raise (an Error with code and syscall, as ioredis passes them on).
import { expect, test } from 'vitest';
import { classifyRedisError } from '../../src/state/redis-problems.js';

const socketError = (code: string) => Object.assign(new Error(`read ${code}`), { code, errno: -104, syscall: 'read' });

test.each([
  ['ECONNRESET', false, {}, /^the connection was reset \(ECONNRESET\); if this port speaks TLS, use rediss:\/\/$/],
  ['ECONNRESET', true, {}, /tls-auth-clients/],
  ['ECONNRESET', false, { reachedBefore: false }, /if this port speaks TLS, use rediss:\/\//],
  ['ECONNRESET', false, { reachedBefore: true }, /^the connection to Redis was reset \(ECONNRESET\) after it had worked: Redis stopped or restarted, or something between closed it$/],
  ['EPIPE', true, { reachedBefore: true }, /^the connection to Redis was reset \(EPIPE\) after it had worked/],
])('%s (rediss: %s, %o)', (code, tls, options, detail) => {
  const p = classifyRedisError(socketError(code), tls, options);
  expect(p.code).toBe('unreachable');
  expect(p.detail).toMatch(detail);
  if ((options as { reachedBefore?: boolean }).reachedBefore === true) expect(p.detail).not.toMatch(/TLS|rediss|tls-auth/);
});
