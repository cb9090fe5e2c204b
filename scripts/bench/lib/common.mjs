// Shared benchmark helpers: paths, statistics, the o200k tokenizer, machine facts, process RSS and a timed
// MCP stdio client. Measures only; prints nothing (the entry scripts print).
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json lives). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The specs and query sets the benchmarks read ship with the repository (resolved from its root, never cwd). */
export const FIXTURES = join(ROOT, 'test', 'fixtures');
export const DIST = join(ROOT, 'dist');
export const CLI = join(DIST, 'cli', 'index.js');
export const GITHUB_SPEC = join(ROOT, 'openapi', 'github.json');
export const STRIPE_SPEC = join(FIXTURES, 'real-specs', 'stripe.json');
/** The held-out query sets (test/fixtures/eval; never tuned to). */
export const EVAL_DIR = join(FIXTURES, 'eval');

/** Imports a module of the built product (dist/...); throws a clear error when the build is missing. */
export async function dist(rel) {
  const file = join(DIST, rel);
  if (!existsSync(file)) throw new Error(`bench: ${file} is missing; run \`npm run build\` first`);
  return import(file);
}

/** Sorted copy. */
export const sorted = (xs) => [...xs].sort((a, b) => a - b);
/** Nearest-rank percentile (p in 0..1) of an unsorted array. */
export function pct(xs, p) {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * p) - 1))];
}
export const median = (xs) => pct(xs, 0.5);
export const round = (x, d = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
export const mb = (bytes) => round(bytes / 1024 / 1024, 1);

let encoder;
/** Token count of a string (or of JSON.stringify(value)) with OpenAI's o200k_base encoding (js-tiktoken). */
export async function tokens(value) {
  if (!encoder) {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: o200k } = await import('js-tiktoken/ranks/o200k_base');
    encoder = new Tiktoken(o200k);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return encoder.encode(text).length;
}
export const TOKENIZER = 'o200k_base (js-tiktoken), counted on the compact JSON text a client passes to the model';

/** Cores, CPU model, memory, Node version, platform. */
export function machine() {
  const c = cpus();
  return {
    cores: c.length,
    cpu: (c[0]?.model ?? 'unknown').trim(),
    memoryGB: round(totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** Resident set size of a process in bytes (Linux /proc; elsewhere undefined). */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Spawns an MCP server over stdio with the SDK client and times spawn -> first tools/list answer.
 * `lax`: skip the SDK's validation of the tools/list result. Returns { client, transport, pid, startMs, tools, close() }. stderr is drained (kept as `stderrText()`).
 */
export async function startStdio(command, args, { env = {}, cwd = ROOT, timeoutMs = 120_000, lax = false } = {}) {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransport({ command, args, cwd, env: { ...process.env, ...env }, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d) => {
    if (err.length < 20_000) err += d.toString();
  });
  const client = new Client({ name: 'api-catalog-bench', version: '0.0.0' });
  const t0 = performance.now();
  let timer;
  try {
    await Promise.race([
      client.connect(transport, { timeout: timeoutMs }),
      new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`bench: ${command} ${args.join(' ')} did not start in ${timeoutMs} ms`)), timeoutMs))),
    ]);
    // lax: read tools/list without the SDK's result validation (a server whose tools break the MCP schema).
    const listed = lax
      ? await client.request({ method: 'tools/list', params: {} }, (await import('zod')).z.object({ tools: (await import('zod')).z.array((await import('zod')).z.any()) }).passthrough(), { timeout: timeoutMs })
      : await client.listTools(undefined, { timeout: timeoutMs });
    const startMs = performance.now() - t0;
    return {
      client,
      transport,
      pid: transport.pid,
      startMs,
      tools: listed.tools,
      stderrText: () => err,
      close: async () => {
        await client.close().catch(() => {});
      },
    };
  } catch (e) {
    await client.close().catch(() => {});
    throw new Error(`${e.message}\n${err.slice(-2000)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The text a model sees for a tools/call result: the concatenated text content. */
export function resultText(result) {
  return (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** Eval queries for one catalog from test/fixtures/eval/queries-dev.jsonl (it ships with the repository). */
export function evalQueries(catalog = 'github') {
  const out = [];
  for (const line of readFileSync(join(EVAL_DIR, 'queries-dev.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    if (q.catalog === catalog) out.push(q.query);
  }
  if (out.length === 0) throw new Error(`bench: no ${catalog} queries in ${join(EVAL_DIR, 'queries-dev.jsonl')}`);
  return out;
}

/** Progress line on stderr (the table goes to stdout). */
export function progress(message) {
  process.stderr.write(`[bench] ${message}\n`);
}
