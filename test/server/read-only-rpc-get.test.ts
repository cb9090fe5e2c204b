// A read-only server refuses an RPC action's GET twin (outside audit first51, defect 1): AWS query APIs declare every
// action as both `GET /#Action=X` and `POST /#Action=X`, and `GET_TerminateInstances` was served as a read, sent to
// the upstream, and named by describe_tools as the one to call after refusing the POST. The importer now decides a
// GET's read-only flag by the action it runs (importer/text.ts actionReads), and TerminateInstances is destructive
// (defect 2): a server that is not read-only asks for the confirmation a DELETE needs. A real import into a scratch
// registry, a real MCP client, a real local HTTP upstream that records what reaches it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { ERAS, call, catalogs, connectInMemory, type Connected, type Era } from '../helpers/mcp.js';
import { handlesIn } from '../helpers/describe-handles.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import { tempDir } from '../helpers/temp.js';

let up: Upstream;
let registry: string;
const open: Connected[] = [];

/** One action as AWS's specs declare it: `GET` and `POST /#Action=X`, Action pinned by the path. */
function action(name: string, summary: string): Record<string, unknown> {
  const parameters = [
    { name: 'InstanceId', in: 'query', required: true, schema: { type: 'string' } },
    { name: 'Action', in: 'query', required: true, schema: { type: 'string', enum: [name] } },
  ];
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } };
  return {
    [`/#Action=${name}`]: {
      get: { operationId: `GET_${name}`, summary, parameters, responses: ok },
      post: { operationId: `POST_${name}`, summary, parameters, responses: ok },
    },
  };
}

beforeAll(async () => {
  up = await startUpstream();
  registry = tempDir('ro-rpc-get-');
  const spec = join(registry, 'ec2.json');
  writeFileSync(spec, JSON.stringify({
    openapi: '3.0.0', info: { title: 'EC2', version: '2016-11-15' }, servers: [{ url: 'https://ec2.example' }],
    paths: {
      ...action('DescribeInstances', 'Describes the specified instances'),
      ...action('RunInstances', 'Launches the specified number of instances'),
      ...action('TerminateInstances', 'Shuts down the specified instances'),
    },
  }));
  writeRegistry(await importSpec(spec, { name: 'ec2' }), registry);
});
afterAll(async () => {
  await up.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  up.clear();
});

async function connect(era: Era, readOnly: boolean): Promise<Connected> {
  const c = await connectInMemory({ catalogs: catalogs(join(registry, 'ec2')), settings: { baseUrls: { ec2: up.url }, readOnly, env: {} } }, { era });
  open.push(c);
  return c;
}

describe.each(ERAS)('%s era', (era: Era) => {
  test('read-only: GET_RunInstances and GET_TerminateInstances are refused like their POST twins, before anything is sent; GET_DescribeInstances runs', async () => {
    const { client } = await connect(era, true);
    const names = ['GET_RunInstances', 'POST_RunInstances', 'GET_TerminateInstances', 'POST_TerminateInstances', 'GET_DescribeInstances'];
    const d = await call(client, 'describe_tools', { tool_names: names });
    expect(d.success, JSON.stringify(d.error)).toBe(true);
    const tools = (d.value as { tools: Array<{ name: string; warnings?: string[] }> }).tools;
    const refusal = (name: string): string | undefined => tools.find((t) => t.name === name)?.warnings?.find((w) => /read-only/.test(w));
    // RunInstances is no delete: its GET is refused because its action does not read
    for (const name of ['GET_RunInstances', 'GET_TerminateInstances']) {
      expect(refusal(name)).toMatch(/^Refused on this server: it is read-only, and this operation changes data \(GET\)/);
    }
    expect(refusal('POST_RunInstances')).toMatch(/^Refused on this server: it is read-only/);
    expect(refusal('POST_TerminateInstances')).toMatch(/^Refused on this server: it is read-only/);
    expect(refusal('GET_DescribeInstances')).toBeUndefined();
    // the instruction never steers the agent to the GET twin of a refused write: described alone, the twins are refused
    const twins = await call(client, 'describe_tools', { tool_names: ['GET_RunInstances', 'GET_TerminateInstances'] });
    expect(twins.instruction).toMatch(/^Do not call \S+: GET_RunInstances and GET_TerminateInstances change data, which this read-only server refuses\./);
    const handles = handlesIn(d);
    const run = await call(client, 'execute_tool', { tool_name: 'GET_RunInstances', args: { InstanceId: 'i-0abc' }, handle: handles.GET_RunInstances });
    expect(run.error?.code).toBe('READ_ONLY_MODE');
    const get = await call(client, 'execute_tool', { tool_name: 'GET_TerminateInstances', args: { InstanceId: 'i-0abc' }, confirm: 'GET_TerminateInstances', handle: handles.GET_TerminateInstances });
    expect(get.error?.code).toBe('READ_ONLY_MODE');
    expect(up.requests).toHaveLength(0);
    const read = await call(client, 'execute_tool', { tool_name: 'GET_DescribeInstances', args: { InstanceId: 'i-0abc' }, handle: handles.GET_DescribeInstances });
    expect(read.success, JSON.stringify(read.error)).toBe(true);
    expect(up.requests.map((q) => q.method)).toEqual(['GET']);
    expect(up.requests[0]?.url).toContain('Action=DescribeInstances');
  });

  test('not read-only: POST_TerminateInstances needs the confirmation a DELETE needs', async () => {
    const { client } = await connect(era, false);
    const d = await call(client, 'describe_tools', { tool_names: ['POST_TerminateInstances'] });
    expect(JSON.stringify(d.value)).toMatch(/"destructive":true/);
    const unconfirmed = await call(client, 'execute_tool', { tool_name: 'POST_TerminateInstances', args: { InstanceId: 'i-0abc' }, handle: handlesIn(d).POST_TerminateInstances });
    expect(unconfirmed.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(up.requests).toHaveLength(0);
  });
});
