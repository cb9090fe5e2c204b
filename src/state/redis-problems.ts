// What is wrong with the Redis behind the state store, in words an operator can act on: a connection or reply
// error (ioredis) or what the connection check found (a cluster node, a Sentinel, a replica, a missing database)
// becomes one problem with a code for readiness and a secret-free sentence that names the fix. Never the URL.

/** Why the Redis state store is not usable; `connecting` until the first connection is checked. */
export type StateProblemCode =
  | 'connecting'
  | 'unreachable'
  | 'timeout'
  | 'auth'
  | 'tls'
  | 'db'
  | 'not-standalone'
  | 'read-only'
  | 'loading'
  | 'error';

export interface StateProblem {
  code: StateProblemCode;
  /** One secret-free sentence: what Redis said (its error word) and what to change. */
  detail: string;
}

/** Redis answers, but is still loading its data from disk (after a restart): most commands are refused meanwhile. */
export const LOADING: StateProblem = { code: 'loading', detail: 'Redis is loading its data from disk (LOADING); the store is usable once it is done' };

/** Problems a restart of the process does not fix: the URL (or Redis's own setup) must change. */
export function isConfigurationProblem(p: StateProblem): boolean {
  return p.code === 'db' || p.code === 'not-standalone';
}

/** Problems that mean a Redis answered (so the network path works). */
export function reachedRedis(p: StateProblem): boolean {
  return p.code === 'auth' || p.code === 'db' || p.code === 'not-standalone' || p.code === 'read-only' || p.code === 'loading';
}

const TLS_UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** Why a Redis in protected mode refuses this client, and the fix. */
const PROTECTED_MODE =
  'Redis refused this client in protected mode (it has no password and this client is not on its loopback interface): give Redis a password (requirepass, or an ACL user) and put it in the state store URL';

/**
 * The problem an ioredis error (connection, handshake or reply) stands for. `tls`: the URL is rediss://.
 * `reachedBefore`: the store was usable at some point since start, so the URL, the port and TLS are right and a
 * reset means Redis went away (killed, restarted, a failover, a proxy) — no hint about them. `refusedProtected`: Redis said on this connection's
 * handshake that protected mode refuses it (redis-client-warnings.ts), so a reset is that refusal.
 */
export function classifyRedisError(err: unknown, tls: boolean, options: { reachedBefore?: boolean; refusedProtected?: boolean } = {}): StateProblem {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : '';
  const word = /^([A-Z]+)\b/.exec(message)?.[1];
  if (word === 'WRONGPASS' || /invalid password|invalid username-password/i.test(message)) {
    return {
      code: 'auth',
      detail: 'authentication failed (WRONGPASS): Redis refused the user name or password of the state store URL; fix the password in API_CATALOG_STATE (or the ACL user on the Redis side)',
    };
  }
  if (word === 'NOAUTH' || /authentication required/i.test(message)) {
    return {
      code: 'auth',
      detail: 'authentication required (NOAUTH): this Redis needs a password; put it in the state store URL, redis://:<password>@host:port/<db>, through API_CATALOG_STATE',
    };
  }
  // Redis's answer to a client protected mode refuses, before it closes the connection (whether the reply or the
  // reset reaches us first depends on timing: both read the same)
  if (word === 'DENIED') return { code: 'auth', detail: `Redis refused the connection (DENIED): ${PROTECTED_MODE}` };
  if (word === 'NOPERM') {
    return { code: 'auth', detail: 'permission denied (NOPERM): the Redis ACL user of the state store URL may not run the commands the store needs (strings, hashes, sorted sets, EVAL, SELECT, PING)' };
  }
  if (/DB index is out of range/i.test(message)) {
    return { code: 'db', detail: 'the database number at the end of the state store URL does not exist on this Redis (ERR DB index is out of range)' };
  }
  if (word === 'LOADING') return LOADING;
  if (word === 'READONLY') return { code: 'read-only', detail: 'this Redis is a read-only replica (READONLY); point the state store URL at the primary' };
  if (word === 'MOVED' || word === 'ASK' || word === 'CLUSTERDOWN' || word === 'CROSSSLOT') {
    return notStandalone('cluster');
  }
  if (code !== undefined && TLS_UNTRUSTED.has(code)) {
    return { code: 'tls', detail: `TLS: the Redis certificate is not signed by a CA this process trusts (${code}); give the CA to Node with NODE_EXTRA_CA_CERTS=/path/to/ca.pem` };
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return { code: 'tls', detail: `TLS: the Redis certificate is not valid now (${code})` };
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return { code: 'tls', detail: 'TLS: the Redis certificate does not name the host of the state store URL (ERR_TLS_CERT_ALTNAME_INVALID); use the name the certificate has' };
  }
  if (code !== undefined && (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO')) {
    return { code: 'tls', detail: `TLS handshake failed (${code}); rediss:// needs Redis's tls-port, redis:// its plain port` };
  }
  if (code === 'ECONNREFUSED') return { code: 'unreachable', detail: 'unreachable (ECONNREFUSED): nothing listens at the host and port of the state store URL' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'unreachable', detail: `unreachable (${code}): the host name of the state store URL does not resolve` };
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    if (options.reachedBefore === true) {
      return { code: 'unreachable', detail: `the connection to Redis was reset (${code}) after it had worked: Redis stopped or restarted, or something between closed it` };
    }
    // Redis in protected mode said so on the handshake (ioredis logs it as a warning: redis-client-warnings.ts), then
    // closed the connection: the reset is that refusal, not a TLS port
    if (options.refusedProtected === true) return { code: 'auth', detail: `the connection was closed (${code}) after ${PROTECTED_MODE}` };
    // Never reached since start: a reset right away is what a TLS port does to a plain client, and the reverse.
    return {
      code: 'unreachable',
      detail: tls
        ? `the connection was reset (${code}); does this Redis ask clients for a certificate (tls-auth-clients yes, its default)? set tls-auth-clients no or optional`
        : `the connection was reset (${code}); if this port speaks TLS, use rediss://`,
    };
  }
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) {
    return {
      code: 'timeout',
      detail: tls ? 'no answer in time (ETIMEDOUT); if this port is not a TLS port, use redis:// (rediss:// needs Redis\'s tls-port)' : 'no answer in time (ETIMEDOUT)',
    };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return { code: 'unreachable', detail: `unreachable (${code})` };
  return { code: 'error', detail: word !== undefined ? `Redis answered ${word}` : code !== undefined ? `connection error (${code})` : 'connection error' };
}

/** A cluster node or a Sentinel answered where a standalone Redis (or a primary) was expected. */
export function notStandalone(mode: string): StateProblem {
  if (mode === 'sentinel') {
    return {
      code: 'not-standalone',
      detail: 'the state store URL names a Redis Sentinel, not a Redis; Sentinel discovery is not supported: give the address of the primary, or of a proxy that always reaches it (docs/DEPLOY.md)',
    };
  }
  return {
    code: 'not-standalone',
    detail: 'this Redis runs in cluster mode; Redis Cluster is not supported (a session\'s keys and scripts need one node): use a standalone Redis or a primary with replicas (docs/DEPLOY.md)',
  };
}

/** The problem for a database number the Redis does not have, with how many it has when it says. */
export function missingDatabase(db: number, databases: number | undefined): StateProblem {
  const range = databases !== undefined && databases > 0 ? `; it has ${databases} (/0 … /${databases - 1})` : '';
  return {
    code: 'db',
    detail: `database ${db} does not exist on this Redis (ERR DB index is out of range)${range}: fix the number at the end of the state store URL, or raise \`databases\` in redis.conf`,
  };
}
