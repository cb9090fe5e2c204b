// Cross-layer test helpers: import a fixture spec with the real CLI, spawn `serve` over stdio or Streamable HTTP
// (the built dist/), and drive it with raw JSON-RPC of either protocol era (legacy: initialize and, over HTTP, a
// session; 2026-07-28: the _meta envelope on every request and, over HTTP, the standard headers) while keeping
// EVERY byte the process and the transport produced (stdout, stderr, HTTP bodies and headers) for scans. Test-only.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { MODERN_VERSION, REPO_ROOT, builtCli, type Era } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

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
  era: Era;
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
  const out = tempDir('api-catalog-rel-');
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

/** The 2026-07-28 per-request envelope. */
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'reliability', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A request's params in `era` (modern: with the envelope in _meta). */
function paramsOf(era: Era, params: unknown): Record<string, unknown> {
  if (era === 'legacy') return params === undefined ? {} : { params };
  return { params: { ...((params as Record<string, unknown> | undefined) ?? {}), _meta: META } };
}

function track(child: ChildProcessWithoutNullStreams, capture: Capture): Promise<number | null> {
  child.stdout.on('data', (d: Buffer) => (capture.stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (capture.stderr += d.toString('utf8')));
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

/** Spawns `serve` over stdio with `args` and `env`, and opens the connection in `era` (initialize, or server/discover). */
export async function stdioDriver(args: string[], env: Record<string, string>, era: Era = 'legacy'): Promise<Driver> {
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
    era,
    capture,
    async rpc(method, params) {
      const id = next++;
      write({ jsonrpc: '2.0', id, method, ...paramsOf(era, params) });
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
  if (era === 'modern') {
    await d.rpc('server/discover');
    return d;
  }
  await d.rpc('initialize', INIT);
  await d.notify('notifications/initialized');
  return d;
}

/**
 * Spawns `serve --http` on a free port with `args` and `env`; in the legacy era initializes a session with raw
 * fetch, in the modern era sends every request with its envelope and standard headers (no session).
 */
export async function httpDriver(
  args: string[],
  env: Record<string, string>,
  headers: Record<string, string> = {},
  era: Era = 'legacy',
): Promise<Driver & { url: string; post(body: string, extra?: Record<string, string>): Promise<{ status: number; text: string }> }> {
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
      // a generous deadline (about a minute): a loaded machine starts the server slowly, a hang still fails
      if (i > 1200 || child.exitCode !== null) throw new Error(`HTTP server did not start: ${capture.stderr}`);
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
  /** The 2026-07-28 standard headers of a request (its method and, where the revision says, its name). */
  const standard = (method: string, params: unknown): Record<string, string> => {
    if (era === 'legacy') return {};
    const p = (params ?? {}) as { name?: unknown; uri?: unknown };
    const name = method === 'tools/call' ? p.name : method === 'resources/read' ? p.uri : undefined;
    return { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}) };
  };
  const d = {
    kind: 'http' as const,
    era,
    capture,
    url,
    post: (body: string, extra?: Record<string, string>) => post(body, extra),
    async rpc(method: string, params?: unknown) {
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id: next++, method, ...paramsOf(era, params) }), standard(method, params));
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
  if (era === 'modern') {
    await d.rpc('server/discover');
    return d;
  }
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

/**
 * The driver as an agent on the stateless 2026-07-28 HTTP path uses it: every describe handle it is given
 * (describe_tools, the tool_descriptions resource) is passed back with the next execute_tool of that operation.
 */
export function threadHandles<D extends Driver>(d: D): D {
  const handles = new Map<string, string>();
  const remember = (name: string, h: unknown) => {
    if (typeof h === 'string') handles.set(name, h);
  };
  const rpc = d.rpc.bind(d);
  const out = Object.create(d) as D;
  out.rpc = async (method: string, params?: unknown) => {
    const p = params as { name?: string; arguments?: { tool_name?: string; handle?: string } } | undefined;
    const target = method === 'tools/call' && p?.name === 'execute_tool' ? p.arguments?.tool_name : undefined;
    const h = target !== undefined ? handles.get(target) : undefined;
    const m = await rpc(method, h !== undefined && p?.arguments?.handle === undefined ? { ...p, arguments: { ...p?.arguments, handle: h } } : params);
    if (method === 'tools/call' && p?.name === 'describe_tools') {
      for (const t of (envelope(m).value?.tools ?? []) as Array<{ name: string; handle?: string; example?: { handle?: string } }>) {
        remember(t.name, t.example?.handle ?? t.handle);
      }
    }
    if (method === 'resources/read' && m.result?.contents?.[0]?.text) {
      try {
        for (const [name, v] of Object.entries(JSON.parse(m.result.contents[0].text as string) as Record<string, { handle?: string }>)) remember(name, v.handle);
      } catch {
        // not a tool_descriptions body
      }
    }
    return m;
  };
  out.tool = (name: string, args: unknown) => out.rpc('tools/call', { name, arguments: args });
  return out;
}
