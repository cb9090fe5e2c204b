// An RPC-style API deletes with POST (`POST /tags/delete.json`): the importer marks such an operation destructive
// (importer/text.ts deletesThroughPath), so execute_tool asks for the user's confirmation exactly as for a DELETE,
// and an unconfirmed call never reaches the upstream. A real import into a scratch registry, a real MCP client.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { ERAS, call, catalogs, connectInMemory, type Era } from '../helpers/mcp.js';
import { handlesIn } from '../helpers/describe-handles.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

let up: Upstream;
let registry: string;

beforeAll(async () => {
  up = await startUpstream();
  registry = tempDir('rpc-delete-');
  const spec = join(registry, 'tags.json');
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } };
  const body = { content: { 'application/json': { schema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] } } } };
  writeFileSync(spec, JSON.stringify({
    openapi: '3.0.3', info: { title: 'Tags', version: '1' }, servers: [{ url: 'https://tags.example' }],
    paths: {
      '/tags/delete.json': { post: { operationId: 'deleteTag', summary: 'Deletes a tag permanently', requestBody: body, responses: ok } },
      '/tags/info.json': { post: { operationId: 'tagInfo', summary: 'Information about a tag', requestBody: body, responses: ok } },
    },
  }));
  writeRegistry(await importSpec(spec, { name: 'tags' }), registry);
});
afterAll(async () => {
  await up.close();
});

describe.each(ERAS)('%s era', (era: Era) => {
  test('POST /tags/delete.json needs the confirmation a DELETE needs; POST /tags/info.json does not', async () => {
    up.clear();
    const c = await connectInMemory({ catalogs: catalogs(join(registry, 'tags')), settings: { baseUrls: { tags: up.url }, readOnly: false, env: {} } }, { era });
    try {
      const described = await call(c.client, 'describe_tools', { tool_names: ['deleteTag', 'tagInfo'] });
      expect(JSON.stringify(described.value)).toMatch(/"destructive":true/);
      // the describe handles, which a 2026-07-28 connection requires (it remembers nothing)
      const handles = handlesIn(described);
      const unconfirmed = await call(c.client, 'execute_tool', { tool_name: 'deleteTag', args: { tag: 'newsletter' }, handle: handles.deleteTag });
      expect(unconfirmed.error?.code).toBe('CONFIRMATION_REQUIRED');
      expect(up.requests).toHaveLength(0);
      const info = await call(c.client, 'execute_tool', { tool_name: 'tagInfo', args: { tag: 'newsletter' }, handle: handles.tagInfo });
      expect(info.success).toBe(true);
      const confirmed = await call(c.client, 'execute_tool', { tool_name: 'deleteTag', args: { tag: 'newsletter' }, confirm: 'deleteTag', handle: handles.deleteTag });
      expect(confirmed.success).toBe(true);
      expect(up.hits('/tags/delete.json')).toHaveLength(1);
      expect(up.hits('/tags/info.json')).toHaveLength(1);
    } finally {
      await c.close();
    }
  });
});
