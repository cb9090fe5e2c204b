// The shared state store on Redis (ioredis): every update is one atomic command, MULTI or Lua script (B10);
// keys are `ac:<principal>:<session>:…` with TTLs (B4, B5). Fails fast and closed: no offline queue, short
// command timeouts, every failure becomes STATE_UNAVAILABLE; reconnects on its own (B6). Never logs the URL.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { isIP } from 'node:net';
import { principalPrefix, sessionPrefix, STATE_UNAVAILABLE_MESSAGE, stateUnavailable, type RateDecision, type SessionKey, type SessionRecord, type StateHealth, type StateStore, type StoredResultInfo } from './store.js';

const NS = 'ac:';
/** After a failed command, how long further calls fail without trying (a hung Redis costs one timeout, not one per call). */
const FAIL_FAST_MS = 500;

const TOUCH = `
local rec = redis.call('GET', KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
if rec then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return rec`;

const DELETE = `
local ids = redis.call('ZRANGE', KEYS[3], 0, -1)
for _, id in ipairs(ids) do redis.call('DEL', ARGV[1] .. id) end
return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])`;

const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// Token bucket on the Redis clock, so replicas with skewed clocks share one bucket correctly.
const TAKE_TOKEN = `${NOW_MS}
local cap = tonumber(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(v[1]) or cap
local at = tonumber(v[2]) or now
if now > at then tokens = math.min(cap, tokens + (now - at) * cap / 60000); at = now end
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], 120000)
if ok == 1 then return {1, 0} end
return {0, math.ceil((1 - tokens) * 60000 / cap)}`;

// Scores are microseconds on the Redis clock, strictly increasing per session (insertion order = age order).
const NOW_US = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])`;

const PUT_RESULT = `${NOW_US}
local ttl = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl * 1000)
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] and tonumber(last[2]) >= now then now = tonumber(last[2]) + 1 end
redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3], 'PX', ttl)
redis.call('ZADD', KEYS[1], now, ARGV[2])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  for _, id in ipairs(old) do redis.call('DEL', ARGV[1] .. id) end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
end
redis.call('PEXPIRE', KEYS[1], ttl)
return now`;

const LIST_RESULTS = `${NOW_US}
return redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[1]) * 1000, '+inf', 'WITHSCORES')`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface Scripts {
  acTouch(session: string, auth: string, ttl: number): Promise<string | null>;
  acDelete(session: string, auth: string, idx: string, resultPrefix: string): Promise<number>;
  acTakeToken(bucket: string, cap: number): Promise<[number, number]>;
  acPutResult(idx: string, resultPrefix: string, id: string, text: string, ttl: number, max: number): Promise<number>;
  acListResults(idx: string, ttl: number): Promise<string[]>;
  acRelease(key: string, token: string): Promise<number>;
}

export interface RedisStoreOptions {
  /**
   * Per-command deadline; a store call fails (closed) after this. Default 1500 ms: a tool call makes several
   * store calls, and for 500 ms after one failure the rest fail at once (B6: an answer within 2 s even when
   * Redis hangs). Not lower: on a starved machine the event loop itself can lag a second, which would read as
   * a Redis timeout.
   */
  commandTimeoutMs?: number;
  logger?: Logger;
}

import { checkRedisUrl, redactRedisUrl, redisTarget, type RedisTarget } from './url.js';
import { classifyRedisError, missingDatabase, notStandalone, reachedRedis, type StateProblem } from './redis-problems.js';

export { checkRedisUrl, redactRedisUrl };

/** After a connection check found a Redis the store cannot use (a replica, a cluster node), how soon to look again. */
const RECHECK_MS = 2000;

export class RedisStateStore implements StateStore {
  readonly kind = 'redis' as const;
  readonly shared = true;
  private readonly client: Redis;
  private readonly scripts: Scripts;
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
  private recheck: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly waiters = new Set<() => void>();
  private readonly recovered: Array<() => void> = [];
  /** When the last command failed: for a moment after, calls fail at once instead of each waiting out a timeout. */
  private failedAt = 0;

  constructor(url: string, options: RedisStoreOptions = {}) {
    this.target = redisTarget(url);
    this.where = redactRedisUrl(url);
    this.logger = options.logger;
    const u = checkRedisUrl(url);
    if (u.password !== '') this.logger?.addSecret(decodeURIComponent(u.password));
    if (u.password !== '') this.logger?.addSecret(u.password);
    const timeout = options.commandTimeoutMs ?? 1500;
    const t = this.target;
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
    });
    this.client.on('connect', () => {
      this.dbRefused = false;
    });
    this.client.on('ready', () => void this.checkConnection());
    this.client.on('error', (err: Error) => {
      // ioredis emits connection and handshake errors here (without a listener they would be unhandled).
      const p = classifyRedisError(err, t.tls);
      // a refused SELECT: the connection check says which database and how many there are
      if (p.code === 'db') this.dbRefused = true;
      else this.setProblem(p);
    });
    this.client.on('close', () => {
      if (this.usable) this.setProblem({ code: 'unreachable', detail: 'the connection to Redis closed' });
      this.usable = false;
    });
    this.client.defineCommand('acTouch', { numberOfKeys: 2, lua: TOUCH });
    this.client.defineCommand('acDelete', { numberOfKeys: 3, lua: DELETE });
    this.client.defineCommand('acTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
    this.client.defineCommand('acPutResult', { numberOfKeys: 1, lua: PUT_RESULT });
    this.client.defineCommand('acListResults', { numberOfKeys: 1, lua: LIST_RESULTS, readOnly: true });
    this.client.defineCommand('acRelease', { numberOfKeys: 1, lua: RELEASE });
    this.scripts = this.client as unknown as Scripts;
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
      } else {
        const server = String(await this.client.info('server'));
        const mode = /^redis_mode:(\w+)/m.exec(server)?.[1] ?? 'standalone';
        if (mode !== 'standalone') found = notStandalone(mode);
        else if (/^role:slave/m.test(String(await this.client.info('replication')))) {
          found = { code: 'read-only', detail: 'this Redis is a read-only replica (role:slave); point the state store URL at the primary' };
        } else if (this.target.db !== 0 && (await this.selectedDatabase()) !== this.target.db) {
          found = missingDatabase(this.target.db, await this.databaseCount());
        }
      }
    } catch (err) {
      found = classifyRedisError(err, this.target.tls);
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
    this.failedAt = 0;
    this.problem = { code: 'connecting', detail: 'connecting' };
    this.logged = undefined;
    this.logger?.log('info', { event: 'state_store_up', store: 'redis', target: this.where, db: this.target.db });
    for (const w of [...this.waiters]) w();
    if (again) for (const l of this.recovered) l();
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

  /** Records why the store is not usable; logged once per change (the reason, never the URL's password). */
  private setProblem(p: StateProblem): void {
    if (this.closed) return;
    const wasUsable = this.usable;
    if (p.code !== 'loading' || !this.usable) this.usable = false;
    this.problem = p;
    const key = `${p.code} ${p.detail}`;
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
    const settled = (): boolean => this.usable || this.problem.code === 'tls' || (reachedRedis(this.problem) && this.problem.code !== 'loading');
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

  /** Resolves once connected and checked, or false after `ms` (the server then starts degraded and keeps trying). */
  async waitUntilReady(ms: number): Promise<boolean> {
    if (this.usable) return true;
    return new Promise((resolve) => {
      const done = () => {
        if (!this.usable) return;
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(true);
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

  /** Runs one store operation; any failure is STATE_UNAVAILABLE (no connection details, no secrets). */
  private async run<T>(op: () => Promise<T>): Promise<T> {
    if (!this.usable || this.client.status !== 'ready' || Date.now() - this.failedAt < FAIL_FAST_MS) throw stateUnavailable();
    try {
      return await op();
    } catch (err) {
      this.failedAt = Date.now();
      const p = classifyRedisError(err, this.target.tls);
      this.logger?.log('warn', { event: 'state_store_error', store: 'redis', reason: p.code });
      // A reply that says the store cannot be used as it is (a failover made this node a replica, a password
      // changed): not usable until a fresh connection passes the check again.
      if (p.code === 'read-only' || p.code === 'auth' || p.code === 'not-standalone') {
        this.setProblem(p);
        this.client.disconnect(true);
      }
      throw stateUnavailable();
    }
  }

  private keys(key: SessionKey) {
    const p = NS + sessionPrefix(key);
    return { session: `${p}:session`, auth: `${p}:auth`, results: `${p}:results`, result: `${p}:result:` };
  }

  /** The Redis keys of a session (tests check they are gone after DELETE, A16). */
  keysOf(key: SessionKey): string[] {
    const k = this.keys(key);
    return [k.session, k.auth, k.results];
  }

  async createSession(key: SessionKey, record: SessionRecord, ttlMs: number): Promise<void> {
    await this.run(() => this.client.set(this.keys(key).session, JSON.stringify(record), 'PX', ttlMs));
  }

  async touchSession(key: SessionKey, ttlMs: number): Promise<SessionRecord | undefined> {
    const k = this.keys(key);
    const raw = await this.run(() => this.scripts.acTouch(k.session, k.auth, ttlMs));
    if (raw === null || raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as SessionRecord;
    } catch {
      return undefined;
    }
  }

  async deleteSession(key: SessionKey): Promise<void> {
    const k = this.keys(key);
    await this.run(() => this.scripts.acDelete(k.session, k.auth, k.results, k.result));
  }

  async authorize(key: SessionKey, entries: ReadonlyArray<{ name: string; fingerprint: string }>, ttlMs: number): Promise<void> {
    if (entries.length === 0) return;
    const auth = this.keys(key).auth;
    const fields: string[] = entries.flatMap((e) => [e.name, e.fingerprint]);
    await this.run(async () => {
      const res = await this.client.multi().hset(auth, ...fields).pexpire(auth, ttlMs).exec();
      const failed = res?.find(([e]) => e !== null);
      if (!res || failed) throw failed?.[0] ?? new Error('MULTI aborted');
    });
  }

  async authorizedFingerprint(key: SessionKey, name: string): Promise<string | undefined> {
    const v = await this.run(() => this.client.hget(this.keys(key).auth, name));
    return v ?? undefined;
  }

  async authorizedCount(key: SessionKey): Promise<number> {
    return this.run(() => this.client.hlen(this.keys(key).auth));
  }

  async takeToken(principal: string, bucket: string, perMinute: number): Promise<RateDecision> {
    if (perMinute <= 0) return { ok: true };
    const [ok, retry] = await this.run(() => this.scripts.acTakeToken(`${NS}${principalPrefix(principal)}:rate:${bucket}`, perMinute));
    return ok === 1 ? { ok: true } : { ok: false, retryAfterMs: Number(retry) };
  }

  async putResult(key: SessionKey, text: string, ttlMs: number, max: number): Promise<string> {
    const k = this.keys(key);
    const id = randomUUID();
    await this.run(() => this.scripts.acPutResult(k.results, k.result, id, text, ttlMs, max));
    return id;
  }

  async getResult(key: SessionKey, id: string): Promise<string | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const v = await this.run(() => this.client.get(this.keys(key).result + id));
    return v ?? undefined;
  }

  async listResults(key: SessionKey, ttlMs: number): Promise<StoredResultInfo[]> {
    const flat = await this.run(() => this.scripts.acListResults(this.keys(key).results, ttlMs));
    const out: StoredResultInfo[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: flat[i] as string, createdAt: Math.floor(Number(flat[i + 1]) / 1000) });
    return out;
  }

  async claimIdempotencyKey(principal: string, idempotencyKey: string, ttlMs: number): Promise<{ claimed: boolean; release: () => Promise<void> }> {
    const k = `${NS}${principalPrefix(principal)}:idem:${idempotencyKey}`;
    const token = randomUUID();
    const set = await this.run(() => this.client.set(k, token, 'PX', ttlMs, 'NX'));
    if (set !== 'OK') return { claimed: false, release: async () => undefined };
    return {
      claimed: true,
      release: async () => {
        // Best effort: if Redis is down now, the key expires by its TTL.
        await this.scripts.acRelease(k, token).catch(() => undefined);
      },
    };
  }

  async sharedSecret(name: string, candidate: string): Promise<string> {
    const k = `${NS}secret:${name}`;
    return this.run(async () => {
      await this.client.set(k, candidate, 'NX');
      const v = await this.client.get(k);
      if (v === null) throw new Error('the shared secret vanished between SET NX and GET');
      return v;
    });
  }

  async health(): Promise<StateHealth> {
    const down = (p: StateProblem): StateHealth => ({
      ok: false,
      kind: 'redis',
      reachable: reachedRedis(p),
      // Known only past AUTH: a Redis that answered anything but an auth error accepted the credentials.
      authenticated: reachedRedis(p) && p.code !== 'auth',
      code: p.code,
      detail: `${STATE_UNAVAILABLE_MESSAGE} (${p.detail})`,
    });
    if (!this.usable || this.client.status !== 'ready') return down(this.problem);
    try {
      await this.client.ping();
      return { ok: true, kind: 'redis', reachable: true, authenticated: true };
    } catch (err) {
      return down(classifyRedisError(err, this.target.tls));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.usable = false;
    clearTimeout(this.recheck);
    for (const w of [...this.waiters]) w();
    this.client.disconnect();
  }

  /** The raw client (tests: EXISTS, TTL on the keys). */
  get raw(): Redis {
    return this.client;
  }
}
