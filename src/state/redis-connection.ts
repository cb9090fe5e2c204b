// One checked connection to the Redis behind the state store (ioredis): created from the URL's parts (never the
// URL string), checked on every (re)connect before the store may use it — the URL's database selected, a
// standalone primary — and its problems named, logged once per change and reported for readiness. Fails fast and
// closed: no offline queue, short timeouts; reconnects on its own. The store's commands are in redis.ts.
import { isIP } from 'node:net';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { LOADING, classifyRedisError, missingDatabase, notStandalone, reachedRedis, type StateProblem } from './redis-problems.js';
import { STATE_UNAVAILABLE_MESSAGE, type StateHealth } from './store.js';
import { checkRedisUrl, redactRedisUrl, redisTarget, type RedisTarget } from './url.js';
import { watchClientWarnings, type ClientWarning, type KnownWarning } from './redis-client-warnings.js';

/** After a connection check found a Redis the store cannot use (a replica, a cluster node), how soon to look again. */
const RECHECK_MS = 2000;
/** After a failed command, how long further calls fail without trying (a hung Redis costs one timeout, not one per call). */
const FAIL_FAST_MS = 500;
/**
 * How long readiness waits for its PING: well under a probe's own timeout (Kubernetes' default is 1 s), so a hung
 * Redis gets a 503 that says so, not a probe timeout. The PING itself runs on (up to the command timeout).
 */
const HEALTH_PING_MS = 500;

/** What readiness reads for a store that cannot be used now. */
function unhealthy(p: StateProblem): StateHealth {
  return {
    ok: false,
    kind: 'redis',
    reachable: reachedRedis(p),
    // Known only past AUTH: a Redis that answered anything but an auth error accepted the credentials.
    authenticated: reachedRedis(p) && p.code !== 'auth',
    code: p.code,
    detail: `${STATE_UNAVAILABLE_MESSAGE} (${p.detail})`,
  };
}

export class RedisConnection {
  readonly client: Redis;
  private readonly logger: Logger | undefined;
  private readonly target: RedisTarget;
  private readonly where: string;
  /**
   * True once the current connection was checked (authenticated, the URL's database selected, a standalone
   * primary): only then do store calls reach Redis. ioredis's own `ready` is not enough: it also comes after a
   * failed SELECT, on database 0.
   */
  private usable = false;
  private everUsable = false;
  private problem: StateProblem = { code: 'connecting', detail: 'connecting' };
  private logged: string | undefined;
  /** SELECT of the URL's database failed during this connection's handshake. */
  private dbRefused = false;
  private checks = 0;
  /** The last INFO this connection sent was answered (false: NOPERM, an ACL user without INFO). */
  private infoAllowed = true;
  /** state_store_checks_skipped was logged (once per process, not per connection). */
  private infoRefusedLogged = false;
  /** The client warnings (CLIENT_WARNINGS) logged for this connection: each once, not at every reconnection. */
  private readonly warned = new Set<ClientWarning>();
  /** Stops routing client warnings to this connection (close). */
  private readonly unwatch: () => void;
  private recheck: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly waiters = new Set<() => void>();
  private readonly recovered: Array<() => void> = [];
  /**
   * When the last command failed (monotonic clock, performance.now: a step of the wall clock cannot stretch or skip
   * the window): for a moment after, calls fail at once instead of each waiting out a timeout.
   */
  private failedAt: number | undefined;
  /**
   * The readiness PING still out, with when it was sent (monotonic clock, as failedAt): probes meanwhile wait for it
   * (within the bound), never send another.
   */
  private ping: { sent: number; answer: Promise<StateHealth> } | undefined;

  constructor(url: string, options: { commandTimeoutMs?: number; logger?: Logger } = {}) {
    this.target = redisTarget(url);
    this.where = redactRedisUrl(url);
    this.logger = options.logger;
    const u = checkRedisUrl(url);
    if (u.password !== '') this.logger?.addSecret(decodeURIComponent(u.password));
    if (u.password !== '') this.logger?.addSecret(u.password);
    const timeout = options.commandTimeoutMs ?? 1500;
    const t = this.target;
    this.unwatch = watchClientWarnings(this);
    this.client = new Redis({
      host: t.host,
      port: t.port,
      ...(t.username !== undefined ? { username: t.username } : {}),
      ...(t.password !== undefined ? { password: t.password } : {}),
      db: t.db,
      // rediss://: Node's TLS with its default CAs plus NODE_EXTRA_CA_CERTS; the host name is checked.
      ...(t.tls ? { tls: isIP(t.host) === 0 ? { servername: t.host } : {} } : {}),
      // Fail fast and closed: nothing waits in a queue for a Redis that is down (B6).
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeout,
      connectTimeout: timeout,
      // Keep reconnecting, at most once a second: service resumes on its own when Redis is back.
      retryStrategy: (times: number) => Math.min(100 * times, 1000),
      lazyConnect: false,
      // No ioredis ready check: checkConnection below makes its own on every (re)connection (Redis still loading its
      // data, the database, the mode), and ioredis's would print a plain-text warning on stderr (not a JSON log line)
      // for each connection of an ACL user that may not run INFO.
      enableReadyCheck: false,
    });
    this.client.on('connect', () => {
      this.dbRefused = false;
    });
    this.client.on('ready', () => void this.checkConnection());
    this.client.on('error', (err: Error) => {
      // ioredis emits connection and handshake errors here (without a listener they would be unhandled).
      const p = classifyRedisError(err, t.tls, { reachedBefore: this.everUsable, refusedProtected: this.warned.has('no-password-set') });
      // a refused SELECT: the connection check says which database and how many there are
      if (p.code === 'db') this.dbRefused = true;
      else this.setProblem(p);
    });
    this.client.on('close', () => {
      if (this.usable) this.setProblem({ code: 'unreachable', detail: 'the connection to Redis closed' });
      this.usable = false;
    });
  }

  /**
   * Whether this user may run INFO, as the connection check found it (true until one was refused NOPERM): the claims'
   * epoch reads the server's identity with it (redis.ts), and asks only when it may.
   */
  get canRunInfo(): boolean {
    return this.infoAllowed;
  }

  /** Whether a command may be sent now: checked, connected, and not within the fail-fast window of a failure. */
  get open(): boolean {
    return this.usable && this.client.status === 'ready' && (this.failedAt === undefined || performance.now() - this.failedAt >= FAIL_FAST_MS);
  }

  /**
   * A store command failed: calls fail fast for a moment, and a reply that says the store cannot be used as it is
   * (a failover made this node a replica, a password changed) makes it unusable until a fresh connection passes
   * the check again. So does no answer in time: a hung Redis (stopped, swapping, a long script) keeps the TCP
   * connection open, so no `close` or `error` would ever say it is down, nor `ready` that it is back; a fresh
   * connection that passes the check is what ends the problem (state_store_up), as for the others. Returns the
   * problem (for the log line).
   */
  commandFailed(err: unknown): StateProblem {
    this.failedAt = performance.now();
    const p = classifyRedisError(err, this.target.tls, { reachedBefore: this.everUsable, refusedProtected: this.warned.has('no-password-set') });
    this.logger?.log('warn', { event: 'state_store_error', store: 'redis', reason: p.code });
    if (p.code === 'read-only' || p.code === 'auth' || p.code === 'not-standalone' || p.code === 'timeout') {
      this.setProblem(p);
      this.client.disconnect(true);
    }
    return p;
  }

  /**
   * Checks a fresh connection before any store call uses it: the URL's database was selected (ioredis goes on
   * in database 0 when SELECT fails), and this is a standalone Redis or a primary (not a cluster node, a
   * Sentinel or a read-only replica).
   */
  private async checkConnection(): Promise<void> {
    const check = ++this.checks;
    const current = () => check === this.checks && this.client.status === 'ready' && !this.closed;
    let found: StateProblem | undefined;
    try {
      if (this.dbRefused) {
        found = missingDatabase(this.target.db, await this.databaseCount());
      } else if (await this.loading()) {
        found = LOADING;
      } else {
        const server = await this.info('server');
        const mode = /^redis_mode:(\w+)/m.exec(server)?.[1] ?? 'standalone';
        if (mode !== 'standalone') found = notStandalone(mode);
        else if (/^role:slave/m.test(await this.info('replication'))) {
          found = { code: 'read-only', detail: 'this Redis is a read-only replica (role:slave); point the state store URL at the primary' };
        } else if (this.target.db !== 0 && (await this.selectedDatabase()) !== this.target.db) {
          found = missingDatabase(this.target.db, await this.databaseCount());
        }
      }
    } catch (err) {
      found = classifyRedisError(err, this.target.tls, { reachedBefore: this.everUsable, refusedProtected: this.warned.has('no-password-set') });
    }
    if (!current()) return;
    if (found !== undefined) {
      this.setProblem(found);
      // Look again later: a failover, a fixed redis.conf or a proxy now pointing elsewhere ends it without a restart.
      clearTimeout(this.recheck);
      this.recheck = setTimeout(() => {
        if (!this.closed && !this.usable) this.client.disconnect(true);
      }, RECHECK_MS);
      this.recheck.unref();
      return;
    }
    const again = this.everUsable;
    this.usable = true;
    this.everUsable = true;
    this.failedAt = undefined;
    this.problem = { code: 'connecting', detail: 'connecting' };
    this.logged = undefined;
    this.logger?.log('info', { event: 'state_store_up', store: 'redis', target: this.where, db: this.target.db });
    for (const w of [...this.waiters]) w();
    if (again) for (const l of this.recovered) l();
  }

  /**
   * Whether Redis is still loading its data (after a restart): it then refuses most commands (LOADING). From INFO
   * persistence; for a user that may not run INFO, a PING, which Redis refuses with LOADING meanwhile (thrown).
   */
  private async loading(): Promise<boolean> {
    const persistence = await this.info('persistence');
    if (persistence === '') await this.client.ping();
    return /^loading:1/m.test(persistence);
  }

  /** An INFO section; empty when this user may not run INFO (an ACL without it): the checks that need it are skipped. */
  private async info(section: string): Promise<string> {
    try {
      const text = String(await this.client.info(section));
      this.infoAllowed = true;
      return text;
    } catch (err) {
      if (/^NOPERM/.test(err instanceof Error ? err.message : '')) {
        this.infoAllowed = false;
        if (!this.infoRefusedLogged) {
          this.infoRefusedLogged = true;
          this.logger?.log('info', {
            event: 'state_store_checks_skipped',
            store: 'redis',
            reason: 'NOPERM',
            detail: 'this Redis user may not run INFO: the checks that the state store URL names a standalone primary (not a replica, cluster node or Sentinel) are skipped, and a confirmation asked before a Redis restart or failover is not voided by it (only by a Redis that lost its data); grant +info to the user to have them',
          });
        }
        return '';
      }
      throw err;
    }
  }

  /** The database the connection is in, from CLIENT INFO (Redis 6.2+); the wanted one when Redis cannot say. */
  private async selectedDatabase(): Promise<number> {
    try {
      const info = String(await this.client.call('CLIENT', 'INFO'));
      const m = /\bdb=(\d+)/.exec(info);
      return m ? Number(m[1]) : this.target.db;
    } catch {
      return this.target.db;
    }
  }

  /** `databases` from CONFIG GET, when this user may read it. */
  private async databaseCount(): Promise<number | undefined> {
    try {
      const v = (await this.client.call('CONFIG', 'GET', 'databases')) as unknown;
      const n = Array.isArray(v) ? Number(v[1]) : v !== null && typeof v === 'object' ? Number((v as Record<string, unknown>).databases) : NaN;
      return Number.isFinite(n) ? n : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Records why the store is not usable; logged when the reason changes (the reason, never the URL's password).
   * By reason, not by detail: one outage goes through several details (the connection closed, then ECONNREFUSED on
   * each reconnect) and is still one state_store_down; readiness shows the latest detail.
   */
  private setProblem(p: StateProblem): void {
    if (this.closed) return;
    const wasUsable = this.usable;
    if (p.code !== 'loading' || !this.usable) this.usable = false;
    this.problem = p;
    const key = p.code;
    if (key !== this.logged) {
      this.logged = key;
      this.logger?.log(wasUsable || this.everUsable ? 'warn' : 'error', { event: 'state_store_down', store: 'redis', target: this.where, reason: p.code, detail: p.detail });
    }
    for (const w of [...this.waiters]) w();
  }

  /** Why the store is not usable now; undefined when it is. */
  get currentProblem(): StateProblem | undefined {
    return this.usable ? undefined : this.problem;
  }

  /**
   * Resolves once the store is usable (undefined), or with the problem seen when `ms` ran out — as soon as Redis
   * itself answers with a refusal (a password, a missing database, a cluster node, a replica) or TLS fails:
   * start-up reports it.
   */
  async waitForVerdict(ms: number): Promise<StateProblem | undefined> {
    // a TLS refusal does not go away by waiting either
    // (closed: nothing will change, and a wait left behind must not hold the process up to `ms`)
    const settled = (): boolean => this.closed || this.usable || this.problem.code === 'tls' || (reachedRedis(this.problem) && this.problem.code !== 'loading');
    if (!settled()) {
      await new Promise<void>((resolve) => {
        const done = () => {
          if (!settled()) return;
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(() => {
          this.waiters.delete(done);
          resolve();
        }, ms);
        this.waiters.add(done);
      });
    }
    return this.currentProblem;
  }

  /** Resolves once connected and checked, or false after `ms` (the server then starts unready and keeps trying). */
  async waitUntilReady(ms: number): Promise<boolean> {
    if (this.usable) return true;
    return new Promise((resolve) => {
      const done = () => {
        if (!this.usable && !this.closed) return;
        clearTimeout(timer);
        this.waiters.delete(done);
        // closed meanwhile: nothing more will come, and a closed store is not ready
        resolve(this.usable);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(this.usable);
      }, ms);
      this.waiters.add(done);
    });
  }

  onRecovered(listener: () => void): void {
    this.recovered.push(listener);
  }

  /**
   * Readiness: usable (a PING answers within HEALTH_PING_MS), or why not. Never waits longer than that: a hung Redis
   * is reported as one (code `timeout`) while its PING is still out, and when that PING fails, the connection is
   * taken down as for any failed command, so later probes answer at once from the problem it left.
   */
  async health(): Promise<StateHealth> {
    if (!this.usable || this.client.status !== 'ready') return unhealthy(this.problem);
    const ping = (this.ping ??= this.sendPing());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<StateHealth>((resolve) => {
      timer = setTimeout(() => resolve(unhealthy({ code: 'timeout', detail: `no answer to a PING within ${HEALTH_PING_MS} ms` })), Math.max(0, ping.sent + HEALTH_PING_MS - performance.now()));
      timer.unref();
    });
    try {
      return await Promise.race([ping.answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private sendPing(): { sent: number; answer: Promise<StateHealth> } {
    const ping = {
      sent: performance.now(),
      answer: this.client.ping().then(
        (): StateHealth => ({ ok: true, kind: 'redis', reachable: true, authenticated: true }),
        // a PING cut off by close() is no news about Redis
        (err: unknown) => unhealthy(this.closed ? this.problem : this.commandFailed(err)),
      ),
    };
    void ping.answer.finally(() => {
      if (this.ping === ping) this.ping = undefined;
    });
    return ping;
  }

  /** One JSON line for a client warning (CLIENT_WARNINGS), the first time this connection meets it. */
  clientWarning([, reason, detail]: KnownWarning): void {
    if (this.warned.has(reason)) return;
    this.warned.add(reason);
    // with a password in the URL, "no password is set" may also be a Redis 5 or older that has none
    const also = reason === 'no-password-set' && this.target.password !== undefined ? '; or this Redis (5 or older) has no password, and the one in the URL is not used' : '';
    this.logger?.log('warn', { event: 'state_store_warning', store: 'redis', target: this.where, reason, detail: detail + also });
  }

  async close(): Promise<void> {
    this.unwatch();
    this.closed = true;
    this.usable = false;
    clearTimeout(this.recheck);
    for (const w of [...this.waiters]) w();
    this.client.disconnect();
  }

}
