// Import-time embedding of a registry's operations: computes the vectors the registry lacks (reusing rows whose
// text and model did not change) and writes them beside the catalog. Used by `import --embeddings-url` and
// `api-catalog embed`. No search, no MCP.
import type { Operation } from '../types.js';
import type { EmbeddingsClient } from './client.js';
import { operationTexts, readEmbeddings, textHash, writeEmbeddings, type EmbeddingsManifest } from './store.js';

export interface EmbedReport {
  manifest: EmbeddingsManifest;
  /** Operations sent to the endpoint (the rest reused their stored vectors). */
  embedded: number;
  reused: number;
  /** True when nothing changed on disk. */
  unchanged: boolean;
}

/**
 * Embeds the operations of the registry at `dir` (its local names) and writes embeddings.json/.bin there.
 * Rows whose text hash, model and requested dimensions match the stored ones are reused.
 */
export async function embedRegistry(
  dir: string,
  operations: readonly Operation[],
  client: EmbeddingsClient,
  onProgress?: (message: string) => void,
): Promise<EmbedReport> {
  const { names, texts, fingerprint } = operationTexts(operations);
  let previous: ReturnType<typeof readEmbeddings>;
  try {
    previous = readEmbeddings(dir);
  } catch {
    previous = undefined; // damaged: embed everything again
  }
  const config = client.config;
  const old = new Map<string, Float32Array>();
  if (previous && previous.manifest.model === config.model && previous.manifest.requestedDimensions === config.dimensions) {
    const d = previous.manifest.dimensions;
    for (const [row, entry] of previous.manifest.operations.entries()) {
      old.set(`${entry.name}\0${entry.hash}`, previous.matrix.subarray(row * d, (row + 1) * d));
    }
  }
  if (previous && old.size > 0 && previous.manifest.textFingerprint === fingerprint && previous.manifest.operations.length === names.length) {
    return { manifest: previous.manifest, embedded: 0, reused: names.length, unchanged: true };
  }
  const vectors: Array<Float32Array | undefined> = names.map((n, i) => old.get(`${n}\0${textHash(texts[i] as string)}`));
  const todo = vectors.flatMap((v, i) => (v === undefined ? [i] : []));
  let endpointModel: string | undefined;
  if (todo.length > 0) {
    onProgress?.(`embedding ${todo.length} operation(s) with ${config.model} at ${client.label}`);
    const got = await client.embed(
      todo.map((i) => texts[i] as string),
      'import',
      (done, total) => onProgress?.(`embedded ${done}/${total}`),
    );
    endpointModel = got.model;
    const dims = got.vectors[0]?.length;
    const reusedDims = vectors.find((v) => v !== undefined)?.length;
    // A model that changed its output size under the same name: the old rows cannot mix with the new ones.
    if (reusedDims !== undefined && dims !== reusedDims) {
      const all = await client.embed(texts, 'import', (done, total) => onProgress?.(`re-embedding ${done}/${total}`));
      const manifest = writeEmbeddings(dir, { model: config.model, endpointModel: all.model, ...dimsOpt(config.dimensions), names, texts, fingerprint }, all.vectors);
      return { manifest, embedded: names.length, reused: 0, unchanged: false };
    }
    for (const [k, i] of todo.entries()) vectors[i] = got.vectors[k];
  } else {
    endpointModel = previous?.manifest.endpointModel;
  }
  const manifest = writeEmbeddings(
    dir,
    { model: config.model, ...(endpointModel !== undefined ? { endpointModel } : {}), ...dimsOpt(config.dimensions), names, texts, fingerprint },
    vectors as Float32Array[],
  );
  return { manifest, embedded: todo.length, reused: names.length - todo.length, unchanged: false };
}

function dimsOpt(d: number | undefined): { requestedDimensions?: number } {
  return d !== undefined ? { requestedDimensions: d } : {};
}
