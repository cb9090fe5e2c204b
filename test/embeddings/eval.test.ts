// `api-catalog eval --embeddings-url`: hybrid search is measured on each line's own request (domain filter and
// keywords included, as search_tools gets them), on a registry embedded elsewhere and named with --registry.
// Loopback fake endpoint only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run as evalCli } from '../../src/cli/eval.js';
import { run as importCli } from '../../src/cli/import.js';
import { startEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/embeddings-server.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SPEC = join(import.meta.dirname, 'fixtures', 'club.yaml');
let root = '';
let fake: FakeEmbeddingsServer;

beforeAll(async () => {
  root = tempDir('ac-embed-eval-');
  fake = await startEmbeddingsServer();
  const r = await runCaptured(importCli, [SPEC, '--name', 'club', '--out', root, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed', '--quiet']);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await fake.close();
});

function queries(lines: object[]): string {
  const file = join(root, `q-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

async function evalJson(file: string, extra: string[]): Promise<{ overall: { recallAt1: number; queries: number } }> {
  const r = await runCaptured(evalCli, [file, '--registry', join(root, 'club'), '--json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

test('agent-style lines with a domain and keywords are answered by the hybrid ranking, not silently lexical', async () => {
  // Only the dense side knows that "hibernate my membership" means suspendSubscription (the fake model's synonyms).
  const file = queries([
    { catalog: 'club', query: 'hibernate my membership', domain: 'subscriptions', expect: ['suspendSubscription'] },
    { catalog: 'club', query: 'hibernate my membership', keywords: ['dormant'], domain: 'subscriptions', expect: ['suspendSubscription'] },
    { catalog: 'club', query: 'hibernate my membership', keywords: ['dormant'], expect: ['suspendSubscription'] },
  ]);
  const lexical = await evalJson(file, []);
  expect(lexical.overall.recallAt1).toBe(0);
  const hybrid = await evalJson(file, ['--embeddings-url', fake.url, '--embeddings-model', 'fake-embed']);
  expect(hybrid.overall).toMatchObject({ queries: 3, recallAt1: 1 });
});

test('a line naming a domain the catalog lacks is still a usage error naming the line, with an endpoint too', async () => {
  const file = queries([{ catalog: 'club', query: 'hibernate my membership', domain: 'no-such-domain', expect: ['suspendSubscription'] }]);
  const r = await runCaptured(evalCli, [file, '--registry', join(root, 'club'), '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed']).catch((err: Error) => ({ code: -1, stdout: '', stderr: err.message }));
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/\.jsonl:1 \(club\): unknown domain "no-such-domain"/);
});
