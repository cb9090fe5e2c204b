#!/usr/bin/env node
// `node scripts/describe-tokens.mjs [--json] [--registry <dir>]` (after `npm run build`): o200k tokens of the
// describe_tools answer at each level (summary, parameters = Level 2, full) for the GitHub operations of the dev
// query set (test/fixtures/eval/queries-dev.jsonl), one operation per call, counted on the compact JSON a client
// passes to the model, with the describe handle the server adds from Level 2 up; median / p90 (nearest rank) / max per level, and how many Level-2 parameters carry `from`.
// Issue 24 item 7's budget: Level 2 median <= 200, p90 <= 350. Printing only.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--json', '--registry']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const args = process.argv.slice(2);
const json = args.includes('--json');
const regAt = args.indexOf('--registry');
const registry = regAt >= 0 ? args[regAt + 1] : undefined;
if (args.includes('--help') || (regAt >= 0 && registry === undefined)) {
  process.stderr.write('usage: node scripts/describe-tokens.mjs [--json] [--registry <dir>]   (run after npm run build)\n');
  process.exit(args.includes('--help') ? 0 : 2);
}
if (!existsSync(join(dist, 'server', 'index.js'))) {
  process.stderr.write(`describe-tokens: ${join(dist, 'server', 'index.js')} is missing; run \`npm run build\` first\n`);
  process.exit(1);
}
const load = (rel) => import(pathToFileURL(join(dist, rel)).href);
const { loadCatalogSet } = await load('server/index.js');
const { describeTools } = await load('server/core/describe.js');
const { toolNames } = await load('server/core/names.js');
const { attachHandles } = await load('server/handles.js');
const { Signer } = await load('server/signing.js');
const { operationFingerprint } = await load('server/core/describe.js');
const { Tiktoken } = await import('js-tiktoken/lite');
const { default: o200k } = await import('js-tiktoken/ranks/o200k_base');
const encoder = new Tiktoken(o200k);
const tokens = (value) => encoder.encode(JSON.stringify(value)).length;

const set = loadCatalogSet(registry ? [registry] : []);
const byOperationId = new Map(set.operations.map((o) => [o.operationId, o.name]));
const queries = readFileSync(join(root, 'test', 'fixtures', 'eval', 'queries-dev.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l))
  .filter((q) => q.catalog === 'github');
const names = [...new Set(queries.map((q) => byOperationId.get(q.expect[0])).filter(Boolean))];
const settings = { baseUrls: {}, readOnly: false, env: {} };
const signer = Signer.random();

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * p) - 1)];
const levels = {};
let withFrom = 0;
let parameters = 0;
for (const detail of ['summary', 'parameters', 'full']) {
  const rows = names.map((name) => {
    // What an agent sees: the server adds a describe handle from Level 2 up (src/server/handles.ts)
    const { envelope } = describeTools(set, { tool_names: [name], detail }, toolNames(), { settings });
    const op = set.byName.get(name).op;
    attachHandles(envelope, () => signer.handle(name, operationFingerprint(op), 'anonymous', Date.now() + 3_600_000));
    if (detail === 'parameters') {
      for (const p of Object.values(envelope.value.tools[0].parameters)) {
        parameters++;
        if (typeof p === 'object' && p.from) withFrom++;
      }
    }
    return { name, tokens: tokens(envelope) };
  });
  const xs = rows.map((r) => r.tokens);
  const top = [...rows].sort((a, b) => b.tokens - a.tokens)[0];
  levels[detail] = { operations: rows.length, median: pct(xs, 0.5), p90: pct(xs, 0.9), max: top.tokens, maxOperation: top.name };
}
const result = { tokenizer: 'o200k_base', operations: names.length, levels, level2Parameters: parameters, level2ParametersWithFrom: withFrom };
if (json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
else {
  const lines = [`describe_tools tokens (o200k) on the ${names.length} GitHub operations of the dev set, one per call`, 'level        median   p90   max  (largest)'];
  for (const [detail, r] of Object.entries(levels)) lines.push(`${detail.padEnd(11)} ${String(r.median).padStart(7)} ${String(r.p90).padStart(5)} ${String(r.max).padStart(5)}  (${r.maxOperation})`);
  lines.push(`Level 2 parameters: ${parameters}, of which ${withFrom} carry from`);
  process.stdout.write(lines.join('\n') + '\n');
}
