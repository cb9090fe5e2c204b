// Embeddings endpoint settings from flags and the environment: URL, model, dimensions, timeouts, fusion.
// The key is read from the environment only (never a flag, never a file) and is never part of a message.
import { AppError } from '../errors.js';

export type Fusion = 'gated' | 'mix' | 'rrf';
export const FUSIONS: readonly Fusion[] = ['gated', 'mix', 'rrf'];
export type AuthStyle = 'bearer' | 'api-key';

export interface EmbeddingsConfig {
  /** The embeddings endpoint, exactly as POSTed (…/embeddings, query string kept for Azure's api-version). */
  url: string;
  model: string;
  /** Requested output size (OpenAI text-embedding-3 `dimensions`); absent: the model's own. */
  dimensions?: number;
  /** From API_CATALOG_EMBEDDINGS_KEY; absent for local servers (Ollama, vLLM, LM Studio). */
  key?: string;
  /** `Authorization: Bearer <key>` (OpenAI, most servers) or `api-key: <key>` (Azure OpenAI). */
  auth: AuthStyle;
  /** Query-time budget for embedding one query; default 1500 ms. */
  queryTimeoutMs: number;
  /** Per-request budget at import/embed time; default 60 s. */
  importTimeoutMs: number;
  /** Texts per request at import/embed time; default 64. */
  batchSize: number;
  fusion: Fusion;
  /**
   * Send the key over plain `http://` to a host that is not loopback (API_CATALOG_EMBEDDINGS_ALLOW_HTTP=1). Default
   * false: such a configuration is refused (plainHttpKeyProblem), as upstream credentials are.
   */
  allowHttp?: boolean;
}

/** The flags a command may pass (all optional; env fills the rest). */
export interface EmbeddingsFlags {
  url?: string;
  model?: string;
  dimensions?: string;
  fusion?: string;
}

export const EMBEDDINGS_ENV = {
  url: 'API_CATALOG_EMBEDDINGS_URL',
  model: 'API_CATALOG_EMBEDDINGS_MODEL',
  dimensions: 'API_CATALOG_EMBEDDINGS_DIMENSIONS',
  key: 'API_CATALOG_EMBEDDINGS_KEY',
  auth: 'API_CATALOG_EMBEDDINGS_AUTH',
  timeout: 'API_CATALOG_EMBEDDINGS_TIMEOUT_MS',
  batch: 'API_CATALOG_EMBEDDINGS_BATCH',
  fusion: 'API_CATALOG_EMBEDDINGS_FUSION',
  allowHttp: 'API_CATALOG_EMBEDDINGS_ALLOW_HTTP',
} as const;

/** Fusion chosen by measurement (docs/EMBEDDINGS.md, "Fusion"). */
export const DEFAULT_FUSION: Fusion = 'gated';

function positiveInt(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new AppError('CONFIG_INVALID', `embeddings: ${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return n;
}

/**
 * The POST target for a configured URL: a URL whose path ends in `/embeddings` is used as given (Azure:
 * `https://<res>.openai.azure.com/openai/deployments/<dep>/embeddings?api-version=...`); otherwise
 * `/embeddings` is appended to the base (`https://api.openai.com/v1`, `http://localhost:11434/v1`).
 */
export function endpointUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('CONFIG_INVALID', `embeddings: URL ${JSON.stringify(raw.slice(0, 200))} is not a URL; give e.g. https://api.openai.com/v1 or http://localhost:11434/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('CONFIG_INVALID', `embeddings: URL must be http(s), got ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    // Not echoed: the userinfo may be the key itself.
    throw new AppError('CONFIG_INVALID', `embeddings: the URL must not carry user:password@; put the key in ${EMBEDDINGS_ENV.key} (the URL given is not shown)`);
  }
  if (!/\/embeddings\/?$/.test(url.pathname)) url.pathname = url.pathname.replace(/\/+$/, '') + '/embeddings';
  return url.toString();
}

/**
 * A host whose connections stay on this machine: `localhost`, 127.0.0.0/8, ::1 and IPv4-mapped 127.x, as the WHATWG URL
 * parser writes them (it turns `127.1` and `0x7f.1` into 127.0.0.1). The rule execution's plain-http check uses
 * (net/address-policy.ts, which this module may not import): `localhost.` and `*.localhost` are looked up like any
 * name, so they do not count.
 */
function loopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h);
}

/**
 * Why the key may not go to this endpoint: over plain http to a host that is not loopback, the key would cross the
 * network unencrypted, which no other credential of this server does unless the operator allows it. Undefined when
 * it may (https, loopback, no key, or API_CATALOG_EMBEDDINGS_ALLOW_HTTP=1). Names the endpoint (never the key) and the fix.
 */
export function plainHttpKeyProblem(config: Pick<EmbeddingsConfig, 'url' | 'key' | 'allowHttp'>): AppError | undefined {
  if (config.key === undefined || config.key === '' || config.allowHttp === true) return undefined;
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    return undefined; // endpointUrl refuses it with its own message
  }
  if (url.protocol !== 'http:' || loopbackHost(url.hostname)) return undefined;
  return new AppError(
    'CONFIG_INVALID',
    `embeddings: refused to send ${EMBEDDINGS_ENV.key} to ${url.origin} over plain http: the key would cross the network unencrypted. ` +
      `Use https (--embeddings-url https://${url.host}${url.pathname.replace(/\/embeddings\/?$/, '')}), a loopback address, or, on a network you trust, set ${EMBEDDINGS_ENV.allowHttp}=1`,
    { details: { origin: url.origin, env: EMBEDDINGS_ENV.allowHttp } },
  );
}

/** The endpoint for messages: origin and path only (a query string may hold a key on some gateways). */
export function endpointLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * Embeddings settings, or undefined when no URL is configured (the default: no network, lexical search).
 * Flags win over env. Throws CONFIG_INVALID naming the bad setting (never the key's value).
 */
export function resolveEmbeddingsConfig(flags: EmbeddingsFlags, env: Record<string, string | undefined>): EmbeddingsConfig | undefined {
  const rawUrl = flags.url ?? env[EMBEDDINGS_ENV.url];
  const model = flags.model ?? env[EMBEDDINGS_ENV.model];
  if (rawUrl === undefined || rawUrl.trim() === '') {
    if (model !== undefined && model.trim() !== '' && flags.model !== undefined) {
      throw new AppError('CONFIG_INVALID', `embeddings: --embeddings-model needs --embeddings-url (or ${EMBEDDINGS_ENV.url})`);
    }
    return undefined;
  }
  if (model === undefined || model.trim() === '') {
    throw new AppError(
      'CONFIG_INVALID',
      `embeddings: an endpoint is configured but no model; pass --embeddings-model <name> or set ${EMBEDDINGS_ENV.model} (e.g. text-embedding-3-small, nomic-embed-text)`,
    );
  }
  const authRaw = (env[EMBEDDINGS_ENV.auth] ?? 'bearer').trim().toLowerCase();
  if (authRaw !== 'bearer' && authRaw !== 'api-key') {
    throw new AppError('CONFIG_INVALID', `embeddings: ${EMBEDDINGS_ENV.auth} must be "bearer" or "api-key" (Azure OpenAI), got ${JSON.stringify(authRaw.slice(0, 40))}`);
  }
  const fusionRaw = (flags.fusion ?? env[EMBEDDINGS_ENV.fusion] ?? DEFAULT_FUSION).trim().toLowerCase();
  if (!(FUSIONS as readonly string[]).includes(fusionRaw)) {
    throw new AppError('CONFIG_INVALID', `embeddings: fusion must be one of ${FUSIONS.map((f) => `"${f}"`).join(', ')}, got ${JSON.stringify(fusionRaw.slice(0, 40))}`);
  }
  const config: EmbeddingsConfig = {
    url: endpointUrl(rawUrl.trim()),
    model: model.trim(),
    auth: authRaw,
    queryTimeoutMs: positiveInt(EMBEDDINGS_ENV.timeout, env[EMBEDDINGS_ENV.timeout], 1500, 60_000),
    importTimeoutMs: 60_000,
    batchSize: positiveInt(EMBEDDINGS_ENV.batch, env[EMBEDDINGS_ENV.batch], 64, 2048),
    fusion: fusionRaw as Fusion,
  };
  const dims = flags.dimensions ?? env[EMBEDDINGS_ENV.dimensions];
  if (dims !== undefined && dims.trim() !== '') config.dimensions = positiveInt('dimensions', dims, 0, 16_384);
  const key = env[EMBEDDINGS_ENV.key];
  if (key !== undefined && key !== '') config.key = key;
  const allow = (env[EMBEDDINGS_ENV.allowHttp] ?? '').trim().toLowerCase();
  if (allow !== '' && !['1', 'true', '0', 'false'].includes(allow)) {
    throw new AppError('CONFIG_INVALID', `embeddings: ${EMBEDDINGS_ENV.allowHttp} must be 1 or 0 (true or false), got ${JSON.stringify(allow.slice(0, 40))}`);
  }
  if (allow === '1' || allow === 'true') config.allowHttp = true;
  const problem = plainHttpKeyProblem(config);
  if (problem !== undefined) throw problem;
  return config;
}
