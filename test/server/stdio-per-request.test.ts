// stdio, checked per request as over HTTP (the built `serve`, raw lines): on a 2026-07-28 connection every request's
// claimed version is checked, not only the opening's (-32022, the opening check's answer); a 2026-07-28 connection
// remembers no describe (the handle is required, as over HTTP) while a legacy one still does; tools/list refuses a
// cursor it never issued (-32602, both eras); a line that is not a JSON-RPC request is answered (-32700 / -32600,
// no id unless it carried a usable one) and a notification- or response-shaped one is not.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ERAS, MODERN_VERSION, type Era } from '../helpers/mcp.js';
import { spawnStdioServe, type StdioLines } from '../helpers/stdio-lines.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});
afterEach(() => up.clear());

const serve = (): StdioLines => spawnStdioServe({ PETSTORE_BASE_URL: up.url, API_CATALOG_RATE_LIMIT: '0' });

/** The 2026-07-28 per-request envelope, claiming `version`. */
function meta(version = MODERN_VERSION): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: 'stdio-per-request', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** A request of `era` (modern: with the envelope claiming `version`). */
function request(era: Era, id: number, method: string, params: Record<string, unknown> = {}, version?: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: era === 'modern' ? { ...params, _meta: meta(version) } : params };
}

/** Opens the connection the way a client of `era` does: modern with tools/list (its envelope), legacy with initialize. */
async function open(p: StdioLines, era: Era, id = 1): Promise<void> {
  if (era === 'modern') {
    p.send(request(era, id, 'tools/list'));
    expect((await p.response(id)).result.tools).toHaveLength(4);
    return;
  }
  p.send({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  expect((await p.response(id)).result.protocolVersion).toBe('2025-11-25');
  p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

/** The describe handle of `name` in a describe_tools answer. */
function handleIn(answer: Record<string, any>, name: string): string {
  const entry = (answer.result?.structuredContent?.value?.tools as Array<Record<string, any>> | undefined)?.find((t) => t.name === name);
  const handle = entry?.example?.handle ?? entry?.handle;
  if (typeof handle !== 'string') throw new Error(`no handle for ${name} in ${JSON.stringify(answer).slice(0, 300)}`);
  return handle;
}

describe.each(['tools/list', 'server/discover'])('stdio, 2026-07-28 opened with %s: every request claiming a version we do not speak gets -32022', (opening) => {
  test('later requests claiming 1900-01-01 or a legacy version are refused like the opening, and not served', async () => {
    const p = serve();
    // The opening check's answer (the SDK entry's), which every later refusal must equal.
    p.send(request('modern', 1, 'tools/list', {}, '1900-01-01'));
    const atOpening = (await p.response(1)).error as Record<string, unknown>;
    expect(atOpening).toMatchObject({ code: -32022, data: { requested: '1900-01-01' } });
    p.send(request('modern', 2, opening));
    expect((await p.response(2)).result).toBeDefined();
    p.send(request('modern', 3, 'tools/list'));
    expect((await p.response(3)).result.tools).toHaveLength(4);

    p.send(request('modern', 4, 'tools/list', {}, '1900-01-01'));
    p.send(request('modern', 5, 'resources/list', {}, '1900-01-01'));
    expect((await p.response(4)).error).toEqual(atOpening);
    expect((await p.response(5)).error).toEqual(atOpening);
    expect((await p.response(4)).result).toBeUndefined();

    // An execute_tool claiming an unsupported version never reaches the upstream, handle or not.
    p.send(request('modern', 6, 'tools/call', { name: 'describe_tools', arguments: { tool_names: ['pets.get'] } }));
    const handle = handleIn(await p.response(6), 'pets.get');
    const execute = { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 3 }, handle } };
    p.send(request('modern', 7, 'tools/call', execute, '1900-01-01'));
    p.send(request('modern', 8, 'tools/call', execute, '2025-11-25'));
    expect((await p.response(7)).error).toEqual(atOpening);
    const legacyClaim = (await p.response(8)).error;
    expect(legacyClaim).toMatchObject({ code: -32022, data: { supported: (atOpening.data as { supported: unknown }).supported, requested: '2025-11-25' } });
    expect(up.hits('/pets/3')).toHaveLength(0);
    // the connection goes on serving the version it speaks
    p.send(request('modern', 9, 'tools/call', execute));
    expect((await p.response(9)).result.structuredContent.success).toBe(true);
    expect(up.hits('/pets/3')).toHaveLength(1);
    expect((await p.end()).code).toBe(0);
  });
});

describe.each(ERAS)('stdio, %s', (era: Era) => {
  test(
    era === 'modern'
      ? 'a 2026-07-28 connection remembers no describe: execute_tool without the handle is refused (0 upstream), with it it runs'
      : 'a legacy connection still remembers its describes: execute_tool runs without the handle',
    async () => {
      const p = serve();
      await open(p, era);
      p.send(request(era, 2, 'tools/call', { name: 'describe_tools', arguments: { tool_names: ['pets.get'] } }));
      const handle = handleIn(await p.response(2), 'pets.get');
      p.send(request(era, 3, 'tools/call', { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 5 } } }));
      const without = (await p.response(3)).result.structuredContent;
      if (era === 'modern') {
        expect(without.success).toBe(false);
        expect(without.error.code).toBe('TOOL_DESCRIPTION_REQUIRED');
        expect(without.error.details.reason).toBe('not_described');
        expect(up.hits('/pets/5')).toHaveLength(0);
      } else {
        expect(without.success).toBe(true);
        expect(up.hits('/pets/5')).toHaveLength(1);
      }
      p.send(request(era, 4, 'tools/call', { name: 'execute_tool', arguments: { tool_name: 'pets.get', args: { petId: 6 }, handle } }));
      expect((await p.response(4)).result.structuredContent.success).toBe(true);
      expect(up.hits('/pets/6')).toHaveLength(1);
      expect((await p.end()).code).toBe(0);
    },
  );

  test('tools/list with a cursor (this server never issues one) -> -32602 invalid cursor; without one, the whole list', async () => {
    const p = serve();
    await open(p, era);
    p.send(request(era, 2, 'tools/list', { cursor: 'bogus' }));
    const refused = await p.response(2);
    expect(refused.result).toBeUndefined();
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toMatch(/^invalid cursor "bogus": .*without one$/);
    p.send(request(era, 3, 'tools/list'));
    expect((await p.response(3)).result.tools).toHaveLength(4);
    expect((await p.end()).code).toBe(0);
  });

  test('a line that is not a JSON-RPC request is answered (-32700 / -32600, no id unless a usable one); notifications and responses are not', async () => {
    const p = serve();
    p.send('this is not json'); // before the opening too
    await open(p, era);
    p.send('{"jsonrpc":"2.0","id":null,"method":"tools/list"}');
    p.send('1000');
    p.send('[]');
    p.send('{"jsonrpc":"1.0","id":99,"method":"ping"}');
    p.send('{not json either');
    // not answered: a blank line, a malformed notification, a malformed response (its id may be one of the client's)
    p.send('');
    p.send('{"jsonrpc":"2.0","method":"notifications/initialized","params":5}');
    p.send('{"jsonrpc":"2.0","id":77,"result":"not an object"}');
    // A fence: the refusals are written as the lines are read, so they are all out before this answer.
    p.send(request(era, 50, 'tools/list'));
    expect((await p.response(50)).result.tools).toHaveLength(4);
    const refusals = p
      .messages()
      .filter((m) => m.error?.code === -32700 || m.error?.code === -32600)
      .map((m) => ({ code: m.error.code as number, id: 'id' in m ? (m.id as unknown) : 'none' }));
    expect(refusals).toEqual([
      { code: -32700, id: 'none' },
      { code: -32600, id: 'none' },
      { code: -32600, id: 'none' },
      { code: -32600, id: 'none' },
      { code: -32600, id: 99 },
      { code: -32700, id: 'none' },
    ]);
    expect(p.messages().some((m) => m.id === 77 || m.id === null)).toBe(false);
    for (const m of p.messages()) expect(m.jsonrpc).toBe('2.0');
    expect((await p.end()).code).toBe(0);
    // Each refused line is still logged (stderr: the client's stdout stays the protocol), never its content.
    const warned = p.stderr().split('\n').filter((l) => l.includes('"event":"stdio_bad_message"'));
    expect(warned.length).toBeGreaterThanOrEqual(8);
    expect(p.stderr()).not.toContain('not an object');
  });
});
