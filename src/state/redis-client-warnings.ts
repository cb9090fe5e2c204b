// ioredis's own plain-text warnings (console.warn) that a running state store can meet, turned into one JSON log line
// of the connection they concern (RedisConnection.clientWarning): a plain-text line breaks JSON logs, and ioredis
// offers no hook for them. Every other console.warn passes through untouched.
/**
 * The warnings ioredis writes with console.warn (plain text on stderr, not a JSON log line) that a running store can
 * meet: handleAuthError's (event_handler.js), on the HELLO or AUTH of a connection's handshake, after which ioredis
 * goes on. Each becomes one JSON line of ours, once per connection (RedisConnection.clientWarning). The others cannot
 * reach it: the ready check's (enableReadyCheck: false, here and on the signals connection), the RESP3 reply
 * mapping's (not asked for), the unhandled error event's (console.error; both connections listen for errors).
 */
export const CLIENT_WARNINGS = [
  // Redis 6+ sends "-DENIED ... no password is set ..." when protected mode refuses a client off its loopback
  // interface, then closes the connection; Redis 5 or older answers AUTH so when it has no password (clientWarning)
  ['[WARN] Redis server does not require a password', 'no-password-set', 'Redis answered the connection with "no password is set": in protected mode (it has no password) it refuses a client that is not on its own loopback interface and closes the connection; give Redis a password (requirepass, or an ACL user) and put it in the state store URL'],
  // AUTH (a Redis or proxy without HELLO) with a password for a `default` user that has none (nopass)
  ["[WARN] This Redis server's `default` user does not require a password", 'password-not-required', "the state store URL has a password, but this Redis's default user needs none (nopass): anyone who reaches its port can use it; set requirepass (or an ACL user) on Redis, or remove the password from the URL"],
  [`[ERROR] The server returned "wrong number of arguments for 'auth' command"`, 'user-name-unsupported', 'this Redis (5 or older) takes no user name: give the password alone in the state store URL, redis://:<password>@host:port/<db>'],
] as const;
export type KnownWarning = (typeof CLIENT_WARNINGS)[number];
export type ClientWarning = KnownWarning[1];

/** What a client warning goes to: a connection's log. */
interface WarningSink {
  clientWarning(warning: KnownWarning): void;
}

/** The connections not yet closed: whose logs a client warning goes to (console.warn says not which connection). */
const live = new Set<WarningSink>();
let routed = false;

/** Routes CLIENT_WARNINGS to the live connections' logs, once per process; every other console.warn passes through. */
function routeClientWarnings(): void {
  if (routed) return;
  routed = true;
  const write = console.warn;
  console.warn = function (this: unknown, ...args: unknown[]): void {
    const text = typeof args[0] === 'string' ? args[0] : '';
    const known = CLIENT_WARNINGS.find(([prefix]) => text.startsWith(prefix));
    if (known === undefined || live.size === 0) return write.apply(this, args);
    for (const c of live) c.clientWarning(known);
  };
}

/** Routes the client warnings to `sink` until the returned function is called (the connection's close). */
export function watchClientWarnings(sink: WarningSink): () => void {
  routeClientWarnings();
  live.add(sink);
  return () => {
    live.delete(sink);
  };
}
