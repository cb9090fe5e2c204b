// A local HTTP server on loopback speaking the OpenAI embeddings protocol (`POST /v1/embeddings`), with a small
// deterministic model: hashed bag of words plus a few synonym groups, so a paraphrase lands near its operation.
// A test double of the external endpoint only; every behaviour a real endpoint can show is a switch. Test-only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Words the fake model treats as one meaning (the lexical index knows none of these pairs). */
export const SYNONYMS: string[][] = [
  ['hibernate', 'suspend', 'suspended', 'suspension', 'dormant'],
  ['membership', 'memberships', 'subscription', 'subscriptions'],
  ['bill', 'bills', 'invoice', 'invoices', 'statement'],
  ['patron', 'patrons', 'customer', 'customers', 'member'],
];

export type Behaviour = 'ok' | 'stall' | 'garbage' | 'wrong-count' | 'error500' | 'not-json';

export interface FakeEmbeddingsServer {
  /** Base URL, e.g. http://127.0.0.1:PORT/v1 (the client appends /embeddings). */
  url: string;
  behaviour: Behaviour;
  /** Answer the next N requests with 429 (Retry-After: 0) before behaving. */
  fail429: number;
  /** Requests received at /v1/embeddings, and the texts in them. */
  requests: number;
  inputs: string[];
  /** Authorization / api-key headers received. */
  authHeaders: string[];
  /** When set, requests without `Bearer <key>` (or `api-key: <key>`) get 401 with a message that echoes a key prefix. */
  requiredKey?: string;
  close(): Promise<void>;
}

function fnv1a(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const canonical = new Map<string, string>();
for (const group of SYNONYMS) for (const w of group) canonical.set(w, group[0] as string);

/** The fake model: `dims` floats, deterministic for (model, text). */
export function fakeEmbedding(text: string, model: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  const seed = fnv1a(model, 7);
  const words = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !['the', 'and', 'for', 'with', 'get', 'post', 'domain', 'tags'].includes(w));
  for (const w of words) {
    const c = canonical.get(w) ?? w.replace(/s$/, '');
    const h = fnv1a(c, seed);
    v[h % dims] = (v[h % dims] as number) + (h & 0x10000 ? 1 : -1);
  }
  v[0] = (v[0] as number) + 0.05;
  return v;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake endpoint on 127.0.0.1:0. Models: `fake-embed` (64 dims) and `fake-embed-small` (32 dims). */
export async function startEmbeddingsServer(options: { behaviour?: Behaviour; requiredKey?: string } = {}): Promise<FakeEmbeddingsServer> {
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const state = {
    behaviour: options.behaviour ?? 'ok',
    fail429: 0,
    requests: 0,
    inputs: [] as string[],
    authHeaders: [] as string[],
    requiredKey: options.requiredKey,
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await body(req);
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/embeddings')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      state.requests++;
      const auth = req.headers.authorization ?? (req.headers['api-key'] !== undefined ? `api-key ${String(req.headers['api-key'])}` : '');
      state.authHeaders.push(auth);
      if (state.requiredKey !== undefined && auth !== `Bearer ${state.requiredKey}` && auth !== `api-key ${state.requiredKey}`) {
        // Like OpenAI: the message quotes part of the key it was given.
        const given = auth.replace(/^(Bearer|api-key) /, '');
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${given}. You can find your API key at https://example.test.` } }));
        return;
      }
      if (state.fail429 > 0) {
        state.fail429--;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"error":{"message":"rate limited"}}');
        return;
      }
      if (state.behaviour === 'stall') {
        held.push(res);
        return;
      }
      if (state.behaviour === 'error500') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model crashed"}}');
        return;
      }
      if (state.behaviour === 'not-json') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy login</html>');
        return;
      }
      let parsed: { model?: unknown; input?: unknown; dimensions?: unknown };
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"invalid JSON"}}');
        return;
      }
      const model = parsed.model;
      const inputs = typeof parsed.input === 'string' ? [parsed.input] : parsed.input;
      if (model !== 'fake-embed' && model !== 'fake-embed-small') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `model "${String(model)}" not found, try pulling it first` } }));
        return;
      }
      if (!Array.isArray(inputs) || !inputs.every((i) => typeof i === 'string')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"input must be a string or an array of strings"}}');
        return;
      }
      state.inputs.push(...(inputs as string[]));
      const dims = typeof parsed.dimensions === 'number' ? parsed.dimensions : model === 'fake-embed' ? 64 : 32;
      let data = (inputs as string[]).map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, model, dims) }));
      if (state.behaviour === 'garbage') data = data.map((d) => ({ ...d, embedding: d.embedding.map(() => 'NaN') as unknown as number[] }));
      if (state.behaviour === 'wrong-count') data = data.slice(1);
      // Out of order on purpose: clients must place rows by `index`.
      data.reverse();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    })();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const fake = state as unknown as FakeEmbeddingsServer;
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.close = async () => {
    for (const r of held) r.destroy();
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

/** A loopback port with nothing listening (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
