#!/usr/bin/env node
// The peer, measured in the same run on the same GitHub spec: @ivotoby/openapi-mcp-server (devDependency, bench
// only) in its dynamic mode (list-api-endpoints / get-api-endpoint-schema / invoke-api-endpoint) and, as a real
// one-tool-per-operation server, in its default "all" mode. Run alone: node scripts/bench/peer.mjs [--quick]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GITHUB_SPEC, ROOT, median, progress, resultText, round, rssOf, startStdio, tokens } from './lib/common.mjs';
import { startUpstream } from './lib/upstream.mjs';
import { TASK } from './tokens.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--quick']);

const MB = 1024 * 1024;
export const PEER = '@ivotoby/openapi-mcp-server';

function peerBin() {
  const require = createRequire(join(ROOT, 'package.json'));
  const pkgFile = require.resolve(`${PEER}/package.json`);
  const pkg = require(pkgFile);
  return { bin: join(dirname(pkgFile), 'bin', 'mcp-server.js'), version: pkg.version };
}

/** The peer's equivalents of our typical operations: its schema tool takes a path. */
export const PEER_ENDPOINTS = [
  { op: 'issues_create', endpoint: '/repos/{owner}/{repo}/issues' },
  { op: 'repos_get', endpoint: '/repos/{owner}/{repo}' },
  { op: 'pulls_list', endpoint: '/repos/{owner}/{repo}/pulls' },
];

export async function startPeer(mode, baseUrl) {
  const { bin } = peerBin();
  return startStdio(process.execPath, [bin, '--api-base-url', baseUrl, '--openapi-spec', GITHUB_SPEC, '--tools', mode], {
    env: { VERBOSE: 'false' },
    timeoutMs: 300_000,
    // In "all" mode some of its tools have an inputSchema whose type is not "object", which the SDK client rejects.
    lax: mode === 'all',
  });
}

/** Runs the peer measurements; `runs` start-ups per mode for the start-time median. */
export async function runPeer({ runs = 3 } = {}) {
  const { version } = peerBin();
  const upstream = await startUpstream();
  try {
    const dynamic = { startMs: [], rssMB: [] };
    let measured;
    for (let i = 0; i < runs; i++) {
      progress(`peer: dynamic mode start ${i + 1}/${runs} ...`);
      const s = await startPeer('dynamic', upstream.url);
      dynamic.startMs.push(s.startMs);
      dynamic.rssMB.push((rssOf(s.pid) ?? NaN) / MB);
      if (i === 0) {
        try {
          measured = await measureDynamic(s, upstream);
        } finally {
          await s.close();
        }
      } else await s.close();
    }
    const all = { startMs: [], rssMB: [] };
    let allTools;
    for (let i = 0; i < Math.max(1, Math.min(runs, 2)); i++) {
      progress(`peer: all mode start ${i + 1} ...`);
      const s = await startPeer('all', upstream.url);
      all.startMs.push(s.startMs);
      all.rssMB.push((rssOf(s.pid) ?? NaN) / MB);
      if (i === 0) {
        const invalid = s.tools.filter((t) => t?.inputSchema?.type !== 'object').length;
        allTools = { toolCount: s.tools.length, tokens: await tokens(s.tools), toolsBreakingMcpSchema: invalid };
      }
      await s.close();
    }
    return {
      name: PEER,
      version,
      dynamic: {
        ...measured,
        startMedianMs: round(median(dynamic.startMs), 1),
        startSamplesMs: dynamic.startMs.map((x) => round(x, 1)),
        rssAfterStartMB: round(median(dynamic.rssMB), 1),
      },
      all: { ...allTools, startMedianMs: round(median(all.startMs), 1), rssAfterStartMB: round(median(all.rssMB), 1) },
    };
  } finally {
    await upstream.close();
  }
}

async function measureDynamic(s, upstream) {
  const call = async (name, args) => {
    const r = await s.client.callTool({ name, arguments: args }, { timeout: 120_000 });
    const text = resultText(r);
    return { ok: !r.isError, request: await tokens(args), response: await tokens(text), text };
  };
  const toolsList = await tokens(s.tools);
  const list = await call('list-api-endpoints', {});
  const schemas = [];
  for (const e of PEER_ENDPOINTS) {
    const r = await call('get-api-endpoint-schema', { endpoint: e.endpoint });
    schemas.push({ op: e.op, endpoint: e.endpoint, tokens: r.response, ok: r.ok });
  }
  // The same agent task: list -> schema -> invoke against the local server.
  const steps = [];
  const step = async (tool, args) => {
    const r = await call(tool, args);
    steps.push({ tool, request: r.request, response: r.response, ok: r.ok });
    return r;
  };
  await step('list-api-endpoints', {});
  await step('get-api-endpoint-schema', { endpoint: PEER_ENDPOINTS[0].endpoint });
  const before = upstream.requests();
  const inv = await step('invoke-api-endpoint', { endpoint: PEER_ENDPOINTS[0].endpoint, method: 'POST', params: TASK.args });
  const reachedUpstream = upstream.requests() - before === 1 && inv.ok;
  const task = toolsList + steps.reduce((a, x) => a + x.request + x.response, 0);
  return { toolCount: s.tools.length, toolsList, listEndpoints: list.response, listOk: list.ok, schemas, task: { steps, total: task, reachedUpstream } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await runPeer({ runs: process.argv.includes('--quick') ? 1 : 3 }), null, 2));
}
