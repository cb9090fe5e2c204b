// The built `serve` over stdio, driven with raw lines: what a test writes reaches stdin byte for byte (garbage
// included) and every stdout line is kept, so a test can see answers the SDK client would drop or never send for.
// `npm run build` first (CI does). Test-only.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { REPO_ROOT, builtCli, fixtureRegistry } from './mcp.js';

export interface StdioLines {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line so far, parsed (a line that is not JSON fails the test: stdout is the protocol). */
  messages(): Array<Record<string, any>>;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Writes one line: a string as is, anything else as JSON. */
  send(line: unknown): void;
  /** Waits for the answer with this id. */
  response(id: number | string): Promise<Record<string, any>>;
  /** Ends stdin and waits for the exit (the stderr log is complete then). */
  end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `api-catalog serve --registry <petstore fixture>` over stdio, with the given extra environment. */
export function spawnStdioServe(env: Record<string, string> = {}): StdioLines {
  const child = spawn(process.execPath, [builtCli(), 'serve', '--registry', fixtureRegistry('petstore')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  const lines: string[] = [];
  let buf = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      resolve({ code, signal });
      for (const w of waiters.splice(0)) w();
    }),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const messages = (): Array<Record<string, any>> => lines.map((l) => JSON.parse(l) as Record<string, any>);
  return {
    child,
    messages,
    stderr: () => err,
    exited,
    send: (line) => child.stdin.write((typeof line === 'string' ? line : JSON.stringify(line)) + '\n'),
    async response(id) {
      for (;;) {
        const hit = messages().find((m) => m.id === id);
        if (hit) return hit;
        if (gone) throw new Error(`serve exited without answering id ${String(id)}; stderr:\n${err.slice(-2000)}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    async end() {
      child.stdin.end();
      return exited;
    },
  };
}
