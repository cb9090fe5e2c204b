// Test helpers for the MCP server: fixture registries, a real SDK Client linked in memory to createServer,
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
