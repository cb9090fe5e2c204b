// The shared state store on Redis (ioredis): every update is one atomic command, MULTI or Lua script (B10);
// keys are `ac:<principal>:<session>:…` with TTLs (B4, B5). Every failure becomes STATE_UNAVAILABLE (B6); the
// connection, its checks and its problems are redis-connection.ts's. Never logs the URL.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { RedisConnection } from './redis-connection.js';
import type { StateProblem } from './redis-problems.js';
import { RedisSignals, signalChannel } from './redis-signals.js';
import { RESULT_BUDGET_BYTES, principalPrefix, sessionPrefix, stateUnavailable, type RateDecision, type SessionKey, type SessionRecord, type SessionSignal, type StateHealth, type StateStore, type StoredResultInfo } from './store.js';
import { checkRedisUrl, redactRedisUrl, redisTarget } from './url.js';

const NS = 'ac:';

const TOUCH = `
local rec = redis.call('GET', KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
if rec then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return rec`;

// Every replica's stored results together stay within one byte budget: KEYS of the budget are a sorted set of
// result keys by expiry (µs), a hash of their sizes and their total. FORGET takes a result out of the count.
const FORGET = `
local function forget(k)
  redis.call('ZREM', KEYS[BUDGET], k)
  local s = redis.call('HGET', KEYS[BUDGET + 1], k)
  if s then
    redis.call('HDEL', KEYS[BUDGET + 1], k)
    redis.call('DECRBY', KEYS[BUDGET + 2], s)
  end
end`;

const DELETE = `local BUDGET = 4
${FORGET}
local ids = redis.call('ZRANGE', KEYS[3], 0, -1)
for _, id in ipairs(ids) do
  redis.call('DEL', ARGV[1] .. id)
  forget(ARGV[1] .. id)
end
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

const PUT_RESULT = `local BUDGET = 2
${FORGET}
${NOW_US}
local ttl = tonumber(ARGV[4])
local budget = tonumber(ARGV[6])
local size = string.len(ARGV[3])
-- a result larger than the whole budget is not kept, and nothing is evicted for it (as in one process's memory)
if size > budget then return -1 end
local key = ARGV[1] .. ARGV[2]
-- results past their expiry are gone from Redis: out of the count too
for _, k in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do forget(k) end
-- nothing left to count (the budget's keys never expire: this prune keeps them small), so nothing is held
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('SET', KEYS[4], '0') end
-- then the oldest results of every session, until this one fits
while tonumber(redis.call('GET', KEYS[4]) or '0') + size > budget do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #oldest == 0 then break end
  redis.call('DEL', oldest[1])
  local owner, id = string.match(oldest[1], '^(.*):result:([^:]*)$')
  if owner then redis.call('ZREM', owner .. ':results', id) end
  forget(oldest[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl * 1000)
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] and tonumber(last[2]) >= now then now = tonumber(last[2]) + 1 end
redis.call('SET', key, ARGV[3], 'PX', ttl)
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('ZADD', KEYS[2], now + ttl * 1000, key)
redis.call('HSET', KEYS[3], key, size)
redis.call('INCRBY', KEYS[4], size)
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  for _, id in ipairs(old) do
    redis.call('DEL', ARGV[1] .. id)
    forget(ARGV[1] .. id)
  end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
end
redis.call('PEXPIRE', KEYS[1], ttl)
return now`;

const LIST_RESULTS = `${NOW_US}
return redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[1]) * 1000, '+inf', 'WITHSCORES')`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// The claims' epoch (StateStore.claimEpoch), one key without TTL: `<server>.<random>`, where <server> is a digest of
// this Redis's run_id (new at every start) and replication id (new when a replica is promoted), read here, in the
// script, so that no restart or failover between a replica's look and the claim can slip by. A Redis restarted from
// an RDB snapshot or an AOF that missed its last second, or a replica promoted while behind, may bring the key back
// without the claims made after it was saved or replicated: its <server> differs, so the key is replaced and every
// state asked under the old value is stale. ARGV[1] '0': this user may not run INFO (the connection check found
// NOPERM; not asked again, which would fill the ACL log): no <server> part, and only a Redis that lost the key
// (empty, FLUSHALL, eviction) gets a new epoch.
const EPOCH_SERVER = `
local function server()
  if ARGV[1] ~= '1' then return '' end
  local s = redis.pcall('INFO', 'server')
  local r = redis.pcall('INFO', 'replication')
  if type(s) ~= 'string' or type(r) ~= 'string' then return '' end
  local run = string.match(s, 'run_id:(%x+)')
  if not run then return '' end
  return string.sub(redis.sha1hex(run .. ':' .. (string.match(r, 'master_replid:(%x+)') or '')), 1, 16)
end
local function current(v, id)
  return v and (id == '' or string.sub(v, 1, #id + 1) == id .. '.')
end`;

const CLAIM_EPOCH = `${EPOCH_SERVER}
local id = server()
local v = redis.call('GET', KEYS[1])
if current(v, id) then return v end
v = id .. '.' .. ARGV[2]
redis.call('SET', KEYS[1], v)
return v`;

// -1: the epoch is not ARGV[2] any more (nothing claimed); 1: claimed now; 0: claimed before.
const CLAIM_IN_EPOCH = `${EPOCH_SERVER}
local v = redis.call('GET', KEYS[1])
if v ~= ARGV[2] or not current(v, server()) then return -1 end
if redis.call('SET', KEYS[2], '1', 'PX', ARGV[3], 'NX') then return 1 end
return 0`;

/** The claims' epoch key (docs/DEPLOY.md, "What Redis holds"). */
const EPOCH_KEY = `${NS}secret:confirm-epoch`;

interface Scripts {
  acTouch(session: string, auth: string, ttl: number): Promise<string | null>;
  acDelete(session: string, auth: string, idx: string, budgetIdx: string, budgetSizes: string, budgetTotal: string, resultPrefix: string): Promise<number>;
  acTakeToken(bucket: string, cap: number): Promise<[number, number]>;
  acPutResult(idx: string, budgetIdx: string, budgetSizes: string, budgetTotal: string, resultPrefix: string, id: string, text: string, ttl: number, max: number, budget: number): Promise<number>;
  acListResults(idx: string, ttl: number): Promise<string[]>;
  acRelease(key: string, token: string): Promise<number>;
  acClaimEpoch(epoch: string, info: string, candidate: string): Promise<string>;
  acClaimInEpoch(epoch: string, claim: string, info: string, expected: string, ttl: number): Promise<number>;
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
  /**
   * Bytes of stored result text all replicas keep in this Redis together (default RESULT_BUDGET_BYTES, 64 MiB):
   * the oldest results of any session are evicted first when a new one needs room.
   */
  resultBudgetBytes?: number;
}

/** The shared result budget's keys: result keys by expiry, their sizes, their total. */
const BUDGET_KEYS = [`${NS}results:expiry`, `${NS}results:size`, `${NS}results:bytes`] as const;

export { checkRedisUrl, redactRedisUrl };

export class RedisStateStore implements StateStore {
  readonly kind = 'redis' as const;
  readonly shared = true;
  private readonly conn: RedisConnection;
  private readonly client: Redis;
  private readonly scripts: Scripts;
  private readonly resultBudgetBytes: number;
  private readonly signals: RedisSignals;

  constructor(url: string, options: RedisStoreOptions = {}) {
    this.resultBudgetBytes = options.resultBudgetBytes ?? RESULT_BUDGET_BYTES;
    this.conn = new RedisConnection(url, options);
    this.client = this.conn.client;
    this.signals = new RedisSignals(this.client, signalChannel(redisTarget(url).db), options.logger);
    this.client.defineCommand('acTouch', { numberOfKeys: 2, lua: TOUCH });
    this.client.defineCommand('acDelete', { numberOfKeys: 6, lua: DELETE });
    this.client.defineCommand('acTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
    this.client.defineCommand('acPutResult', { numberOfKeys: 4, lua: PUT_RESULT });
    this.client.defineCommand('acListResults', { numberOfKeys: 1, lua: LIST_RESULTS, readOnly: true });
    this.client.defineCommand('acRelease', { numberOfKeys: 1, lua: RELEASE });
    this.client.defineCommand('acClaimEpoch', { numberOfKeys: 1, lua: CLAIM_EPOCH });
    this.client.defineCommand('acClaimInEpoch', { numberOfKeys: 2, lua: CLAIM_IN_EPOCH });
    this.scripts = this.client as unknown as Scripts;
  }

  /** Why the store is not usable now; undefined when it is. */
  get currentProblem(): StateProblem | undefined {
    return this.conn.currentProblem;
  }

  /** Resolves when usable (undefined) or with the problem Redis answered with, or the one seen after `ms`. */
  waitForVerdict(ms: number): Promise<StateProblem | undefined> {
    return this.conn.waitForVerdict(ms);
  }

  /** Resolves once connected and checked, or false after `ms` (the server then starts unready and keeps trying). */
  waitUntilReady(ms: number): Promise<boolean> {
    return this.conn.waitUntilReady(ms);
  }

  onRecovered(listener: () => void): void {
    this.conn.onRecovered(listener);
  }

  /** Runs one store operation; any failure is STATE_UNAVAILABLE (no connection details, no secrets). */
  private async run<T>(op: () => Promise<T>): Promise<T> {
    if (!this.conn.open) throw stateUnavailable();
    try {
      return await op();
    } catch (err) {
      this.conn.commandFailed(err);
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
    await this.run(() => this.scripts.acDelete(k.session, k.auth, k.results, ...BUDGET_KEYS, k.result));
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

  /** Undefined (not kept, nothing evicted) for a text larger than the whole result budget. */
  async putResult(key: SessionKey, text: string, ttlMs: number, max: number): Promise<string | undefined> {
    const k = this.keys(key);
    const id = randomUUID();
    const at = await this.run(() => this.scripts.acPutResult(k.results, ...BUDGET_KEYS, k.result, id, text, ttlMs, max, this.resultBudgetBytes));
    return at === -1 ? undefined : id;
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

  async claimOnce(principal: string, name: string, ttlMs: number): Promise<boolean> {
    const k = `${NS}${principalPrefix(principal)}:once:${name}`;
    return (await this.run(() => this.client.set(k, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'))) === 'OK';
  }

  async claimEpoch(): Promise<string> {
    return this.run(() => this.scripts.acClaimEpoch(EPOCH_KEY, this.conn.canRunInfo ? '1' : '0', randomUUID()));
  }

  async claimOnceInEpoch(principal: string, name: string, ttlMs: number, epoch: string): Promise<'claimed' | 'used' | 'stale'> {
    const k = `${NS}${principalPrefix(principal)}:once:${name}`;
    const r = await this.run(() => this.scripts.acClaimInEpoch(EPOCH_KEY, k, this.conn.canRunInfo ? '1' : '0', epoch, Math.max(1, Math.ceil(ttlMs))));
    return r === 1 ? 'claimed' : r === 0 ? 'used' : 'stale';
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

  async publishSignal(signal: SessionSignal): Promise<void> {
    if (!this.conn.open) throw stateUnavailable();
    // Not through run(): a refused PUBLISH (an ACL without the channel) says nothing about the store's other commands.
    await this.signals.publish(signal).catch(() => {
      throw stateUnavailable();
    });
  }

  onSignal(listener: (signal: SessionSignal) => void): () => void {
    return this.signals.listen(listener);
  }

  health(): Promise<StateHealth> {
    return this.conn.health();
  }

  close(): Promise<void> {
    this.signals.close();
    return this.conn.close();
  }

  /** The raw client (tests: EXISTS, TTL on the keys). */
  get raw(): Redis {
    return this.client;
  }
}
