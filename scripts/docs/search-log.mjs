// Prints what `serve --search-log` writes for one agent's search, describe and call: a real MCP client (handshake
// era, so the lines carry its session's tag) against the built server, whose GitHub base URL is a local HTTP server
// standing in for api.github.com (it answers 201), so nothing leaves the machine. Ids, session tags and times
// differ from run to run: they are printed as <search id>, <session tag> and <time>. `npm run docs` writes the
// output into docs/SEARCH-LOG.md; test/docs/generated.test.ts checks it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serveHttp } from './serve-http.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, []);

const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ number: 42, title: 'Bug', state: 'open' }));
  });
});
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
const dir = mkdtempSync(join(tmpdir(), 'ac-docs-log-'));
const log = join(dir, 'search.log');
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  API_CATALOG_LOG_LEVEL: 'warn',
  GITHUB_BASE_URL: `http://127.0.0.1:${upstream.address().port}`,
};
const server = await serveHttp(['--search-log', log], env);
const client = new Client({ name: 'docs-search-log', version: '1.0.0' }, { capabilities: {} });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  await client.callTool({ name: 'search_tools', arguments: { query: 'create an issue', limit: 2 } });
  await client.callTool({ name: 'describe_tools', arguments: { tool_names: ['issues_create'] } });
  const r = await client.callTool({ name: 'execute_tool', arguments: { tool_name: 'issues_create', args: { owner: 'octo', repo: 'hello', title: 'Bug' } } });
  if (r.structuredContent?.success !== true) throw new Error(`execute_tool failed: ${JSON.stringify(r.structuredContent)}`);
} finally {
  await client.close();
  await server.stop();
  upstream.close();
}
const text = readFileSync(log, 'utf8');
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  text
    .replace(/"(id|search)":"[0-9a-f]+"/g, '"$1":"<search id>"')
    .replace(/"session":"[0-9a-f]+"/g, '"session":"<session tag>"')
    .replace(/"time":"[^"]+"/g, '"time":"<time>"'),
);
