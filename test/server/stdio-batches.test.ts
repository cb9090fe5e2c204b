// JSON-RPC batches on stdio (audit "proto", defect 7). The 2025-03-26 revision (and 2024-11-05, on JSON-RPC 2.0)
// let a client send a batch; this server refuses batches in every revision, a deviation README "Protocol versions"
// states with its reason. A session negotiated at such a revision gets the refusal (-32600) saying so, and goes on.
// The built CLI (`npm run build` first), raw stdin lines.
import { describe, expect, test } from 'vitest';
import { spawnStdioServe } from '../helpers/stdio-lines.js';

describe.each(['2025-03-26', '2024-11-05'])('stdio, a session negotiated at %s', (version: string) => {
  test('a batch is refused with -32600 saying batches are refused in every revision; the session goes on', async () => {
    const p = spawnStdioServe();
    p.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    expect((await p.response(1)).result.protocolVersion).toBe(version);
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    p.send([
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
    ]);
    p.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect((await p.response(5)).result).toEqual({});
    const refusals = p.messages().filter((m) => m.error !== undefined);
    expect(refusals).toEqual([
      {
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'Invalid Request: this server accepts no JSON-RPC batches, in any protocol revision (2025-03-26 and earlier included); send one message per line',
        },
      },
    ]);
    // the batch's members were not served one by one either
    expect(p.messages().some((m) => m.id === 3 || m.id === 4)).toBe(false);
    expect((await p.end()).code).toBe(0);
  });
});
