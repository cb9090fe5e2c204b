// A client for OpenAI-compatible `POST /embeddings` (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio): batches and
// retries at import, one short attempt at query time, strict response checks. The key goes only into the request
// header: it is registered as a logger secret and never appears in an error, a log line or a file.
import { AppError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { EMBEDDINGS_ENV, endpointLabel, plainHttpKeyProblem, type EmbeddingsConfig } from './config.js';

/** `import`: batches, retries on 429/5xx with back-off, long timeout. `query`: one request, short timeout. */
export type EmbedMode = 'import' | 'query';

export interface EmbedResult {
  vectors: Float32Array[];
  /** The model the endpoint says it used (falls back to the configured name). */
  model: string;
}

/** Largest response body read (a batch of 64 x 3072 floats as JSON is ~4 MB). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const MAX_ATTEMPTS = 5;

export interface ClientOptions {
  logger?: Logger;
  /** Wait between retries (tests shorten it); default exponential from 500 ms, capped at 20 s. */
  backoffMs?: (attempt: number) => number;
  fetch?: typeof fetch;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });
}

async function readBounded(res: Response): Promise<string> {
  const length = Number(res.headers.get('content-length') ?? '0');
  if (length > MAX_RESPONSE_BYTES) throw new Error(`response of ${length} bytes is larger than ${MAX_RESPONSE_BYTES}`);
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new Error(`response larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Error text from the endpoint, short and with the key (and anything key-shaped) removed. */
function errorSnippet(body: string, key: string | undefined): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message ?? parsed.message;
    if (typeof m === 'string') text = m;
  } catch {
    /* not JSON: the raw text */
  }
  if (key !== undefined && key.length >= 4) text = text.split(key).join('[REDACTED]');
  text = text.replace(/\b(sk|key|api)[-_][A-Za-z0-9_*.-]{6,}/gi, '[REDACTED]').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? text.slice(0, 200) + '…' : text;
}

/** Checks and unpacks `{ data: [{ embedding, index }], model }` for `count` inputs. */
export function parseEmbeddingsResponse(body: string, count: number, where: string, expectDims?: number): { vectors: Float32Array[]; model?: string } {
  const bad = (why: string): AppError =>
    new AppError('UPSTREAM_RESPONSE_INVALID', `embeddings: ${where} answered, but not in the OpenAI embeddings format (${why}); check that the URL points at an OpenAI-compatible /v1/embeddings`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw bad('not JSON');
  }
  const data = (parsed as { data?: unknown }).data;
  if (!Array.isArray(data)) throw bad('no "data" array');
  if (data.length !== count) throw bad(`${data.length} embeddings for ${count} inputs`);
  const out: Array<Float32Array | undefined> = new Array(count).fill(undefined);
  let dims = expectDims;
  for (const [k, item] of data.entries()) {
    const emb = (item as { embedding?: unknown }).embedding;
    const rawIndex = (item as { index?: unknown }).index;
    const index = rawIndex === undefined ? k : rawIndex;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || out[index] !== undefined) throw bad(`bad or repeated index at data[${k}]`);
    if (!Array.isArray(emb) || emb.length === 0) throw bad(`data[${k}].embedding is not a non-empty array of numbers (base64 encoding is not requested)`);
    dims ??= emb.length;
    if (emb.length !== dims) throw bad(`data[${k}].embedding has ${emb.length} dimensions, expected ${dims}`);
    const v = new Float32Array(emb.length);
    let norm = 0;
    for (let i = 0; i < emb.length; i++) {
      const x = emb[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) throw bad(`data[${k}].embedding[${i}] is not a finite number`);
      v[i] = x;
      norm += x * x;
    }
    if (norm === 0) throw bad(`data[${k}].embedding is all zeros`);
    out[index] = v;
  }
  const model = (parsed as { model?: unknown }).model;
  return { vectors: out as Float32Array[], ...(typeof model === 'string' ? { model } : {}) };
}

export class EmbeddingsClient {
  readonly config: EmbeddingsConfig;
  /** `https://host/v1/embeddings`, for messages (no query string, no key). */
  readonly label: string;
  private readonly logger: Logger;
  private readonly backoffMs: (attempt: number) => number;
  private readonly fetchImpl: typeof fetch;

  constructor(config: EmbeddingsConfig, options: ClientOptions = {}) {
    // resolveEmbeddingsConfig refuses it already; a config built another way (a library user's) is held to it too
    const problem = plainHttpKeyProblem(config);
    if (problem !== undefined) throw problem;
    this.config = config;
    this.label = endpointLabel(config.url);
    this.logger = options.logger ?? silentLogger;
    this.logger.addSecret(config.key);
    this.backoffMs = options.backoffMs ?? ((attempt) => Math.min(20_000, 500 * 2 ** (attempt - 1)));
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Embeds `texts` in order. Import mode batches and retries; query mode makes one short attempt. */
  async embed(texts: readonly string[], mode: EmbedMode, onBatch?: (done: number, total: number) => void): Promise<EmbedResult> {
    if (texts.length === 0) return { vectors: [], model: this.config.model };
    const size = mode === 'import' ? this.config.batchSize : texts.length;
    const vectors: Float32Array[] = [];
    let model = this.config.model;
    let dims = this.config.dimensions;
    for (let start = 0; start < texts.length; start += size) {
      const batch = texts.slice(start, start + size);
      const got = mode === 'import' ? await this.withRetries(batch, dims) : await this.request(batch, this.config.queryTimeoutMs, dims);
      dims ??= got.vectors[0]?.length;
      vectors.push(...got.vectors);
      if (got.model !== undefined) model = got.model;
      onBatch?.(Math.min(start + size, texts.length), texts.length);
    }
    return { vectors, model };
  }

  private async withRetries(batch: readonly string[], dims: number | undefined): Promise<{ vectors: Float32Array[]; model?: string }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request(batch, this.config.importTimeoutMs, dims);
      } catch (err) {
        const retryable = err instanceof AppError && (err.details as { retryable?: boolean } | undefined)?.retryable === true;
        if (!retryable || attempt >= MAX_ATTEMPTS) throw err;
        const hinted = (err.details as { retryAfterMs?: number }).retryAfterMs;
        const wait = Math.min(30_000, hinted ?? this.backoffMs(attempt));
        this.logger.log('warn', { event: 'embeddings_retry', endpoint: this.label, attempt, waitMs: wait, reason: err.message });
        await sleep(wait);
      }
    }
  }

  private async request(batch: readonly string[], timeoutMs: number, dims: number | undefined): Promise<{ vectors: Float32Array[]; model?: string }> {
    const where = this.label;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.config.key !== undefined) {
      if (this.config.auth === 'api-key') headers['api-key'] = this.config.key;
      else headers.authorization = `Bearer ${this.config.key}`;
    }
    const body: Record<string, unknown> = { model: this.config.model, input: batch };
    if (this.config.dimensions !== undefined) body.dimensions = this.config.dimensions;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchImpl(this.config.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await readBounded(res);
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new AppError('UPSTREAM_TIMEOUT', `embeddings: ${where} did not answer within ${timeoutMs} ms; check that it is up (a cold local model can take longer: raise ${EMBEDDINGS_ENV.timeout})`, {
          details: { retryable: true },
        });
      }
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
      throw new AppError('UPSTREAM_UNREACHABLE', `embeddings: cannot reach ${where}${cause ? ` (${cause})` : ''}; check ${EMBEDDINGS_ENV.url} and that the server is running`, {
        details: { retryable: true },
      });
    }
    if (res.status === 401 || res.status === 403) {
      throw new AppError('AUTH_MISSING', `embeddings: ${where} refused the request (HTTP ${res.status}: ${errorSnippet(text, this.config.key)}); set ${EMBEDDINGS_ENV.key} (and ${EMBEDDINGS_ENV.auth}=api-key for Azure OpenAI)`);
    }
    if (res.status === 429 || res.status >= 500) {
      const after = Number(res.headers.get('retry-after'));
      throw new AppError('UPSTREAM_ERROR', `embeddings: ${where} answered HTTP ${res.status} (${errorSnippet(text, this.config.key)}); retry later or lower ${EMBEDDINGS_ENV.batch}`, {
        details: { retryable: true, ...(Number.isFinite(after) && after > 0 ? { retryAfterMs: after * 1000 } : {}) },
      });
    }
    if (res.status < 200 || res.status >= 300) {
      throw new AppError('UPSTREAM_ERROR', `embeddings: ${where} answered HTTP ${res.status} (${errorSnippet(text, this.config.key)}); check the URL and the model name ${JSON.stringify(this.config.model)}`);
    }
    return parseEmbeddingsResponse(text, batch.length, where, dims);
  }
}
