// minimal SDK v2 server: one tool returning a ~4 KB structured result (GC comparison with api-catalog serve)
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
const results = Array.from({ length: 8 }, (_, i) => ({ name: `repos_list-thing-${i}`, domain: 'repos', summary: 'List pull requests associated with a commit '.repeat(1), requiredParams: ['owner', 'repo'], score: 0.9 }));
serveStdio(() => {
  const s = new Server({ name: 'mini', version: '0' }, { capabilities: { tools: {} } });
  s.setRequestHandler('tools/list', () => ({ tools: [{ name: 'search_tools', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }] }));
  s.setRequestHandler('tools/call', async (req) => {
    const q = String(req.params.arguments?.query ?? '');
    const value = { success: true, tool: 'search_tools', value: { results: results.map((r) => ({ ...r, summary: r.summary + q })), total: 100, hint: 'Call describe_tools ' + q } };
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  });
  return s;
});
