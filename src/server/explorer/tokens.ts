// o200k_base token counts for the explorer's "What the agent receives" panel (the encoding docs/BENCHMARKS.md counts
// with), kept off the request path. Loading js-tiktoken and its rank table is seconds of synchronous CPU and about
// 170 MB, so it happens in a worker thread, started on first use (never at start-up), and never in this thread: the
// server keeps answering MCP calls and probes meanwhile. Until the worker is ready a page shows a labelled estimate and
// queues the exact count, so the next view shows it; once ready a count is a message round trip (milliseconds).
// Counts are cached by text; an idle worker is ended and its memory given back.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

export const TOKENIZER_NAME = 'o200k_base';

/** An exact count, or an estimate with the reason the exact one is not known yet. */
export type TokenCount = { exact: true; tokens: number } | { exact: false; estimate: number; reason: 'loading' | 'unavailable' };

/**
 * Characters per o200k token on describe_tools' compact JSON: the median over the GitHub catalog is 4.2-4.4 at every
 * level (most operations within 3.8-4.8).
 */
const CHARS_PER_TOKEN = 4.25;
/** Texts whose count is remembered (a text's SHA-256 maps to its count; oldest forgotten first). */
const CACHE_MAX = 4096;
/** A worker with nothing to do for this long is ended (its ~170 MB given back); the next count starts another. */
const IDLE_MS = 10 * 60_000;

// CommonJS, run by the worker: js-tiktoken is resolved from this module's own location (node_modules, next to the
// bundle or the sources), loaded once, then each message is one count. Special-token text is counted as text.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
let encoder;
try {
  const load = createRequire(workerData.base);
  const { Tiktoken } = load('js-tiktoken/lite');
  const ranks = load('js-tiktoken/ranks/o200k_base');
  encoder = new Tiktoken(ranks.default ?? ranks);
} catch (err) {
  parentPort.postMessage({ type: 'failed', message: String((err && err.message) || err).slice(0, 300) });
}
if (encoder !== undefined) {
  parentPort.on('message', (m) => {
    let tokens = -1;
    try { tokens = encoder.encode(m.text, [], []).length; } catch {}
    parentPort.postMessage({ type: 'count', id: m.id, tokens });
  });
  parentPort.postMessage({ type: 'ready' });
}
`;

type State = 'off' | 'loading' | 'ready' | 'failed';
type Reply = { type: 'ready' } | { type: 'failed'; message: string } | { type: 'count'; id: number; tokens: number };

let state: State = 'off';
let worker: Worker | undefined;
let failure: string | undefined;
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;
const pending = new Map<number, { key: string; resolve: (tokens: number | undefined) => void }>();
/** Texts already sent to the worker, so a reload does not queue the same count twice. */
const queued = new Set<string>();
const cache = new Map<string, number>();

function keyOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

function remember(key: string, tokens: number): void {
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, tokens);
}

function settleAll(): void {
  for (const p of pending.values()) p.resolve(undefined);
  pending.clear();
  queued.clear();
}

function armIdleTimer(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (pending.size > 0 || worker === undefined) return armIdleTimer();
    const w = worker;
    worker = undefined;
    state = 'off';
    void w.terminate();
  }, IDLE_MS);
  idleTimer.unref();
}

function start(): void {
  if (state !== 'off') return;
  state = 'loading';
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { base: import.meta.url } });
  worker = w;
  // never keeps the process alive: a server that closes exits with the worker still loading
  w.unref();
  w.on('message', (m: Reply) => {
    if (worker !== w) return;
    if (m.type === 'ready') {
      state = 'ready';
      armIdleTimer();
    } else if (m.type === 'failed') {
      state = 'failed';
      failure = m.message;
    } else {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (p === undefined) return;
      queued.delete(p.key);
      if (m.tokens >= 0) remember(p.key, m.tokens);
      p.resolve(m.tokens >= 0 ? m.tokens : undefined);
      armIdleTimer();
    }
  });
  const stop = (why: string): void => {
    if (worker !== w) return;
    worker = undefined;
    // one that never loaded stays failed (the page says so, and no page pays for another try); one that died after
    // loading is started again by the next count
    if (state === 'loading' || state === 'failed') {
      state = 'failed';
      failure ??= why;
    } else state = 'off';
    settleAll();
  };
  w.on('error', (err) => stop(err.message));
  w.on('exit', (code) => stop(`the tokenizer worker exited (${code})`));
}

/** Sends `text` to the worker; resolves with its count, or undefined when the worker could not count it. */
function ask(key: string, text: string): Promise<number | undefined> {
  start();
  const w = worker;
  if (w === undefined) return Promise.resolve(undefined);
  const id = nextId++;
  queued.add(key);
  return new Promise((resolve) => {
    pending.set(id, { key, resolve });
    w.postMessage({ id, text });
  });
}

/** Starts loading the tokenizer in its worker if it is not loaded or loading (a page that links to operations calls it). */
export function warmTokenizer(): void {
  start();
}

/** What the worker is doing: for the page's wording and for tests. */
export function tokenizerState(): { state: State; failure?: string } {
  return { state, ...(failure !== undefined && state === 'failed' ? { failure } : {}) };
}

/**
 * The o200k_base token count of `text`: exact when known, or when the tokenizer is ready (then this waits only for
 * the worker's answer); otherwise an estimate at once, with the exact count queued so that the next view has it.
 * Never loads the tokenizer in this thread and never waits for it to load.
 */
export async function countTokens(text: string): Promise<TokenCount> {
  const key = keyOf(text);
  const known = cache.get(key);
  if (known !== undefined) return { exact: true, tokens: known };
  const estimate = Math.max(1, Math.round(text.length / CHARS_PER_TOKEN));
  if (state === 'failed') return { exact: false, estimate, reason: 'unavailable' };
  if (state === 'ready') {
    const tokens = await ask(key, text);
    return tokens !== undefined ? { exact: true, tokens } : { exact: false, estimate, reason: 'unavailable' };
  }
  if (!queued.has(key)) void ask(key, text);
  return { exact: false, estimate, reason: 'loading' };
}
