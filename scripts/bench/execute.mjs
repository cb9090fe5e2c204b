// Overhead of execution (validation + request building + HTTP client + response shaping) per call versus a
// raw fetch + JSON.parse to the same local server. Prints p50/p99; asserts nothing. Target: < 1 ms at p50.
// Usage: npm run build && node scripts/bench/execute.mjs [iterations]   (BENCH_DIST=<dir> to use another build)
import { createServer } from 'node:http';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, []);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = process.env.BENCH_DIST ?? join(root, 'dist');
const { executeOperation, validateArguments, prepareRequest } = await import(join(dist, 'execution', 'index.js'));
const { loadCatalog } = await import(join(dist, 'registry', 'catalog.js'));

const N = Number(process.argv[2] ?? 2000);
const catalog = loadCatalog(join(root, 'registry', 'github'));
const op = catalog.byName.get('issues_get') ?? catalog.operations.find((o) => o.method === 'get' && o.examples.length > 0);
const listOp = catalog.byName.get('issues_list-for-repo') ?? op;
const args = op.examples[0]?.args ?? {};
const listArgs = listOp.examples[0]?.args ?? {};

const issue = { id: 1, number: 1347, state: 'open', title: 'Found a bug', body: "I'm having a problem with this.".repeat(20), user: { login: 'octocat', id: 1, url: 'https://api.github.com/users/octocat' }, labels: [{ id: 208045946, name: 'bug', color: 'f29513' }], comments: 0, created_at: '2011-04-22T13:33:48Z' };
const one = Buffer.from(JSON.stringify(issue));
const list = Buffer.from(JSON.stringify(Array.from({ length: 60 }, (_, i) => ({ ...issue, id: i, number: i }))));
const server = createServer((req, res) => {
  const body = req.url.includes('/issues?') || req.url.endsWith('/issues') ? list : one;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, link: '<http://x/y?page=2>; rel="next"' });
  res.end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const config = { catalog: catalog.meta, baseUrl: base, env: { GITHUB_TOKEN: 'ghp_bench_token' } };

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p99: q(0.99) };
}
async function measure(fn) {
  for (let i = 0; i < Math.min(200, N); i++) await fn();
  const out = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return stats(out);
}
const fmt = (x) => `${x.toFixed(3)} ms`;

const url = prepareRequest(op, args, config).url;
const listUrl = prepareRequest(listOp, listArgs, config).url;
const rows = [];
for (const [label, o, a, u] of [[`${op.name} (${one.length} B)`, op, args, url], [`${listOp.name} (${list.length} B, truncated)`, listOp, listArgs, listUrl]]) {
  const raw = await measure(async () => {
    const r = await fetch(u, { headers: { authorization: 'Bearer ghp_bench_token', accept: 'application/json' } });
    await r.json();
  });
  const ours = await measure(async () => {
    const out = await executeOperation(o, a, config);
    if (!out.ok) throw new Error(JSON.stringify(out));
  });
  const cpu = await measure(async () => {
    const v = validateArguments(o, a);
    prepareRequest(o, v.args, config);
  });
  rows.push({ label, raw, ours, cpu });
}
server.close();
console.log(`execution overhead, ${N} calls each (loopback server, Node ${process.version})`);
for (const { label, raw, ours, cpu } of rows) {
  console.log(`\n${label}`);
  console.log(`  raw fetch + JSON.parse      p50 ${fmt(raw.p50)}  p99 ${fmt(raw.p99)}`);
  console.log(`  executeOperation            p50 ${fmt(ours.p50)}  p99 ${fmt(ours.p99)}`);
  console.log(`  overhead (difference)       p50 ${fmt(ours.p50 - raw.p50)}  p99 ${fmt(ours.p99 - raw.p99)}`);
  console.log(`  validate + prepare only     p50 ${fmt(cpu.p50)}  p99 ${fmt(cpu.p99)}`);
}
