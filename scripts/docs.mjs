// `npm run docs`: re-runs the command of every generated block in README.md and docs/*.md and rewrites the block
// with what it prints now (scripts/lib/doc-blocks.mjs), then the option table and docs/config.schema.json
// (scripts/config-schema.mjs). `--check` writes nothing and exits 1 naming each stale block or file, those of
// config-schema included.
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
// the option table and schema: written, or with --check compared (a dist/ that cannot load is one line, exit 1)
let configDocs;
try {
  ({ configDocs } = await import('./config-schema.mjs'));
} catch (err) {
  console.error(`docs: dist/ is missing or stale (${err.message.split('\n')[0]}); run \`npm run build\` first (\`npm run docs\` builds)`);
  process.exit(1);
}
let config;
try {
  config = configDocs({ check });
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
for (const name of config) console.log(`${name}: ${check ? 'stale' : 'rewritten'}: the option table or schema of src/config/ (scripts/config-schema.mjs)`);
if (check && stale + config.length > 0) {
  console.log('run `npm run docs` to rewrite them');
  process.exit(1);
}
