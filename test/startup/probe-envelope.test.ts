// The stdio probe answers a server/discover only when the full server would give the same answer (audit proto51,
// defect 4): an envelope the full server refuses with -32602 (a log level it does not know, a capability of the wrong
// shape, ...) goes to the full server, which refuses it; before, the probe answered it with a clean discovery, and the
// client then met -32602 on every request of the real session. An envelope it accepts, with the optional parts SDK
// clients send, is still answered early, and exactly as the full server answers it. The built CLI (`npm run build`
// first), raw stdin lines.
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { builtCli, MODERN_VERSION, REPO_ROOT } from '../helpers/mcp.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'probe-envelope', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * One `serve` over stdio that gets one server/discover line; resolves its answer and stderr once it exited (stdin
 * ends after the answer). `full`: with `--prefix ''` (the same instructions), which leaves the probe to the full server.
 */
function discoverOnce(meta: Record<string, unknown>, full: boolean): Promise<{ answer: any; stderr: string }> {
  const args = [builtCli(), 'serve', ...(full ? ['--prefix', ''] : [])];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, API_CATALOG_LOG_LEVEL: 'info' } });
  let out = '';
  let err = '';
  let answer: any;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const i = out.indexOf('\n');
    if (i >= 0 && answer === undefined) {
      answer = JSON.parse(out.slice(0, i));
      child.stdin.end();
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }) + '\n');
  return new Promise((resolve, reject) =>
    child.on('exit', () => (answer === undefined ? reject(new Error(`no answer; stderr:\n${err.slice(-2000)}`)) : resolve({ answer, stderr: err }))),
  );
}

describe('the stdio probe and the envelope of its server/discover', () => {
  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['an unknown log level', { ...META, 'io.modelcontextprotocol/logLevel': 'loud' }, 'io.modelcontextprotocol/logLevel'],
    ['elicitation a number', { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: 5 } }, 'io.modelcontextprotocol/clientCapabilities.elicitation'],
    ['roots.listChanged a string', { ...META, 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: 'yes' } } }, 'io.modelcontextprotocol/clientCapabilities.roots.listChanged'],
    ['an extension that is no object', { ...META, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.example/x': 1 } } }, "io.modelcontextprotocol/clientCapabilities.extensions.io.example/x"],
    ['a client title that is no string', { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'p', version: '1', title: 5 } }, 'io.modelcontextprotocol/clientInfo.title'],
  ];

  test.each(refused)('%s: the full server answers (-32602 naming the key), the same answer as without the probe', async (_label, meta, key) => {
    const [probed, full] = await Promise.all([discoverOnce(meta, false), discoverOnce(meta, true)]);
    expect(probed.answer.result).toBeUndefined();
    expect(probed.answer.error).toMatchObject({ code: -32602, data: { envelope: { key } } });
    expect(probed.answer).toEqual(full.answer);
    // the full server loaded to answer it
    expect(probed.stderr).toMatch(/serving/);
  }, 60_000);

  test('an envelope with what SDK clients add (log level, capabilities, a title) is answered early, as the full server answers it', async () => {
    const meta = {
      ...META,
      'io.modelcontextprotocol/clientInfo': { name: 'probe-envelope', version: '1', title: 'Probe' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} }, roots: { listChanged: true }, sampling: {}, extensions: { 'io.example/x': {} } },
      'io.modelcontextprotocol/logLevel': 'debug',
    };
    const [probed, full] = await Promise.all([discoverOnce(meta, false), discoverOnce(meta, true)]);
    expect(probed.answer.result.supportedVersions).toEqual([MODERN_VERSION]);
    expect(probed.answer).toEqual(full.answer);
    expect(probed.stderr).not.toMatch(/serving|"event":"serve"/);
    expect(full.stderr).toMatch(/serving/);
  }, 60_000);
});
