// Prints the README's example session: a real MCP client of the 2026-07-28 era talks to the built server
// (`serve --http` on a free port, the embedded GitHub catalog, a placeholder GITHUB_TOKEN that the dry run shows
// redacted) and each request and answer is
// printed as one `agent → tool {args}` line and the answer's JSON, with long strings, long lists and the signed
// handle shortened so that the text stays readable and the same from run to run. Nothing is sent to GitHub: the
// last call is a dry run. `npm run docs` writes the output into README.md; test/docs/generated.test.ts checks it.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serveHttp } from './serve-http.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, []);

// Not a credential: a placeholder, so that describe says the token is set and the dry run shows it redacted.
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', API_CATALOG_LOG_LEVEL: 'warn', GITHUB_TOKEN: 'placeholder-not-a-token' };
const server = await serveHttp([], env);
const client = new Client({ name: 'docs-session', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));

/** The answer with strings over `max` characters cut, lists over `items` shortened, handles replaced. */
function shorten(v, depth = 0) {
  if (typeof v === 'string') return v.length > 90 ? `${v.slice(0, 87)}...` : v;
  if (Array.isArray(v)) {
    const keep = v.every((x) => typeof x !== 'object') ? 4 : depth >= 3 ? 2 : 3;
    return v.length > keep ? [...v.slice(0, keep).map((x) => shorten(x, depth + 1)), `... ${v.length - keep} more`] : v.map((x) => shorten(x, depth + 1));
  }
  if (v !== null && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === 'handle' ? '<signed handle>' : shorten(x, depth + 1);
    return out;
  }
  return v;
}

const lines = [];
let handle;
async function step(tool, args) {
  lines.push(`agent → ${tool} ${JSON.stringify(args).replace(handle ?? '\0', '<signed handle>')}`);
  const r = await client.callTool({ name: tool, arguments: args });
  const answer = r.structuredContent;
  // one line per top-level field after success and tool, so that value, error and instruction each start a line
  const { success, tool: name, ...rest } = shorten(answer);
  const fields = Object.entries(rest).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  lines.push(`      ← {"success":${success},"tool":${JSON.stringify(name)},\n        ${fields.join(',\n        ')}}`);
  return answer;
}

try {
  await step('search_tools', { query: 'create an issue', limit: 3 });
  const args = { owner: 'octo', repo: 'hello', title: 'Bug' };
  await step('execute_tool', { tool_name: 'issues_create', args });
  const d = await step('describe_tools', { tool_names: ['issues_create'] });
  handle = d.value.tools[0].example?.handle ?? d.value.tools[0].handle;
  if (typeof handle !== 'string') throw new Error('describe_tools gave no handle');
  await step('execute_tool', { tool_name: 'issues_create', args: { owner: 'octo', repo: 'hello', titel: 'Bug' }, handle });
  await step('execute_tool', { tool_name: 'issues_create', args, handle, dry_run: true });
} finally {
  await client.close();
  await server.stop();
}
process.stdout.write(lines.join('\n') + '\n');
