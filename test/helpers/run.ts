// A child process run to its end without blocking the test worker. spawnSync would block it: an import of a large
// spec takes seconds alone and minutes beside another suite on 2 cores, and a worker whose event loop is blocked
// for a minute misses vitest's own RPC deadline ("Timeout calling onTaskUpdate", an unhandled error that fails the
// run though every test passed). Use this for anything slower than a second.
import { spawn } from 'node:child_process';

export interface RunResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
