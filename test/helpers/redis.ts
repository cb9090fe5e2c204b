// A real redis-server for tests: started on a free loopback port with no persistence of its own (`--save ''
// --appendonly no`) in a temp dir, optionally with a password, with AOF (`appendonly: true`: what docs/DEPLOY.md
// asks production to run), a TLS port (`tls`: certificates from ./tls.ts) or extra arguments; stop/start keep the
// port (and, with `stop({ save: true })` or AOF, the data). Fails when redis-server is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { Redis } from 'ioredis';
import { tempDir } from './temp.js';

export interface TestRedis {
  port: number;
  /** The TLS port (with `tls`), and `rediss://localhost:<tlsPort>[/db]`. */
  tlsPort?: number;
  tlsUrl?: string;
  /** The folder Redis runs in (its AOF and dump files). */
  dir: string;
  /** `redis://[:password@]127.0.0.1:port/db`. */
  url: string;
  password?: string;
  /** Sends one command (e.g. `EXISTS key`, `PTTL key`, `KEYS *`) and returns the reply. */
  command(...args: string[]): Promise<unknown>;
  /** Stops the server; `save` writes its data first (SHUTDOWN SAVE), so the next start() loads it. */
  stop(options?: { save?: boolean }): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT: a hung Redis that accepts connections but never answers. */
  pause(): void;
  resume(): void;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

export function redisServerBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server || ls /usr/bin/redis-server /usr/sbin/redis-server 2>/dev/null | head -1'], { encoding: 'utf8' });
  const path = found.stdout.trim().split('\n')[0];
  if (!path) throw new Error('redis-server is not installed: `apt-get install redis-server` (.ci/run installs it); the state-store tests need a real Redis');
  return path;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** One command through a short-lived ioredis client (a real Redis client, not a hand-written protocol). */
async function oneCommand(url: string, args: string[]): Promise<unknown> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    return await client.call(args[0] as string, ...args.slice(1));
  } finally {
    client.disconnect();
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` right now. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = new Socket();
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.connect(port, '127.0.0.1');
  });
}

async function waitForPort(port: number, up: boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const open = await portOpen(port);
    if (open === up) return;
    if (Date.now() > until) throw new Error(`redis on port ${port} did not ${up ? 'start' : 'stop'} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface StartRedisOptions {
  password?: string;
  db?: number;
  port?: number;
  /** Append-only file on, fsync on every write (`--appendonly yes --appendfsync always`). */
  appendonly?: boolean;
  /** A TLS port besides the plain one, with this server certificate (clients need not present one). */
  tls?: { cert: string; key: string; ca: string };
  /** More redis-server arguments (`--replicaof`, `--cluster-enabled yes`, `--sentinel`, ...). */
  args?: string[];
  /** A config file to start from (Sentinel needs one it can write). */
  configFile?: string;
}

/** Starts redis-server on a free loopback port. */
export async function startRedis(options: StartRedisOptions = {}): Promise<TestRedis> {
  const bin = redisServerBinary();
  const port = options.port ?? (await freePort());
  const tlsPort = options.tls !== undefined ? await freePort() : undefined;
  const dir = tempDir('ac-redis-');
  let child: ChildProcess | undefined;
  let log = '';
  const args = [...(options.configFile !== undefined ? [options.configFile] : []), '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--dbfilename', 'dump.rdb', '--protected-mode', 'yes'];
  args.push(...(options.appendonly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
  if (options.tls !== undefined && tlsPort !== undefined) {
    args.push('--tls-port', String(tlsPort), '--tls-cert-file', options.tls.cert, '--tls-key-file', options.tls.key, '--tls-ca-cert-file', options.tls.ca, '--tls-auth-clients', 'no');
  }
  args.push(...(options.args ?? []));
  if (options.password) args.push('--requirepass', options.password);
  const start = async () => {
    child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString('utf8')).slice(-4000)));
    child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString('utf8')).slice(-4000)));
    try {
      await waitForPort(port, true);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${log}`);
    }
  };
  await start();
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  const db = options.db !== undefined ? `/${options.db}` : '';
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
    });
  const url = `redis://${auth}127.0.0.1:${port}${db}`;
  const redis: TestRedis = {
    port,
    dir,
    ...(tlsPort !== undefined ? { tlsPort, tlsUrl: `rediss://${auth}localhost:${tlsPort}${db}` } : {}),
    url,
    ...(options.password ? { password: options.password } : {}),
    command: (...a) => oneCommand(url, a),
    async stop(o = {}) {
      if (o.save) await oneCommand(url, ['SHUTDOWN', 'SAVE']).catch(() => undefined);
      else child?.kill('SIGTERM');
      await exited();
      await waitForPort(port, false);
    },
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async close() {
      child?.kill('SIGCONT');
      child?.kill('SIGKILL');
      await exited();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return redis;
}
