// Starts Stoplight Prism (devDependency) as a validating mock of a real spec on 127.0.0.1 for tests:
// `prism mock <spec> --errors -h 127.0.0.1 -p <free port>`, waits for "Prism is listening", and stops it.
// With --errors Prism answers 422 (or sets `sl-violations`) when a request breaks the spec.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json is), from this file. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Prism {
  url: string;
  /** Prism's stdout + stderr so far (for failure messages). */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/**
 * Starts Prism on `spec` (absolute or repo-relative); rejects after `timeoutMs` (default 5 min) without "listening".
 * Generous on purpose: Prism reads GitHub's 13 MB spec in ~20 s on a quiet machine and took over 90 s while a second
 * copy of the suite ran beside it; the limit only turns a hang into a named failure.
 */
export async function startPrism(spec: string, timeoutMs = 300_000): Promise<Prism> {
  const specPath = resolve(repoRoot, spec);
  if (!existsSync(specPath)) throw new Error(`prism helper: spec not found: ${specPath}`);
  const bin = join(repoRoot, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  if (!existsSync(bin)) throw new Error('prism helper: @stoplight/prism-cli is not installed (npm install)');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [bin, 'mock', specPath, '--errors', '-h', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=2048' },
  });
  let output = '';
  const append = (b: Buffer): void => {
    output += b.toString('utf8');
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    }
  };
  try {
    await new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`prism helper: not listening after ${timeoutMs} ms\n${output.slice(-2000)}`)), timeoutMs);
      const check = (): void => {
        if (output.includes('Prism is listening')) {
          clearTimeout(timer);
          res();
        }
      };
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        rej(new Error(`prism helper: prism exited with ${String(code)}\n${output.slice(-2000)}`));
      });
    });
    // "listening" is not "answering": on a loaded machine the first requests right after it were reset
    // (ECONNRESET). Wait until Prism answers one request (any status), then hand it out.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await (await fetch(`http://127.0.0.1:${port}/`)).text();
        break;
      } catch (err) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`prism helper: listening but not answering: ${String(err)}\n${output.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}`, log: () => output, close };
}
