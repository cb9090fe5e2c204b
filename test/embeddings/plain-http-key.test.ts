// The embeddings key goes over plain http only to loopback, unless the operator allows it (outside audit, defect 12):
// the rule every upstream credential follows. Before, `embed --embeddings-url http://<a LAN address>` sent
// `Authorization: Bearer <key>` across the network unencrypted, with no refusal and no warning.
// Real parts: the built CLI (`embed`, `serve`), a listener on this machine's non-loopback address recording what
// reaches it (the refusal parts fall back to a TEST-NET address, never contacted, where the machine has none).
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveEmbeddingsConfig } from '../../src/embeddings/index.js';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { builtCli, REPO_ROOT } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'sk-embed-plain-http-canary-4e1b';
const SPEC = `openapi: 3.0.3
info: {title: Tiny, version: "1"}
servers: [{url: "https://tiny.invalid"}]
paths:
  /things:
    get: {operationId: listThings, summary: List things, responses: {"200": {description: OK}}}
`;

const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;

let registry = '';
let listener: Server | undefined;
let baseUrl = 'http://192.0.2.1:9/v1';
const received: Array<string | undefined> = [];

beforeAll(async () => {
  const dir = tempDir('ac-embed-http-');
  writeFileSync(join(dir, 'tiny.yaml'), SPEC);
  writeRegistry(await importSpec(join(dir, 'tiny.yaml'), { name: 'tiny' }), join(dir, 'reg'));
  registry = join(dir, 'reg', 'tiny');
  if (lan !== undefined) {
    const server = createServer((req, res) => {
      received.push(req.headers.authorization);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, lan, resolve));
    listener = server;
    baseUrl = `http://${lan}:${(server.address() as { port: number }).port}/v1`;
  }
});
afterAll(async () => {
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
});

function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('API_CATALOG_')) env[k] = v;
  return { ...env, API_CATALOG_EMBEDDINGS_KEY: KEY, ...extra };
}

describe('the embeddings key over plain http', () => {
  test('embed and serve refuse a non-loopback http endpoint before sending anything, naming the fix and never the key', async () => {
    const embed = await runProcess(process.execPath, [builtCli(), 'embed', '--registry', registry, '--embeddings-url', baseUrl, '--embeddings-model', 'm'], { cwd: REPO_ROOT, env: cliEnv({}) });
    expect(embed.status).not.toBe(0);
    expect(embed.stderr).toContain('over plain http');
    expect(embed.stderr).toContain('API_CATALOG_EMBEDDINGS_ALLOW_HTTP=1');
    const serve = await runProcess(process.execPath, [builtCli(), 'serve', '--registry', registry], {
      cwd: REPO_ROOT,
      env: cliEnv({ API_CATALOG_EMBEDDINGS_URL: baseUrl, API_CATALOG_EMBEDDINGS_MODEL: 'm' }),
    });
    expect(serve.status).not.toBe(0);
    expect(serve.stderr).toContain('API_CATALOG_EMBEDDINGS_ALLOW_HTTP=1');
    for (const out of [embed.stdout, embed.stderr, serve.stdout, serve.stderr]) expect(out).not.toContain(KEY);
    expect(received).toEqual([]);
  });

  test.skipIf(lan === undefined)('API_CATALOG_EMBEDDINGS_ALLOW_HTTP=1 lets it go (the operator\'s choice)', async () => {
    const embed = await runProcess(process.execPath, [builtCli(), 'embed', '--registry', registry, '--embeddings-url', baseUrl, '--embeddings-model', 'm'], {
      cwd: REPO_ROOT,
      env: cliEnv({ API_CATALOG_EMBEDDINGS_ALLOW_HTTP: '1' }),
    });
    expect(embed.stderr).toContain('refused the request (HTTP 401');
    expect(received).toEqual([`Bearer ${KEY}`]);
  });

  test('loopback (as the URL parser writes it), https, and no key are allowed; localhost. is a name like any other', () => {
    const env = { API_CATALOG_EMBEDDINGS_KEY: KEY };
    for (const url of ['http://127.0.0.1:11434/v1', 'http://127.1:11434/v1', 'http://localhost:11434/v1', 'http://[::1]:11434/v1', 'http://[::ffff:127.0.0.1]:1/v1', 'https://api.openai.com/v1']) {
      expect(resolveEmbeddingsConfig({ url, model: 'm' }, env)?.key, url).toBe(KEY);
    }
    expect(resolveEmbeddingsConfig({ url: 'http://10.0.0.5/v1', model: 'm' }, {})?.url).toBe('http://10.0.0.5/v1/embeddings');
    for (const url of ['http://localhost.:11434/v1', 'http://10.0.0.5/v1', 'http://[fd00::2]/v1']) {
      expect(() => resolveEmbeddingsConfig({ url, model: 'm' }, env), url).toThrow(/over plain http/);
    }
    expect(() => resolveEmbeddingsConfig({ url: 'http://10.0.0.5/v1', model: 'm' }, { ...env, API_CATALOG_EMBEDDINGS_ALLOW_HTTP: 'maybe' })).toThrow(/must be 1 or 0/);
  });
});
