// Test helpers for the MCP server: fixture registries, real v2 SDK Clients of either protocol era (pinned to
// 2026-07-28, or the legacy initialize handshake) linked in memory to the server's connection entry (or over stdio
// to the built `serve` with its start-up trace), and a helper that calls a tool and returns the envelope. Test-only.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import type { CatalogServer, ServerDeps } from '../../src/server/create-server.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { serveConnection } from '../../src/server/transports/stdio.js';
import { until } from './timing.js';

/** The two protocol eras every MCP-level test runs in. */
export type Era = 'modern' | 'legacy';
export const ERAS: readonly Era[] = ['modern', 'legacy'];
export const MODERN_VERSION = '2026-07-28';

/**
 * A real v2 SDK Client of one era: `modern` is pinned to 2026-07-28 (server/discover, then a _meta envelope on
 * every request, no fallback); `legacy` opens with the initialize handshake, as every pre-2026 client does.
 */
export function newClient(era: Era, capabilities: ClientCapabilities = {}, name = 'test-client'): Client {
  return new Client(
    { name, version: '1.0.0' },
    { capabilities, ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {}) },
  );
}

/** The repository root (where package.json is). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Absolute path of test/fixtures/registry/<name>. */
export function fixtureRegistry(name: 'petstore' | 'zoo'): string {
  return join(REPO_ROOT, 'test', 'fixtures', 'registry', name);
}

/** The built CLI; stdio/HTTP process tests need `npm run build` first. */
export function builtCli(): string {
  const cli = join(REPO_ROOT, 'dist', 'cli', 'index.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` before these tests (CI does it before \`npm test\`)`);
  return cli;
}

const sets = new Map<string, CatalogSet>();
/** Loads (and caches per test file) a catalog set from fixture names or directories. */
export function catalogs(...dirs: string[]): CatalogSet {
  const key = dirs.join('|');
  let set = sets.get(key);
  if (!set) {
    set = loadCatalogSet(dirs);
    sets.set(key, set);
  }
  return set;
}

export interface Envelope {
  success: boolean;
  tool: string;
  value?: any;
  error?: { code: string; message: string; details?: any };
  instruction?: string;
}

export interface Connected {
  client: Client;
  /** The server instance serving this connection. */
  app: CatalogServer;
  close(): Promise<void>;
}

/**
 * A real SDK Client connected in memory to a fresh server through the connection entry stdio uses (one
 * connection; the era is picked by the client's opening message, as over stdio). Default era: legacy.
 */
export async function connectInMemory(
  deps: Partial<ServerDeps> & { catalogs: CatalogSet },
  options: { era?: Era; capabilities?: ClientCapabilities } = {},
): Promise<Connected> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveConnection({ settings: { baseUrls: {}, readOnly: false, env: {} }, ...deps }, serverSide);
  const client = newClient(options.era ?? 'legacy', options.capabilities);
  await client.connect(clientSide);
  const app = served.current();
  if (app === undefined) throw new Error('connected, but the server built no instance');
  return {
    client,
    app,
    async close() {
      await client.close();
      await served.close();
    },
  };
}

/** Calls a tool and returns the envelope (checking that text and structuredContent agree). */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Envelope & { isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  const fromText = JSON.parse(content[0]?.text ?? 'null') as Envelope;
  const structured = result.structuredContent as unknown as Envelope;
  if (JSON.stringify(fromText) !== JSON.stringify(structured)) throw new Error('text content and structuredContent differ');
  if (Boolean(result.isError) === structured.success) throw new Error('isError does not match envelope.success');
  return { ...structured, isError: Boolean(result.isError) };
}

/** The built server's start-up trace line (API_CATALOG_STARTUP_TRACE=1). */
export interface StartupTrace {
  marks: Record<string, number>;
  index: { kind: string };
  parsedFiles: number;
}

/**
 * `api-catalog serve <args>` (the built CLI) over stdio with the start-up trace on, connected to a real SDK
 * client; `trace()` waits for the line the server prints once its index is ready and tools/list answered (a
 * generous deadline: building GitHub's index took over 5 s with a second copy of the suite on the machine).
 */
export async function connectTracedServe(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string; trace: () => Promise<StartupTrace> }> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'serve', ...args],
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_STARTUP_TRACE: '1', ...env } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = newClient('legacy', {}, 'startup-test');
  await client.connect(transport);
  const trace = async (): Promise<StartupTrace> => {
    await until(() => stderr.includes('startup_trace'), 'the startup_trace line', 60_000, 50).catch(() => undefined);
    const line = stderr.split('\n').find((l) => l.includes('"startup_trace"'));
    if (line === undefined) throw new Error(`no startup_trace line from serve:\n${stderr.slice(-1000)}`);
    return JSON.parse(line) as StartupTrace;
  };
  return { client, stderr: () => stderr, trace };
}

/** A v2 Client of `era` connected over Streamable HTTP to `url` (extra request headers optional). */
export async function connectHttp(url: string, era: Era, options: { headers?: Record<string, string>; capabilities?: ClientCapabilities; name?: string } = {}): Promise<Client> {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = newClient(era, options.capabilities, options.name);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), options.headers ? { requestInit: { headers: options.headers } } : {}));
  return client;
}

/** describe_tools for one operation; returns the handle its answer carries (in the example call, or beside the name). */
export async function describeHandle(client: Client, name: string, detail?: 'parameters' | 'full'): Promise<string> {
  const r = await call(client, 'describe_tools', { tool_names: [name], ...(detail ? { detail } : {}) });
  const entry = r.value?.tools?.[0] as { handle?: string; example?: { handle?: string } } | undefined;
  const handle = entry?.example?.handle ?? entry?.handle;
  if (typeof handle !== 'string') throw new Error(`describe_tools ${name} gave no handle: ${JSON.stringify(r).slice(0, 300)}`);
  return handle;
}
