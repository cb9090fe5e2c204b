// Writes docs/config.schema.json (the editor schema of the config file) and the option table in
// docs/CONFIGURATION.md (between the `options:start` / `options:end` markers) from src/config/, via the build.
// `npm run config-schema` (npm run docs runs it too); `--check` writes nothing and exits 1 naming each stale file
// (npm run docs -- --check runs that). test/config/schema.test.ts fails when either is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configJsonSchema } from '../dist/config/schema.js';
import { optionsMarkdown } from '../dist/config/options.js';
import { isMain, usage } from './lib/usage.mjs';

usage(import.meta.url, ['--check']);

const schemaFile = fileURLToPath(new URL('../docs/config.schema.json', import.meta.url));
const readmeFile = fileURLToPath(new URL('../docs/CONFIGURATION.md', import.meta.url));
const block = /(<!-- options:start[^\n]*-->\n)[\s\S]*?(<!-- options:end -->)/;

/**
 * The two generated files as the build makes them now; with `check`, writes nothing. Returns the stale ones
 * (repository paths); throws when docs/CONFIGURATION.md has lost its markers.
 */
export function configDocs({ check = false } = {}) {
  const readme = readFileSync(readmeFile, 'utf8');
  if (!block.test(readme)) throw new Error('config-schema: docs/CONFIGURATION.md has no <!-- options:start --> ... <!-- options:end --> block');
  const files = [
    ['docs/config.schema.json', schemaFile, JSON.stringify(configJsonSchema(), null, 2) + '\n'],
    ['docs/CONFIGURATION.md', readmeFile, readme.replace(block, (_m, start, end) => `${start}${optionsMarkdown()}\n${end}`)],
  ];
  const stale = files.filter(([, path, text]) => !existsSync(path) || readFileSync(path, 'utf8') !== text);
  if (!check) for (const [, path, text] of stale) writeFileSync(path, text);
  return stale.map(([name]) => name);
}

if (isMain(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale;
  try {
    stale = configDocs({ check });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  if (!check) {
    console.log('wrote docs/config.schema.json and the option table in docs/CONFIGURATION.md');
  } else {
    for (const name of stale) console.log(`${name}: stale: the option table or schema of src/config/`);
    console.log(`config-schema: ${stale.length} stale${stale.length > 0 ? '; run `npm run config-schema` to rewrite' : ''}`);
    if (stale.length > 0) process.exit(1);
  }
}
