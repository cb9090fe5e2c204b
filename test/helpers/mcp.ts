// Test helpers for the MCP server: fixture registries, a real SDK Client linked in memory to createServer (or over
// stdio to the built `serve` with its start-up trace),
// and a helper that calls a tool and returns the envelope. Test-only.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type CatalogServer, type ServerDeps } from '../../src/server/create-server.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';

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
  app: CatalogServer;
  close(): Promise<void>;
}

/** A real SDK Client connected in memory to a fresh server (one MCP session). */
export async function connectInMemory(
  deps: Partial<ServerDeps> & { catalogs: CatalogSet },
  clientCapabilities: ClientCapabilities = {},
): Promise<Connected> {
  const app = createServer({ settings: { baseUrls: {}, readOnly: false, env: {} }, ...deps });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: clientCapabilities });
  await Promise.all([app.server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    app,
    async close() {
      await client.close();
      await app.server.close();
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
 * client; `trace()` waits (up to 5 s) for the line the server prints once its index is ready and tools/list answered.
 */
export async function connectTracedServe(args: string[]): Promise<{ client: Client; stderr: () => string; trace: () => Promise<StartupTrace> }> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'serve', ...args],
    cwd: REPO_ROOT,
    env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info', API_CATALOG_STARTUP_TRACE: '1' } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'startup-test', version: '0' });
  await client.connect(transport);
  const trace = async (): Promise<StartupTrace> => {
    for (let i = 0; i < 100 && !stderr.includes('startup_trace'); i++) await new Promise((r) => setTimeout(r, 50));
    const line = stderr.split('\n').find((l) => l.includes('"startup_trace"'));
    if (line === undefined) throw new Error(`no startup_trace line from serve:\n${stderr.slice(-1000)}`);
    return JSON.parse(line) as StartupTrace;
  };
  return { client, stderr: () => stderr, trace };
}
