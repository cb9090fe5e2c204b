#!/usr/bin/env node
// Token economics on the GitHub catalog, through the built server (dist/) and a real MCP client over an in-memory
// transport: tools/list vs one plain tool per operation, search_tools at limit 8, describe_tools at each level,
// and a scripted agent task end to end vs loading all tools. Run alone: node scripts/bench/tokens.mjs [--json]
import { fileURLToPath } from 'node:url';
import { dist, resultText, tokens, TOKENIZER } from './lib/common.mjs';
import { startUpstream } from './lib/upstream.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, ['--json']);

/** Typical operations for the describe levels. */
export const DESCRIBE_OPS = ['issues_create', 'repos_get', 'pulls_list'];
/** Queries whose search_tools responses are counted at limit 8. */
export const SEARCH_QUERIES = ['create an issue', 'list pull requests', 'get a repository'];
/** The agent task: open an issue. */
export const TASK = { query: 'create an issue', op: 'issues_create', args: { owner: 'octocat', repo: 'hello-world', title: 'Found a bug' } };

/**
 * The catalog as a plain MCP server would expose it: one tool per operation, `{name, description, inputSchema}`,
 * description = summary plus the cleaned description, inputSchema = the operation's own JSON Schema.
 */
export function plainTools(operations) {
  return operations.map((o) => ({
    name: o.name,
    description: o.description && o.description !== o.summary ? `${o.summary}\n\n${o.description}` : o.summary,
    inputSchema: o.inputSchema,
  }));
}

/** Connects a real SDK client to createServer() over InMemoryTransport. Rate limit off; upstream = baseUrl. */
export async function connectInMemory(set, baseUrl) {
  const { createServer } = await dist('server/index.js');
  const { Client } = await import('@modelcontextprotocol/client');
  const { InMemoryTransport } = await import('@modelcontextprotocol/client');
  const baseUrls = {};
  for (const c of set.catalogs) baseUrls[c.meta.name] = baseUrl;
  const { server } = createServer({ catalogs: set, settings: { baseUrls, readOnly: false, env: {} }, rateLimitPerMinute: 0 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'api-catalog-bench', version: '0.0.0' });
  await client.connect(b);
  return { client, close: async () => { await client.close(); await server.close(); } };
}

/** Runs every token measurement; returns plain numbers (see docs/benchmarks.json `tokens`). */
export async function runTokens() {
  const { loadCatalogSet } = await dist('server/index.js');
  const set = loadCatalogSet([]);
  const upstream = await startUpstream();
  const { client, close } = await connectInMemory(set, upstream.url);
  try {
    const listed = await client.listTools();
    const instructions = client.getInstructions() ?? '';
    const ours = await tokens(listed.tools);
    const plain = plainTools(set.operations);
    const plainAll = await tokens(plain);
    const call = async (name, args) => {
      const r = await client.callTool({ name, arguments: args });
      const text = resultText(r);
      return { ok: !r.isError, request: await tokens(args), response: await tokens(text), text };
    };

    const search = [];
    for (const q of SEARCH_QUERIES) {
      const r = await call('search_tools', { query: q, limit: 8 });
      search.push({ query: q, tokens: r.response, ok: r.ok });
    }
    const describe = [];
    for (const op of DESCRIBE_OPS) {
      const row = { op };
      for (const detail of ['summary', 'parameters', 'full']) row[detail] = (await call('describe_tools', { tool_names: [op], detail })).response;
      row.plainTool = await tokens(plain.find((t) => t.name === op));
      describe.push(row);
    }

    // The scripted agent task, every request and response counted.
    const steps = [];
    const step = async (tool, args) => {
      const r = await call(tool, args);
      steps.push({ tool, request: r.request, response: r.response, ok: r.ok });
      return r;
    };
    await step('list_domains', {});
    await step('search_tools', { query: TASK.query, limit: 8 });
    await step('describe_tools', { tool_names: [TASK.op] });
    const before = upstream.requests();
    const exec = await step('execute_tool', { tool_name: TASK.op, args: TASK.args });
    const reachedUpstream = upstream.requests() - before === 1 && exec.ok;
    const taskOurs = ours + (await tokens(instructions)) + steps.reduce((s, x) => s + x.request + x.response, 0);
    // The plain alternative: every tool loaded, then one direct call whose response is the raw upstream body.
    const raw = await fetch(`${upstream.url}/repos/octocat/hello-world/issues`, { method: 'POST', body: JSON.stringify({ title: TASK.args.title }) });
    const rawText = await raw.text();
    const taskPlain = plainAll + (await tokens(TASK.args)) + (await tokens(rawText));

    return {
      tokenizer: TOKENIZER,
      operations: set.operations.length,
      toolsList: { ours, instructions: await tokens(instructions), toolCount: listed.tools.length },
      plainTools: { tokens: plainAll, toolCount: plain.length, perTool: Math.round(plainAll / plain.length) },
      savingsPct: Math.round((1 - ours / plainAll) * 1000) / 10,
      search,
      describe,
      task: { steps, ours: taskOurs, plain: taskPlain, reachedUpstream, ratio: Math.round(taskPlain / taskOurs) },
    };
  } finally {
    await close();
    await upstream.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await runTokens();
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else {
    console.log(`tokenizer: ${r.tokenizer}`);
    console.log(`tools/list ours ${r.toolsList.ours} (+${r.toolsList.instructions} instructions) vs plain ${r.plainTools.tokens} (${r.plainTools.toolCount} tools)`);
    for (const s of r.search) console.log(`search_tools "${s.query}" limit 8: ${s.tokens}`);
    for (const d of r.describe) console.log(`describe ${d.op}: summary ${d.summary}, parameters ${d.parameters}, full ${d.full}; as a plain tool ${d.plainTool}`);
    console.log(`agent task: ours ${r.task.ours} vs all tools ${r.task.plain} (reached upstream: ${r.task.reachedUpstream})`);
  }
}
