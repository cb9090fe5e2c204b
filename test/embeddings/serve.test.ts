// The embeddings option in the built CLI (build first): `serve` over stdio with an endpoint configured by env,
// through a client of each era (hybrid answers, the mode on stderr, a clear warning for a model mismatch, the key
// nowhere), and `search`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { run as importCli } from '../../src/cli/import.js';
import { ERAS, REPO_ROOT, builtCli, newClient, type Era } from '../helpers/mcp.js';
import { startEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/embeddings-server.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(import.meta.dirname, 'fixtures', 'club.yaml');
const CANARY = 'sk-serve-canary-93be1d0c4a7f';
let root = '';
let fake: FakeEmbeddingsServer;

beforeAll(async () => {
  root = tempDir('ac-embed-serve-');
  fake = await startEmbeddingsServer({ requiredKey: CANARY });
  const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  process.env.API_CATALOG_EMBEDDINGS_KEY = CANARY;
  try {
    expect(await importCli([SPEC, '--name', 'club', '--out', root, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed', '--quiet'])).toBe(0);
  } finally {
    delete process.env.API_CATALOG_EMBEDDINGS_KEY;
    quiet.mockRestore();
  }
});
afterAll(async () => {
  await fake.close();
});

function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('API_CATALOG_EMBEDDINGS')) env[k] = v;
  return { ...env, ...extra };
}

async function serve(model: string, era: Era): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'serve', '--registry', join(root, 'club')],
    cwd: REPO_ROOT,
    env: childEnv({ API_CATALOG_EMBEDDINGS_URL: fake.url, API_CATALOG_EMBEDDINGS_MODEL: model, API_CATALOG_EMBEDDINGS_KEY: CANARY, API_CATALOG_LOG_LEVEL: 'debug', API_CATALOG_EMBEDDINGS_TIMEOUT_MS: '15000' }),
    stderr: 'pipe',
  });
  let err = '';
  // A generous query timeout: this checks the hybrid path on a loaded CI machine; timeouts are tested in-process.
  (transport.stderr as Readable | null)?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = newClient(era, {}, 'embeddings-serve');
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

async function search(client: Client, query: string): Promise<{ value: { results: Array<{ name: string }>; mode: string } }> {
  const r = await client.callTool({ name: 'search_tools', arguments: { query } });
  return r.structuredContent as unknown as { value: { results: Array<{ name: string }>; mode: string } };
}

describe('serve with an embeddings endpoint (spawned, stdio)', () => {
  describe.each(ERAS)('a %s client', (era: Era) => {
    test('hybrid answers; the mode is on stderr at start; the key appears nowhere', async () => {
      const s = await serve('fake-embed', era);
      try {
        const r = await search(s.client, 'hibernate my membership');
        expect(r.value.mode).toBe('hybrid (gated)');
        expect(r.value.results[0]?.name).toBe('suspendSubscription');
        expect(JSON.stringify(r)).not.toContain(CANARY);
      } finally {
        await s.close();
      }
      expect(s.stderr()).toContain('api-catalog: search: hybrid (lexical + embeddings from fake-embed, gated)');
      expect(s.stderr()).not.toContain(CANARY);
      expect(fake.authHeaders.at(-1)).toBe(`Bearer ${CANARY}`);
    });

    test('a model change is reported at start with the fix, and search answers lexically', async () => {
      const s = await serve('fake-embed-small', era);
      try {
        const r = await search(s.client, 'list invoices');
        expect(r.value.results[0]?.name).toBe('listInvoices');
        expect(r.value.mode).toBe('lexical (embeddings not usable)');
      } finally {
        await s.close();
      }
      expect(s.stderr()).toMatch(/api-catalog: warning: embeddings for club: the registry's vectors were made with model "fake-embed", the configured model is "fake-embed-small".*api-catalog embed --registry/);
      expect(s.stderr()).toMatch(/"event":"embeddings_mismatch"/);
      expect(s.stderr()).toContain('api-catalog: search: lexical (embeddings not usable)');
    });
  });

  test('api-catalog search --embeddings-url: hybrid table, the mode on stderr', async () => {
    const child = spawn(
      process.execPath,
      [builtCli(), 'search', 'hibernate my membership', '--registry', join(root, 'club'), '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed'],
      { cwd: REPO_ROOT, env: childEnv({ API_CATALOG_EMBEDDINGS_KEY: CANARY, API_CATALOG_EMBEDDINGS_TIMEOUT_MS: '15000' }) },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, err).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^ +1\. \d\.\d{3} +suspendSubscription +Suspend a subscription/);
    expect(err).toContain('search: hybrid (gated)');
    expect(out + err).not.toContain(CANARY);
  });

  test('api-catalog search with vectors of another model: the operator is told the mode and why', async () => {
    const child = spawn(
      process.execPath,
      [builtCli(), 'search', 'list invoices', '--registry', join(root, 'club'), '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed-small'],
      { cwd: REPO_ROOT, env: childEnv({ API_CATALOG_EMBEDDINGS_KEY: CANARY }) },
    );
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, err).toBe(0);
    expect(err).toMatch(/search: lexical \(embeddings not usable\): club: the registry's vectors were made with model "fake-embed".*api-catalog embed --registry/);
    expect(err).not.toContain(CANARY);
  });
});
