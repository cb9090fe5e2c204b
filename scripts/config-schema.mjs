// Writes docs/config.schema.json (the editor schema of the config file) and the option table in
// docs/CONFIGURATION.md (between the `options:start` / `options:end` markers) from src/config/, via the build.
// `npm run config-schema` (npm run docs runs it too); test/config/schema.test.ts fails when either is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { configJsonSchema } from '../dist/config/schema.js';
import { optionsMarkdown } from '../dist/config/options.js';
import { usage } from './lib/usage.mjs';

usage(import.meta.url);

const schemaFile = new URL('../docs/config.schema.json', import.meta.url);
writeFileSync(schemaFile, JSON.stringify(configJsonSchema(), null, 2) + '\n');

const readmeFile = new URL('../docs/CONFIGURATION.md', import.meta.url);
const readme = readFileSync(readmeFile, 'utf8');
const block = /(<!-- options:start[^\n]*-->\n)[\s\S]*?(<!-- options:end -->)/;
if (!block.test(readme)) {
  console.error('config-schema: docs/CONFIGURATION.md has no <!-- options:start --> ... <!-- options:end --> block');
  process.exit(1);
}
writeFileSync(readmeFile, readme.replace(block, (_m, start, end) => `${start}${optionsMarkdown()}\n${end}`));
console.log('wrote docs/config.schema.json and the option table in docs/CONFIGURATION.md');
