// Cross-layer test helpers: import a fixture spec with the real CLI, spawn `serve` over stdio or Streamable HTTP
// (the built dist/), and drive it with raw JSON-RPC while keeping EVERY byte the process and the transport
// produced (stdout, stderr, HTTP bodies and headers) for scans. Test-only.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';

export type Message = Record<string, any>;

/** What a driver captured: every output of the server process and of the transport, verbatim. */
export interface Capture {
  stdout: string;
  stderr: string;
  /** HTTP only: status line, headers and body of every response. */
  http: string[];
}

export interface Driver {
  kind: 'stdio' | 'http';
  capture: Capture;
  /** A JSON-RPC request; resolves with the whole response message (result or error). */
  rpc(method: string, params?: unknown): Promise<Message>;
  notify(method: string, params?: unknown): Promise<void>;
  /** tools/call; resolves with the response message. */
  tool(name: string, args: unknown): Promise<Message>;
  /** Ends the session and the process; resolves with the exit code. */
  close(): Promise<number | null>;
}

/** Imports `spec` with the built CLI into a fresh temp registry; returns the catalog folder and the CLI output. */
export function importFixture(spec: string, name: string): { dir: string; output: string } {
  const out = mkdtempSync(join(tmpdir(), 'api-catalog-rel-'));
  const r = spawnSync(process.execPath, [builtCli(), 'import', spec, '--name', name, '--out', out], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`import of ${spec} failed (${r.status}): ${r.stderr}`);
  return { dir: join(out, name), output: r.stdout + r.stderr };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
    s.on('error', reject);
  });
}

function baseEnv(extra: Record<string, string>): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/_(TOKEN|API_KEY|USERNAME|PASSWORD|BASE_URL)$/.test(k)) e[k] = v;
  return { ...e, API_CATALOG_RATE_LIMIT: '0', ...extra };
}

const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'reliability', version: '1.0.0' } };

function track(child: ChildProcessWithoutNullStreams, capture: Capture): Promise<number | null> {
  child.stdout.on('data', (d: Buffer) => (capture.stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (capture.stderr += d.toString('utf8')));
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

/** Spawns `serve` over stdio with `args` and `env`, and initializes a session. */
export async function stdioDriver(args: string[], env: Record<string, string>): Promise<Driver> {
  const child = spawn(process.execPath, [builtCli(), 'serve', ...args], { cwd: REPO_ROOT, env: baseEnv(env) });
  const capture: Capture = { stdout: '', stderr: '', http: [] };
  const exited = track(child, capture);
  let next = 1;
  const waiters: Array<() => void> = [];
  child.stdout.on('data', () => {
    for (const w of waiters.splice(0)) w();
  });
  const find = (id: number): Message | undefined => {
    for (const line of capture.stdout.split('\n')) {
      if (line.trim() === '') continue;
      const m = JSON.parse(line) as Message;
      if (m.id === id) return m;
    }
    return undefined;
  };
  const write = (obj: unknown): void => {
    child.stdin.write(JSON.stringify(obj) + '\n');
  };
  const d: Driver = {
    kind: 'stdio',
    capture,
    async rpc(method, params) {
      const id = next++;
      write({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
      for (;;) {
        const m = find(id);
        if (m) return m;
        if (child.exitCode !== null) throw new Error(`stdio server exited (${child.exitCode}): ${capture.stderr}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    async notify(method, params) {
      write({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
    },
    tool: (name, args) => d.rpc('tools/call', { name, arguments: args }),
    async close() {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
  await d.rpc('initialize', INIT);
  await d.notify('notifications/initialized');
  return d;
}

/** Spawns `serve --http` on a free port with `args` and `env`, and initializes a session with raw fetch. */
export async function httpDriver(args: string[], env: Record<string, string>, headers: Record<string, string> = {}): Promise<Driver & { url: string; post(body: string, extra?: Record<string, string>): Promise<{ status: number; text: string }> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [builtCli(), 'serve', '--http', '--port', String(port), ...args], { cwd: REPO_ROOT, env: baseEnv(env) });
  const capture: Capture = { stdout: '', stderr: '', http: [] };
  const exited = track(child, capture);
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; ; i++) {
    try {
      await (await fetch(url, { method: 'GET' })).text();
      break;
    } catch {
      if (i > 200 || child.exitCode !== null) throw new Error(`HTTP server did not start: ${capture.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  let session: string | undefined;
  let protocol = INIT.protocolVersion;
  let next = 1;
  const post = async (body: string, extra: Record<string, string> = {}): Promise<{ status: number; text: string; sid: string | null }> => {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers, ...extra };
    if (session) {
      h['mcp-session-id'] = session;
      h['mcp-protocol-version'] = protocol;
    }
    const res = await fetch(url, { method: 'POST', headers: h, body });
    const text = await res.text();
    capture.http.push(`${res.status} ${JSON.stringify([...res.headers])}\n${text}`);
    return { status: res.status, text, sid: res.headers.get('mcp-session-id') };
  };
  const parse = (text: string): Message => {
    const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5));
    return JSON.parse(data.length > 0 ? (data[data.length - 1] as string) : text) as Message;
  };
  const d = {
    kind: 'http' as const,
    capture,
    url,
    post: (body: string, extra?: Record<string, string>) => post(body, extra),
    async rpc(method: string, params?: unknown) {
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id: next++, method, ...(params === undefined ? {} : { params }) }));
      return parse(r.text);
    },
    async notify(method: string, params?: unknown) {
      await post(JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }));
    },
    tool: (name: string, args: unknown) => d.rpc('tools/call', { name, arguments: args }),
    async close() {
      if (session) {
        const res = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': protocol, ...headers } });
        capture.http.push(`${res.status} ${JSON.stringify([...res.headers])}\n${await res.text()}`);
      }
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
  const init = await post(JSON.stringify({ jsonrpc: '2.0', id: next++, method: 'initialize', params: INIT }));
  if (init.status !== 200 || !init.sid) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  session = init.sid;
  protocol = (parse(init.text).result as { protocolVersion: string }).protocolVersion;
  await d.notify('notifications/initialized');
  return d;
}

/** The envelope of a tools/call response (structuredContent), or the JSON-RPC error. */
export function envelope(m: Message): Message {
  if (m.error) return { rpcError: m.error };
  return (m.result?.structuredContent ?? JSON.parse(m.result?.content?.[0]?.text ?? 'null')) as Message;
}
