#!/usr/bin/env node
// What each protocol era costs, through the built product (dist/): tokens of tools/list and of describe_tools at
// each level as a 2026-07-28 client and as a legacy client see them (the describe answers carry handles), and
// stdio start-up per era — the server alone (one process: spawn -> tools/list answer, -> first search answer) and
// what an SDK client sees (legacy handshake; pinned to 2026-07-28 and 'auto', whose stdio transport spawns a probe
// process first). `--baseline <path>` measures another build's dist/cli/index.js (e.g. an older commit's, which
// speaks the legacy era only) in the same loop, interleaved, so both share the machine's load. Prints a table;
// --json prints the numbers. Loopback only.
// `raw discover` is a stdio probe's life as its client sees it: spawn -> the server/discover answer, -> the process
// gone after its stdin ended. `--baseline-modern`: the baseline speaks 2026-07-28 too (a build of this series), so
// every kind is also measured on it and paired with its own baseline kind.
//   node scripts/bench-eras.mjs [--runs 11] [--baseline <other dist/cli/index.js> [--baseline-modern]] [--skip-tokens] [--json]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, null);

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'bench-eras', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const DESCRIBE_OPS = ['issues_create', 'repos_get', 'pulls_list'];

function parseArgs(argv) {
  const o = { runs: 11, cli: join(ROOT, 'dist', 'cli', 'index.js'), baseline: undefined, baselineModern: false, tokens: true, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--baseline') o.baseline = resolve(argv[++i]);
    else if (a === '--baseline-modern') o.baselineModern = true;
    else if (a === '--skip-tokens') o.tokens = false;
    else if (a === '--json') o.json = true;
    else {
      process.stderr.write(`bench-eras: unknown option ${a}; --help says what it takes\n`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(o.runs) || o.runs < 1) throw new Error('bench-eras: --runs must be a positive integer');
  for (const f of [o.cli, o.baseline].filter(Boolean)) if (!existsSync(f)) throw new Error(`bench-eras: ${f} is missing; run npm run build`);
  return o;
}

const median = (xs) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
};
const r1 = (x) => Math.round(x * 10) / 10;

let encoder;
async function tokens(value) {
  if (!encoder) {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: o200k } = await import('js-tiktoken/ranks/o200k_base');
    encoder = new Tiktoken(o200k);
  }
  return encoder.encode(typeof value === 'string' ? value : JSON.stringify(value)).length;
}

/** Tokens per era, in memory through the connection entry stdio uses (GitHub catalog). */
async function measureTokens() {
  const { serveConnection } = await import(join(ROOT, 'dist', 'server', 'transports', 'stdio.js'));
  const { loadCatalogSet } = await import(join(ROOT, 'dist', 'server', 'core', 'catalogs.js'));
  const { Client, InMemoryTransport } = await import('@modelcontextprotocol/client');
  const set = loadCatalogSet([]);
  const out = {};
  for (const era of ['modern', 'legacy']) {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const served = serveConnection({ catalogs: set, settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 }, b);
    const client = new Client({ name: 'bench-eras', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
    await client.connect(a);
    const listed = await client.listTools();
    const row = { toolsList: await tokens(listed.tools), describe: {} };
    for (const op of DESCRIBE_OPS) {
      row.describe[op] = {};
      for (const detail of ['summary', 'parameters', 'full']) {
        const r = await client.callTool({ name: 'describe_tools', arguments: { tool_names: [op], detail } });
        row.describe[op][detail] = await tokens(r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'));
      }
    }
    out[era] = row;
    await client.close();
    await served.close();
  }
  return out;
}

/**
 * One server process over raw stdio: spawn -> tools/list answer, and -> the answer of a search sent right after it.
 * Legacy opens with initialize; a 2026-07-28 process gets tools/list first (an SDK client's probe runs elsewhere).
 */
function rawStart(cli, era) {
  return new Promise((resolveRun, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'serve'], { env: { ...process.env, API_CATALOG_LOG_LEVEL: 'error' }, stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = '';
    const marks = {};
    const send = (o) => child.stdin.write(JSON.stringify(o) + '\n');
    const params = (p) => (era === 'modern' ? { ...p, _meta: META } : p);
    child.stdout.on('data', (d) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (msg.id === 1 && era === 'legacy') {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
        } else if (msg.id === 2) {
          marks.toolsList = performance.now() - t0;
          send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: params({ name: 'search_tools', arguments: { query: 'create an issue' } }) });
        } else if (msg.id === 3) {
          marks.firstSearch = performance.now() - t0;
          if (!msg.result?.structuredContent?.success) reject(new Error(`search failed: ${JSON.stringify(msg).slice(0, 300)}`));
          child.stdin.end();
        }
      }
    });
    child.on('exit', () => resolveRun(marks));
    child.on('error', reject);
    if (era === 'legacy') send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-eras', version: '1' } } });
    else send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
  });
}

/** A stdio probe: spawn -> the server/discover answer (`toolsList` here), -> the process gone after stdin ended (`firstSearch`). */
function rawDiscover(cli) {
  return new Promise((resolveRun, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'serve'], { env: { ...process.env, API_CATALOG_LOG_LEVEL: 'error' }, stdio: ['pipe', 'pipe', 'ignore'] });
    const marks = {};
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d.toString();
      if (!buf.includes('\n') || marks.toolsList !== undefined) return;
      const msg = JSON.parse(buf.slice(0, buf.indexOf('\n')));
      if (!Array.isArray(msg.result?.supportedVersions)) reject(new Error(`discover failed: ${buf.slice(0, 300)}`));
      marks.toolsList = performance.now() - t0;
      // as the SDK disposes of its probe: end stdin and send SIGTERM
      child.stdin.end();
      child.kill('SIGTERM');
    });
    child.on('exit', () => resolveRun({ ...marks, firstSearch: performance.now() - t0 }));
    child.on('error', reject);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } }) + '\n');
  });
}

/** What an SDK client sees: connect (a pinned or auto client's probe included) + tools/list, then a first search. */
async function clientStart(cli, mode) {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const negotiation = mode === 'legacy' ? {} : { versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: MODERN } } };
  const client = new Client({ name: 'bench-eras', version: '1' }, negotiation);
  const t0 = performance.now();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'serve'], env: { ...process.env, API_CATALOG_LOG_LEVEL: 'error' }, stderr: 'ignore' }));
  await client.listTools();
  const toolsList = performance.now() - t0;
  const r = await client.callTool({ name: 'search_tools', arguments: { query: 'create an issue' } });
  const firstSearch = performance.now() - t0;
  if (r.isError) throw new Error('search failed');
  const era = client.getProtocolEra?.();
  await client.close();
  return { toolsList, firstSearch, era };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const result = { date: new Date().toISOString(), node: process.version, cli: o.cli, ...(o.baseline ? { baseline: o.baseline } : {}), runs: o.runs, loadAverageStart: loadavg().map((x) => r1(x)) };
  if (o.tokens) result.tokens = await measureTokens();
  const modernKinds = ['raw modern', 'raw discover', 'client pinned', 'client auto'];
  const kinds = ['baseline raw legacy', 'baseline client legacy', ...modernKinds.map((k) => `baseline ${k}`), 'raw legacy', 'raw modern', 'raw discover', 'client legacy', 'client pinned', 'client auto'];
  const samples = Object.fromEntries(kinds.map((k) => [k, []]));
  const bare = [];
  for (let i = 0; i < o.runs; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    bare.push(performance.now() - t);
    // Every kind once per round, in an order that alternates between rounds: a machine whose load drifts during a
    // round does not favour whichever comes first.
    const round = [
      ...(o.baseline ? [['baseline raw legacy', () => rawStart(o.baseline, 'legacy')], ['baseline client legacy', () => clientStart(o.baseline, 'legacy')]] : []),
      ...(o.baseline && o.baselineModern
        ? [
            ['baseline raw modern', () => rawStart(o.baseline, 'modern')],
            ['baseline raw discover', () => rawDiscover(o.baseline)],
            ['baseline client pinned', () => clientStart(o.baseline, 'pinned')],
            ['baseline client auto', () => clientStart(o.baseline, 'auto')],
          ]
        : []),
      ['raw legacy', () => rawStart(o.cli, 'legacy')],
      ['raw modern', () => rawStart(o.cli, 'modern')],
      ['raw discover', () => rawDiscover(o.cli)],
      ['client legacy', () => clientStart(o.cli, 'legacy')],
      ['client pinned', () => clientStart(o.cli, 'pinned')],
      ['client auto', () => clientStart(o.cli, 'auto')],
    ];
    if (i % 2 === 1) round.reverse();
    for (const [kind, run] of round) samples[kind].push(await run());
  }
  result.bareNodeMs = r1(median(bare));
  result.startup = {};
  // Paired with the baseline of the same round (same load), per kind: the median of the differences.
  const paired = (k, base, f) => (samples[base].length === samples[k].length && samples[base].length > 0 ? r1(median(samples[k].map((s, i) => s[f] - samples[base][i][f]))) : undefined);
  for (const k of kinds) {
    if (samples[k].length === 0) continue;
    const base = samples[`baseline ${k}`]?.length > 0 ? `baseline ${k}` : k.startsWith('client') ? 'baseline client legacy' : 'baseline raw legacy';
    const dl = k.startsWith('baseline') ? undefined : paired(k, base, 'toolsList');
    const ds = k.startsWith('baseline') ? undefined : paired(k, base, 'firstSearch');
    result.startup[k] = {
      toolsListMs: r1(median(samples[k].map((s) => s.toolsList))),
      firstSearchMs: r1(median(samples[k].map((s) => s.firstSearch))),
      ...(dl !== undefined ? { vsBaselineMs: { toolsList: dl, firstSearch: ds } } : {}),
      ...(samples[k][0].era !== undefined ? { era: samples[k][0].era } : {}),
    };
  }
  result.loadAverageEnd = loadavg().map((x) => r1(x));
  if (o.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  console.log(`load average ${result.loadAverageStart.join(' / ')} at the start, ${result.loadAverageEnd.join(' / ')} at the end`);
  console.log(`bench-eras: ${o.cli}${o.baseline ? ` (baseline ${o.baseline})` : ''}, ${o.runs} runs, node ${process.version}; \`node -e 0\` ${result.bareNodeMs} ms`);
  if (result.tokens) {
    for (const [era, t] of Object.entries(result.tokens)) {
      console.log(`tokens (${era}): tools/list ${t.toolsList}; ` + DESCRIBE_OPS.map((op) => `${op} ${t.describe[op].summary}/${t.describe[op].parameters}/${t.describe[op].full}`).join(', ') + ' (summary/parameters/full)');
    }
  }
  for (const [k, v] of Object.entries(result.startup)) {
    const d = v.vsBaselineMs ? ` [paired vs baseline: ${v.vsBaselineMs.toolsList >= 0 ? '+' : ''}${v.vsBaselineMs.toolsList} / ${v.vsBaselineMs.firstSearch >= 0 ? '+' : ''}${v.vsBaselineMs.firstSearch} ms]` : '';
    const [a, b] = k.endsWith('discover') ? ['discover answer', 'process gone'] : ['tools/list', 'first search'];
    console.log(`start-up ${k.padEnd(23)} spawn -> ${a} ${v.toolsListMs} ms, -> ${b} ${v.firstSearchMs} ms${v.era ? ` (era ${v.era})` : ''}${d}`);
  }
}

await main();
