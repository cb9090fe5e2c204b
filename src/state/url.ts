// The Redis state-store URL: validation and a form safe to print. Kept apart from redis.ts so that checking or
// describing a URL never loads ioredis (which only `--state redis://…` needs).
import { AppError } from '../errors.js';

/** `redis://user:***@host:port/db`: the URL with its password (and a user name) hidden, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    const auth = u.username !== '' || u.password !== '' ? `${u.username !== '' ? '***' : ''}${u.password !== '' ? ':***' : ''}@` : '';
    return `${u.protocol}//${auth}${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '<invalid redis URL>';
  }
}

/** Validates `redis://[user:pass@]host:port[/db]` (or `rediss://` for TLS). Throws CONFIG_INVALID without echoing secrets. */
export function checkRedisUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AppError('CONFIG_INVALID', 'config: the state store URL is not a URL; give redis://[user:password@]host:port[/db]');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new AppError('CONFIG_INVALID', `config: the state store URL must start with redis:// or rediss:// (got ${u.protocol}); or leave it unset for the in-memory store`);
  }
  if (u.hostname === '') throw new AppError('CONFIG_INVALID', `config: the state store URL ${redactRedisUrl(url)} has no host`);
  if (!/^(\/\d{0,6})?$/.test(u.pathname)) {
    throw new AppError('CONFIG_INVALID', `config: the state store URL ${redactRedisUrl(url)} must end with an optional database number (/0, /1, …; Redis has 16 by default)`);
  }
  if (u.search !== '' || u.hash !== '') throw new AppError('CONFIG_INVALID', `config: the state store URL ${redactRedisUrl(url)} takes no query or fragment`);
  // The user name and password are percent-decoded (redisTarget): a raw `%` (common in generated passwords) cannot be.
  for (const [part, value] of [['user name', u.username], ['password', u.password]] as const) {
    try {
      decodeURIComponent(value);
    } catch {
      throw new AppError(
        'CONFIG_INVALID',
        `config: the ${part} in the state store URL ${redactRedisUrl(url)} has a \`%\` not followed by two hex digits; percent-encode \`%\` as \`%25\` ` +
          '(and `@` `:` `/` `#` `?` as `%40` `%3A` `%2F` `%23` `%3F`, as encodeURIComponent does)',
      );
    }
  }
  return u;
}

/** Where and how to connect, from a checked URL: what the Redis client is given (never the URL string itself). */
export interface RedisTarget {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** The database the URL names (0 when it names none); selected on every connection and checked. */
  db: number;
  tls: boolean;
}

/** The connection settings of `redis[s]://[user:password@]host[:port][/db]` (checked first). */
export function redisTarget(url: string): RedisTarget {
  const u = checkRedisUrl(url);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port === '' ? 6379 : Number(u.port),
    ...(u.username !== '' ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password !== '' ? { password: decodeURIComponent(u.password) } : {}),
    db,
    tls: u.protocol === 'rediss:',
  };
}
