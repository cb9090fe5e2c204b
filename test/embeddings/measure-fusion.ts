// Not a test: the measurement behind docs/EMBEDDINGS.md "How the default was chosen". Imports the real specs in the
// repository with vectors from the loopback endpoint's toy model, then runs `eval` lexical / gated / mix / rrf on the
// held-out query sets in test/fixtures/eval.
// Run: node_modules/.bin/vite-node test/embeddings/measure-fusion.ts [out dir, default .cache/embeddings-measure]
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { run as evalCli } from '../../src/cli/eval.js';
import { run as importCli } from '../../src/cli/import.js';
import { startEmbeddingsServer } from '../helpers/embeddings-server.js';

const root = resolve(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures');
const specOf = (c: string): string => (c === 'github' ? join(root, 'openapi', 'github.json') : join(fixtures, 'real-specs', `${c}.json`));
const out = resolve(process.argv[2] ?? join(root, '.cache', 'embeddings-measure'));
const catalogs = ['github', 'stripe', 'vimeo', 'sendgrid', 'launchdarkly'];
const files = ['queries-dev.jsonl', 'queries-natural.jsonl', 'queries-natural-agent.jsonl'].map((f) => join(fixtures, 'eval', f));

mkdirSync(out, { recursive: true });
const fake = await startEmbeddingsServer();
try {
  for (const c of catalogs) {
    if (existsSync(join(out, c, 'embeddings.json'))) continue;
    const code = await importCli([specOf(c), '--name', c, '--out', out, '--embeddings-url', fake.url, '--embeddings-model', 'fake-embed', '--quiet']);
    if (code !== 0) throw new Error(`import ${c} failed`);
  }
  const registries = catalogs.flatMap((c) => ['--registry', join(out, c)]);
  for (const mode of ['lexical', 'gated', 'mix', 'rrf']) {
    const extra = mode === 'lexical' ? [] : ['--embeddings-url', fake.url, '--embeddings-model', 'fake-embed', '--fusion', mode];
    process.stdout.write(`\n#### ${mode}\n`);
    await evalCli([...files, ...registries, ...extra]);
  }
} finally {
  await fake.close();
}
