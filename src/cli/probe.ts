// The stdio probe, answered before `serve` loads: a v2 client pinned to 2026-07-28 or in `auto` mode spawns the
// server once only to send `server/discover`, then ends its stdin and sends SIGTERM, and spawns the real session
// only after that process exited. Loading the server (the MCP SDK, zod, search) costs that probe ~100 ms; reading
// the first line first costs a normal start nothing (a client writes its opening message at spawn). Whatever is
// not a probe's request is put back into stdin (`unshift`) for the full server, which reads it as if untouched.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { discoverAnswer } from '../server/discover.js';

/** How long to wait for the opening line before loading the server anyway (a client writes it at spawn). */
const FIRST_LINE_MS = 50;
/** A first line longer than this is no probe: hand it over at once. */
const MAX_PEEK_BYTES = 64 * 1024;

/**
 * Whether this `serve` invocation may answer a probe early: stdio, and no option the answer depends on (the tool
 * prefix names the tools in the instructions, which say that describe is required unless --no-require-describe;
 * a config file may set either).
 */
export function probeEligible(args: readonly string[], env: Record<string, string | undefined>): boolean {
  const blocking = ['--http', '--config', '--prefix', '--no-require-describe', '--help', '-h'];
  if (args.some((a) => blocking.includes(a) || blocking.some((b) => a.startsWith(`${b}=`)))) return false;
  return !env.API_CATALOG_CONFIG && !env.API_CATALOG_TOOL_PREFIX && env.API_CATALOG_NO_REQUIRE_DESCRIBE === undefined;
}

/**
 * Reads from `stdin` until `until(bytes so far)`, its end (`ended`: when `watchEnd`) or `ms`. Paused mode ('readable'
 * and sized reads), so that nothing flows past and no read of the last bytes schedules stdin's 'end': after it, the
 * bytes can be put back and the server's transport reads stdin as if untouched (end included).
 */
function peek(stdin: Readable, ms: number, until: (read: Buffer) => boolean, watchEnd = false): Promise<{ read: Buffer; ended: boolean }> {
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    let ended = false;
    const done = (): void => {
      clearTimeout(timer);
      stdin.off('readable', onReadable);
      stdin.off('end', onEnd);
      stdin.off('error', done);
      resolve({ read: Buffer.concat(chunks), ended });
    };
    const onReadable = (): void => {
      while (stdin.readableLength > 0) {
        const chunk = stdin.read(stdin.readableLength) as Buffer | string | null;
        if (chunk === null) break;
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        if (until(Buffer.concat(chunks))) return done();
      }
      // nothing buffered: a plain read() lets an ended stdin emit 'end' (only where that is what we wait for)
      if (watchEnd) stdin.read();
    };
    const onEnd = (): void => {
      ended = true;
      done();
    };
    const timer = ms === Infinity ? undefined : setTimeout(done, ms);
    stdin.on('readable', onReadable);
    if (watchEnd) stdin.on('end', onEnd);
    // (a stdin that fails is destroyed: the server's transport sees that when it starts)
    stdin.on('error', done);
  });
}

/**
 * Reads the opening line of `stdin`. A `server/discover` probe is answered on `stdout`; then, when stdin ends or
 * SIGTERM/SIGINT arrives, resolves 'answered' (nothing left to do). Anything else — another opening, none within
 * FIRST_LINE_MS, input after the probe's request — is put back and resolves 'serve'.
 */
export async function answerProbe(stdin: Readable, stdout: Writable): Promise<'answered' | 'serve'> {
  const { read } = await peek(stdin, FIRST_LINE_MS, (b) => b.includes(10) || b.length > MAX_PEEK_BYTES);
  const newline = read.indexOf(10);
  const answer = newline < 0 ? undefined : discoverAnswer(read.subarray(0, newline).toString('utf8'));
  if (answer === undefined) return putBack(stdin, read);
  // the probe's owner ends stdin and sends SIGTERM right after the answer: listen before answering
  let signalled!: () => void;
  const signal = new Promise<'answered'>((resolve) => (signalled = () => resolve('answered')));
  for (const s of ['SIGTERM', 'SIGINT'] as const) process.once(s, signalled);
  await new Promise<void>((resolve) => stdout.write(answer + '\n', () => resolve()));
  const rest = read.subarray(newline + 1);
  const next = rest.length > 0 ? { read: rest, ended: false } : await Promise.race([signal, peek(stdin, Infinity, (b) => b.length > 0, true)]);
  for (const s of ['SIGTERM', 'SIGINT'] as const) process.off(s, signalled);
  if (next === 'answered' || next.ended) return 'answered';
  // another client goes on with a session on this process: the full server serves the rest
  return putBack(stdin, next.read);
}

let handedOver: Readable | undefined;

/** The stream `serve` reads MCP from when the opening was read here (see putBack); else undefined (stdin). */
export function serveInput(): Readable | undefined {
  return handedOver;
}

/**
 * Gives the full server `bytes`, then the rest of stdin. A new stream rather than stdin itself: bytes read here
 * cannot be put back in front of an end that stdin already read. Its end comes as a pipe's does, a loop turn after
 * the reader took the data, so that a client that wrote its requests and closed stdin at once is answered.
 */
function putBack(stdin: Readable, bytes: Buffer): 'serve' {
  const input = new PassThrough();
  if (bytes.length > 0) input.write(bytes);
  let reading = false;
  let ended = false;
  const end = (): void => {
    if (reading && ended) setTimeout(() => setImmediate(() => input.end()), 0);
  };
  input.once('resume', () => {
    reading = true;
    end();
  });
  stdin.on('end', () => {
    ended = true;
    end();
  });
  stdin.on('error', (err) => input.destroy(err));
  stdin.pipe(input, { end: false });
  handedOver = input;
  return 'serve';
}
