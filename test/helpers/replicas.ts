// Spawns `api-catalog serve --http` replicas of the built CLI (npm run build first) on free loopback ports (or a
// given one: a restarted replica keeps its place behind the balancer), waits for /readyz, collects stderr, and
// stops (SIGTERM, waiting for the exit) or kills them. Test-only.
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT, builtCli } from './mcp.js';
import { freePort } from './redis.js';

export interface Replica {
  port: number;
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGKILL: a crash, no graceful close. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves with the exit code and signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts one replica; waits for /readyz 200 (or any answer with `healthy: false`, e.g. Redis down on purpose).
 * `port`: listen there (a replica restarted in place); default a free one.
 */
export async function startReplica(args: string[], env: Record<string, string>, options: { healthy?: boolean; port?: number } = {}): Promise<Replica> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', String(port), ...args], {
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      await res.text();
      if (res.status === 200 || options.healthy === false) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > until) throw new Error(`replica on port ${port} did not become healthy:\n${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    exited,
    stderr: () => err,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(force);
    },
  };
}
