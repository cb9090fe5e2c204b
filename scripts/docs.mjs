// `npm run docs`: re-runs the command of every generated block in README.md and docs/*.md and rewrites the block
// with what it prints now (scripts/lib/doc-blocks.mjs), then the option table and docs/config.schema.json
// (scripts/config-schema.mjs). `--check` writes nothing and exits 1 naming each stale block.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, docFiles, regenerate } from './lib/doc-blocks.mjs';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--check']);

const check = process.argv.includes('--check');
let stale = 0;
for (const file of docFiles()) {
  const path = join(ROOT, file);
  const text = readFileSync(path, 'utf8');
  const r = await regenerate(text);
  if (r.count === 0) continue;
  for (const s of r.stale) console.log(`${file}: stale: ${s.command}`);
  stale += r.stale.length;
  if (!check && r.text !== text) writeFileSync(path, r.text);
  console.log(`${file}: ${r.count} generated block(s), ${r.stale.length} ${check ? 'stale' : 'rewritten'}`);
}
if (check && stale > 0) {
  console.log('run `npm run docs` to rewrite them');
  process.exit(1);
}
if (!check) await import('./config-schema.mjs');
